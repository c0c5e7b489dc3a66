"""The Parquet lake: the curated layer as a partitioned dataset any engine reads as it is.

Layout, under data/curated/lake/ (written, staged and committed with the warehouse by every
writer - `perfwh.stages.writing.stage_exports` - next to the flat export):

    manifest.json
    <relation>/family=<family>/source=<source>/data_0.parquet   a relation tied to reports
    <relation>/data_0.parquet                                   one that is not (dimensions
                                                                shared by reports, models'
                                                                accuracy, reference tables)

Every table of the warehouse and the contract views (`parquet.exported_relations`) is a
relation of the lake. A relation is partitioned Hive-style by report family and source when
each of its rows belongs to one source: through a ``source`` column, a ``source_file``
column (the facts) or a ``report_id`` (report dimensions); ``family`` and ``source`` are
then the partition columns, read back from the folder names as text. Partition values are
escaped as Hive and Spark escape them (a few ASCII characters as %XX, everything else as
it is), which DuckDB, Polars and Spark all read back.

``manifest.json`` lists each relation's columns and types (its own, without added partition
columns), its files with their partition values, row counts and sha256 checksums. The lake is
byte-deterministic: rows are written sorted, one thread per relation, and the manifest holds
no time stamps, so the same warehouse gives the same bytes.

Reading it: `duckdb_scan`, `polars_scan`, `spark_read` (and the README's examples).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from .db import placeholders, run, single_threaded, sql_literal

MANIFEST = "manifest.json"
PARTITIONS = ("family", "source")
FORMAT = "perfwh lake 1"
# Views written besides the tables: they are the analyst contract.
EXPORT_VIEWS = ("metric_values", "measurements")
# Characters Hive (and Spark, `ExternalCatalogUtils.escapePathName`) escape in a partition
# value; everything else, UTF-8 included, stays as it is.
_HIVE_ESCAPED = set('"#%\'*/:=?\\{[]^\x7f') | {chr(c) for c in range(1, 32)}
_DUCKDB_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")


class LakeError(RuntimeError):
    """A relation that cannot be written as the lake promises (a row without its source)."""


def hive_escape(value: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in _HIVE_ESCAPED else c for c in value)


def exported_relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every table of the warehouse, then the contract views: what the lake holds."""
    return [r[0] for r in run(
        con, "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT internal AND NOT temporary ORDER BY table_name")] + list(EXPORT_VIEWS)


def write_lake(con: duckdb.DuckDBPyConnection, directory: Path) -> dict:
    """Write every exported relation of the warehouse open in ``con`` into ``directory`` (a new
    or staged folder; what was there is replaced) and its manifest. Returns the manifest."""
    return _write(con, Path(directory), None, None).manifest


@dataclass(frozen=True)
class LakeChange:
    """What `write_changes` wrote: the new manifest, and how the committed lake becomes the new
    one - ``whole``: the folder holds the whole lake; else each path of ``replaced`` (relative,
    the manifest last) is put over the lake's, and each of ``removed`` is taken out of it."""
    manifest: dict
    whole: bool
    replaced: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def write_changes(con: duckdb.DuckDBPyConnection, directory: Path, previous: Path,
                  changed: list[str]) -> LakeChange:
    """The lake after an add, written into ``directory`` as what changes in ``previous`` (the
    lake as committed): the partitions of the ``changed`` sources (what the add filed, retired
    or rewrote), the relations not partitioned by source (small: written whole), and the
    manifest, which lists every file, the kept ones too. A relation whose columns changed, or
    that was empty or is empty now, is written whole. The other partitions stay where they
    are: an add writes, renames and removes as many files whether ten sources are filed or ten
    thousand (a new lake with every kept file linked into it took a thousand folders an add
    after thirty filings). Without a usable previous lake, the whole lake is written."""
    return _write(con, Path(directory), _previous_relations(previous) or None, changed)


