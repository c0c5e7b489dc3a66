"""Typo repair: for a flagged number, the single-edit correction that makes the rules hold.

A printed number can go wrong by one slip of the hand: a digit doubled, two digits
swapped, the decimal point moved one place, us typed for ms (or the reverse), a digit
typed twice as another digit or lost. `candidates` lists, for a printed cell, the value
it would have had before each such slip (13662.3 -> 1362.3 undoes a doubled 6).

`suggest_stored` then evaluates the candidates with the rules themselves: each candidate gets
a world of its own - the rows of the flagged row's test with that one number replaced -
and the dq_input rules run on all worlds at once, one rule after another, each on the worlds
no rule has ruled out yet. A candidate is valid for a finding when the finding is gone, no
error remains on the corrected row, and nothing new appears. Among valid candidates the most
likely slip wins (PRIORS), then the smallest change.

The findings stay in DuckDB (`rules.FOUND`): which of them a slip may explain is decided in
SQL, and only those (a handful per typo) come to Python; the suggestions are written back.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import duckdb

from ingest.units import half_ulp
from perfwh.core.progress import status
from perfwh.warehouse.db import insert_rows, run

from .rules import (BAND_EVIDENCE, FOUND, FOUND_COLUMNS, KEY_COLUMNS, Rule, create_found, run_rules, store_findings,
                    stored_findings)
from .slips import CELL, MICRO, UNDONE

# How likely each slip is, most likely first (the order of slips.UNDONE).
PRIORS = {kind: rank for rank, kind in enumerate(UNDONE, 1)}
METRICS = ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg")


@dataclass(frozen=True)
class Candidate:
    printed: str
    value: float
    half_ulp: float
    kind: str  # the slip it undoes

    @property
    def prior(self) -> int:
        return PRIORS[self.kind]


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
            out.append((num[:i] + num[i + 1:], "extra_digit"))
    for i in range(len(num) + 1):
        for d in digits:
            out.append((num[:i] + d + num[i:], "dropped"))
    return out


def _valid_number(candidate: str, original: str) -> bool:
    if not re.fullmatch(r"\d+(?:\.\d+)?|\.\d+|\d+\.", candidate):
        return False
    if candidate.endswith("."):
        return False
    whole = candidate.split(".")[0]
    leading_ok = original.split(".")[0].startswith("0") or len(whole) <= 1 or not whole.startswith("0")
    # a slip changes the value: 50.0 for 50.00 only prints it less precisely (and passes an
    # identity by its wider rounding, not by being right)
    return leading_ok and Decimal(candidate) != Decimal(original)


def candidates(printed: str, value: float, metric: str) -> list[Candidate]:
    """Every single-slip correction of a printed cell, best prior per distinct printing."""
    match = CELL.match(printed.strip())
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
                         half_ulp(cand_num) * cand_factor, kind)
        if cand.value > 0 and (text not in best or cand.prior < best[text].prior):
            best[text] = cand

    for cand_num, kind in _edits(num):
        if _valid_number(cand_num, num):
            add(cand_num, post, factor, kind)
    if metric == "cpu_ms_per_msg":
        unit = post.strip()
        if unit in MICRO:
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


# Which findings a single slip may explain, and how strong the evidence is, is each rule's
# own declaration (its `-- repair:` header, `rules.REPAIR_CLASSES`): "tight" rules test an
# equation, "band" rules a band or an inequality, "none" rules are left alone.
WEAK_PRIOR = 4  # an added or lost digit must be the only valid candidate to be suggested
# A slip touches one number. A rule that flags more than this share of the rows of one
# platform of a report (and at least 3) has found something systematic (e.g. a platform's
# CPU accounting), which no single edit explains.
SYSTEMATIC_SHARE = 0.10


def suggest(con: duckdb.DuckDBPyConnection, findings: list[dict], rules: list[Rule],
            relation: str = "dq_input") -> list[dict]:
    """`suggest_stored` for findings held in a list (benchmarks, tests): the list is stored in
    a temporary table, repaired there, and returned with its suggestions, in finding order."""
    table = "repair_listed"
    create_found(con, table)
    try:
        store_findings(con, findings, table)
        suggest_stored(con, rules, relation, table)
        return list(stored_findings(con, table=table))
    finally:
        run(con, f"DROP TABLE IF EXISTS {table}")


# Targets repaired together: their candidate worlds are built and checked at once. A batch
# bounds the memory the repair needs (about 150 worlds per flagged number, each as many rows
# as the flagged row's test has) however many typos a submission holds: at most REPAIR_BATCH
# targets, and about WORLD_ROWS rows of worlds. Each finding's suggestion depends only on its
# own rows' worlds, so the batches give what one pass would. Each rule's run on a batch costs
# its planning and a scan of the batch's worlds however few are still alive, so the batches
# are as big as the memory allows (a million-row file's 4,600 targets: 16 batches of 300 took
# 44 s to repair, 6 of up to 1,000 targets and 2 million rows 40-42 s, within the same peak
# memory).
REPAIR_BATCH = 1000
WORLD_ROWS = 2_000_000
WORLDS_PER_TARGET = 150


def suggest_stored(con: duckdb.DuckDBPyConnection, rules: list[Rule], relation: str = "dq_input",
                   table: str = FOUND, sources: list[str] | None = None) -> int:
    """Fill ``suggested_value`` of the stored findings of dq_input rules where a single slip
    explains them; a finding whose correction is on another cell is re-pointed at that cell.
    ``sources``: repair only the findings on those sources' rows (or related to one of them):
    a check or an add needs no more, the other sources' findings were repaired when they were
    filed. The others still count as evidence, and each finding's suggestion depends only on
    its own rows' worlds, so the findings repaired get the suggestions a repair of all would
    give. Returns how many findings got a suggestion."""
    input_rules = [r for r in rules if r.relation == "dq_input"]
    tight = sorted(r.name for r in input_rules if r.repair == "tight")
    band = sorted(r.name for r in input_rules if r.repair == "band")
    try:
        if not _targets(con, table, relation, tight, band):
            return 0
        where, params = "evidenced", []
        if sources is not None:
            own = f"(SELECT row_id FROM {relation} WHERE world = 0 AND source IN (SELECT UNNEST(?::VARCHAR[])))"
            where += f" AND (row_id IN {own} OR related_row_id IN {own})"
            params = [sorted(set(sources))] * 2
        # by row, so that the findings on one row (and their worlds) share a batch
        targets = [{k: v for k, v in f.items() if k != "evidenced"} for f in stored_findings(
            con, where, params, table=REPAIR_TARGETS, order="row_id, found_id")]
        weights = _scope(con, relation, targets)
        repaired = 0
        columns: dict[tuple, dict[int, int]] = {}  # the decimals each column prints, counted once
        costs = _RuleCosts()
        tried = 0
        for batch in _batches(targets, weights):
            status(f"looking for the slips behind findings {tried + 1:,}-{tried + len(batch):,} "
                   f"of {len(targets):,}")
            tried += len(batch)
            batch = _repaired(con, batch, input_rules, relation, set(band), columns, costs)
            _write_back(con, table, batch)
            repaired += len(batch)
        return repaired
    finally:
        run(con, f"DROP TABLE IF EXISTS {REPAIR_TARGETS}")
        run(con, f"DROP TABLE IF EXISTS {REPAIR_SCOPE}")
        run(con, f"DROP TABLE IF EXISTS {REPAIR_GROUPS}")


# The rows every batch's worlds are made of (`_scope`).
REPAIR_SCOPE = "repair_scope"


# The rows a candidate world is made of, for each target row (`_scope`).
REPAIR_GROUPS = "repair_groups"
# A row's test, as the rules compare rows: its scenario on its product version and machine.
GROUP = ("scenario", "product", "product_version", "platform", "server_cores")


def _scope(con, relation: str, targets: list[dict]) -> dict[int, int]:
    """REPAIR_GROUPS: for each row a correction may be tried on, the tests (`GROUP`) its worlds
    hold - its own, and that of every row a finding links it with (the peer a comparison
    named); REPAIR_SCOPE: those tests' rows, picked out of the relation in one pass, so that
    each batch builds its worlds from them rather than from the whole relation (on ten
    million rows, a pass a batch took most of the repair's time). A world holds the flagged
    row's test, not every row of its scenario: a lab's file may measure one scenario on a
    thousand machines. Returns each row's world size (rows of its tests)."""
    links = sorted({(a, b) for f in targets for a in (f["row_id"], f.get("related_row_id"))
                    for b in (f["row_id"], f.get("related_row_id")) if a is not None and b is not None})
    same = " AND ".join(f"d.{c} IS NOT DISTINCT FROM g.{c}" for c in GROUP)
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE {REPAIR_GROUPS} AS
        SELECT DISTINCT l.target_row, {', '.join(f'r.{c}' for c in GROUP)}
        FROM (SELECT UNNEST(?::BIGINT[]) AS target_row, UNNEST(?::BIGINT[]) AS linked) l
        JOIN {relation} r ON r.world = 0 AND r.row_id = l.linked""",
        [[a for a, _b in links], [b for _a, b in links]])
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE {REPAIR_SCOPE} AS
        SELECT d.* FROM {relation} d
        WHERE d.world = 0 AND EXISTS (SELECT 1 FROM {REPAIR_GROUPS} g WHERE {same})""")
    return dict(run(con, f"""
        SELECT g.target_row, count(*) FROM {REPAIR_GROUPS} g JOIN {REPAIR_SCOPE} d ON {same}
        GROUP BY g.target_row"""))


