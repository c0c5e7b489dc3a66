"""App Connect Enterprise 13 certified container on Red Hat OpenShift (2025).

The text version lost every table caption: what is left is a run of pipe tables,
8 with a "Startup Time" column followed by 17 with a "Message rate" column. They
are mapped to scenarios by their order, from the report's own text:

* Startup tables: the report describes its startup tests in the order it shows
  them, one sentence each ("This test checks the startup time for an Integration
  Runtime pod ..."). The i-th description names the i-th startup table. Eight
  sentences, eight tables; a different count is an error.
* Message-rate tables, Toolkit flows: the table of contents lists them under
  "Flows created using Toolkit" (HTTP XMLNSC ESQL Transformation ... Create
  ServiceNow Incidents (Multi replica)): the first eleven rate tables, in order.
* Message-rate tables, Designer flows: the contents give no sub-entries, but the
  descriptions name three Designer tests in order (JSON Parse, Process Jira
  Issues, Create ServiceNow Incidents), and the six remaining tables come in pairs,
  a single-replica table then a multi-replica table (the pattern the Toolkit part
  shows): JSON Parse, JSON Parse (Multi replica), Process Jira Issues, Process Jira
  Issues (Multi replica), Create ServiceNow Incidents, Create ServiceNow Incidents
  (Multi replica).

Each mapping is checked against the table's shape: a test the report says runs
without message sizes (Jira, ServiceNow) must have no Message Size column, a
"Multi replica" table must show more than one replica, a single-size test (TCPIP
ISO8583, "only for a single message size") must have one size.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .common import AliasMap, ensure_tables, note_variant, require_signature
from .prose import COUNT, Wording, find, sentences
from .records import (FLOW_STYLES, Claim, Line, Observation, ParsedReport, ParseError, Quantity,
                      Scenario, SourceTable, TShirt)
from .text import clean_text
from .units import quantity

FAMILY = "ace13"
PRODUCT = "ace13010"
PLATFORM = "openshift"
SIGNATURE = (r"App Connect Enterprise \(certified container\)",)
DESCRIPTION = "the ACE 13 certified container on OpenShift performance report"
# The notice after the last message-rate table (the contents also list "Trademarks", so the
# heading alone would not do): a file without it is truncated.
END = (r"^IBM, the IBM logo, and ibm\.com are trademarks", "the trademarks notice")
# A pipe-table row starting with a T-shirt size must be read by a table.
ROW_SHAPE = r"^\|\s*(?:Small|Medium|Large)\s*\|"

COL_NAME = AliasMap("Name")
COL_TSHIRT = AliasMap("Capacity (T-shirt Size)", "Capacity(T-shirt Size)", "T-shirt Size")
COL_STARTUP = AliasMap("Startup Time (sec)", "Startup Time (s)")
COL_SIZE = AliasMap("Message Size")
COL_REPLICA = AliasMap("Replica", "Replicas")
COL_RATE = AliasMap("Message rate (req/s)", "Message rate (msgs/s)")
COL_COST = AliasMap("CPU Cost/Msg (ms)", "CPU Cost/Msq (ms)")

_TSHIRT_DEF = re.compile(r"^-?\s*(?P<name>[A-Z][a-z]+) - CPU (?P<cpu>[\d.]+) cores?, "
                         r"Memory (?P<mem>\d+)Mi\b")
_STARTUP_SENTENCE = re.compile(r"^This test checks the startup time for an Integration Runtime pod")
_TOC_ITEM = re.compile(r"^-\s+(?P<item>.+)$")
_MULTI = re.compile(r"\s*\(\s*Multi replica\s*\)\s*$", re.I)

# Spellings in the contents that name a scenario differently from its description.
SCENARIO_ALIASES = {
    "TCPIP ISO8853 XML Transformation": "TCPIP ISO8583 XML Transformation",  # "ISO8853" is a typo
}

# Designer message-rate tests, as the descriptions name them (see the module docstring).
DESIGNER_TESTS = [
    (re.compile(r"^The JSON Parse test evaluates .*Designer"), "JSON Parse"),
    (re.compile(r"^The Process Jira Issues test case evaluates a flow created in the Designer"),
     "Process Jira Issues"),
    (re.compile(r"^The Create ServiceNow Incidents test case evaluates a Designer flow"),
     "Create ServiceNow Incidents"),
]
# Tests the report runs without message sizes, and the one run at a single size.
_NO_SIZE = {"Process Jira Issues", "Create ServiceNow Incidents"}
_SINGLE_SIZE = {"TCPIP ISO8583 XML Transformation"}

_TRANSPORT = {"HTTP": "HTTP", "MQ": "MQ", "TCPIP": "TCP/IP"}
SCENARIO_FACTS = {
    "HTTP XMLNSC ESQL Transformation": ("HTTP", "XMLNSC",
        "ESQL Compute node summing numeric values scattered through an XML message."),
    "HTTP JSON ESQL Transformation": ("HTTP", "JSON",
        "ESQL Compute node summing numeric values scattered through a JSON message."),
    "MQ Aggregation": ("MQ", "XMLNSC",
        "Fans an MQ message out to two back-end flows and aggregates the two replies."),
    "MQ Coordinated Request-Reply": ("MQ", "XMLNSC and MRM",
        "Request, back-end and reply flows coordinating MQMD headers (sample-based)."),
    "MQ Large Messaging": ("MQ", "XMLNSC",
        "Splits a message of repeating records into one MQ message per record."),
    "MQ Routing Cache": ("MQ", "XMLNSC",
        "Routes on a field looked up in a destination cache held in ESQL SHARED ROW."),
    "TCPIP ISO8583 XML Transformation": ("TCP/IP", "ISO8583 and XML",
        "Converts binary ISO8583 to XML, through MQ, and back; one size of about 1.3KB."),
    "Process Jira Issues": ("HTTP", "JSON",
        "Retrieves 10 Jira issues with a Jira connector (mocked) and processes each."),
    "Create ServiceNow Incidents": ("HTTP", "JSON",
        "Creates two ServiceNow incidents with the ServiceNow connector (mocked)."),
    "JSON Parse": ("HTTP", "JSON",
        "Designer REST API parsing the whole JSON payload and returning its first element."),
}


@dataclass
class _PipeTable:
    header_line: Line
    header: list[str]
    rows: list[tuple[Line, list[str]]]


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    report.tshirts.extend(_tshirts(lines))
    tshirts = {t.name: t for t in report.tshirts}
    tables = _pipe_tables(lines)
    startup = [t for t in tables if any(COL_STARTUP.prefix_of(c) for c in t.header)]
    rates = [t for t in tables if any(COL_RATE.prefix_of(c) for c in t.header)]
    other = [t for t in tables if t not in startup and t not in rates]
    if other:
        raise ParseError(f"table with header {other[0].header!r} is neither a startup nor a "
                         "message-rate table", other[0].header_line.number,
                         expected="a 'Startup Time (sec)' or 'Message rate (req/s)' column")
    startup_names = _startup_scenarios(lines)
    if len(startup_names) != len(startup):
        raise ParseError(f"{len(startup)} startup tables but {len(startup_names)} startup test "
                         "descriptions", (startup or tables or [None])[0].header_line.number
                         if startup else lines[0].number,
                         expected="one startup table per described startup test")
    for number, (table, (name, sentence)) in enumerate(zip(startup, startup_names), 1):
        _startup_table(table, number, name, sentence, tshirts, report)
    rate_names = _rate_scenarios(lines, report)
    if len(rate_names) != len(rates):
        raise ParseError(f"{len(rates)} message-rate tables but the contents and descriptions "
                         f"name {len(rate_names)} tests",
                         rates[0].header_line.number if rates else lines[0].number,
                         expected="one message-rate table per listed test")
    for number, (table, (name, style, multi)) in enumerate(zip(rates, rate_names), 1):
        _rate_table(table, number, name, style, multi, tshirts, report)
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.claims.extend(claims(lines))
    return report


def _tshirts(lines: Sequence[Line]) -> list[TShirt]:
    found = []
    for line in lines:
        match = _TSHIRT_DEF.match(clean_text(line.text))
        if match:
            found.append(TShirt(match.group("name"), match.group("cpu"), match.group("mem"),
                                line.number))
    if not found:
        raise ParseError("no T-shirt size definitions", lines[0].number,
                         expected="lines like '- Small - CPU 0.5 cores, Memory 512Mi, ...'")
    return found


def _cells(text: str) -> list[str]:
    inner = text.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [clean_text(c) for c in inner.split("|")]


_SEPARATOR = re.compile(r"^\|?(\s*:?-{3,}:?\s*\|)*\s*:?-{3,}:?\s*\|?$")


def _is_pipe(line: Line) -> bool:
    return line.text.lstrip().startswith("|")


def _pipe_tables(lines: Sequence[Line]) -> list[_PipeTable]:
    """Pipe tables: a header row, a '|---|' row, data rows. A header row directly under
    another table's last row (no blank line between, as happens once here) starts a new table."""
    tables: list[_PipeTable] = []
    index = 0
    while index < len(lines):
        if not _is_pipe(lines[index]):
            index += 1
            continue
        header_line = lines[index]
        if index + 1 >= len(lines) or not _SEPARATOR.match(lines[index + 1].text.strip()):
            raise ParseError("pipe table without a '|---|' separator under its header",
                             header_line.number + 1, expected="a markdown table separator row")
        index += 2
        rows = []
        while index < len(lines) and _is_pipe(lines[index]):
            if index + 1 < len(lines) and _SEPARATOR.match(lines[index + 1].text.strip()):
                break  # the next table's header
            rows.append((lines[index], _cells(lines[index].text)))
            index += 1
        if not rows:
            raise ParseError("table has a header but no rows", header_line.number,
                             expected="at least one data row")
        tables.append(_PipeTable(header_line, _cells(header_line.text), rows))
    return tables


