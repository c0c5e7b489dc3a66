"""Loading the raw layer - parsed reports and CSV submissions alike - and the warehouse built
on it.

A report arrives parsed (`LoadedReport`, from its family's parser); a CSV submission arrives
as a file (`CsvSubmission`) that the submission reader stages with DuckDB. Both land in the
same raw_ tables, and everything above them (schema/10_stg onwards) is the same for both.
Nothing here parses and nothing here decides file names or atomic replacement (that is
`perfwh.stages`): functions take an open connection.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Union

import duckdb

from ingest import submission
from ingest.printable import OneLineMessage
from ingest.records import ParsedReport
from ingest.units import METRICS, UNITS
from ingest.vocabulary import CONCURRENCY_KINDS, TOPOLOGIES

from perfwh.core.files import scratch_directory
from perfwh.core.interrupts import interrupted
from perfwh.core.paths import PROJECT_ROOT

from .db import insert_rows, one_transaction, out_of_memory, placeholders, run, sql_literal
from .schema import apply_model_stage, apply_raw_stage, load_stage_files, schema_inputs
from .sources import ReportSource


@dataclass
class LoadedReport:
    """A report parsed by its family's parser."""
    source: ReportSource
    parsed: ParsedReport
    line_count: int


@dataclass
class RetiredSource:
    """A source replaced by a revision: recorded in raw_reports, its numbers not loaded."""
    source: ReportSource


@dataclass
class CsvSubmission:
    """A CSV in the submission template, read by `ingest.submission` when it is loaded."""
    source: ReportSource
    path: Path
    format: submission.CsvFormat | None = None


SourceInput = Union[LoadedReport, CsvSubmission, RetiredSource]
# The raw layer's tables, in load order (schema/00_raw.sql creates them).
RAW_TABLES = ("raw_reports", "raw_products", "raw_platforms", "raw_tables", "raw_scenarios",
              "raw_tshirts", "raw_observations", "raw_claims", "raw_header_variants", "raw_rejects",
              "raw_waivers")


class WarehouseError(OneLineMessage, RuntimeError):
    """The loaded data does not hold together (a fact lost in a join, a key missing)."""


def _q(q):  # a Quantity's three parts, or three NULLs
    return (q.printed, q.number, q.unit) if q is not None else (None, None, None)


# What each reference table is made from, as a message names it.
REFERENCE_ORIGINS = {"ref_schema_files": "the schema (schema/)",
                     "ref_units": "the unit table (ingest/units.py)",
                     "ref_metrics": "the metrics (ingest/units.py)",
                     "ref_concurrency_kinds": "the concurrency kinds (ingest/vocabulary.py)",
                     "ref_topologies": "the topologies (ingest/vocabulary.py)"}


