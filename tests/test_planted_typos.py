"""Typos of every kind planted in real tables are found (property-based).

A typo is planted in one printed cell of a real report's table row - a digit doubled,
lost, added or swapped with its neighbour, the decimal point moved one place, or a
us/ms mix-up - and the report is checked as a submission (without warehouse context, so
only the rules themselves can find it). Tables with %CPU (WBIMB, IIB) are held to the
CPU identity: every typo that moves a number by more than a quarter must be found, and a
suggested correction must be the original. Tables without %CPU (ACE 11, ACE 13) are held
to their shape: typos that move a number more than 3.5 times (the outlier rules allow 3)
must be found.
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perfwh import RAW_DIR
from perfwh.check import check

REPORTS = RAW_DIR / "reports"
SLIPS = ("doubled", "deleted", "inserted", "swapped", "decimal", "unit")


def plant(cell: str, slip: str, position: int, digit: str) -> str:
    """The cell as it reads after one slip of the hand."""
    number, unit = (cell.split(" ", 1) + [""])[:2]
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    i = digits[position % len(digits)]
    if slip == "doubled":
        number = number[:i] + number[i] + number[i:]
    elif slip == "deleted":
        number = number[:i] + number[i + 1:]
    elif slip == "inserted":
        number = number[:i] + digit + number[i:]
    elif slip == "swapped":
        j = i + 1 if i + 1 < len(number) and number[i + 1].isdigit() else i - 1
        if j < 0 or not number[j].isdigit():
            return cell
        a, b = sorted((i, j))
        number = number[:a] + number[b] + number[a] + number[b + 1:]
    elif slip == "decimal":
        bare = number.replace(".", "")
        point = number.index(".") if "." in number else len(number)
        point = point - 1 if position % 2 else point + 1
        if not 0 < point < len(bare):
            return cell
        number = bare[:point] + "." + bare[point:]
    elif slip == "unit":
        if unit in ("μs", "ms"):
            unit = "ms" if unit == "μs" else "μs"
        else:  # a column in ms: the value typed in us
            number = format((Decimal(number) * 1000).normalize(), "f")
    return f"{number} {unit}".strip()


def as_number(cell: str, metric: str) -> float | None:
    number, unit = (cell.replace("/s", "").split(" ", 1) + [""])[:2]
    try:
        value = float(number)
    except ValueError:
        return None
    return value / 1000 if unit.strip() == "μs" else value


@pytest.fixture(scope="module")
def rows(built_warehouse) -> dict[str, list[tuple]]:
    """(source, line, metric, printed) of every table cell, by kind of table."""
    con = duckdb.connect(str(built_warehouse), read_only=True)
    cells = con.sql("""
        SELECT source, source_line, metric, printed_value, cpu_busy_pct IS NOT NULL AS has_cpu
        FROM dq_input, LATERAL (VALUES ('msg_rate', msg_rate_printed),
                                       ('cpu_busy_pct', cpu_busy_pct_printed),
                                       ('cpu_ms_per_msg', cpu_ms_per_msg_printed)) AS m(metric, printed_value)
        WHERE printed_value IS NOT NULL AND table_title NOT LIKE 'Table %'
          AND source NOT LIKE 'messagesight%'
        ORDER BY ALL""").fetchall()
    con.close()
    return {"with_cpu": [c[:4] for c in cells if c[4]],
            "without_cpu": [c[:4] for c in cells if not c[4]]}


_baseline_cache: dict[str, set] = {}


def baseline(source: str) -> set:
    if source not in _baseline_cache:
        found = check(REPORTS / source, warehouse=None).findings
        _baseline_cache[source] = {(f["rule"], f["source_line"], f["message"]) for f in found}
    return _baseline_cache[source]


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


def found_on(findings: list[dict], source: str, line: int) -> list[dict]:
    known = baseline(source)
    return [f for f in findings
            if (f["rule"], f["source_line"], f["message"]) not in known
            and (f["source_line"] == line or f"line {line}" in f["message"])]


slip = st.sampled_from(SLIPS)
position = st.integers(min_value=0, max_value=12)
digit = st.sampled_from("0123456789")
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@SETTINGS
@given(pick=st.integers(min_value=0, max_value=10_000), kind=slip, at=position, d=digit)
def test_typos_in_tables_with_cpu_are_found_and_repaired_correctly(rows, tmp_path, pick, kind, at, d):
    source, line, metric, original = rows["with_cpu"][pick % len(rows["with_cpu"])]
    assume(kind != "unit" or metric == "cpu_ms_per_msg")
    typo = plant(original, kind, at, d)
    before, after = as_number(original, metric), as_number(typo, metric)
    assume(after is not None and after > 0 and typo != original)
    assume(abs(after / before - 1) > 0.25)
    findings = found_on(check_with(tmp_path, source, line, original, typo), source, line)
    assert findings, f"{source}:{line} {metric} {original} -> {typo} ({kind}) not found"
    for f in findings:
        if f.get("suggested_value") and f["source_line"] == line and f["metric"] == metric:
            # the same number, perhaps printed with another trailing zero (20.0 for 20.00)
            assert as_number(f["suggested_value"], metric) == pytest.approx(
                as_number(original, metric)), (original, typo, f)


@SETTINGS
@given(pick=st.integers(min_value=0, max_value=10_000), kind=slip, at=position, d=digit)
def test_big_typos_in_tables_without_cpu_are_found(rows, tmp_path, pick, kind, at, d):
    source, line, metric, original = rows["without_cpu"][pick % len(rows["without_cpu"])]
    assume(kind != "unit" or metric == "cpu_ms_per_msg")
    typo = plant(original, kind, at, d)
    before, after = as_number(original, metric), as_number(typo, metric)
    assume(after is not None and after > 0 and typo != original)
    assume(max(after / before, before / after) > 3.5)
    findings = found_on(check_with(tmp_path, source, line, original, typo), source, line)
    assert findings, f"{source}:{line} {metric} {original} -> {typo} ({kind}) not found"


def test_the_13662_3_typo_is_repaired_to_1362_3(tmp_path, rows):
    findings = check_with(tmp_path, "iib10-xlinux.txt", 136, "1362.3", "13662.3")
    suggested = {f["suggested_value"] for f in findings if f["source_line"] == 136}
    assert suggested == {"1362.3"}


def test_plant_makes_each_kind_of_slip():
    assert plant("1362.3", "doubled", 2, "0") == "13662.3"
    assert plant("1362.3", "deleted", 0, "0") == "362.3"
    assert plant("1362.3", "inserted", 1, "7") == "17362.3"
    assert plant("1362.3", "swapped", 1, "0") == "1632.3"
    assert plant("1362.3", "decimal", 1, "0") == "136.23"
    assert plant("476.71 μs", "unit", 0, "0") == "476.71 ms"