def _batches(targets: list[dict], weights: dict[int, int]):
    """The targets (in row order) in batches of at most REPAIR_BATCH whose worlds hold about
    WORLD_ROWS rows at most (a batch holds one target however big its worlds)."""
    batch: list[dict] = []
    rows = 0
    for target in targets:
        size = WORLDS_PER_TARGET * sum(weights.get(r, 0) for r in {target["row_id"], target.get("related_row_id")}
                                       if r is not None)
        if batch and (len(batch) >= REPAIR_BATCH or rows + size > WORLD_ROWS):
            yield batch
            batch, rows = [], 0
        batch.append(target)
        rows += size
    if batch:
        yield batch


def _evidence(con) -> set[tuple]:
    """What a correction in the current repair_worlds may claim to explain: the findings of
    tight and band rules on the rows of those worlds that are not part of a systematic
    pattern (a slip does not explain a pattern of the whole platform)."""
    return {_key(f) for f in stored_findings(
        con, "row_id IN (SELECT DISTINCT row_id FROM repair_worlds)", table=REPAIR_TARGETS,
        order="found_id")}


def _repaired(con, targets: list[dict], input_rules: list[Rule], relation: str, band: set[str],
              columns: dict[tuple, dict[int, int]], costs: _RuleCosts) -> list[dict]:
    """The targets a single slip explains, with their suggestions applied. ``columns``: the
    decimals counted per column so far (`_column_decimals`), and ``costs``, the rules' costs
    in the worlds so far, shared by the batches."""
    rows = sorted({r for f in targets for r in (f["row_id"], f.get("related_row_id")) if r is not None})
    cells = _cells(con, relation, rows, columns)
    worlds, plan = _plan(rows, cells)
    if not plan:
        return []
    _materialise(con, worlds)
    try:
        evidence = _evidence(con)
        by_world, survivors = _world_findings(con, targets, input_rules, plan, costs)
    finally:
        for name in ("VIEW repair_kept", "TABLE repair_keep", "TABLE repair_worlds",
                     "TABLE repair_alive", "TABLE repair_candidates"):
            run(con, f"DROP {name.split()[0]} IF EXISTS {name.split()[1]}")
    if all(plan[world][1] is None for world in survivors):
        return []  # no correction silenced a target: the baselines alone choose nothing
    worlds_of: dict[int, list[int]] = {}
    baselines: dict[int, int] = {}
    for world, (row, metric, _cand) in plan.items():
        if metric is None:
            baselines[row] = world
        elif world in survivors:
            worlds_of.setdefault(row, []).append(world)
    repaired = []
    for finding in targets:
        best = _best(finding, plan, by_world, cells, worlds_of, baselines, evidence)
        if best and finding["rule"] in band and -best[0] < 2:
            continue  # a band finding needs the correction to clear a second finding too
        if best:
            _apply(finding, best, cells)
            repaired.append(finding)
    return repaired