def reference_rows() -> dict[str, list[dict]]:
    """The reference tables' rows - the schema's files, units, metrics and the vocabulary - from
    their one definition."""
    return {
        "ref_schema_files": [{"file": path.relative_to(PROJECT_ROOT).as_posix(),
                              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
                             for path in schema_inputs()],
        "ref_units": [{"quantity": kind, "token": token, "unit": unit, "factor": factor}
                      for kind, tokens in UNITS.items() for token, (unit, factor) in tokens.items()],
        "ref_metrics": [{"metric": metric, "quantity": kind, "unit": next(iter(UNITS[kind].values()))[0],
                         "description": description}
                        for metric, (kind, description) in METRICS.items()],
        "ref_concurrency_kinds": [
            {"concurrency_kind": k.name, "label": k.label, "meaning": k.meaning, "value_kind": k.value,
             "cpu_limit": k.cpu_limit, "peak_load": k.peak_load} for k in CONCURRENCY_KINDS.values()],
        "ref_topologies": [{"topology": t.name, "label": t.label, "meaning": t.meaning,
                            "replicated": t.replicated} for t in TOPOLOGIES.values()]}


def load_reference(con: duckdb.DuckDBPyConnection) -> None:
    for table, rows in reference_rows().items():
        insert_rows(con, table, rows)


def reference_drift(con: duckdb.DuckDBPyConnection) -> list[str]:
    """How the warehouse's reference tables differ from those this code defines, one line per
    table that differs (none: the same): a warehouse built by another version of perfwh reads
    and converts a new submission otherwise than a build of it would (a unit added since is
    unknown to its staging)."""
    drift = []
    for table, rows in reference_rows().items():
        columns = list(rows[0])
        try:
            held_rows = run(con, f"SELECT {', '.join(columns)} FROM {table}")
        except duckdb.Error:
            drift.append(f"{REFERENCE_ORIGINS[table]}: the warehouse has no {table} of its columns")
            continue
        # a table another version made may have another key, or none
        keys = [k for k in primary_key(con, table) if k in columns] or columns[:1]
        held = {tuple(r[columns.index(k)] for k in keys): tuple(r) for r in held_rows}
        # a factor is defined as a decimal string and held as a DECIMAL: 0.001 = 0.001000000000
        wanted = {tuple(r[k] for k in keys): tuple(_as_held(r[c], held_rows, i) for i, c in enumerate(columns))
                  for r in rows}
        parts = [f"{label} {_named(part)}" for label, part in (
            ("lacks", sorted(set(wanted) - set(held))),
            ("has", sorted(set(held) - set(wanted))),
            ("differs in", sorted(k for k in set(wanted) & set(held) if wanted[k] != held[k]))) if part]
        if parts:
            drift.append(f"{REFERENCE_ORIGINS[table]}: {table} " + ", ".join(parts))
    return drift


def primary_key(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """The columns of ``table``'s primary key (schema/00_raw.sql), which a message names a row by."""
    found = run(con, "SELECT constraint_column_names FROM duckdb_constraints() WHERE table_name = ? "
                     "AND constraint_type = 'PRIMARY KEY' AND database_name = current_database()", [table])
    return list(found[0][0]) if found else []


def _as_held(value, held_rows: list[tuple], column: int):
    if held_rows and isinstance(held_rows[0][column], Decimal):
        return Decimal(str(value))
    return value


def _named(keys: list[tuple], shown: int = 5) -> str:
    names = ", ".join(repr(k[0]) + (f" ({', '.join(map(str, k[1:]))})" if len(k) > 1 else "")
                      for k in keys[:shown])
    return names + (f" and {len(keys) - shown} more" if len(keys) > shown else "")


def load_inputs(con: duckdb.DuckDBPyConnection, inputs: list[SourceInput]) -> None:
    """Insert every source into the raw_ tables, in a deterministic order: the reports'
    parsed records, then each CSV submission through the submission reader."""
    reports = [i for i in inputs if isinstance(i, LoadedReport)]
    rows: dict[str, list[dict]] = {name: [] for name in RAW_TABLES}
    for loaded in sorted(reports, key=lambda r: r.source.file):
        _collect(loaded, rows)
    for retired in sorted((i for i in inputs if isinstance(i, RetiredSource)),
                          key=lambda i: i.source.file):
        rows["raw_reports"].append(_report_row(retired.source, None))
    for read in sorted(inputs, key=lambda i: i.source.file):
        rows["raw_waivers"].extend(waiver_rows(read.source))
    for table, table_rows in rows.items():
        insert_rows(con, table, table_rows)
    for csv_input in sorted((i for i in inputs if isinstance(i, CsvSubmission)),
                            key=lambda i: i.source.file):
        load_csv(con, csv_input)


def load_csv(con: duckdb.DuckDBPyConnection, csv_input: CsvSubmission) -> submission.Staged:
    """A CSV submission into the raw_ tables (its rows, and its rejected cells)."""
    source = csv_input.source
    with scratch_directory("csv") as scratch:  # a killed load's UTF-8 copy goes next time
        staged = submission.stage(con, csv_input.path, source.file, csv_input.format, scratch)
    try:
        insert_rows(con, "raw_reports", [_report_row(source, staged.format.line_count)])
        for table, relation in staged.RELATIONS.items():
            _insert_in_chunks(con, table, relation)
    finally:
        submission.drop_staged(con)
    return staged


# Rows per INSERT into a raw table. Each statement is its own transaction, and DuckDB holds a
# transaction's new primary-key entries in memory until it commits (an index cannot spill):
# thirty million observations in one statement need more than a 512MB memory limit allows.
INSERT_CHUNK = 2_000_000


def _insert_in_chunks(con: duckdb.DuckDBPyConnection, table: str, relation: str) -> None:
    """INSERT INTO table SELECT * FROM relation, a chunk of rows at a time, in the relation's
    order (so the rows land as one statement would put them). By ranges of rowid from the
    first: inside a transaction, the rows of a table it created are numbered from 2^62."""
    first, last = run(con, f"SELECT coalesce(min(rowid), 0), coalesce(max(rowid), 0) FROM {relation}")[0]
    for start in range(first, last + 1, INSERT_CHUNK):
        run(con, f"INSERT INTO {table} BY NAME SELECT * FROM {relation} "
                 f"WHERE rowid >= {start} AND rowid < {start + INSERT_CHUNK}")


def copy_raw_layer(con: duckdb.DuckDBPyConnection, warehouse: Path) -> None:
    """The raw layer of an existing warehouse, copied into ``con`` (whose raw stage exists):
    the starting point of a check, which adds a submission and builds the rest."""
    run(con, f"ATTACH {sql_literal(str(warehouse))} AS source_warehouse (READ_ONLY)")
    try:
        for table in RAW_TABLES:
            run(con, f"INSERT INTO {table} BY NAME SELECT * FROM source_warehouse.{table}")
    except duckdb.Error as err:
        if out_of_memory(err) or interrupted(err):
            raise  # not a schema mismatch: the caller reports its memory limit, or the stop
        raise WarehouseError(f"{warehouse}: its raw layer does not match this perfwh's schema "
                             f"({str(err).splitlines()[0]}); rebuild it with `perfwh build`") from None
    finally:
        run(con, "DETACH source_warehouse")


def record_manifest(con: duckdb.DuckDBPyConnection, sha256: str) -> None:
    """raw_manifest: the sha256 of the sources.yml text the raw layer now holds."""
    run(con, "DELETE FROM raw_manifest")
    run(con, "INSERT INTO raw_manifest VALUES (?)", [sha256])


def waiver_rows(source: ReportSource) -> list[dict]:
    """The findings accepted when the source was filed, as its sources.yml entry lists them."""
    return [{"source": source.file, "finding_key": w["id"], "reason": w["reason"]}
            for w in source.entry.get("waivers") or []]


def retire(con: duckdb.DuckDBPyConnection, file: str, by: str, on: str) -> None:
    """Take a filed source's numbers out of the raw layer, keeping its raw_reports row with
    the source that replaced it, and the waivers its sources.yml entry keeps (as a build
    loads them)."""
    for table in RAW_TABLES:
        if table not in ("raw_reports", "raw_waivers"):
            run(con, f"DELETE FROM {table} WHERE source = ?", [file])
    run(con, "UPDATE raw_reports SET retired_by = ?, retired_on = ?, line_count = NULL "
             "WHERE source = ?", [by, on, file])


def _report_row(source: ReportSource, line_count: int | None) -> dict:
    entry = source.entry
    retired = entry.get("retired") or {}
    return {
        "source": source.file, "family": source.family, "filed_order": source.filed_order,
        "title": entry["title"],
        "edition": entry.get("edition"), "published": str(entry["published"]),
        "published_note": entry.get("published_note"), "document_id": entry.get("document_id"),
        "document_id_note": entry.get("document_id_note"), "origin": entry["origin"],
        "retrieved": str(entry["retrieved"]), "sha256": source.sha256, "line_count": line_count,
        "retired_by": retired.get("by"), "retired_on": str(retired["on"]) if retired.get("on") else None}


def _collect(loaded: LoadedReport, rows: dict[str, list[dict]]) -> None:
    src, parsed = loaded.source.file, loaded.parsed
    rows["raw_reports"].append(_report_row(loaded.source, loaded.line_count))
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
            "component": o.component, "observed_at": o.observed_at, "topology": o.topology,
            "queue_managers": o.queue_managers, "simulated_latency_ms": o.simulated_latency_ms})
    for seq, c in enumerate(parsed.claims, 1):
        size_printed, size_number, size_unit = _q(c.message_size)
        printed, number, unit = _q(c.value)
        rows["raw_claims"].append({
            "source": src, "seq": seq, "line": c.line, "page": c.page, "claim_text": c.text,
            "claim_kind": c.kind, "product_key": c.product, "platform_key": c.platform,
            "scenario": c.scenario, "metric": c.metric, "comparison": c.comparison,
            "compared": c.compared, "quantifier": c.quantifier, "scope": c.scope,
            "printed_value": printed if c.value is not None else c.phrase,
            "number": number, "unit": unit, "size_printed": size_printed,
            "size_number": size_number, "size_unit": size_unit, "persistent": c.persistent,
            "concurrency_kind": c.concurrency_kind,
            "concurrency_number": c.concurrency.number if c.concurrency else None,
            "relative_scenario": c.relative_scenario,
            "relative_concurrency": c.relative_concurrency.number if c.relative_concurrency else None,
            "relative_persistent": c.relative_persistent,
            "relative_concurrency_kind": c.relative_concurrency_kind,
            "stated_date": c.stated_date, "topology": c.topology,
            "queue_managers": c.queue_managers, "simulated_latency_ms": c.simulated_latency_ms,
            "relative_platform_key": c.relative_platform, "relative_topology": c.relative_topology,
            "relative_simulated_latency_ms": c.relative_simulated_latency_ms})
    for line, printed, canonical in parsed.header_variants:
        rows["raw_header_variants"].append({"source": src, "line": line, "printed": printed,
                                            "canonical": canonical})