def _startup_scenarios(lines: Sequence[Line]) -> list[tuple[str, Line]]:
    """One scenario name per startup-test description, in the report's order."""
    names = []
    for line in lines:
        text = clean_text(line.text)
        if not _STARTUP_SENTENCE.match(text):
            continue
        tool = "Designer" if "Designer" in text else "Toolkit" if "Toolkit" in text else None
        count = re.search(r"with (\d+) BAR files", text)
        if tool is None:
            raise ParseError("startup test description names neither Toolkit nor Designer",
                             line.number, expected="'created in the Toolkit' or '... Designer'")
        if count:
            what = f"{count.group(1)} BARs"
        elif "Java Compute" in text:
            what = "1 BAR with a Java Compute node"
        elif "REST API" in text:
            what = "1 BAR holding a REST API"
        elif "single BAR" in text:
            what = "1 BAR"
        else:
            raise ParseError("cannot tell how many BAR files a startup test deploys", line.number,
                             expected="'a single BAR' or 'with N BAR files'")
        names.append((f"Startup, {what} ({tool})", line))
    return names


def _toolkit_rate_tests(lines: Sequence[Line]) -> list[tuple[str, bool, int]]:
    """The longest run of contents entries under 'Flows created using Toolkit':
    (name, multi replica, line) each."""
    best: list[tuple[str, bool, int]] = []
    run: list[tuple[str, bool, int]] | None = None
    for line in lines:
        match = _TOC_ITEM.match(clean_text(line.text))
        item = match.group("item") if match else None
        if item and item.startswith("Flows created using"):
            best = max(best, run or [], key=len)
            run = [] if item.endswith("Toolkit") else None
            continue
        if run is None:
            continue
        if item is None or item in ("Startup Tests", "Message Rate Tests", "T-shirt Size Definitions"):
            best = max(best, run, key=len)
            run = None
            continue
        multi = bool(_MULTI.search(item))
        run.append((_MULTI.sub("", item).strip(), multi, line.number))
    return max(best, run or [], key=len)


