"""The models stage: fit every series of the warehouse (the `models` library) and write the
model tables into it, atomically (`perfwh models`, `make models`)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import duckdb

from models.tables import (ACCURACY_QUERY, ACCURACY_SQL, PCT_MACRO, PREDICTIONS_VIEW_SQL, ModelRun,
                           fit_all, has_table, load_series, model_tables)
from perfwh.core.interrupts import interruptibly
from perfwh.quality.rules import BAND_EVIDENCE, load_rules, slip_evidence_rules
from perfwh.warehouse.db import create_table, insert_rows, placeholders, run

from .writing import atomic_update


@dataclass
class ModelSummary:
    series: int
    fitted: int
    unfitted: int
    points: int
    excluded: int
    by_model: dict[str, int]
    accuracy: list[tuple]  # (scope, points, mdape_pct, inside_90_pct, inside_99_pct, width_90_pct)
    findings_table: bool = True  # False: no dq_findings, nothing could be excluded


def fit_warehouse(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None,
                  accuracy: bool = True) -> ModelSummary:
    """Fit every series of the open warehouse and (re)write the model tables in it - or fit the
    series of ``sources`` only and replace their rows, keeping the other sources' (what a
    check or an add needs: a series is fitted with its own source's series alone, so the
    others' fits do not change). ``accuracy=False`` leaves model_accuracy
    as it was (a check's fit, which only the rules read; the summary then has no accuracy)."""
    findings_table = has_table(con, "dq_findings")
    series = load_series(con, sources, tuple(slip_evidence_rules(load_rules())), BAND_EVIDENCE)
    # the fit and its tables are numpy's work, minutes of it for a big file: a stop must not
    # wait for it (`interruptibly`); the connection is used here only, on this thread
    result, tables = interruptibly(lambda: _fitted(series))
    for name, columns, rows in tables:
        if sources is None or not has_table(con, name):
            create_table(con, name, columns, rows)
        else:
            run(con, f"DELETE FROM {name} WHERE source IN (SELECT UNNEST(?::VARCHAR[]))", [sorted(set(sources))])
            insert_rows(con, name, rows)
    if accuracy:
        write_accuracy(con, sources)
    run(con, PREDICTIONS_VIEW_SQL)
    by_model: dict[str, int] = defaultdict(int)
    for s in result.fitted:
        by_model[s.result.chosen] += 1
    points, excluded = run(con, "SELECT count(*), count(*) FILTER (WHERE excluded) FROM model_predictions")[0]
    scores = [] if not accuracy else run(
        con, "SELECT scope, points, mdape_pct, inside_90_pct, inside_99_pct, width_90_pct "
             "FROM model_accuracy WHERE model = 'chosen' ORDER BY scope = 'all', scope")
    return ModelSummary(len(series), len(result.fitted), len(result.unfitted), points, excluded,
                        dict(sorted(by_model.items())), scores, findings_table)


def _fitted(series) -> tuple[ModelRun, list]:
    result = fit_all(series)
    return result, model_tables(result)


def build_models(db: Path, parquet: bool = True, wait: bool = True) -> ModelSummary:
    """`perfwh models`: fit into the warehouse at ``db`` atomically (copy, fit, document,
    export, rename); ``wait``: for another writer's lock, else fail at once."""
    with atomic_update(Path(db), parquet=parquet, wait=wait) as staged:
        return fit_warehouse(staged.con)


def write_accuracy(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None) -> None:
    """model_accuracy from model_predictions (ACCURACY_SQL); with ``sources``, only their rows
    and the overall ones are computed again, the other reports' kept (each report's medians
    and ordered means cost a tenth of a second per hundred reports: an add grew with them).
    The rows lie as ACCURACY_SQL orders them: the reports by name, then 'all'."""
    if sources is None or not has_table(con, "model_accuracy"):
        run(con, "DROP TABLE IF EXISTS model_accuracy")
        run(con, ACCURACY_SQL)
        return
    sources = sorted(set(sources))
    of_sources = f"IN ({placeholders(sources)})" if sources else "IN (SELECT NULL WHERE FALSE)"
    run(con, PCT_MACRO)
    run(con, "CREATE OR REPLACE TEMP TABLE accuracy_changed AS "
             + ACCURACY_QUERY.format(only=f"AND source {of_sources}"), sources)
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE accuracy_kept AS
        SELECT * FROM model_accuracy
        WHERE scope <> 'all' AND scope NOT {of_sources}
          AND scope IN (SELECT DISTINCT source FROM model_predictions)""", sources)
    run(con, "DROP TABLE model_accuracy")
    run(con, """
        CREATE TABLE model_accuracy AS
        SELECT * FROM (SELECT * FROM accuracy_kept UNION ALL BY NAME SELECT * FROM accuracy_changed)
        ORDER BY scope = 'all', scope, model""")
    run(con, "DROP TABLE temp.main.accuracy_changed")
    run(con, "DROP TABLE temp.main.accuracy_kept")


def file_findings(con: duckdb.DuckDBPyConnection, rules, sources: list[str] | None = None) -> int:
    """Store the findings of ``sources`` (None: all) in dq_findings, and fit their series again
    with them: the fit between the rules' two passes left out the points the first pass
    flagged, but it names the findings that the typo repair and the model rules then changed.
    The one ending of a build's rules and of an add. Returns how many findings there are."""
    from perfwh.quality.rules import write_findings

    count = write_findings(con, rules, sources=sources)
    fit_warehouse(con, sources)
    return count