def check_integrity(con: duckdb.DuckDBPyConnection) -> None:
    """Every raw number of the loaded sources must become exactly one fact: a lost join is an
    error, not a gap. The sources are given as constants, on both sides of each join: DuckDB
    then reads only their rows of the facts, not every filed source's (a cost that grew with
    the warehouse)."""
    sources = [s for (s,) in run(con, f"SELECT source FROM {LOADING} ORDER BY 1")]
    of = f"({placeholders(sources)})" if sources else "(SELECT NULL WHERE FALSE)"
    lost = run(con, f"""
        SELECT o.source, o.row_line, o.metric, o.printed_value, o.product_key, o.platform_key,
               o.scenario, o.table_key
        FROM raw_observations o
        ANTI JOIN (SELECT * FROM fact_metric_value WHERE source_file IN {of}) f
            ON f.source_file = o.source AND f.source_line = o.row_line
           AND f.metric = o.metric AND f.printed_value = o.printed_value
        WHERE o.source IN {of}
        ORDER BY o.source, o.seq LIMIT 5""", sources * 2)
    raw, facts = run(con, f"""
        SELECT (SELECT count(*) FROM raw_observations WHERE source IN {of}),
               (SELECT count(*) FROM fact_metric_value WHERE source_file IN {of})""", sources * 2)[0]
    if lost or raw != facts:
        detail = "; ".join(f"{s}:{line} {metric}={value!r} (product {p}, platform {pl}, "
                           f"scenario {sc!r}, table {t!r})"
                           for s, line, metric, value, p, pl, sc, t in lost)
        raise WarehouseError(f"{raw} values parsed but {facts} facts built; a product, platform, "
                             f"scenario or table key has no dimension row. First lost: {detail}")
    unknown = run(con, f"""
        SELECT DISTINCT o.source, o.concurrency_kind FROM raw_observations o
        ANTI JOIN ref_concurrency_kinds k USING (concurrency_kind)
        WHERE o.concurrency_kind IS NOT NULL AND o.source IN {of}
        ORDER BY ALL LIMIT 5""", sources)
    if unknown:
        raise WarehouseError("concurrency kinds not in the vocabulary (ingest/vocabulary.py): "
                             + "; ".join(f"{s}: {k!r}" for s, k in unknown))
    unknown = run(con, f"""
        SELECT DISTINCT o.source, o.topology FROM raw_observations o
        ANTI JOIN ref_topologies t USING (topology)
        WHERE o.topology IS NOT NULL AND o.source IN {of} ORDER BY ALL LIMIT 5""", sources)
    if unknown:
        raise WarehouseError("topologies not in the vocabulary (ingest/vocabulary.py): "
                             + "; ".join(f"{s}: {t!r}" for s, t in unknown))
    claims_raw, claims = run(con, f"""
        SELECT (SELECT count(*) FROM raw_claims WHERE source IN {of}),
               (SELECT count(*) FROM fact_claim WHERE source_file IN {of})""", sources * 2)[0]
    if claims_raw != claims:
        raise WarehouseError(f"{claims_raw} claims parsed but {claims} loaded")
    # A claim's number goes through the unit table like a cell's: a unit it does not know
    # would leave the value empty (stg_claims joins it outside, claims without a number have none).
    unread = run(con, f"""
        SELECT c.source, c.line, c.printed_value, c.unit FROM raw_claims c
        JOIN (SELECT * FROM fact_claim WHERE source_file IN {of}) f
            ON f.source_file = c.source AND f.source_line = c.line AND f.printed_value = c.printed_value
        WHERE c.number IS NOT NULL AND f.value IS NULL AND c.source IN {of}
        ORDER BY ALL LIMIT 5""", sources * 2)
    if unread:
        raise WarehouseError("claims whose number could not be converted (unknown unit): "
                             + "; ".join(f"{s}:{line} {p!r} unit {u!r}" for s, line, p, u in unread))


