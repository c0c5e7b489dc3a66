"""The PDF path: the original reports were PDFs, so `ingest.reader.read_lines` also reads a
text-layer PDF (pdfplumber) into numbered lines with their page.

Each raw report's lines (a text report's, or a PDF's as the reader gives them) are written to
a PDF with fpdf2, a real PDF writer: one line per PDF line in DejaVu Sans Mono (it has μ, “”,
™ and the reports' other characters; the few it lacks - a Word bullet of the Symbol font - are
written as '?' on both sides of the comparison), tabs as spaces, a page break every 60 lines.
The same rows must come out of that PDF as out of the raw file, and each number's recorded
line and page must point at a PDF line that prints it.
"""
from __future__ import annotations

import re
import shutil
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from ingest import families
from ingest.reader import read_lines
from ingest.records import Line
from ingest.units import UNITS, metric_quantity
from perfwh.core.paths import RAW_DIR, SOURCES_FILE
from perfwh.warehouse.sources import find_raw, load_manifest, sha256_of
from support.pdfs import FONT, LINES_PER_PAGE, printable, write_pdf
from support.shared import once

SOURCES = {s.family: s.file for s in load_manifest(SOURCES_FILE)}
FAMILIES = list(families.families())  # the registry: every report family


@pytest.fixture(scope="session")
def pdfs(tmp_path_factory) -> dict[str, tuple[Path, list, object, list, object]]:
    """family -> (pdf path, PDF lines, PDF parse, text lines, text parse), made once per run."""
    assert FONT.is_file()

    def make(directory: Path) -> dict:
        out = {}
        for family in FAMILIES:
            source = SOURCES[family]
            raw = find_raw(RAW_DIR, source)
            path = directory / (Path(source).stem + ".pdf")
            text = [Line(line.number, printable(line.text), line.page) for line in read_lines(raw)]
            write_pdf(text, path)
            lines = read_lines(path)
            out[family] = (path, lines, families.parse(family, lines, source), text,
                           families.parse(family, text, source))
        return out

    return once(tmp_path_factory, "pdf", make)


def canonical(o) -> Decimal:
    """The value in the metric's canonical unit, from the one unit table."""
    factor = UNITS[metric_quantity(o.metric)][o.value.unit][1]
    return Decimal(o.value.number) * Decimal(factor)


def rows(parsed) -> Counter:
    """(table title, scenario, product, platform, size, configuration, metric, printed, value)."""
    titles = {t.table_key: t.title for t in parsed.tables}
    return Counter(
        (titles[o.table_key], o.scenario, o.product, o.platform,
         o.message_size.printed if o.message_size else None,
         (o.persistent, o.concurrency_kind, o.concurrency.printed if o.concurrency else None,
          o.replicas, o.tshirt, o.component, o.observed_at),
         o.metric, o.value.printed, canonical(o))
        for o in parsed.observations)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("family", FAMILIES)
def test_the_same_rows_come_out_of_the_pdf(pdfs, family):
    _, _, from_pdf, _, from_text = pdfs[family]
    assert len(from_pdf.observations) == len(from_text.observations) > 0
    assert rows(from_pdf) == rows(from_text)
    assert [t.title for t in from_pdf.tables] == [t.title for t in from_text.tables]
    assert from_pdf.header_variants == [(line, printed, canonical) for line, printed, canonical
                                        in from_text.header_variants]


@pytest.mark.parametrize("family", FAMILIES)
def test_pages_are_recorded(pdfs, family):
    _, lines, parsed, text, _ = pdfs[family]
    pages = [line.page for line in lines]
    assert max(pages) == (len(text) - 1) // LINES_PER_PAGE + 1  # > 1 for all but a page's worth
    assert pages == sorted(pages)  # numbered through the document, page by page
    assert [line.number for line in lines] == list(range(1, len(lines) + 1))
    assert all(o.page is not None for o in parsed.observations)
    assert all(t.page is not None for t in parsed.tables)
    # the numbers of a report of several pages are on more than one
    assert len({o.page for o in parsed.observations}) > 1 or max(pages) == 1


