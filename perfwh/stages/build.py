"""`perfwh build`: raw reports -> warehouse, atomically and deterministically.

The new warehouse, its Parquet lake and the Great
Expectations output are staged next to the old ones and committed together
(`perfwh.core.commit`) only when every step has passed, under the writer lock: a failed or
killed build leaves the previous warehouse as it was, and the next writer cleans up after it.
The same inputs give the same rows, ids and order. DuckDB works within a memory limit,
spilling beside the staged file.
"""
from __future__ import annotations

import contextlib
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ingest.records import ParseError
from perfwh.core.files import in_raw_layer, remove_database_wal
from perfwh.core.paths import RAW_DIR, SOURCES_FILE, WAREHOUSE
from perfwh.core.progress import Progress
from perfwh.quality.evaluate import ENGINES, evaluate
from perfwh.quality.rules import RuleError, load_rules
from perfwh.warehouse.db import BUILD_MEMORY_LIMIT, connect_bounded, remove_spill, run
from perfwh.warehouse.inputs import read_manifest
from perfwh.warehouse.lake import LakeError
from perfwh.warehouse.load import WarehouseError, create_warehouse, record_manifest
from perfwh.warehouse.schema import DictionaryError, document
from perfwh.warehouse.sources import SourceError, load_manifest, sha256_of

from .models import file_findings, fit_warehouse
from .writing import BuildError, Exports, atomic_update, stage_exports, writing


@dataclass
class BuildSummary:
    reports: int = 0
    values: int = 0
    claims: int = 0
    findings: int | None = None
    timings: dict[str, float] = field(default_factory=dict)


def _findings(con: duckdb.DuckDBPyConnection, engine: str, db_path: Path, transaction,
              exports: Exports | None, spark_master: str | None
              ) -> tuple[duckdb.DuckDBPyConnection, int]:
    """Run every rule (and the typo repair) on the staged warehouse and store the findings,
    the models fitted between the rules' two passes (`perfwh.quality.evaluate`); Great
    Expectations' results and Data Docs are staged beside the warehouse. Spark reads the lake,
    written for it into the staged lake (rewritten with the findings later) or, without
    exports, into a temporary folder."""
    rule_files = load_rules()
    gx_dir = transaction.stage(db_path.parent / "gx") if engine == "gx" else None
    with contextlib.ExitStack() as stack:
        lake = None
        if engine == "spark":
            lake = exports.lake if exports else Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="perfwh-lake-"))) / "lake"
        con = evaluate(con, engine, rule_files, db_path=db_path, gx_dir=gx_dir, lake=lake,
                       spark_master=spark_master, fit_models=fit_warehouse)
    return con, file_findings(con, rule_files)


def refresh_findings(warehouse: Path = WAREHOUSE, rules: str = "gx", parquet: bool = True,
                     wait: bool = True, spark_master: str | None = None) -> int:
    """`perfwh findings`: the rules run again on the warehouse as it is (after a rule file
    changed), the findings stored and committed atomically. Returns how many."""
    if rules not in ENGINES:
        raise BuildError(f"unknown rules engine {rules!r}, expected one of {', '.join(ENGINES)}")
    try:
        with atomic_update(Path(warehouse), parquet, "findings", wait) as staged:
            staged.con, count = _findings(staged.con, rules, staged.path, staged.transaction,
                                          staged.exports, spark_master)
    except (RuleError, DictionaryError, LakeError, duckdb.Error) as err:
        raise BuildError(str(err)) from err
    return count


def build(out: Path = WAREHOUSE, raw_dir: Path = RAW_DIR, sources_file: Path = SOURCES_FILE,
          rules: str = "duckdb", parquet: bool = True, progress: bool = True,
          wait: bool = True, spark_master: str | None = None,
          memory_limit: str = BUILD_MEMORY_LIMIT) -> BuildSummary:
    """Build the warehouse at ``out``. ``rules``: 'gx', 'duckdb', 'spark' or 'none'."""
    out = Path(out)
    summary = BuildSummary()
    if rules != "none" and rules not in ENGINES:
        raise BuildError(f"unknown rules engine {rules!r}, expected one of {', '.join(ENGINES)} or none")
    if out.is_dir():
        raise BuildError(f"{out} is a folder: --out names the warehouse file to write")
    for raw in (Path(sources_file).parent, Path(raw_dir)):
        if in_raw_layer(out, raw):
            raise BuildError(f"{out} lies in the raw layer ({raw.resolve()}), whose files are never "
                             "changed: --out names the warehouse file to write, outside it")
    if out.exists() and not out.is_file():  # /dev/null: replaced by a file, the system breaks
        raise BuildError(f"{out} is not a regular file (a device, a pipe or a socket): --out names "
                         "the warehouse file to write")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as err:
        raise BuildError(f"{out.parent} is not a folder: the warehouse file's folder must be one") from err
    # The lock first, then the manifest: a build that read sources.yml before an add committed
    # would otherwise write a warehouse without the added source (a lost update).
    try:
        with writing(out, "build", wait=wait, also=(Path(raw_dir), Path(sources_file).parent)) as transaction:
            try:  # a bad manifest or raw file is a BuildError too (no traceback)
                manifest = load_manifest(sources_file)
                bar = Progress("perfwh build", len(manifest) + 3 + (rules != "none")) if progress else None
                started = time.perf_counter()
                inputs = read_manifest(raw_dir, sources_file, bar)
            except OSError as err:
                raise BuildError(str(err)) from err
            summary.timings["parse"] = time.perf_counter() - started
            tmp = transaction.stage(out)
            exports = stage_exports(transaction, out, write=parquet)
            con, spill = connect_bounded(tmp, memory_limit)
            try:
                started = time.perf_counter()
                create_warehouse(con, inputs)
                record_manifest(con, sha256_of(Path(sources_file)))
                summary.timings["load"] = time.perf_counter() - started
                if bar:
                    bar.step("loaded the star schema")
                if rules != "none":
                    started = time.perf_counter()
                    con, summary.findings = _findings(con, rules, tmp, transaction, exports,
                                                      spark_master)
                    summary.timings["rules"] = time.perf_counter() - started
                    if bar:
                        bar.step(f"ran the data-quality rules ({ENGINES[rules]}): "
                                 f"{summary.findings} findings")
                document(con)
                if bar:
                    bar.step("documented every table, view and column")
                if exports:
                    started = time.perf_counter()
                    exports.write(con)
                    summary.timings["parquet"] = time.perf_counter() - started
                summary.values, summary.claims = run(
                    con, "SELECT (SELECT count(*) FROM fact_metric_value), "
                    "(SELECT count(*) FROM fact_claim)")[0]
                summary.reports = len(inputs)
            finally:
                con.close()
                remove_spill(spill)
            remove_database_wal(tmp)
            transaction.commit()
        if bar:
            bar.step(f"wrote {out}")
            bar.finish(f"{summary.reports} reports, {summary.values} values, "
                       f"{summary.claims} claims" + (f", {summary.findings} findings"
                                                     if summary.findings is not None else ""))
    except (ParseError, SourceError, WarehouseError, RuleError, DictionaryError, LakeError,
            duckdb.Error) as err:
        raise BuildError(str(err)) from err
    return summary