def _rate_scenarios(lines: Sequence[Line], report: ParsedReport) -> list[tuple[str, str, bool]]:
    toolkit = _toolkit_rate_tests(lines)
    for name, _multi, line in toolkit:
        if SCENARIO_ALIASES.get(name, name) != name:
            note_variant(report, line, name, SCENARIO_ALIASES[name])
    designer = []
    for pattern, name in DESIGNER_TESTS:
        if any(pattern.match(clean_text(line.text)) for line in lines):
            designer.append(name)
    out = [(SCENARIO_ALIASES.get(name, name), "Toolkit", multi) for name, multi, _ in toolkit]
    for name in designer:
        out.append((name, "Designer", False))
        out.append((name, "Designer", True))
    return out


def _scenario_name(name: str, style: str) -> str:
    """The warehouse name: tests that exist as both Toolkit and Designer flows say which."""
    both = {"Process Jira Issues", "Create ServiceNow Incidents"}
    return f"{name} ({style})" if name in both else name


def _scenario(name: str, style: str, report: ParsedReport, line: int) -> str:
    full = _scenario_name(name, style)
    if full not in {s.name for s in report.scenarios}:
        facts = SCENARIO_FACTS.get(name)
        if facts is None:
            raise ParseError(f"unknown test {name!r}", line,
                             expected="one of " + ", ".join(SCENARIO_FACTS))
        transport, domain, description = facts
        report.scenarios.append(Scenario(full, transport, domain, FLOW_STYLES[style], description))
    return full