def _write(con: duckdb.DuckDBPyConnection, directory: Path, before: dict | None,
           changed: list[str] | None) -> LakeChange:
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    partial = before is not None and changed is not None
    names = exported_relations(con)
    replaced, removed = [], sorted(set(before or {}) - set(names))
    relations = {}
    with single_threaded(con):  # rows land in each file in sorted order
        for name in names:
            written = _write_relation(con, name, directory / name, (before or {}).get(name),
                                      changed if partial else None)
            relations[name] = written.entry
            replaced += written.replaced
            removed += written.removed
    manifest = {"format": FORMAT, "partitioning": list(PARTITIONS),
                "partition_values": "text, Hive-style folder names (family=F/source=S), "
                                    "percent-escaped as Hive and Spark escape them",
                "relations": relations}
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True,
                                                 ensure_ascii=False) + "\n", encoding="utf-8")
    if not partial:
        return LakeChange(manifest, True)
    return LakeChange(manifest, False, replaced + [MANIFEST], removed)


def _previous_relations(previous: Path | None) -> dict:
    try:
        return read_manifest(previous)["relations"] if previous is not None else {}
    except (LakeError, OSError, ValueError):  # no usable lake there: everything is written
        return {}


# Types Parquet has no exact counterpart of, and what the lake writes them as: DuckDB writes a
# HUGEINT as a DOUBLE, which holds 53 bits (dq_source_fingerprints.keys_sum, a sum of 64-bit
# hashes, lost its last digits); a DECIMAL(38, 0) holds every digit and every engine reads it.
LAKE_TYPES = {"HUGEINT": "DECIMAL(38,0)", "UHUGEINT": "DECIMAL(38,0)"}


def _columns(con: duckdb.DuckDBPyConnection, name: str) -> list[tuple[str, str]]:
    """The relation's columns and the types the lake holds them in."""
    return [(c, LAKE_TYPES.get(t, t)) for c, t, *_rest in run(con, f"DESCRIBE {name}")]


def _projection(columns: list[tuple[str, str]], prefix: str = "") -> str:
    """The columns as the lake writes them: each cast to its lake type where that differs."""
    return ", ".join(f"CAST({prefix}{c} AS {t}) AS {c}" if t in LAKE_TYPES.values() else f"{prefix}{c}"
                     for c, t in columns)


def _partitioned_rows(name: str, columns: list[str]) -> str | None:
    """SQL giving the relation's rows with ``family`` and ``source`` when each row belongs to
    one source (see the module's docstring), else None."""
    own = ", ".join(f"t.{c}" for c in columns)
    if "source" in columns:
        family = "t.family" if "family" in columns else "r.family"
        return (f"SELECT {own}, {family} AS __family, t.source AS __source FROM {name} t "
                "LEFT JOIN dim_report r ON r.source = t.source")
    if "source_file" in columns:
        return (f"SELECT {own}, r.family AS __family, t.source_file AS __source FROM {name} t "
                "LEFT JOIN dim_report r ON r.source = t.source_file")
    if "report_id" in columns:
        return (f"SELECT {own}, r.family AS __family, r.source AS __source FROM {name} t "
                "LEFT JOIN dim_report r ON r.report_id = t.report_id")
    return None


@dataclass(frozen=True)
class _Written:
    """One relation's manifest entry and, for a partial write, the paths it puts over the
    committed lake's and those it takes out (relative to the lake)."""
    entry: dict
    replaced: list[str]
    removed: list[str]


