"""Benchmark of the website build (issue 5): `perfwh site`, all pages, from a fresh warehouse.

Builds a warehouse from data/raw into a temporary folder (rules run in DuckDB, the models
fitted when the models package is there), then times the whole site build as `make` runs it
(`perfwh site --db ... --out ...` in a new process: imports, kernels, pandoc, chart libraries,
downloads), `--repeat` times, and prints the figures with the renderer that ran.

Usage: .venv/bin/python bench/bench_site.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfwh.core.paths import RAW_DIR, SOURCES_FILE  # noqa: E402
from perfwh.stages.build import build  # noqa: E402
from perfwh.stages.models import build_models  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-site-") as tmp:
        db = Path(tmp) / "warehouse.duckdb"
        build(out=db, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="duckdb", progress=False)
        build_models(db, parquet=False)
        times, sentence, pages = [], "", 0
        for i in range(args.repeat):
            out = Path(tmp) / f"site-{i}"
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "perfwh.cli", "site", "--db", str(db), "--out", str(out)],
                                  cwd=ROOT, capture_output=True, text=True,
                                  env=dict(os.environ, GX_ANALYTICS_ENABLED="false"))
            times.append(time.perf_counter() - start)
            if proc.returncode != 0:
                print(proc.stdout, proc.stderr, sep="\n", file=sys.stderr)
                return 1
            lines = proc.stdout.strip().splitlines()
            sentence = lines[-1]
            pages = sum(1 for line in lines if line.startswith("  site/"))
        size = sum(f.stat().st_size for f in (Path(tmp) / "site-0").rglob("*") if f.is_file())
    print(f"site build (perfwh site, new process, {pages} pages), "
          f"{os.cpu_count()} cores:")
    print(f"  min {min(times):.1f} s, median {statistics.median(times):.1f} s over {len(times)} runs")
    print(f"  output {size / 1024 / 1024:.1f} MiB (with the downloads)")
    print(f"  {sentence}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
