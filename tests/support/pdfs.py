"""Writing lines to a real PDF (fpdf2), for the tests of the PDF road: one line per PDF line in
DejaVu Sans Mono (it has μ, “”, ™ and the reports' other characters; the few it lacks - a
Word bullet of the Symbol font - are written as '?'), tabs as spaces, a page break every
LINES_PER_PAGE lines."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
LINES_PER_PAGE = 60
FONT_SIZE = 6.0  # points; a character of the mono font is 0.6 em wide


@lru_cache(maxsize=None)
def _glyphs() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(str(FONT)).getBestCmap())


def printable(text: str) -> str:
    """``text`` as the test font can print it: a character it has no glyph for is '?'."""
    glyphs = _glyphs()
    return "".join(c if ord(c) in glyphs or c in "\t\n" else "?" for c in text)


def write_pdf(raw_lines: list, out: Path) -> None:
    """One of ``raw_lines`` (`ingest.records.Line`s) per PDF line, on pages wide enough for the
    longest line."""
    from fpdf import FPDF

    lines = [printable(line.text.replace("\t", " ")) for line in raw_lines]
    pitch = FONT_SIZE * 1.25
    pdf = FPDF(unit="pt", format=(max(map(len, lines)) * FONT_SIZE * 0.6 + 72,
                                  LINES_PER_PAGE * pitch + 72))
    pdf.set_auto_page_break(False)
    pdf.add_font("mono", fname=str(FONT))
    pdf.set_font("mono", size=FONT_SIZE)
    for index, line in enumerate(lines):
        if index % LINES_PER_PAGE == 0:
            pdf.add_page()
        if line.strip():
            pdf.text(36, 36 + (index % LINES_PER_PAGE) * pitch + FONT_SIZE, line)
    pdf.output(str(out))
