"""IBM MQ Appliance performance reports (MQ Performance, IBM UK Laboratories, Hursley): one
report per appliance model - M2001 (2016), M2002 (2018), and the editions that follow them in
the same layout. Read from the PDFs as published (`ingest.pdf`).

Every results table is a request-responder test printed as peak rates, one row per message
size and persistence, with a group of columns per appliance or deployment:

    Test M2002A HA M2002A nonHA
    Max Rate* CPU% Clients Latency# Max Rate* CPU% Clients Latency#
    10Q Request Responder (256b Persistent) 74,050 68.25 500 0.7 94,738 85.39 280 0.4
    ...
    *Round trips/sec
    #Single thread round trip latency (ms)
    TABLE 8 - PEAK RATES FOR PERSISTENT MESSAGING

A group is an appliance model (M2001A, M2002B: the platform) with the deployment its queue
managers ran in: none or nonHA / nonDR (standalone), HA (an HA group), DR (replicated to a DR
appliance), HA and DR. Its columns are the peak rate in round trips per second (msg_rate: a
round trip is 2 puts and 2 gets), the appliance's CPU% at the peak, the requester clients at
which the peak was measured (the configuration's concurrency: the same test's peak at another
load, as a comparison table that stopped its sweep at 300 clients prints it, is another
measurement), the single-thread round-trip latency in ms and, for the simulated-latency tables,
the peak rate against the directly connected appliances' ("vs Direct", in percent).

The row's test name gives the scenario ("10Q Request Responder", "10Q 10QM Request Responder",
"10 Channel DQ Request Responder"), the queue managers ("10QM", else one) and the simulated
latency ("... 2ms Latency"): the delay inserted between replicating appliances (HA and DR
rows without it are the appliances connected directly, 0 ms; a standalone test has no
replication link). The parenthesis gives the message size and persistence.

A table is its caption ("TABLE 11 - PEAK RATES ... WITH 1, 5 AND 10MS SIMULATED LATENCY"),
printed below its last block: blocks without a caption of their own (Tables 11 and 14 print
three and four) belong to the next caption. Tables are found by their header's shape, never
by a page or line. The appliance's MQ version is the report's product ("The version of the
MQ Appliance as tested in this report is M2002A MQ 9.1"); every model of a report is measured
at it ("these comparisons are against M2001 at MQ 9.1"). The hardware table of an edition
that prints one ("Model M2001A M2002A M2002B / CPU 2x10 Core HT ...") gives the facts a
further edition's platforms are filed with (`ParsedReport.facts`).

The prose's ratios - "approximately 3 times the throughput of the M2002B appliance", "more
than 60% performance improvement when using the 2K message size", "only 15% less than ...
non HA Queue Managers", "a ~80% reduction in performance" - are read as claims about the
results table that follows them: its first group against its second (or, for the simulated
latency, against the direct connection), at the size the sentence or the figure above names.
The charts' axis labels and legends are drawings, not tables: never read.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .common import ensure_tables, require_signature
from .prose import sentences
from .records import (Claim, Line, Observation, ParsedReport, ParseError, Quantity, Scenario,
                      SourceTable)
from .text import clean_text
from .units import quantity

FAMILY = "mqappliance"
SIGNATURE = (r"^IBM MQ Appliance Performance Report$",)
DESCRIPTION = "an IBM MQ Appliance performance report (IBM MQ Performance, Hursley)"
# The questions after the last results table: a file without them is truncated.
END = (r"^\d+ Frequently Asked Questions$", "the Frequently Asked Questions section")
# A line shaped like a results row (a test, its size and persistence, three numbers or more)
# must be read by a table.
ROW_SHAPE = (r"\(\d+(?:b|B|KB|kB|K|MB)\s+(?:Non-?\s?)?[Pp]ersistent\)(?:\s+[\d,.]+%?){3,}$")

MODEL = r"M\d{4}[A-Z]"
_HEADER = re.compile(rf"^Test\s+({MODEL}.*)$")
_GROUP = re.compile(rf"({MODEL})(?:\s+(HA and DR|HA|DR|nonHA|nonDR))?(?=\s+{MODEL}|$)")
# A group's deployment as its header names it.
TOPOLOGY_WORDS = {None: "standalone", "nonHA": "standalone", "nonDR": "standalone",
                  "HA": "ha_group", "DR": "dr_pair", "HA and DR": "ha_dr"}
# column header -> (metric or None for the concurrency, quantity kind, unit the header implies)
COLUMNS = {"Max Rate*": ("msg_rate", "rate", ""), "CPU%": ("cpu_busy_pct", "percent", ""),
           "Clients": (None, "count", ""), "Latency#": ("latency_rtt_ms", "milliseconds", "ms"),
           "vs Direct": ("rate_vs_direct_pct", "percent", "")}
_COLUMN = re.compile("|".join(re.escape(c) for c in COLUMNS))
# The footnotes that say what the starred columns are.
FOOTNOTES = {"Max Rate*": r"^\*Round trips/sec$",
             "Latency#": r"^#Single thread round trip latency \(ms\)$"}
_ROW = re.compile(r"^(?P<test>.+?)\s*\((?P<size>\d+(?:b|B|KB|kB|K|MB))\s+"
                  r"(?P<persistence>Non-?\s?[Pp]ersistent|[Pp]ersistent)\)\s+(?P<values>\S.*)$")
_LATENCY = re.compile(r"\s+(?P<ms>\d+(?:\.\d+)?)ms Latency$")
_QUEUE_MANAGERS = re.compile(r"\b(\d+)QM\b")
_CAPTION = re.compile(r"^TABLE\s+(?P<n>\d+)\s*[-–]\s*(?P<what>\S.*)$")
_FIGURE = re.compile(r"^FIGURE\s+\d+\s*[-–]\s*PERFORMANCE RESULTS FOR (?P<size>\d+KB?)\b")
_VERSION = re.compile(rf"The version of the MQ Appliance as tested in this report is "
                      rf"(?P<model>{MODEL})\s+(?P<version>MQ\s+\d+(?:\.\d+)*|FP\d+)")
_EDITION = re.compile(r"^Version (?P<edition>[\d.]+) - (?P<month>[A-Z][a-z]+) (?P<year>\d{4})$")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")

CLIENT_CHANNELS = "MQ client channels"
DISTRIBUTED_QUEUEING = "MQ client channels, server channels to a remote queue manager"


@dataclass
class Group:
    """A column group of a results table: an appliance and its deployment."""
    model: str
    topology: str
    columns: list[str] = field(default_factory=list)


@dataclass
class Block:
    """One printed block of a results table: its header line and groups; its rows are read
    into observations when the block's caption is known."""
    header: Line
    groups: list[Group]
    rows: list[Line]
    footnotes: tuple[str, ...] = ()  # as printed under the rows ("*Round trips/sec")


