"""Data quality, second generation (issue 12): each slip kind and each anomaly class planted in
a real table is found, with the right suggestion where one exists; what the five reports
really contain is found as the README judges it; clean rows stay clean.

Slips are planted the way the benchmark (bench/bench_slips.py) plants them: in a report's rows
written as a CSV in the template and checked as a revision of that report, so that the rules
and the other reports - not the report's own printed twin - have to find them.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.submission import write_rows
from perfwh.core.paths import PROJECT_ROOT, RAW_DIR
from perfwh.quality.rules import load_rules
from perfwh.quality.slips import KINDS, number_of, plant
from perfwh.stages.check import check
from perfwh.warehouse.query import rows_as_template
from support.resubmit import check_resubmitted

REPORTS = RAW_DIR / "reports"
ACE11, ACE13 = "ace11-vs-iib10-docker-2019.txt", "ace13-openshift-2025.txt"
IIB, WBIMB, MS = "iib10-xlinux.txt", "wbimb5-aix-2004.txt", "messagesight1-2013.txt"


def findings(wh, where: str = "TRUE", params=None) -> list[dict]:
    result = wh.sql(f"SELECT * FROM dq_findings WHERE {where} ORDER BY finding_id", params=params)
    return [dict(zip(result.columns, row)) for row in result.fetchall()]


def planted_csv(wh, tmp_path: Path, source: str, line: int, metric: str, text: str,
                product: str | None = None, name: str | None = None) -> tuple[Path, int, str]:
    """The report's rows as a CSV with one cell changed: (path, the row's CSV line, the cell
    as it was)."""
    rows = rows_as_template(wh, source)
    index = next(i for i, r in enumerate(rows) if r["source_line"] == line
                 and (product is None or r["product"] == product))
    was = rows[index][metric]
    rows[index][metric] = text
    path = tmp_path / (name or f"planted-{source}.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        write_rows(rows, handle)
    return path, index + 2, was


def found_on(result, line: int) -> list[dict]:
    return [f for f in result.findings
            if f["source_line"] == line or re.search(rf"\bline {line}\b", f["message"])]


def check_planted(wh, built_warehouse, tmp_path, source, line, metric, text, product=None):
    path, csv_line, was = planted_csv(wh, tmp_path, source, line, metric, text, product)
    result = check(path, warehouse=built_warehouse, revision_of=source)
    return found_on(result, csv_line), csv_line, was


def report_copy(tmp_path: Path, source: str, line: int, old: str, new: str, name: str) -> Path:
    """A copy of a raw report with one cell of one line changed (the original is never touched)."""
    lines = (REPORTS / source).read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], (line, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


# -- each slip kind, planted in a real table ------------------------------------------------

# kind -> (source, line, product, metric, planted cell, the rule that must find it)
SLIPS = {
    "doubled": (IIB, 136, None, "msg_rate", "13662.3", "cpu_identity"),
    "dropped": (WBIMB, 975, None, "msg_rate", "28.67", "cpu_identity"),
    "swapped": (WBIMB, 976, None, "cpu_ms_per_msg", "5.65", "cpu_identity"),
    "decimal": (WBIMB, 977, None, "cpu_ms_per_msg", "122.1", "cpu_identity"),
    "extra_decimal": (ACE11, 206, "IIB", "msg_rate", "1563.111/s", "printed_precision"),
    "unit": (ACE11, 183, "IIB", "cpu_ms_per_msg", "476.71 ms", "cpu_capacity"),
}


def test_the_slips_planted_here_are_the_benchmarks_kinds():
    assert set(SLIPS) == set(KINDS)
    for kind, (_source, _line, _product, metric, text, _rule) in SLIPS.items():
        assert text != ""  # each planted cell is what plant() makes of the printed one somewhere
    assert plant("1362.3", "doubled", 2) == "13662.3"
    assert plant("1563.11/s", "extra_decimal", 2, "1") == "1563.111/s"
    assert plant("476.71 μs", "unit", unit_column=True) == "476.71 ms"
    assert plant("12.21", "decimal", 0) == "122.1"


@pytest.mark.parametrize("kind", KINDS)
def test_each_slip_kind_is_found_and_repaired(wh, built_warehouse, tmp_path, kind):
    source, line, product, metric, text, rule = SLIPS[kind]
    found, csv_line, was = check_planted(wh, built_warehouse, tmp_path, source, line, metric, text,
                                         product)
    assert rule in {f["rule"] for f in found}, (kind, [(f["rule"], f["message"]) for f in found])
    suggested = {f["suggested_value"] for f in found
                 if f["source_line"] == csv_line and f["metric"] == metric and f["suggested_value"]}
    unit_column = metric == "cpu_ms_per_msg"
    assert suggested and all(number_of(s, unit_column) == pytest.approx(number_of(was, unit_column))
                             for s in suggested), (kind, was, suggested)


def test_the_uncorrected_iib_report_still_gives_an_error_suggesting_1362_3(built_warehouse, tmp_path):
    """The IIB xLinux report with 1362.3 changed back to 13662.3 (a copy), checked against the
    warehouse both as a new report and as a revision of the filed one."""
    copy = report_copy(tmp_path, IIB, 136, "1362.3", "13662.3", "iib10-xlinux-uncorrected.txt")
    for revision_of in (None, IIB):
        result = check(copy, warehouse=built_warehouse, revision_of=revision_of)
        on_line = [f for f in result.errors if f["source_line"] == 136]
        assert on_line, revision_of
        assert {f["suggested_value"] for f in on_line} == {"1362.3"}, revision_of


# -- identities --------------------------------------------------------------------------

def test_msgs_per_watt_is_the_reports_identity_and_holds(wh):
    rule = next(r for r in load_rules() if r.name == "msgs_per_watt_identity")
    assert rule.severity == "error"
    assert not findings(wh, "rule = 'msgs_per_watt_identity'")


def test_a_slip_in_msgs_per_watt_or_a_power_reading_breaks_the_identity(built_warehouse, tmp_path):
    copy = report_copy(tmp_path, MS, 438, "<b>1523</b>", "<b>1253</b>", "ms-mpw.txt")
    result = check(copy, warehouse=built_warehouse, revision_of=MS)
    [f] = [f for f in result.errors if f["rule"] == "msgs_per_watt_identity"]
    assert f["source_line"] == 438 and "460K msgs/s / 302.64 W" in f["message"]
    # one load reading typed ten times too big moves supply #1's average by 135 W
    copy = report_copy(tmp_path, MS, 551, "\t139\t", "\t1399\t", "ms-watts.txt")
    result = check(copy, warehouse=built_warehouse, revision_of=MS)
    assert any(f["rule"] == "msgs_per_watt_identity" for f in result.errors)


def test_power_supply_readings_tie_together_only_on_average(wh):
    found = findings(wh, "rule = 'power_supply_identity'")
    assert {f["source_line"] for f in found} == {550, 552, 553, 554, 555, 556, 558,
                                                 566, 568, 570, 571, 573, 575, 576, 577}
    assert all(f["severity"] == "warning" for f in found)
    [f553] = [f for f in found if f["source_line"] == 553]
    assert "202.85 V x 0.890 A x power factor 0.49 = 88.5 W" in f553["message"]
    assert "averages 135.2 W and the load 136.6 W" in f553["message"]


def test_a_slip_in_a_volt_reading_that_tied_together_is_found(built_warehouse, tmp_path):
    copy = report_copy(tmp_path, MS, 551, "203.55", "20.355", "ms-volts.txt")
    result = check(copy, warehouse=built_warehouse, revision_of=MS)
    assert any(f["rule"] == "power_supply_identity" and f["source_line"] == 551
               for f in result.findings)


# -- printed precision --------------------------------------------------------------------

def test_the_reports_print_their_columns_consistently(wh):
    """ACE 11 strips trailing zeros (1.7 ms, 2 ms): fewer decimals there are not flagged."""
    assert not findings(wh, "rule = 'printed_precision'")


def test_a_dropped_decimal_in_a_column_that_keeps_trailing_zeros_is_found(wh, built_warehouse, tmp_path):
    found, _line, _was = check_planted(wh, built_warehouse, tmp_path, ACE13, 207, "cpu_ms_per_msg", "1.6")
    [f] = [f for f in found if f["rule"] == "printed_precision"]
    assert "fewer" in f["message"] and "trailing zeros" in f["message"]


# -- model residual ------------------------------------------------------------------------

def test_model_residuals_on_the_reports(wh):
    """The judged residuals (README, Data quality): ACE 13's MQ Aggregation Small at 200K, and
    ACE 11's Windows ESQL 20k and 200k on one core (ACE). Two more are the model's reading of a
    series whose shape differs from its test-mates': MQ Aggregation Small at 2MB (its 200K, the
    first, bends its line below theirs, though at 2MB it costs what they cost) and IIB 10's HTTP
    BLOB Echo 200k on one core (line 189: 1.83 ms, below the 1.95 and 2.1 of two and four cores,
    though it costs more than they do at 2k and 20k). ACE 13's JSON Parse 2MB is not among them
    (its other T-shirts predict it)."""
    lines = {(f["source"], f["source_line"]) for f in findings(wh, "rule = 'model_residual'")}
    assert lines == {(ACE11, 189), (ACE11, 344), (ACE11, 347), (ACE13, 242), (ACE13, 245)}


def test_a_cost_slip_outside_its_series_curve_is_found_and_repaired(wh, built_warehouse, tmp_path):
    """ACE 13 prints no %CPU: 13.19 -> 1.319 (the point moved) lies far below its series'
    curve, and the one slip that brings it back inside also mends the capacity and the
    printed precision."""
    found, csv_line, _was = check_planted(wh, built_warehouse, tmp_path, ACE13, 211,
                                          "cpu_ms_per_msg", "1.319")
    rules = {f["rule"] for f in found}
    assert "model_residual" in rules, rules
    assert {f["suggested_value"] for f in found if f["source_line"] == csv_line
            and f["metric"] == "cpu_ms_per_msg" and f["suggested_value"]} == {"13.19"}


def test_a_check_fits_no_more_series_than_its_limit_and_says_so(wh, built_warehouse, tmp_path):
    """Fitting costs about 20 ms a series: past --fit-limit the check leaves the model residual
    rule out for the submission, says so in a note, and runs every other rule."""
    path, csv_line, _was = planted_csv(wh, tmp_path, ACE13, 211, "cpu_ms_per_msg", "1.319")
    limited = check(path, warehouse=built_warehouse, revision_of=ACE13, fit_limit=1)
    assert any("more than --fit-limit 1 " in note and "model residual rule did not run" in note
               for note in limited.notes), limited.notes
    rules = {f["rule"] for f in found_on(limited, csv_line)}
    assert "model_residual" not in rules and rules, rules
    unlimited = check(path, warehouse=built_warehouse, revision_of=ACE13, fit_limit=None)
    assert not any("fit-limit" in note for note in unlimited.notes)
    assert "model_residual" in {f["rule"] for f in found_on(unlimited, csv_line)}


def test_predictions_come_from_the_models_stage(wh):
    """dq_predictions is the view the models stage wrote over model_predictions."""
    assert wh.sql("SELECT count(*) FROM dq_predictions").fetchall()[0][0] == \
        wh.sql("SELECT count(*) FROM model_predictions").fetchall()[0][0] > 400
    # every usable point outside its wide interval, beyond its printed precision and the
    # rule's 1 % floor, is a finding
    outside = set(wh.sql("""
        SELECT m.source, m.source_line, m.cpu_ms_per_msg_printed FROM model_predictions p
        JOIN dq_input m ON m.row_id = p.measurement_id
        WHERE NOT p.excluded AND p.lower_99 IS NOT NULL
          AND (m.cpu_ms_per_msg + m.cpu_ms_per_msg_half_ulp < p.lower_99 * (1 - 0.01)
               OR m.cpu_ms_per_msg - m.cpu_ms_per_msg_half_ulp > p.upper_99 * (1 + 0.01))""").fetchall())
    flagged = {(f["source"], f["source_line"], f["printed_value"])
               for f in findings(wh, "rule = 'model_residual'")}
    # a 99 % interval leaves out about 1 in 100 measurements of the same curve: here 5 of 445
    assert outside == flagged and 1 <= len(outside) <= 0.03 * 445


# -- capacity, both ways -------------------------------------------------------------------

MULTI_REPLICA = {312, 313, 326, 327, 336, 337, 339, 340, 356, 357, 370, 371, 384, 385}


def test_flat_while_replicas_grow_is_found_with_its_likely_cause(wh):
    found = findings(wh, "rule = 'capacity_underused' AND source = ?", [ACE13])
    by_line = {f["source_line"]: f for f in found}
    assert MULTI_REPLICA <= set(by_line)
    assert "one pod's CPU" in by_line[312]["message"]
    assert "replicas 1 -> 2" in by_line[312]["message"]


def test_a_planted_multi_replica_run_with_per_pod_costs_is_flat(wh, built_warehouse, tmp_path):
    """ACE 13's HTTP XMLNSC ESQL Medium rows, resubmitted with a 2-replica run beside each
    whose rate grew 1.9 x and whose cost was computed from one pod's CPU (it fell 1.9 x)."""
    rows = [r for r in rows_as_template(wh, ACE13) if r["scenario"] == "HTTP XMLNSC ESQL Transformation"
            and r["concurrency"] == "Medium"]
    assert len(rows) == 4
    doubled = [dict(r, replicas=2, msg_rate=f"{float(r['msg_rate']) * 1.9:.2f}",
                    cpu_ms_per_msg=f"{float(r['cpu_ms_per_msg']) / 1.9:.2f}") for r in rows]
    path = tmp_path / "replicas.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        write_rows(rows + doubled, handle)
    result = check(path, warehouse=built_warehouse)
    flat = [f for f in result.findings if f["rule"] == "capacity_underused"]
    assert {f["source_line"] for f in flat} == {6, 7, 8, 9}
    assert all("one pod's CPU" in f["message"] and "replicas 1 -> 2" in f["message"] for f in flat)


