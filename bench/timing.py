"""The benchmarks' one timing helper and table row, shared by every bench script."""
from __future__ import annotations

import statistics
import time


def timed(fn, repeat: int) -> list[float]:
    """Wall-clock seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def row(name: str, times: list[float], note: str = "", digits: int = 2) -> str:
    """A markdown table row: name, min, median, runs, note."""
    return (f"| {name} | {min(times):.{digits}f} s | {statistics.median(times):.{digits}f} s | "
            f"{len(times)} | {note} |")


def print_table(rows: list[str]) -> None:
    """Print rows made by ``row`` under the table header they share."""
    print("| measurement | min | median | runs | note |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
