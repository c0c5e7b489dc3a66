"""The models stage: fit every series of the warehouse (the `models` library) and write the
model tables into it, atomically (`perfwh models`, `make models`)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import duckdb

from models.spec import MIN_SIZES
from models.tables import (ACCURACY_SQL, PREDICTIONS_VIEW_SQL, count_series, fit_all, has_table,
                           load_series, model_tables)
from perfwh.warehouse.db import create_table, insert_rows, run

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


class TooManySeries(Exception):
    """More series to fit than the caller allows (fitting takes about 20 ms a series)."""

    def __init__(self, series: int, limit: int):
        super().__init__(f"{series} series to fit, more than the limit of {limit}")
        self.series, self.limit = series, limit


def fit_warehouse(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None,
                  max_series: int | None = None) -> ModelSummary:
    """Fit every series of the open warehouse and (re)write the model tables in it - or fit the
    series of ``sources`` only and replace their rows, keeping the other sources' (what a
    check or an add needs: a series is fitted with its own source's series alone, so the
    others' fits do not change). With ``max_series``, raise TooManySeries instead when more
    series than that have enough sizes to be fitted."""
    findings_table = has_table(con, "dq_findings")
    if max_series is not None:  # counted in SQL: a million points are gigabytes as Python objects
        fittable = count_series(con, sources, MIN_SIZES)
        if fittable > max_series:
            raise TooManySeries(fittable, max_series)
    series = load_series(con, sources)
    result = fit_all(series)
    for name, columns, rows in model_tables(result):
        if sources is None or not has_table(con, name):
            create_table(con, name, columns, rows)
        else:
            run(con, f"DELETE FROM {name} WHERE source IN (SELECT UNNEST(?::VARCHAR[]))", [sorted(set(sources))])
            insert_rows(con, name, rows)
    run(con, "DROP TABLE IF EXISTS model_accuracy")
    run(con, ACCURACY_SQL)
    run(con, PREDICTIONS_VIEW_SQL)
    by_model: dict[str, int] = defaultdict(int)
    for s in result.fitted:
        by_model[s.result.chosen] += 1
    points, excluded = run(con, "SELECT count(*), count(*) FILTER (WHERE excluded) FROM model_predictions")[0]
    accuracy = run(con, "SELECT scope, points, mdape_pct, inside_90_pct, inside_99_pct, width_90_pct "
                        "FROM model_accuracy WHERE model = 'chosen' ORDER BY scope = 'all', scope")
    return ModelSummary(len(series), len(result.fitted), len(result.unfitted), points, excluded,
                        dict(sorted(by_model.items())), accuracy, findings_table)


def build_models(db: Path, parquet: bool = True) -> ModelSummary:
    """`perfwh models`: fit into the warehouse at ``db`` atomically (copy, fit, document,
    export, rename)."""
    with atomic_update(Path(db), parquet=parquet) as staged:
        return fit_warehouse(staged.con)


def file_findings(con: duckdb.DuckDBPyConnection, rules, sources: list[str] | None = None) -> int:
    """Store the findings of ``sources`` (None: all) in dq_findings, and fit their series again
    with them: the fit between the rules' two passes left out the points the first pass
    flagged, but it names the findings that the typo repair and the model rules then changed.
    The one ending of a build's rules and of an add. Returns how many findings there are."""
    from perfwh.quality.rules import write_findings

    count = write_findings(con, rules, sources=sources)
    fit_warehouse(con, sources)
    return count