def test_capacity_too_high_and_far_too_low_in_a_saturation_test(wh, built_warehouse, tmp_path):
    # ACE 13 HTTP XMLNSC ESQL keeps its T-shirts 95-101 % busy
    found, _l, _w = check_planted(wh, built_warehouse, tmp_path, ACE13, 211, "msg_rate", "731.1")
    assert any(f["rule"] == "cpu_capacity" and f["severity"] == "error" for f in found)
    found, _l, _w = check_planted(wh, built_warehouse, tmp_path, ACE13, 211, "msg_rate", "7.311")
    [low] = [f for f in found if f["rule"] == "capacity_underused"]
    assert "saturates the CPU" in low["message"]


def test_a_smaller_capacity_far_below_a_bigger_saturated_one(wh, built_warehouse, tmp_path):
    """ACE 13's Create ServiceNow Incidents: Small keeps 96 % of its 0.5 core busy, Medium 93 %
    of its core. A cost with a digit dropped (329.35 -> 39.35) leaves Small 11 % busy: under
    the same load the smaller container saturates first, so its numbers cannot both be right."""
    found, _l, _w = check_planted(wh, built_warehouse, tmp_path, ACE13, 376, "cpu_ms_per_msg", "39.35")
    [low] = [f for f in found if f["rule"] == "capacity_underused"]
    assert "a smaller capacity saturates first" in low["message"] and "with 1 cores" in low["message"]
    assert "93% busy" in low["message"]