def parse(lines: Sequence[Line]) -> ParsedReport:
    require_signature(lines, FAMILY, SIGNATURE, DESCRIPTION)
    report = ParsedReport(family=FAMILY)
    product = _product_key(lines)
    pending: list[Block] = []
    index = 0
    while index < len(lines):
        text = clean_text(lines[index].text)
        if _HEADER.match(text) and _is_results_header(lines, index):
            block, index = _block(lines, index)
            pending.append(block)
            continue
        caption = _CAPTION.match(text)
        if caption:
            _require_next_caption(lines[index], int(caption.group("n")), len(report.tables), pending)
            _table(lines[index], caption, pending, product, report)
            pending = []
        index += 1
    if pending:
        raise ParseError("a results table without its caption", pending[0].header.number,
                         expected="a 'TABLE n - ...' caption after the table")
    ensure_tables(report, DESCRIPTION, lines[0].number)
    report.scenarios.extend(_scenario(name) for name in
                            sorted({o.scenario for o in report.observations}))
    report.claims.extend(claims(lines, report))
    report.facts = facts(lines, product, report)
    return report


def _require_next_caption(line: Line, number: int, before: int, pending: list) -> None:
    """The reports number their tables 1, 2, 3 ... in print order, each caption under its rows: a
    number skipped is a table lost (a page left out of the file), a caption with no rows above
    it a table whose rows are."""
    if number != before + 1:
        raise ParseError(f"TABLE {number} follows " + (f"TABLE {before}" if before else "no table")
                         + (f": TABLE {before + 1} is missing (a page of the report left out?)"
                            if number > before + 1 else ": the tables are out of order"), line.number,
                         expected=f"TABLE {before + 1}, the tables numbered one after another from 1")
    if not pending:
        raise ParseError(f"TABLE {number} has no results rows above its caption (a page of the report "
                         "left out?)", line.number,
                         expected="a results table ('Test ...' with its 'Max Rate*' columns) above the caption")


