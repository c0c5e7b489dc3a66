"""Warehouse changes the site's tests and benchmark make on a *copy* of a warehouse.

- `add_models`: the real model tables (`perfwh models`); where the models package is not there,
  `add_placeholder_models`: model_fits / model_predictions with the documented columns (issue 4)
  filled with placeholder numbers derived from the measurements. Placeholders only exercise the
  models page; they never stand in for the real tables (the site reads whatever those hold).
- `rename_scenario`: gives a scenario a hostile name, for the escaping tests.
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from .warehouse import run


def add_models(db: Path) -> str:
    """The real model tables (models.tables.build_models, as `perfwh models` builds them) when
    the models package provides them; placeholders otherwise. Returns which."""
    try:
        from models.tables import build_models
    except ImportError:
        add_placeholder_models(db)
        return "placeholder"
    build_models(db, parquet=False)
    return "models"


def add_placeholder_models(db: Path) -> bool:
    """Create model_fits and model_predictions if they are absent. Returns True if created."""
    con = duckdb.connect(str(db))
    try:
        have = {r[0] for r in run(con, "SELECT table_name FROM information_schema.tables")}
        if {"model_fits", "model_predictions"} <= have:
            return False
        run(con, """
            CREATE OR REPLACE TEMP TABLE _series AS
            SELECT dense_rank() OVER (ORDER BY source, source_table, product, product_version, platform, scenario,
                                      persistent, concurrency_kind, concurrency, replicas) AS series_id, *
            FROM measurements
            WHERE cpu_ms_per_msg > 0 AND message_size_bytes IS NOT NULL
            QUALIFY count(DISTINCT message_size_bytes) OVER (PARTITION BY source, source_table, product,
                    product_version, platform, scenario, persistent, concurrency_kind, concurrency, replicas) >= 3""")
        run(con, """
            CREATE TABLE model_predictions AS
            SELECT series_id, source, source_line, product, product_version, platform, scenario,
                   message_size_bytes, cpu_ms_per_msg AS observed_cpu_ms_per_msg,
                   cpu_ms_per_msg * 1.1 AS predicted_cpu_ms_per_msg,
                   cpu_ms_per_msg * 0.85 AS lower_90, cpu_ms_per_msg * 1.4 AS upper_90,
                   CASE WHEN series_id % 2 = 0 THEN 'linear' ELSE 'power' END AS model
            FROM _series ORDER BY series_id, message_size_bytes, source_line""")
        run(con, """
            CREATE TABLE model_fits AS
            SELECT series_id, any_value(source) AS source, any_value(product) AS product,
                   any_value(platform) AS platform, any_value(scenario) AS scenario,
                   any_value(model) AS model, count(*) AS points,
                   min(message_size_bytes) AS min_size_bytes, max(message_size_bytes) AS max_size_bytes
            FROM model_predictions GROUP BY series_id ORDER BY series_id""")
        return True
    finally:
        con.close()


def rename_scenario(db: Path, name: str, scenario: str | None = None) -> str:
    """Rename one scenario (default: the first one with measurements across message sizes)
    in dim_scenario; returns the old name."""
    con = duckdb.connect(str(db))
    try:
        if scenario is None:
            scenario = run(con, """
                SELECT scenario FROM measurements WHERE message_size_bytes IS NOT NULL
                GROUP BY scenario HAVING count(DISTINCT message_size_bytes) >= 3
                ORDER BY scenario LIMIT 1""")[0][0]
        run(con, "UPDATE dim_scenario SET scenario = ? WHERE scenario = ?", [name, scenario])
        return scenario
    finally:
        con.close()


_BUILT: dict[tuple, tuple] = {}


def build_test_site(source_db: Path, workdir: Path, *, scenario_name: str | None = None,
                    models: bool = True):
    """Copy `source_db` into `workdir`, change the copy (placeholder models when the real ones
    are absent; a renamed scenario), and build the site from it with the fallback renderer.
    Built once per process and arguments: returns (SiteResult, log lines, db copy)."""
    import shutil

    from .site import build_site

    key = (str(source_db), scenario_name, models)
    if key not in _BUILT:
        target = Path(workdir) / f"site-{len(_BUILT)}"
        target.mkdir(parents=True, exist_ok=True)
        db = target / "warehouse.duckdb"
        shutil.copyfile(source_db, db)
        if models:
            add_models(db)
        if scenario_name is not None:
            rename_scenario(db, scenario_name)
        lines: list[str] = []
        result = build_site(db=db, out=target / "_site", renderer="fallback", log=lines.append)
        _BUILT[key] = (result, lines, db)
    return _BUILT[key]
