"""Helpers shared by the report parsers: header alias matching and family checks."""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence

from .records import Line, ParsedReport, ParseError
from .text import clean_text

log = logging.getLogger("perfwh.ingest")


def normalise_header(text: str) -> str:
    """Header text compared loosely: cleaned, lower case, single spaces, no spaces around '/'."""
    text = clean_text(text).lower()
    text = re.sub(r"\s*/\s*", "/", text)
    text = re.sub(r"\s*\(\s*", " (", text)
    return re.sub(r"\s+", " ", text).strip()


def _as_printed(text: str) -> str:
    """What counts as the same spelling: equal but for case and runs of white space."""
    return re.sub(r"\s+", " ", clean_text(text)).lower()


def note_variant(report: ParsedReport, line: int, printed: str, canonical: str) -> None:
    """Record and log a header spelled other than its canonical form."""
    report.header_variants.append((line, clean_text(printed), canonical))
    log.info("line %d: header variant %r read as %r", line, clean_text(printed), canonical)


class AliasMap:
    """Known spellings of one header, mapped to its canonical text.

    ``match`` returns the canonical header for a known spelling, and records a variant
    (any spelling other than the canonical one) on the report so the build can log it.
    """

    def __init__(self, canonical: str, *variants: str):
        self.canonical = canonical
        self._known = {normalise_header(canonical): canonical}
        for variant in variants:
            self._known[normalise_header(variant)] = canonical

    def match(self, text: str, line: int, report: ParsedReport) -> str | None:
        canonical = self._known.get(normalise_header(text))
        if canonical is not None and _as_printed(text) != _as_printed(canonical):
            note_variant(report, line, text, canonical)
        return canonical

    def prefix_of(self, text: str) -> str | None:
        """The longest known spelling that ``text`` starts with (compared loosely)."""
        norm = normalise_header(text)
        for spelling in sorted(self._known, key=len, reverse=True):
            if norm.startswith(spelling) and (len(norm) == len(spelling) or norm[len(spelling)] == " "):
                return spelling
        return None

    def __contains__(self, text: str) -> bool:
        return normalise_header(text) in self._known


def head(lines: Sequence[Line], within: int = 60) -> list[Line]:
    """The top of a report: its first ``within`` lines that hold text. (A PDF's cover page
    may open with dozens of blank lines restored from the layout.)"""
    return [line for line in lines if line.text.strip()][:within]


def require_signature(lines: Sequence[Line], family: str, patterns: Iterable[str],
                      description: str, within: int = 60) -> None:
    """Refuse a file of another family: one of ``patterns`` must occur near the top."""
    if not lines or all(not line.text.strip() for line in lines):
        raise ParseError("the file is empty", 1, expected=description)
    for line in head(lines, within):
        text = clean_text(line.text)
        if any(re.search(p, text) for p in patterns):
            return
    first = next((line for line in lines if line.text.strip()), lines[0])
    raise ParseError(f"this is not a {family!r} report: its opening lines do not name it "
                     f"(first line: {clean_text(first.text)[:80]!r})", first.number,
                     expected=description)


def next_nonblank(lines: Sequence[Line], index: int, step: int = 1) -> int | None:
    """Index of the next line (forward or backward) that is not blank."""
    i = index + step
    while 0 <= i < len(lines):
        if lines[i].text.strip():
            return i
        i += step
    return None


def table_rows(lines: Sequence[Line], start: int) -> list[Line]:
    """The lines of a table body: from ``start`` up to the first blank line."""
    rows = []
    for line in lines[start:]:
        if not line.text.strip():
            break
        rows.append(line)
    return rows


def ensure_tables(report: ParsedReport, source_hint: str, line: int) -> ParsedReport:
    """A report in which no results table was found is an error, never an empty success."""
    if not report.observations:
        raise ParseError(f"no results table found in {source_hint}", line,
                         expected="at least one results table")
    return report


def require_end(lines: Sequence[Line], end: tuple[str, str]) -> None:
    """Refuse a truncated report. ``end`` is (pattern, what): a line the report prints after
    its last results table. A file cut anywhere before it, even between two table rows
    (which leaves a shorter table that would otherwise parse), is an error."""
    pattern, what = end
    if any(re.search(pattern, clean_text(line.text)) for line in lines):
        return
    last = lines[-1] if lines else Line(1, "")
    raise ParseError(f"the file is truncated: it stops at line {last.number}", last.number,
                     expected=f"{what} after the last results table")


def require_rows_read(lines: Sequence[Line], report: ParsedReport, shape: str) -> None:
    """Refuse a table the parser could not see: a line shaped like a results-table row
    (``shape``, a pattern on the cleaned text) that no table read. A damaged or missing
    header, or a blank line splitting a table, would otherwise drop rows silently."""
    read = {o.row_line for o in report.observations}
    pattern = re.compile(shape)
    for line in lines:
        if line.number not in read and pattern.search(clean_text(line.text)):
            raise ParseError(f"a results-table row that no table read: "
                             f"{clean_text(line.text)[:60]!r}", line.number,
                             expected="each row under its table's header, with no blank line "
                                      "or other text between them")