# -- results tables --------------------------------------------------------------------------

def _is_results_header(lines: Sequence[Line], index: int) -> bool:
    """A 'Test M...' line whose next line holds column headers (the prose never does)."""
    following = _next_text(lines, index)
    return following is not None and clean_text(lines[following].text).startswith("Max Rate")


def _next_text(lines: Sequence[Line], index: int) -> int | None:
    for i in range(index + 1, len(lines)):
        if lines[i].text.strip():
            return i
    return None


def _groups(header: Line) -> list[Group]:
    text = _HEADER.match(clean_text(header.text)).group(1)
    groups, at = [], 0
    for match in _GROUP.finditer(text):
        if text[at:match.start()].strip():
            break
        groups.append(Group(match.group(1), TOPOLOGY_WORDS[match.group(2)]))
        at = match.end()
    if not groups or text[at:].strip():
        raise ParseError(f"cannot read the table's column groups from {text!r}", header.number,
                         expected="appliance models, each optionally followed by HA, DR, "
                                  "HA and DR, nonHA or nonDR")
    return groups


def _columns(line: Line, groups: list[Group]) -> None:
    """The second header line: each group's columns, each group starting with 'Max Rate*'."""
    text = clean_text(line.text)
    found = [(m.start(), m.end(), m.group(0)) for m in _COLUMN.finditer(text)]
    covered = "".join(text[at:start] for at, (start, _end, _c) in
                      zip([0] + [end for _s, end, _c in found], found)) + text[found[-1][1]:] \
        if found else text
    if not found or covered.strip():
        raise ParseError(f"unknown column header in {text!r}", line.number,
                         expected="columns " + ", ".join(COLUMNS))
    parts: list[list[str]] = []
    for _start, _end, column in found:
        if column == "Max Rate*":
            parts.append([])
        if not parts:
            raise ParseError(f"a group of columns that does not start with 'Max Rate*': {text!r}",
                             line.number, expected="Max Rate* first in each group")
        parts[-1].append(column)
    if len(parts) != len(groups):
        raise ParseError(f"{len(parts)} groups of columns under {len(groups)} column groups",
                         line.number, expected="one 'Max Rate* CPU% Clients ...' per group")
    for group, columns in zip(groups, parts):
        group.columns = columns


def _block(lines: Sequence[Line], index: int) -> tuple[Block, int]:
    """The block whose header is at ``index``: its rows up to the footnotes; returns it and
    the index after it."""
    header = lines[index]
    groups = _groups(header)
    sub = _next_text(lines, index)
    _columns(lines[sub], groups)
    rows: list[Line] = []
    i = sub + 1
    notes: set[str] = set()
    printed: list[str] = []
    while i < len(lines):
        text = clean_text(lines[i].text)
        if not text:
            i += 1
            continue
        note = next((c for c, pattern in FOOTNOTES.items() if re.match(pattern, text)), None)
        if note:
            notes.add(note)
            printed.append(text)
            i += 1
            continue
        if notes or not _ROW.match(text):
            break
        rows.append(lines[i])
        i += 1
    if not rows:
        raise ParseError("a results table without rows", header.number,
                         expected="rows '<test> (<size> <persistence>) <numbers>' under its header")
    starred = {c for g in groups for c in g.columns if c in FOOTNOTES}
    if starred - notes:
        missing = sorted(starred - notes)[0]
        if not notes and i < len(lines):  # the rows stopped at a line that is neither
            raise ParseError(f"{clean_text(lines[i].text)!r} interrupts the table's rows before its "
                             "footnotes (a page number or header inside the table?)", lines[i].number,
                             expected=f"rows, then the footnote {_footnote(missing)!r} under them")
        raise ParseError(f"the table's {missing!r} column has no footnote", rows[-1].number,
                         expected=f"the footnote {_footnote(missing)!r} under the rows")
    return Block(header, groups, rows, tuple(printed)), i


def _footnote(column: str) -> str:
    """The footnote a starred column needs, as printed (its pattern without anchors and escapes)."""
    return re.sub(r"\\(.)", r"\1", FOOTNOTES[column][1:-1])


