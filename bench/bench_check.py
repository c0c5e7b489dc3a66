"""Benchmark of `perfwh check` on large submissions (issue 14): time, peak memory, and the ratio
to the time DuckDB takes to parse the same CSV, whole processes, in the same run.

For each size (default 100,000, 640,000, 1,000,000 and 10,000,000 rows of bench/synthetic.py,
a lab's results of many machines in one file, with oddities and planted typos):
  - parse: a new process that imports DuckDB and reads the CSV into a table (all columns as
    text, as the submission reader reads them) - the floor;
  - check: `perfwh check FILE --db WAREHOUSE --out FILE` as a user runs it (every finding
    written to a file, a summary on the terminal), with its default memory limit;
  both under /usr/bin/time for the peak resident memory. The largest size also runs under a
  4 GiB address-space limit (prlimit), to show it completes within it. A check completed when
  it exits 0 or 1 (errors found) and printed its summary line; anything else is a failure.
Targets: 1M rows within 10 x the parse (issue 26; issue 14 asked 5 x) and under 1 GiB; 10M rows complete under 4 GiB; time
linear in rows (log-log slope <= 1.05 from the smallest to the largest size). The script
exits 1 when a target is missed.

Usage: .venv/bin/python bench/bench_check.py [--sizes 100000,640000,1000000,10000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402

from perfwh.stages.build import build  # noqa: E402

PYTHON = sys.executable
LIMIT_GIB = 4
RATIO_TARGET, PEAK_TARGET_MIB, SLOPE_TARGET = 10.0, 1024, 1.05
_SUMMARY = re.compile(r"^perfwh check: \d+ rows, \d+ errors, \d+ warnings$", re.M)


@dataclass
class Run:
    wall: float      # seconds
    peak_mib: float  # peak resident memory
    status: int
    completed: bool  # the check got to its summary (exit 0 or 1)


def measured(command: list[str], limit_gib: int | None = None) -> Run:
    """One whole process under /usr/bin/time (and prlimit for ``limit_gib``)."""
    prefix = ["/usr/bin/time", "-f", "%M"]
    if limit_gib is not None and shutil.which("prlimit"):
        prefix = ["prlimit", f"--as={limit_gib * 1024 ** 3}", "--"] + prefix
    started = time.perf_counter()
    done = subprocess.run(prefix + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - started
    peaks = re.findall(r"^(\d+)$", done.stderr, re.M)
    peak = int(peaks[-1]) / 1024 if peaks else float("nan")
    completed = done.returncode in (0, 1) and bool(_SUMMARY.search(done.stderr))
    if done.returncode not in (0, 1):
        print(f"  exit {done.returncode}: {done.stderr.strip()[-400:]}", file=sys.stderr)
    return Run(wall, peak, done.returncode, completed)


def parse_command(csv_path: Path) -> list[str]:
    code = ("import duckdb; con = duckdb.connect(); "
            f"con.sql(\"CREATE TABLE t AS SELECT * FROM read_csv('{csv_path}', all_varchar = true)\")")
    return [PYTHON, "-c", code]


def check_command(csv_path: Path, warehouse: Path, out: Path) -> list[str]:
    return [PYTHON, "-m", "perfwh.cli", "check", str(csv_path), "--db", str(warehouse),
            "--out", str(out)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,640000,1000000,10000000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = []
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-check-") as tmp:
        tmp = Path(tmp)
        warehouse = tmp / "warehouse.duckdb"
        build(out=warehouse, rules="duckdb", parquet=False, progress=False)
        for size in sizes:
            path = synthetic.write(tmp / f"s{size}.csv", size)
            repeat = args.repeat if size <= 1_000_000 else 1
            parse, check = [], []
            for _ in range(repeat):  # alternating, so that both see the same machine
                parse.append(measured(parse_command(path)))
                check.append(measured(check_command(path, warehouse, tmp / "findings.txt")))
            limited = (measured(check_command(path, warehouse, tmp / "findings.txt"), LIMIT_GIB)
                       if size == max(sizes) else None)
            results.append((size, parse, check, limited, path.stat().st_size))
            path.unlink()
    return report(results)


def report(results) -> int:
    print("`perfwh check` on synthetic submissions, whole processes, medians:")
    print("| rows | CSV | DuckDB parse | check | ratio | check peak memory | completed |")
    print("|---|---|---|---|---|---|---|")
    medians, missed = [], []
    for size, parse, check, limited, nbytes in results:
        p = statistics.median(r.wall for r in parse)
        c = statistics.median(r.wall for r in check)
        peak = max(r.peak_mib for r in check)
        done = all(r.completed for r in check)
        medians.append((size, c))
        print(f"| {size:,} | {nbytes / 1e6:.0f} MB | {p:.2f} s | {c:.2f} s | {c / p:.1f} x | "
              f"{peak:.0f} MiB | {'yes' if done else 'NO'} |")
        if not done:
            missed.append(f"{size:,} rows did not complete")
        if size == 1_000_000:
            if c / p > RATIO_TARGET:
                missed.append(f"1M rows: {c / p:.1f} x the parse (target {RATIO_TARGET:g} x)")
            if peak > PEAK_TARGET_MIB:
                missed.append(f"1M rows: {peak:.0f} MiB (target < {PEAK_TARGET_MIB} MiB)")
        if limited is not None:
            print(f"| {size:,} under a {LIMIT_GIB} GiB limit | | | {limited.wall:.2f} s | | "
                  f"{limited.peak_mib:.0f} MiB | {'yes' if limited.completed else 'NO'} |")
            if not limited.completed:
                missed.append(f"{size:,} rows did not complete under {LIMIT_GIB} GiB")
    if len(medians) >= 2:
        (n0, t0), (n1, t1) = medians[0], medians[-1]
        slope = math.log(t1 / t0) / math.log(n1 / n0)
        print(f"\nlog-log slope of check time from {n0:,} to {n1:,} rows: {slope:.2f} "
              f"(target <= {SLOPE_TARGET})")
        if slope > SLOPE_TARGET:
            missed.append(f"slope {slope:.2f}")
    if missed:
        print("\nmissed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
