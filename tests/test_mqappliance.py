"""The MQ Appliance reports beyond their tables (tests/expected_values/mqappliance.py has those):
the ratios and rates their prose states, the findings the rules give on them - exactly those
the README judges - and slips and false statements planted in a copy of a report, written to
a PDF as the reports are published, caught by the rules made for these tables.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import families
from ingest.reader import read_lines
from ingest.records import Line, ParseError
from perfwh.core.paths import RAW_DIR
from perfwh.quality.rules import load_rules
from perfwh.stages.check import check
from perfwh.warehouse.sources import find_raw
from support.pdfs import write_pdf

M2001, M2002 = "mq-appliance-m2001-2016.pdf", "mq-appliance-m2002-2018.pdf"

# The prose's statements: (line, comparison, as printed, size, this side (appliance, deployment,
# queue managers, simulated latency), the other side where it differs (appliance, deployment,
# simulated latency)).
A1, B1, A0 = "m2001a", "m2001b", "m2000a"
A2, B2 = "m2002a", "m2002b"
SA, HA, DR, HD = "standalone", "ha_group", "dr_pair", "ha_dr"
CLAIMS = {
    M2001: [
        (352, "ratio_over", "2.5x", "2KB", (A1, SA, 10, None), (A0, SA, None)),
        (354, "ratio_over", "3.5", "20KB", (A1, SA, 10, None), (A0, SA, None)),
        (354, "ratio_over", "3.5", "200KB", (A1, SA, 10, None), (A0, SA, None)),
        (519, "ratio_approx", "3 times", "2KB", (A1, SA, 1, None), (B1, SA, None)),
        (588, "approx", "~50,000", "2KB", (A1, SA, 1, None), (None, None, None)),
        (593, "ratio_approx", "2.5 times", "2KB", (A1, SA, 1, None), (B1, SA, None)),
        (657, "ratio_over", "3 times", "2KB", (A1, SA, 10, None), (B1, SA, None)),
        (721, "over", "50,000", "2KB", (A1, SA, 10, None), (None, None, None)),
        (726, "ratio_approx", "2.5 times", "2KB", (A1, SA, 10, None), (B1, SA, None)),
        (865, "ratio_approx", "3 times", "2KB", (A1, SA, 1, None), (B1, SA, None)),
        (928, "approx", "~47,000", "2KB", (A1, SA, 1, None), (None, None, None)),
    ],
    M2002: [
        (422, "gain_over", "60%", "2KB", (A2, SA, 10, None), (A1, SA, None)),
        (424, "ratio_approx", "3", "20KB", (A2, SA, 10, None), (A1, SA, None)),
        (424, "ratio_approx", "3", "200KB", (A2, SA, 10, None), (A1, SA, None)),
        (482, "gain_over", "60%", "2KB", (A2, HD, 10, "0"), (A1, HD, None)),
        (484, "ratio_approx", "3", "20KB", (A2, HD, 10, "0"), (A1, HD, None)),
        (484, "ratio_approx", "3", "200KB", (A2, HD, 10, "0"), (A1, HD, None)),
        (667, "ratio_approx", "3 times", "2KB", (A2, SA, 1, None), (B2, SA, None)),
        (730, "approx", "~73,000", "2KB", (A2, SA, 1, None), (None, None, None)),
        (734, "ratio_approx", "2.5 times", "2KB", (A2, SA, 1, None), (B2, SA, None)),
        (798, "ratio_approx", "3 times", "2KB", (A2, SA, 10, None), (B2, SA, None)),
        (863, "over", "110,000", "2KB", (A2, SA, 10, None), (None, None, None)),
        (867, "ratio_over", "3 times", "2KB", (A2, SA, 10, None), (B2, SA, None)),
        (1111, "reduction_approx", "15%", "2KB", (A2, HA, 10, "0"), (A2, SA, None)),
        (1219, "reduction_approx", "~80%", "2KB", (A2, HA, 10, "2"), (None, None, "0")),
        (1403, "reduction_at_most", "25%", "2KB", (A2, DR, 1, "0"), (A2, SA, None)),
        (1474, "reduction_at_most", "10%", "2KB", (A2, DR, 10, "0"), (A2, SA, None)),
        (1659, "ratio_approx", "twice", "2KB", (A2, HA, 1, "0"), (B2, HA, None)),
        (1717, "ratio_over", "3 times", "2KB", (A2, HA, 10, "0"), (B2, HA, None)),
        (1785, "ratio_over", "double", "2KB", (A2, DR, 1, "0"), (B2, DR, None)),
        (1857, "ratio_approx", "3 times", "2KB", (A2, DR, 10, "0"), (B2, DR, None)),
        (1926, "ratio_over", "double", "2KB", (A2, HD, 1, "0"), (B2, HD, None)),
        (2050, "ratio_over", "3 times", "2KB", (A2, HD, 10, "0"), (B2, HD, None)),
    ],
}
# Every finding on the two reports, as the README judges them: (source, line, rule).
FINDINGS = {
    (M2001, 593, "claim_vs_table"),          # "almost 2.5 times": 2.42
    (M2002, 730, "claim_vs_table"),          # "~73,000": 73,509
    (M2002, 734, "claim_vs_table"),          # "almost 2.5 times": 2.40
    (M2002, 1111, "claim_vs_table"),         # "only 15% less": 15.8 %
    (M2002, 1122, "replication_cost"),       # HA 3,949 above the standalone 3,614 at 200KB
    (M2002, 1725, "replication_cost"),       # ... printed again in Table 18
    (M2002, 1264, "monotonic_sweep"),        # 10 ms: 4,548 at 20KB above 4,257 at 2KB
}


def lines_of(source: str) -> list[Line]:
    return read_lines(find_raw(RAW_DIR, source))


@pytest.mark.parametrize("source", sorted(CLAIMS))
def test_the_prose_is_read_as_claims_about_the_table_below_it(source):
    claims = families.parse("mqappliance", lines_of(source), source).claims
    got = [(c.line, c.comparison, c.value.printed, c.message_size.printed,
            (c.platform, c.topology, c.queue_managers, c.simulated_latency_ms),
            (c.relative_platform, c.relative_topology, c.relative_simulated_latency_ms))
           for c in claims]
    assert got == CLAIMS[source]
    assert all(c.kind == "value" and c.metric == "msg_rate" and c.scope.startswith("TABLE ")
               for c in claims)


def test_the_findings_are_those_the_readme_judges(wh):
    found = {tuple(r) for r in wh.sql("""SELECT source, source_line, rule FROM dq_findings
                                         WHERE list_contains(?, source)""",
                                      params=[sorted(CLAIMS)]).fetchall()}
    assert found == FINDINGS
    assert not wh.sql("SELECT count(*) FROM dq_findings WHERE list_contains(?, source) AND "
                      "severity = 'error'", params=[sorted(CLAIMS)]).fetchall()[0][0]


def test_a_replicated_rate_is_compared_with_the_standalone_its_own_table_prints(wh):
    """The standalone 200KB rate is printed in Table 2 (line 432) and again beside the HA one in
    Table 9 (line 1122); Table 18 prints the HA rate beside the M2002B's. A finding cites its
    own table's printing of the standalone rate, where the reader is looking, else the first."""
    rows = wh.sql("""SELECT source_line, message FROM dq_findings
                     WHERE rule = 'replication_cost' ORDER BY source_line""").fetchall()
    cited = {line: int(message.split("(line ")[1].split(")")[0]) for line, message in rows}
    assert cited == {1122: 1122, 1725: 432}, rows
    assert all("3,614 msgs/s" in message and "3,949 msgs/s" in message for _, message in rows)