def _table(caption_line: Line, caption: re.Match, blocks: list[Block], product: str,
           report: ParsedReport) -> None:
    key = f"Table {caption.group('n')}"
    if any(t.table_key == key for t in report.tables):
        raise ParseError(f"{key} is captioned twice", caption_line.number,
                         expected="each table number once")
    first = blocks[0].header
    # the footnotes say what the starred columns count (Max Rate*: round trips, not messages)
    said = ([f"{len(blocks)} blocks, one caption"] if len(blocks) > 1 else []) + [
        f"footnote: {text}" for text in dict.fromkeys(t for b in blocks for t in b.footnotes)]
    report.tables.append(SourceTable(key, clean_text(caption_line.text), first.number,
                                     "throughput", first.page, note="; ".join(said) or None))
    for block in blocks:
        for row in block.rows:
            _row(row, block.groups, key, product, report)


def _row(line: Line, groups: list[Group], key: str, product: str, report: ParsedReport) -> None:
    match = _ROW.match(clean_text(line.text))
    values = match.group("values").split()
    columns = [(n, column) for n, group in enumerate(groups) for column in group.columns]
    if len(values) != len(columns):
        raise ParseError(f"the row has {len(values)} numbers", line.number,
                         expected=f"{len(columns)}: " + "; ".join(
                             f"{g.model} {' '.join(g.columns)}" for g in groups))
    test = match.group("test")
    latency = _LATENCY.search(test)
    scenario = test[:latency.start()] if latency else test
    qms = _QUEUE_MANAGERS.search(scenario)
    size = quantity(match.group("size"), "size", line=line.number)
    persistent = not match.group("persistence").lower().startswith("non")
    cells = dict(zip(columns, values))
    for n, group in enumerate(groups):
        clients = cells[(n, "Clients")] if "Clients" in group.columns else None
        replicated = group.topology != "standalone"
        for column in group.columns:
            metric, kind, unit = COLUMNS[column]
            if metric is None:
                continue
            report.observations.append(Observation(
                table_key=key, row_line=line.number, product=product,
                platform=group.model.lower(), scenario=scenario, metric=metric,
                value=quantity(cells[(n, column)], kind, unit, line.number),
                message_size=size, persistent=persistent,
                concurrency_kind="requester_clients" if clients else None,
                concurrency=quantity(clients, "count", line=line.number) if clients else None,
                topology=group.topology, queue_managers=int(qms.group(1)) if qms else 1,
                simulated_latency_ms=(latency.group("ms") if latency else "0") if replicated
                else None,
                page=line.page))
        if latency and not replicated:
            raise ParseError(f"a simulated latency for the standalone {group.model}",
                             line.number, expected="simulated latency only between replicating "
                                                   "appliances (HA, DR)")


def _scenario(name: str) -> Scenario:
    qms = _QUEUE_MANAGERS.search(name)
    count = int(qms.group(1)) if qms else 1
    where = f"{count} queue manager{'s' if count > 1 else ''} on the appliance"
    if "DQ" in name.split():
        return Scenario(name, transport=DISTRIBUTED_QUEUEING, description=(
            "Request Responder over distributed queueing: requester clients put to remote queues "
            f"of {where}, whose sender and receiver channels carry the messages to a queue "
            "manager on another host, where locally bound responders reply; a round trip is 2 "
            "puts and 2 gets"))
    return Scenario(name, transport=CLIENT_CHANNELS, description=(
        f"Request Responder: requester clients put to one of 10 request queues of {where} and "
        "wait for the reply a responder puts on the matching reply queue; a round trip is 2 "
        "puts and 2 gets"))


# -- the report's products and platforms ----------------------------------------------------

def _product_key(lines: Sequence[Line]) -> str:
    """The report's MQ version as sources.yml keys it: 'MQ 9.1' -> mq91, 'FP5' -> mqfp5."""
    version = _version(lines)
    return "mq" + re.sub(r"[^0-9a-z]", "", version.lower().removeprefix("mq"))


def _version(lines: Sequence[Line]) -> str:
    for _line, paragraph in paragraphs(lines):
        match = _VERSION.search(paragraph)
        if match:
            return re.sub(r"\s+", " ", match.group("version"))
    raise ParseError("the report does not say which MQ version the appliance ran",
                     lines[0].number, expected="'The version of the MQ Appliance as tested in "
                                               "this report is <model> <version>'")