def _write_relation(con: duckdb.DuckDBPyConnection, name: str, folder: Path, before: dict | None,
                    changed: list[str] | None) -> _Written:
    columns = _columns(con, name)
    own = [c for c, _t in columns if c not in PARTITIONS]
    rows = _partitioned_rows(name, [c for c, _t in columns])
    folder.mkdir(parents=True)
    kept = None
    if rows is None:
        count = run(con, f"SELECT count(*) FROM {name}")[0][0]
        target = sql_literal(str(folder / "data_0.parquet"))
        run(con, f"COPY (SELECT {_projection(columns)} FROM {name} ORDER BY ALL) TO {target} (FORMAT parquet)")
    else:
        kept = _kept_partitions(before, columns, changed)
        # the join with dim_report is on its key, so it keeps the relation's row count
        tally = "SELECT count(*), count(*) FILTER (WHERE __family IS NULL OR __source IS NULL) FROM "
        if kept is not None:
            # only the changed sources' rows are counted, checked and written, picked out by
            # constants that DuckDB applies before a view's regrouping; the kept files' rows
            # are in the previous manifest and were checked when they were written
            of_changed = f"WHERE __source IN ({placeholders(changed)})"
            new, orphans = run(con, f"{tally}({rows}) {of_changed}", changed)[0]
            count = sum(f["rows"] for f in kept) + new
        else:
            count, orphans = run(con, f"{tally}({rows})")[0]
        if orphans:
            raise LakeError(f"{name}: {orphans} rows belong to no report (no source, or a source "
                            "not in dim_report), so they have no partition in the lake")
        # The partition columns come last and are not stored in the files (Hive style): a
        # relation with its own family or source column gets them back from the folder names.
        select = _projection([(c, t) for c, t in columns if c in own]) + ", __family AS family, __source AS source"
        if not count:  # no partition to hold it: one empty file with every column, partitions included
            kept = None
            target = sql_literal(str(folder / "data_0.parquet"))
            run(con, f"COPY (SELECT {select} FROM ({rows})) TO {target} (FORMAT parquet)")
        elif kept is not None:
            _write_partitions(con, folder, f"SELECT {select} FROM ({rows}) {of_changed}", changed)
        else:
            _write_partitions(con, folder, f"SELECT {select} FROM ({rows})", [])
    written = _files(con, folder)
    entry = {"columns": [{"name": c, "type": t} for c, t in columns],
             "partitioned": rows is not None,
             "rows": count,
             "files": written if kept is None else _in_path_order(kept + written)}
    if changed is None:
        return _Written(entry, [], [])
    if kept is None:  # written whole: its folder replaces the lake's
        return _Written(entry, [name], [])
    return _Written(entry, *_partition_changes(before["files"], kept, written))


def _in_path_order(files: list[dict]) -> list[dict]:
    """Manifest entries in the order of their paths, as a walk of a whole lake lists them."""
    return sorted(files, key=lambda f: f["path"].split("/"))


def _partition_changes(before: list[dict], kept: list[dict], written: list[dict]) -> tuple[list[str], list[str]]:
    """The partition folders a partial write of a relation puts over the lake's (those it
    wrote), and those it takes out: of changed sources with no rows now - their family's
    folder whole where none of its files is left. (Paths are the manifest's: relative, with
    '/'; string operations, since an add goes through every file of the lake here.)"""
    def parent(path: str) -> str:
        return path.rpartition("/")[0]

    replaced = sorted({parent(f["path"]) for f in written}, key=lambda p: p.split("/"))
    families_left = {parent(parent(f["path"])) for f in kept + written}
    gone = {parent(f["path"]) for f in before} - {parent(f["path"]) for f in kept} - set(replaced)
    return replaced, sorted({p if parent(p) in families_left else parent(p) for p in gone})


def _kept_partitions(before: dict | None, columns: list[tuple[str, str]],
                     changed: list[str] | None) -> list[dict] | None:
    """The previous lake's files of a partitioned relation to keep (those of sources that did
    not change), or None when the relation must be written whole."""
    if not changed or before is None:
        return None
    if before["columns"] != [{"name": c, "type": t} for c, t in columns] or not before["rows"]:
        return None
    if not all("source" in f for f in before["files"]):
        return None
    gone = set(changed)
    return [f for f in before["files"] if f["source"] not in gone]


def _write_partitions(con: duckdb.DuckDBPyConnection, folder: Path, query: str, params: list) -> None:
    """The rows of ``query`` (partition columns last) as Hive partitions under ``folder``,
    sorted: written beside it, then moved in (the folder may hold kept partitions already).
    No rows: DuckDB writes an empty folder, and nothing is moved."""
    fresh = folder.with_name(folder.name + ".written")
    run(con, f"COPY ({query} ORDER BY ALL) TO {sql_literal(str(fresh))} "
             "(FORMAT parquet, PARTITION_BY (family, source))", params or None)
    _hive_names(fresh)
    for written in sorted(fresh.rglob("*.parquet")):
        _sort_file(con, written)
    for family in sorted(fresh.iterdir()):
        for source in sorted(family.iterdir()):
            target = folder / family.name / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(source, target)
    shutil.rmtree(fresh)


