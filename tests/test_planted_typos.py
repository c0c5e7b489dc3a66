"""Typos of every kind planted in real tables are found (property-based).

A typo is planted in one printed cell of a real report's table row - a digit doubled,
dropped or swapped with its neighbour, the decimal point moved one place, an extra decimal
digit, or a us/ms mix-up (perfwh.quality.slips, as the benchmark plants them) - and the
report is checked as a submission (without warehouse context, so
only the rules themselves can find it). Tables with %CPU and a cost (WBIMB, IIB) are held to
the CPU identity: every typo that moves a number by more than a quarter must be found, and a
suggested correction must be the original. Tables without %CPU (ACE 11, ACE 13) are held
to their shape: typos that move a number more than 3.5 times (the outlier rules allow 3)
must be found.
"""
from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perfwh.core.paths import RAW_DIR
from perfwh.quality.slips import KINDS, NotApplicable, number_of, plant
from perfwh.stages.check import check

REPORTS = RAW_DIR / "reports"


def as_number(cell: str, metric: str) -> float | None:
    try:
        return number_of(cell, metric == "cpu_ms_per_msg")
    except NotApplicable:
        return None


def plant_or_same(cell: str, kind: str, position: int, digit: str, metric: str) -> str:
    """The cell after one slip (perfwh.quality.slips.plant), or the cell itself where the slip
    cannot be made on it."""
    try:
        return plant(cell, kind, position, digit, unit_column=metric == "cpu_ms_per_msg")
    except NotApplicable:
        return cell


@pytest.fixture(scope="session")  # a query: each worker reads it once, its tests spread
def rows(built_warehouse) -> dict[str, list[tuple]]:
    """(source, line, metric, printed) of every table cell, by kind of table - of the rows not
    already in error (a slip that undoes a real anomaly, such as ACE 13's over-capacity Jira
    row typed 30 times smaller, leaves a quiet row, not a finding to look for)."""
    con = duckdb.connect(str(built_warehouse), read_only=True)
    cells = con.sql("""
        SELECT source, source_line, metric, printed_value,
               -- the CPU identity needs all three numbers; a %CPU alone (the MQ Appliance
               -- tables) holds nothing to account, and a row with neither %CPU nor a cost is
               -- rates only: both are left to the benchmark
               cpu_busy_pct IS NOT NULL AND cpu_ms_per_msg IS NOT NULL AS has_identity,
               cpu_busy_pct IS NULL AND cpu_ms_per_msg IS NOT NULL AS has_cost_only
        FROM dq_input i, LATERAL (VALUES ('msg_rate', msg_rate_printed),
                                         ('cpu_busy_pct', cpu_busy_pct_printed),
                                         ('cpu_ms_per_msg', cpu_ms_per_msg_printed)) AS m(metric, printed_value)
        WHERE printed_value IS NOT NULL AND table_title NOT LIKE 'Table %'
          AND source NOT LIKE 'messagesight%'
          AND NOT EXISTS (SELECT 1 FROM dq_findings f WHERE f.source = i.source
                          AND f.source_line = i.source_line AND f.severity = 'error')
        ORDER BY ALL""").fetchall()
    con.close()
    return {"with_cpu": [c[:4] for c in cells if c[4]],
            "without_cpu": [c[:4] for c in cells if c[5]]}


@pytest.fixture(scope="session")
def baseline(tmp_path_factory):
    """source -> (rule, line, message) of each finding of the report as printed: each report
    checked once per run, by whichever worker asks first (`support.shared.once`)."""
    from support.shared import once

    known: dict[str, set] = {}

    def of(source: str) -> set:
        if source not in known:
            known[source] = once(tmp_path_factory, f"planted-typos baseline {source}", lambda _folder: {
                (f["rule"], f["source_line"], f["message"])
                for f in check(REPORTS / source, warehouse=None).findings})
        return known[source]

    return of


def check_with(tmp_path: Path, source: str, line: int, original: str, typo: str) -> list[dict]:
    lines = (REPORTS / source).read_text(encoding="utf-8").split("\n")
    text = lines[line - 1]
    assert text.count(original) >= 1
    # replace the cell where it stands as a whole token (the same number may repeat)
    tokens = text.split()
    index = next(i for i, t in enumerate(tokens) if t == original.split(" ")[0]
                 and (" " not in original or tokens[i + 1] == original.split(" ")[1]))
    parts = typo.split(" ")
    width = len(original.split(" "))
    tokens[index:index + width] = parts
    lines[line - 1] = " ".join(tokens) if "|" not in text else text.replace(
        f" {original} ", f" {typo} ", 1)
    path = tmp_path / source
    path.write_text("\n".join(lines), encoding="utf-8")
    return check(path, warehouse=None).findings


