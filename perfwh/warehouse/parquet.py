"""The Parquet export of the curated layer: one file per table, plus the contract views.

The same relations are also written as a partitioned dataset, the lake (`lake.py`); both are
staged and committed with the warehouse by every writer (`perfwh.stages.writing.stage_exports`).
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from .db import run, sql_literal

# Views exported besides the tables: they are the analyst contract.
EXPORT_VIEWS = ("metric_values", "measurements")


def exported_relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every table of the warehouse, then the contract views: what both exports hold."""
    return [r[0] for r in run(
        con, "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT internal AND NOT temporary ORDER BY table_name")] + list(EXPORT_VIEWS)


def export_parquet(con: duckdb.DuckDBPyConnection, directory: Path) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name in exported_relations(con):
        target = sql_literal(str(directory / f"{name}.parquet"))
        # ORDER BY ALL: a view's joins and aggregates come out in whatever order DuckDB's threads
        # finish; sorted by every column (ids first) the same warehouse gives the same bytes.
        run(con, f"COPY (SELECT * FROM {name} ORDER BY ALL) TO {target} (FORMAT parquet)")
