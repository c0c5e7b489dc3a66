"""Typography and mojibake clean-up for labels taken from report text.

Only labels (scenario names, headings) are cleaned; ``printed_value`` keeps every
cell exactly as printed.
"""
from __future__ import annotations

import functools
import re

# Mojibake seen in the web-page reports: UTF-8 no-break space read as Mac Roman
# ("¬†"), and the same glued to a dash. Order matters: longest first.
_REPLACEMENTS = [
    ("–¬†", "– "),
    ("¬†–", " –"),
    ("¬†", " "),
    ("\u00a0", " "),  # no-break space
    ("\u2002", " "), ("\u2003", " "), ("\u2009", " "), ("\u202f", " "),
    ("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'),
]
_TAGS = re.compile(r"</?[a-zA-Z][^>]*>")
_SPACES = re.compile(r"[ \t]+")


@functools.lru_cache(maxsize=1 << 16)  # the parsers clean each line several times
def clean_text(text: str) -> str:
    """Label text with mojibake, no-break spaces, curly quotes and HTML tags removed.

    Spelling drift in headers ("Persistance") is the alias maps' job (`ingest.common`),
    so that each variant is logged where it matched.
    """
    if not text.isascii():  # every replaced string holds a character outside ASCII
        for bad, good in _REPLACEMENTS:
            text = text.replace(bad, good)
    if "<" in text:  # most lines are plain ASCII without a tag: both steps are skipped
        text = _TAGS.sub("", text)
    return _SPACES.sub(" ", text).strip()


def strip_tags(cell: str) -> str:
    """A cell without HTML tags (MessageSight prints ``<b>1523</b>``)."""
    return _TAGS.sub("", cell).strip()


def tokens(text: str) -> list[str]:
    """Whitespace tokens of a table row after clean-up (tabs and spaces alike).

    Tabs do not survive a PDF's text layer, so rows are read by tokens, never by tabs.
    """
    return clean_text(text).split()