def test_a_persistent_rate_above_the_systems_fastest_non_persistent_one(wh, built_warehouse, tmp_path):
    """MessageSight's score card lists each test once, so JMSPERSISTENT has no non-persistent
    twin; with a digit doubled (350K -> 3550K) it beats JMSPUBSUB's 1.4M, the fastest
    non-persistent rate of the appliance. The printed 350K does not."""
    found, _l, _w = check_planted(wh, built_warehouse, tmp_path, MS, 425, "msg_rate", "3550K")
    [fast] = [f for f in found if f["rule"] == "persistence_overhead"]
    assert fast["metric"] == "msg_rate" and "3550K msgs/s" in fast["message"]
    assert "the fastest: 1.4M msgs/s" in fast["message"]
    assert not findings(wh, "rule = 'persistence_overhead' AND source = ?", [MS])


def test_the_under_driven_one_core_windows_runs_are_found_from_the_bigger_side(wh):
    found = findings(wh, "rule = 'capacity_underused' AND message LIKE '%saturates first%'")
    assert {(f["source"], f["source_line"]) for f in found} == {
        (ACE11, 301), (ACE11, 321), (ACE11, 384), (ACE11, 401)}


# -- resubmission --------------------------------------------------------------------------

def test_a_resubmitted_rate_only_row_gets_the_filed_number(wh, built_warehouse, tmp_path):
    rows = [r for r in rows_as_template(wh, WBIMB) if r["source_line"] == 481]
    row = next(r for r in rows if r["scenario"] == "MRM CWF to MRM TDS")
    assert row["cpu_ms_per_msg"] is None  # Table 1 prints rates only
    # typed otherwise: case and spacing of the names (spaces of other kinds too: a no-break
    # space, an em space, as a web page lends them), the size with a unit
    for n, scenario in enumerate(("mrm  cwf to MRM tds", "mrm\u00a0cwf to\u2003MRM tds\u00a0")):
        typed = dict(row, msg_rate="14.2", scenario=scenario, product="wbimb", message_size_bytes="4k",
                     platform=row["platform"].replace(" ", "\u00a0") + "\u2009")
        path = tmp_path / f"resubmitted{n}.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            write_rows([typed], handle)
        result = check(path, warehouse=built_warehouse)
        [f] = [f for f in result.errors if f["rule"] == "cross_table_consistency"]
        assert f["suggested_value"] == "142.00" and "wbimb5-aix-2004.txt:481" in f["message"]