@pytest.mark.parametrize("family", FAMILIES)
def test_line_and_page_point_at_the_printed_value(pdfs, family):
    _, lines, parsed, _, _ = pdfs[family]
    for o in parsed.observations:
        line = lines[o.row_line - 1]
        assert line.number == o.row_line
        assert line.page == o.page
        assert o.value.printed in line.text, (o.row_line, o.value.printed, line.text)


@pytest.mark.parametrize("family", FAMILIES)
def test_blank_lines_come_back_from_the_layout(pdfs, family):
    """The text layer has no blank lines; they are restored from the gaps, so the PDF's
    lines are the text's lines (whitespace aside), number for number."""
    _, lines, _, text, _ = pdfs[family]
    assert len(lines) == len(text)
    assert [squash(line.text) for line in lines] == [squash(line.text) for line in text]
    assert sum(1 for line in lines if not line.text) == sum(1 for line in text if not line.text.strip()) > 0


def test_unicode_survives_the_pdf(pdfs):
    lines = pdfs["ace11"][1]
    assert "2k 1 1998.06/s 476.71 μs 2761.20/s 363.13 μs" in [line.text for line in lines]
    ms = " ".join(line.text for line in pdfs["messagesight"][1])
    assert "MessageSight™" in ms and "IBM®" in ms
    # mojibake survives too (the clean-up of labels happens in the parsers, as for text)
    assert any(line.text.startswith("RESTful API –¬†") for line in pdfs["iib10"][1])


def test_read_lines_detects_a_pdf_by_its_magic_bytes(pdfs, tmp_path):
    """The file name does not matter: a PDF called .txt is read as a PDF, a text called .pdf
    as text."""
    pdf, lines, _, text, _ = pdfs["iib10"]
    disguised = tmp_path / "iib10-xlinux.txt"
    shutil.copyfile(pdf, disguised)
    assert read_lines(disguised) == lines
    assert disguised.read_bytes().startswith(b"%PDF-")
    plain = tmp_path / "report.pdf"
    shutil.copyfile(RAW_DIR / "reports" / SOURCES["iib10"], plain)
    assert read_lines(plain) == text
    assert all(line.page is None for line in text)


def test_a_pdf_without_a_text_layer_is_a_clear_error(tmp_path):
    from fpdf import FPDF

    from ingest.records import ParseError

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(10, 10, 50, 50)  # a drawing, no text
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    with pytest.raises(ParseError, match="no text layer"):
        read_lines(path)


def test_build_accepts_a_pdf_in_the_raw_layer(pdfs, raw_copy, tmp_path):
    """A raw report replaced by its PDF (same name, new sha256 recorded) builds the same
    numbers, now with pages."""
    import duckdb

    from perfwh.stages.build import build

    pdf = pdfs["iib10"][0]
    target = raw_copy / "reports" / SOURCES["iib10"]
    shutil.copyfile(pdf, target)
    manifest = raw_copy / "sources.yml"
    text = manifest.read_text(encoding="utf-8")
    old = sha256_of(RAW_DIR / "reports" / SOURCES["iib10"])
    manifest.write_text(text.replace(old, sha256_of(target)), encoding="utf-8")
    out = tmp_path / "warehouse.duckdb"
    build(out=out, raw_dir=raw_copy, sources_file=manifest, rules="none", parquet=False,
          progress=False)
    con = duckdb.connect(str(out), read_only=True)
    try:
        got = con.sql("SELECT count(*), count(page), min(page), max(page) FROM metric_values "
                      "WHERE source = 'iib10-xlinux.txt'").fetchall()
        assert got == [(261, 261, 1, 3)]
        cell = con.sql("SELECT source_line, page, printed_value, value FROM metric_values WHERE "
                       "source = 'iib10-xlinux.txt' AND message_size_printed = '1384B' "
                       "AND metric = 'msg_rate'").fetchall()
        assert cell == [(136, 3, "1362.3", 1362.3)]
    finally:
        con.close()
