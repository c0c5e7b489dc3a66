"""Benchmark of `make` on an unchanged tree: every stage is a stamp file that depends on what the
stage reads, so a second `make` runs nothing and says so. Target: under 2 s.

It first brings the tree up to date with one `make` (whatever that costs), checks that a
second run ran no stage (its output is only the "up to date" line), then times whole `make`
processes: with hyperfine when it is installed (Debian's package), else repeated runs.

Usage: .venv/bin/python bench/bench_make.py [--repeat 10]
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from timing import print_table, row, timed  # noqa: E402

TARGET_S = 2.0
UP_TO_DATE = "perfwh: the warehouse, findings, models, notebooks and site are up to date"


def make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    first = make()
    if first.returncode != 0:
        print(first.stdout[-2000:] + first.stderr[-2000:], file=sys.stderr)
        return 1
    second = make()
    if second.returncode != 0 or second.stdout.strip() != UP_TO_DATE:
        print(f"a second `make` did work:\n{second.stdout[-2000:]}", file=sys.stderr)
        return 1
    if shutil.which("hyperfine"):
        with tempfile.TemporaryDirectory() as tmp:
            export = Path(tmp) / "make.json"
            subprocess.run(["hyperfine", "--warmup", "1", "--runs", str(args.repeat), "--export-json",
                            str(export), "--command-name", "make (unchanged tree)", "make --no-print-directory"],
                           cwd=ROOT, check=True, capture_output=True)
            times = json.loads(export.read_text())["results"][0]["times"]
        how = "hyperfine"
    else:
        times = timed(lambda: make(), args.repeat)
        how = "repeated runs"
    print_table([row("`make` on an unchanged tree (nothing runs)", times, f"{how}; target < {TARGET_S:.0f} s")])
    return 0 if sorted(times)[len(times) // 2] < TARGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
