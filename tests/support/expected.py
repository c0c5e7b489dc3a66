"""What the raw layer holds: counted from the parsers themselves (`parsed`), or expected by each
family's expected-values module (`expectations`: tests/expected_values/<family>.py). Tests about
the build as a whole compare with these, so that adding a report family changes only that
family's own files: its raw report, its sources.yml entry, its parser and its expected values.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

from ingest import families
from perfwh.core.paths import RAW_DIR, SOURCES_FILE
from perfwh.warehouse.inputs import read_manifest
from perfwh.warehouse.load import LoadedReport
from perfwh.warehouse.sources import load_manifest

# Expected-values modules of families that live outside the ingest package (a fixture family
# added to the whole suite: `support.extra`), by family.
_REGISTERED: dict[str, ModuleType] = {}


def register(family: str, module: ModuleType) -> None:
    _REGISTERED[family] = module


@lru_cache(maxsize=None)
def reports() -> dict[str, LoadedReport]:
    """source -> the report as the build reads it (parsed), for every report in data/raw."""
    return {r.source.file: r for r in read_manifest(RAW_DIR, SOURCES_FILE)
            if isinstance(r, LoadedReport)}


def parsed() -> dict[str, tuple[int, int]]:
    """source -> (tables, values) of every report in data/raw, as its parser reads it."""
    return {source: (len(r.parsed.tables), len(r.parsed.observations))
            for source, r in reports().items()}


def total_values() -> int:
    return sum(values for _tables, values in parsed().values())


def report_count() -> int:
    return len(parsed())


def family_module(family: str) -> ModuleType:
    """The expected-values module of ``family`` (tests/expected_values/<family>.py)."""
    if family in _REGISTERED:
        return _REGISTERED[family]
    return importlib.import_module(f"expected_values.{family}")


@lru_cache(maxsize=None)
def expectations() -> dict[str, dict]:
    """source -> what its family's expected-values module expects of it, for every report of
    the manifest (a report whose family has no such module, or whose module does not name it,
    has none: `tests/test_expected_values.py` says which)."""
    out = {}
    for source in load_manifest(SOURCES_FILE):
        if source.is_csv or source.retired_by or source.family not in families.families():
            continue
        try:
            module = family_module(source.family)
        except ModuleNotFoundError:
            continue
        if source.file in module.SOURCES:
            out[source.file] = module.SOURCES[source.file]
    return out


def measurements() -> dict[str, int]:
    """source -> rows of the measurements view."""
    return {source: e["measurements"] for source, e in expectations().items()}


def claims(kind: str | None = None) -> dict[str, int]:
    """source -> statements of its prose (of ``kind``, or of any kind); sources without any
    are left out, as a GROUP BY over fact_claim leaves them out."""
    out = {}
    for source, e in expectations().items():
        n = sum(count for k, count in e.get("claims", {}).items() if kind in (None, k))
        if n:
            out[source] = n
    return out
