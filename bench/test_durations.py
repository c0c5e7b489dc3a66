"""Where the test suite's time goes: the slowest tests and the time per file, from the JUnit XML
that `make test` writes (test-artifacts/junit.xml), as the Markdown tables DEVELOPING.md keeps.

A test's time here is its call plus its setup and teardown (pytest's JUnit report adds them), so
a session fixture's cost lands on the first test that asks for it. Under pytest-xdist the files'
times add up to more than the wall time: two workers run at once.

With ``--cpu FOLDER`` the tables count CPU seconds instead, from a run with
``PERFWH_TEST_CPU=FOLDER`` (tests/support/cpu_profile.py): a test's CPU and that of every
process it started. On two cores the run is CPU-bound, so its length is about the CPU of all
tests divided by two, whereas a test's wall time depends on what ran beside it.

Usage: .venv/bin/python bench/test_durations.py [test-artifacts/junit.xml] [--top 25] [--cpu FOLDER]
"""
from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def without_group(name: str) -> str:
    """A test's name without the "@group" pytest-xdist's loadgroup appends to it (to a
    parametrised test's name as "test[id]@group]")."""
    head, at, group = name.rpartition("@")
    if not at:
        return name
    if "]" not in group or (head.endswith("]") and group.index("]") == len(group) - 1):
        return head
    return name


def cases(path: Path) -> list[tuple[str, str, float]]:
    """(file, test name, seconds) of every test case of the report."""
    out = []
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        file = "/".join(module[:2]) + ".py" if len(module) >= 2 else case.get("file", "?")
        out.append((file, without_group(case.get("name", "?")), float(case.get("time", 0) or 0)))
    return out


def cpu_cases(folder: Path) -> list[tuple[str, str, float]]:
    """(file, test name, CPU seconds) from the workers' files of a PERFWH_TEST_CPU run."""
    out = []
    for path in sorted(folder.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            nodeid, cpu, _wall = line.rsplit("\t", 2)
            file, _, name = nodeid.partition("::")
            out.append((file, without_group(name), float(cpu)))
    return out


def tables(rows: list[tuple[str, str, float]], top: int, what: str = "test time") -> str:
    unit = "CPU s" if what == "CPU" else "s"
    lines = [f"{len(rows)} tests, {sum(r[2] for r in rows) / 60:.1f} min of {what} in all.", "",
             f"| slowest tests | {unit} |", "|---|---|"]
    for file, name, seconds in sorted(rows, key=lambda r: -r[2])[:top]:
        lines.append(f"| `{file}::{name}` | {seconds:.1f} |")
    per_file: dict[str, list[float]] = defaultdict(list)
    for file, _name, seconds in rows:
        per_file[file].append(seconds)
    lines += ["", f"| file | tests | {unit} |", "|---|---|---|"]
    for file, times in sorted(per_file.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"| `{file}` | {len(times)} | {sum(times):.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", type=Path, default=ROOT / "test-artifacts" / "junit.xml")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--cpu", type=Path, metavar="FOLDER",
                        help="CPU seconds from a run with PERFWH_TEST_CPU=FOLDER")
    args = parser.parse_args()
    if args.cpu:
        if not list(args.cpu.glob("*.tsv")):
            print(f"{args.cpu}: no profile; run the tests with PERFWH_TEST_CPU={args.cpu}", file=sys.stderr)
            return 2
        print(tables(cpu_cases(args.cpu), args.top, "CPU"))
        return 0
    if not args.report.is_file():
        print(f"{args.report}: not found; `make test` writes it", file=sys.stderr)
        return 2
    print(tables(cases(args.report), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