def found_on(findings: list[dict], known: set, source: str, line: int) -> list[dict]:
    """The findings on ``line`` of ``source``, or naming it ("line 363", or "file.txt:363" where
    a row of another table disagrees with it), that the report as printed does not have."""
    names_it = re.compile(rf"\bline {line}\b|{re.escape(source)}:{line}\b")
    return [f for f in findings
            if (f["rule"], f["source_line"], f["message"]) not in known
            and (f["source_line"] == line or names_it.search(f["message"]))]


slip = st.sampled_from(KINDS)
position = st.integers(min_value=0, max_value=12)
digit = st.sampled_from("0123456789")
# Each property runs as PARTS tests, part k on every PARTS-th row with 40 / PARTS examples:
# the same 40 checks of the same rows, spread over the cores.
PARTS = 4
SETTINGS = settings(max_examples=40 // PARTS, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@SETTINGS
@given(pick=st.integers(min_value=0, max_value=10_000), kind=slip, at=position, d=digit)
def test_typos_in_tables_with_cpu_are_found_and_repaired_correctly(rows, baseline, tmp_path, part, pick, kind,
                                                                     at, d):
    cells = rows["with_cpu"][part::PARTS]
    source, line, metric, original = cells[pick % len(cells)]
    typo = plant_or_same(original, kind, at, d, metric)
    before, after = as_number(original, metric), as_number(typo, metric)
    assume(after is not None and after > 0 and typo != original)
    assume(abs(after / before - 1) > 0.25)
    findings = found_on(check_with(tmp_path, source, line, original, typo), baseline(source), source, line)
    assert findings, f"{source}:{line} {metric} {original} -> {typo} ({kind}) not found"
    for f in findings:
        if f.get("suggested_value") and f["source_line"] == line and f["metric"] == metric:
            # the same number, perhaps printed with another trailing zero (20.0 for 20.00)
            assert as_number(f["suggested_value"], metric) == pytest.approx(
                as_number(original, metric)), (original, typo, f)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@SETTINGS
@given(pick=st.integers(min_value=0, max_value=10_000), kind=slip, at=position, d=digit)
def test_big_typos_in_tables_without_cpu_are_found(rows, baseline, tmp_path, part, pick, kind, at, d):
    cells = rows["without_cpu"][part::PARTS]
    source, line, metric, original = cells[pick % len(cells)]
    typo = plant_or_same(original, kind, at, d, metric)
    before, after = as_number(original, metric), as_number(typo, metric)
    assume(after is not None and after > 0 and typo != original)
    assume(max(after / before, before / after) > 3.5)
    findings = found_on(check_with(tmp_path, source, line, original, typo), baseline(source), source, line)
    assert findings, f"{source}:{line} {metric} {original} -> {typo} ({kind}) not found"


def test_the_13662_3_typo_is_repaired_to_1362_3(tmp_path, rows):
    findings = check_with(tmp_path, "iib10-xlinux.txt", 136, "1362.3", "13662.3")
    suggested = {f["suggested_value"] for f in findings if f["source_line"] == 136}
    assert suggested == {"1362.3"}


def test_plant_makes_each_kind_of_slip():
    assert plant("1362.3", "doubled", 2) == "13662.3"
    assert plant("1362.3", "dropped", 0) == "362.3"
    assert plant("1362.3", "swapped", 1) == "1632.3"
    assert plant("1362.3", "decimal", 1) == "136.23"
    assert plant("1362.3", "decimal", 0) == "13623"
    assert plant("97", "decimal", 0) == "970"
    assert plant("1563.11", "extra_decimal", 2, "1") == "1563.111"
    assert plant("476.71 μs", "unit", unit_column=True) == "476.71 ms"
    assert plant("1.06 ms", "unit", unit_column=True) == "1.06 μs"
    assert plant("0.47", "unit", unit_column=True) == "470"
    assert plant("460K", "doubled", 0) == "4460K"
    with pytest.raises(NotApplicable):
        plant("1307.12/s", "unit")  # a rate has no unit to confuse
    with pytest.raises(NotApplicable):
        plant("97", "extra_decimal")  # no decimal digits