def _columns(table: _PipeTable, wanted: list[AliasMap], report: ParsedReport) -> list[str]:
    """Canonical header names, each matched through its alias map."""
    canonical = []
    for cell in table.header:
        if not cell:
            continue
        for alias in wanted:
            name = alias.match(cell, table.header_line.number, report)
            if name:
                canonical.append(name)
                break
        else:
            raise ParseError(f"unexpected column {cell!r}", table.header_line.number,
                             expected="columns " + ", ".join(a.canonical for a in wanted))
    return canonical


def _tshirt(cell: str, tshirts: dict[str, TShirt], line: Line) -> TShirt:
    if cell not in tshirts:
        raise ParseError(f"unknown T-shirt size {cell!r}", line.number,
                         expected="one of " + ", ".join(tshirts))
    return tshirts[cell]


def _startup_table(table: _PipeTable, number: int, name: str, sentence: Line,
                   tshirts: dict[str, TShirt], report: ParsedReport) -> None:
    _columns(table, [COL_NAME, COL_TSHIRT, COL_STARTUP], report)
    key = f"Startup table {number}"
    report.tables.append(SourceTable(key, name, table.header_line.number, "startup",
                                     table.header_line.page,
                                     note=f"caption lost; mapped from the description at line {sentence.number}"))
    report.scenarios.append(Scenario(name, None, None,
                                     FLOW_STYLES["Designer" if "Designer" in name else "Toolkit"],
                                     clean_text(sentence.text)))
    for line, cells in table.rows:
        # The rows print the T-shirt under "Name" and the time under "Capacity": the
        # header has one column more than the data. Read the two values, whatever the shift.
        values = [c for c in cells if c]
        if len(values) != 2:
            raise ParseError(f"startup row has {len(values)} values", line.number,
                             expected="a T-shirt size and a startup time in seconds")
        tshirt = _tshirt(values[0], tshirts, line)
        report.observations.append(Observation(
            table_key=key, row_line=line.number, product=PRODUCT, platform=PLATFORM,
            scenario=name, metric="startup_s", value=quantity(values[1], "seconds", line=line.number),
            concurrency_kind="tshirt", concurrency=Quantity(tshirt.name, tshirt.cpu_cores, ""),
            replicas=1, tshirt=tshirt.name, page=line.page))


def _rate_table(table: _PipeTable, number: int, name: str, style: str, multi: bool,
                tshirts: dict[str, TShirt], report: ParsedReport) -> None:
    columns = _columns(table, [COL_TSHIRT, COL_SIZE, COL_REPLICA, COL_RATE, COL_COST], report)
    has_size = COL_SIZE.canonical in columns
    line_no = table.header_line.number
    if (name in _NO_SIZE) == has_size:
        raise ParseError(f"table {number} mapped to {name!r} "
                         f"{'has' if has_size else 'lacks'} a Message Size column", line_no,
                         expected="no sizes for the connector tests, sizes for the others")
    scenario = _scenario(name, style, report, line_no)
    key = f"Message rate table {number}"
    title = f"{scenario}{' (Multi replica)' if multi else ''}"
    report.tables.append(SourceTable(key, title, line_no, "throughput", table.header_line.page,
                                     note="caption lost; mapped from the contents and descriptions"))
    replicas_seen, sizes_seen = set(), set()
    for line, cells in table.rows:
        if len(cells) != len(columns):
            raise ParseError(f"row has {len(cells)} cells", line.number,
                             expected=f"{len(columns)} cells: " + ", ".join(columns))
        row = dict(zip(columns, cells))
        tshirt = _tshirt(row[COL_TSHIRT.canonical], tshirts, line)
        size = quantity(row[COL_SIZE.canonical], "size", line=line.number) if has_size else None
        replicas = row[COL_REPLICA.canonical]
        if not replicas.isdigit():
            raise ParseError(f"replica count {replicas!r}", line.number, expected="a whole number")
        replicas_seen.add(int(replicas))
        sizes_seen.add(size.printed if size else None)
        # Non-persistent by inference, not print: the report never states persistence. HTTP
        # and TCP/IP carry no message persistence, and the MQ tests ran PerfHarness and MQ
        # "at the default values" (configuration section), which put non-persistent messages.
        common = dict(table_key=key, row_line=line.number, product=PRODUCT, platform=PLATFORM,
                      scenario=scenario, message_size=size, persistent=False,
                      concurrency_kind="tshirt",
                      concurrency=Quantity(tshirt.name, tshirt.cpu_cores, ""),
                      replicas=int(replicas), tshirt=tshirt.name, page=line.page)
        report.observations.append(Observation(
            metric="msg_rate", value=quantity(row[COL_RATE.canonical], "rate", line=line.number),
            **common))
        report.observations.append(Observation(
            metric="cpu_ms_per_msg",
            value=quantity(row[COL_COST.canonical], "cpu_cost", "ms", line=line.number), **common))
    if multi and max(replicas_seen) < 2:
        raise ParseError(f"table {number} mapped to {title!r} shows a single replica", line_no,
                         expected="replica counts above 1 in a multi-replica table")
    if not multi and name in _NO_SIZE and replicas_seen != {1}:
        raise ParseError(f"table {number} mapped to {title!r} shows several replicas", line_no,
                         expected="one replica in a single-replica connector table")
    if name in _SINGLE_SIZE and len(sizes_seen) != 1:
        raise ParseError(f"table {number} mapped to {title!r} has {len(sizes_seen)} sizes", line_no,
                         expected="the one size this test runs at")