# -- the dimensional model: one definition for a build and an add --------------------------

# The sources whose rows a load writes: a temporary table the schema's load views read.
LOADING = "loading"
# A load view's rows while they are written (a temporary table).
VIEW_ROWS = "loading_view_rows"


def stable_id(*key) -> int:
    """schema/10_stg.sql's ``stable_id(json_array(key...))`` in Python."""
    text = json.dumps(list(key), separators=(",", ":"), ensure_ascii=False)
    return int(hashlib.md5(text.encode("utf-8")).hexdigest()[:14], 16) >> 3


def _set_loading(con: duckdb.DuckDBPyConnection, sources: list[str] | None) -> None:
    """LOADING: ``sources``, or every source of the raw layer (None)."""
    if sources is None:
        run(con, f"CREATE OR REPLACE TEMP TABLE {LOADING} AS SELECT source FROM raw_reports")
    else:
        run(con, f"CREATE OR REPLACE TEMP TABLE {LOADING} AS SELECT UNNEST(?::VARCHAR[]) AS source",
            [sorted(set(sources))])


def _columns(con: duckdb.DuckDBPyConnection, relation: str) -> list[str]:
    return [name for name, *_ in run(con, f"DESCRIBE {relation}")]


def _write_loaded(con: duckdb.DuckDBPyConnection, path: Path, views: list[str]) -> set[int]:
    """Run a schema file of load views and write each view's rows into its table: the table
    is created from the view on a new warehouse; on a filled one, the rows of the loaded
    sources (by their report_id, or source) and the rows the view rewrites (by its id, the
    first column) are replaced by the view's. Returns the report_ids of the rows written."""
    run(con, Path(path).read_text(encoding="utf-8"))
    written: set[int] = set()
    tables = {name for (name,) in run(con, "SELECT table_name FROM duckdb_tables() WHERE database_name = "
                                           "current_database() AND schema_name = 'main'")}
    for view in views:
        table = view[len("load_"):]
        # the view's rows computed once, not once for each of the three reads below: the
        # views read the raw layer, and each reading was a tenth of a one-row check
        run(con, f"CREATE OR REPLACE TEMP TABLE {VIEW_ROWS} AS SELECT * FROM {view}")
        columns = _columns(con, VIEW_ROWS)
        key = columns[0]
        if "report_id" in columns:
            written.update(r for (r,) in run(con, f"SELECT DISTINCT report_id FROM {VIEW_ROWS}"))
        if table not in tables:
            run(con, f"CREATE TABLE {table} AS SELECT * FROM {VIEW_ROWS} ORDER BY {key}")
            continue
        if "report_id" in columns:
            run(con, f"DELETE FROM {table} WHERE report_id IN "
                     f"(SELECT stable_id(json_array(source)) FROM {LOADING})")
        elif "source" in columns:
            run(con, f"DELETE FROM {table} WHERE source IN (SELECT source FROM {LOADING})")
        run(con, f"DELETE FROM {table} WHERE {key} IN (SELECT {key} FROM {VIEW_ROWS})")
        run(con, f"INSERT INTO {table} SELECT * FROM {VIEW_ROWS} ORDER BY {key}")
    # (after an error it stays: temporary, and replaced by the next load)
    run(con, f"DROP TABLE IF EXISTS temp.main.{VIEW_ROWS}")
    return written


