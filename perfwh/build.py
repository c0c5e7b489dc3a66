"""`perfwh build`: raw reports -> warehouse, atomically and deterministically.

The new warehouse is written to a temporary file next to the old one and renamed
over it only when every step has passed, so a failed build leaves the previous
warehouse as it was. The same inputs give the same rows, ids and order.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ingest import families
from ingest.reader import read_lines
from ingest.records import ParseError

from . import RAW_DIR, SCHEMA_DIR, SOURCES_FILE, WAREHOUSE
from .dq import RuleError, load_rules, run_rules, write_findings
from .gx import findings_in_subprocess
from .progress import Progress
from .repair import suggest
from .sources import ReportSource, SourceError, find_raw, load_manifest, verify
from .warehouse import (LoadedReport, WarehouseError, apply_comments, check_integrity,
                        load_reference, load_reports, run, run_sql_file, schema_files)

DICTIONARY = SCHEMA_DIR / "dictionary.yml"
# Tables and views exported as Parquet, one file each (views too: they are the contract).
EXPORT_VIEWS = ("metric_values", "measurements")


class BuildError(RuntimeError):
    """Any reason a build stopped; the message names the file and line where there is one."""


@dataclass
class BuildSummary:
    reports: int = 0
    values: int = 0
    claims: int = 0
    findings: int | None = None
    timings: dict[str, float] = field(default_factory=dict)


def parse_sources(raw_dir: Path, sources_file: Path, progress: Progress | None = None
                  ) -> list[LoadedReport]:
    """Verify and parse every report of the manifest; pure of any warehouse."""
    loaded = []
    for source in load_manifest(sources_file):
        path = find_raw(raw_dir, source.file)
        verify(source, path)
        lines = read_lines(path)
        parsed = families.parse(source.family, lines, source.file)
        _check_keys(source, parsed)
        loaded.append(LoadedReport(source, parsed, len(lines)))
        if progress:
            progress.step(f"parsed {source.file}: {len(parsed.tables)} tables, "
                          f"{len(parsed.observations)} values")
    return loaded


def _check_keys(source: ReportSource, parsed) -> None:
    for o in parsed.observations:
        if o.product not in source.products:
            raise SourceError(f"{source.file}:{o.row_line}: product {o.product!r} is not in "
                              f"sources.yml (known: {', '.join(source.products)})")
        if o.platform not in source.platforms:
            raise SourceError(f"{source.file}:{o.row_line}: platform {o.platform!r} is not in "
                              f"sources.yml (known: {', '.join(source.platforms)})")


def create_warehouse(con: duckdb.DuckDBPyConnection, reports: list[LoadedReport]) -> None:
    """Schema, reference tables, raw rows, then the dimensional model on top."""
    raw_stage, model_stage = schema_files()
    for path in raw_stage:
        run_sql_file(con, path)
    load_reference(con)
    load_reports(con, reports)
    for path in model_stage:
        run_sql_file(con, path)
    check_integrity(con)


def document(con: duckdb.DuckDBPyConnection) -> None:
    missing = apply_comments(con, DICTIONARY)
    if missing:
        raise BuildError(f"{DICTIONARY}: no data-dictionary entry for " + ", ".join(missing[:10])
                         + (f" and {len(missing) - 10} more" if len(missing) > 10 else ""))


def export_parquet(con: duckdb.DuckDBPyConnection, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    names = [r[0] for r in run(
        con, "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT internal ORDER BY table_name")] + list(EXPORT_VIEWS)
    for name in names:
        target = str(directory / f"{name}.parquet").replace("'", "''")
        run(con, f"COPY (SELECT * FROM {name}) TO '{target}' (FORMAT parquet)")


def temporary_path(target: Path, suffix: str = "") -> Path:
    return target.with_name(f".{target.name}.tmp-{os.getpid()}{suffix}")


def replace_directory(new: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def atomic_update(warehouse: Path = WAREHOUSE, parquet: bool = True):
    """Open a copy of the warehouse for a later stage (rules, models); rename it over the
    original only if the block succeeds, then refresh the Parquet export."""
    if not warehouse.is_file():
        raise BuildError(f"{warehouse}: no warehouse yet; run `perfwh build` (or `make`) first")
    tmp = temporary_path(warehouse)
    shutil.copyfile(warehouse, tmp)
    try:
        con = duckdb.connect(str(tmp))
        try:
            yield con
            document(con)
            if parquet:
                tmp_parquet = temporary_path(warehouse.parent / "parquet")
                export_parquet(con, tmp_parquet)
        finally:
            con.close()
        os.replace(tmp, warehouse)
        if parquet:
            replace_directory(tmp_parquet, warehouse.parent / "parquet")
    finally:
        tmp.unlink(missing_ok=True)
        Path(str(tmp) + ".wal").unlink(missing_ok=True)
        if parquet:
            shutil.rmtree(temporary_path(warehouse.parent / "parquet"), ignore_errors=True)


def _data_quality(con: duckdb.DuckDBPyConnection, path: Path, engine: str, gx_dir: Path,
                  waivers: dict[tuple[str, str], str]) -> tuple[duckdb.DuckDBPyConnection, int]:
    """Run the rules (through GX on the file, or directly), suggest typo repairs, store the
    findings. GX needs the file closed here; the connection is reopened afterwards."""
    rules = load_rules()
    if engine == "gx":
        con.close()
        findings = findings_in_subprocess(path, gx_dir)
        con = duckdb.connect(str(path))
    elif engine == "duckdb":
        findings = run_rules(con, rules)
    else:
        raise BuildError(f"unknown rules engine {engine!r}, expected gx, duckdb or none")
    findings = suggest(con, findings, rules)
    return con, write_findings(con, findings, rules, waivers)


def build(out: Path = WAREHOUSE, raw_dir: Path = RAW_DIR, sources_file: Path = SOURCES_FILE,
          rules: str = "duckdb", parquet: bool = True, progress: bool = True) -> BuildSummary:
    """Build the warehouse at ``out``. ``rules``: 'gx', 'duckdb' or 'none'."""
    out = Path(out)
    summary = BuildSummary()
    try:  # a bad manifest or raw file is a BuildError too (the CLI reports it, no traceback)
        manifest = load_manifest(sources_file)
        bar = Progress("perfwh build", len(manifest) + 3 + (rules != "none")) if progress else None
        started = time.perf_counter()
        reports = parse_sources(raw_dir, sources_file, bar)
    except (ParseError, SourceError, OSError) as err:
        raise BuildError(str(err)) from err
    summary.timings["parse"] = time.perf_counter() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(out)
    tmp_parquet, tmp_gx = temporary_path(out.parent / "parquet"), temporary_path(out.parent / "gx")
    try:
        tmp.unlink(missing_ok=True)
        con = duckdb.connect(str(tmp))
        try:
            started = time.perf_counter()
            create_warehouse(con, reports)
            summary.timings["load"] = time.perf_counter() - started
            if bar:
                bar.step("loaded the star schema")
            if rules != "none":
                started = time.perf_counter()
                waivers = {(s.file, w["id"]): w["reason"] for s in manifest
                           for w in s.entry.get("waivers") or []}
                con, summary.findings = _data_quality(con, tmp, rules, tmp_gx, waivers)
                summary.timings["rules"] = time.perf_counter() - started
                if bar:
                    bar.step(f"ran the data-quality rules ({'Great Expectations' if rules == 'gx' else 'DuckDB'}): "
                             f"{summary.findings} findings")
            document(con)
            if bar:
                bar.step("documented every table, view and column")
            if parquet:
                started = time.perf_counter()
                export_parquet(con, tmp_parquet)
                summary.timings["parquet"] = time.perf_counter() - started
            summary.values, summary.claims = run(
                con, "SELECT (SELECT count(*) FROM fact_metric_value), "
                "(SELECT count(*) FROM fact_claim)")[0]
            summary.reports = len(reports)
        finally:
            con.close()
        os.replace(tmp, out)
        if parquet:
            replace_directory(tmp_parquet, out.parent / "parquet")
        if tmp_gx.exists():
            replace_directory(tmp_gx, out.parent / "gx")
        if bar:
            bar.step(f"wrote {out}")
            bar.finish(f"{summary.reports} reports, {summary.values} values, "
                       f"{summary.claims} claims" + (f", {summary.findings} findings"
                                                     if summary.findings is not None else ""))
    except (ParseError, SourceError, WarehouseError, RuleError, duckdb.Error) as err:
        raise BuildError(str(err)) from err
    finally:
        tmp.unlink(missing_ok=True)
        Path(str(tmp) + ".wal").unlink(missing_ok=True)
        shutil.rmtree(tmp_parquet, ignore_errors=True)
        shutil.rmtree(tmp_gx, ignore_errors=True)
    return summary
