"""What the raw layer holds, counted from the parsers themselves (not written down again): tests
about the build as a whole compare with these, so that adding a report family changes only
that family's own expected-values test."""
from __future__ import annotations

from functools import lru_cache

from perfwh.core.paths import RAW_DIR, SOURCES_FILE
from perfwh.warehouse.inputs import read_manifest
from perfwh.warehouse.load import LoadedReport


@lru_cache(maxsize=None)
def parsed() -> dict[str, tuple[int, int]]:
    """source -> (tables, values) of every report in data/raw, as its parser reads it."""
    return {r.source.file: (len(r.parsed.tables), len(r.parsed.observations))
            for r in read_manifest(RAW_DIR, SOURCES_FILE) if isinstance(r, LoadedReport)}


def total_values() -> int:
    return sum(values for _tables, values in parsed().values())


def report_count() -> int:
    return len(parsed())