def test_the_side_by_side_tables_are_held_to_each_other(wh):
    """A comparison table prints rows of the other tables (M2002's Table 1 is Table 6's M2002A
    column; Table 8's nonHA column is Table 5's M2002A): the same test, deployment and load,
    so the consistency rule compares them - and finds nothing, as printed."""
    pairs = wh.sql("""
        SELECT count(*) FROM dq_input a JOIN dq_input b
          ON a.measurement_key = b.measurement_key AND a.source = b.source
         AND a.table_title < b.table_title
        WHERE a.source = ?""", params=[M2002]).fetchall()[0][0]
    assert pairs > 40
    # Table 2 stopped its sweep at 300 requesters: its M2002A rows at 300 are not Table 7's at 400
    loads = wh.sql("""SELECT source_table, concurrency, msg_rate_printed FROM measurements
                      WHERE source = ? AND platform = 'M2002A' AND topology = 'standalone'
                        AND queue_managers = 10 AND persistent AND message_size_bytes = 2048
                      ORDER BY source_line""", params=[M2002]).fetchall()
    assert loads[0] == ("TABLE 2 - PEAK RATES FOR 10QM PERSISTENT MESSAGING, M2002A VS M2001A",
                        300.0, "109,495")
    assert {row[1:] for row in loads[1:]} == {(400.0, "111,870")}


