"""IBM Integration Bus V10 xLinux performance report (web page).

Each results table is a use-case title, a line naming the persistence halves
("Non Persistent Full Persistance" or "Non Persistent"), a header repeating
"Msg Rate % CPU Busy CPU ms/msg" once per half, and one row per message size.
Tables are found by that header's shape, never by position.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .common import (AliasMap, ensure_tables, next_nonblank, normalise_header, require_signature,
                     table_rows)
from .prose import Wording, find, hedged, sentences
from .records import (REST_API, TOOLKIT_FLOW, Claim, Line, Observation, ParsedReport, ParseError,
                      Scenario, SourceTable)
from .text import clean_text, tokens
from .units import quantity

FAMILY = "iib10"
PRODUCT = "iib10"
PLATFORM = "xlinux"

SIGNATURE = (r"xLinux 64 bits platform", r"IBM Integration Bus V10")
DESCRIPTION = "the IBM Integration Bus V10 xLinux performance report"
# The section after the last results table: a file without it is truncated.
END = (r"^Measurement Environment$", "the 'Measurement Environment' section")
# A line shaped like a results row must be read by a table.
ROW_SHAPE = r"^\d+\s?(?:b|B|kB|KB)\s+[\d.]+\s+[\d.]+"

# The three measured columns of one half, in printed order.
# (metric, quantity kind, unit the column heading implies)
COLUMNS = (("msg_rate", "rate", ""), ("cpu_busy_pct", "percent", ""),
           ("cpu_ms_per_msg", "cpu_cost", "ms"))
_HALF_HEADER = "msg rate % cpu busy cpu ms/msg"
HALVES = {
    "Non Persistent": False,
    "Full Persistent": True,
}
HALF_ALIASES = [AliasMap("Non Persistent", "Non-Persistent", "Nonpersistent"),
                AliasMap("Full Persistent", "Full Persistance", "Persistent")]

# What each use case is, as far as the report's names tell (the results page does not
# describe the flows; transports follow from the names and the persistence halves).
SCENARIOS = {
    "Aggregation": Scenario("Aggregation", "MQ", None, TOOLKIT_FLOW,
                            "Aggregation use case: fan-out of requests and fan-in of replies over MQ."),
    "Coordinated Request/Reply": Scenario("Coordinated Request/Reply", "MQ", None, TOOLKIT_FLOW,
                                          "Coordinated request/reply use case over MQ."),
    "Large Messaging": Scenario("Large Messaging", "MQ", None, TOOLKIT_FLOW,
                                "Large messaging use case: a large input message split into slices over MQ."),
    "Message Routing": Scenario("Message Routing", "MQ", None, TOOLKIT_FLOW,
                                "Message routing use case over MQ."),
    "Transforming a message": Scenario("Transforming a message", "MQ", None, TOOLKIT_FLOW,
                                       "Message transformation use case over MQ."),
    "File out and file in": Scenario("File out and file in", "File", None, TOOLKIT_FLOW,
                                     "Writes messages to files and reads them back (File nodes)."),
    "SOAP Consumer": Scenario("SOAP Consumer", "SOAP/HTTP", "SOAP", TOOLKIT_FLOW,
                              "Flow acting as a SOAP web-service consumer."),
    "SOAP Provider": Scenario("SOAP Provider", "SOAP/HTTP", "SOAP", TOOLKIT_FLOW,
                              "Flow acting as a SOAP web-service provider."),
    "ISO 8583 Transformation": Scenario("ISO 8583 Transformation", "TCP/IP", "DFDL (ISO 8583)",
                                        TOOLKIT_FLOW,
                                        "Transformation of ISO 8583 financial messages."),
    "RESTful API – Post": Scenario("RESTful API – Post", "HTTP", "JSON", REST_API,
                                  "REST API POST operation."),
    "RESTful API – Get": Scenario("RESTful API – Get", "HTTP", "JSON", REST_API,
                                 "REST API GET operation."),
}


def _is_header(text: str) -> bool:
    """``Msg Size`` followed by one or more repetitions of the three measured columns."""
    norm = re.sub(r"\s+", " ", clean_text(text).lower())
    if not norm.startswith("msg size "):
        return False
    rest = norm[len("msg size "):]
    halves = rest.count(_HALF_HEADER)
    return halves >= 1 and rest.replace(_HALF_HEADER, "").strip() == ""


def _halves(line: Line, report: ParsedReport) -> list[tuple[str, bool]]:
    """Read "Non Persistent Full Persistance" into [(label, persistent), ...]."""
    rest = normalise_header(line.text)
    words = clean_text(line.text).split()  # as printed, so a logged variant keeps its spelling
    found: list[tuple[str, bool]] = []
    while rest:
        for alias in HALF_ALIASES:
            spelling = alias.prefix_of(rest)
            if spelling:
                count = len(spelling.split())
                printed, words = " ".join(words[:count]) or spelling, words[count:]
                canonical = alias.match(printed, line.number, report)
                found.append((canonical, HALVES[canonical]))
                rest = rest[len(spelling):].strip()
                break
        else:
            raise ParseError(f"cannot read persistence halves {clean_text(line.text)!r}", line.number,
                             expected="'Non Persistent' and optionally 'Full Persistent'")
    return found


# A results row: a message size, then numbers ("20000kB 1.0 97.5 8125.0 0.9 97.5 8573.2").
_LOOKS_LIKE_ROW = re.compile(r"^\d+(?:\.\d+)?\s*[kKmM]?B\s+\d")


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    used: set[str] = set()
    for index, line in enumerate(lines):
        if not _is_header(line.text):
            continue
        halves_at = next_nonblank(lines, index, -1)
        title_at = next_nonblank(lines, halves_at, -1) if halves_at is not None else None
        if halves_at is None or title_at is None:
            raise ParseError("results header without a title and persistence line", line.number,
                             expected="a use-case title, then 'Non Persistent ...', then the header")
        halves = _halves(lines[halves_at], report)
        header_halves = clean_text(line.text).lower().count(_HALF_HEADER)
        if header_halves != len(halves):
            raise ParseError(f"header has {header_halves} column groups but the line above names "
                             f"{len(halves)} persistence halves", line.number,
                             expected="one 'Msg Rate % CPU Busy CPU ms/msg' group per half")
        title = clean_text(lines[title_at].text)
        scenario = SCENARIOS.get(title)
        if scenario is None and _LOOKS_LIKE_ROW.match(title):  # the title's line gone
            raise ParseError(f"the table whose header is line {line.number} has no use-case title: the "
                             f"line above its persistence line is a results row ({title!r}), the "
                             "table before it's (its title deleted?)", lines[halves_at].number,
                             expected="a use-case title above 'Non Persistent ...': one of "
                                      + ", ".join(SCENARIOS))
        if scenario is None:
            raise ParseError(f"unknown use case {title!r}", lines[title_at].number,
                             expected="one of " + ", ".join(SCENARIOS))
        if title in used:
            raise ParseError(f"use case {title!r} appears twice", lines[title_at].number,
                             expected="one table per use case")
        used.add(title)
        table_key = title
        report.tables.append(SourceTable(table_key, title, lines[title_at].number, "throughput",
                                         lines[title_at].page))
        report.scenarios.append(scenario)
        rows = table_rows(lines, index + 1)
        if not rows:
            raise ParseError(f"table {title!r} has no rows", line.number + 1,
                             expected="one row per message size")
        for row in rows:
            report.observations.extend(_row(row, table_key, scenario.name, halves))
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.claims.extend(claims(lines))
    return report


def _row(row: Line, table_key: str, scenario: str, halves: list[tuple[str, bool]]):
    cells = tokens(row.text)
    expected = 1 + len(COLUMNS) * len(halves)
    if len(cells) != expected:
        raise ParseError(f"row has {len(cells)} cells", row.number,
                         expected=f"{expected} cells: message size and "
                                  f"{len(COLUMNS)} values per persistence half")
    size = quantity(cells[0], "size", line=row.number)
    for h, (_label, persistent) in enumerate(halves):
        for c, (metric, kind, unit) in enumerate(COLUMNS):
            cell = cells[1 + h * len(COLUMNS) + c]
            yield Observation(
                table_key=table_key, row_line=row.number, product=PRODUCT, platform=PLATFORM,
                scenario=scenario, metric=metric, value=quantity(cell, kind, unit, line=row.number),
                message_size=size, persistent=persistent,
                concurrency_kind="flow_copies", concurrency=None, page=row.page)


# The page's comment thread corrected a published number; the correction is a claim the
# table must agree with (the page was fixed, so today it does; a submission restoring the
# typo would not).
_QUESTION = re.compile(r"Is the number for the (?P<size>\d+\w*) message size test under "
                       r"(?P<scenario>.+?) correct at (?P<wrong>[\d.]+)\?")
_ANSWER = re.compile(r"it should have read (?P<right>\d+(?:\.\d+)?)")


# What the Performance Results prose says of all the tables: how rate and cost move with
# size (hedged: "Typically"), and what persistence costs.
def _direction(verb: str, falls: str) -> dict:
    return {"comparison": "falls" if verb == falls else "rises"}


WORDINGS = [
    Wording(re.compile(r"(?P<hedge>Typically, )?as the message size increases, the message rate "
                       r"(?P<verb>decreases|increases)", re.I), "trend", "falls",
            {"metric": "msg_rate", "compared": "message_size"},
            lambda m: {**hedged(m), **_direction(m.group("verb"), "decreases")}),
    Wording(re.compile(r"(?P<hedge>Typically, )?as the message size increases,.*? the cost of CPU "
                       r"per message (?P<verb>increases|decreases)", re.I), "trend", "rises",
            {"metric": "cpu_ms_per_msg", "compared": "message_size"},
            lambda m: {**hedged(m), **_direction(m.group("verb"), "decreases")}),
]
# "Persistent MQ messages are written to the MQ log on disk. This causes an overhead in CPU
# and IO costs and a reduction in message rate.": persistent rows against non-persistent ones.
_PERSISTENT = r"Persistent (?:MQ )?messages [^.]*\. This causes [^.]*?"
_AGAINST_NON_PERSISTENT = {"compared": "persistence", "persistent": True,
                           "relative_persistent": False}
PERSISTENCE_WORDINGS = [
    Wording(re.compile(_PERSISTENT + r"(?P<phrase>an overhead in CPU)[^.]*"), "order", "higher",
            {"metric": "cpu_ms_per_msg", **_AGAINST_NON_PERSISTENT}, quote_match=True),
    Wording(re.compile(_PERSISTENT + r"(?P<phrase>a reduction in message rate)[^.]*"), "order",
            "lower", {"metric": "msg_rate", **_AGAINST_NON_PERSISTENT}, quote_match=True),
]


def claims(lines: Sequence[Line]) -> list[Claim]:
    """The correction of the comment thread, then the statements of the results prose."""
    return _corrections(lines) + _statements(lines)


def _statements(lines: Sequence[Line]) -> list[Claim]:
    """Trends and orderings the prose above the tables states (the comment thread below
    them is not the report's text)."""
    found: list[Claim] = []
    for line in lines:
        text = clean_text(line.text)
        if re.search(END[0], text):
            break
        found.extend(find(line, text, PERSISTENCE_WORDINGS))
        for sentence in sentences(text):
            found.extend(find(line, sentence, WORDINGS))
    return found


def _corrections(lines: Sequence[Line]) -> list[Claim]:
    found: list[Claim] = []
    question = None
    for line in lines:
        text = clean_text(line.text)
        match = _QUESTION.search(text)
        if match:
            question = match
            continue
        answer = _ANSWER.search(text)
        if question and answer and question.group("scenario") in SCENARIOS:
            found.append(Claim(
                line=line.number, text=answer.group(0), metric="msg_rate",
                value=quantity(answer.group("right"), "rate", line=line.number),
                scenario=question.group("scenario"), product=PRODUCT, platform=PLATFORM,
                message_size=quantity(question.group("size"), "size", line=line.number),
                persistent=False, concurrency_kind="flow_copies", comparison="approx",
                page=line.page))
            question = None
    return found
