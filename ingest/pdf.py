"""Text-layer PDFs to `Line`s with pdfplumber: the same lines the text reports give.

Lines are numbered through the whole document (1-based) and keep their page.
pdfplumber's ``extract_tables`` misreads tables drawn without rules, which is most
of these reports, so the parsers read the text lines instead.

A text layer has no blank lines, but the parsers rely on them (a blank line ends a
table or a paragraph), so blank lines are put back from the layout: a vertical gap of n
line pitches (the spacing of running text, `_pitch`) between two lines is n - 1 blank
lines, measured on each page from the top margin (the highest first line of any page)
down to the bottom margin (the lowest last line of any page). Tabs and runs of spaces
come out as single spaces; the parsers read rows by whitespace tokens, never by tabs.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from .records import Line, ParseError

X_TOLERANCE = 1.5  # points: a wider gap between two characters is a space
Y_TOLERANCE = 3  # points: characters this close vertically are on one line


def _page_rows(page) -> list[tuple[float, str]]:
    """(top, text) of each text line of a page, top to bottom."""
    rows = page.extract_text_lines(layout=False, strip=True, return_chars=False,
                                   x_tolerance=X_TOLERANCE, y_tolerance=Y_TOLERANCE)
    return sorted(((row["top"], row["text"]) for row in rows if row["text"].strip()),
                  key=lambda row: row[0])


LONG_LINE = 20  # characters: a line of running text or a table row, not a chart's label


def _gaps(pages: list[list[tuple[float, str]]], long_only: bool) -> Counter:
    """How often each distance between the tops of consecutive lines occurs (to 0.1 pt)."""
    gaps = Counter(round(b[0] - a[0], 1) for rows in pages for a, b in zip(rows, rows[1:])
                   if not long_only or min(len(a[1]), len(b[1])) >= LONG_LINE)
    return Counter({gap: n for gap, n in gaps.items() if gap >= 1})


def _pitch(pages: list[list[tuple[float, str]]]) -> float | None:
    """One line of the layout: the distance between consecutive lines of running text.

    Measured between long lines only: a chart's axis labels and rotated titles, set a few
    points apart, would otherwise make the pitch a quarter of a text line and put blank lines
    between every two lines of a paragraph. The most common distance is the pitch, unless a
    common smaller one divides it (text with a blank line after most lines makes twice the
    pitch the most common)."""
    gaps = _gaps(pages, long_only=True) or _gaps(pages, long_only=False)
    if not gaps:
        return None
    common = [gap for gap, n in gaps.items() if n >= max(2, 0.02 * sum(gaps.values()))]
    most = max(gaps, key=lambda gap: (gaps[gap], -gap))
    divisors = [gap for gap in common
                if any(abs(gap * n - most) <= 0.03 * most for n in (2, 3, 4))]
    return min(divisors) if divisors else most


def _blanks(gap: float, pitch: float | None) -> int:
    """Blank lines in a vertical gap between two lines' tops (or a margin and a line)."""
    if pitch is None:
        return 0
    return max(0, round(gap / pitch) - 1)


def pdf_lines(path: Path) -> list[Line]:
    import pdfplumber

    try:
        with pdfplumber.open(path) as pdf:
            pages = [_page_rows(page) for page in pdf.pages]
    except Exception as err:  # pdfminer raises many types for damaged files
        raise ParseError(f"cannot read the PDF: {err}", None, str(path),
                         expected="a PDF with a text layer") from None
    if not any(pages):
        raise ParseError("the PDF has no text layer (scanned?)", 1, str(path),
                         expected="a PDF with a text layer")
    pitch = _pitch(pages)
    top_margin = min(rows[0][0] for rows in pages if rows)
    bottom_margin = max(rows[-1][0] for rows in pages if rows)
    last_page = max(number for number, rows in enumerate(pages, 1) if rows)
    lines: list[Line] = []

    def add(text: str, page: int) -> None:
        lines.append(Line(len(lines) + 1, text, page))

    for page_number, rows in enumerate(pages, 1):
        if page_number > last_page:
            break
        previous = top_margin - (pitch or 0)  # where a line above the first would be
        for top, text in rows:
            for _ in range(_blanks(top - previous, pitch)):
                add("", page_number)
            add(text, page_number)
            previous = top
        if page_number < last_page:  # a page ending in blank lines, or an empty page
            for _ in range(_blanks(bottom_margin + (pitch or 0) - previous, pitch)):
                add("", page_number)
    return lines