def test_a_name_is_one_name_however_its_accents_and_spaces_are_typed(wh):
    """The same measurement's key folds a name's spaces of every kind and composes its accents:
    'Café' typed as one é or as e and a combining accent is one platform to the rules."""
    [[one, two, three]] = wh.sql(
        "SELECT measurement_key('ACE', '13', 'Caf\u00e9 box', 4, 'JSON Parse', 2048, false, 'c'), "
        "measurement_key('ACE', '13', 'Cafe\u0301\u00a0box', 4, 'JSON\u2003parse ', 2048, false, 'c'), "
        "measurement_key('ACE', '13', 'Cafe box', 4, 'JSON Parse', 2048, false, 'c')").fetchall()
    assert one == two != three



def test_a_run_of_a_reports_test_is_told_apart_from_a_copy_with_a_slip(wh, built_warehouse, tmp_path):
    """A lab re-measuring IIB 10's Coordinated Request/Reply at 256 bytes on an 8-core server it
    names xLinux, as the report does: every number differs (1300.0 msgs/s, 87.0 %, 5.4 ms against
    1334.9, 89.0, 5.3), so the row is another run - the report's numbers are no correction of
    it, and the message says how to file it. A copy of the row with one number slipped agrees
    in the others and keeps the filed number as its suggestion."""
    [row] = [r for r in rows_as_template(wh, IIB) if r["source_line"] == 57 and r["msg_rate"] == "1334.9"]
    assert (row["msg_rate"], row["cpu_busy_pct"], row["cpu_ms_per_msg"]) == ("1334.9", "89.0", "5.3")

    def errors(name: str, **numbers) -> list[dict]:
        path = tmp_path / name
        with open(path, "w", newline="", encoding="utf-8") as handle:
            write_rows([dict(row, **numbers)], handle)
        return [f for f in check(path, warehouse=built_warehouse).errors if f["rule"] == "cross_table_consistency"]

    rerun = errors("rerun.csv", msg_rate="1300.0", cpu_busy_pct="87.0", cpu_ms_per_msg="5.4")
    assert sorted(f["metric"] for f in rerun) == ["cpu_busy_pct", "cpu_ms_per_msg", "msg_rate"]
    assert all(f["suggested_value"] is None and "every number differs, so this is another run, not a copy: "
               "name the platform as your own machine (not as iib10-xlinux.txt does)" in f["message"]
               for f in rerun)
    [slip] = errors("slip.csv", msg_rate="13349.0")
    assert slip["metric"] == "msg_rate" and slip["suggested_value"] == "1334.9"
    assert "another run" not in slip["message"]

