"""The report families perfwh can read, and how to tell which one a file is."""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import ModuleType

from . import ace11, ace13, iib10, messagesight, submission, wbimb
from .common import require_end, require_rows_read, require_signature
from .records import Line, ParsedReport, ParseError
from .text import clean_text

FAMILIES: dict[str, ModuleType] = {m.FAMILY: m for m in (wbimb, iib10, ace11, ace13, messagesight,
                                                          submission)}


def parse(family: str, lines: Sequence[Line], source: str) -> ParsedReport:
    """Parse ``lines`` as ``family``; any ParseError comes back naming ``source``."""
    module = FAMILIES.get(family)
    if module is None:
        raise ParseError(f"unknown report family {family!r}", None, source,
                         expected="one of " + ", ".join(FAMILIES))
    try:
        end = getattr(module, "END", None)
        if end is not None:  # a report of the family, but cut short?
            require_signature(lines, family, module.SIGNATURE, module.DESCRIPTION)
            require_end(lines, end)
        parsed = module.parse(lines)
        shape = getattr(module, "ROW_SHAPE", None)
        if shape is not None:  # rows of a table the parser did not see?
            require_rows_read(lines, parsed, shape)
        return parsed
    except ParseError as err:
        raise err.located(source) from None


def detect(lines: Sequence[Line], source: str) -> str:
    """The family whose signature appears near the top of the file."""
    head = [clean_text(line.text) for line in lines[:60]]
    for family, module in FAMILIES.items():
        if any(re.search(p, text) for p in module.SIGNATURE for text in head):
            return family
    first = next((line for line in lines if line.text.strip()), None)
    raise ParseError("not a report of a known family", first.number if first else 1, source,
                     expected="one of: " + "; ".join(m.DESCRIPTION for m in FAMILIES.values()))
