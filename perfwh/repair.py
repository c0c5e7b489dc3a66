"""Typo repair: for a flagged number, the single-edit correction that makes the rules hold.

A printed number can go wrong by one slip of the hand: a digit doubled, two digits
swapped, the decimal point moved one place, us typed for ms (or the reverse), a digit
typed twice as another digit or lost. `candidates` lists, for a printed cell, the value
it would have had before each such slip (13662.3 -> 1362.3 undoes a doubled 6).

`suggest` then evaluates the candidates with the rules themselves: each candidate gets a
world of its own - the rows of the flagged row's scenario with that one number replaced -
and the dq_input rules run on all worlds at once. A candidate is valid for a finding when
the finding is gone, no error remains on the corrected row, and nothing new appears. Among
valid candidates the most likely slip wins (PRIORS), then the smallest change.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import duckdb

from .dq import Rule, run_rules
from .warehouse import run

# How likely each slip is, most likely first (a doubled keystroke is the commonest typo).
PRIORS = {"doubled": 1, "swapped": 2, "decimal": 3, "unit": 4, "inserted": 5, "deleted": 6}
METRICS = ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg")
_CELL = re.compile(r"^(?P<pre>[^\d.]*)(?P<num>\d+(?:\.\d*)?|\.\d+)(?P<post>.*)$")
_MICRO = ("μs", "µs", "us")


@dataclass(frozen=True)
class Candidate:
    printed: str
    value: float
    half_ulp: float
    kind: str  # the slip it undoes

    @property
    def prior(self) -> int:
        return PRIORS[self.kind]


def _decimals(number: str) -> int:
    return len(number.split(".", 1)[1]) if "." in number else 0


def _edits(num: str) -> list[tuple[str, str]]:
    """(candidate number, slip undone) for every single edit of a printed number."""
    out: list[tuple[str, str]] = []
    digits = "0123456789"
    for i in range(len(num) - 1):
        a, b = num[i], num[i + 1]
        if a.isdigit() and a == b:
            out.append((num[:i] + num[i + 1:], "doubled"))
        if a.isdigit() and b.isdigit() and a != b:
            out.append((num[:i] + b + a + num[i + 2:], "swapped"))
    point = num.find(".")
    if point == -1:
        out.append((num[:-1] + "." + num[-1:], "decimal"))
        out.append((num + "0", "decimal"))
    else:
        bare = num.replace(".", "")
        if point > 0:
            out.append((bare[:point - 1] + "." + bare[point - 1:], "decimal"))
        if point < len(bare):
            out.append((bare[:point + 1] + "." + bare[point + 1:], "decimal"))
    for i, ch in enumerate(num):
        if ch.isdigit() and not (i + 1 < len(num) and num[i + 1] == ch) \
                and not (i > 0 and num[i - 1] == ch):
            out.append((num[:i] + num[i + 1:], "inserted"))
    for i in range(len(num) + 1):
        for d in digits:
            out.append((num[:i] + d + num[i:], "deleted"))
    return out


def _valid_number(candidate: str, original: str) -> bool:
    if not re.fullmatch(r"\d+(?:\.\d+)?|\.\d+|\d+\.", candidate):
        return False
    if candidate.endswith("."):
        return False
    whole = candidate.split(".")[0]
    leading_ok = original.split(".")[0].startswith("0") or len(whole) <= 1 or not whole.startswith("0")
    return leading_ok and candidate != original


def candidates(printed: str, value: float, metric: str) -> list[Candidate]:
    """Every single-slip correction of a printed cell, best prior per distinct printing."""
    match = _CELL.match(printed.strip())
    if not match or value is None:
        return []
    pre, num, post = match.group("pre"), match.group("num"), match.group("post")
    try:
        printed_number = Decimal(num)
    except InvalidOperation:
        return []
    if printed_number == 0:
        return []
    factor = value / float(printed_number)
    best: dict[str, Candidate] = {}

    def add(cand_num: str, cand_post: str, cand_factor: float, kind: str) -> None:
        if cand_num.startswith("."):
            cand_num = "0" + cand_num
        text = f"{pre}{cand_num}{cand_post}"
        cand = Candidate(text, float(Decimal(cand_num)) * cand_factor,
                         0.5 * 10 ** -_decimals(cand_num) * cand_factor, kind)
        if cand.value > 0 and (text not in best or cand.prior < best[text].prior):
            best[text] = cand

    for cand_num, kind in _edits(num):
        if _valid_number(cand_num, num):
            add(cand_num, post, factor, kind)
    if metric == "cpu_ms_per_msg":
        unit = post.strip()
        if unit in _MICRO:
            add(num, post.replace(unit, "ms"), factor * 1000, "unit")
        elif unit == "ms":
            add(num, post.replace("ms", "μs"), factor / 1000, "unit")
        elif unit == "":
            for scale in (Decimal(1000), Decimal("0.001")):
                scaled = format((printed_number * scale).normalize(), "f")
                add(scaled, post, factor, "unit")
    return sorted(best.values(), key=lambda c: (c.prior, c.printed))


def _involves(finding: dict, row: int) -> bool:
    return finding["row_id"] == row or finding.get("related_row_id") == row


def _key(finding: dict) -> tuple:
    return (finding["rule"], finding["row_id"], finding["metric"], finding.get("related_row_id"))


# Findings worth a suggestion: every error, and the warnings that single out one number.
# Warnings about a whole series (super-linear scaling, repeated rows) are left alone: a
# single slip rarely explains them and a candidate that happens to silence one is noise.
REPAIRABLE_WARNINGS = {"cost_outlier", "utilisation_outlier", "monotonic_sweep"}
# Rules whose test is an equation (or an equality with another printed row): a correction
# that satisfies one is strong evidence. The others test bands or inequalities, which many
# edits satisfy; their findings get a suggestion only when two of them flag the same row
# and one correction clears both.
TIGHT_RULES = {"cpu_identity", "cross_table_consistency", "conflicting_key"}
WEAK_PRIOR = 4  # an added or lost digit must be the only valid candidate to be suggested
# A slip touches one number. A rule that flags more than this share of the rows of one
# platform of a report (and at least 3) has found something systematic (e.g. a platform's
# CPU accounting), which no single edit explains.
SYSTEMATIC_SHARE = 0.10


def suggest(con: duckdb.DuckDBPyConnection, findings: list[dict], rules: list[Rule],
            relation: str = "dq_input") -> list[dict]:
    """Fill ``suggested_value`` of the findings of dq_input rules where a single slip explains
    them; a finding whose correction is on another cell is re-pointed at that cell."""
    input_rules = [r for r in rules if r.relation == "dq_input"]
    names = {r.name for r in input_rules}
    for f in findings:
        f.setdefault("suggested_value", None)
    targets = [f for f in findings if f["world"] == 0 and f["rule"] in names
               and (f["severity"] == "error" or f["rule"] in REPAIRABLE_WARNINGS)]
    platforms, sizes = _platforms(con, relation, {f["row_id"] for f in targets})
    flagged: dict[tuple, set] = {}
    for f in targets:
        flagged.setdefault((f["rule"], platforms.get(f["row_id"])), set()).add(f["row_id"])

    def systematic(f: dict) -> bool:
        platform = platforms.get(f["row_id"])
        count = len(flagged[(f["rule"], platform)])
        return count >= 3 and count > SYSTEMATIC_SHARE * sizes.get(platform, 0)

    rules_on_row: dict[int, set] = {}
    for f in findings:
        if f["world"] == 0:
            rules_on_row.setdefault(f["row_id"], set()).add(f["rule"])

    def evidenced(f: dict) -> bool:
        on_row = rules_on_row.get(f["row_id"], set())
        return bool(on_row & TIGHT_RULES) or len(on_row & (REPAIRABLE_WARNINGS | {"cpu_capacity"})) >= 2

    targets = [f for f in targets if not systematic(f) and evidenced(f)]
    if not targets:
        return findings
    rows = sorted({r for f in targets for r in (f["row_id"], f.get("related_row_id")) if r is not None})
    cells = _cells(con, relation, rows)
    worlds, plan = _plan(rows, cells)
    if not plan:
        return findings
    _materialise(con, relation, worlds)
    try:
        # Stage 1: only the rules that raised the targets, on every world; stage 2: every
        # rule, on the baselines and the worlds where a target finding went away.
        flagging = [r for r in input_rules if r.name in {f["rule"] for f in targets}]
        first = run_rules(con, flagging, {"dq_input": "repair_worlds"})
        survivors = _survivors(targets, plan, first)
        run(con, "CREATE OR REPLACE TEMP TABLE repair_keep AS SELECT UNNEST(?::BIGINT[]) AS world",
            [sorted(survivors)])
        run(con, "CREATE OR REPLACE TEMP VIEW repair_kept AS SELECT * FROM repair_worlds "
                 "WHERE world IN (SELECT world FROM repair_keep)")
        found = run_rules(con, input_rules, {"dq_input": "repair_kept"})
    finally:
        for name in ("VIEW repair_kept", "TABLE repair_keep", "TABLE repair_worlds",
                     "TABLE repair_candidates"):
            run(con, f"DROP {name.split()[0]} IF EXISTS {name.split()[1]}")
    by_world: dict[int, list[dict]] = {}
    for f in found:
        by_world.setdefault(f["world"], []).append(f)
    worlds_of: dict[int, list[int]] = {}
    baselines: dict[int, int] = {}
    for world, (row, metric, _cand) in plan.items():
        if metric is None:
            baselines[row] = world
        elif world in survivors:
            worlds_of.setdefault(row, []).append(world)
    for finding in targets:
        best = _best(finding, plan, by_world, cells, worlds_of, baselines)
        if best:
            _apply(finding, best, cells)
    return findings


def _platforms(con, relation: str, rows: set[int]) -> tuple[dict[int, tuple], dict[tuple, int]]:
    """(source, platform) of the given rows, and the number of subject rows per platform."""
    con.register("_rows", __import__("pyarrow").table({"row_id": sorted(rows)}))
    try:
        located = {row: (source, platform) for row, source, platform in con.sql(
            f"SELECT d.row_id, d.source, d.platform FROM {relation} d SEMI JOIN _rows r "
            "ON r.row_id = d.row_id WHERE d.world = 0 AND d.subject").fetchall()}
    finally:
        con.unregister("_rows")
    sizes = {(source, platform): n for source, platform, n in con.sql(
        f"SELECT source, platform, count(*) FROM {relation} WHERE world = 0 AND subject "
        "GROUP BY ALL").fetchall()}
    return located, sizes


def _survivors(targets: list[dict], plan: dict, first: list[dict]) -> set[int]:
    """Baseline worlds, and candidate worlds in which some target on their row is gone."""
    present: dict[int, set] = {}
    for f in first:
        present.setdefault(f["world"], set()).add(_key(f))
    by_row: dict[int, list[tuple]] = {}
    for t in targets:
        for row in {t["row_id"], t.get("related_row_id")} - {None}:
            by_row.setdefault(row, []).append(_key(t))
    keep = {w for w, (_row, metric, _c) in plan.items() if metric is None}
    for world, (row, metric, cand) in plan.items():
        if cand is None:
            continue
        keys = present.get(world, set())
        if any(key not in keys for key in by_row.get(row, ())):
            keep.add(world)
    return keep


def _cells(con, relation: str, rows: list[int]) -> dict[tuple[int, str], dict]:
    """The printed cells of the rows to repair: (row_id, metric) -> facts of the cell."""
    placeholders = ", ".join("?" for _ in rows)
    result = con.sql(f"SELECT * FROM {relation} WHERE world = 0 AND row_id IN ({placeholders})",
                     params=rows) if rows else None
    cells = {}
    for record in (dict(zip(result.columns, r)) for r in result.fetchall()):
        for metric in METRICS:
            if record.get(f"{metric}_printed") is not None:
                cells[(record["row_id"], metric)] = {
                    "printed": record[f"{metric}_printed"], "value": record[metric],
                    "fact_id": record.get(f"{metric}_fact_id"), "source": record["source"],
                    "source_line": record["source_line"], "subject": record["subject"]}
    return cells


def _plan(rows: list[int], cells: dict) -> tuple[list[dict], dict[int, tuple]]:
    """World per (row, metric, candidate) plus one unchanged baseline world per row.
    Returns the world rows for repair_candidates and world -> (row, metric, candidate)."""
    worlds, plan = [], {}
    world = 0
    for row in rows:
        world += 1
        worlds.append({"world": world, "target_row": row, "metric": None, "printed": None,
                       "value": None, "half_ulp": None})
        plan[world] = (row, None, None)
        for metric in METRICS:
            cell = cells.get((row, metric))
            if not cell or not cell["subject"]:
                continue
            for cand in candidates(cell["printed"], cell["value"], metric):
                world += 1
                worlds.append({"world": world, "target_row": row, "metric": metric,
                               "printed": cand.printed, "value": cand.value,
                               "half_ulp": cand.half_ulp})
                plan[world] = (row, metric, cand)
    return worlds, plan


def _materialise(con, relation: str, worlds: list[dict]) -> None:
    """repair_worlds: for each world, the rows of the target row's scenario, one cell replaced."""
    import pyarrow as pa

    con.register("_candidates", pa.Table.from_pylist(worlds, schema=pa.schema([
        ("world", pa.int64()), ("target_row", pa.int64()), ("metric", pa.string()),
        ("printed", pa.string()), ("value", pa.float64()), ("half_ulp", pa.float64())])))
    try:
        run(con, "CREATE OR REPLACE TEMP TABLE repair_candidates AS SELECT * FROM _candidates")
    finally:
        con.unregister("_candidates")
    swap = []
    for metric in METRICS:
        for suffix, column in (("", "value"), ("_printed", "printed"), ("_half_ulp", "half_ulp")):
            swap.append(f"CASE WHEN d.row_id = c.target_row AND c.metric = '{metric}' "
                        f"THEN c.{column} ELSE d.{metric}{suffix} END AS {metric}{suffix}")
    replaced = [f"{m}{s}" for m in METRICS for s in ("", "_printed", "_half_ulp")]
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE repair_worlds AS
        SELECT c.world AS world, d.* EXCLUDE (world, {', '.join(replaced)}), {', '.join(swap)}
        FROM repair_candidates c
        JOIN {relation} t ON t.world = 0 AND t.row_id = c.target_row
        JOIN {relation} d ON d.world = 0 AND d.scenario = t.scenario""")


def _best(finding: dict, plan: dict, by_world: dict, cells: dict, worlds_of: dict[int, list[int]],
          baselines: dict[int, int]):
    """The most likely valid candidate for one finding, or None when there is none or the
    choice is not clear (two different corrections equally likely, or only a weak one
    among several)."""
    options = []
    rows = {finding["row_id"], finding.get("related_row_id")} - {None}
    for world, row in ((w, r) for r in sorted(rows) for w in worlds_of.get(r, ())):
        _row, metric, cand = plan[world]
        baseline = {_key(f) for f in by_world.get(baselines[row], [])}
        if _key(finding) not in baseline:
            continue  # the finding does not arise among this row's scenario alone
        now = by_world.get(world, [])
        keys = {_key(f) for f in now}
        if _key(finding) in keys or not keys <= baseline:
            continue
        if any(f["severity"] == "error" and _involves(f, row) for f in now):
            continue
        original = cells[(row, metric)]["value"]
        options.append((cand.prior, abs(math.log(cand.value / original)), cand.printed, row, metric, cand))
    if not options:
        return None
    best = min(options, key=lambda o: o[:3])
    rivals = {o[2] for o in options if o[0] == best[0]}
    if len(rivals) > 1 or (best[0] > WEAK_PRIOR and len(options) > 1):
        return None
    return best


def _apply(finding: dict, best: tuple, cells: dict) -> None:
    _prior, _change, _printed, row, metric, cand = best
    cell = cells[(row, metric)]
    if row != finding["row_id"] or metric != finding["metric"]:
        where = f" at line {cell['source_line']}" if row != finding["row_id"] else ""
        finding["message"] += f" [the likely slip: {metric} {cell['printed']}{where}]"
        finding.update(metric=metric, printed_value=cell["printed"], fact_id=cell["fact_id"],
                       source_line=cell["source_line"], source=cell["source"])
    finding["suggested_value"] = cand.printed
    finding["suggestion_kind"] = cand.kind
