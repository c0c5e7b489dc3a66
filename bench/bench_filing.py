"""Benchmark: filing costs what it files. `perfwh check` and `perfwh add` of a small submission
on the reports' warehouse, and again after a large filing has grown it; and many filings one
after another, whose k-th must not cost more than the first.

Whole processes (`perfwh check` / `perfwh add` as a user runs them), each on a fresh copy of
the warehouse, the median of ``--repeat`` runs, every figure of one run of this script:

  1. the reports' warehouse (`perfwh build --rules duckdb`): a 7-row check and a 7-row add;
  2. it grows: ``--grow`` numbers (up to three a row: rate, %CPU, CPU cost) filed as
     ``--grow-filings`` clean synthetic submissions one after another (one: a single file of
     them all; a filing more where the rows held fewer numbers than expected), timed; then the
     7-row check and add on it and on the reports' warehouse again, their runs in turn, and
     the ratio (targets: add <= 3 s on the reports' warehouse; after the growth, add and check
     <= 1.2 x);
  3. with ``--filings N``: N submissions of ``--rows`` rows filed one after another on the
     reports' warehouse; the time of each, the least-squares slope of time against k, and
     whether the result equals one `perfwh build` of the same raw layer (the full-refresh =
     incremental property, row for row; ``--no-rebuild`` skips that comparison, whose build
     fits every series again).

``--grown DIR`` keeps the grown warehouse (DIR/curated, DIR/raw) for a later run or a profile,
and a later run with the same DIR takes it as it is instead of growing it again (its growth is
then not timed; the reports' warehouse is built afresh as always). A kept warehouse serves only
the code that built it: check and add refuse one built by other schema files.

Usage: .venv/bin/python bench/bench_filing.py [--grow 1000000 [--grow-filings 112] [--grown DIR]]
                                             [--repeat 3] [--filings 200 --rows 1000 [--no-rebuild]]
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))

import synthetic  # noqa: E402

PERFWH = [sys.executable, "-m", "perfwh.cli"]
METRICS = ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg")
ADD_TARGET_S, GROWTH_TARGET = 3.0, 1.2
HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
          "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")


def seven_rows(path: Path, box: str) -> Path:
    """Seven consistent rows of one lab machine: a fitted series of five sizes and a
    persistent pair (cost x rate = 8 cores x %CPU x 10, as printed)."""
    rows = []
    for size, rate in ((256, 4000.0), (1024, 3600.0), (4096, 2800.0), (16384, 1600.0), (65536, 600.0)):
        rows.append(f"IIB,10.0.0.2,{box},8,Bench flow,{size},false,flow_instances,4,,"
                    f"{rate:.1f},90.0,{8 * 900 / rate:.3f}")
    for size, rate in ((1024, 2400.0), (4096, 1900.0)):
        rows.append(f"IIB,10.0.0.2,{box},8,Bench flow,{size},true,flow_instances,4,,"
                    f"{rate:.1f},90.0,{8 * 900 / rate:.3f}")
    path.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def perfwh(*args) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True)
    return time.perf_counter() - start, done


def box_copy(db: Path, raw: Path, folder: Path) -> tuple[Path, Path]:
    """A copy of a warehouse (its lake too) and its raw layer, to file into."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(raw, folder / "raw")
    shutil.copytree(db.parent, folder / "curated", ignore=shutil.ignore_patterns(".perfwh.lock"))
    # the copy's pages written out now: a user's warehouse was written long before the command
    # that reads it, and the kernel's write-back of this copy is the benchmark's own cost
    os.sync()
    return folder / "curated" / db.name, folder / "raw"


def numbers_in(path: Path) -> int:
    """The numbers a submission files: its rate, %CPU and cost cells that are not blank."""
    with open(path, encoding="utf-8", newline="") as handle:
        return sum(bool(row[c].strip()) for row in csv.DictReader(handle) for c in METRICS)


