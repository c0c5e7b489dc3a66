"""CSV cells a spreadsheet would run: the one definition every CSV perfwh writes goes through.

Names come from submissions, and a spreadsheet that opens a CSV runs a text cell beginning
with = + - @ (or a tab or carriage return, which some strip before looking) as a formula -
`=HYPERLINK(...)`, `=cmd|' /C calc'!A0` (OWASP, "CSV injection"). Every CSV that perfwh
writes (`perfwh sql --csv`, the site's downloads, `perfwh template --rows-of`, the submission
template) therefore writes such a cell with a leading apostrophe, which spreadsheets show as
text; a number ("-5", "+1.5e3") is left as it is. The submission reader takes the apostrophe
off again (`UNMARK_SQL`), so that a CSV perfwh wrote reads back as the same names, and the rule
`spreadsheet_formula` warns when a submission brings such a name in.
"""
from __future__ import annotations

import csv
import re
from typing import Any

# What a spreadsheet takes for the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
MARK = "'"
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def formula_like(text: str) -> bool:
    """Whether a spreadsheet would take this text cell for a formula (a number it would not)."""
    return text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text)


def safe_cell(value: Any) -> Any:
    """A cell as perfwh writes it into a CSV: text a spreadsheet would run as a formula gets a
    leading apostrophe; numbers and everything else stay as they are."""
    if isinstance(value, str) and formula_like(value):
        return MARK + value
    return value


class _LineFeedEnds:
    """A text stream that writes csv.writer's records ending in \r\n as ending in \n. The writer
    quotes a cell holding a character of its line terminator: told \n, it would leave a lone \r
    in a cell bare, and a reader takes that for the end of a line (the cell "a\rb" read back as
    two rows). Told \r\n, it quotes both, and the file still ends its lines with \n."""

    def __init__(self, out):
        self._out = out

    def write(self, record: str):
        return self._out.write(record[:-2] + "\n" if record.endswith("\r\n") else record)


class SafeWriter:
    """csv.writer whose every cell goes through `safe_cell`; lines end with \n unless told
    otherwise, and a cell holding a line break of either kind is quoted."""

    def __init__(self, out, **kwargs):
        if "lineterminator" not in kwargs:
            out, kwargs["lineterminator"] = _LineFeedEnds(out), "\r\n"
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row) -> None:
        self._writer.writerow([safe_cell(v) for v in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out, **kwargs) -> SafeWriter:
    """The CSV writer of every CSV perfwh writes (``kwargs`` as for csv.writer)."""
    return SafeWriter(out, **kwargs)


# SQL taking the mark off a cell read from a CSV (``{}``: the cell): the reader's side of
# `safe_cell`, so that what perfwh wrote reads back as it was.
UNMARK_SQL = ("CASE WHEN starts_with({0}, '" + MARK * 2 + "') AND regexp_matches({0}, '^"
              + MARK * 2 + "[=+@\\t\\r-]') THEN substr({0}, 2) ELSE {0} END")