def _world_findings(con, targets: list[dict], input_rules: list[Rule], plan: dict,
                    costs: _RuleCosts) -> tuple[dict[int, list[dict]], set[int]]:
    """The findings of every rule in each world that can still win, and those worlds.

    The rules run one at a time, each on the worlds still alive, in the order ``costs``
    expects to drop wrong candidates soonest for the least work. A candidate world is dropped
    as soon as a rule finds in it something its row's baseline does not have, or an error on
    its row, or once it keeps every target of its row: `_best` never chooses such a world,
    whatever the other rules find, so they need not run on it.

    Whether a candidate clears a target of its row depends only on the rules that raised that
    row's targets. So those rules come first, each on the candidates whose row it flagged, on
    those that already cleared a target (they need every rule anyway), and on the others where
    it is measured to pay as a filter (`_RuleCosts.worth_running`): a candidate that clears
    nothing is dropped having met its own row's rules and the cheap filters, not every rule
    that flagged some row of the batch. The rules a surviving candidate has not met then run
    on it. The baselines run every rule. Returns the findings by world (complete for the
    baselines and the survivors) and the surviving worlds (baselines included)."""
    flagged_by = {f["rule"] for f in targets}
    flagging = costs.order([r for r in input_rules if r.name in flagged_by])
    others = costs.order([r for r in input_rules if r.name not in flagged_by])
    baseline_of = {row: world for world, (row, metric, _c) in plan.items() if metric is None}
    raised_on = _targets_by_row(targets)
    alive = set(plan)
    met: dict[int, set[str]] = {world: set() for world in plan}  # the rules run on each world
    cleared: set[int] = set()  # candidates in which some target of their row is gone
    by_world: dict[int, list[dict]] = {}

    def run_on(rule: Rule, worlds: set[int]) -> None:
        started = time.perf_counter()
        _keep_worlds(con, worlds)
        found: dict[int, list[dict]] = {}
        for f in run_rules(con, [rule], {"dq_input": "repair_kept"}, KEY_COLUMNS):
            found.setdefault(f["world"], []).append(f)
        for world, findings in found.items():
            by_world.setdefault(world, []).extend(findings)
        for world in worlds:
            met[world].add(rule.name)
        spoilt = _spoilt(plan, baseline_of, found, by_world)
        costs.record(rule, time.perf_counter() - started, len(worlds), len(spoilt))
        alive.difference_update(spoilt)

    def no_candidate_left() -> bool:
        return all(plan[world][1] is None for world in alive)

    for rule in flagging:
        # the verdict depends on the rules a candidate still needs alone, and a batch's
        # hundreds of thousands of candidates need a few dozen sets of them
        verdicts: dict[frozenset, bool] = {}

        def worth_running(needed: frozenset) -> bool:
            if needed not in verdicts:
                verdicts[needed] = costs.worth_running(rule, needed)
            return verdicts[needed]

        chosen = {w for w in alive if plan[w][1] is None or w in cleared
                  or worth_running(frozenset(raised_on[plan[w][0]].keys() - met[w]))}
        run_on(rule, chosen)
        for world in chosen & alive:
            row, metric, _cand = plan[world]
            if metric is None or world in cleared:
                continue
            if _clears_a_target(by_world.get(world, ()), raised_on[row], met[world]):
                cleared.add(world)
            elif _keeps_every_target(raised_on[row], met[world]):
                alive.discard(world)
        if no_candidate_left():
            break
    if not no_candidate_left():
        _narrow_worlds(con, alive)
    for rule in flagging + others:
        if no_candidate_left():
            break  # nothing to choose, whatever the other rules find
        chosen = {w for w in alive if rule.name not in met[w]}
        if chosen:
            run_on(rule, chosen)
    for world in set(by_world) - alive:
        del by_world[world]
    return by_world, alive


