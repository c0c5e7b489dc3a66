"""The `perfwh` command. Each subcommand imports what it needs when it runs, so that a
quick command (sql, check) does not pay for the imports of a slow one (GX, notebooks)."""
from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from . import RAW_DIR, SOURCES_FILE, WAREHOUSE


def _build(args) -> int:
    from .build import BuildError, build

    try:
        build(out=args.out, raw_dir=args.raw, sources_file=args.sources, rules=args.rules,
              parquet=not args.no_parquet, progress=not args.quiet)
    except BuildError as err:
        print(f"perfwh build: error: {err}", file=sys.stderr)
        if Path(args.out).exists():
            print("perfwh build: the previous warehouse is unchanged", file=sys.stderr)
        else:
            print("perfwh build: no warehouse was written", file=sys.stderr)
        return 1
    return 0


def _sql(args) -> int:
    from .sqlcmd import QueryError, query, write_csv, write_json, write_table

    try:
        columns, rows = query(args.db, args.query)
    except QueryError as err:
        print(f"perfwh sql: error: {err}", file=sys.stderr)
        return 1
    writer = write_csv if args.csv else write_json if args.json else write_table
    writer(columns, rows, sys.stdout)
    return 0


def _add_common_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=WAREHOUSE,
                        help=f"warehouse file (default {WAREHOUSE})")


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="perfwh", description="perfwh: a data warehouse of IBM integration middleware performance reports")
    parser.add_argument("-v", "--verbose", action="store_true", help="log header variants and steps")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build", help="raw reports -> warehouse (atomic, deterministic)")
    p.add_argument("--raw", type=Path, default=RAW_DIR, help="raw layer folder")
    p.add_argument("--sources", type=Path, default=SOURCES_FILE, help="manifest (sources.yml)")
    p.add_argument("--out", type=Path, default=WAREHOUSE, help="warehouse file to write")
    p.add_argument("--rules", choices=("gx", "duckdb", "none"), default="gx",
                   help="run the data-quality rules through Great Expectations (default), "
                        "directly in DuckDB, or not at all")
    p.add_argument("--no-parquet", action="store_true", help="skip the Parquet export")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=_build)

    p = sub.add_parser("sql", help="run a read-only SQL query on the warehouse")
    p.add_argument("query", help="SQL text, e.g. \"SELECT * FROM measurements LIMIT 5\"")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    fmt.add_argument("--json", action="store_true", help="a JSON array of objects")
    _add_common_db(p)
    p.set_defaults(func=_sql)

    for module in _EXTENSIONS:
        importlib.import_module(module).register(sub)
    return parser


# Modules that add subcommands: each has register(subparsers) and imports nothing heavy
# at module level (its command functions import what they need when they run).
_EXTENSIONS = [
    "perfwh.checkcmd",   # check, add, rules (data quality)
    "models.cli",        # models, size
    "perfwh.sitecmd",    # notebooks, site
]


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(name)s: %(message)s")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
