"""Benchmarks of the models stage (issue 4).

Measures, on this machine, on a warehouse built from the five reports (rules run in DuckDB, so
that points with error findings are excluded as in `make`):
  1. the model fitting alone: load the series, fit both models with leave-one-size-out, write
     the four model tables (in-process, on an open copy of the warehouse);
  2. `perfwh models` as `make` runs it: a new process, the atomic copy, the data dictionary,
     the Parquet export and the rename;
  3. `perfwh size` cold (a new process), one answer with --json;
  4. `perfwh notebooks`: the six notebooks executed headless (two at a time, as `make`), and
     each notebook's own execution time.

Usage: .venv/bin/python bench/bench_models.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

from perfwh.stages.models import fit_warehouse
from timing import print_table, row, timed
from perfwh.stages.build import build

PERFWH = [sys.executable, "-m", "perfwh.cli"]


def run(*args) -> subprocess.CompletedProcess:
    done = subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"perfwh {' '.join(map(str, args))} failed:\n{done.stderr}")
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-models-") as tmp:
        tmp = Path(tmp)
        warehouse = tmp / "warehouse.duckdb"
        build(out=warehouse, rules="duckdb", parquet=False, progress=False)

        work = tmp / "work.duckdb"
        shutil.copyfile(warehouse, work)
        con = duckdb.connect(str(work))
        summary = fit_warehouse(con)  # first run: imports numpy/scipy
        results.append(row(f"model fitting: {summary.fitted} series, both models, leave-one-size-out, "
                           "4 tables written (in-process, warm)",
                           timed(lambda: fit_warehouse(con), args.repeat)))
        con.close()

        target = tmp / "models.duckdb"

        def models_cli():
            shutil.copyfile(warehouse, target)
            run("models", "--db", target, "-q")

        results.append(row("`perfwh models` (new process: imports, atomic copy, dictionary, Parquet)",
                           timed(models_cli, args.repeat), "incl. copying the warehouse first"))

        def size_cli():
            run("size", "--scenario", "HTTP XMLNSC ESQL Transformation", "--product", "ACE", "--version",
                "11", "--platform", "linux", "--config", "docker cores 2", "--size", "50KB", "--rate", "500",
                "--json", "--db", target)

        results.append(row("`perfwh size ... --json` cold (new process)", timed(size_cli, args.repeat * 2)))

        per_notebook: dict[str, list[float]] = {}

        def notebooks_cli():
            done = run("notebooks", "--db", target, "--out", tmp / "notebooks")
            for name, seconds in re.findall(r"perfwh notebooks: (\S+\.ipynb): .*?, ([\d.]+) s", done.stdout):
                per_notebook.setdefault(name, []).append(float(seconds))

        results.append(row("`perfwh notebooks`: 6 notebooks, 2 at a time (new process)",
                           timed(notebooks_cli, args.repeat)))
        for name, times in sorted(per_notebook.items()):
            results.append(row(f"... {name} (kernel start to last cell)", times, "run alongside another"))
    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
