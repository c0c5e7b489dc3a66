"""The prose audit beyond numbers: statements the parsers read from the reports' text (counts,
orderings, superlatives, trends, windows, dates), each checked against the tables.

The false statements of the five reports are each found, with the sentence and the table lines
that contradict it; every other statement the parsers read is not flagged (so the true ones -
"two system configurations", "declined with size", "the maximum ... with a fanout ratio of
1:10" - pass); and a false statement planted in a copy of a report (the raw file is never
touched) is caught by the rule of its kind, while the same sentence made true is not.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import families, prose
from ingest.reader import read_lines
from ingest.records import Line
from perfwh.core.paths import RAW_DIR
from perfwh.quality.rules import load_rules
from perfwh.stages.check import check
from support.expected import claims

REPORTS = RAW_DIR / "reports"
ACE11 = "ace11-vs-iib10-docker-2019.txt"
ACE13 = "ace13-openshift-2025.txt"
IIB = "iib10-xlinux.txt"
MS = "messagesight1-2013.txt"
WBIMB = "wbimb5-aix-2004.txt"
FAMILY = {ACE11: "ace11", ACE13: "ace13", IIB: "iib10", MS: "messagesight", WBIMB: "wbimb"}
PROSE_RULES = ("claim_count", "claim_order", "claim_best", "claim_trend", "claim_window")

# Every false statement of the five reports' prose beyond numbers: (source, line, rule, what
# the message must name - the table lines and numbers that contradict it).
FALSE_STATEMENTS = [
    (ACE11, 168, "claim_count", ["three platforms", "the tables show 2", "Linux (line 183)",
                                 "Windows (line 301)"]),
    (ACE11, 172, "claim_count", ["nine test scenarios on Linux", "the tables show 6",
                                 "SOAP Echo (line 278)"]),
    (ACE11, 290, "claim_count", ["nine test scenarios on Windows", "the tables show 6",
                                 "SOAP Echo (line 401)"]),
    (ACE13, 80, "claim_count", ["three different pre-defined capacity configurations",
                                "TCPIP ISO8583 XML Transformation", "shows 2",
                                "Medium (line 299)", "Large (line 300)"]),
    (ACE13, 86, "claim_count", ["4 different test message sizes",
                                "TCPIP ISO8583 XML Transformation", "shows 1", "(line 299)"]),
    (IIB, 35, "claim_order", ["a reduction in message rate", "persistent: 15600.0 (line 62)",
                              "non-persistent: 17278.2 (line 62)"]),
    (MS, 7, "claim_window", ["Test date: April 22, 2013", "dated 2013-04-26", "lines 550-577"]),
    (MS, 542, "claim_window", ["over an 8 minute period", "Power Supply #2", "10:00:04",
                               "10:11:05", "lines 566-577", "11.0 minutes"]),
    (WBIMB, 236, "claim_count", ["a 4 CPU machine", "206 of the 206", "imply 8.0", "line 907"]),
    (WBIMB, 257, "claim_best", ["best possible message throughput",
                                "Nested SELECT FROM Compute: 177.33 (line 964) above 138.33 (line 910)",
                                "Filter: 663.67 (line 1003) above 656.67 (line 909)"]),
    (WBIMB, 587, "claim_order", ["greater message throughput using topic based routing",
                                 "Topic Based Routing, non-persistent: 138.67 (line 1229) below "
                                 "Content Based Routing, non-persistent: 140.00 (line 1265)"]),
    (WBIMB, 597, "claim_order", ["more expensive to process than a single Filter node",
                                 "3.48 (line 1277) below", "3.50 (line 1003)"]),
    (WBIMB, 641, "claim_order", ["greater message throughput was possible with multiple execution",
                                 "execution_groups 4: 148.67 (line 1351) below",
                                 "flow_instances 4: 155.33 (line 1317)", "(line 1359)"]),
    (WBIMB, 700, "claim_order", ["more efficient than Content based routing",
                                 "138.67 (line 1229) below", "140.00 (line 1265)"]),
]

# What the parsers read, by kind: (source, line, kind, comparison, compared) that must be there.
EXPECTED_CLAIMS = [
    (ACE11, 90, "count", "exactly", "platforms"),
    (ACE11, 114, "count", "exactly", "concurrency_levels"),
    (ACE11, 114, "count", "exactly", "message_sizes"),
    (ACE11, 114, "count", "exactly", "configurations"),
    (ACE11, 168, "count", "exactly", "platforms"),
    (ACE11, 172, "count", "exactly", "scenarios"),
    (ACE11, 290, "count", "exactly", "scenarios"),
    (ACE13, 80, "count", "exactly", "tshirts"),
    (ACE13, 86, "count", "exactly", "message_sizes"),
    (ACE13, 121, "count", "exactly", "message_sizes"),
    (ACE13, 133, "count", "exactly", "message_sizes"),
    (ACE13, 144, "count", "exactly", "message_sizes"),
    (IIB, 34, "trend", "falls", "message_size"),
    (IIB, 34, "trend", "rises", "message_size"),
    (IIB, 35, "order", "higher", "persistence"),
    (IIB, 35, "order", "lower", "persistence"),
    (MS, 7, "date", "on", "readings"),
    (MS, 455, "best", "highest", "configurations"),
    (MS, 513, "best", "highest", "configurations"),
    (MS, 542, "window", "approx", "readings"),
    (WBIMB, 230, "order", "lower", "scenarios"),
    (WBIMB, 236, "count", "exactly", "cores"),
    (WBIMB, 251, "trend", "falls", "message_size"),
    (WBIMB, 253, "order", "lower", "persistence"),
    (WBIMB, 257, "best", "highest", "scenarios"),
    (WBIMB, 316, "order", "lower", "scenarios"),
    (WBIMB, 348, "order", "higher", "scenarios"),
    (WBIMB, 371, "count", "exactly", "tables"),
    (WBIMB, 515, "count", "exactly", "message_sizes"),
    (WBIMB, 566, "trend", "rises", "concurrency"),
    (WBIMB, 568, "order", "higher", "persistence"),
    (WBIMB, 572, "trend", "falls", "concurrency"),
    (WBIMB, 587, "order", "higher", "scenarios"),
    (WBIMB, 597, "order", "higher", "scenarios"),
    (WBIMB, 599, "order", "higher", "configurations"),
    (WBIMB, 641, "order", "higher", "configurations"),
    (WBIMB, 681, "order", "higher", "persistence"),
    (WBIMB, 700, "order", "higher", "scenarios"),
]


def parsed_claims(source: str, lines: list[Line] | None = None):
    lines = lines if lines is not None else read_lines(REPORTS / source)
    return [c for c in families.parse(FAMILY[source], lines, source).claims if c.kind != "value"]


def prose_findings(wh) -> list[dict]:
    result = wh.sql("SELECT * FROM dq_findings WHERE rule IN (SELECT UNNEST(?)) "
                    "ORDER BY source, source_line", params=[list(PROSE_RULES)])
    return [dict(zip(result.columns, row)) for row in result.fetchall()]


# -- extraction ------------------------------------------------------------------------------

@pytest.mark.parametrize("source", sorted(FAMILY))
def test_each_claim_class_is_read_with_its_sentence_and_line(source):
    claims = parsed_claims(source)
    lines = read_lines(REPORTS / source)
    read = {(source, c.line, c.kind, c.comparison, c.compared) for c in claims}
    for expected in (e for e in EXPECTED_CLAIMS if e[0] == source):
        assert expected in read, expected
    for claim in claims:
        printed = lines[claim.line - 1].text
        # the sentence it quotes stands on its line (bold marks and spacing aside)
        assert " ".join(claim.text.split()[:4]).replace("**", "") in " ".join(
            printed.replace("**", "").split()), (claim.line, claim.text)
        assert claim.phrase or claim.value is not None


def test_every_kind_is_read_from_the_real_reports():
    kinds = {c.kind for source in FAMILY for c in parsed_claims(source)}
    assert kinds == set(prose.CLAIM_KINDS) - {"value"}


def test_claims_are_found_by_wording_not_by_line_number():
    """Lines added above the prose move every claim with its sentence."""
    for source in (ACE11, WBIMB, MS):
        lines = read_lines(REPORTS / source)
        shifted = [Line(l.number + 3, l.text, l.page) for l in lines]
        # three extra lines after the title: the tables and the prose all move down
        padded = lines[:1] + [Line(2 + i, "") for i in range(3)] + shifted[1:]
        before = {(c.line + 3, c.kind, c.compared, c.text) for c in parsed_claims(source)}
        after = {(c.line, c.kind, c.compared, c.text) for c in parsed_claims(source, padded)}
        assert before == after, source


def test_a_contents_page_typed_with_spaces_is_not_read_as_the_chapters():
    """WBIMB's contents separate each heading from its page number by tabs; in a copy typed with
    spaces ("10 Measurement Data 42") the same claims are read, none from the contents."""
    lines = read_lines(REPORTS / WBIMB)
    start = next(i for i, l in enumerate(lines) if l.text.strip() == "Contents")
    end = next(i for i, l in enumerate(lines) if l.text.strip() == "1 Introduction")  # chapter 1 itself
    spaced = lines[:start] + [Line(l.number, re.sub(r"\t+", " ", l.text).strip(), l.page)
                              for l in lines[start:end]] + lines[end:]
    assert sum(a.text != b.text for a, b in zip(lines, spaced)) >= 40  # the whole contents page
    before = [(c.line, c.kind, c.compared, c.text) for c in parsed_claims(WBIMB)]
    after = [(c.line, c.kind, c.compared, c.text) for c in parsed_claims(WBIMB, spaced)]
    assert after == before


def test_statements_without_readings_to_check_are_not_read():
    """MessageSight's 'Latency measurements are taken over a 5 minute period' has no dated
    readings in the report: no window claim for it (only the power readings' window)."""
    windows = [c for c in parsed_claims(MS) if c.kind == "window"]
    assert [(c.line, c.scenario) for c in windows] == [(542, "PERSISTENT")]


def test_prose_helpers():
    assert prose.number("nine") == 9 and prose.number("One Hundred") == 100
    assert prose.number("12") == 12 and prose.number("several") is None
    assert prose.iso_date("April 22, 2013") == "2013-04-22" and prose.iso_date("Spring 2013") is None
    assert prose.sentences("It ran at 1.3KB. The rate fell.") == ["It ran at 1.3KB", "The rate fell."]
    line = Line(7, "x")
    with pytest.raises(ValueError, match="cannot compare 'approx'"):
        prose.statement(line, "s", "order", "approx", "p", compared="scenarios")
    with pytest.raises(ValueError, match="cannot be about 'platforms'"):
        prose.statement(line, "s", "trend", "falls", "p", compared="platforms")


# -- findings on the five reports -------------------------------------------------------------

def test_every_false_statement_is_found_naming_the_contradicting_lines(wh):
    found = {(f["source"], f["source_line"], f["rule"]): f for f in prose_findings(wh)}
    for source, line, rule, names in FALSE_STATEMENTS:
        finding = found.get((source, line, rule))
        assert finding, (source, line, rule)
        assert finding["severity"] == "warning" and finding["table_title"] == "prose"
        assert finding["message"].startswith('the text says "')
        for name in names:
            assert name in finding["message"], (source, line, name, finding["message"])


def test_true_statements_are_not_flagged(wh):
    """Only the false statements are findings: each other statement the parsers read - counts,
    orderings, superlatives and trends that hold - passes."""
    flagged = {(f["source"], f["source_line"]) for f in prose_findings(wh)}
    assert flagged == {(s, line) for s, line, _rule, _names in FALSE_STATEMENTS}
    statements = wh.sql("SELECT count(*) FROM fact_claim WHERE claim_kind <> 'value'").fetchall()[0][0]
    # as the families' expected values count them (60 in the text reports, the 14 false ones
    # among them)
    assert statements == sum(claims().values()) - sum(claims("value").values())
    for true in [(ACE11, 90), (ACE11, 114), (ACE13, 121), (ACE13, 133), (ACE13, 144), (IIB, 34),
                 (MS, 455), (MS, 513), (WBIMB, 230), (WBIMB, 251), (WBIMB, 316), (WBIMB, 348),
                 (WBIMB, 371), (WBIMB, 515), (WBIMB, 566), (WBIMB, 572), (WBIMB, 599), (WBIMB, 681)]:
        assert true not in flagged, true


def test_claims_layer_documents_what_each_claim_compares(wh):
    rows = wh.sql("""SELECT claim_kind, comparison, compared, quantifier, count(*)
                     FROM fact_claim GROUP BY ALL ORDER BY ALL""").fetchall()
    for kind, comparison, compared, quantifier, _n in rows:
        assert comparison in prose.CLAIM_KINDS[kind]
        assert compared in prose.COMPARED[kind]
        assert quantifier in prose.QUANTIFIERS
    window = wh.sql("SELECT value, unit, printed_value FROM fact_claim WHERE claim_kind = 'window'").fetchall()
    assert window == [(480.0, "s", "8 minute")]
    date = wh.sql("SELECT stated_date::VARCHAR FROM fact_claim WHERE claim_kind = 'date'").fetchall()
    assert date == [("2013-04-22",)]


# -- planted false statements -----------------------------------------------------------------

def planted(tmp_path: Path, source: str, line: int, original: str, changed: str) -> Path:
    """A copy of a report with one sentence changed (the raw file is never edited)."""
    lines = (REPORTS / source).read_text(encoding="utf-8").split("\n")
    assert original in lines[line - 1], (source, line, original)
    lines[line - 1] = lines[line - 1].replace(original, changed, 1)
    path = tmp_path / f"planted-{source}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def findings_of(path: Path) -> list[dict]:
    rules = [r for r in load_rules() if r.name in PROSE_RULES]
    return check(path, warehouse=None, rules=rules, repair=False).findings


# (source, line, original, false version, rule, what the message names, true version)
PLANTS = [
    (ACE11, 90, "the following two system configurations", "the following four system configurations",
     "claim_count", "the tables show 2", None),
    (ACE11, 172, "the nine test scenarios on Linux", "the seven test scenarios on Linux",
     "claim_count", "the tables show 6", "the six test scenarios on Linux"),
    (ACE13, 144, "message sizes of 2K, 20K, 200K and 2MB", "message sizes of 2K, 20K and 200K",
     "claim_count", "the tables show 4", None),
    (IIB, 34, "the message rate decreases", "the message rate increases", "claim_trend",
     "71 of the 71 steps go the other way", None),
    (MS, 7, "April 22, 2013", "May 1, 2013", "claim_window", "dated 2013-04-26", "April 26, 2013"),
    (MS, 513, "with a fanout ratio of 1:10", "with a fanout ratio of 1:100", "claim_best",
     "FANOUT.SEC (fanout_ratio 10): 3.3M (line 517) above 2M (line 518)", None),
    (MS, 542, "over an 8 minute period", "over a 3 minute period", "claim_window",
     "Power Supply #1", None),
    (WBIMB, 587, "when compared with content based routing", "when compared with header based routing",
     "claim_order", "no pair of table rows compares what it compares", None),
    (WBIMB, 230, "consequently lower", "consequently higher", "claim_order",
     "Aggregation, non-persistent: 61.67 (line 916) below Filter, non-persistent: 1576.67 (line 1001)",
     None),
]


@pytest.mark.parametrize("source,line,original,false,rule,names,true", PLANTS,
                         ids=[f"{p[0].split('-')[0]}:{p[1]}" for p in PLANTS])
def test_a_planted_false_statement_is_caught(tmp_path, source, line, original, false, rule, names,
                                             true):
    findings = findings_of(planted(tmp_path, source, line, original, false))
    on_line = [f for f in findings if f["source_line"] == line and f["rule"] == rule]
    assert on_line, (source, line, false, [(f["rule"], f["source_line"]) for f in findings])
    assert false in on_line[0]["message"] and names in on_line[0]["message"], on_line[0]["message"]
    if true is not None:  # the same sentence made true is not flagged
        fixed = findings_of(planted(tmp_path, source, line, original, true))
        assert not [f for f in fixed if f["source_line"] == line], fixed


def test_a_copy_of_a_report_gets_the_same_prose_findings_as_the_warehouse(tmp_path, wh):
    """The check of a report copy reads and judges its prose as the build does."""
    path = tmp_path / f"copy-{WBIMB}"
    path.write_text((REPORTS / WBIMB).read_text(encoding="utf-8"), encoding="utf-8")
    copied = {(f["rule"], f["source_line"]) for f in findings_of(path)}
    built = {(f["rule"], f["source_line"]) for f in prose_findings(wh) if f["source"] == WBIMB}
    assert copied == built


def test_every_stated_number_is_filed_on_the_line_it_is_printed_on(wh):
    """A claim's source_line is the line its number is printed on (schema/dictionary.yml), in
    every filed report, text or PDF: where a sentence wraps before its number, the line the
    number is on, not the sentence's first; a value wrapping past its number ("3" / "times")
    begins on the line and ends on the next."""
    stated = wh.sql("SELECT source_file, source_line, printed_value FROM fact_claim "
                    "WHERE printed_value IS NOT NULL ORDER BY ALL").fetchall()
    assert stated
    texts: dict[str, dict[int, str]] = {}
    misplaced = []
    for source, line, printed in stated:
        if source not in texts:
            texts[source] = {x.number: x.text for x in read_lines(REPORTS / source)}
        here, after = texts[source].get(line, ""), texts[source].get(line + 1, "")
        first, _, rest = printed.partition(" ")
        wrapped = here.rstrip().endswith(first) and after.lstrip().startswith(rest)
        if printed not in here and not (rest and wrapped):
            misplaced.append((source, line, printed, here))
    assert not misplaced, misplaced