def _keep_worlds(con, worlds: set[int]) -> None:
    """repair_kept: the rows of the worlds ``worlds`` (`_materialise`), what a rule runs on
    next."""
    run(con, "CREATE OR REPLACE TEMP TABLE repair_keep AS SELECT UNNEST(?::BIGINT[]) AS world",
        [sorted(worlds)])
    run(con, f"""
        CREATE OR REPLACE TEMP VIEW repair_kept AS
        SELECT w.world AS world, d.* EXCLUDE (world, {', '.join(_REPLACED)}), {', '.join(_SWAP)}
        FROM repair_worlds w
        JOIN repair_candidates c ON c.world = w.world
        JOIN {REPAIR_SCOPE} d ON d.row_id = w.row_id
        WHERE w.world IN (SELECT world FROM repair_keep)""")


def _narrow_worlds(con, alive: set[int]) -> None:
    """repair_worlds cut down to the ``alive`` worlds: the survivors are a few in a batch's
    tens of thousands of candidates, and every rule still to run on them would otherwise scan
    all the batch's worlds to pick them out."""
    run(con, "CREATE OR REPLACE TEMP TABLE repair_alive AS SELECT * FROM repair_worlds "
             "WHERE world IN (SELECT UNNEST(?::BIGINT[]))", [sorted(alive)])
    run(con, "DROP TABLE repair_worlds")
    run(con, "ALTER TABLE repair_alive RENAME TO repair_worlds")


