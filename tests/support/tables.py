"""A warehouse's contents, for tests that compare two warehouses row by row."""
from __future__ import annotations

from pathlib import Path

import duckdb


def table_names(con) -> list[str]:
    return [r[0] for r in con.sql(
        "SELECT table_name FROM duckdb_tables() WHERE NOT internal ORDER BY 1").fetchall()]


def contents(path: Path) -> dict[str, list[tuple]]:
    """Every table's and contract view's full contents, ordered by all columns (ids first)."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        out = {}
        for name in table_names(con) + ["metric_values", "measurements"]:
            columns = [c for c in con.sql(f'SELECT * FROM "{name}" LIMIT 0').columns]
            out[name] = con.sql(f'SELECT * FROM "{name}" ORDER BY ALL').fetchall()
            out[name + " columns"] = columns
        return out
    finally:
        con.close()
