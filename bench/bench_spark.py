"""Benchmark of the Spark engine (issue 14): `perfwh build --rules spark` against
`--rules duckdb`, and `perfwh check --engine spark` against the DuckDB engine on a synthetic
submission, whole commands as a user runs them (new processes: the Spark run includes
starting its JVM and SparkSession, local[2]).

Usage: .venv/bin/python bench/bench_spark.py [--repeat 1] [--rows 100000]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402
from timing import print_table, row, timed  # noqa: E402

PERFWH = [sys.executable, "-m", "perfwh.cli"]


def command(args: list[str]) -> None:
    done = subprocess.run(PERFWH + args, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # check exits 1 when it finds errors
        raise SystemExit(f"perfwh {' '.join(args)} failed:\n{done.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-spark-") as tmp:
        tmp = Path(tmp)
        for engine in ("duckdb", "spark"):
            out = tmp / engine / "warehouse.duckdb"
            results.append(row(f"`perfwh build --rules {engine}` (five reports, Parquet and lake)",
                               timed(lambda: command(["build", "--rules", engine, "-q", "--out",
                                                      str(out)]), args.repeat)))
        warehouse = tmp / "duckdb" / "warehouse.duckdb"
        path = synthetic.write(tmp / f"s{args.rows}.csv", args.rows)
        for engine in ("duckdb", "spark"):
            results.append(row(f"`perfwh check --engine {engine}` ({args.rows:,} rows)",
                               timed(lambda: command(["check", str(path), "--db", str(warehouse),
                                                      "--engine", engine, "--out",
                                                      str(tmp / "findings.txt")]), args.repeat)))
    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
