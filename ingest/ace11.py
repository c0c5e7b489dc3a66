"""App Connect Enterprise V11 vs IBM Integration Bus V10 in Docker, Linux and Windows (2019).

Under the "Results" part, a platform heading ("Linux", "Windows") is followed by
one table per test scenario: the scenario title, "Test results for IIB ... - ACE
...", chart legend lines, the header "Message Size Concurrency <IIB version> <ACE
version>" and "Rate CPU cost Rate CPU cost", then rows. The message size is
printed only on the first row of each size group; the other rows inherit it.
Every row carries one rate and one CPU cost per product.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .common import (AliasMap, ensure_tables, next_nonblank, note_variant, require_signature,
                     table_rows)
from .prose import COUNT, Wording, find, sentences
from .records import (REST_API, TOOLKIT_FLOW, Claim, Line, Observation, ParsedReport, ParseError,
                      Quantity, Scenario, SourceTable)
from .text import clean_text, tokens
from .units import quantity

FAMILY = "ace11"
SIGNATURE = (r"App Connect Enterprise V11 container performance",
             r"App Connect Enterprise Version 11\.0\.0\.\d+ against IBM Integration Bus")
DESCRIPTION = "the ACE 11 vs IIB 10 container performance report"
# The section after the last Windows table: a file without it is truncated.
END = (r"^Trademarks$", "the 'Trademarks' section")
# A line shaped like a results row (size optional, concurrency, a rate) must be read by a table.
ROW_SHAPE = r"^(?:\d+k\s+)?\d+\s+[\d.]+/s\s"

PLATFORM_HEADINGS = {"Linux": "linux", "Windows": "windows"}
# Product labels printed in the header -> product keys of sources.yml.
PRODUCTS = {"10.0.0.16": "iib10016", "11.0.0.4 + LAD76278": "ace11004"}
_PRODUCT_LABEL = re.compile(r"\d+\.\d+\.\d+\.\d+(?:\s*\+\s*[A-Z0-9]+)?")

COLUMN_HEADER = AliasMap("Rate CPU cost Rate CPU cost")
# The chart-legend lines between the caption and the column header. The Linux pages
# print "Message Rate [1/s] Message Rate [1/s]" on one line, the Windows pages on two;
# both spellings of the block are the same header.
LEGEND = AliasMap("Message Rate [1/s] Message Rate [1/s] CPU Cost Per Message CPU Cost Per Message")
_CAPTION = re.compile(r"^Test results for IIB (?P<iib>[\d.]+) - ACE (?P<ace>[\d.]+)$")
_SIZE = re.compile(r"^\d+(?:\.\d+)?[A-Za-z]+$")

_HTTP = "HTTP"
SCENARIOS = {s.name: s for s in [
    Scenario("HTTP BLOB Echo", _HTTP, "BLOB", TOOLKIT_FLOW,
             "HTTP Input and HTTP Reply nodes echoing the request body with the BLOB parser."),
    Scenario("HTTP XMLNSC Echo", _HTTP, "XMLNSC", TOOLKIT_FLOW,
             "HTTP Input and HTTP Reply echo with the XMLNSC parser, parse timing Complete."),
    Scenario("HTTP XMLNSC ESQL Transformation", _HTTP, "XMLNSC", TOOLKIT_FLOW,
             "Adds an ESQL Compute node summing numeric values throughout the message."),
    Scenario("HTTP XMLNSC Mapper Transformation", _HTTP, "XMLNSC", TOOLKIT_FLOW,
             "Uses a Mapping node for simple arithmetic on an XML array."),
    Scenario("REST Echo", _HTTP, "JSON", REST_API,
             "REST API whose one operation copies the request to the response in ESQL."),
    Scenario("SOAP Echo", "SOAP/HTTP", "SOAP", TOOLKIT_FLOW,
             "SOAP Input and SOAP Reply with an ESQL node moving the body between envelopes."),
]}


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    report.scenarios.extend(SCENARIOS.values())
    results_at = _results_heading(lines)
    platform = None
    seen: set[str] = set()
    for index in range(results_at, len(lines)):
        text = clean_text(lines[index].text)
        if text in PLATFORM_HEADINGS:
            platform = PLATFORM_HEADINGS[text]
        elif _CAPTION.match(text):
            if platform is None:
                raise ParseError("results table before any platform heading", lines[index].number,
                                 expected="a 'Linux' or 'Windows' heading above the tables")
            key = _table(lines, index, platform, report)
            if key in seen:
                raise ParseError(f"table {key!r} appears twice", lines[index].number,
                                 expected="one table per scenario and platform")
            seen.add(key)
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.claims.extend(claims(lines))
    return report


def _results_heading(lines: Sequence[Line]) -> int:
    for index, line in enumerate(lines):
        if clean_text(line.text) == "Results":
            return index
    raise ParseError("no 'Results' heading", lines[-1].number if lines else 1,
                     expected="a 'Results' heading before the results tables")


def _table(lines: Sequence[Line], caption_at: int, platform: str, report: ParsedReport) -> str:
    title_at = next_nonblank(lines, caption_at, -1)
    title = clean_text(lines[title_at].text) if title_at is not None else ""
    if title not in SCENARIOS:
        raise ParseError(f"unknown scenario {title!r} above a results table",
                         lines[title_at or caption_at].number,
                         expected="one of " + ", ".join(SCENARIOS))
    header_at, products = _header(lines, caption_at, report)
    key = f"{platform}: {title}"
    report.tables.append(SourceTable(key, f"{title} ({platform.title()})", lines[title_at].number,
                                     "throughput", lines[title_at].page))
    rows = table_rows(lines, header_at + 2)
    if not rows:
        raise ParseError(f"table {key!r} has no rows", lines[header_at + 1].number,
                         expected="one row per message size and concurrency")
    size = None
    seen: set[tuple[str, str]] = set()
    for row in rows:
        size = _row(row, key, title, platform, products, size, report)
        # A row without its size inherits the one above: a lost size cell shows as a repeat.
        pair = (size.printed, report.observations[-1].concurrency.printed)
        if pair in seen:
            raise ParseError(f"message size {pair[0]} with concurrency {pair[1]} appears twice in "
                             f"table {key!r}", row.number,
                             expected="the message size on the first row of each size group")
        seen.add(pair)
    return key


def _header(lines: Sequence[Line], caption_at: int, report: ParsedReport) -> tuple[int, list[str]]:
    """Find "Message Size Concurrency ..." below the caption, check the legend between."""
    legend: list[str] = []
    for index in range(caption_at + 1, min(len(lines), caption_at + 10)):
        text = clean_text(lines[index].text)
        if text.startswith("Message Size Concurrency"):
            joined = " ".join(legend)
            if joined not in LEGEND:
                raise ParseError(f"unexpected lines above the column header: {joined!r}",
                                 lines[caption_at + 1].number, expected=LEGEND.canonical)
            if len(legend) != 3:  # the canonical block is three lines
                note_variant(report, lines[caption_at + 1].number, " | ".join(legend),
                             f"{LEGEND.canonical} (on {len(legend)} lines)")
            labels = _PRODUCT_LABEL.findall(text[len("Message Size Concurrency"):])
            unknown = [label for label in labels if re.sub(r"\s+", " ", label) not in PRODUCTS]
            if len(labels) != 2 or unknown:
                raise ParseError(f"cannot read the two products in {text!r}", lines[index].number,
                                 expected="versions " + " and ".join(PRODUCTS))
            sub = lines[index + 1] if index + 1 < len(lines) else lines[index]
            if COLUMN_HEADER.match(clean_text(sub.text), sub.number, report) is None:
                raise ParseError(f"column header is {clean_text(sub.text)!r}", sub.number,
                                 expected=COLUMN_HEADER.canonical)
            return index, [PRODUCTS[re.sub(r"\s+", " ", label)] for label in labels]
        if text:
            legend.append(text)
    raise ParseError("no 'Message Size Concurrency' header below the caption",
                     lines[caption_at].number, expected="the column header within 10 lines")


def _row(row: Line, key: str, scenario: str, platform: str, products: list[str],
         size: Quantity | None, report: ParsedReport) -> Quantity:
    cells = tokens(row.text)
    if cells and _SIZE.match(cells[0]):
        size = quantity(cells.pop(0), "size", line=row.number)
    if size is None:
        raise ParseError("first row of a table has no message size", row.number,
                         expected="a size such as 2k before the concurrency")
    per_product = 3  # rate, cost number, cost unit
    if len(cells) != 1 + per_product * len(products):
        raise ParseError(f"row has {len(cells)} cells after the size", row.number,
                         expected=f"concurrency, then rate and CPU cost for each of "
                                  f"{len(products)} products ({1 + per_product * len(products)} cells)")
    cores = quantity(cells[0], "cores", line=row.number)
    for p, product in enumerate(products):
        rate, cost_number, cost_unit = cells[1 + p * per_product: 1 + (p + 1) * per_product]
        # Every scenario is HTTP (REST, SOAP): no message persistence, hence non-persistent.
        common = dict(table_key=key, row_line=row.number, product=product, platform=platform,
                      scenario=scenario, message_size=size, persistent=False,
                      concurrency_kind="docker_cores", concurrency=cores, page=row.page)
        report.observations.append(Observation(
            metric="msg_rate", value=quantity(rate, "rate", line=row.number), **common))
        report.observations.append(Observation(
            metric="cpu_ms_per_msg",
            value=quantity(f"{cost_number} {cost_unit}", "cpu_cost", line=row.number), **common))
    return size


# ---------------------------------------------------------------------------------------
# Claims: what the prose says the tables hold. The report states counts only - how many
# platforms, scenarios, concurrency levels and sizes - and the Results part announces each
# platform's tables with one ("the nine test scenarios on Linux").

def _platform(match: re.Match) -> dict:
    return {"platform": PLATFORM_HEADINGS[match.group("platform")]}


WORDINGS = [
    # "replicated on the following two system configurations" (Linux and Windows)
    Wording(re.compile(rf"replicated on the following (?P<n>{COUNT}) system configurations", re.I),
            "count", "exactly", {"compared": "platforms"}),
    # "Find here the numerical results of the tests for the three platforms they were run on."
    Wording(re.compile(rf"results of the tests for the (?P<n>{COUNT}) platforms", re.I),
            "count", "exactly", {"compared": "platforms"}),
    # "... for the nine test scenarios on Linux."
    Wording(re.compile(rf"for the (?P<n>{COUNT}) test scenarios on (?P<platform>{'|'.join(PLATFORM_HEADINGS)})",
                       re.I), "count", "exactly", {"compared": "scenarios"}, _platform),
    # "in 3 different concurrency configurations, using 3 different message sizes in each
    # (9 configurations altogether for each test scenario)": per scenario, platform, product
    Wording(re.compile(rf"in (?P<n>{COUNT}) different concurrency configurations", re.I),
            "count", "exactly", {"compared": "concurrency_levels", "quantifier": "each"}),
    Wording(re.compile(rf"using (?P<n>{COUNT}) different message sizes in each", re.I),
            "count", "exactly", {"compared": "message_sizes", "quantifier": "each"}),
    Wording(re.compile(rf"\((?P<n>{COUNT}) configurations altogether for each test scenario\)", re.I),
            "count", "exactly", {"compared": "configurations", "quantifier": "each"}),
]


def claims(lines: Sequence[Line]) -> list[Claim]:
    """The counts the prose states, each with its sentence and line."""
    found: list[Claim] = []
    for line in lines:
        for sentence in sentences(clean_text(line.text)):
            found.extend(find(line, sentence, WORDINGS))
    return found
