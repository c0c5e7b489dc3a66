"""Benchmarks of the models stage (issue 4) and the accuracy of its predictions (issue 24).

First the accuracy table, per report and overall, from model_predictions: the leave-one-size-out
median error, how many observed costs lie inside their 90 % and 99 % intervals, the median
width of the 90 % interval as a share of the prediction, and how many 90 % intervals reach
beyond their 99 % one - for the warehouse this code builds ("after") and, with --before, for a
warehouse an earlier version built (e.g. `make` at main: data/curated/warehouse.duckdb).

Then it measures, on this machine, on a warehouse built from the five reports (rules run in
DuckDB, so that points with error findings are excluded as in `make`):
  1. the model fitting alone: load the series, fit both models with leave-one-size-out, write
     the four model tables (in-process, on an open copy of the warehouse);
  2. `perfwh models` as `make` runs it: a new process, the atomic copy, the data dictionary,
     the Parquet export and the rename;
  3. `perfwh size` cold (a new process), one answer with --json;
  4. `perfwh notebooks`: the six notebooks executed headless (two at a time, as `make`), and
     each notebook's own execution time;
  5. the hierarchical model of one report of 2,000 series of lone tests in four
     configurations at eight sizes (a big submission): its fit and every point's prediction.

Usage: .venv/bin/python bench/bench_models.py [--repeat 3] [--before WAREHOUSE] [--no-timing]
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


# Per report, over the points not excluded; a missing limit (no variance) counts as not covering.
ACCURACY_TABLE_SQL = """
WITH p AS (
    SELECT source AS scope, * FROM model_predictions WHERE NOT excluded
    UNION ALL
    SELECT 'all' AS scope, * FROM model_predictions WHERE NOT excluded)
SELECT scope, count(*) AS points,
       median(ape_pct) AS mdape,
       100.0 * avg(CASE WHEN observed_cpu_ms_per_msg BETWEEN lower_90 AND upper_90 THEN 1 ELSE 0 END) AS inside_90,
       100.0 * avg(CASE WHEN observed_cpu_ms_per_msg BETWEEN lower_99 AND upper_99 THEN 1 ELSE 0 END) AS inside_99,
       median((upper_90 - lower_90) / predicted_cpu_ms_per_msg * 100) AS width_90,
       count(*) FILTER (WHERE lower_90 < lower_99 OR upper_90 > upper_99
                              OR (upper_90 IS NOT NULL AND upper_99 IS NULL)) AS wider
FROM p GROUP BY scope ORDER BY scope = 'all', scope
"""
TARGETS = "targets: median error <= 6 % (all <= 4 %); 90 % covers 85-95 %; 99 % covers >= 97 %; width <= 25 %; 0 wider"


def accuracy_table(warehouse: Path, title: str) -> None:
    """Print the per-report accuracy table of the warehouse's model_predictions (markdown)."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        found = con.sql(ACCURACY_TABLE_SQL).fetchall()
    finally:
        con.close()
    print(f"{title} ({warehouse})")
    print("| report | points | LOSO median error | 90 % covers | 99 % covers | median 90 % width / prediction "
          "| 90 % wider than 99 % |")
    print("|---|---|---|---|---|---|---|")
    for scope, points, mdape, inside_90, inside_99, width, wider in found:
        print(f"| {scope} | {points} | {mdape:.2f} % | {inside_90:.1f} % | {inside_99:.1f} % | "
              f"{width:.1f} % | {wider} of {points} |")
    print()


def big_report(series: int = 2000, sizes: int = 8) -> None:
    """What a submission of ``series`` series of lone tests in four configurations costs the
    report's mixed model: its fit and every point's prediction without its size."""
    import numpy as np

    from models.fit import fit_linear
    from models.hierarchy import Member, ReportModel

    rng = np.random.default_rng(24)
    x = np.array([256.0 * 4 ** k for k in range(sizes)])
    members = []
    for i in range(series):
        y = np.log(rng.uniform(0.2, 2) + rng.uniform(0.001, 0.05) * x / 1024) + rng.normal(0, 0.03, sizes)
        members.append(Member(f"scenario {i}", (int(rng.integers(4)),), tuple(x.tolist()), tuple(y.tolist()),
                              fit_linear(x, np.exp(y)).theta))
    model = ReportModel(members).fit()
    for i, m in enumerate(members):
        for size in m.sizes:
            model.predict(i, size)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", type=Path, help="a warehouse an earlier version built, to compare with")
    parser.add_argument("--no-timing", action="store_true", help="print the accuracy tables only")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="perfwh-bench-models-") as tmp:
        tmp = Path(tmp)
        warehouse = tmp / "warehouse.duckdb"
        build(out=warehouse, rules="duckdb", parquet=False, progress=False)
        if args.before:
            accuracy_table(args.before, "before")
        accuracy_table(warehouse, "after")
        print(TARGETS)
        print()
        if args.no_timing:
            return 0

        work = tmp / "work.duckdb"
        shutil.copyfile(warehouse, work)
        con = duckdb.connect(str(work))
        summary = fit_warehouse(con)  # first run: imports numpy/scipy
        results.append(row(f"model fitting: {summary.fitted} series, both curves, leave-one-size-out, the reports' hierarchies, "
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
        results.append(row("hierarchical model of a report of 2,000 series x 8 sizes: fit and every prediction",
                           timed(big_report, args.repeat), "synthetic, in-process"))
    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
