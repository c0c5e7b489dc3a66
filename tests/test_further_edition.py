"""A further edition of a report series lands with no code change: `perfwh add` files a new MQ
Appliance report - the layout of the M2002 report, a new appliance model (M2003A, M2003B)
measured against the last one (M2002A) at a new MQ version (9.3) - as the family's parser reads
it, with the products and platforms it names taken from the filed reports where they are
recorded and from its own hardware table where they are new.

The edition is made from the M2002 report's own lines (models and version renamed, the date
moved on) and written to a PDF the way the reports are published: a text layer read by the
build's own reader. Its numbers are the M2002 report's, so every one can be checked.
"""
from __future__ import annotations

import datetime as dt
import re

import duckdb
import pytest

from ingest.reader import read_lines
from ingest.records import Line
from perfwh.core.paths import PROJECT_ROOT, RAW_DIR
from perfwh.stages.add import add
from perfwh.warehouse.sources import find_raw, load_manifest
from support import expected
from support.pdfs import write_pdf
from support.sandbox import private_layers

M2002 = "mq-appliance-m2002-2018.pdf"
EDITION = "mq-appliance-m2003-2021.pdf"


def next_model(text: str) -> str:
    """The M2002 report's text as its successor would print it: each model one on (M2001 ->
    M2002, M2002 -> M2003), MQ 9.1 -> 9.3, October 2018 -> October 2021."""
    text = re.sub(r"\bM200([12])", lambda m: f"M200{int(m.group(1)) + 1}", text)
    return text.replace("MQ 9.1", "MQ 9.3").replace("October 2018", "October 2021")


@pytest.fixture
def filed(tmp_path, built_warehouse) -> dict:
    """The edition written as a PDF and filed with `perfwh add` into a copy of the warehouse
    and of data/raw."""
    box = private_layers(tmp_path, built_warehouse)
    raw, db = box["raw"], box["db"]
    edition = tmp_path / EDITION
    lines = [Line(line.number, next_model(line.text), line.page)
             for line in read_lines(find_raw(RAW_DIR, M2002))]
    write_pdf(lines, edition)
    result = add(edition, {}, warehouse=db, sources_file=raw / "sources.yml",
                 today=dt.date(2026, 11, 28))
    return {"raw": raw, "db": db, "result": result, "edition": edition}


def test_a_further_edition_is_filed_with_add(filed):
    assert filed["result"].rows == expected.measurements()[M2002]
    assert (filed["raw"] / "submissions" / EDITION).read_bytes() == filed["edition"].read_bytes()
    [entry] = [s.entry for s in load_manifest(filed["raw"] / "sources.yml") if s.file == EDITION]
    assert entry["family"] == "mqappliance"
    assert (entry["title"], entry["edition"], entry["published"]) == (
        "IBM MQ Appliance Performance Report", "Version 1.0 - October 2021", "2021-10")
    # a new MQ version and two new models: from the edition itself (its hardware table)
    assert entry["products"] == {"mq93": {"name": "IBM MQ Appliance", "short": "MQ Appliance",
                                          "version": "9.3", "fix_pack": None}}
    assert {k: (p["label"], p["cores"]) for k, p in entry["platforms"].items()} == {
        "m2002a": ("M2002A", 24), "m2003a": ("M2003A", 24), "m2003b": ("M2003B", 6)}
    # the model measured before keeps the facts its own report recorded
    m2002 = next(s for s in load_manifest(filed["raw"] / "sources.yml") if s.file == M2002)
    assert entry["platforms"]["m2002a"] == m2002.platforms["m2002a"]
    assert "borrowed from mq-appliance-m2002-2018.pdf (m2002a)" in entry["origin"]


def test_every_table_of_the_edition_lands(filed):
    """The edition's tables are the M2002 report's, number for number, under the new names."""
    con = duckdb.connect(str(filed["db"]), read_only=True)
    try:
        def numbers(source: str) -> list:
            return sorted(con.sql("""
                SELECT source_table, source_line, page, platform, product_version, topology,
                       scenario, message_size_bytes, persistent, concurrency, queue_managers,
                       simulated_latency_ms, metric, printed_value, value
                FROM metric_values WHERE source = ?""", params=[source]).fetchall(),
                key=lambda r: tuple(str(x) for x in r))

        new, old = numbers(EDITION), numbers(M2002)
        tables = con.sql("SELECT count(*) FROM dim_source_table JOIN dim_report USING (report_id) "
                         "WHERE source = ?", params=[EDITION]).fetchall()[0][0]
        errors = con.sql("SELECT count(*) FROM dq_findings WHERE source = ? AND severity = 'error'",
                         params=[EDITION]).fetchall()[0][0]
    finally:
        con.close()
    assert tables == len(expected.expectations()[M2002]["tables"])
    assert len(new) == len(old) == expected.parsed()[M2002][1]
    # the edition's pages are its own PDF's (its lines are the old report's, one PDF line each);
    # everything else is the old report's under the new names
    assert [r[:2] + r[3:] for r in new] == sorted(
        ((next_model(r[0]), r[1], next_model(r[3]), "9.3") + r[5:] for r in old),
        key=lambda r: tuple(str(x) for x in r))
    assert errors == 0


def test_the_readme_says_how():
    """The README's section on further editions names the command this test runs."""
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Filing a further edition of a report"):].split("\n### ")[0]
    assert "perfwh add" in section and "no code change" in section