def _targets_by_row(targets: list[dict]) -> dict[int, dict[str, set[tuple]]]:
    """row -> the rule of each target on that row (or naming it as the related row) -> the
    targets' keys."""
    raised_on: dict[int, dict[str, set[tuple]]] = {}
    for t in targets:
        for row in {t["row_id"], t.get("related_row_id")} - {None}:
            raised_on.setdefault(row, {}).setdefault(t["rule"], set()).add(_key(t))
    return raised_on


def _clears_a_target(findings, raised: dict[str, set[tuple]], met: set[str]) -> bool:
    """Some target of the world's row, raised by a rule that has run on the world, is not
    among the world's ``findings``."""
    present = {_key(f) for f in findings}
    return any(key not in present for rule in raised.keys() & met for key in raised[rule])


def _keeps_every_target(raised: dict[str, set[tuple]], met: set[str]) -> bool:
    """Every rule that raised a target of the world's row has run on it (and none cleared)."""
    return raised.keys() <= met


# The findings a slip may explain, while the repair runs (`_targets`).
REPAIR_TARGETS = "repair_targets"


def _targets(con, table: str, relation: str, tight: list[str], band: list[str]) -> int:
    """REPAIR_TARGETS: the stored findings a single slip may explain, each with its stored
    row's id (``found_id``): findings of tight and band rules without a suggestion of their
    rule's own (a resubmission's), unless their rule flags a large share of the subject rows of
    the same platform (something systematic, which no single edit explains); ``evidenced``
    where their row has enough evidence for a suggestion (a tight finding, or two band
    findings). Decided in SQL, so that a million findings never reach Python. Returns how many
    are evidenced."""
    if not tight + band:
        return 0
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE {REPAIR_TARGETS} AS
        WITH found AS (SELECT rowid AS found_id, * FROM {table} WHERE world = 0),
        candidates AS (SELECT * FROM found WHERE list_contains($repairable, rule)
                                             AND suggested_value IS NULL),
        located AS (
            SELECT c.*, d.source AS row_source, d.platform AS row_platform
            FROM candidates c
            LEFT JOIN (SELECT DISTINCT row_id, source, platform FROM {relation}
                       WHERE world = 0 AND subject) d ON d.row_id = c.row_id),
        flagged AS (
            SELECT rule, row_source, row_platform, count(DISTINCT row_id) AS flagged
            FROM located GROUP BY ALL),
        sizes AS (
            SELECT source, platform, count(*) AS size FROM {relation}
            WHERE world = 0 AND subject GROUP BY ALL),
        evidence AS (
            SELECT row_id,
                   count(DISTINCT rule) FILTER (WHERE list_contains($tight, rule)) AS tight,
                   count(DISTINCT rule) FILTER (WHERE list_contains($band, rule)) AS band
            FROM found GROUP BY row_id)
        SELECT l.* EXCLUDE (row_source, row_platform), (e.tight > 0 OR e.band >= {BAND_EVIDENCE}) AS evidenced
        FROM located l
        JOIN flagged f ON f.rule = l.rule AND f.row_source IS NOT DISTINCT FROM l.row_source
                      AND f.row_platform IS NOT DISTINCT FROM l.row_platform
        LEFT JOIN sizes s ON s.source = l.row_source AND s.platform = l.row_platform
        JOIN evidence e ON e.row_id IS NOT DISTINCT FROM l.row_id
        WHERE NOT (f.flagged >= 3 AND f.flagged > {SYSTEMATIC_SHARE} * coalesce(s.size, 0))""",
        {"repairable": tight + band, "tight": tight, "band": band})
    return run(con, f"SELECT count(*) FROM {REPAIR_TARGETS} WHERE evidenced")[0][0]


def _write_back(con, table: str, repaired: list[dict]) -> None:
    """The repaired findings' new fields, written over their stored rows (by ``found_id``)."""
    if not repaired:
        return
    fields = ("message", "metric", "printed_value", "fact_id", "source_line", "source",
              "suggested_value", "suggestion_kind")
    columns = ", ".join(f"{c} {FOUND_COLUMNS[c]}" for c in fields)
    run(con, f"CREATE OR REPLACE TEMP TABLE repair_written (found_id BIGINT, {columns})")
    try:
        insert_rows(con, "repair_written", repaired)
        run(con, f"UPDATE {table} SET " + ", ".join(f"{c} = r.{c}" for c in fields)
            + f" FROM repair_written r WHERE {table}.rowid = r.found_id")
    finally:
        run(con, "DROP TABLE IF EXISTS repair_written")