def facts(lines: Sequence[Line], product: str, report: ParsedReport) -> dict:
    """The title, edition, product and platforms as this edition prints them (sources.yml's
    fields), for filing a further edition (`ParsedReport.facts`)."""
    version = _version(lines)
    out: dict = {"title": "IBM MQ Appliance Performance Report"}
    for line in lines:
        match = _EDITION.match(clean_text(line.text))
        if match:
            out["edition"] = f"Version {match.group('edition')} - {match.group('month')} " \
                             f"{match.group('year')}"
            if match.group("month") in MONTHS:
                out["published"] = f"{match.group('year')}-{MONTHS.index(match.group('month')) + 1:02d}"
            break
    out["products"] = {product: {"name": "IBM MQ Appliance", "short": "MQ Appliance",
                                 "version": version.removeprefix("MQ "), "fix_pack": None}}
    hardware = _hardware(lines)
    models = sorted({o.platform for o in report.observations})
    out["platforms"] = {key: {"label": key.upper(), "os": f"MQ Appliance firmware, {version}",
                              "deployment": "appliance", **hardware.get(key.upper(), {
                                  "hardware": f"IBM MQ Appliance {key.upper()}", "cpu_model": None,
                                  "cores": None, "memory": None})}
                        for key in models}
    return out


def _hardware(lines: Sequence[Line]) -> dict[str, dict]:
    """The hardware table ('Model M2001A M2002A M2002B', 'CPU 2x10 Core HT ...', 'RAM ...'),
    where the edition prints one: model -> platform facts."""
    rows: dict[str, str] = {}
    models: list[str] = []
    for line in lines:
        text = clean_text(line.text)
        if re.fullmatch(rf"Model(?:\s+{MODEL})+", text):
            models = text.split()[1:]
            rows = {}
            continue
        if models:
            word = text.split(" ", 1)[0] if text else ""
            if word in ("CPU", "RAM", "Storage", "Chipset") and word not in rows:
                rows[word] = text[len(word):].strip()
            if len(rows) == 4:
                break
    if not models or "CPU" not in rows:
        return {}
    cpus = re.findall(r"(\d+)x(\d+) Core( HT)?", rows["CPU"])
    rams = rows.get("RAM", "").split()
    storage = rows.get("Storage", "").split()
    chipsets = rows.get("Chipset", "").split()
    if len(cpus) != len(models):
        return {}
    out = {}
    for i, model in enumerate(models):
        sockets, cores, ht = cpus[i]
        ram = rams[i] if len(rams) == len(models) else None
        disk = storage[i] if len(storage) == len(models) else None
        chipset = chipsets[i] if len(chipsets) == len(models) else None
        out[model] = {
            "hardware": f"IBM MQ Appliance {model}" + (f", {disk} storage" if disk else ""),
            "cpu_model": f"{sockets}x{cores} Core{ht}" + (f" ({chipset})" if chipset else ""),
            "cores": int(sockets) * int(cores), "memory": ram}
    return out


# -- prose -----------------------------------------------------------------------------------

def paragraphs(lines: Sequence[Line]) -> list[tuple[list[Line], str]]:
    """Runs of consecutive lines with text, joined: (their lines, the joined text)."""
    out: list[tuple[list[Line], str]] = []
    run: list[Line] = []
    for line in list(lines) + [Line(0, "")]:
        if line.text.strip():
            run.append(line)
        elif run:
            out.append((run, " ".join(clean_text(x.text) for x in run)))
            run = []
    return out


def _line_at(run: list[Line], offset: int) -> Line:
    """The line of a paragraph that holds character ``offset`` of its joined text."""
    at = 0
    for line in run:
        at += len(clean_text(line.text)) + 1
        if offset < at:
            return line
    return run[-1]


_QUALIFIER = {"approximately": "ratio_approx", "almost": "ratio_approx", "nearly": "ratio_approx",
              "over": "ratio_over", "more than": "ratio_over"}
_TIMES_WORDS = {"double": "2", "twice": "2"}
RATIO = re.compile(rf"(?P<num>{MODEL}) appliance can achieve "
                   r"(?P<q>approximately|almost|nearly|over|more than) (?P<x>[\d.]+ times|double|twice)"
                   rf" the (?:persistent )?throughput of the (?P<den>{MODEL}) appliance")
GAIN_TIMES = re.compile(r"(?P<q>more than|over) (?P<x>[\d.]+x) performance improvement when using "
                        r"the (?P<size>\d+K) message size")
