"""Every report has expected values (tests/expected_values/<family>.py), and every results table
an expected-values module prints lands exactly: each number on its row, with its appliance,
deployment, test, size, persistence and load, as the report prints it - in the parse and in the
warehouse. The tables are the modules' literals, copied from the reports, never from a parser.
"""
from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from ingest import families
from ingest.reader import read_lines
from ingest.text import clean_text
from ingest.units import UNITS, metric_quantity
from perfwh.core.paths import RAW_DIR, SOURCES_FILE
from perfwh.warehouse.sources import find_raw, load_manifest
from support import expected

# What a column of an MQ Appliance-style table holds: the metric, or None for the requester
# clients at the peak (the row's concurrency), and the unit its header implies.
COLUMNS = {"Max Rate*": ("msg_rate", ""), "CPU%": ("cpu_busy_pct", ""), "Clients": (None, ""),
           "Latency#": ("latency_rtt_ms", "ms"), "vs Direct": ("rate_vs_direct_pct", "%")}
# A column group's deployment as its header names it.
TOPOLOGY = {"": "standalone", "nonHA": "standalone", "nonDR": "standalone", "HA": "ha_group",
            "DR": "dr_pair", "HA and DR": "ha_dr"}
_ROW = re.compile(r"^(?P<test>.+?) \((?P<size>\S+) (?P<persistence>[^)]+)\) (?P<values>\S.*)$")

TABLES = [(source, key) for source, e in expected.expectations().items()
          for key in e.get("tables", {})]


def test_every_report_has_expected_values():
    """Each report of the manifest is named by its family's expected-values module, and each
    module names only reports of the manifest."""
    manifest = [s for s in load_manifest(SOURCES_FILE)
                if not s.is_csv and not s.retired_by and s.family in families.families()]
    assert sorted(expected.expectations()) == sorted(s.file for s in manifest)
    for family in {s.family for s in manifest}:
        named = set(expected.family_module(family).SOURCES)
        assert named <= {s.file for s in manifest if s.family == family}, family


@pytest.mark.parametrize("source", [s for s, e in expected.expectations().items() if "tables" in e])
def test_every_table_is_expected(source):
    tables = expected.reports()[source].parsed.tables
    assert sorted(t.table_key for t in tables) == sorted(expected.expectations()[source]["tables"])


def _lines(source: str) -> dict:
    """The report's lines as the build reads them (its own reader), by number."""
    return {line.number: line for line in read_lines(find_raw(RAW_DIR, source))}


def _spec(source: str, key: str) -> dict:
    return expected.expectations()[source]["tables"][key]


def _expected_numbers(spec: dict, row: str) -> list[tuple]:
    """The numbers of one printed row, each with the keys it must land with."""
    match = _ROW.match(row)
    test, values = match.group("test"), match.group("values").split()
    latency = re.search(r" (\d+)ms Latency$", test)
    scenario = test[:latency.start()] if latency else test
    qms = re.search(r"\b(\d+)QM\b", scenario)
    assert len(values) == len(spec["groups"]) * len(spec["columns"]), row
    out = []
    for n, group in enumerate(spec["groups"]):
        model, _, words = group.partition(" ")
        topology = TOPOLOGY[words]
        cells = dict(zip(spec["columns"], values[n * len(spec["columns"]):]))
        replicated = topology != "standalone"
        for column, printed in cells.items():
            metric, unit = COLUMNS[column]
            if metric is None:
                continue
            out.append((model.lower(), topology, scenario, match.group("size"),
                        match.group("persistence") == "Persistent",
                        cells.get("Clients"), int(qms.group(1)) if qms else 1,
                        (latency.group(1) if latency else "0") if replicated else None,
                        metric, printed, unit))
    return out