class _RuleCosts:
    """What each rule cost in the candidate worlds of a repair's batches so far, and how many
    candidates it dropped, to order the rules of the next batch: the order changes how much
    work the repair does, never what it finds (`_world_findings`). Before a rule is measured,
    it comes in the order of `STRENGTH`: rules that compare a row with itself, then
    equations (a wrong value breaks them at once), then bands and inequalities."""

    STRENGTH = {"tight": 0, "band": 1, "none": 2}

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.worlds: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def record(self, rule: Rule, seconds: float, worlds: int, dropped: int) -> None:
        self.seconds[rule.name] = self.seconds.get(rule.name, 0.0) + seconds
        self.worlds[rule.name] = self.worlds.get(rule.name, 0) + worlds
        self.dropped[rule.name] = self.dropped.get(rule.name, 0) + dropped

    def worth_running(self, rule: Rule, needed: set[str]) -> bool:
        """Whether to run ``rule`` on a candidate that still ``needed`` the rules named (its
        row's flagging rules it has not met): yes if it is one of them; else if the share of
        candidates it drops, times what the needed rules cost, outweighs what it costs (a rule
        dropping half the candidates at a fifth of the cost of the one they need pays for
        itself). Not yet measured (in the first batch), a rule that compares a row with itself
        alone runs, cheap as it is; another waits for its measure."""
        if rule.name in needed:
            return True
        if rule.name not in self.worlds:
            return rule.compares == "row"
        unmeasured = [name for name in needed if name not in self.worlds]
        if unmeasured:
            return True
        worlds = max(self.worlds[rule.name], 1)
        saved = self.dropped[rule.name] / worlds * sum(
            self.seconds[name] / max(self.worlds[name], 1) for name in needed)
        return self.seconds[rule.name] / worlds < saved

    def order(self, rules: list[Rule]) -> list[Rule]:
        """Measured rules by seconds per dropped candidate (a rule that dropped none last),
        then the others by their strength: the order that makes a chain of filters cheapest
        when each costs c a world and passes a share p (ascending c / (1 - p))."""
        def expected(rule: Rule) -> tuple:
            if rule.name not in self.worlds:
                return (1, math.inf, rule.compares != "row", self.STRENGTH[rule.repair])
            worlds = max(self.worlds[rule.name], 1)
            dropped = self.dropped[rule.name] / worlds
            per_world = self.seconds[rule.name] / worlds
            return (0 if dropped else 2, per_world / dropped if dropped else per_world, False, 0)
        return sorted(rules, key=expected)


def _spoilt(plan: dict, baseline_of: dict[int, int], found: dict[int, list[dict]],
            by_world: dict[int, list[dict]]) -> set[int]:
    """The candidate worlds in which one rule's findings (``found``, by world) already rule
    the candidate out: a finding its row's baseline does not have (``by_world``: what the
    rules so far found in each world, the baselines included; a finding's key names its
    rule), or an error on its row (`_best`'s conditions, one rule at a time). A world
    without a finding of the rule is not looked at."""
    spoilt = set()
    baselines: dict[int, set] = {}  # row -> the keys of its baseline's findings
    for world, findings in found.items():
        row, metric, _cand = plan.get(world, (None, None, None))
        if metric is None:
            continue  # a baseline (or no world of this batch)
        if row not in baselines:
            baselines[row] = {_key(f) for f in by_world.get(baseline_of[row], ())}
        baseline = baselines[row]
        if any(_key(f) not in baseline or (f["severity"] == "error" and _involves(f, row))
               for f in findings):
            spoilt.add(world)
    return spoilt