GAIN_PCT = re.compile(r"(?P<q>more than|over) (?P<pct>\d+%) performance improvement when using "
                      r"the (?P<size>\d+K) message size")
GAIN_ABOVE = re.compile(r"For message sizes of (?P<size>\d+K) and above, there is an improvement of "
                        r"(?P<q>over|nearly|almost|approximately) (?P<x>[\d.]+) times")
LESS = re.compile(r"only (?P<pct>\d+%) less than")
REDUCED_UP_TO = re.compile(r"reduced by up to (?P<pct>\d+%)")
WITHIN = re.compile(r"within (?P<pct>\d+%) of the rate")
LATENCY_REDUCTION = re.compile(r"additional (?P<ms>\d+)ms latency .*? results in a ~(?P<pct>\d+%) "
                               r"reduction in performance")
RATE_APPROX = re.compile(r"\((?P<n>~\d{1,3}(?:,\d{3})*) (?:Round trips/sec|RT/sec) for (?P<size>\d+KB) "
                         r"message size\)")
RATE_OVER = re.compile(rf"peak messaging rate obtainable on the (?P<model>{MODEL}) is over "
                       r"(?P<n>\d{1,3}(?:,\d{3})*) Round trips/sec for (?P<size>\d+KB)")


@dataclass
class Context:
    """What a sentence of the prose speaks of: the results table after it, and the message size
    of the figure above it."""
    title: str
    rows: list[Observation]
    groups: list[tuple[str, str]]       # (platform key, topology) of each column group
    figure_size: str | None


def claims(lines: Sequence[Line], report: ParsedReport) -> list[Claim]:
    """The ratios and rates the prose states about the results table that follows it."""
    found: list[Claim] = []
    figure_size = None
    tables = sorted(report.tables, key=lambda t: t.heading_line)
    for run, text in paragraphs(lines):
        figure = _FIGURE.match(text)
        if figure:
            figure_size = figure.group("size")
            continue
        after = next((t for t in tables if t.heading_line > run[0].number), None)
        if after is None:
            break
        rows = [o for o in report.observations if o.table_key == after.table_key]
        context = Context(after.title, rows, _table_groups(rows), figure_size)
        searched = 0
        for sentence in sentences(text):
            offset = text.find(sentence, searched)
            searched = offset + len(sentence)
            found.extend(_sentence_claims(
                lambda at, run=run, offset=offset: _line_at(run, offset + at), sentence, context))
    return found


def _table_groups(rows: list[Observation]) -> list[tuple[str, str]]:
    """The table's column groups in print order: (platform, topology) of a row's numbers."""
    groups: list[tuple[str, str]] = []
    first = rows[0].row_line
    for o in rows:
        if o.row_line == first and (o.platform, o.topology) not in groups:
            groups.append((o.platform, o.topology))
    return groups


def _sentence_claims(line_of: Callable[[int], Line], sentence: str, context: Context) -> list[Claim]:
    """The claims of a sentence of the prose, each on the line its number is printed on
    (``line_of``: the line holding a character of the sentence; a sentence may wrap onto
    the next line before its number)."""
    out = []
    if (m := RATIO.search(sentence)) and [m.group("num").lower(), m.group("den").lower()] == \
            [platform for platform, _topology in context.groups]:
        line = line_of(m.start("x"))
        x = m.group("x").split()[0]
        out += _ratio(line, sentence, context, _QUALIFIER[m.group("q")],
                      Quantity(m.group("x"), _TIMES_WORDS.get(x, x), ""),
                      _size_of(sentence, context))
    if m := GAIN_TIMES.search(sentence):
        line = line_of(m.start("x"))
        out += _ratio(line, m.group(0), context, "ratio_over",
                      quantity(m.group("x"), "ratio", line=line.number), m.group("size") + "B")
    if m := GAIN_PCT.search(sentence):
        line = line_of(m.start("pct"))
        out += _ratio(line, m.group(0), context, "gain_over",
                      quantity(m.group("pct"), "percent", line=line.number), m.group("size") + "B")
    if m := GAIN_ABOVE.search(sentence):
        line = line_of(m.start("x"))
        sizes = sorted({o.message_size for o in context.rows},
                       key=lambda q: _bytes(q))
        for size in (s for s in sizes if _bytes(s) >= _bytes(quantity(m.group("size") + "B", "size"))):
            out += _ratio(line, m.group(0), context, _QUALIFIER[m.group("q")],
                          quantity(m.group("x"), "ratio", line=line.number), size.printed)
    for pattern, comparison in ((LESS, "reduction_approx"), (REDUCED_UP_TO, "reduction_at_most"),
                                (WITHIN, "reduction_at_most")):
        if m := pattern.search(sentence):
            line = line_of(m.start("pct"))
            out += _ratio(line, sentence, context, comparison,
                          quantity(m.group("pct"), "percent", line=line.number),
                          _size_of(sentence, context))
    if m := LATENCY_REDUCTION.search(sentence):
        line = line_of(m.start("pct"))
        out += _latency_ratio(line, sentence, context, m)
    if m := RATE_APPROX.search(sentence):
        line = line_of(m.start("n"))
        out += _rate(line, sentence, context, "approx", _rounded(m.group("n")), m.group("size"),
                     context.groups[0][0] if context.groups else None)
    if m := RATE_OVER.search(sentence):
        line = line_of(m.start("n"))
        out += _rate(line, sentence, context, "over",
                     quantity(m.group("n"), "rate", line=line.number), m.group("size"),
                     m.group("model").lower())
    return out


