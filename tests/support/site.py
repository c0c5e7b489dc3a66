"""Warehouse changes the site's tests and benchmark make on a *copy* of a warehouse.

- `add_models`: the real model tables (`perfwh models`);
- `rename_scenario`: gives a scenario a hostile name, for the escaping tests;
- `add_gx_findings`: the findings run through Great Expectations, with its Data Docs;
- `build_test_site`: the site built once per test run from such a copy.
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from perfwh.stages.models import build_models
from perfwh.warehouse.db import run


def add_models(db: Path) -> str:
    """The real model tables, as `perfwh models` builds them."""
    build_models(db, parquet=False)
    return "models"


def add_gx_findings(db: Path) -> None:
    """The rules run again through Great Expectations, as `make` runs them: the same findings,
    plus the validation results and Data Docs beside the warehouse (gx/), which the site
    publishes."""
    from perfwh.stages.build import refresh_findings

    refresh_findings(db, rules="gx", parquet=False)


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


def build_test_site(factory, source_db: Path, *, scenario_name: str | None = None,
                    models: bool = True, gx: bool | None = None):
    """Copy `source_db`, change the copy (the findings through Great Expectations - by
    default unless a scenario is renamed -, the real models, a renamed scenario), and build
    the site from it with the fallback renderer.
    Built once per test run and arguments, whichever xdist worker asks first
    (`support.shared.once`): returns (SiteResult, log lines, db copy)."""
    from perfwh.publish.site.build import build_site

    from .shared import once

    gx = scenario_name is None if gx is None else gx

    def make(target: Path) -> tuple:
        import shutil

        db = target / "warehouse.duckdb"
        shutil.copyfile(source_db, db)
        if gx:
            add_gx_findings(db)
        if models:
            add_models(db)
        if scenario_name is not None:
            rename_scenario(db, scenario_name)
        lines: list[str] = []
        result = build_site(db=db, out=target / "_site", renderer="fallback", log=lines.append)
        return result, lines, db

    return once(factory, f"site {source_db} {scenario_name!r} {models} {gx}", make)