@pytest.mark.parametrize("source, key", TABLES, ids=[f"{s.split('.')[0]}:{k}" for s, k in TABLES])
def test_table_as_printed(source, key):
    """Title, page and rows of the table, and every number of each row with its keys."""
    spec = _spec(source, key)
    report = expected.reports()[source]
    [table] = [t for t in report.parsed.tables if t.table_key == key]
    assert (table.title, table.page) == (spec["title"], spec["page"])
    observations = [o for o in report.parsed.observations if o.table_key == key]
    lines = sorted({o.row_line for o in observations})
    text = _lines(source)
    assert [re.sub(r"\s+", " ", clean_text(text[n].text)) for n in lines] == spec["rows"]
    for n, row in zip(lines, spec["rows"]):
        got = sorted((o.platform, o.topology, o.scenario, o.message_size.printed, o.persistent,
                      o.concurrency.printed if o.concurrency else None, o.queue_managers,
                      o.simulated_latency_ms, o.metric, o.value.printed, o.value.unit)
                     for o in observations if o.row_line == n)
        assert got == sorted(_expected_numbers(spec, row)), f"line {n}: {row}"
        assert {o.page for o in observations if o.row_line == n} == {text[n].page}


def _canonical(metric: str, printed: str, unit: str) -> float:
    number = printed.replace(",", "").removesuffix(unit).strip()
    return float(Decimal(number) * Decimal(UNITS[metric_quantity(metric)][unit][1]))


@pytest.mark.parametrize("source", sorted({s for s, _k in TABLES}))
def test_every_number_lands_in_the_warehouse(wh, source):
    """Each table's numbers in metric_values: as printed, converted exactly, on their line."""
    got = sorted(wh.sql("""
        SELECT source_table, platform, topology, scenario, message_size_printed, persistent,
               concurrency_printed, queue_managers, simulated_latency_ms, metric, printed_value,
               value
        FROM metric_values WHERE source = ?""", params=[source]).fetchall(),
        key=lambda r: tuple(str(x) for x in r))
    labels = {p["label"].lower(): p["label"] for p in
              next(s for s in load_manifest(SOURCES_FILE) if s.file == source).platforms.values()}
    want = []
    for key, spec in expected.expectations()[source]["tables"].items():
        for row in spec["rows"]:
            for (platform, topology, scenario, size, persistent, clients, qms, latency, metric,
                 printed, unit) in _expected_numbers(spec, row):
                want.append((spec["title"], labels[platform], topology, scenario, size, persistent,
                             clients, qms, None if latency is None else float(latency), metric,
                             printed, _canonical(metric, printed, unit)))
    assert got == sorted(want, key=lambda r: tuple(str(x) for x in r))


def test_every_number_as_printed(wh):
    """A report's every number by line and metric, as printed - in the parse and the warehouse -
    for each family whose expected values list its numbers so (the toy's, under
    tests/fixtures/toy/: in a run without that family its report is parsed by its own parser
    alone)."""
    from fixtures.toy import expected_values as toy_expected
    from fixtures.toy import toy_family

    listed = {s: e["numbers"] for s, e in toy_expected.SOURCES.items()}
    listed.update({s: e["numbers"] for s, e in expected.expectations().items() if "numbers" in e})
    filed = {s for (s,) in wh.sql("SELECT source FROM dim_report").fetchall()}
    for source, want in listed.items():
        if source in expected.reports():
            parsed = expected.reports()[source].parsed.observations
        else:  # the fixture family, not added to this run
            toy = Path(toy_family.__file__).parent / source
            parsed = toy_family.parse(read_lines(toy)).observations
        assert {(o.row_line, o.metric): o.value.printed for o in parsed} == want
        assert len(parsed) == len(want)
        if source not in filed:
            continue
        got = wh.sql("SELECT source_line, metric, printed_value FROM metric_values WHERE source = ?",
                     params=[source]).fetchall()
        assert {(line, metric): printed for line, metric, printed in got} == want and len(got) == len(want)


@pytest.mark.parametrize("source", sorted(expected.expectations()))
def test_the_numbers_keep_their_line_and_page(source):
    """Every number's line prints it, on the page recorded (text reports have no pages)."""
    report = expected.reports()[source]
    text = _lines(source)
    for o in report.parsed.observations:
        line = text[o.row_line]
        assert o.page == line.page
        assert o.value.printed in clean_text(line.text), (o.row_line, o.value.printed)