# -- embedded and repeated rows --------------------------------------------------------------

def test_the_multi_replica_rows_inside_the_single_replica_json_parse_table(wh):
    found = {f["source_line"]: f for f in findings(wh, "rule = 'embedded_rows'")}
    assert set(found) == {336, 337, 339, 340}
    for line, other in ((336, 353), (337, 354), (339, 356), (340, 357)):
        assert f"line {other}" in found[line]["message"]
    assert "replicas 2 in a table whose rows have replicas 1" in found[336]["message"]


def test_an_embedded_row_planted_in_another_table_is_found(built_warehouse, tmp_path):
    """A 2-replica row of the JSON Parse test pasted into the single-replica HTTP XMLNSC ESQL
    table (it also reads as that table's Medium 20K row at 2 replicas)."""
    lines = (REPORTS / ACE13).read_text(encoding="utf-8").split("\n")
    at = lines.index("| Medium | 20K | 1 | 620.53 | 1.56 |") + 1
    lines.insert(at, "| Medium | 20K | 2 | 362.71 | 2.55 |")
    path = tmp_path / "ace13-embedded.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = check(path, warehouse=built_warehouse, revision_of=ACE13)
    [f] = [f for f in result.findings if f["rule"] == "embedded_rows" and f["source_line"] == at + 1]
    assert "362.71 / 2.55" in f["message"] and "JSON Parse" in f["message"]


