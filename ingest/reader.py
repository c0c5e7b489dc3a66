"""Reading report files into `Line`s: the only file I/O of the ingest package."""
from __future__ import annotations

import codecs
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
    return text_lines(text)


def read_lines(path: Path) -> list[Line]:
    """Lines of a report file: PDF through its text layer, anything else as UTF-8 text."""
    path = Path(path)
    with path.open("rb") as handle:
        magic = handle.read(5)
    if magic == b"%PDF-":
        from .pdf import pdf_lines  # pdfplumber is only imported for PDFs
        return pdf_lines(path)
    return read_text(path)
