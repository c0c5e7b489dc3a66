"""Planted-slip benchmark (issue 12): how many single-cell slips the rules catch, and how
often the typo repair suggests the number that was there.

Each report's rows (every report of data/raw, or those of ``--families``) are written as a CSV
in the submission template (`perfwh template --rows-of` does the same) and checked with `perfwh
check`'s own function against a shared warehouse built from all the reports - as a revision of
the report it came from, so
that the report itself is retired in the check's scratch copy and the rows are checked by the
rules, the other reports and the models, not by comparison with their own printed twin
(which would catch every slip: see the resubmission rule).

A trial plants one slip (perfwh.quality.slips: a digit doubled, dropped or swapped with its
neighbour, the decimal point moved one place, an extra decimal digit, μs/ms confused) in one
cell of a row that no finding of the unplanted check is on or names (a slip in a row the rules
already question is not a fair trial). The slip is caught when a
finding that the unplanted check does not give (by rule and line) is on the slipped row or
names its line. A suggestion is right when a finding on the slipped cell suggests its
printed number (trailing zeros aside).

Trials are checked in batches: one CSV holds several slips, each in a scenario of its own,
and few enough that the repair does not take them for a systematic problem of the platform
(--verify N re-checks N trials one by one and counts the disagreements).

The second arm (--generated N) plants the same slips into N generated submissions of every
shape (bench/synthetic.py: physically consistent, without oddities), each checked as a new
submission against the same warehouse: shapes the reports never had (T-shirts with replicas
on a container platform, one platform name over several core counts, messaging counts,
product versions, blank optional columns). Its target: slips of 5 % or more caught, 97 %.

Usage: .venv/bin/python bench/bench_slips.py [--trials 500] [--seed 12] [--verify 0]
       .venv/bin/python bench/bench_slips.py --generated 200 [--trials 500] [--seed 12]
       [--families wbimb iib10 ...]
Exits 1 when a target (TARGETS, as the README states them) is missed on 50 trials or more.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import duckdb  # noqa: E402

from ingest.submission import write_rows  # noqa: E402
from perfwh.quality.slips import KINDS, NotApplicable, number_of, plant  # noqa: E402
from perfwh.stages.build import build  # noqa: E402
from perfwh.stages.check import check  # noqa: E402
from perfwh.warehouse.query import rows_as_template  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402  (the generator of submissions)

METRICS = ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg")
BANDS = (("< 1 %", 0.0, 0.01), ("1-5 %", 0.01, 0.05), (">= 5 %", 0.05, float("inf")))
# The repair treats a rule that flags more than a tenth of a platform's rows as systematic;
# a batch stays below that (with the unplanted findings counted in).
SYSTEMATIC_SHARE = 0.10
# Table kinds: rows with the CPU identity (rate, %CPU and a cost: WBIMB chapter 10, IIB), whose
# three numbers hold each other, and rows without it.
WITH, WITHOUT = "with the CPU identity", "without it"
TARGETS = {(WITH, ">= 5 %"): 99.0, (WITHOUT, ">= 5 %"): 97.0, (WITH, "1-5 %"): 80.0}
GENERATED_TARGET = 97.0  # slips of 5 % or more in generated submissions, every table kind


@dataclass
class Cell:
    source: str
    line: int          # line of the row in the CSV
    row: int           # index of the row in the CSV's rows
    metric: str
    printed: str
    has_cpu: bool      # the row prints a %CPU
    has_cost: bool     # the row prints a CPU cost (not a rate-only score card or summary table)
    scenario: str
    platform: str
    product: str
    report_line: int   # the row's line in the report it came from


@dataclass
class Trial:
    cell: Cell
    kind: str
    planted: str
    change: float      # |planted / printed - 1|
    caught: bool = False
    rules: tuple = ()
    suggested: str | None = None
    right: bool = False

    @property
    def band(self) -> str:
        return next(name for name, lo, hi in BANDS if lo <= self.change < hi)

    @property
    def table_kind(self) -> str:
        """With the CPU identity - rate, %CPU and cost, each held by the other two - or without
        (a %CPU alone does not make one: the MQ Appliance tables print rate and %CPU)."""
        return WITH if self.cell.has_cpu and self.cell.has_cost else WITHOUT

    @property
    def detail_kind(self) -> str:
        """Rows without the identity split: with a CPU cost and no %CPU (ACE 11, ACE 13), with a
        %CPU and no cost (the MQ Appliance reports), and rates only (MessageSight's score card,
        WBIMB's Tables 1 and 2)."""
        if self.table_kind == WITH:
            return WITH
        if self.cell.has_cost:
            return "without it: with a CPU cost"
        return "without it: with %CPU" if self.cell.has_cpu else "without it: rates only"


@dataclass
class Report:
    """One report's rows as a CSV and what the unplanted check says about them."""
    source: str
    rows: list[dict]
    baseline: set = field(default_factory=set)        # (rule, line) of the unplanted findings
    noted: set = field(default_factory=set)           # lines an unplanted finding is on or names
    errors: set = field(default_factory=set)          # lines with an unplanted error on them
    warned: set = field(default_factory=set)          # lines with an unplanted warning on them
    platform_rows: Counter = field(default_factory=Counter)
    errors_by_rule_platform: Counter = field(default_factory=Counter)
    clean: set = field(default_factory=set)           # CSV lines whose report line has no finding
                                                      # in the warehouse (the README judges those)
    revision_of: str | None = None                    # the filed source the CSV is checked as a
                                                      # revision of (a report's rows)


def lines_named(finding: dict) -> set[int]:
    """The finding's own line and the lines its message names ("line 12", "file:12")."""
    named = {int(n) for n in re.findall(r"\blines? (\d+)\b|:(\d+)\)", finding["message"])
             for n in n if n}
    return {finding["source_line"]} | named


def csv_of(path: Path, rows: list[dict], slips: dict[tuple[int, str], str] | None = None) -> Path:
    planted = [dict(r) for r in rows]
    for (index, metric), text in (slips or {}).items():
        planted[index][metric] = text
    with open(path, "w", newline="", encoding="utf-8") as handle:
        write_rows(planted, handle)
    return path


def prepare(con, warehouse: Path, tmp: Path, source: str) -> tuple[Report, list[Cell]]:
    """A report's rows in the template, checked as a revision of the report."""
    rows = rows_as_template(con, source)
    report = Report(source, rows, revision_of=source)
    judged = set()
    for line, message in con.sql("SELECT source_line, message FROM dq_findings WHERE source = ?",
                                 params=[source]).fetchall():
        judged |= lines_named({"source_line": line, "message": message})
    report.clean = {index + 2 for index, r in enumerate(rows) if r["source_line"] not in judged}
    return report, baseline(report, warehouse, tmp)


def prepare_generated(submission, index: int, warehouse: Path, tmp: Path) -> tuple[Report, list[Cell]]:
    """A generated submission (its rows' lines stand for report lines), checked as new."""
    rows = [dict(r, source_line=i + 2) for i, r in enumerate(submission.rows)]
    report = Report(f"generated-{index}-{submission.shape}.csv", rows)
    report.clean = {i + 2 for i in range(len(rows))}
    return report, baseline(report, warehouse, tmp)


def baseline(report: Report, warehouse: Path, tmp: Path) -> list[Cell]:
    """The unplanted check's findings on ``report`` noted, and the cells a slip may go into:
    those of rows no finding is on or names."""
    rows, source = report.rows, report.source
    path = csv_of(tmp / f"bench-{source}", rows) if source.endswith(".csv") else \
        csv_of(tmp / f"bench-{source}.csv", rows)
    found = check(path, warehouse=warehouse, revision_of=report.revision_of).findings
    for f in found:
        report.baseline.add((f["rule"], f["source_line"]))
        report.noted |= lines_named(f)
        (report.errors if f["severity"] == "error" else report.warned).add(f["source_line"])
    platforms = {}
    cells = []
    for index, r in enumerate(rows):
        line = index + 2
        platforms[line] = r["platform"]
        report.platform_rows[r["platform"]] += 1
        if line in report.noted:
            continue  # a slip in a row the rules already question is not a fair trial
        for metric in METRICS:
            if r.get(metric):
                cells.append(Cell(source, line, index, metric, str(r[metric]),
                                  bool(r.get("cpu_busy_pct")), bool(r.get("cpu_ms_per_msg")),
                                  r["scenario"], r["platform"], r["product"], r["source_line"]))
    for f in found:
        if f["severity"] == "error":
            report.errors_by_rule_platform[(f["rule"], platforms.get(f["source_line"]))] += 1
    return cells


def draw(cells: list[Cell], kind: str, count: int, rng: random.Random) -> list[Trial]:
    trials = []
    attempts = 0
    while len(trials) < count:
        attempts += 1
        if attempts > count * 200:
            raise RuntimeError(f"cannot plant {count} slips of kind {kind}")
        cell = rng.choice(cells)
        unit_column = cell.metric == "cpu_ms_per_msg"
        try:
            planted = plant(cell.printed, kind, rng.randrange(16), rng.choice("0123456789"),
                            unit_column=unit_column)
            before = number_of(cell.printed, unit_column)
            after = number_of(planted, unit_column)
        except NotApplicable:
            continue
        if after <= 0 or after == before or (cell.metric == "cpu_busy_pct" and after > 100):
            continue  # the reader refuses it outright (unreadable_value), or nothing changed
        trials.append(Trial(cell, kind, planted, abs(after / before - 1)))
    return trials


def batches(trials: list[Trial], report: Report) -> list[list[Trial]]:
    """Trials of one report packed into checks: one slip per scenario and product per check
    (the rules compare rows of one test; the other product's rows only through the closest of
    several peers), and per platform fewer than the repair's systematic share allows."""
    room = {p: max(1, int(SYSTEMATIC_SHARE * n) - max(
        (c for (rule, plat), c in report.errors_by_rule_platform.items() if plat == p), default=0) - 1)
        for p, n in report.platform_rows.items()}
    open_batches: list[tuple[set, Counter, list[Trial]]] = []
    for trial in trials:
        for scenarios, per_platform, members in open_batches:
            if (trial.cell.scenario, trial.cell.product) not in scenarios \
                    and per_platform[trial.cell.platform] < room[trial.cell.platform]:
                break
        else:
            scenarios, per_platform, members = set(), Counter(), []
            open_batches.append((scenarios, per_platform, members))
        scenarios.add((trial.cell.scenario, trial.cell.product))
        per_platform[trial.cell.platform] += 1
        members.append(trial)
    return [members for _s, _p, members in open_batches]


def same_number(a: str, b: str, unit_column: bool) -> bool:
    try:
        return abs(number_of(a, unit_column) - number_of(b, unit_column)) <= 1e-9 * max(
            1.0, abs(number_of(b, unit_column)))
    except NotApplicable:
        return False


def judge(trial: Trial, report: Report, found: list[dict]) -> None:
    cell = trial.cell
    new = [f for f in found if (f["rule"], f["source_line"]) not in report.baseline
           and cell.line in lines_named(f)]
    trial.caught = bool(new)
    trial.rules = tuple(sorted({f["rule"] for f in new}))
    for f in found:
        if f["source_line"] == cell.line and f["metric"] == cell.metric and f.get("suggested_value"):
            trial.suggested = f["suggested_value"]
            trial.right = same_number(f["suggested_value"], cell.printed, cell.metric == "cpu_ms_per_msg")
            break


def run_batch(batch: list[Trial], report: Report, warehouse: Path, tmp: Path) -> None:
    slips = {(t.cell.row, t.cell.metric): t.planted for t in batch}
    name = report.source if report.source.endswith(".csv") else f"{report.source}.csv"
    path = csv_of(tmp / f"bench-{name}", report.rows, slips)
    found = check(path, warehouse=warehouse, revision_of=report.revision_of).findings
    for trial in batch:
        judge(trial, report, found)


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f} %" if whole else "n/a"


