"""Text perfwh prints as it is shown, never as something that acts.

What a command prints comes partly from files and warehouses (names, file names, cells): a
character that acts instead of showing there (an escape starting a terminal's colour or cursor
codes, a direction override, a zero-width space, a line separator) would act on the terminal
or the page. Each is printed as its \\u escape, which JSON reads back as the same character (a
character beyond the 16-bit plane as its surrogate pair, as JSON writes it).
"""
from __future__ import annotations

import re
import unicodedata

# The Unicode categories of characters that act instead of showing (controls such as escape and
# line breaks, format characters such as direction overrides and zero-width spaces, the line
# and paragraph separators): no name holds one, and no command prints one as it is.
ACTING_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")

# ... and the surrogates a file name that is not valid UTF-8 decodes to (os.fsdecode), which no
# stream can encode
_ESCAPED = frozenset(ACTING_CATEGORIES) | {"Cs"}
# Everything but printable ASCII and the line breaks, tabs and carriage returns of the text's
# own layout is looked at (what is not printable ASCII is rare in perfwh's output)
_CANDIDATE = re.compile(r"[^\x20-\x7e\n\t\r]")
_LAYOUT = re.compile(r"[\n\r\t]")
_LAYOUT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _shown(match: re.Match) -> str:
    char = match.group()
    return _escape(char) if unicodedata.category(char) in _ESCAPED else char


def printable(text: str) -> str:
    """``text`` with every character that acts escaped; its line breaks and tabs kept."""
    return _CANDIDATE.sub(_shown, text)


def one_line(text: str) -> str:
    """``text`` as one printed line: `printable`, with its line breaks and tabs as \\n, \\r, \\t
    too (a file's name or a cell cannot start another line that looks like perfwh's own)."""
    return _LAYOUT.sub(lambda m: _LAYOUT_ESCAPES[m.group()], printable(text))


class OneLineMessage(Exception):
    """An error whose message prints as one line however it was put together: the file name,
    cell or name it quotes may hold a line break (a file may be called "a\\nb.csv"), which would
    otherwise start a line that looks like perfwh's own. Put first among an error's bases."""

    def __str__(self) -> str:
        return one_line(super().__str__())
