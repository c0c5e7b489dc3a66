"""`perfwh sql`: a read-only query on the warehouse, printed as a table, CSV or JSON."""
from __future__ import annotations

import sys

from perfwh.warehouse.query import DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, MAX_TIMEOUT

from .common import EXIT_USAGE, add_db, json_error, memory_size, warehouse_to_read


def _sql(args) -> int:
    from perfwh.core.sandbox import forbid_file_changes
    from perfwh.warehouse.query import (NotOneQuery, QueryError, cap_process_memory, one_query,
                                        query, write_csv, write_json, write_table)

    try:
        one_query(args.query)
    except NotOneQuery as err:
        return _failed(args, f"error: {err}; usage: perfwh sql \"SELECT ...\" (see `perfwh sql "
                             "--help`)", EXIT_USAGE)
    except QueryError as err:  # a syntax error
        return _failed(args, f"error: {err}", 1)
    # A reader may first finish the renames of a killed writer's commit (warehouse_to_read);
    # from then on this process changes no file whatever the query says.
    db = warehouse_to_read(args.db)
    forbid_file_changes()
    try:
        cap_process_memory(args.memory_limit)
        result = query(db, args.query, timeout=args.timeout, memory_limit=args.memory_limit,
                       rendered=not args.json)
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


def _seconds(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{text!r}: the timeout must be a number of seconds "
                                         f"greater than 0 and at most {MAX_TIMEOUT:g}")
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
    p = sub.add_parser("sql", help="run a read-only SQL query on the warehouse",
                       description="Run one query (SELECT, WITH, FROM, VALUES, TABLE, DESCRIBE, "
                                   "SHOW, SUMMARIZE) on the warehouse, opened read-only. It can "
                                   "read no other file and create or change none. Exit status: 0 "
                                   "answered, 1 the query failed (an error, --timeout, "
                                   "--memory-limit), 2 not one query or bad arguments.")
    p.add_argument("query", help="SQL text, e.g. \"SELECT * FROM measurements LIMIT 5\"")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    fmt.add_argument("--json", action="store_true", help="a JSON array of objects")
    p.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"stop the query after this many seconds, at most {MAX_TIMEOUT:g} "
                        f"(default {DEFAULT_TIMEOUT:g}; Ctrl-C stops it at any time)")
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