def small_filing(db: Path, raw: Path, work: Path, label: str) -> tuple[float, float]:
    """(seconds of a 7-row check, of its add) on a fresh copy of the warehouse ``db``."""
    copy_db, copy_raw = box_copy(db, raw, work / label)
    path = seven_rows(work / f"{label}.csv", f"bench box {label}")
    check_s, done = perfwh("check", path, "--db", copy_db, "--sources", copy_raw / "sources.yml")
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed: {done.stderr}")
    add_s, done = perfwh("add", path, "--db", copy_db, "--sources", copy_raw / "sources.yml")
    if done.returncode != 0:
        raise SystemExit(f"add failed: {done.stderr}")
    shutil.rmtree(work / label)
    return check_s, add_s


def medians(times: list[tuple[float, float]]) -> dict[str, float]:
    return {"check": statistics.median(t[0] for t in times), "add": statistics.median(t[1] for t in times)}


def small_filings(db: Path, raw: Path, work: Path, label: str, repeat: int) -> dict[str, float]:
    return medians([small_filing(db, raw, work, f"{label} {i}") for i in range(repeat)])


def alternately(boxes, work: Path, repeat: int) -> list[dict[str, float]]:
    """small_filings of each (db, raw, label) box, their runs taken in turn."""
    times = [[] for _ in boxes]
    for i in range(repeat):
        for k, (db, raw, label) in enumerate(boxes):
            times[k].append(small_filing(db, raw, work, f"{label} {i}"))
    return [medians(t) for t in times]


def slope(ys: list[float]) -> tuple[float, float]:
    """The least-squares slope of ``ys`` against 1, 2, ... and its standard error."""
    xs = list(range(1, len(ys) + 1))
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    residual = sum((y - my - b * (x - mx)) ** 2 for x, y in zip(xs, ys)) / max(1, len(ys) - 2)
    return b, math.sqrt(residual / sxx)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grow", type=int, default=1_000_000, help="numbers filed to grow the warehouse")
    parser.add_argument("--grow-filings", type=int, default=1,
                        help="in how many submissions (a year of a lab's filings, rather than one file)")
    parser.add_argument("--grown", type=Path,
                        help="keep the grown warehouse in this folder; if it holds one already, use it")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--filings", type=int, default=0)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--no-rebuild", action="store_true",
                        help="with --filings: time the filings only, without comparing them with one "
                             "build of the same raw layer (which fits every series again: minutes)")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-filing-") as tmp:
        work = Path(tmp)
        raw = work / "raw"
        shutil.copytree(ROOT / "data" / "raw", raw)
        db = work / "curated" / "warehouse.duckdb"
        seconds, done = perfwh("build", "--rules", "duckdb", "--raw", raw, "--sources", raw / "sources.yml",
                               "--out", db, "-q")
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        numbers = lambda d: int(subprocess.run(  # noqa: E731
            PERFWH + ["sql", "--db", str(d), "--csv", "SELECT count(*) FROM fact_metric_value"],
            capture_output=True, text=True).stdout.split()[-1])
        base = small_filings(db, raw, work, "reports", args.repeat)
        print("| warehouse | numbers | 7-row check | 7-row add |\n|---|---|---|---|")
        print(f"| the reports | {numbers(db):,} | {base['check']:.2f} s | {base['add']:.2f} s |")
        ok &= base["add"] <= ADD_TARGET_S
        if args.grow:
            grown_db, grown_raw, grew, k = grown_box(db, raw, work, args.grow, args.grow_filings, args.grown)
            # the reports' warehouse again, a run each before each of the grown one's: the
            # machine's speed drifts over the minutes the growth takes, a ratio must not
            base, grown = alternately(((db, raw, "reports again"), (grown_db, grown_raw, "grown")),
                                      work, args.repeat)
            ratio = {k: grown[k] / base[k] for k in base}
            how = ("the adds of " + str(args.grown) if grew is None
                   else "one add" if k == 1 else f"{k} adds")
            print(f"| the reports, again (alternating with the next) | {numbers(db):,} | "
                  f"{base['check']:.2f} s | {base['add']:.2f} s |")
            took = "" if grew is None else f" ({grew:.0f} s)"
            print(f"| grown by {how}{took} | {numbers(grown_db):,} | {grown['check']:.2f} s "
                  f"({ratio['check']:.2f} x) | {grown['add']:.2f} s ({ratio['add']:.2f} x) |")
            ok &= max(ratio.values()) <= GROWTH_TARGET
        if args.filings:
            ok &= many_filings(db, raw, work, args.filings, args.rows, compare=not args.no_rebuild)
    print("targets met" if ok else "a target was missed")
    return 0 if ok else 1