def _refresh_shared(con: duckdb.DuckDBPyConnection) -> None:
    """The dimensions shared by reports (no report_id: products, sizes, configurations)
    rewritten from every source, as a build writes them: after a source is retired, a row only
    it had goes, and a name only it spelt so is spelt as the others spell it."""
    loaded = run(con, f"SELECT source FROM {LOADING}")
    _set_loading(con, None)
    try:
        for path, views in load_stage_files():
            for view in views:
                table = view[len("load_"):]
                if "report_id" not in _columns(con, view) and table.startswith("dim_"):
                    run(con, f"DELETE FROM {table}")
                    run(con, f"INSERT INTO {table} SELECT * FROM {view} ORDER BY 1")
    finally:
        _set_loading(con, [s for (s,) in loaded])


# Up to this many numbers loaded, the model stage is one transaction; past it, each statement
# commits on its own. A transaction keeps the temporary tables it fills in memory: a build of
# 857,000 numbers failed under the default 512MB limit, where statements committed one by
# one spill; and beyond a few thousand rows the commits' cost is nothing beside the work.
ONE_TRANSACTION_NUMBERS = 100_000


@contextlib.contextmanager
def _model_stage(con: duckdb.DuckDBPyConnection, sources: list[str] | None):
    """The block's writes of the dimensional model for ``sources`` (None: every source), then
    the integrity check - in one transaction for a small load: each of its few dozen
    statements on its own was a commit, and a 3-row check spent a third of its CPU committing.
    (The raw rows before it are inserted and committed a chunk at a time: a transaction keeps
    its new index entries in memory, and only the raw tables have indexes.)"""
    _set_loading(con, sources)
    numbers = run(con, f"SELECT count(*) FROM raw_observations WHERE source IN (SELECT source FROM {LOADING})")[0][0]
    with one_transaction(con) if numbers <= ONE_TRANSACTION_NUMBERS else contextlib.nullcontext():
        yield
        check_integrity(con)


