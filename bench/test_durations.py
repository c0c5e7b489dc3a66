"""Where the test suite's time goes: the slowest tests and the time per file, from the JUnit XML
that `make test` writes (test-artifacts/junit.xml), as the Markdown tables DEVELOPING.md keeps.

A test's time here is its call plus its setup and teardown (pytest's JUnit report adds them), so
a session fixture's cost lands on the first test that asks for it. Under pytest-xdist the files'
times add up to more than the wall time: two workers run at once.

Usage: .venv/bin/python bench/test_durations.py [test-artifacts/junit.xml] [--top 25]
"""
from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cases(path: Path) -> list[tuple[str, str, float]]:
    """(file, test name, seconds) of every test case of the report."""
    out = []
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        file = "/".join(module[:2]) + ".py" if len(module) >= 2 else case.get("file", "?")
        out.append((file, case.get("name", "?"), float(case.get("time", 0) or 0)))
    return out


def tables(rows: list[tuple[str, str, float]], top: int) -> str:
    lines = [f"{len(rows)} tests, {sum(r[2] for r in rows) / 60:.1f} min of test time in all.", "",
             "| slowest tests | s |", "|---|---|"]
    for file, name, seconds in sorted(rows, key=lambda r: -r[2])[:top]:
        lines.append(f"| `{file}::{name}` | {seconds:.1f} |")
    per_file: dict[str, list[float]] = defaultdict(list)
    for file, _name, seconds in rows:
        per_file[file].append(seconds)
    lines += ["", "| file | tests | s |", "|---|---|---|"]
    for file, times in sorted(per_file.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"| `{file}` | {len(times)} | {sum(times):.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", type=Path, default=ROOT / "test-artifacts" / "junit.xml")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if not args.report.is_file():
        print(f"{args.report}: not found; `make test` writes it", file=sys.stderr)
        return 2
    print(tables(cases(args.report), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
