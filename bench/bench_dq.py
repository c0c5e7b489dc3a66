"""Benchmarks of the data-quality stage (issue 3).

Measures, on this machine:
  1. the rules on the five-report warehouse: directly in DuckDB, and through Great
     Expectations (a child process, as the build runs it), with the typo repair;
  2. `perfwh check` on a one-row CSV, cold, as a user runs it (a new process each time).
Target: (2) under 2 s. Large submissions: bench/bench_check.py.

Usage: .venv/bin/python bench/bench_dq.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import duckdb  # noqa: E402

from timing import print_table, row, timed  # noqa: E402
from ingest.submission import COLUMNS  # noqa: E402
from perfwh.stages.build import build  # noqa: E402
from perfwh.quality.rules import load_rules, run_rules  # noqa: E402
from perfwh.quality.gx import findings_in_subprocess  # noqa: E402
from perfwh.quality.repair import suggest  # noqa: E402

PERFWH = [sys.executable, "-m", "perfwh.cli"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-") as tmp:
        tmp = Path(tmp)
        warehouse = tmp / "warehouse.duckdb"
        build(out=warehouse, rules="duckdb", parquet=False, progress=False)
        rules = load_rules()

        con = duckdb.connect(str(warehouse), read_only=True)
        results.append(row("rules on the 5-report warehouse, DuckDB",
                           timed(lambda: run_rules(con, rules), args.repeat * 2)))
        results.append(row("... plus typo repair",
                           timed(lambda: suggest(con, run_rules(con, rules), rules), args.repeat)))
        con.close()
        copy = tmp / "gx.duckdb"
        copy.write_bytes(warehouse.read_bytes())
        results.append(row("rules on the 5-report warehouse, Great Expectations (child process, "
                           "incl. GX import)",
                           timed(lambda: findings_in_subprocess(copy, None), 1)))

        one = tmp / "one.csv"
        with open(one, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerow(dict(product="IIB", product_version="10.0.0.2", platform="xLinux",
                                 server_cores=8, scenario="ISO 8583 Transformation",
                                 message_size_bytes=1384, persistent="false",
                                 concurrency_kind="flow_copies", concurrency="", replicas="",
                                 msg_rate="13662.3", cpu_busy_pct="94.0", cpu_ms_per_msg="5.5"))

        def check_one():
            subprocess.run(PERFWH + ["check", str(one), "--db", str(warehouse)],
                           capture_output=True, check=False)

        results.append(row("`perfwh check` one-row CSV, cold (new process)",
                           timed(check_one, args.repeat * 2), "target < 2 s"))

    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
