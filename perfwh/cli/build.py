"""`perfwh build`: raw reports -> warehouse."""
from __future__ import annotations

import sys
from pathlib import Path

from perfwh.core.paths import RAW_DIR, RAW_SUBMISSIONS, WAREHOUSE, warehouse_path

from .common import (add_db, add_memory_limit, add_no_wait, add_sources, add_spark_master,
                     warehouse_to_update)


def _build(args) -> int:
    from perfwh.core.lock import LockBusy
    from perfwh.stages.build import BuildError, build

    try:
        build(out=args.out, raw_dir=args.raw, sources_file=args.sources, rules=args.rules,
              parquet=not args.no_parquet, progress=not args.quiet, wait=not args.no_wait,
              spark_master=args.spark_master, memory_limit=args.memory_limit)
    except (BuildError, LockBusy) as err:
        print(f"perfwh build: error: {err}", file=sys.stderr)
        if Path(args.out).exists():
            print("perfwh build: the previous warehouse is unchanged", file=sys.stderr)
        else:
            print("perfwh build: no warehouse was written", file=sys.stderr)
        return 1
    return 0


def _findings(args) -> int:
    from perfwh.core.lock import LockBusy
    from perfwh.stages.build import BuildError, refresh_findings

    db = warehouse_to_update(args.db)
    try:
        count = refresh_findings(db, rules=args.rules, parquet=not args.no_parquet,
                                 wait=not args.no_wait, spark_master=args.spark_master)
    except (BuildError, LockBusy) as err:
        print(f"perfwh findings: error: {err}", file=sys.stderr)
        print("perfwh findings: the warehouse is unchanged", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"perfwh findings: {count} findings stored in {db}")
    return 0


def _recover(args) -> int:
    from perfwh.core.commit import JOURNAL, recover
    from perfwh.core.lock import writer_lock

    folder = warehouse_path(args.db).resolve().parent
    with writer_lock(folder, "recover", wait=not args.no_wait):
        unfinished = (folder / JOURNAL).exists()
        raw = args.sources.resolve().parent
        removed = recover(folder, [folder, raw, raw / RAW_SUBMISSIONS])
    if not args.quiet:
        print(f"perfwh recover: {folder}: "
              + ("finished the renames of a committed change" if unfinished else "nothing unfinished")
              + f"; {len(removed)} leftover(s) of uncommitted runs removed")
    return 0


def register(sub) -> None:
    p = sub.add_parser("build", help="raw reports -> warehouse (atomic, deterministic)",
                       description="Build the warehouse from the raw layer: parse every report and "
                                   "submission its manifest lists, load the star schema, run the rules, "
                                   "fit the models and write the Parquet lake beside it, all or nothing. "
                                   "`make` runs it when the raw layer or the code that loads it changed.")
    p.add_argument("--raw", type=Path, default=RAW_DIR, help=f"raw layer folder (default {RAW_DIR})")
    add_sources(p, "the sources it lists are built")
    p.add_argument("--out", type=Path, default=WAREHOUSE,
                   help=f"warehouse file to write (default {WAREHOUSE}; not $PERFWH_DB, which names a "
                        "warehouse to read)")
    p.add_argument("--rules", choices=("gx", "duckdb", "spark", "none"), default="gx",
                   help="run the data-quality rules through Great Expectations (default), "
                        "directly in DuckDB, on Apache Spark over the Parquet lake, or not at all")
    add_spark_master(p)
    add_memory_limit(p)
    p.add_argument("--no-parquet", action="store_true",
                   help="skip the Parquet lake (it is emptied: it would no longer match the warehouse)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    add_no_wait(p)
    p.set_defaults(func=_build)

    p = sub.add_parser("findings", help="run the data-quality rules on the warehouse again",
                       description="Run every rule file on the warehouse as it is and store the "
                                   "findings (what `perfwh build` does after loading), atomically. "
                                   "`make` runs it when a rule file changed, without parsing again.")
    p.add_argument("--rules", choices=("gx", "duckdb", "spark"), default="gx",
                   help="through Great Expectations (default), directly in DuckDB, or on "
                        "Apache Spark over the Parquet lake")
    add_spark_master(p)
    p.add_argument("--no-parquet", action="store_true",
                   help="skip refreshing the Parquet lake (it is emptied: it would no longer match the warehouse)")
    p.add_argument("-q", "--quiet", action="store_true", help="no output")
    add_no_wait(p)
    add_db(p)
    p.set_defaults(func=_findings)

    p = sub.add_parser("recover", help="finish or clean up what a killed writer left",
                       description="Take the writer lock, finish the renames of a change a killed "
                                   "writer had committed (its journal beside the warehouse), and "
                                   "remove the staged files of runs that never committed. Every "
                                   "writer does this first; `make` runs it when a journal is left.")
    add_db(p)
    add_sources(p, "the staged files beside it and its submissions are cleaned up too")
    add_no_wait(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no output")
    p.set_defaults(func=_recover)