def _cells(con, relation: str, rows: list[int], columns: dict[tuple, dict[int, int]]
           ) -> dict[tuple[int, str], dict]:
    """The printed cells of the rows to repair: (row_id, metric) -> facts of the cell, with
    the decimals the rest of its column prints (None unless three or more agree)."""
    # from the repair's scope, which holds every row a target links (`_scope`): a batch's
    # rows looked up in the whole relation took a pass over a million rows each
    result = con.sql(f"SELECT * FROM {REPAIR_SCOPE} WHERE row_id IN (SELECT UNNEST(?::BIGINT[]))",
                     params=[rows])
    cells = {}
    for record in (dict(zip(result.columns, r)) for r in result.fetchall()):
        for metric in METRICS:
            if record.get(f"{metric}_printed") is not None:
                cells[(record["row_id"], metric)] = {
                    "printed": record[f"{metric}_printed"], "value": record[metric],
                    "fact_id": record.get(f"{metric}_fact_id"), "source": record["source"],
                    "source_line": record["source_line"], "subject": record["subject"],
                    "table": record["table_title"]}
    _column_decimals(con, relation, cells, columns)
    return cells


def _decimals(printed: str) -> int | None:
    match = CELL.match(printed.strip())
    if not match:
        return None
    num = match.group("num")
    return len(num.split(".", 1)[1]) if "." in num else 0


def _column_decimals(con, relation: str, cells: dict, counts: dict[tuple, dict[int, int]]) -> None:
    """A correction prints like its column: the numbers of decimals the other cells of a cell's
    column (same source, table and metric) print, where there are three cells or more, are the
    cell's "column_decimals", and candidates printed with another number are not tried (87.7
    for a %CPU typed 877, not 87, in a column printed to one decimal; 1.1 for a cost typed 11,
    not 1, in a column printing 0.32, 0.8 and 10.54 - 1 would pass only by the half unit of a
    whole number, a printing no cell of the column uses). Counted in SQL,
    per column and number of decimals: a submission's column may hold a million cells; each
    table once, into ``counts`` ((source, table, metric) -> decimals -> cells), which the
    batches of one repair share."""
    counted = {(source, table) for source, table, _metric in counts}
    tables = sorted({(c["source"], c["table"]) for c in cells.values()} - counted)
    for source, table in tables:
        for metric, decimals, n in con.sql(f"""
                SELECT x.metric, length(regexp_extract(x.printed, '[0-9][.]([0-9]+)', 1)), count(*)
                FROM {relation} m,
                     LATERAL (VALUES ('msg_rate', m.msg_rate_printed),
                                     ('cpu_busy_pct', m.cpu_busy_pct_printed),
                                     ('cpu_ms_per_msg', m.cpu_ms_per_msg_printed)) AS x(metric, printed)
                WHERE m.world = 0 AND m.source = ? AND m.table_title = ? AND x.printed IS NOT NULL
                GROUP BY ALL""", params=[source, table]).fetchall():
            counts.setdefault((source, table, metric), {})[decimals] = n
    for (_row, metric), cell in cells.items():
        others = dict(counts.get((cell["source"], cell["table"], metric), {}))
        own = _decimals(cell["printed"])
        if own in others:
            others[own] -= 1
        others = {d: n for d, n in others.items() if n > 0}
        cell["column_decimals"] = frozenset(others) if sum(others.values()) >= 3 else None


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
                if cell["column_decimals"] is not None and _decimals(cand.printed) not in cell["column_decimals"]:
                    continue
                world += 1
                worlds.append({"world": world, "target_row": row, "metric": metric,
                               "printed": cand.printed, "value": cand.value,
                               "half_ulp": cand.half_ulp})
                plan[world] = (row, metric, cand)
    return worlds, plan


