"""Benchmark of the warehouse build (issue 2): the five reports, raw -> warehouse.

Measures, on this machine:
  1. in-process, after imports, each phase over several runs: verify + read + parse the
     five reports, load them (schema, raw tables, star schema, integrity check), the data
     dictionary (COMMENT ON), the Parquet export; and parse + load together, the figure
     with the target: under 2 s of wall time after imports;
  2. `perfwh.build.build(rules="none")` in-process, everything a build does but the rules;
  3. the whole command `perfwh build --rules none` as a user runs it (a new process, so
     imports included), with hyperfine when it is installed, else repeated subprocesses.

Usage: .venv/bin/python bench/bench_build.py [--repeat 5] [--no-command]
Prints a markdown table (min and median of the runs).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, SOURCES_FILE
from perfwh.stages.build import build
from perfwh.warehouse.inputs import read_manifest
from perfwh.warehouse.load import create_warehouse
from perfwh.warehouse.lake import write_lake
from perfwh.warehouse.schema import document
sys.path.insert(0, str(PROJECT_ROOT / "tests"))
from support.expected import report_count, total_values  # noqa: E402  (counted by the parsers)
from timing import row as timing_row
from timing import timed

TARGET_S = 2.0  # parse + load, wall time after imports
PERFWH = Path(sys.executable).with_name("perfwh")


def row(name: str, times: list[float], note: str = "") -> str:
    return timing_row(name, times, note, digits=3)


def phases(tmp: Path, repeat: int) -> dict[str, list[float]]:
    """Each phase timed on its own, and parse + load timed as one, over ``repeat`` runs."""
    out: dict[str, list[float]] = {k: [] for k in ("parse", "load", "document", "lake",
                                                   "parse+load")}
    for run in range(repeat):
        path = tmp / f"phases-{run}.duckdb"
        start = time.perf_counter()
        reports = read_manifest(RAW_DIR, SOURCES_FILE)
        parsed = time.perf_counter()
        con = duckdb.connect(str(path))
        try:
            create_warehouse(con, reports)
            loaded = time.perf_counter()
            document(con)
            documented = time.perf_counter()
            manifest = write_lake(con, tmp / f"lake-{run}")
            exported = time.perf_counter()
            out.setdefault("files", []).append(sum(len(r["files"]) for r in manifest["relations"].values()))
            values = con.sql("SELECT count(*) FROM fact_metric_value").fetchall()[0][0]
        finally:
            con.close()
        assert values == total_values(), values
        out["parse"].append(parsed - start)
        out["load"].append(loaded - parsed)
        out["parse+load"].append(loaded - start)
        out["document"].append(documented - loaded)
        out["lake"].append(exported - documented)
    return out


def command_hyperfine(tmp: Path, repeat: int) -> tuple[list[float], str]:
    export = tmp / "hyperfine.json"
    out = tmp / "cmd" / "warehouse.duckdb"
    command = f"{PERFWH} build --rules none -q --out {out}"
    subprocess.run(["hyperfine", "--warmup", "1", "--runs", str(repeat), "--export-json",
                    str(export), "--style", "none", command], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = json.loads(export.read_text())["results"][0]["times"]
    return times, "hyperfine, warm-up 1: `perfwh build --rules none -q --out <tmp>`"


def command_subprocess(tmp: Path, repeat: int) -> tuple[list[float], str]:
    out = tmp / "cmd" / "warehouse.duckdb"
    args = [str(PERFWH), "build", "--rules", "none", "-q", "--out", str(out)]
    subprocess.run(args, check=True)  # warm-up (file cache)
    return (timed(lambda: subprocess.run(args, check=True), repeat),
            "repeated subprocess runs (hyperfine not installed)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-command", action="store_true", help="skip the whole-command runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-build-") as name:
        tmp = Path(name)
        read_manifest(RAW_DIR, SOURCES_FILE)  # warm the file cache and lazy imports
        times = phases(tmp, args.repeat)
        full = timed(lambda: build(out=tmp / "full" / "warehouse.duckdb", rules="none",
                                   progress=False), args.repeat)
        command = None
        if not args.no_command:
            command = (command_hyperfine(tmp, args.repeat) if shutil.which("hyperfine")
                       else command_subprocess(tmp, args.repeat))
    best = min(times["parse+load"])
    files = times.pop("files")[0]
    print(f"## perfwh build: {report_count()} reports, {total_values()} values ({platform.python_implementation()} "
          f"{platform.python_version()}, DuckDB {duckdb.__version__}, {os.cpu_count()} CPUs)\n")
    print("| what | min | median | runs | note |")
    print("|---|---|---|---|---|")
    print(row("verify + read + parse (5 reports)", times["parse"]))
    print(row("load (schema, raw, star schema, integrity)", times["load"]))
    print(row("**parse + load**", times["parse+load"],
              f"target < {TARGET_S:.0f} s: {'met' if best < TARGET_S else 'NOT met'}"))
    print(row("data dictionary (COMMENT ON)", times["document"]))
    print(row(f"Parquet lake ({files} files: tables and the 2 views, partitioned by source)", times["lake"]))
    print(row("build(rules='none') in-process", full, "all of the above + atomic rename"))
    if command:
        print(row("`perfwh build --rules none` (new process)", command[0],
                  command[1] + "; includes Python and library imports"))
    return 0 if best < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
