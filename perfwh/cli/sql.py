"""`perfwh sql`: a read-only query on the warehouse, printed as a table, CSV or JSON."""
from __future__ import annotations

import sys

from perfwh.warehouse.query import DEFAULT_MEMORY_LIMIT

from .common import EXIT_USAGE, add_db, json_error, memory_size, warehouse_to_read


def _sql(args) -> int:
    from perfwh.warehouse.query import (QueryError, cap_process_memory, query, write_csv,
                                        write_json, write_table)

    if not _statements(args.query):
        return _failed(args, "the query is empty; usage: perfwh sql \"SELECT ...\" "
                             "(see `perfwh sql --help`)", EXIT_USAGE)
    try:
        cap_process_memory(args.memory_limit)
        result = query(warehouse_to_read(args.db), args.query, timeout=args.timeout,
                       memory_limit=args.memory_limit, rendered=not args.json)
    except QueryError as err:
        return _failed(args, f"error: {err}", 1)
    writer = write_csv if args.csv else write_json if args.json else write_table
    writer(result, sys.stdout)
    return 0


def _failed(args, message: str, status: int) -> int:
    """The message on stderr, and with --json also as JSON on stdout."""
    print(f"perfwh sql: {message}", file=sys.stderr)
    if args.json:
        print(json_error(f"perfwh sql: {message}", status))
    return status


def _statements(text: str) -> list:
    """The SQL statements in ``text`` (none for blanks, a lone ';' or only comments)."""
    import duckdb

    try:
        return duckdb.extract_statements(text)
    except duckdb.Error:  # a syntax error: the query itself will say where
        return [text]


def _seconds(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and value < float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r}: the timeout must be a positive number of seconds")
    return value


def _contents(args) -> int:
    from perfwh.warehouse.query import QueryError, connect_read_only, contents_markdown

    try:
        con = connect_read_only(warehouse_to_read(args.db))
    except QueryError as err:
        print(f"perfwh contents: {err}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(contents_markdown(con))
    finally:
        con.close()
    return 0


# Readers: an interruption has nothing to undo (main's message says so).
_sql.writes = False
_contents.writes = False

def register(sub) -> None:
    p = sub.add_parser("sql", help="run a read-only SQL query on the warehouse")
    p.add_argument("query", help="SQL text, e.g. \"SELECT * FROM measurements LIMIT 5\"")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    fmt.add_argument("--json", action="store_true", help="a JSON array of objects")
    p.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="stop the query after this many seconds (default: no limit; Ctrl-C "
                        "stops it at any time)")
    p.add_argument("--memory-limit", type=memory_size, default=DEFAULT_MEMORY_LIMIT, metavar="SIZE",
                   help=f"memory the query may use, e.g. 500MB, 4GB (default {DEFAULT_MEMORY_LIMIT})")
    add_db(p)
    p.set_defaults(func=_sql)

    p = sub.add_parser("contents", help="what the warehouse holds, as the README lists it",
                       description="Print the reports of the warehouse with their tables, numbers "
                                   "and statements, and the findings of the rules, as a Markdown "
                                   "sentence and table: the README's \"Contents of the warehouse\".")
    p.add_argument("--markdown", action="store_true", help="Markdown (the only format)")
    add_db(p)
    p.set_defaults(func=_contents)