# -- false positives ----------------------------------------------------------------------

def judged_lines(wh, source: str) -> set[int]:
    """Lines of a report that a finding in the warehouse is on or names (the README judges
    every one of them); the other rows are clean."""
    lines = set()
    for line, message in wh.sql("SELECT source_line, message FROM dq_findings WHERE source = ?",
                                params=[source]).fetchall():
        lines.add(line)
        lines.update(int(n) for pair in re.findall(rf"{re.escape(source)}:(\d+)|\blines? (\d+)\b",
                                                   message) for n in pair if n)
    return lines


def test_clean_rows_resubmitted_stay_clean(wh, built_warehouse, tmp_path):
    """Each report's rows that no finding in the warehouse is about, written in the template
    and checked against the warehouse: no error, and warnings on at most 5 % of them."""
    rows_total = warned = 0
    for (source,) in wh.sql("SELECT source FROM dim_report ORDER BY source").fetchall():
        judged = judged_lines(wh, source)
        rows = [r for r in rows_as_template(wh, source) if r["source_line"] not in judged]
        path = tmp_path / f"clean-{source}.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            write_rows(rows, handle)
        result = check_resubmitted(path, built_warehouse, source)
        assert not result.errors, (source, [f["message"] for f in result.errors[:3]])
        rows_total += len(rows)
        warned += len({f["source_line"] for f in result.findings})
    assert warned <= 0.05 * rows_total, (warned, rows_total)


def test_every_rule_that_fires_on_the_reports_is_judged_in_the_readme(wh):
    """The README's judgement table names every rule that has findings on the reports of
    data/raw/sources.yml, and its heading counts them."""
    from perfwh.warehouse.sources import load_manifest

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### What the rules find"):readme.index("### Checking and filing")]
    published = [s.file for s in load_manifest(PROJECT_ROOT / "data" / "raw" / "sources.yml")]
    fired = {r for (r,) in wh.sql("SELECT DISTINCT rule FROM dq_findings WHERE list_contains(?, source)",
                                  params=[published]).fetchall()}
    assert {r for r in fired if f"`{r}`" not in section} == set()
    counts = wh.sql("SELECT count(*) FILTER (WHERE severity = 'error'), "
                    "count(*) FILTER (WHERE severity = 'warning') FROM dq_findings "
                    "WHERE list_contains(?, source)", params=[published]).fetchall()[0]
    assert f"({counts[0]} errors, {counts[1]} warnings)" in section