# The cells a candidate world may replace, and each as a world's rows read it: the candidate's
# value on its target row and metric, the row's own elsewhere (`_keep_worlds`).
_REPLACED = [f"{m}{s}" for m in METRICS for s in ("", "_printed", "_half_ulp")]
_SWAP = [f"CASE WHEN d.row_id = c.target_row AND c.metric = '{m}' THEN c.{column} "
         f"ELSE d.{m}{suffix} END AS {m}{suffix}"
         for m in METRICS for suffix, column in (("", "value"), ("_printed", "printed"),
                                                 ("_half_ulp", "half_ulp"))]


def _materialise(con, worlds: list[dict]) -> None:
    """repair_candidates: each world's one replaced cell; repair_worlds: for each world, the
    rows of the target row's tests (REPAIR_GROUPS) by their ids (a row_id names one row of
    REPAIR_SCOPE, as a measurement_id does). A rule reads the worlds' rows through
    `_keep_worlds`, which joins in the rows' other cells from REPAIR_SCOPE: the worlds copied
    whole were up to a million rows of thirty-seven columns a batch, which DuckDB spilled and
    the rules read back."""
    run(con, "CREATE OR REPLACE TEMP TABLE repair_candidates (world BIGINT, target_row BIGINT, "
             "metric VARCHAR, printed VARCHAR, value DOUBLE, half_ulp DOUBLE)")
    insert_rows(con, "repair_candidates", worlds)
    run(con, f"""
        CREATE OR REPLACE TEMP TABLE repair_worlds AS
        SELECT c.world AS world, d.row_id
        FROM repair_candidates c
        JOIN {REPAIR_GROUPS} g ON g.target_row = c.target_row
        JOIN {REPAIR_SCOPE} d ON d.world = 0 AND {" AND ".join(f"d.{c} IS NOT DISTINCT FROM g.{c}" for c in GROUP)}""")


def _best(finding: dict, plan: dict, by_world: dict, cells: dict, worlds_of: dict[int, list[int]],
          baselines: dict[int, int], evidence: set):
    """The most likely valid candidate for one finding, or None when there is none or the
    choice is not clear (two different corrections equally likely, or only a weak one
    among several). A candidate that clears more of the ``evidence`` findings of its row's
    scenario explains more of what is wrong and comes first: one slip is behind all of them
    (28.67 for 285.67 breaks the CPU identity and the sweep of sizes; a %CPU of 1.33 for
    13.33 would mend the identity alone). Findings of a systematic pattern do not count: a
    correction that silences them by making another row odd explains nothing."""
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
        options.append((-len((baseline - keys) & evidence), cand.prior, abs(math.log(cand.value / original)),
                        cand.printed, row, metric, cand))
    if not options:
        return None
    best = min(options, key=lambda o: o[:4])
    alike = [o for o in options if o[0] == best[0]]
    rivals = {o[3] for o in alike if o[1] == best[1]}
    if len(rivals) > 1 or (best[1] > WEAK_PRIOR and len(alike) > 1):
        return None
    if finding["rule"] == "printed_precision" and _drops_a_digit_beside_a_trailing_zero(finding, best[3]):
        return None
    return best


def _drops_a_digit_beside_a_trailing_zero(finding: dict, suggested: str) -> bool:
    """A cell printed with a decimal too many that ends in a zero (33.6300 among 33.630s) may
    be the right value with the zero typed twice, as likely as another digit typed in: a
    correction dropping some other digit (33.600) is a guess. Dropping the zero itself changes
    no value and is no candidate (see _valid_number)."""
    printed = finding["printed_value"]
    match = CELL.match(printed.strip())
    ends_in_zero = bool(match) and "." in match.group("num") and match.group("num").endswith("0")
    return ends_in_zero and (_decimals(suggested) or 0) < (_decimals(printed) or 0)


def _apply(finding: dict, best: tuple, cells: dict) -> None:
    _cleared, _prior, _change, _printed, row, metric, cand = best
    cell = cells[(row, metric)]
    if row != finding["row_id"] or metric != finding["metric"]:
        where = f" at line {cell['source_line']}" if row != finding["row_id"] else ""
        finding["message"] += f" [the likely slip: {metric} {cell['printed']}{where}]"
        finding.update(metric=metric, printed_value=cell["printed"], fact_id=cell["fact_id"],
                       source_line=cell["source_line"], source=cell["source"])
    finding["suggested_value"] = cand.printed
    finding["suggestion_kind"] = cand.kind