def summary(trials: list[Trial], reports: dict[str, Report]) -> list[str]:
    out = ["| slip | trials | caught | suggestion right (of caught with one) |", "|---|---|---|---|"]
    for kind in KINDS:
        mine = [t for t in trials if t.kind == kind]
        caught = [t for t in mine if t.caught]
        suggested = [t for t in caught if t.suggested]
        out.append(f"| {kind} | {len(mine)} | {pct(len(caught), len(mine))} | "
                   f"{pct(sum(t.right for t in suggested), len(suggested))} of {len(suggested)} |")
    out += ["", "| table kind | change | trials | caught | target |", "|---|---|---|---|---|"]
    kinds = ((WITH, lambda t: t.table_kind == WITH),
             (WITHOUT, lambda t: t.table_kind == WITHOUT),
             ("... with a CPU cost", lambda t: t.detail_kind == "without it: with a CPU cost"),
             ("... with %CPU", lambda t: t.detail_kind == "without it: with %CPU"),
             ("... rates only", lambda t: t.detail_kind == "without it: rates only"))
    for name, member in kinds:
        for band, _lo, _hi in BANDS:
            mine = [t for t in trials if member(t) and t.band == band]
            target = TARGETS.get((name, band))
            out.append(f"| {name} | {band} | {len(mine)} | "
                       f"{pct(sum(t.caught for t in mine), len(mine))} | "
                       f"{f'>= {target:.0f} %' if target else ''} |")
    big = [t for t in trials if t.band == ">= 5 %"]
    out.append(f"| all | >= 5 % | {len(big)} | {pct(sum(t.caught for t in big), len(big))} | |")
    caught = [t for t in trials if t.caught]
    suggested = [t for t in caught if t.suggested]
    out += ["", f"suggestions: {len(suggested)} of {len(caught)} caught slips "
                f"({pct(len(suggested), len(caught))}), right: {sum(t.right for t in suggested)} "
                f"({pct(sum(t.right for t in suggested), len(suggested))})"]
    rows = sum(len(r.rows) for r in reports.values())
    planted_into = sum(len(r.rows) - len({ln for ln in r.noted if 2 <= ln < len(r.rows) + 2})
                       for r in reports.values())
    clean = sum(len(r.clean) for r in reports.values())
    errors = sum(len(r.clean & r.errors) for r in reports.values())
    warned = sum(len((r.clean & r.warned) - r.errors) for r in reports.values())
    out += ["", f"rows: {rows}; planted into: {planted_into} (the rest carry or are named by a "
                f"finding before any slip); clean rows (no finding in the warehouse is on or names "
                f"them): {clean}, of which with an error in the unplanted check: {errors}, with a "
                f"warning: {warned} ({pct(warned, clean)})"]
    return out


