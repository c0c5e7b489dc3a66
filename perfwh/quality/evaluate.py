"""Running the rules on a warehouse: through Great Expectations, directly in DuckDB or on Apache
Spark, then the typo repair. The one sequence the build, `perfwh check` and `perfwh add` all use.

Whatever the engine, the findings end in the temporary table `rules.FOUND` of the connection
`evaluate` returns, and the typo repair runs in DuckDB on the flagged rows.

Findings and models depend on each other one way each: the models leave out the points that
error findings flag, and the model residual rule compares each point with the models'
prediction of it. So the rules run in two passes around the fit: first, in DuckDB, every rule
that does not read the models' predictions (dq_predictions), whose findings are written so that
the fit can leave the flagged points out; then the fit; then the engine runs the rules that
read the predictions (Great Expectations and Spark run every rule again, on the warehouse as it
now is). The quality stage sits below the models and does not import them: the stage that
calls (`perfwh.stages`) hands the fitting function in.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from perfwh.warehouse.db import run

from .repair import suggest_stored
from .rules import (FOUND, Rule, RuleError, create_found, load_rules, materialised, store_findings,
                    store_rule, store_rules, with_rows, write_findings)

ENGINES = {"gx": "Great Expectations", "duckdb": "DuckDB", "spark": "Apache Spark"}


def evaluate(con: duckdb.DuckDBPyConnection, engine: str = "duckdb", rules: list[Rule] | None = None,
             db_path: Path | None = None, gx_dir: Path | None = None, lake: Path | None = None,
             spark_master: str | None = None, repair: bool = True,
             fit_models: Callable[[duckdb.DuckDBPyConnection, list[str] | None], object] | None = None,
             subjects: list[str] | None = None,
             inspect: Callable[[duckdb.DuckDBPyConnection], object] | None = None
             ) -> duckdb.DuckDBPyConnection:
    """Every rule's findings on the warehouse open in ``con``, with typo-repair suggestions,
    stored in the temporary table FOUND of the connection returned.

    ``subjects``: the sources whose rows are checked (a check or an add: the sources it
    files); the rules see those rows, and a rule that compares with other sources' rows
    (`rules.COMPARES`) the rows it compares them with; findings, fits and repairs are theirs
    alone, the other sources' stay as they are. None: every source (a build).

    ``fit_models(con, subjects)``: the models stage (it writes the model tables and
    dq_predictions of the subjects' series into ``con``). Without it, the rules that read
    dq_predictions see whatever it holds (nothing in a warehouse the models stage has not run
    on).

    Great Expectations reads the database file itself (``db_path``), so ``con`` is closed
    for it and reopened afterwards: use the connection this returns. Spark reads the Parquet
    lake written here from this warehouse into the folder ``lake``, on the cluster
    ``spark_master``; both run every rule over every row, and only the subjects' findings are
    kept.

    ``inspect(con)``: the caller's own reads of the interface, run last; in DuckDB while the
    interface relations are still computed (a read of dq_input then costs a scan, not the
    regrouping of every number again: seconds on a million rows)."""
    rules = rules if rules is not None else load_rules()
    if engine not in ENGINES:
        raise RuleError(f"unknown rules engine {engine!r}, expected one of {', '.join(ENGINES)}")
    after_models = [r for r in rules if r.reads_models]
    fitted = fit_models is not None and bool(after_models)
    scope = {"subjects": subjects,
             "context": subjects is not None and any(r.compares == "measurement_key" for r in rules)}
    if engine == "duckdb":
        # one materialisation of the interface for both passes and the repair (the fit
        # between them changes no relation the rules read but dq_predictions)
        with materialised(con, **scope):
            if fitted:
                _first_pass(con, rules, fit_models, subjects)
                for rule in with_rows(con, after_models):
                    store_rule(con, rule)
            else:
                store_rules(con, rules)
            if repair:
                suggest_stored(con, rules, sources=subjects)
            if inspect is not None:
                inspect(con)
        return con
    if fitted:
        with materialised(con, **scope):
            _first_pass(con, rules, fit_models, subjects)
    if engine == "gx":
        from .gx import findings_in_subprocess

        if db_path is None:
            raise RuleError("Great Expectations needs the warehouse as a file")
        # reopened as it was configured (its memory limit and spill folder)
        config = dict(run(con, "SELECT name, value FROM duckdb_settings() "
                               "WHERE name IN ('memory_limit', 'temp_directory')"))
        con.close()
        findings = findings_in_subprocess(db_path, gx_dir)
        con = duckdb.connect(str(db_path), config=config)
        create_found(con)
        store_findings(con, findings)
    else:
        from perfwh.warehouse.lake import write_lake

        from .spark import store_spark_findings

        if lake is None:
            raise RuleError("Spark reads the warehouse's Parquet lake: no folder was given for it")
        write_lake(con, lake)
        store_spark_findings(con, rules, lake, spark_master)
    if subjects is not None:
        run(con, f"DELETE FROM {FOUND} WHERE source IS NULL OR source NOT IN (SELECT UNNEST(?::VARCHAR[]))",
            [sorted(set(subjects))])
    if repair:
        with materialised(con, **scope):
            suggest_stored(con, rules, sources=subjects)
    if inspect is not None:
        inspect(con)
    return con


def _first_pass(con: duckdb.DuckDBPyConnection, rules: list[Rule],
                fit_models: Callable[[duckdb.DuckDBPyConnection, list[str] | None], object],
                subjects: list[str] | None) -> None:
    """The rules that do not read the models' predictions, their findings written to
    dq_findings (the fit leaves the points they flag out), then the fit."""
    store_rules(con, [r for r in rules if not r.reads_models])
    write_findings(con, rules, sources=subjects)
    fit_models(con, subjects)
