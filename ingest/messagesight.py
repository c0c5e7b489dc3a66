"""IBM MessageSight appliance v1.0 performance benchmarks (2013).

Results tables: the score card (one row per test case, its value columns chosen
by the unit in parentheses at the end of the description), the FANOUT.SEC fan-out
table and the two power-supply tables captured during the PERSISTENT test.
The WMQPUBSUB and WMQDURABLE tables in the test-case descriptions list test
configurations (producers, topics, queue managers), not results, and the
appendix tables list tuning parameters; neither is loaded.

Score-card cells are separated by tabs in the text, but a PDF's text layer keeps
only spaces, so rows are read as: optional type words, the test name (capitals
and dots), the description up to its closing unit in parentheses, then the values.
The card sets two of its values in bold (``<b>1523</b>``, line 438): the markup is
emphasis, not part of the number, so ``printed_value`` is the cell as a reader sees
it (``1523``), digits and unit letters exactly as printed, on the same line.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .common import AliasMap, ensure_tables, require_signature, table_rows
from .prose import COUNT, Wording, find, iso_date, number, sentences
from .records import (Claim, Line, Observation, ParsedReport, ParseError, Quantity, Scenario,
                      SourceTable)
from .text import clean_text, strip_tags, tokens
from .units import quantity

FAMILY = "messagesight"
PRODUCT = "messagesight10"
PLATFORM = "appliance"
SIGNATURE = (r"MessageSight Appliance v1\.0 Performance Benchmarks",)
DESCRIPTION = "the IBM MessageSight appliance v1.0 performance benchmarks report"
# The appendix after the power-supply tables: a file without it is truncated.
END = (r"^#+ \**Appendix A\b", "Appendix A")
# Lines shaped like score-card, fan-out or power-supply rows must be read by a table.
ROW_SHAPE = (r"^(?:[A-Z][a-z][A-Za-z -]*\s+)?[A-Z]{3,}(?:\.[A-Z]{3,})?\s.*\((?:# of producers|"
             r"msgs/sec(?:/U)?|microseconds|seconds|msgs/Watt|Egress rate msgs/sec)\)(?:\s+[\d.]+[KM]?)+$"
             r"|^1:\d+\s+\d+\s+\d+|^\d{2}/\d{2}/\d{4}\s+\d{2}:\d{2}:\d{2}\s+[\d.]")

SCORECARD_HEADER = AliasMap("Type Name Description VALUE AVG 50P 99P MAX STDV")
FANOUT_HEADER = AliasMap("Fanout ratio # of topics # of consumers # of producers "
                         "Ingress rate (msgs/sec) Egress rate (msgs/sec)")
POWER_HEADER = AliasMap("Log Date (mm/dd/yyyy) Log Time (hh:mm:ss) Output Load Group Watts (W) "
                        "Cumulative Kilo-Watts Hours")
POWER_SUBHEADER = AliasMap("Voltage (V) Current (A) Power Factor")

# The unit that closes a score-card description -> the metrics of its value cells.
SCORECARD_UNITS: dict[str, list[tuple[str, str]]] = {
    "(# of producers)": [("connections", "count")],
    "(Ingress rate msgs/sec) - (Egress rate msgs/sec)": [("ingress_msg_rate", "rate"),
                                                         ("egress_msg_rate", "rate")],
    "(msgs/sec)": [("msg_rate", "rate")],
    "(microseconds)": [("latency_avg_us", "microseconds"), ("latency_p50_us", "microseconds"),
                       ("latency_p99_us", "microseconds"), ("latency_max_us", "microseconds"),
                       ("latency_stdev_us", "microseconds")],
    "(seconds)": [("connection_burst_s", "seconds")],
    "(msgs/Watt)": [("msgs_per_watt", "msgs_per_watt")],
    "(msgs/sec/U)": [("msgs_per_s_per_rack_unit", "rate_per_rack_unit")],
}
FANOUT_COLUMNS = [("topic_count", "count"), ("consumer_count", "count"),
                  ("producer_count", "count"), ("ingress_msg_rate", "rate"),
                  ("egress_msg_rate", "rate")]
POWER_COLUMNS = [("supply_voltage_v", "volts"), ("supply_current_a", "amps"),
                 ("power_factor", "ratio"), ("load_w", "watts"), ("cumulative_kwh", "kwh")]

_ROW = re.compile(r"^(?:(?P<type>[A-Z][a-z][A-Za-z -]*?)\s+)?"
                  r"(?P<name>[A-Z]{3,}(?:\.[A-Z]{3,})?)\s+(?P<desc>\S.*?)\s*(?P<values>(?:\s[\d.]+[KM]?)*)$")
_UNIT_AT_END = re.compile(r"(\([^()]*\)(?:\s*-\s*\([^()]*\))?)$")
_SIZE = re.compile(r"Message size, (\d+) bytes")
_FANOUT_RATIO = re.compile(r"^1:(\d+)$")
_TRANSPORT = {"JMS": "JMS", "WMQ": "MQTT to WebSphere MQ"}


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    sizes: dict[str, Quantity] = {}
    descriptions = _test_case_descriptions(lines)
    for index, line in enumerate(lines):
        text = clean_text(strip_tags(line.text))
        if not text:
            continue
        if SCORECARD_HEADER.match(text, line.number, report):
            _scorecard(lines, index, report, sizes, descriptions)
        elif FANOUT_HEADER.match(text, line.number, report):
            _fanout_table(lines, index, report, sizes)
        elif POWER_HEADER.match(text, line.number, report):
            _power_table(lines, index, report)
    for scenario in sorted({o.scenario for o in report.observations}):
        report.scenarios.append(_scenario(scenario, descriptions.get(scenario)))
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.claims.extend(claims(lines))
    report.claims.extend(statements(lines, report.observations))
    return report


def _test_case_name(name: str) -> str:
    """PERSISTENT.MPW and .MPU are figures of the PERSISTENT test; other names are tests."""
    return name.split(".")[0] if name.endswith((".MPW", ".MPU")) else name


def _scorecard(lines: Sequence[Line], index: int, report: ParsedReport,
               sizes: dict[str, Quantity], descriptions: dict[str, str]) -> None:
    """Rows from the header to the next '##' heading; the card spans a page break,
    so blank lines and the repeated page title inside it are skipped."""
    header = lines[index]
    report.tables.append(SourceTable("Score card", "Score card", header.number, "scorecard",
                                     header.page))
    rows = 0
    for line in lines[index + 1:]:
        raw = strip_tags(line.text)
        text = clean_text(raw)
        if text.startswith("## "):
            break
        if not text or text.startswith("# ") or (not text[0].isupper() and "\t" not in raw):
            continue
        _scorecard_row(line, text, report, sizes, descriptions)
        rows += 1
    if not rows:
        raise ParseError("the score card has no rows", header.number + 1,
                         expected="one row per test case")


def _scorecard_row(line: Line, text: str, report: ParsedReport,
                   sizes: dict[str, Quantity], descriptions: dict[str, str]) -> None:
    match = _ROW.match(text)
    unit = _UNIT_AT_END.search(match.group("desc")) if match else None
    if not match or not unit:
        raise ParseError(f"cannot read score-card row {text[:60]!r}", line.number,
                         expected="test name, description ending in a (unit), values")
    name, desc = match.group("name"), match.group("desc")
    metrics = SCORECARD_UNITS.get(re.sub(r"\s+", " ", unit.group(1)))
    if metrics is None:
        raise ParseError(f"unknown unit {unit.group(1)!r} in the score card", line.number,
                         expected="one of " + ", ".join(SCORECARD_UNITS))
    values = match.group("values").split()
    if len(values) != len(metrics):
        raise ParseError(f"{name} has {len(values)} values", line.number,
                         expected=f"{len(metrics)} values for {unit.group(1)}")
    scenario = _test_case_name(name)
    size_match = _SIZE.search(desc)
    size = quantity(f"{size_match.group(1)} bytes", "size", line=line.number) if size_match else None
    if size is not None:
        sizes.setdefault(scenario, size)
    size = size or sizes.get(scenario)  # PERSISTENT.MPW and .MPU are figures of PERSISTENT
    persistent = _row_persistence(name, desc, report, descriptions.get(scenario, ""))
    kind, count = _configuration(desc, line.number)
    for (metric, unit_kind), cell in zip(metrics, values):
        value = quantity(cell, unit_kind, line=line.number)
        report.observations.append(Observation(
            table_key="Score card", row_line=line.number, product=PRODUCT, platform=PLATFORM,
            scenario=scenario, metric=metric, value=value,
            message_size=size, persistent=persistent, concurrency_kind=kind,
            concurrency=count, page=line.page))


def _row_persistence(name: str, desc: str, report: ParsedReport,
                     test_description: str) -> bool | None:
    """Persistence from the card's own words; else from the test it varies ("FANIN test,
    but with secure communications"); else from the test's description, since the card's
    LATENCY row names no quality of service while its description does ("MQTT (QoS 0)")."""
    persistent = _persistent(name, desc)
    base = re.match(r"^([A-Z]+) test, but", desc)
    if persistent is None and base:
        persistent = next((o.persistent for o in report.observations
                           if o.scenario == base.group(1)), None)
    if persistent is None:
        persistent = _persistent(name, test_description)
    return persistent


def _persistent(name: str, desc: str) -> bool | None:
    if "QoS 0" in desc or "fire-and-forget" in desc:
        return False
    if "QoS 1" in desc or "PERSISTENT" in name or re.search(r"\bpersistent\b", desc, re.I):
        return True
    return None


def _configuration(desc: str, line: int) -> tuple[str | None, Quantity | None]:
    ratio = re.search(r"Fanout ratio (1:\d+)", desc)
    if ratio:
        return "fanout_ratio", _ratio(ratio.group(1), line)
    qmgrs = re.search(r"a total of (\d+) WMQ queue managers", desc)
    if qmgrs:
        return "wmq_queue_managers", quantity(qmgrs.group(1), "count", line=line)
    return None, None


def _ratio(printed: str, line: int) -> Quantity:
    match = _FANOUT_RATIO.match(printed)
    if not match:
        raise ParseError(f"fan-out ratio {printed!r}", line, expected="a ratio such as 1:100")
    return Quantity(printed, match.group(1), "")


def _fanout_table(lines: Sequence[Line], index: int, report: ParsedReport,
                  sizes: dict[str, Quantity]) -> None:
    heading = _heading_above(lines, index)
    scenario = clean_text(heading.text).lstrip("#* ").rstrip("* ")
    key = f"{scenario} fan-out"
    report.tables.append(SourceTable(key, f"{scenario}: rates by fan-out ratio", heading.number,
                                     "fanout", heading.page))
    rows = table_rows(lines, index + 1)
    if not rows:
        raise ParseError("fan-out table has no rows", lines[index].number + 1,
                         expected="one row per fan-out ratio")
    for row in rows:
        cells = tokens(row.text)
        if len(cells) != 1 + len(FANOUT_COLUMNS):
            raise ParseError(f"row has {len(cells)} cells", row.number,
                             expected=f"{1 + len(FANOUT_COLUMNS)} cells: ratio, topics, consumers, "
                                      "producers, ingress and egress rates")
        ratio = _ratio(cells[0], row.number)
        for (metric, kind), cell in zip(FANOUT_COLUMNS, cells[1:]):
            report.observations.append(Observation(
                table_key=key, row_line=row.number, product=PRODUCT, platform=PLATFORM,
                scenario=scenario, metric=metric, value=quantity(cell, kind, line=row.number),
                message_size=sizes.get(scenario), persistent=False,
                concurrency_kind="fanout_ratio", concurrency=ratio, page=row.page))


def _heading_above(lines: Sequence[Line], index: int) -> Line:
    for line in reversed(lines[max(0, index - 15):index]):
        if clean_text(line.text).startswith("#") or re.fullmatch(r"\*\*[^*]+\*\*", line.text.strip()):
            return line
    raise ParseError("table without a heading above it", lines[index].number,
                     expected="a '## NAME' heading within 15 lines above")


def _power_table(lines: Sequence[Line], index: int, report: ParsedReport) -> None:
    heading = _heading_above(lines, index)
    component = clean_text(heading.text).lstrip("#* ").rstrip("* ")
    if not re.fullmatch(r"Power Supply #\d+", component):
        raise ParseError(f"power table under {component!r}", heading.number,
                         expected="a 'Power Supply #N' heading")
    sub = lines[index + 1] if index + 1 < len(lines) else lines[index]
    if not POWER_SUBHEADER.match(clean_text(sub.text), sub.number, report):
        raise ParseError(f"second header line is {clean_text(sub.text)!r}", sub.number,
                         expected=POWER_SUBHEADER.canonical)
    key = component
    report.tables.append(SourceTable(key, f"{component} readings during the PERSISTENT test",
                                     heading.number, "power", heading.page))
    rows = table_rows(lines, index + 2)
    if not rows:
        raise ParseError("power table has no rows", sub.number + 1, expected="one row per reading")
    for row in rows:
        cells = tokens(row.text)
        if len(cells) != 2 + len(POWER_COLUMNS):
            raise ParseError(f"row has {len(cells)} cells", row.number,
                             expected="date, time, voltage, current, power factor, watts, kWh")
        observed_at = _timestamp(cells[0], cells[1], row.number)
        for (metric, kind), cell in zip(POWER_COLUMNS, cells[2:]):
            report.observations.append(Observation(
                table_key=key, row_line=row.number, product=PRODUCT, platform=PLATFORM,
                scenario="PERSISTENT", metric=metric, value=quantity(cell, kind, line=row.number),
                persistent=True, component=component, observed_at=observed_at, page=row.page))


def _timestamp(date: str, time: str, line: int) -> str:
    match = re.fullmatch(r"(\d{2})/(\d{2})/(\d{4})", date)
    if not match or not re.fullmatch(r"\d{2}:\d{2}:\d{2}", time):
        raise ParseError(f"reading time {date} {time!r}", line,
                         expected="mm/dd/yyyy hh:mm:ss")
    month, day, year = match.groups()
    return f"{year}-{month}-{day}T{time}"


def _test_case_descriptions(lines: Sequence[Line]) -> dict[str, str]:
    """Each test case's description: the 'This test case ...' paragraph under its own
    heading ('## LATENCY' or '**CONNBURST**'), by test name."""
    found: dict[str, str] = {}
    for index, line in enumerate(lines):
        name = clean_text(line.text).strip("#* ")
        if not re.fullmatch(r"[A-Z]{3,}(?:\.[A-Z]{3,})?", name) or name in found:
            continue
        following = [clean_text(l.text) for l in lines[index + 1:index + 6] if l.text.strip()]
        # (read as cleaned: an indented or doubly spaced "This  test case" is the same paragraph)
        if following and following[0].startswith("This test case"):
            found[name] = following[0]
    return found


def _scenario(name: str, description: str | None) -> Scenario:
    """Scenario facts from the test-case description: its first sentence."""
    summary = description.split(". ")[0].rstrip(".") + "." if description else None
    transport = next((t for prefix, t in _TRANSPORT.items() if name.startswith(prefix)), "MQTT")
    return Scenario(name, transport, None, "Benchmark test case", summary)


# Key results: each phrase, the test case and metric it is about, and how it compares.
# "average connection latency of less than 270 microseconds" has no table to check it
# against (the CONNBURST chart is not in the text), so it is not a claim here.
KEY_RESULTS = [
    (r"storing over (?P<v>[\d.]+[KM]?) messages per second to non-volatile media",
     "PERSISTENT", "msg_rate", "rate", "over"),
    (r"power efficiency of over (?P<v>[\d.]+[KM]?) messages per Watt",
     "PERSISTENT", "msgs_per_watt", "msgs_per_watt", "over"),
    (r"(?P<n>1M) MQTT v3\.1 devices can connect to the IBM MessageSight appliance in less than "
     r"(?P<v>[\d.]+) seconds", "CONNBURST", "connection_burst_s", "seconds", "under"),
    (r"process messages from over (?P<v>[\d.]+[KM]?) MQTT v3\.1 applications",
     "FANIN", "connections", "count", "over"),
    (r"publish over (?P<v>[\d.]+[KM]?) messages per second to large numbers of consumer",
     "FANOUT", "egress_msg_rate", "rate", "over"),
    (r"average latency of (?P<v>[\d.]+) microseconds at a rate of", "LATENCY", "latency_avg_us",
     "microseconds", "approx"),
    (r"forward over (?P<v>[\d.]+[KM]?) MQTT QoS 0 messages per second to a WMQ backend",
     "WMQPUBSUB", "msg_rate", "rate", "over"),
]


def claims(lines: Sequence[Line]) -> list:
    """The Key Results bullets, each checked later against the score card."""
    found = []
    for line in lines:
        text = clean_text(line.text)
        if not text.startswith("- "):
            continue
        for pattern, scenario, metric, kind, comparison in KEY_RESULTS:
            match = re.search(pattern, text)
            if match:
                found.append(Claim(line=line.number, text=match.group(0), metric=metric,
                                   value=quantity(match.group("v"), kind, line=line.number),
                                   scenario=scenario, product=PRODUCT, platform=PLATFORM,
                                   comparison=comparison, page=line.page))
    return found


# Statements beyond the key results' numbers: the test date against the dated readings, how
# long the readings ran, and which fan-out ratio gave the maximum rate. A window is checked
# only where the report prints readings for the test it speaks of ("Latency measurements are
# taken over a 5 minute period" has none to check).

def _date(match: re.Match) -> dict:
    return {"stated_date": iso_date(match.group("phrase"))}


def _minutes(match: re.Match) -> dict:
    minutes = str(number(match.group("minutes")))
    return {"value": Quantity(f"{match.group('minutes')} minute", minutes, "min")}


def _ratio_named(match: re.Match) -> dict:
    return {"concurrency_kind": "fanout_ratio", "concurrency": _ratio(match.group("ratio"), None)}


DATE_WORDINGS = [
    Wording(re.compile(r"Test date: (?P<phrase>[A-Z][a-z]+ \d{1,2}, \d{4})"), "date", "on",
            {"compared": "readings"}, _date),
]
# Said of the test a section is about (its heading: "## FANOUT.SEC", "## PERSISTENT.MPW").
TEST_WORDINGS = [
    Wording(re.compile(rf"measurements were taken over an? (?P<minutes>{COUNT}) minute period", re.I),
            "window", "approx", {"compared": "readings"}, _minutes),
    # "The maximum MQTT QoS 0 message rate was achieved with a fanout ratio of 1:10": the rate
    # out of the appliance (the rate a fan-out test delivers; the key results' "publish over
    # 15M messages per second" is FANOUT's egress rate).
    Wording(re.compile(r"The (?P<phrase>maximum [\w ]*message rate) was achieved with a fanout "
                       r"ratio of (?P<ratio>1:\d+)"), "best", "highest",
            {"metric": "egress_msg_rate", "compared": "configurations"}, _ratio_named),
]
_TEST_HEADING = re.compile(r"^[#*\s]*(?P<name>[A-Z]{3,}(?:\.[A-Z]{3,})?)[*\s]*$")


def statements(lines: Sequence[Line], observations: Sequence[Observation]) -> list[Claim]:
    """Dates, windows and superlatives of the prose, each with its sentence and line."""
    dated = {o.scenario for o in observations if o.observed_at}
    fixed = {"product": PRODUCT, "platform": PLATFORM}
    found: list[Claim] = []
    test = None
    for line in lines:
        text = clean_text(strip_tags(line.text))
        heading = _TEST_HEADING.match(text)
        if heading:
            test = _test_case_name(heading.group("name"))
            continue
        for sentence in sentences(text.replace("**", "")):
            found.extend(find(line, sentence, DATE_WORDINGS, **fixed))
            if test is None:
                continue
            for claim in find(line, sentence, TEST_WORDINGS, scenario=test, **fixed):
                if claim.kind != "window" or test in dated:
                    found.append(claim)
    return found
