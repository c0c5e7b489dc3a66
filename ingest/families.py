"""The registry of report families: which parsers perfwh has, and which family a file is.

Every module of the ingest package that is not part of its infrastructure (`INFRASTRUCTURE`)
is a report family's parser, found here by listing the package: adding a family is adding
its module (with FAMILY, SIGNATURE, DESCRIPTION and ``parse(lines) -> ParsedReport``; END
and ROW_SHAPE are checked when present), its raw file, its sources.yml entry and its
expected values - nothing else names the families. Modules of the folders in
$PERFWH_FAMILY_PATH are families too, and tests may `register` a parser module of their own.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import re
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from .common import head, require_end, require_rows_read, require_signature
from .records import Line, ParsedReport, ParseError
from .text import clean_text

# Modules of the ingest package that are not report parsers.
INFRASTRUCTURE = frozenset({"common", "families", "pdf", "printable", "prose", "reader", "records",
                            "spreadsheet", "submission", "text", "units", "vocabulary"})
REQUIRED = ("FAMILY", "SIGNATURE", "DESCRIPTION", "parse")
# Folders of report-family modules outside the ingest package, separated as PATH is: the parser
# of a family of one's own reports, or a fixture family run through the whole test suite. A
# module there that defines FAMILY is a family (and must be a complete one); others are not.
PATH_ENV = "PERFWH_FAMILY_PATH"

_REGISTERED: dict[str, ModuleType] = {}


def _discover() -> dict[str, ModuleType]:
    import ingest

    found = {}
    for info in sorted(pkgutil.iter_modules(ingest.__path__), key=lambda i: i.name):
        if info.name in INFRASTRUCTURE or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"ingest.{info.name}")
        missing = [name for name in REQUIRED if not hasattr(module, name)]
        if missing:
            raise ImportError(f"ingest/{info.name}.py is neither infrastructure nor a complete "
                              f"report family: it lacks {', '.join(missing)}")
        found[module.FAMILY] = module
    for folder in filter(None, os.environ.get(PATH_ENV, "").split(os.pathsep)):
        for path in sorted(Path(folder).glob("*.py")):
            if path.name.startswith("_"):
                continue
            module = _load_file(path)
            if hasattr(module, "FAMILY"):
                missing = [name for name in REQUIRED if not hasattr(module, name)]
                if missing:
                    raise ImportError(f"{path} (${PATH_ENV}) defines FAMILY but lacks "
                                      f"{', '.join(missing)}")
                found.setdefault(module.FAMILY, module)
    return found


def _load_file(path: Path) -> ModuleType:
    """A module of a family folder, by its file (named after the folder and the file, so that
    two folders' modules of one name do not collide)."""
    name = "perfwh_family_" + re.sub(r"\W", "_", f"{path.parent.name}_{path.stem}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def register(module: ModuleType) -> None:
    """Add a parser module that lives outside the ingest package (a test's fixture family)."""
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        raise ValueError(f"{module.__name__} is not a report family: it lacks {', '.join(missing)}")
    _REGISTERED[module.FAMILY] = module


def unregister(family: str) -> None:
    _REGISTERED.pop(family, None)


def families() -> dict[str, ModuleType]:
    """Every report family: name -> parser module, the package's own first, in name order."""
    return {**_discover_cached(), **_REGISTERED}


_CACHE: dict[str, ModuleType] | None = None


def _discover_cached() -> dict[str, ModuleType]:
    global _CACHE
    if _CACHE is None:
        _CACHE = _discover()
    return _CACHE


def parse(family: str, lines: Sequence[Line], source: str) -> ParsedReport:
    """Parse ``lines`` as ``family``; any ParseError comes back naming ``source``."""
    module = families().get(family)
    if module is None:
        raise ParseError(f"unknown report family {family!r}", None, source,
                         expected="one of " + ", ".join(families()))
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
    """The family whose signature appears near the top of the file and one of whose results
    rows appears in it (a text that only mentions a report - a README - is none of them)."""
    top = [clean_text(line.text) for line in head(lines)]
    for family, module in families().items():
        if not any(re.search(p, text) for p in module.SIGNATURE for text in top):
            continue
        shape = getattr(module, "ROW_SHAPE", None)
        if shape is None or any(re.search(shape, clean_text(line.text)) for line in lines):
            return family
    first = next((line for line in lines if line.text.strip()), None)
    raise ParseError("not a report of a known family", first.number if first else 1, source,
                     expected="one of: " + "; ".join(m.DESCRIPTION for m in families().values())
                     + "; or a CSV in the submission template")