def planted(tmp_path: Path, source: str, line: int, original: str, changed: str) -> Path:
    """A copy of a report with one line changed, written to a PDF as the reports are published
    (the raw file is never edited)."""
    lines = lines_of(source)
    assert original in lines[line - 1].text, (line, lines[line - 1].text)
    lines[line - 1] = Line(line, lines[line - 1].text.replace(original, changed, 1), lines[line - 1].page)
    path = tmp_path / f"planted-{source}"
    write_pdf(lines, path)
    return path


# (source, line, printed, planted, the rule that must find it on that line, and a word of its message)
PLANTS = [
    # the prose: a ratio against another appliance, a deployment, a delay
    (M2002, 667, "approximately 3 times", "approximately 5 times", "claim_vs_table", "2.9 times"),
    (M2002, 422, "more than 60%", "more than 70%", "claim_vs_table", "65.9 % more"),
    (M2002, 1111, "only 15% less", "only 30% less", "claim_vs_table", "15.8 % less"),
    (M2002, 1219, "~80% reduction", "~60% reduction", "claim_vs_table", "79.9 % less"),
    # the tables: vs Direct against the two rates, a reprinted row, the delay sweep
    (M2002, 1226, "20.1%", "21.0%", "rate_vs_direct_identity", "18,919 / 94,215"),
    (M2002, 1049, "94,738 85.39 280 0.4", "94,378 85.39 280 0.4", "cross_table_consistency",
     "94,738"),
    (M2002, 1254, "8,020 11.88", "80,020 11.88", "latency_sweep", "15,684"),
    (M2002, 1050, "39,933 39.14 400 0.8", "99,933 39.14 400 0.8", "replication_cost", "73,509"),
]


@pytest.mark.parametrize("source,line,printed,plant,rule,word", PLANTS,
                         ids=[f"{p[4]}:{p[1]}" for p in PLANTS])
def test_a_planted_slip_or_false_statement_is_found(tmp_path, source, line, printed, plant, rule, word):
    rules = [r for r in load_rules() if r.relation != "dq_rejects"]
    found = check(planted(tmp_path, source, line, printed, plant), warehouse=None, rules=rules,
                  repair=False).findings
    on_line = [f for f in found if f["source_line"] == line and f["rule"] == rule]
    assert on_line, [(f["rule"], f["source_line"], f["message"]) for f in found]
    assert word in on_line[0]["message"], on_line[0]["message"]


def test_a_page_left_out_is_a_table_missing_not_a_shorter_report():
    """The tables are numbered in print order: a copy without the page holding Table 10 (its
    rows and caption) is refused naming the table it lacks, where it was filed without it, as
    a report of 21 tables; a caption whose rows are gone is refused too."""
    lines = lines_of(M2002)
    caption = next(x for x in lines if x.text.startswith("TABLE 10 "))
    without_page = [x for x in lines if x.page != caption.page]
    with pytest.raises(ParseError) as lost:
        families.parse("mqappliance", without_page, M2002)
    assert "TABLE 11 follows TABLE 9: TABLE 10 is missing" in str(lost.value), str(lost.value)
    first = next(x for x in without_page if x.text.startswith("TABLE 11 "))
    assert lost.value.line == first.number
    rows_of_ten = [x for x in lines if x.page == caption.page and x.number < caption.number
                   and re.match(r"\s*Test ", x.text)]
    assert rows_of_ten
    header = rows_of_ten[-1]
    without_rows = [x for x in lines if not (header.number <= x.number < caption.number)]
    with pytest.raises(ParseError) as bare:
        families.parse("mqappliance", without_rows, M2002)
    assert "TABLE 10 has no results rows above its caption" in str(bare.value), str(bare.value)


def test_a_stray_line_inside_a_table_is_named_where_it_is():
    """A page number left between two rows of Table 10 stops its rows before their footnotes:
    the error names that line and what it looks like, not the last row read."""
    lines = lines_of(M2002)
    caption = next(k for k, x in enumerate(lines) if x.text.startswith("TABLE 10 "))
    rows = [k for k in range(caption - 12, caption) if lines[k].text.lstrip().startswith("10Q ")]
    at = rows[-2]
    stray = lines[:at + 1] + [Line(0, "21", lines[at].page)] + lines[at + 1:]
    stray = [Line(n, x.text, x.page) for n, x in enumerate(stray, 1)]
    with pytest.raises(ParseError) as err:
        families.parse("mqappliance", stray, M2002)
    assert err.value.line == at + 2, str(err.value)
    assert "'21' interrupts the table's rows before its footnotes" in str(err.value)
    assert "'#Single thread round trip latency (ms)'" in str(err.value)