def _bytes(size: Quantity) -> float:
    from .units import UNITS
    return float(size.number) * float(UNITS["size"][size.unit][1])


def _rounded(printed: str) -> Quantity:
    """'~47,000': a round number, as precise as its last digit that is not a zero (47K)."""
    digits = printed.lstrip("~").replace(",", "")
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros >= 3:
        return Quantity(printed, digits[:-3], "K")
    return Quantity(printed, digits, "")


def _size_of(sentence: str, context: Context) -> str | None:
    """The message size the sentence names ('2K message size', 'a message size of 2KB',
    '2KB persistent'), else the size of the figure above it."""
    m = re.search(r"\b(\d+)KB?\b(?= message size| persistent)|message size of (\d+)KB?\b", sentence)
    printed = (m.group(1) or m.group(2)) if m else None
    if printed:
        return printed + "KB"
    return (context.figure_size.rstrip("B") + "B") if context.figure_size else None


def _table_side(context: Context, group: int) -> dict:
    rows = [o for o in context.rows if (o.platform, o.topology) == context.groups[group]]
    o = rows[0]
    return {"platform": o.platform, "topology": o.topology, "queue_managers": o.queue_managers,
            "simulated_latency_ms": o.simulated_latency_ms, "scenario": o.scenario,
            "persistent": o.persistent, "product": o.product, "scope": context.title}


def _ratio(line: Line, text: str, context: Context, comparison: str, value: Quantity,
           size: str | None) -> list[Claim]:
    """This table's first column group against its second, at ``size``."""
    if len(context.groups) != 2 or size is None:
        return []
    this, other = _table_side(context, 0), _table_side(context, 1)
    return [Claim(line=line.number, text=text.strip(), metric="msg_rate", value=value,
                  message_size=quantity(size, "size", line=line.number), comparison=comparison,
                  relative_platform=other["platform"], relative_topology=other["topology"],
                  page=line.page, **this)]


def _latency_ratio(line: Line, sentence: str, context: Context, m: re.Match) -> list[Claim]:
    """The rate with the stated simulated latency against the directly connected rate."""
    size = _size_of(sentence, context)
    if not context.groups or size is None:
        return []
    this = _table_side(context, 0)
    this["simulated_latency_ms"] = m.group("ms")
    percent = quantity(m.group("pct"), "percent", line=line.number)
    return [Claim(line=line.number, text=sentence.strip(), metric="msg_rate",
                  value=Quantity("~" + percent.printed, percent.number, percent.unit),
                  message_size=quantity(size, "size", line=line.number),
                  comparison="reduction_approx", relative_simulated_latency_ms="0",
                  page=line.page, **this)]


def _rate(line: Line, sentence: str, context: Context, comparison: str, value: Quantity,
          size: str, platform: str | None) -> list[Claim]:
    if not context.groups:
        return []
    side = next((_table_side(context, i) for i, (p, _t) in enumerate(context.groups)
                 if p == platform), None)
    if side is None:
        return []
    return [Claim(line=line.number, text=sentence.strip(), metric="msg_rate", value=value,
                  message_size=quantity(size, "size", line=line.number), comparison=comparison,
                  page=line.page, **side)]
