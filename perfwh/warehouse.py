"""Loading parsed reports into DuckDB and applying the schema: the warehouse's writer.

Nothing here parses (that is `ingest`) and nothing here decides file names or
atomic replacement (that is `perfwh.build`): functions take an open connection.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import yaml

from ingest.records import ParsedReport
from ingest.units import METRICS, UNITS

from . import SCHEMA_DIR
from .sources import ReportSource

RAW_STAGE = "00_"  # schema files loaded before the raw data; the rest read it


@dataclass
class LoadedReport:
    source: ReportSource
    parsed: ParsedReport
    line_count: int


class WarehouseError(RuntimeError):
    """The loaded data does not hold together (a fact lost in a join, a key missing)."""


def schema_files(schema_dir: Path = SCHEMA_DIR) -> tuple[list[Path], list[Path]]:
    files = sorted(Path(schema_dir).glob("*.sql"))
    return ([f for f in files if f.name.startswith(RAW_STAGE)],
            [f for f in files if not f.name.startswith(RAW_STAGE)])


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[tuple]:
    """Execute and fetch to the end: DuckDB 2.0 refuses new work on a connection while a
    result of execute() is still pending, even for statements that return nothing."""
    result = con.execute(sql, params) if params is not None else con.execute(sql)
    return result.fetchall()


def run_sql_file(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    run(con, Path(path).read_text(encoding="utf-8"))


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict]) -> None:
    if not rows:
        return
    columns = [c[0] for c in run(con, f"DESCRIBE {table}")]
    data = pa.Table.from_pydict({c: [row.get(c) for row in rows] for c in columns})
    con.register("_rows", data)
    try:
        run(con, f"INSERT INTO {table} SELECT {', '.join(columns)} FROM _rows")
    finally:
        con.unregister("_rows")


def _q(q):  # a Quantity's three parts, or three NULLs
    return (q.printed, q.number, q.unit) if q is not None else (None, None, None)


def load_reference(con: duckdb.DuckDBPyConnection) -> None:
    _insert(con, "ref_units", [
        {"quantity": kind, "token": token, "unit": unit, "factor": factor}
        for kind, tokens in UNITS.items() for token, (unit, factor) in tokens.items()])
    _insert(con, "ref_metrics", [
        {"metric": metric, "quantity": kind, "unit": next(iter(UNITS[kind].values()))[0],
         "description": description}
        for metric, (kind, description) in METRICS.items()])


def load_reports(con: duckdb.DuckDBPyConnection, reports: list[LoadedReport]) -> None:
    """Insert every parsed record into the raw_ tables, in a deterministic order."""
    rows: dict[str, list[dict]] = {name: [] for name in (
        "raw_reports", "raw_products", "raw_platforms", "raw_tables", "raw_scenarios",
        "raw_tshirts", "raw_observations", "raw_claims", "raw_header_variants")}
    for loaded in sorted(reports, key=lambda r: r.source.file):
        _collect(loaded, rows)
    for table, table_rows in rows.items():
        _insert(con, table, table_rows)


def _collect(loaded: LoadedReport, rows: dict[str, list[dict]]) -> None:
    src, parsed, entry = loaded.source.file, loaded.parsed, loaded.source.entry
    rows["raw_reports"].append({
        "source": src, "family": loaded.source.family, "title": entry["title"],
        "edition": entry.get("edition"), "published": str(entry["published"]),
        "published_note": entry.get("published_note"), "document_id": entry.get("document_id"),
        "document_id_note": entry.get("document_id_note"), "origin": entry["origin"],
        "retrieved": str(entry["retrieved"]), "sha256": loaded.source.sha256,
        "line_count": loaded.line_count})
    for key, product in loaded.source.products.items():
        rows["raw_products"].append({
            "source": src, "product_key": key, "name": product["name"], "short": product["short"],
            "version": str(product["version"]), "fix_pack": product.get("fix_pack")})
    for key, platform in loaded.source.platforms.items():
        note = " ".join(str(v) for k, v in platform.items() if k.endswith("_note")) or None
        rows["raw_platforms"].append({
            "source": src, "platform_key": key, "label": platform["label"], "os": platform["os"],
            "hardware": platform["hardware"], "cpu_model": platform["cpu_model"],
            "cores": platform["cores"], "deployment": platform["deployment"],
            "memory": platform.get("memory"), "note": note})
    for table in parsed.tables:
        rows["raw_tables"].append({
            "source": src, "table_key": table.table_key, "title": table.title, "kind": table.kind,
            "heading_line": table.heading_line, "page": table.page, "note": table.note})
    for scenario in parsed.scenarios:
        rows["raw_scenarios"].append({"source": src, **scenario.__dict__})
    for tshirt in parsed.tshirts:
        rows["raw_tshirts"].append({"source": src, "name": tshirt.name, "cpu_cores": tshirt.cpu_cores,
                                    "memory_mib": tshirt.memory_mib, "line": tshirt.line})
    for seq, o in enumerate(parsed.observations, 1):
        size_printed, size_number, size_unit = _q(o.message_size)
        conc_printed, conc_number, _ = _q(o.concurrency)
        rows["raw_observations"].append({
            "source": src, "seq": seq, "table_key": o.table_key, "row_line": o.row_line,
            "page": o.page, "product_key": o.product, "platform_key": o.platform,
            "scenario": o.scenario, "metric": o.metric, "printed_value": o.value.printed,
            "number": o.value.number, "unit": o.value.unit, "size_printed": size_printed,
            "size_number": size_number, "size_unit": size_unit, "persistent": o.persistent,
            "concurrency_kind": o.concurrency_kind, "concurrency_printed": conc_printed,
            "concurrency_number": conc_number, "replicas": o.replicas, "tshirt": o.tshirt,
            "component": o.component, "observed_at": o.observed_at})
    for seq, c in enumerate(parsed.claims, 1):
        size_printed, size_number, size_unit = _q(c.message_size)
        rows["raw_claims"].append({
            "source": src, "seq": seq, "line": c.line, "page": c.page, "claim_text": c.text,
            "product_key": c.product, "platform_key": c.platform, "scenario": c.scenario,
            "metric": c.metric, "comparison": c.comparison, "printed_value": c.value.printed,
            "number": c.value.number, "unit": c.value.unit, "size_printed": size_printed,
            "size_number": size_number, "size_unit": size_unit, "persistent": c.persistent,
            "concurrency_kind": c.concurrency_kind,
            "concurrency_number": c.concurrency.number if c.concurrency else None,
            "relative_scenario": c.relative_scenario,
            "relative_concurrency": c.relative_concurrency.number if c.relative_concurrency else None})
    for line, printed, canonical in parsed.header_variants:
        rows["raw_header_variants"].append({"source": src, "line": line, "printed": printed,
                                            "canonical": canonical})


def check_integrity(con: duckdb.DuckDBPyConnection) -> None:
    """Every raw number must become exactly one fact: a lost join is an error, not a gap."""
    lost = run(con, """
        SELECT o.source, o.row_line, o.metric, o.printed_value, o.product_key, o.platform_key,
               o.scenario, o.table_key
        FROM raw_observations o
        ANTI JOIN fact_metric_value f ON f.source_file = o.source AND f.source_line = o.row_line
                                     AND f.metric = o.metric AND f.printed_value = o.printed_value
        ORDER BY o.source, o.seq LIMIT 5""")
    raw, facts = run(con, "SELECT (SELECT count(*) FROM raw_observations), "
                          "(SELECT count(*) FROM fact_metric_value)")[0]
    if lost or raw != facts:
        detail = "; ".join(f"{s}:{line} {metric}={value!r} (product {p}, platform {pl}, "
                           f"scenario {sc!r}, table {t!r})"
                           for s, line, metric, value, p, pl, sc, t in lost)
        raise WarehouseError(f"{raw} values parsed but {facts} facts built; a product, platform, "
                             f"scenario or table key has no dimension row. First lost: {detail}")
    claims_raw, claims = run(con, "SELECT (SELECT count(*) FROM raw_claims), "
                                  "(SELECT count(*) FROM fact_claim)")[0]
    if claims_raw != claims:
        raise WarehouseError(f"{claims_raw} claims parsed but {claims} loaded")


def apply_comments(con: duckdb.DuckDBPyConnection, dictionary: Path) -> list[str]:
    """COMMENT ON every table, view and column from the data dictionary.

    Returns the objects that have no entry (the build treats any as an error).
    """
    spec = yaml.safe_load(Path(dictionary).read_text(encoding="utf-8"))
    relations = spec["relations"]
    columns = spec["columns"]
    missing = []
    objects = run(con, """
        SELECT table_name, 'TABLE' FROM duckdb_tables() WHERE database_name = current_database()
          AND schema_name = 'main' AND NOT internal
        UNION ALL
        SELECT view_name, 'VIEW' FROM duckdb_views() WHERE database_name = current_database()
          AND schema_name = 'main' AND NOT internal
        ORDER BY 1""")
    for name, kind in objects:
        text = relations.get(name)
        if text is None:
            missing.append(name)
        else:
            run(con, f"COMMENT ON {kind} {name} IS {_literal(text)}")
        for (column,) in run(
                con, "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() "
                "AND schema_name = 'main' AND table_name = ? ORDER BY column_index", [name]):
            text = columns.get(f"{name}.{column}", columns.get(column))
            if text is None:
                missing.append(f"{name}.{column}")
            else:
                run(con, f"COMMENT ON COLUMN {name}.{column} IS {_literal(text)}")
    return missing


def _literal(text: str) -> str:
    """A SQL string literal (COMMENT ON takes no parameters)."""
    return "'" + str(text).strip().replace("'", "''") + "'"