def _sort_file(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Rewrite a partition's file with its rows in order. DuckDB's partitioned COPY does not
    keep the order of its query within a partition (of 40 partitions, 37 came out of order,
    even on one thread): a file's bytes would depend on the other partitions written with it,
    and a build would differ from filing the same sources one by one. The partition columns
    are constant within the file, so its own columns' order is the query's."""
    tmp = path.with_name(path.name + ".sorted")
    run(con, f"COPY (SELECT * FROM read_parquet({sql_literal(str(path))}, hive_partitioning = false) "
             f"ORDER BY ALL) TO {sql_literal(str(tmp))} (FORMAT parquet)")
    os.replace(tmp, path)


def _hive_names(folder: Path) -> None:
    """DuckDB percent-escapes every byte outside a small set in the partition folders it
    writes (é as %C3%A9), which Spark would read back byte by byte as two characters: rename
    each folder to Hive's escaping (`hive_escape`), which all three readers decode alike."""
    for level in (f"{p}=" for p in PARTITIONS):
        for path in sorted(folder.rglob(f"{level}*"), key=lambda p: -len(p.parts)):
            raw = path.name[len(level):]
            value = _DUCKDB_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), raw)
            value = value.encode("latin-1").decode("utf-8")  # the escaped bytes were UTF-8
            wanted = path.with_name(level + hive_escape(value))
            if wanted != path:
                os.rename(path, wanted)


def _files(con: duckdb.DuckDBPyConnection, folder: Path) -> list[dict]:
    """The manifest's entries of the files written under ``folder``, in path order."""
    lake = folder.parent
    paths = sorted(folder.rglob("*.parquet"))
    rows = dict(run(con, "SELECT file_name, sum(num_rows) FROM parquet_file_metadata(?::VARCHAR[]) "
                         "GROUP BY file_name", [[str(p) for p in paths]])) if paths else {}
    files = []
    for path in paths:
        entry = {"path": path.relative_to(lake).as_posix(),
                 "rows": rows[str(path)],
                 "bytes": path.stat().st_size,
                 "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
        for part in path.relative_to(folder).parts[:-1]:
            key, _eq, value = part.partition("=")
            entry[key] = _unescape(value)
        files.append(entry)
    return files


def _unescape(value: str) -> str:
    return _DUCKDB_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), value)


def read_manifest(directory: Path) -> dict:
    path = Path(directory) / MANIFEST
    if not path.is_file():
        raise LakeError(f"{directory}: no lake there ({MANIFEST} missing); `perfwh build` writes "
                        "it under data/curated/lake")
    return json.loads(path.read_text(encoding="utf-8"))


# -- reading it -------------------------------------------------------------------------------

def _in_folders(directory: Path, relation: str) -> bool:
    """Whether the relation's files lie in family=/source= folders (a partitioned relation
    with rows; an empty one is a single file with its partition columns inside)."""
    return any("family" in f for f in read_manifest(directory)["relations"][relation]["files"])


def duckdb_scan(directory: Path, relation: str) -> str:
    """DuckDB SQL reading one relation of the lake (partition columns as text)."""
    pattern = sql_literal(str(Path(directory) / relation / "**" / "*.parquet"))
    if not _in_folders(directory, relation):
        return f"read_parquet({pattern})"
    return (f"read_parquet({pattern}, hive_partitioning = true, "
            "hive_types = {'family': VARCHAR, 'source': VARCHAR})")


def polars_scan(directory: Path, relation: str):
    """A Polars LazyFrame of one relation of the lake (partition columns as text)."""
    import polars as pl

    folders = _in_folders(directory, relation)
    return pl.scan_parquet(str(Path(directory) / relation / "**" / "*.parquet"),
                           hive_partitioning=folders,
                           hive_schema={"family": pl.String, "source": pl.String} if folders else None)


def spark_read(spark, directory: Path, relation: str):
    """A Spark DataFrame of one relation of the lake, with the relation's own columns in the
    warehouse's order (partition columns a relation does not have are left out). The session
    must read partition values as text (`spark.sql.sources.partitionColumnTypeInference.enabled`
    false, as `perfwh.quality.spark` sets it)."""
    columns = [c["name"] for c in read_manifest(directory)["relations"][relation]["columns"]]
    frame = spark.read.parquet(str(Path(directory) / relation))
    return frame.select(*[f"`{c}`" for c in columns])