def missed(trials: list[Trial], limit: int = 40) -> list[str]:
    out = []
    for t in sorted((t for t in trials if not t.caught and t.change >= 0.05),
                    key=lambda t: -t.change)[:limit]:
        out.append(f"  missed {t.kind:13s} {t.cell.source}:{t.cell.report_line} {t.cell.metric} "
                   f"{t.cell.printed} -> {t.planted} ({100 * t.change:.1f} %) {t.cell.product} "
                   f"{t.cell.platform} {t.cell.scenario}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=500, help="trials per kind of slip")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--verify", type=int, default=0,
                        help="re-check this many trials one at a time and compare")
    parser.add_argument("--missed", action="store_true", help="list missed slips of 5 %% or more")
    parser.add_argument("--out", type=Path, help="write every trial and its outcome to this JSON file")
    parser.add_argument("--generated", type=int, default=0, metavar="N",
                        help="plant into N generated submissions instead of the reports' rows")
    parser.add_argument("--db", type=Path, help="check against this warehouse (default: one built "
                                                  "from data/raw for the run)")
    parser.add_argument("--families", nargs="+", metavar="FAMILY", default=None,
                        help="plant slips only in the reports of these families (default: every "
                             "report of the warehouse, which is built from all of them)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="perfwh-slips-") as tmp:
        tmp = Path(tmp)
        warehouse = args.db or tmp / "warehouse.duckdb"
        if args.db is None:
            build(out=warehouse, rules="duckdb", parquet=False, progress=False)
        reports, cells = {}, []
        if args.generated:
            for index, submission in enumerate(synthetic.submissions(args.seed, args.generated)):
                report, mine = prepare_generated(submission, index, warehouse, tmp)
                reports[report.source] = report
                cells += mine
        else:
            con = duckdb.connect(str(warehouse), read_only=True)
            sources = [s for s, family in con.sql("SELECT source, family FROM dim_report "
                                                   "ORDER BY source").fetchall()
                       if not args.families or family in args.families]
            for source in sources:
                report, mine = prepare(con, warehouse, tmp, source)
                reports[source] = report
                cells += mine
            con.close()
        prepared = time.perf_counter()
        trials = [t for kind in KINDS for t in draw(cells, kind, args.trials, rng)]
        planned = [(report, batch) for source, report in reports.items()
                   for batch in batches([t for t in trials if t.cell.source == source], report)]
        checks = 0
        for report, batch in planned:
            run_batch(batch, report, warehouse, tmp)
            checks += 1
            if checks % 25 == 0:
                print(f"bench_slips: {checks} of {len(planned)} checks, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        elapsed = time.perf_counter() - started
        disagreements = 0
        for trial in rng.sample(trials, min(args.verify, len(trials))):
            alone = Trial(trial.cell, trial.kind, trial.planted, trial.change)
            run_batch([alone], reports[trial.cell.source], warehouse, tmp)
            disagreements += (alone.caught, alone.right) != (trial.caught, trial.right)
    print("\n".join(summary(trials, reports)))
    print(f"\n{len(trials)} trials in {checks} checks; {elapsed:.0f} s in all "
          f"({prepared - started:.0f} s to build the warehouse and check the unplanted CSVs, "
          f"{(elapsed - (prepared - started)) / max(checks, 1):.2f} s per check)")
    if args.verify:
        print(f"verify: {disagreements} of {min(args.verify, len(trials))} trials checked alone "
              "disagree with their batch")
    if args.missed:
        print("\n".join(missed(trials)))
    targets = ({("all", ">= 5 %"): GENERATED_TARGET} if args.generated else TARGETS)
    short = [f"{kind} {band}: {pct(sum(t.caught for t in mine), len(mine))} < {target:.0f} %"
             for (kind, band), target in targets.items()
             for mine in [[t for t in trials if kind in ("all", t.table_kind) and t.band == band]]
             if len(mine) >= 50 and 100.0 * sum(t.caught for t in mine) / len(mine) < target]
    for line in short:
        print(f"bench_slips: target missed: {line}", file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps([dict(vars(t.cell), kind=t.kind, planted=t.planted,
                                             change=t.change, caught=t.caught, rules=t.rules,
                                             suggested=t.suggested, right=t.right)
                                        for t in trials], indent=1), encoding="utf-8")
    return 1 if short else 0


if __name__ == "__main__":
    raise SystemExit(main())