# ---------------------------------------------------------------------------------------
# Claims: the counts the prose states - T-shirts per test, message sizes per test - for the
# whole report or for the test a description paragraph is about.

def _listed_sizes(match: re.Match) -> dict:
    """"2K, 20K, 200K and 2MB": as many sizes as the list names."""
    items = re.findall(r"\d+\s?[KM]B?\b", match.group("sizes"))
    return {"value": Quantity(match.group("sizes"), str(len(items)), "")}


WORDINGS = [
    # "Each of the tests are run in three different pre-defined capacity configurations"
    Wording(re.compile(rf"Each of the tests (?:are|is) run in (?P<n>{COUNT}) different "
                       r"(?:pre-defined )?capacity configurations", re.I),
            "count", "exactly", {"compared": "tshirts", "quantifier": "each"}),
    # "All the message rate tests are run with 4 different test message sizes"
    Wording(re.compile(rf"All the message rate tests are run with (?P<n>{COUNT}) different "
                       r"(?:test )?message sizes", re.I),
            "count", "exactly", {"compared": "message_sizes", "quantifier": "each",
                                 "metric": "msg_rate"}),
]
# Said of the test a description paragraph is about ("This test is evaluated only for a
# single message size", "the input messages used are the 2K, 20K, 200K and 2MB sizes").
TEST_WORDINGS = [
    Wording(re.compile(rf"evaluated only for an? (?P<n>{COUNT}) message size", re.I),
            "count", "exactly", {"compared": "message_sizes"}),
    Wording(re.compile(r"(?:executed with message sizes of|the input messages used are the) "
                       r"(?P<sizes>\d+\s?[KM]B?(?:,? (?:and )?\d+\s?[KM]B?)+)", re.I),
            "count", "exactly", {"compared": "message_sizes"}, _listed_sizes),
]
_TEST_NAMES = sorted({*SCENARIO_FACTS, *SCENARIO_ALIASES}, key=len, reverse=True)
_NAMED_TEST = re.compile(r"\b(?P<name>" + "|".join(re.escape(n) for n in _TEST_NAMES)
                         + r") test\b")


def _described_test(text: str) -> str | None:
    """The test a description sentence introduces ("The MQ Large Messaging test case ..."),
    with its Toolkit or Designer flavour where the report has both."""
    match = _NAMED_TEST.search(text)
    if not match:
        return None
    name = SCENARIO_ALIASES.get(match.group("name"), match.group("name"))
    return _scenario_name(name, "Designer" if "Designer" in text else "Toolkit")


def claims(lines: Sequence[Line]) -> list[Claim]:
    """The counts the prose states, each with its sentence and line."""
    found: list[Claim] = []
    test = None
    for line in lines:
        text = clean_text(line.text)
        if _is_pipe(line) or not text:
            continue
        for sentence in sentences(text):
            test = _described_test(sentence) or test
            found.extend(find(line, sentence, WORDINGS))
            if test is not None:
                found.extend(find(line, sentence, TEST_WORDINGS, scenario=test))
    return found