def create_warehouse(con: duckdb.DuckDBPyConnection, inputs: list[SourceInput],
                     raw_from: Path | None = None,
                     retiring: list[tuple[str, str, str]] = ()) -> None:
    """Schema, reference tables, raw rows (those of the warehouse ``raw_from``, if given, less
    the sources ``retiring`` - (file, replaced by, date) - then ``inputs``), then the
    dimensional model on top (`_model_stage`)."""
    apply_raw_stage(con)
    load_reference(con)
    if raw_from is not None:
        copy_raw_layer(con, raw_from)
    for file, by, on in retiring:
        retire(con, file, by, on)
    load_inputs(con, inputs)
    with _model_stage(con, None):
        apply_model_stage(con, lambda path, views: _write_loaded(con, path, views))


def add_sources(con: duckdb.DuckDBPyConnection, inputs: list[SourceInput],
                retiring: list[tuple[str, str, str]] = ()) -> tuple[list[str], list[str]]:
    """The sources ``inputs`` added to the filled warehouse open in ``con`` (and the sources
    ``retiring`` - (file, replaced by, date) - retired): their raw rows appended, and the rows
    of the dimensional model they make or change written, by the same definitions a build
    writes them with - never a rebuild. Returns (the sources loaded - the new and the retired -,
    every source whose rows changed: those, and any other whose rows a loaded one rewrote, such
    as a filed submission's scenario that a new report describes)."""
    for file, by, on in retiring:
        retire(con, file, by, on)
    load_inputs(con, inputs)
    loaded = [i.source.file for i in inputs] + [file for file, _by, _on in retiring]
    written: set[int] = set()
    with _model_stage(con, loaded):
        for path, views in load_stage_files():
            written |= _write_loaded(con, path, views)
        if retiring:
            _refresh_shared(con)
    changed = {s for (s,) in run(con, "SELECT source FROM dim_report WHERE report_id IN "
                                      "(SELECT UNNEST(?::BIGINT[]))", [sorted(written)])}
    return loaded, sorted(changed | set(loaded))
