"""Reading report files into `Line`s: the only file I/O of the ingest package."""
from __future__ import annotations

import codecs
import hashlib
import json
import os
from pathlib import Path

from .records import Line, ParseError


def text_lines(text: str) -> list[Line]:
    """Lines of a text report, numbered from 1.

    Splits on newline only: str.splitlines would also split on form feeds and
    Unicode line separators and shift every line number after them.
    """
    if text.endswith("\n"):
        text = text[:-1]
    return [Line(number, raw.rstrip("\r")) for number, raw in enumerate(text.split("\n"), 1)]


def read_text(path: Path) -> list[Line]:
    data = path.read_bytes()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ParseError("UTF-16 text (the file starts with a UTF-16 byte-order mark)", 1,
                         str(path), expected="a UTF-8 text report")
    if b"\x00" in data:  # before decoding: UTF-16 without a byte-order mark, or binary
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise ParseError("contains NUL bytes: not a UTF-8 text report (UTF-16 or binary?)", line,
                         str(path), expected="a UTF-8 text report")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ParseError(f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})",
                         line, str(path), expected="a UTF-8 text report") from None
    first = text.split("\n", 1)[0].rstrip("\r")
    if "\r" in first:  # one line holding the whole report: no family would know it
        raise ParseError("its lines end with a carriage return alone (old Mac line endings), so "
                         "the whole file reads as one line", 1, str(path),
                         expected="a text report with Windows (CR LF) or Unix (LF) line endings")
    return text_lines(text)


# Spreadsheet files people try first: a workbook is no text, and saying so beats "NUL bytes".
WORKBOOK_MAGIC = {b"PK\x03\x04": "a ZIP archive, as an Excel workbook (.xlsx) or an OpenDocument sheet is",
                  b"\xd0\xcf\x11\xe0": "an Excel 97-2003 workbook (.xls)"}


def read_lines(path: Path) -> list[Line]:
    """Lines of a report file: PDF through its text layer, anything else as UTF-8 text."""
    path = Path(path)
    with path.open("rb") as handle:
        magic = handle.read(5)
    if magic == b"%PDF-":
        return _pdf_lines_cached(path)
    refuse_workbook(magic, str(path))
    return read_text(path)


def refuse_workbook(head: bytes, file: str | None = None) -> None:
    """A spreadsheet's workbook (whatever its name says) is refused naming what it is."""
    for start, what in WORKBOOK_MAGIC.items():
        if head.startswith(start):
            raise ParseError(f"{what}, not text", 1, file,
                             expected="a CSV in the submission template (in Excel: Save As, "
                                      "'CSV UTF-8'), or a report's text or PDF")


# -- the lines of a PDF, read once per content --------------------------------------------
#
# Reading a PDF's text layer costs pdfplumber about 0.2 s a page (the MQ Appliance reports: 4 to
# 9 s each), a text report a few milliseconds, and raw files never change (sources.yml records
# their sha256). So the lines of a PDF are kept in a cache folder under the file's sha256 and
# the reader's own (a changed reader reads again), written whole or not at all; a cache that
# cannot be read or written is no cache. $PERFWH_CACHE names the folder ("off": none).
CACHE_ENV = "PERFWH_CACHE"


def _cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV)
    if value == "off":
        return None
    if value:
        return Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    return Path(base) / "perfwh" / "pdf-lines"


def _reader_digest() -> str:
    here = Path(__file__).parent
    code = b"".join((here / name).read_bytes() for name in ("pdf.py", "reader.py", "records.py"))
    return hashlib.sha256(code).hexdigest()[:16]


def _pdf_lines_cached(path: Path) -> list[Line]:
    from .pdf import pdf_lines  # pdfplumber is only imported for PDFs

    folder = _cache_dir()
    if folder is None:
        return pdf_lines(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    cached = folder / f"{digest}-{_reader_digest()}.json"
    try:
        return [Line(n, text, page) for n, text, page in json.loads(cached.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError):
        pass
    lines = pdf_lines(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staged = folder / f".{cached.name}.{os.getpid()}.tmp"
        staged.write_text(json.dumps([[x.number, x.text, x.page] for x in lines]), encoding="utf-8")
        os.replace(staged, cached)
    except OSError:
        pass
    return lines
