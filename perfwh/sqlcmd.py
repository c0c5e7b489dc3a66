"""`perfwh sql`: read-only queries for analysts, printed as a table, CSV or JSON."""
from __future__ import annotations

import csv
import datetime as dt
import decimal
import json
import math
import sys
from pathlib import Path

import duckdb


class QueryError(RuntimeError):
    pass


def connect_read_only(path: Path) -> duckdb.DuckDBPyConnection:
    """The warehouse opened read-only, with no access to other files: a query can read
    the warehouse and nothing else, and cannot write anywhere (no COPY TO, no ATTACH)."""
    if not Path(path).is_file():
        raise QueryError(f"{path}: no warehouse yet; run `make` (or `perfwh build`) first")
    con = duckdb.connect(str(path), read_only=True,
                         config={"enable_external_access": False, "lock_configuration": True})
    return con


def query(path: Path, sql: str, params: list | None = None) -> tuple[list[str], list[tuple]]:
    con = connect_read_only(path)
    try:
        result = con.execute(sql, params or [])
        columns = [d[0] for d in result.description] if result.description else []
        rows = result.fetchall()
    except duckdb.Error as err:
        raise QueryError(str(err).strip()) from None
    finally:
        con.close()
    return columns, rows


def _jsonable(value):
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _cell(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return repr(value) if value != int(value) or abs(value) >= 1e15 else f"{value:.1f}"
    return str(value)


def write_table(columns: list[str], rows: list[tuple], out=sys.stdout) -> None:
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [all(isinstance(row[i], (int, float, decimal.Decimal)) or row[i] is None
                   for row in rows) and rows for i in range(len(columns))]

    def line(values):
        return " | ".join(v.rjust(w) if numeric[i] else v.ljust(w)
                          for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    out.write(line(columns) + "\n")
    out.write("-+-".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write(line(row) + "\n")
    out.write(f"({len(rows)} row{'s' if len(rows) != 1 else ''})\n")


def write_csv(columns: list[str], rows: list[tuple], out=sys.stdout) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if v is None else _jsonable(v) for v in row])


def write_json(columns: list[str], rows: list[tuple], out=sys.stdout) -> None:
    json.dump([{c: _jsonable(v) for c, v in zip(columns, row)} for row in rows], out,
              ensure_ascii=False, indent=1)
    out.write("\n")
