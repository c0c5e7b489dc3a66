"""The generations of the integration product side by side: which tests of which reports do
the same work (the mapping, `generations.yml` beside this file), which rows of each report
stand for its generation, and what the warehouse holds of them; and the product lines whose
models several report families measure (the messaging appliances), shown on their pages.

Notebook 06_generations and the site's generations page read the mapping through here, and
nowhere else; `problems` holds it to a warehouse (a test runs it on the real reports).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import yaml

from ingest import submission
from ingest.reader import read_lines
from ingest.text import clean_text
from perfwh.core import yamltext
from perfwh.core.paths import RAW_DIR
from perfwh.warehouse.sources import find_raw

MAPPING = Path(__file__).with_name("generations.yml")
# The columns a test bed may select its series by (in `measurements` and in `model_fits`), and
# the kind of value each takes.
SERIES_COLUMNS = {"product": str, "platform": str, "persistent": bool, "concurrency_kind": str,
                  "concurrency": (int, float), "tshirt": str, "replicas": int}
# Words of a scenario's name that say how messages travel, not what the test does ("MQ
# Aggregation" does the work of "Aggregation"), and words that say nothing.
TRANSPORT_WORDS = frozenset({"mq", "http", "https", "tcpip", "tcp", "ip", "jms", "mqtt"})
FILLER_WORDS = frozenset({"a", "an", "the", "of", "to", "and", "with"})


class MappingError(ValueError):
    """The mapping file is not what it should be: names the file, the entry and what was expected."""


@dataclass(frozen=True)
class TestBed:
    source: str
    series: tuple[tuple[str, Any], ...]     # (column, value) pairs selecting one series per test
    reason: str


@dataclass(frozen=True)
class Test:
    comparison: str
    source: str
    scenario: str
    reason: str


@dataclass(frozen=True)
class Comparison:
    name: str
    work: str
    tests: tuple[Test, ...]


@dataclass(frozen=True)
class Apart:
    tests: tuple[tuple[str, str], ...]      # (source, scenario)
    reason: str


@dataclass(frozen=True)
class Caveat:
    source: str
    lines: tuple[int, ...]


@dataclass(frozen=True)
class ProductLine:
    """Report families that measure one line of products, model after model, and how they
    relate: shown on each of their report pages."""
    name: str
    families: tuple[str, ...]               # oldest first
    relation: str


@dataclass(frozen=True)
class Mapping:
    test_beds: dict[str, TestBed]
    comparisons: tuple[Comparison, ...]
    apart: tuple[Apart, ...]
    caveats: tuple[Caveat, ...] = ()
    lines: tuple[ProductLine, ...] = ()

    def line_of(self, family: str) -> ProductLine | None:
        return next((line for line in self.lines if family in line.families), None)

    def tests(self) -> list[Test]:
        return [t for c in self.comparisons for t in c.tests]


# -- reading the file ----------------------------------------------------------------------

def _text(entry: dict, key: str, where: str) -> str:
    value = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise MappingError(f"{where}: expected a non-empty '{key}'")
    return " ".join(value.split())


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list) or not value:
        raise MappingError(f"{where}: expected a non-empty list")
    return value


def load(path: Path = MAPPING) -> Mapping:
    """The mapping file, checked for shape; a problem is one line naming the file and entry."""
    try:
        data = yamltext.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise MappingError(f"{path}: cannot read the mapping: {err}".splitlines()[0]) from None
    if not isinstance(data, dict):
        raise MappingError(f"{path}: expected test_beds, comparisons and apart")
    beds: dict[str, TestBed] = {}
    for n, entry in enumerate(_list(data.get("test_beds"), f"{path}: test_beds"), 1):
        where = f"{path}: test bed {n}"
        source = _text(entry, "source", where)
        series = entry.get("series")
        if not isinstance(series, dict) or not series or set(series) - set(SERIES_COLUMNS):
            raise MappingError(f"{where} ({source}): 'series' must select by {', '.join(SERIES_COLUMNS)}")
        for column, value in series.items():
            kind = SERIES_COLUMNS[column]
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                raise MappingError(f"{where} ({source}): series {column}: {value!r} is not a "
                                   f"{'true/false' if kind is bool else 'number' if kind != str else 'name'}")
        if source in beds:
            raise MappingError(f"{where}: {source} has a test bed already")
        beds[source] = TestBed(source, tuple(sorted(series.items())), _text(entry, "reason", where))
    comparisons, seen = [], set()
    for n, entry in enumerate(_list(data.get("comparisons"), f"{path}: comparisons"), 1):
        name = _text(entry, "name", f"{path}: comparison {n}")
        where = f"{path}: comparison {name!r}"
        tests = []
        for m, test in enumerate(_list(entry.get("tests"), f"{where}: tests"), 1):
            t = Test(name, _text(test, "source", f"{where}, test {m}"), _text(test, "scenario", f"{where}, test {m}"),
                     _text(test, "reason", f"{where}, test {m}"))
            if t.source not in beds:
                raise MappingError(f"{where}: {t.source} has no test bed (which of its rows stand for it?)")
            if (t.source, t.scenario) in seen:
                raise MappingError(f"{where}: {t.source} {t.scenario!r} is paired twice")
            seen.add((t.source, t.scenario))
            tests.append(t)
        if len({t.source for t in tests}) < 2:
            raise MappingError(f"{where}: a comparison needs tests of two reports at least")
        comparisons.append(Comparison(name, _text(entry, "work", where), tuple(tests)))
    apart = []
    for n, entry in enumerate(data.get("apart") or [], 1):
        where = f"{path}: apart {n}"
        tests = tuple((_text(t, "source", where), _text(t, "scenario", where))
                      for t in _list(entry.get("tests") if isinstance(entry, dict) else None, f"{where}: tests"))
        apart.append(Apart(tests, _text(entry, "reason", where)))
    caveats = []
    for n, entry in enumerate(data.get("caveats") or [], 1):
        where = f"{path}: caveat {n}"
        lines = _list(entry.get("lines") if isinstance(entry, dict) else None, f"{where}: lines")
        if not all(isinstance(line, int) and line > 0 for line in lines):
            raise MappingError(f"{where}: 'lines' must be line numbers (1-based) of the report")
        caveats.append(Caveat(_text(entry, "source", where), tuple(lines)))
    product_lines = []
    for n, entry in enumerate(data.get("lines") or [], 1):
        name = _text(entry, "name", f"{path}: line {n}")
        where = f"{path}: line {name!r}"
        members = _list(entry.get("families") if isinstance(entry, dict) else None, f"{where}: families")
        if len(members) < 2 or not all(isinstance(f, str) and f for f in members):
            raise MappingError(f"{where}: 'families' must name two report families at least")
        product_lines.append(ProductLine(name, tuple(members), _text(entry, "relation", where)))
    return Mapping(beds, tuple(comparisons), tuple(apart), tuple(caveats), tuple(product_lines))


# -- the series in the warehouse -----------------------------------------------------------

def series_condition(bed: TestBed) -> tuple[str, list]:
    """SQL (for `measurements` or `model_fits`) selecting a test bed's series, and its parameters.
    Column names come from SERIES_COLUMNS only; values are parameters."""
    parts, params = [], []
    for column, value in bed.series:
        if column not in SERIES_COLUMNS:  # load() refuses them; never a name from elsewhere
            raise MappingError(f"{bed.source}: cannot select by {column!r}")
        parts.append(f"{column} IS NOT DISTINCT FROM ?")
        params.append(value)
    return " AND ".join(parts), params


def current_editions(con: duckdb.DuckDBPyConnection, mapping: Mapping) -> Mapping:
    """The mapping as the warehouse stands: each report it names replaced by its current
    edition (a further edition filed with `perfwh add --revision-of` retires the report it
    revises and measures the same tests). Caveats keep the texts they quote."""
    if not _rows(con, "SELECT 1 FROM duckdb_columns() WHERE table_name = 'dim_report' AND column_name = "
                      "'retired_by' AND database_name = current_database()", []):
        return mapping  # a warehouse from before revisions were filed
    replaced = {r["source"]: r["retired_by"] for r in
                _rows(con, "SELECT source, retired_by FROM dim_report WHERE retired_by IS NOT NULL", [])}

    def now(source: str) -> str:
        seen = {source}
        while source in replaced and replaced[source] not in seen:
            source = replaced[source]
            seen.add(source)
        return source

    if not replaced:
        return mapping
    return dataclasses.replace(
        mapping,
        test_beds={now(name): dataclasses.replace(bed, source=now(bed.source)) for name, bed in mapping.test_beds.items()},
        comparisons=tuple(dataclasses.replace(c, tests=tuple(dataclasses.replace(t, source=now(t.source)) for t in c.tests))
                          for c in mapping.comparisons),
        apart=tuple(dataclasses.replace(a, tests=tuple((now(source), scenario) for source, scenario in a.tests))
                    for a in mapping.apart))


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> list[dict]:
    cur = con.execute(sql, params)
    columns = [d[0] for d in cur.description]
    return [dict(zip(columns, row)) for row in cur.fetchall()]


def points(con: duckdb.DuckDBPyConnection, mapping: Mapping) -> list[dict]:
    """Every printed CPU cost of every mapped test's series, with its size and line: one dict
    per measurement (comparison, source, scenario, product, product_version, platform, size,
    size as printed, cost, cost as printed, the cost's fact_id, source_line, cpu_limit_cores,
    server_cores)."""
    out = []
    for test in mapping.tests():
        condition, params = series_condition(mapping.test_beds[test.source])
        out += [{"comparison": test.comparison, **r} for r in _rows(con, f"""
            SELECT m.source, m.scenario, m.product, m.product_version, m.platform,
                   m.message_size_bytes AS size, f.message_size_printed AS size_printed,
                   m.cpu_ms_per_msg AS cost, m.cpu_ms_per_msg_printed AS cost_printed,
                   m.cpu_ms_per_msg_fact_id AS cost_fact_id, m.source_line,
                   m.cpu_limit_cores, m.server_cores
            FROM (SELECT * FROM measurements WHERE source = ? AND scenario = ? AND {condition}) m
            JOIN fact_metric_value f ON f.fact_id = m.cpu_ms_per_msg_fact_id
            WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
            ORDER BY size, m.source_line""", [test.source, test.scenario, *params])]
    return out


def fitted(con: duckdb.DuckDBPyConnection, mapping: Mapping) -> list[dict]:
    """The fitted series (model_fits) of every mapped test: comparison, source, scenario,
    series_id, series_label; a test without one is left out (see model_unfitted)."""
    out = []
    for test in mapping.tests():
        condition, params = series_condition(mapping.test_beds[test.source])
        found = _rows(con, f"""SELECT series_id, series_label FROM model_fits
                               WHERE source = ? AND scenario = ? AND {condition} ORDER BY series_id""",
                      [test.source, test.scenario, *params])
        if found:
            out.append({"comparison": test.comparison, "source": test.source, "scenario": test.scenario,
                        **found[0]})
    return out


def generations(con: duckdb.DuckDBPyConnection, mapping: Mapping) -> list[dict]:
    """One entry per test bed the warehouse holds, oldest report first: its label ("ACE 13
    (2025)", from the product its series measure and the report's year), the report, and
    the hardware its series ran on (dim_platform), with the CPU limit of a container."""
    out = []
    for bed in mapping.test_beds.values():
        condition, params = series_condition(bed)
        found = _rows(con, f"""
            SELECT m.product, split_part(any_value(m.product_version), '.', 1) AS major,
                   string_agg(DISTINCT m.platform, ', ' ORDER BY m.platform) AS platform,
                   min(m.cpu_limit_cores) AS cpu_limit_cores, max(m.cpu_limit_cores) AS cpu_limit_max,
                   any_value(r.published_year) AS year, any_value(r.family) AS family, any_value(r.title) AS title
            FROM measurements m JOIN dim_report r USING (source)
            WHERE m.source = ? AND r.retired_by IS NULL AND {condition}
            GROUP BY m.product""", [bed.source, *params])
        if not found:
            continue
        row = found[0]
        hardware = _rows(con, """
            SELECT pl.platform, pl.os, pl.hardware, pl.cpu_model, pl.cores, pl.deployment, pl.memory
            FROM dim_platform pl JOIN dim_report r USING (report_id)
            WHERE r.source = ? AND list_contains(string_split(?, ', '), pl.platform) ORDER BY pl.platform""",
                         [bed.source, row["platform"]])
        out.append({"source": bed.source, "label": f"{row['product']} {row['major']} ({row['year']})",
                    "product": row["product"], "year": row["year"], "family": row["family"], "title": row["title"],
                    "series": bed.series, "reason": bed.reason, "hardware": hardware,
                    "cpu_limit_cores": row["cpu_limit_cores"] if row["cpu_limit_cores"] == row["cpu_limit_max"]
                    else None})
    return sorted(out, key=lambda g: (g["year"] is None, g["year"] or 0, g["source"]))


def quoted(caveat: Caveat, raw_dir: Path = RAW_DIR) -> list[tuple[int, str]]:
    """The lines a caveat names, (line, text) as the report prints them (tags, mojibake and
    bullets aside); empty when the raw report is not at hand."""
    path = find_raw(raw_dir, caveat.source)
    if not path.is_file():
        return []
    text = {line.number: line.text for line in read_lines(path)}
    return [(n, clean_text(text[n]).lstrip("\u2022*- ").strip()) for n in caveat.lines if n in text]


# -- the mapping against a warehouse --------------------------------------------------------

def work_words(scenario: str) -> frozenset[str]:
    """The words of a scenario's name that say what the test does: lower case, digits apart
    from letters ("ISO8583" reads as "iso 8583"), without transport and filler words."""
    words = re.findall(r"[a-z]+|[0-9]+", scenario.lower())
    return frozenset(w for w in words if w not in TRANSPORT_WORDS | FILLER_WORDS)


def recurrences(con: duckdb.DuckDBPyConnection) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Pairs of tests of two reports (current, not submissions) with CPU costs whose names say
    they do the same work: the words of one name are all in the other's ("Aggregation" and
    "MQ Aggregation", "ISO 8583 Transformation" and "TCPIP ISO8583 XML Transformation")."""
    tests = [(r["source"], r["scenario"]) for r in _rows(con, """
        SELECT DISTINCT m.source, m.scenario FROM measurements m JOIN dim_report r USING (source)
        WHERE m.cpu_ms_per_msg IS NOT NULL AND r.retired_by IS NULL AND r.family <> ?
        ORDER BY 1, 2""", [submission.FAMILY])]
    found = []
    for i, a in enumerate(tests):
        for b in tests[i + 1:]:
            wa, wb = work_words(a[1]), work_words(b[1])
            if a[0] != b[0] and wa and wb and (wa <= wb or wb <= wa):
                found.append((a, b))
    return found


def problems(con: duckdb.DuckDBPyConnection, mapping: Mapping) -> list[str]:
    """What in the mapping the warehouse contradicts: a test bed whose report is missing, a
    mapped test that is not there or has no CPU cost in its series, a test set apart that is
    not there, and a recurring test that is neither paired with its twin nor set apart."""
    found = []
    sources = {r["source"] for r in _rows(con, "SELECT source FROM dim_report WHERE retired_by IS NULL", [])}
    for bed in mapping.test_beds.values():
        if bed.source not in sources:
            found.append(f"test bed {bed.source}: no such report in the warehouse")
    costs = {(p["source"], p["scenario"]) for p in points(con, mapping)}
    scenarios = {(r["source"], r["scenario"]) for r in _rows(con, "SELECT DISTINCT source, scenario FROM measurements", [])}
    for test in mapping.tests():
        key = (test.source, test.scenario)
        if key not in scenarios:
            found.append(f"{test.comparison}: {test.source} has no scenario {test.scenario!r}")
        elif key not in costs:
            found.append(f"{test.comparison}: {test.source} {test.scenario!r} has no CPU cost in its test bed's series")
    for apart in mapping.apart:
        for key in apart.tests:
            if key not in scenarios:
                found.append(f"set apart: {key[0]} has no scenario {key[1]!r}")
    for caveat in mapping.caveats:
        lines = [n for n, text in quoted(caveat) if text]
        if lines != list(caveat.lines):
            found.append(f"caveat of {caveat.source}: lines {list(caveat.lines)} are not all lines with text "
                         f"of the report (found {lines})")
    families = {r["family"] for r in _rows(con, "SELECT DISTINCT family FROM dim_report", [])}
    for line in mapping.lines:
        missing = [f for f in line.families if f not in families]
        if missing:
            found.append(f"line {line.name!r}: no report of {', '.join(missing)} in the warehouse")
    paired = {(t.source, t.scenario): t.comparison for t in mapping.tests()}
    apart = [set(a.tests) for a in mapping.apart]
    for a, b in recurrences(con):
        together = paired.get(a) is not None and paired.get(a) == paired.get(b)
        if not together and not any({a, b} <= group for group in apart):
            found.append(f"{a[0]} {a[1]!r} and {b[0]} {b[1]!r} recur under one name: pair them in a "
                         "comparison or set them apart, with the reason")
    return found