def grown_box(db: Path, raw: Path, work: Path, numbers: int, filings: int, keep: Path | None
              ) -> tuple[Path, Path, float | None, int]:
    """A copy of the reports' warehouse grown by ``numbers`` numbers filed in about ``filings``
    clean synthetic submissions, one after another: (its db, its raw layer, the seconds the
    growth took - None when ``keep`` held a grown warehouse already, taken as it is - and the
    filings made). With ``keep``, the grown warehouse is kept there."""
    if keep is not None and (keep / "curated" / db.name).is_file():
        return keep / "curated" / db.name, keep / "raw", None, 0
    grown_db, grown_raw = box_copy(db, raw, keep if keep is not None else work / "grown")
    started = time.perf_counter()
    filed, rows_filed, k = 0, 0, 0
    while filed < numbers:  # the rows each filing needs, at the numbers a row has had so far
        k += 1
        per_row = filed / rows_filed if rows_filed else 3.0
        rows = max(1, math.ceil((numbers - filed) / per_row / max(1, filings - k + 1)))
        big = synthetic.write(work / f"grown-{k:04d}.csv", rows, seed=20261122 + k - 1,
                              oddity_rate=0, typo_every=0, tag=f" grown {k}")
        _s, done = perfwh("add", big, "--db", grown_db, "--sources", grown_raw / "sources.yml")
        if done.returncode != 0:
            raise SystemExit(f"growing add {k} failed: {done.stderr[-2000:]}")
        filed, rows_filed = filed + numbers_in(big), rows_filed + rows
    os.sync()
    return grown_db, grown_raw, time.perf_counter() - started, k


def many_filings(db: Path, raw: Path, work: Path, count: int, rows: int, compare: bool = True) -> bool:
    """``count`` submissions of ``rows`` rows filed one after another; the slope of time
    against k, and (``compare``) the result against one build of the same raw layer."""
    filed_db, filed_raw = box_copy(db, raw, work / "filings")
    times = []
    for k in range(1, count + 1):
        path = synthetic.write(work / f"filing-{k:04d}.csv", rows, seed=k, oddity_rate=0,
                               typo_every=0, tag=f" filing {k}")
        seconds, done = perfwh("add", path, "--db", filed_db, "--sources", filed_raw / "sources.yml")
        if done.returncode != 0:
            raise SystemExit(f"filing {k} failed: {done.stderr[-2000:]}")
        times.append(seconds)
    same = _equals_one_build(filed_db, filed_raw, work) if compare else None
    per, error = slope(times)
    first, last = statistics.median(times[:10]), statistics.median(times[-10:])
    print(f"\n{count} filings of {rows} rows: first ten {first:.2f} s, last ten {last:.2f} s (median), "
          f"slope {per * 1000:+.1f} ms per filing (standard error {error * 1000:.1f} ms); "
          f"equal to one build: {'not compared (--no-rebuild)' if same is None else same}")
    return same is not False and last <= first * GROWTH_TARGET


def _equals_one_build(filed_db: Path, filed_raw: Path, work: Path) -> bool:
    """Whether the warehouse the filings made holds what one `perfwh build` of its raw layer
    holds, table by table (the differences printed)."""
    from support.tables import contents

    rebuilt = work / "rebuilt" / "warehouse.duckdb"
    _s, done = perfwh("build", "--rules", "duckdb", "--raw", filed_raw, "--sources",
                      filed_raw / "sources.yml", "--out", rebuilt, "-q")
    once, incrementally = (contents(rebuilt), contents(filed_db)) if done.returncode == 0 else ({}, {None: 0})
    differ = sorted(name for name in set(once) | set(incrementally) if once.get(name) != incrementally.get(name))
    for name in differ:
        rows, filed = set(once.get(name, [])), set(incrementally.get(name, []))
        print(f"not as one build: {name}: {len(rows - filed)} rows only in the build, e.g. "
              f"{sorted(rows - filed, key=str)[:2]}; {len(filed - rows)} only in the filings, e.g. "
              f"{sorted(filed - rows, key=str)[:2]}")
    return not differ


if __name__ == "__main__":
    sys.exit(main())
