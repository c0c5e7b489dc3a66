"""Deterministic synthetic submissions in the CSV template, for the data-quality benchmarks.

Rows are series like the reports' own (one scenario, persistence and concurrency over a
sweep of message sizes), generated so that rate, %CPU and CPU cost agree the way a real
table's do (cost = cores x 10 x %CPU / rate, rounded as printed), with a few planted
typos (one row in TYPO_EVERY) so that the check has something to find.
"""
from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

from ingest.submission import COLUMNS

CORES = 8
SIZES = [256 * 4 ** i for i in range(8)]  # 256 B .. 4 MiB, a sweep like the reports'
TYPO_EVERY = 5000


def rows(count: int, seed: int = 20261122, typo_every: int = TYPO_EVERY, platform: str = "synthetic"):
    """``count`` rows measured on ``platform``; a typo in one row in ``typo_every`` (0: none, a
    clean submission)."""
    rnd = random.Random(seed)
    n = 0
    series = 0
    while n < count:
        series += 1
        scenario = f"Synthetic scenario {series}"
        persistent = rnd.random() < 0.3
        copies = rnd.choice([1, 2, 4, 8])
        fixed, per_kb = rnd.uniform(0.2, 5.0), rnd.uniform(0.005, 0.2)
        for size in SIZES:
            if n >= count:
                return
            n += 1
            cost = (fixed + per_kb * size / 1024) * (1.3 if persistent else 1.0)
            pct = round(rnd.uniform(93, 98), 1)  # saturated, as the reports aim for
            rate = round(CORES * 10 * pct / cost, 2)
            cost_printed = f"{CORES * 10 * pct / rate:.2f}"
            rate_printed = f"{rate:.2f}"
            if typo_every and n % typo_every == 0:  # a doubled digit in the rate
                rate_printed = rate_printed[0] + rate_printed
            yield {"product": "SYN", "product_version": "1.0", "platform": platform,
                   "server_cores": CORES, "scenario": scenario, "message_size_bytes": size,
                   "persistent": str(persistent).lower(), "concurrency_kind": "flow_instances",
                   "concurrency": copies, "replicas": "", "msg_rate": rate_printed,
                   "cpu_busy_pct": f"{pct:.1f}", "cpu_ms_per_msg": cost_printed}


def write(path: Path, count: int, typo_every: int = TYPO_EVERY, seed: int = 20261122,
          platform: str = "synthetic") -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows(count, seed, typo_every, platform))
    return path


if __name__ == "__main__":
    write(Path(sys.argv[1]), int(sys.argv[2]))
