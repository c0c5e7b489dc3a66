"""What every page shares: the warehouse connection, lookups, links to report lines, labels.

Every function reads the warehouse named by $PERFWH_DB (default data/curated/warehouse.duckdb),
read-only. Labels come from the vocabulary (`ingest.vocabulary`), numbers are shown as printed.
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import duckdb

from ingest.vocabulary import platform_label
from perfwh.core.paths import warehouse_path
from perfwh.publish.html import Html, anchor_id, join, link, tag

# the "no filter" value of the explorer's drop-downs
ALL = "__all__"
METRIC_LABELS = {"msg_rate": "Rate", "cpu_busy_pct": "CPU busy", "cpu_ms_per_msg": "CPU per msg",
                 "startup_s": "Startup", "latency_rtt_ms": "Round trip", "rate_vs_direct_pct": "vs direct"}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


# -- the warehouse -------------------------------------------------------------------------

def db_path() -> Path:
    return warehouse_path()


_CON: duckdb.DuckDBPyConnection | None = None


def con() -> duckdb.DuckDBPyConnection:
    global _CON
    if _CON is None:
        path = db_path()
        if not path.exists():
            raise FileNotFoundError(f"warehouse {path} not found: run `perfwh build` (or `make`) first")
        _CON = duckdb.connect(str(path), read_only=True)
    return _CON


def reset() -> None:
    """Forget the connection and cached lookups (to read another warehouse in this process)."""
    global _CON
    if _CON is not None:
        _CON.close()
    _CON = None
    for cached in (relations, reports, family_of, flags_by_fact, findings_by_claim, platforms_named_alike):
        cached.cache_clear()


def query(sql: str, params: list | None = None) -> list[dict]:
    """Rows as dicts (executed and fetched at once: DuckDB 2.0 keeps no pending result)."""
    cur = con().execute(sql, params or [])
    columns = [d[0] for d in cur.description]
    return [dict(zip(columns, row)) for row in cur.fetchall()]


def query_table(sql: str, params: list | None = None) -> tuple[list[str], list[tuple]]:
    cur = con().execute(sql, params or [])
    columns = [d[0] for d in cur.description]
    return columns, cur.fetchall()


def query_rendered(sql: str) -> tuple[list[str], list[str], list[tuple]]:
    """(columns, types, rows) with every value as DuckDB renders it (CAST AS VARCHAR): a number
    from a report shows as printed (1362.3, never 1,362)."""
    relation = con().sql(sql)
    columns, types = list(relation.columns), [str(t) for t in relation.types]
    return columns, types, relation.project("CAST(COLUMNS(*) AS VARCHAR)").fetchall()


@lru_cache(maxsize=None)
def relations() -> dict[str, str]:
    """Tables and views of the warehouse: name -> 'BASE TABLE' or 'VIEW'."""
    return {r["table_name"]: r["table_type"] for r in query(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_schema = 'main' ORDER BY table_name")}


def has(name: str) -> bool:
    return name in relations()


def columns_of(name: str) -> list[str]:
    return [r["column_name"] for r in query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' "
        "AND table_name = ? ORDER BY ordinal_position", [name])]


# -- reports, families and their pages ----------------------------------------------------

@lru_cache(maxsize=None)
def reports() -> list[dict]:
    """Every current source (retired ones left out), oldest first; those published the same
    day (submissions filed together) in the order they were filed."""
    retired = "WHERE retired_by IS NULL" if "retired_by" in columns_of("dim_report") else ""
    year = "published_year" if "published_year" in columns_of("dim_report") else "year(published_date)"
    return query(f"SELECT *, {year} AS year FROM dim_report {retired} "
                 "ORDER BY year NULLS LAST, published, filed_order, source")


@lru_cache(maxsize=None)
def platforms_named_alike() -> frozenset[tuple[str, str]]:
    """(source, platform name) of the sources naming machines of several core counts alike (a
    lab's 8-core and 16-core "lab box"): there a platform is labelled with its cores
    (`ingest.vocabulary.platform_label`)."""
    return frozenset((source, platform) for source, platform in query_table("""
        SELECT r.source, pl.platform FROM dim_platform pl JOIN dim_report r USING (report_id)
        GROUP BY ALL HAVING count(DISTINCT coalesce(CAST(pl.cores AS VARCHAR), '-')) > 1""")[1])


def platform_of(source: str, platform: str | None, cores) -> str | None:
    """The platform as people read it in ``source`` (its cores where its name is shared)."""
    return None if platform is None else platform_label(platform, cores, (source, platform) in platforms_named_alike())


@lru_cache(maxsize=None)
def family_of() -> dict[str, str]:
    return {r["source"]: r["family"] for r in reports()}


def families() -> list[str]:
    """The families of the warehouse's reports, in order of their first publication."""
    seen: list[str] = []
    for r in reports():
        if r["family"] not in seen:
            seen.append(r["family"])
    return seen


def report_page_name(family: str) -> str:
    """The generated page of a family (site/_pre_render.py writes site/<name>.qmd)."""
    return f"report-{anchor_id(family)}"


def report_href(family: str | None) -> str | None:
    """The report page of a family (every family of the warehouse has one)."""
    if family and family in families():
        return f"{report_page_name(family)}.html"
    return None


def src_anchor(source: str, line: Any) -> str:
    """The id of a line of a report's text on its page: '<file stem>-L<line>' (see
    `_line_anchor_prefixes` for a stem that ids cannot tell from another's)."""
    prefix = _line_anchor_prefixes().get(source) or _anchor_prefix(source, unique=True)
    return f"{prefix}-L{anchor_id(line)}"


def _anchor_prefix(source: str, unique: bool) -> str:
    """A source's file stem as an id, and a digest of its whole name where the id is not the
    stem itself (spaces, accents, another script: "a b.csv" and "a-b.csv" are both "a-b",
    "测试.csv" and "результаты.csv" both nothing) or ``unique`` is false (another source's
    stem makes the same id: "a.csv" and "a.txt")."""
    import hashlib

    stem = Path(source).stem
    plain = anchor_id(stem) if stem else ""
    if plain == stem and unique:
        return plain
    return anchor_id(plain, hashlib.sha256(source.encode("utf-8")).hexdigest()[:8])


@lru_cache(maxsize=None)
def _line_anchor_prefixes() -> dict[str, str]:
    return line_anchor_prefixes(list(family_of()))


def line_anchor_prefixes(sources: list[str]) -> dict[str, str]:
    """Each source's prefix of its lines' ids: unique among ``sources`` (the warehouse's), so
    that a link to a line of one file never lands on another's (a family's page shows all its
    files)."""
    ids = [anchor_id(Path(source).stem) for source in sources]
    return {source: _anchor_prefix(source, unique=ids.count(anchor_id(Path(source).stem)) == 1)
            for source in sources}


def src_href(source: str | None, line: Any) -> str | None:
    page = report_href(family_of().get(source or ""))
    if page is None or line is None:
        return None
    return f"{page}#{src_anchor(source, line)}"


def source_link(source: str, family: str | None) -> Html:
    """A report's file name linked to its page, set as a file name (it never wraps)."""
    return link(source, report_href(family), class_="src")


def where(source: str | None, line: Any, page: Any = None) -> Html:
    """'file:line' linked to the line in the report page's source text."""
    if source is None:
        return Html("")
    text = f"{source}:{line}" if line is not None else source
    if page is not None:
        text += f" (p. {page})"
    return link(text, src_href(source, line), class_="src")


def number_words(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def unit_over(metric: str, unit: str | None, printed: list[str]) -> str | None:
    """The unit a column header of ``metric`` names over cells printed as ``printed``: the
    stored unit, unless the cells print their numbers as printed in another unit, each with
    it (ACE 11's "476.71 μs" beside "2 ms": a header "(ms)" over "476.71" μs would misread).
    A multiplier ("460K") is the header's unit still."""
    from ingest.records import ParseError
    from ingest.units import UNITS, metric_quantity, quantity

    try:
        kind = metric_quantity(metric)
        tokens = [quantity(p, kind).unit for p in printed]
    except ParseError:
        return unit
    other = [t for t in tokens if UNITS[kind][t][1] != "1" and t.lstrip("kKMG") not in ("", "/s")]
    return None if other and all(tokens) else unit


def metric_header(metric: str, unit: str | None) -> str:
    """'supply_voltage_v', 'V' -> 'supply voltage (V)': the unit once, in brackets."""
    name = metric
    head, _, suffix = metric.rpartition("_")
    if unit == "count":
        unit = None
    elif head and unit and (suffix.lower() == unit.lower() or (suffix, unit) == ("pct", "%")):
        name = head
    label = METRIC_LABELS.get(metric, name.replace("_", " "))
    return f"{label} ({unit})" if unit else label


# -- numbers and their findings ------------------------------------------------------------

@lru_cache(maxsize=None)
def flags_by_fact() -> dict[int, list[dict]]:
    """Data-quality findings per fact_id (empty when dq_findings is not built)."""
    if not has("dq_findings"):
        return {}
    out: dict[int, list[dict]] = defaultdict(list)
    for r in query("SELECT finding_id, rule, severity, fact_id FROM dq_findings "
                   "WHERE fact_id IS NOT NULL ORDER BY finding_id"):
        out[r["fact_id"]].append(r)
    return dict(out)


@lru_cache(maxsize=None)
def findings_by_claim() -> dict[int, list[dict]]:
    """Findings of the rules on the prose per claim_id: a rule whose relation is dq_claims
    (its header, dq_rules.relation) checks a statement of the text, not a number of a table,
    so its finding has no fact_id to flag; its row_id is the claim's id."""
    if not has("dq_findings") or not has("dq_rules"):
        return {}
    out: dict[int, list[dict]] = defaultdict(list)
    for r in query("SELECT f.finding_id, f.rule, f.severity, f.row_id, f.message FROM dq_findings f "
                   "JOIN dq_rules USING (rule) WHERE dq_rules.relation = 'dq_claims' AND f.row_id IS NOT NULL "
                   "ORDER BY f.finding_id"):
        out[r["row_id"]].append(r)
    return dict(out)


def has_error_sql(fact_id: str) -> str:
    """SQL: whether the number whose fact_id is the expression ``fact_id`` has an unwaived
    error finding - a number the pages show, marked, but use in no ratio or line."""
    if not has("dq_findings"):
        return "FALSE"
    return (f"EXISTS (SELECT 1 FROM dq_findings f WHERE f.severity = 'error' AND f.waiver IS NULL "
            f"AND f.fact_id = {fact_id})")


@lru_cache(maxsize=None)
def numbers_with_errors() -> frozenset[int]:
    """The fact_ids of the numbers with an unwaived error finding (`has_error_sql`)."""
    if not has("dq_findings"):
        return frozenset()
    return frozenset(r["fact_id"] for r in query(
        f"SELECT DISTINCT fact_id FROM dq_findings x WHERE x.fact_id IS NOT NULL AND {has_error_sql('x.fact_id')}"))


def finding_flag(finding: dict) -> Html:
    """⚑ linking to a finding on the quality page, coloured by its severity."""
    return tag("a", "\u2691", href=f"quality.html#{anchor_id('finding', finding['finding_id'])}",
               class_=f"flag flag-{anchor_id(finding['severity'])}",
               title=f"{finding['severity']}: {finding['rule']} (finding {finding['finding_id']})")


def number_cell(facts: list[dict]) -> Html:
    """A number as printed, linked to its line; a flag links to its data-quality findings."""
    parts = []
    for f in facts:
        title = f"{f['source']}:{f['source_line']} - {f['metric']} printed {f['printed_value']}"
        parts.append(link(f["printed_value"], f"#{src_anchor(f['source'], f['source_line'])}", title=title))
        parts += [finding_flag(flag) for flag in flags_by_fact().get(f["fact_id"], [])]
    return join(parts, " ")


def fitted_log_scale():
    """A log scale whose domain is the extent of the data it shows (after the chart's filters),
    not rounded out to whole decades, with a little room at each end for the points."""
    import altair as alt

    return alt.Scale(type="log", nice=False, padding=12)
