"""WebSphere Business Integration Message Broker V5 for AIX performance report (2004).

Three kinds of results table:

* Chapter 10: a numbered heading ("10.3.1 Simple Compute Results"), a header
  "Persist Msg Size Msgs/sec % CPU Busy CPU ms/msg" and one row per persistence
  and message size. Single flow instance, single execution group, unless the
  heading names subscribers, destination-list entries, instances or execution groups.
* Table 1: rates of three conversions done with ESQL and with a Mapping node, and
  the Mapping node's overhead in percent.
* Table 2: the rate of every conversion between four message formats (rows: input
  format, columns: output format).

Tables 1 and 2 repeat chapter-10 measurements; they land under the same scenario
names so that the cross-table rules can compare them.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .common import AliasMap, ensure_tables, require_signature, table_rows
from .prose import COUNT, Wording, count_value, find, number, sentences, statement
from .records import (Claim, Line, Observation, ParsedReport, ParseError, Quantity, Scenario,
                      SourceTable)
from .text import clean_text, tokens
from .units import quantity

FAMILY = "wbimb"
PRODUCT = "wbimb5"
PLATFORM = "aix"
SIGNATURE = (r"WebSphere Business Integration Message Broker",)
DESCRIPTION = "the WebSphere Business Integration Message Broker V5 performance report"
# The report prints its Index after the last chapter-10 table: a file without it is truncated.
END = (r"^Index$", "the Index that follows chapter 10")
# A line shaped like a results row (chapter 10, Tables 1 and 2) must be read by a table.
ROW_SHAPE = (r"^(?:yes|no)\s+\d+\s+[\d.]+\s|^(?:Generic XML|MRM (?:CWF|XML|TDS))"
             r"(?: to (?:Generic XML|MRM (?:CWF|XML|TDS)))?(?:\s+[\d.]+){3,4}$")

CHAPTER10_HEADER = AliasMap("Persist Msg Size Msgs/sec % CPU Busy CPU ms/msg",
                            "Persist Message Size Msgs/sec % CPU Busy CPU ms/msg",
                            "Persistent Msg Size Msgs/sec % CPU Busy CPU ms/msg")
TABLE1_HEADER = AliasMap("Using ESQL Using Mapping Node Overhead of Mapping Node")
# (metric, quantity kind, unit the column heading implies)
COLUMNS = (("msg_rate", "rate", ""), ("cpu_busy_pct", "percent", ""),
           ("cpu_ms_per_msg", "cpu_cost", "ms"))
PERSIST = {"no": False, "yes": True}
FORMATS = ("Generic XML", "MRM CWF", "MRM XML", "MRM TDS")

_SECTION = re.compile(r"^(?P<number>10(?:\.\d+)+)\s+(?P<title>\S.*)$")
# An entry of the contents: a heading followed by its page number, after a tab, dot leaders or
# a space ("10\tMeasurement Data\t42", "10.2 Aggregation Node Results..... 42", "1 Introduction 8"),
# so that a copy whose tabs became spaces is still read from the chapters, not from the contents.
_PAGE_NUMBER = re.compile(r"(?:\t|\.{3,}|\s)\s*\d+\s*$")


def _in_contents(line: Line) -> bool:
    """An entry of the contents: what ends in a page number, or holds dot leaders. A tab alone
    says nothing: a heading of the chapters may carry one at its end (a copy saved by another
    editor), and read as an entry of the contents it was passed over for the heading above it."""
    return "....." in line.text or bool(_PAGE_NUMBER.search(line.text))

# Headings that name a configuration of another scenario: (pattern, scenario, kind).
# Section 4 of the report says the parallel-processing tests ran the very complex
# compute flow; sections 10.9.1.x are the topic-based routing test with N subscribers.
_VARIANTS = [
    (re.compile(r"^(?P<n>.+?) Subscribers? Results$", re.I), "Topic Based Routing", "subscribers"),
    (re.compile(r"^RouteToLabel with (?P<n>.+?) Entr(?:y|ies) in the Destination List$", re.I),
     "RouteToLabel", "destination_list_entries"),
    (re.compile(r"^Message Throughput with (?P<n>.+?) Instances?$", re.I),
     "Very Complex Compute", "flow_instances"),
    (re.compile(r"^Message Throughput with (?P<n>.+?) Execution Groups?$", re.I),
     "Very Complex Compute", "execution_groups"),
]

_MQ = "MQ"
_XML = "Generic XML"  # the report's own name for the format (FORMATS)


def _conversion(source: str, target: str) -> Scenario:
    return Scenario(f"{source} to {target}", _MQ, source, "Compute node (ESQL)",
                    f"Converts a 31-field message from {source} to {target} with ESQL "
                    "in a Compute node (section 3.8).")


def _mapping(source: str, target: str) -> Scenario:
    return Scenario(f"{source} Copy Mapped to {target}", _MQ, source, "Mapping node",
                    f"Copies the fields of a {source} message into a {target} message "
                    "with a Mapping node (section 3.7).")


SCENARIOS: dict[str, Scenario] = {s.name: s for s in [
    Scenario("MQInput/MQOutput", _MQ, "BLOB (no parse)", "MQInput and MQOutput nodes only",
             "Trivial flow: copies messages from the input to the output queue (section 3.1)."),
    Scenario("Aggregation", _MQ, _XML, "Aggregate nodes",
             "Fan-out flow issuing four requests, a C back-end and four fan-in flows "
             "collecting the replies (section 3.2)."),
    Scenario("Simple Compute", _MQ, _XML, "Compute node (ESQL)",
             "Compute node copying the message and setting one field (section 3.3.1)."),
    Scenario("Complex Compute", _MQ, _XML, "Compute node (ESQL)",
             "Compute node with a loop over repeating elements (section 3.3.2)."),
    Scenario("Multiple Complex Compute", _MQ, _XML, "Five Compute nodes (ESQL)",
             "Five complex compute nodes daisy-chained (section 3.3.3)."),
    Scenario("Very Complex Compute", _MQ, _XML, "Compute node (ESQL)",
             "One compute node with five times the complex ESQL (section 3.3.4)."),
    Scenario("Nested SELECT FROM Compute", _MQ, _XML, "Compute node (ESQL)",
             "Compute node with a nested SELECT building a statement (section 3.3.5)."),
    Scenario("Database Insert/Delete", _MQ, _XML, "Database node, coordinated transaction",
             "Database node inserting and deleting a row under XA (section 3.4.1)."),
    Scenario("Database Update", _MQ, _XML, "Database node, coordinated transaction",
             "Database node updating a random row under XA (section 3.4.2)."),
    Scenario("Database Read", _MQ, _XML, "Database node",
             "Database node reading one row from buffers (section 3.4.3)."),
    Scenario("Filter", _MQ, _XML, "Filter node",
             "Filter node testing a tag in an MQRFH2 message (section 3.5)."),
    Scenario("FlowOrder base", _MQ, _XML, "Two Compute nodes",
             "Base case for the FlowOrder test: two compute nodes in sequence (section 3.6)."),
    Scenario("FlowOrder", _MQ, _XML, "FlowOrder node and two Compute nodes",
             "The same processing driven through a FlowOrder node (section 3.6)."),
    *[_mapping(s, t) for s, t in (("MRM CWF", "MRM TDS"), ("MRM XML", "MRM CWF"),
                                  ("MRM TDS", "Generic XML"))],
    *[_conversion(s, t) for s in FORMATS for t in FORMATS],
    Scenario("SWIFT MT543", _MQ, "MRM TDS", "Compute node (ESQL)",
             "SWIFT MT543 messages modelled in MRM TDS, fixed length 6449 bytes (section 3.8.2)."),
    Scenario("Topic Based Routing", _MQ, "MQRFH2", "Publication node",
             "Publish/subscribe with topic-based routing to N subscribers (section 3.9.1)."),
    Scenario("Content Based Routing", _MQ, "MQRFH2", "Publication node",
             "Publish/subscribe with content-based routing, one subscriber (section 3.9.2)."),
    Scenario("RouteToLabel", _MQ, _XML, "Compute, RouteToLabel and Label nodes",
             "Dynamic routing through a destination list of N entries (section 3.10)."),
]}

# Chapter-10 headings whose scenario name is not the heading minus "Results".
_RENAMED = {
    "A Trivial MQInput/MQOutput Message Flow": "MQInput/MQOutput",
    "Aggregation Node": "Aggregation",
    "Filter Node": "Filter",
    "FlowOrder Node First Test": "FlowOrder base",
    "FlowOrder Node Second Test": "FlowOrder",
    "Nested SELECT FROM Compute": "Nested SELECT FROM Compute",
}


def _count(words: str, line: int) -> int:
    count = number(words)
    if count is None:
        raise ParseError(f"cannot read the count {words!r} in a heading", line,
                         expected="a number in digits or words (one, two, ... one thousand)")
    return count


def _configuration(title: str, line: int) -> tuple[str, str, int]:
    """Scenario, concurrency kind and value named by a chapter-10 heading."""
    for pattern, scenario, kind in _VARIANTS:
        match = pattern.match(title)
        if match:
            return scenario, kind, _count(match.group("n"), line)
    name = re.sub(r"\s+Results$", "", title)
    name = _RENAMED.get(name, name)
    if name == "Content Based Routing":
        return name, "subscribers", 1
    if name not in SCENARIOS:
        raise ParseError(f"unknown results table {title!r}", line,
                         expected="a chapter-10 heading naming a known test")
    return name, "flow_instances", 1


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    report.scenarios.extend(SCENARIOS.values())
    for index, line in enumerate(lines):
        text = clean_text(line.text)
        if not text:
            continue
        if text in CHAPTER10_HEADER:
            CHAPTER10_HEADER.match(text, line.number, report)
            _chapter10_table(lines, index, report)
        elif text in TABLE1_HEADER:
            TABLE1_HEADER.match(text, line.number, report)
            _table1(lines, index, report)
        elif _is_table2_header(text):
            _table2(lines, index, report)
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.claims.extend(claims(lines))
    report.claims.extend(statements(lines))
    return report


def _heading_above(lines: Sequence[Line], index: int) -> tuple[Line, str, str]:
    for i in range(index - 1, -1, -1):
        match = _SECTION.match(clean_text(lines[i].text))
        if match and not _in_contents(lines[i]):
            return lines[i], match.group("number"), match.group("title")
    raise ParseError("results table without a numbered heading above it", lines[index].number,
                     expected="a heading such as '10.3.1 Simple Compute Results'")


def _chapter10_table(lines: Sequence[Line], index: int, report: ParsedReport) -> None:
    heading, number, title = _heading_above(lines, index)
    scenario, kind, count = _configuration(title, heading.number)
    if any(t.table_key == number for t in report.tables):
        raise ParseError(f"section {number} has two results tables", lines[index].number,
                         expected="one table per section")
    report.tables.append(SourceTable(number, f"{number} {title}", heading.number, "throughput",
                                     heading.page))
    rows = table_rows(lines, index + 1)
    if not rows:
        raise ParseError(f"table {number} has no rows", lines[index].number + 1,
                         expected="rows of Persist, Msg Size, Msgs/sec, % CPU Busy, CPU ms/msg")
    for row in rows:
        cells = tokens(row.text)
        if len(cells) != 2 + len(COLUMNS):
            raise ParseError(f"row has {len(cells)} cells", row.number,
                             expected="5 cells: Persist, Msg Size, Msgs/sec, % CPU Busy, CPU ms/msg")
        persist = cells[0].lower()
        if persist not in PERSIST:
            raise ParseError(f"Persist is {cells[0]!r}", row.number, expected="'yes' or 'no'")
        size = quantity(cells[1], "size", line=row.number)
        for (metric, unit_kind, unit), cell in zip(COLUMNS, cells[2:]):
            report.observations.append(Observation(
                table_key=number, row_line=row.number, product=PRODUCT, platform=PLATFORM,
                scenario=scenario, metric=metric, value=quantity(cell, unit_kind, unit, line=row.number),
                message_size=size, persistent=PERSIST[persist], concurrency_kind=kind,
                concurrency=Quantity(str(count), str(count), ""), page=row.page))


def _caption_below(lines: Sequence[Line], index: int, prefix: str) -> Line:
    for line in lines[index:index + 40]:
        if clean_text(line.text).startswith(prefix):
            return line
    raise ParseError(f"no '{prefix}' caption below the table", lines[index].number,
                     expected=f"a caption starting '{prefix}'")


def _prose_size(lines: Sequence[Line], index: int) -> tuple[Quantity, bool, int]:
    """The message size and persistence the prose above a summary table states."""
    pattern = re.compile(r"This was a (?P<size>\d+\s?KB) (?P<persist>non persistent|persistent) message")
    for i in range(index - 1, max(-1, index - 30), -1):
        match = pattern.search(clean_text(lines[i].text))
        if match:
            size = quantity(match.group("size").replace(" ", ""), "size", line=lines[i].number)
            return size, match.group("persist") == "persistent", lines[i].number
    raise ParseError("no message size stated above the summary table", lines[index].number,
                     expected="a sentence 'This was a 4KB non persistent message'")


def _summary_observation(table_key: str, row: Line, scenario: str, metric: str, cell: str,
                         unit_kind: str, size: Quantity, persistent: bool) -> Observation:
    if scenario not in SCENARIOS:
        raise ParseError(f"unknown conversion {scenario!r}", row.number,
                         expected="formats among " + ", ".join(FORMATS))
    return Observation(table_key=table_key, row_line=row.number, product=PRODUCT,
                       platform=PLATFORM, scenario=scenario, metric=metric,
                       value=quantity(cell, unit_kind, line=row.number), message_size=size,
                       persistent=persistent, concurrency_kind="flow_instances",
                       concurrency=Quantity("1", "1", ""), page=row.page)


def _split_label(cells: list[str], values: int, row: Line) -> tuple[str, list[str]]:
    if len(cells) <= values:
        raise ParseError(f"row has {len(cells)} cells", row.number,
                         expected=f"a format label and {values} values")
    label, numbers = " ".join(cells[:-values]), cells[-values:]
    if re.search(r"\d", label) or not all(re.fullmatch(r"[\d.]+", c) for c in numbers):
        raise ParseError(f"cannot split {clean_text(row.text)!r} into a label and {values} values",
                         row.number, expected=f"a format label and {values} values")
    return label, numbers


def _summary_table(lines: Sequence[Line], index: int, report: ParsedReport, title: str,
                   expected_rows: str) -> tuple[list[Line], Quantity, bool]:
    """Register Table 1 or 2 (captioned below, sized by the prose above) and return its rows."""
    caption = _caption_below(lines, index, title)
    size, persistent, _ = _prose_size(lines, index)
    report.tables.append(SourceTable(title, clean_text(caption.text), lines[index].number,
                                     "summary", lines[index].page,
                                     note=f"caption at line {caption.number}"))
    rows = table_rows(lines, index + 1)
    if not rows:
        raise ParseError(f"{title} has no rows", lines[index].number + 1, expected=expected_rows)
    return rows, size, persistent


def _table1(lines: Sequence[Line], index: int, report: ParsedReport) -> None:
    rows, size, persistent = _summary_table(lines, index, report, "Table 1", "one row per conversion")
    for row in rows:
        label, (esql, mapping, overhead) = _split_label(tokens(row.text), 3, row)
        source, _, target = label.partition(" to ")
        mapped = f"{source} Copy Mapped to {target}"
        report.observations.append(_summary_observation(
            "Table 1", row, label, "msg_rate", esql, "rate", size, persistent))
        report.observations.append(_summary_observation(
            "Table 1", row, mapped, "msg_rate", mapping, "rate", size, persistent))
        report.observations.append(_summary_observation(
            "Table 1", row, mapped, "mapping_overhead_pct", overhead, "percent", size, persistent))


def _format_names(text: str) -> list[str] | None:
    """Split a run of format names such as 'Generic XML MRM CWF MRM XML MRM TDS'."""
    names, rest = [], text.strip()
    while rest:
        for name in FORMATS:
            if rest.startswith(name):
                names.append(name)
                rest = rest[len(name):].strip()
                break
        else:
            return None
    return names


def _is_table2_header(text: str) -> bool:
    names = _format_names(text)
    return bool(names) and len(names) == len(FORMATS)


def _table2(lines: Sequence[Line], index: int, report: ParsedReport) -> None:
    targets = _format_names(clean_text(lines[index].text)) or []
    rows, size, persistent = _summary_table(lines, index, report, "Table 2", "one row per input format")
    for row in rows:
        source, values = _split_label(tokens(row.text), len(targets), row)
        if source not in FORMATS:
            raise ParseError(f"unknown input format {source!r}", row.number,
                             expected="one of " + ", ".join(FORMATS))
        for target, cell in zip(targets, values):
            report.observations.append(_summary_observation(
                "Table 2", row, f"{source} to {target}", "msg_rate", cell, "rate", size,
                persistent))


# ---------------------------------------------------------------------------------------
# Claims: numbers the prose of chapters 2 to 4 states, for checking against the tables.

_PROSE_HEADING = re.compile(r"^(?P<number>[2-4](?:\.\d+)*) (?P<title>[A-Z][^\t]*?)\s*$")
# Prose sections and the scenario they describe (chapter 3 and 4 headings).
_SECTION_SCENARIOS = {
    "A Trivial MQInput/MQOutput Message Flow": "MQInput/MQOutput",
    "Aggregation Node": "Aggregation",
    "Simple Compute Test": "Simple Compute",
    "Complex Compute Test": "Complex Compute",
    "Multiple Complex Compute Test": "Multiple Complex Compute",
    "Very Complex Compute Test": "Very Complex Compute",
    "Nested SELECT FROM Compute Test": "Nested SELECT FROM Compute",
    "Database Insert/Delete": "Database Insert/Delete",
    "Database Update": "Database Update",
    "Database Read": "Database Read",
    "Filter Node": "Filter",
    "FlowOrder Node": "FlowOrder",
    "SWIFT MT543 Messages": "SWIFT MT543",
    "One Subscriber": "Topic Based Routing",
    "Ten, One Hundred and One Thousand Subscribers": "Topic Based Routing",
    "Content Based Routing": "Content Based Routing",
    "RouteToLabel Node": "RouteToLabel",
    # Section 4 says these tests ran the very complex compute flow.
    "What Is The Effect Of Using Additional Instances?": "Very Complex Compute",
    "What Is The Effect Of Using Multiple Execution Groups?": "Very Complex Compute",
}
# Chapter 2 names the chapter-3 test it repeats with enough copies to fill the machine.
_SAME_PROCESSING = re.compile(r"same processing that is described in (?:the (?P<test>.+?) test in )?"
                              r"Section [\d.]+,? (?P<section>[^.]+?)\s*\.")
_SECTION_KIND = {
    "What Is The Effect Of Using Additional Instances?": "flow_instances",
    "What Is The Effect Of Using Multiple Execution Groups?": "execution_groups",
    "One Subscriber": "subscribers",
    "Ten, One Hundred and One Thousand Subscribers": "subscribers",
    "Content Based Routing": "subscribers",
    "RouteToLabel Node": "destination_list_entries",
}
_WITH = re.compile(r"\b(?:With|For) (?:a )?(?:(?P<size>\d+KB) )?(?P<persist>non[- ]persistent|persistent)"
                   r"(?: (?P<size2>\d+KB))? messages?", re.I)
_RATE = re.compile(r"(?:approximately |a rate of )?(?P<value>\d+(?:\.\d+)?) msgs/sec(?:ond)?")
_MAX_RATE = re.compile(r"approximately (?P<value>\d+(?:\.\d+)?) (?P<size>\d+KB) "
                       r"(?P<persist>non persistent|persistent) msgs/second")
_RATIO = re.compile(r"(?:(?P<cmp>over|around) )?(?P<ratio>\d+(?:\.\d+)?) times the throughput")
_COPIES = re.compile(r"\((?P<words>\w+) copies of the message flow in total\)|"
                     r"With (?P<n>\w+) (?:instances|copies)")
_IMPROVEMENT = re.compile(r"(?P<ratio>\d+(?:\.\d+)?) times improvement in message throughput when "
                          r"using a single compute node for the processing, rather than using 5 nodes")
_OVERHEAD = re.compile(r"overhead of (?P<value>\d+(?:\.\d+)?)%")


def _referenced_scenario(name: str, line: Line) -> str:
    """The scenario a cross-reference such as "Section 3.5, Filter Node" names."""
    name = name.strip()
    for candidate in (name, _SECTION_SCENARIOS.get(name), _RENAMED.get(name),
                      re.sub(r" (?:Node|Test)$", "", name)):
        if candidate in SCENARIOS:
            return candidate
    raise ParseError(f"cross-reference to an unknown test {name!r}", line.number,
                     expected="a section naming one of the chapter-3 tests")




def claims(lines: Sequence[Line]) -> list:
    """Claims of chapters 2-4: "approximately N msgs/second", ratios and overheads."""
    found: list[Claim] = []
    title = None
    in_prose = False
    for line in lines:
        text = clean_text(line.text).replace("**", "")
        heading = _PROSE_HEADING.match(text)
        if heading and not _in_contents(line):
            title = heading.group("title")
            in_prose = True
            continue
        if text.startswith(("5 Recommended", "10 Measurement")):
            in_prose = False
        if not in_prose or not text or title is None:
            continue
        found.extend(_line_claims(line, text, title))
    return found


def _base(line: Line, sentence: str, scenario: str, metric: str, value: str, unit_kind: str,
          comparison: str, size: str | None, persistent: bool | None, kind: str | None,
          count: int | None, **relative):
    return Claim(line=line.number, text=sentence.strip(), metric=metric,
                 value=quantity(value, unit_kind, line=line.number), scenario=scenario,
                 product=PRODUCT, platform=PLATFORM,
                 message_size=quantity(size, "size", line=line.number) if size else None,
                 persistent=persistent, concurrency_kind=kind,
                 concurrency=Quantity(str(count), str(count), "") if count is not None else None,
                 comparison=comparison, page=line.page, **relative)


def _line_claims(line: Line, text: str, title: str) -> list:
    out = []
    same = _SAME_PROCESSING.search(text)
    if same:  # chapter 2: a chapter-3 test run with enough copies to fill the server
        scenario = _referenced_scenario(same.group("test") or same.group("section"), line)
        for match in _MAX_RATE.finditer(text):
            out.append(_base(line, match.group(0), scenario, "msg_rate", match.group("value"),
                             "rate", "max_copies", match.group("size"),
                             match.group("persist") == "persistent", None, None))
        return out
    scenario = _SECTION_SCENARIOS.get(title)
    if scenario is None:
        return out
    kind = _SECTION_KIND.get(title, "flow_instances")
    size = persistent = None
    for sentence in sentences(text):
        with_ = _WITH.search(sentence)
        if with_:
            size = with_.group("size") or with_.group("size2") or size
            persistent = not with_.group("persist").lower().startswith("non")
        out.extend(_sentence_claims(line, sentence, title, scenario, kind, size, persistent))
    return out


def _sentence_claims(line, sentence, title, scenario, kind, size, persistent) -> list:
    out = []
    if _RATIO.search(sentence):
        copies = _COPIES.search(sentence)
        ratio = _RATIO.search(sentence)
        count = number(copies.group("words") or copies.group("n")) if copies else None
        if count:
            comparison = "ratio_over" if ratio.group("cmp") == "over" else "ratio_approx"
            out.append(_base(line, sentence, scenario, "msg_rate", ratio.group("ratio"), "ratio",
                             comparison, size, persistent, kind, count,
                             relative_concurrency=Quantity("1", "1", "")))
        return out
    improvement = _IMPROVEMENT.search(sentence)
    if improvement:
        out.append(_base(line, sentence, scenario, "msg_rate", improvement.group("ratio"), "ratio",
                         "ratio_approx", size, persistent, kind, 1,
                         relative_scenario="Multiple Complex Compute"))
        return out
    overhead = _OVERHEAD.search(sentence)
    if overhead and scenario == "FlowOrder":
        out.append(_base(line, sentence, "FlowOrder", "msg_rate", overhead.group("value"),
                         "percent", "overhead_pct", size, persistent, kind, 1,
                         relative_scenario="FlowOrder base"))
        return out
    if persistent is None and scenario != "SWIFT MT543":
        return out
    matches = list(_RATE.finditer(sentence))
    for i, match in enumerate(matches):
        clause = sentence[match.end(): matches[i + 1].start() if i + 1 < len(matches) else None]
        if match.group(0)[0].isdigit() and "approximately" not in sentence:
            continue  # "This is 297 database insert and deletes per second" restates, no claim
        target, count = scenario, 1
        if scenario == "FlowOrder":
            target = "FlowOrder base" if "without a FlowOrder" in clause else "FlowOrder"
        if kind == "destination_list_entries":
            entries = re.search(r"(only one destination|(\d+) entries)", clause)
            count = 1 if entries and entries.group(1).startswith("only") else \
                int(entries.group(2)) if entries else 1
        out.append(_base(line, sentence, target, "msg_rate", match.group("value"), "rate", "approx",
                         size, persistent, kind, count))
    return out



# ---------------------------------------------------------------------------------------
# Statements of chapters 2 to 6 that the tables confirm or refute without a number to
# compare: which test is faster or dearer than which, which flow is the best possible, how
# rates move with size and with subscribers, and how many tests, sizes and CPUs there are.

_STATEMENT_HEADING = re.compile(r"^(?P<number>[2-6](?:\.\d+)*) (?P<title>[A-Z][^\t]*?)\s*$")
_ONE_COPY = {"concurrency_kind": "flow_instances", "concurrency": Quantity("1", "1", "")}


def _named_scenario(words: str) -> str:
    """The test a phrase names ("topic based routing", "the simple compute node", "Filter").
    A name no table carries is kept as written: the claim rule then reports that no rows
    compare what the sentence compares, rather than the statement going unread."""
    wanted = re.sub(r"\s+(?:node|nodes)$", "", words.strip(), flags=re.I)
    for name in SCENARIOS:
        if name.lower() == wanted.lower():
            return name
    return wanted


def _scenarios_named(subject: str, relative: str):
    return lambda m: {"scenario": _named_scenario(m.group(subject)),
                      "relative_scenario": _named_scenario(m.group(relative))}


def _verb(m: re.Match) -> dict:
    return {"comparison": m.group("dir").lower()}


# Said of the test the section is about.
SECTION_WORDINGS = [
    # 3.1: "The results from this test indicate the best possible message throughput that will
    # be achieved with a message flow": no other flow, one copy each, is faster.
    Wording(re.compile(r"indicate the (?P<phrase>best possible message throughput)"), "best",
            "highest", {"metric": "msg_rate", "compared": "scenarios", **_ONE_COPY}),
    # "This lower rate in comparison to the non persistent message processing ..."
    Wording(re.compile(r"This (?P<phrase>lower rate) in comparison to the non persistent"),
            "order", "lower", {"metric": "msg_rate", "compared": "persistence",
                               "persistent": True, "relative_persistent": False}),
    # 3.3.2: "The lower message rate achieved with this compute node compared with the simple
    # compute node case above"
    Wording(re.compile(r"The (?P<dir>lower|higher) message rate achieved with this (?:compute )?node "
                       r"compared with the (?P<other>[\w ]+?) node case"), "order", "lower",
            {"metric": "msg_rate", "compared": "scenarios"},
            lambda m: {**_verb(m), "relative_scenario": _named_scenario(m.group("other"))}),
    # 3.3.4: "it is clearly better to have one node that does the work of several less complex
    # nodes" - the five daisy-chained complex nodes of 3.3.3, as the sentence before says.
    Wording(re.compile(r"it is (?P<phrase>clearly better to have one node) that does the work of "
                       r"several less complex nodes"), "order", "higher",
            {"metric": "msg_rate", "compared": "scenarios",
             "relative_scenario": "Multiple Complex Compute"}),
    # 3.10: "A destination list with 100 entries will require more CPU to process it than a
    # destination list with one entry."
    Wording(re.compile(rf"A destination list with (?P<a>{COUNT}) entries will (?P<phrase>require more "
                       rf"CPU) to process it than a destination list with (?P<b>{COUNT}) entry", re.I),
            "order", "higher", {"metric": "cpu_ms_per_msg", "compared": "configurations",
                                "concurrency_kind": "destination_list_entries"},
            lambda m: {"concurrency": Quantity(m.group("a"), str(number(m.group("a"))), ""),
                       "relative_concurrency": Quantity(m.group("b"), str(number(m.group("b"))), "")}),
    # 4.2: "Given greater message throughput was possible with multiple execution groups" (than
    # with the additional instances of 4.1, the same number of copies)
    Wording(re.compile(r"[Gg]iven (?P<phrase>greater message throughput) was possible with multiple "
                       r"execution groups"), "order", "higher",
            {"metric": "msg_rate", "compared": "configurations",
             "concurrency_kind": "execution_groups", "relative_concurrency_kind": "flow_instances"}),
    # 3.9.1.2: "The cost of publishing persistent messages is significantly higher"
    Wording(re.compile(r"The (?P<phrase>cost of publishing persistent messages is (?:significantly )?"
                       r"higher)"), "order", "higher",
            {"metric": "cpu_ms_per_msg", "compared": "persistence", "persistent": True,
             "relative_persistent": False}),
    # "The message throughput rate declined with size", "The rate of insert/delete activity
    # reduced with message size", "As the message size increased, the rate at which messages
    # were published decreased"
    Wording(re.compile(r"(?P<phrase>(?:message throughput rate|rate of [\w/ ]+ activity) "
                       r"(?:declined|reduced|decreased) with (?:message )?size)"), "trend", "falls",
            {"metric": "msg_rate", "compared": "message_size"}),
    Wording(re.compile(r"As the message size increased, the (?P<phrase>rate at which messages were "
                       r"published decreased)"), "trend", "falls",
            {"metric": "msg_rate", "compared": "message_size"}),
    # 3.9.1.2: "the processing required to deliver messages to the subscribers rises with the
    # increasing number of subscribers", "the reported message rate declines with an
    # increasing number of subscribers"
    Wording(re.compile(r"processing required to deliver messages to the subscribers (?P<phrase>rises "
                       r"with the increasing number of subscribers)"), "trend", "rises",
            {"metric": "cpu_ms_per_msg", "compared": "concurrency", "concurrency_kind": "subscribers"}),
    Wording(re.compile(r"reported message rate (?P<phrase>declines with an increasing number of "
                       r"subscribers)"), "trend", "falls",
            {"metric": "msg_rate", "compared": "concurrency", "concurrency_kind": "subscribers"}),
    # 3.8.2: "so only one message size was processed"
    Wording(re.compile(rf"only (?P<n>{COUNT}) message sizes? (?:was|were) processed"), "count",
            "exactly", {"compared": "message_sizes"}),
]
# Statements that name what they compare, wherever they stand.
REPORT_WORDINGS = [
    # 3: "CPU utilizations lower than 28% on a 4 CPU machine would indicate ..."
    Wording(re.compile(rf"on an? (?P<n>{COUNT}) CPU machine"), "count", "exactly",
            {"compared": "cores"}),
    # 3.9.2: "it is possible to achieve greater message throughput using topic based routing
    # when compared with content based routing"
    Wording(re.compile(r"(?P<phrase>greater message throughput) using (?P<subject>[\w ]+?) when "
                       r"compared with (?P<other>[\w ]+?)(?:\.|$)"), "order", "higher",
            {"metric": "msg_rate", "compared": "scenarios"}, _scenarios_named("subject", "other")),
    # 6.2: "Use of Topic based routing with Publish/Subscribe is more efficient than Content
    # based routing from a message throughput perspective"
    Wording(re.compile(r"Use of (?P<subject>[\w ]+?) with Publish/Subscribe is (?P<phrase>more "
                       r"efficient) than (?P<other>[\w ]+?) from a message throughput perspective"),
            "order", "higher", {"metric": "msg_rate", "compared": "scenarios"},
            _scenarios_named("subject", "other")),
    # 3.10: "a RouteToLabel node is more expensive to process than a single Filter node" - the
    # Filter test ran one copy of its flow
    Wording(re.compile(r"a (?P<subject>\w+) node is (?P<phrase>more expensive to process) than a "
                       r"single (?P<other>\w+) node"), "order", "higher",
            {"metric": "cpu_ms_per_msg", "compared": "scenarios",
             "relative_concurrency_kind": "flow_instances",
             "relative_concurrency": Quantity("1", "1", "")}, _scenarios_named("subject", "other")),
    # 6.1: "Higher message rates can be obtained with non persistent messages compared with
    # persistent messages."
    Wording(re.compile(r"(?P<phrase>Higher message rates) can be obtained with non persistent "
                       r"messages compared with persistent messages"), "order", "higher",
            {"metric": "msg_rate", "compared": "persistence", "persistent": False,
             "relative_persistent": True}),
]
# Statements over two sentences of a paragraph. 3: "the Filter node can be used to ... route
# messages at a high rate, whilst the aggregation nodes can be used to ... . This coordination
# is clearly more involved ... and the message rate achieved with the aggregation node is
# consequently lower."
PARAGRAPH_WORDINGS = [
    Wording(re.compile(r"the (?P<other>\w+) node can be used to [^.]*? at a high rate, whilst the "
                       r"(?P<subject>\w+) nodes [^.]*\. [^.]*?(?P<phrase>message rate achieved with "
                       r"the \w+ node is consequently (?P<dir>lower|higher))"), "order", "lower",
            {"metric": "msg_rate", "compared": "scenarios"},
            lambda m: {**_verb(m), **_scenarios_named("subject", "other")(m)}, quote_match=True),
]
# 3.4: "Three tests were run to illustrate different uses of a database node": the tables of
# the chapter-10 section with the same title ("10.4 Database Node Results").
TABLES_WORDING = re.compile(rf"(?P<n>{COUNT}) tests were run to illustrate different uses of", re.I)


def _results_sections(lines: Sequence[Line]) -> dict[str, str]:
    """Chapter-10 section number by title: 'Database Node' -> '10.4'."""
    found = {}
    for line in lines:
        match = _SECTION.match(clean_text(line.text))
        if match and not _in_contents(line):
            found.setdefault(re.sub(r"\s+Results$", "", match.group("title")), match.group("number"))
    return found


def statements(lines: Sequence[Line]) -> list[Claim]:
    """Orderings, superlatives, trends and counts of chapters 2 to 6, each with its sentence."""
    results = _results_sections(lines)
    fixed = {"product": PRODUCT, "platform": PLATFORM}
    found: list[Claim] = []
    title, persistent = None, None
    for line in lines:
        text = clean_text(line.text).replace("**", "")
        heading = _STATEMENT_HEADING.match(text)
        if heading and not _in_contents(line):
            title, persistent = heading.group("title"), None
            continue
        if text.startswith("10 Measurement") and not _in_contents(line):
            break  # chapter 10 (its entry in the contents has a tab)
        if title is None or not text:
            continue
        scenario = _SECTION_SCENARIOS.get(title)
        found.extend(find(line, text, PARAGRAPH_WORDINGS, **fixed))
        for sentence in sentences(text):
            with_ = _WITH.search(sentence)
            if with_:  # "With 1KB non persistent messages ...": what the next sentences are about
                persistent = not with_.group("persist").lower().startswith("non")
            found.extend(find(line, sentence, REPORT_WORDINGS, **fixed))
            tables = TABLES_WORDING.search(sentence)
            if tables and title in results:
                found.append(statement(line, sentence, "count", "exactly", tables.group(0),
                                       value=count_value(tables.group("n")), compared="tables",
                                       scope=results[title] + ".", **fixed))
            if scenario is None:
                continue
            for claim in find(line, sentence, SECTION_WORDINGS, scenario=scenario, **fixed):
                if claim.kind == "trend" and claim.persistent is None:
                    claim = replace(claim, persistent=persistent)
                found.append(claim)
    return found
