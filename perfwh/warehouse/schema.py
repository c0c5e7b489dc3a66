"""The schema above the raw layer: DDL files applied in name order, and the data dictionary.

schema/00_* creates the raw_ and ref_ tables that loading fills; every later file (stg_,
dim_, fact_, views, the data-quality interface) reads what the files before it made.
"""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import duckdb

from perfwh.core import yamltext
from perfwh.core.paths import DICTIONARY, SCHEMA_DIR

from .db import one_transaction, run, run_sql_file, sql_literal

RAW_STAGE = "00_"  # schema files loaded before the raw data; the rest read it


class DictionaryError(RuntimeError):
    """A table, view or column without a data-dictionary entry."""


# A schema file whose statements define the rows a load writes (``CREATE TEMP VIEW load_<table>``)
# rather than objects of the warehouse: run in every loading session, build or add.
_LOAD_VIEW = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?TEMP\s+VIEW\s+(load_\w+)\s+AS", re.IGNORECASE)


def schema_files(schema_dir: Path = SCHEMA_DIR) -> tuple[list[Path], list[Path]]:
    """(the raw stage's files, the model stage's files), each in name order."""
    files = sorted(Path(schema_dir).glob("*.sql"))
    return ([f for f in files if f.name.startswith(RAW_STAGE)],
            [f for f in files if not f.name.startswith(RAW_STAGE)])


def schema_inputs(schema_dir: Path = SCHEMA_DIR) -> list[Path]:
    """Every file the warehouse's tables, views, macros and comments are made from."""
    raw, model = schema_files(schema_dir)
    return raw + model + [DICTIONARY]


def load_views(path: Path) -> list[str]:
    """The load_<table> views a schema file defines, in its order (none: a file of objects)."""
    return _LOAD_VIEW.findall(Path(path).read_text(encoding="utf-8"))


def apply_raw_stage(con: duckdb.DuckDBPyConnection, schema_dir: Path = SCHEMA_DIR) -> None:
    for path in schema_files(schema_dir)[0]:
        run_sql_file(con, path)


def apply_model_stage(con: duckdb.DuckDBPyConnection, load, schema_dir: Path = SCHEMA_DIR) -> None:
    """The model stage's files in name order on a new warehouse: a file of objects (views,
    macros) is run once; a file of load views is handed to ``load`` (path, its views), which
    writes their rows into the tables they define."""
    for path in schema_files(schema_dir)[1]:
        views = load_views(path)
        if views:
            load(path, views)
        else:
            run_sql_file(con, path)


def load_stage_files(schema_dir: Path = SCHEMA_DIR) -> list[tuple[Path, list[str]]]:
    """The model stage's files of load views, with their views: what an add runs again."""
    return [(path, views) for path in schema_files(schema_dir)[1] if (views := load_views(path))]


def apply_comments(con: duckdb.DuckDBPyConnection, dictionary: Path = DICTIONARY) -> list[str]:
    """COMMENT ON every table, view and column from the data dictionary.

    Returns the objects that have no entry (`document` treats any as an error). Only comments
    that differ from the warehouse's are written, all in one transaction: each statement on its
    own is a commit, and a commit waits for the disk (an add re-documents a warehouse whose
    comments are nearly all in place already).
    """
    spec = yamltext.safe_load(Path(dictionary).read_text(encoding="utf-8"))
    relations = spec["relations"]
    columns = spec["columns"]
    missing, statements = [], []
    objects = run(con, """
        SELECT table_name, 'TABLE', comment FROM duckdb_tables() WHERE database_name = current_database()
          AND schema_name = 'main' AND NOT internal AND NOT temporary
        UNION ALL
        SELECT view_name, 'VIEW', comment FROM duckdb_views() WHERE database_name = current_database()
          AND schema_name = 'main' AND NOT internal AND NOT temporary
        ORDER BY 1""")
    held = defaultdict(list)
    for table, column, comment in run(
            con, "SELECT table_name, column_name, comment FROM duckdb_columns() "
                 "WHERE database_name = current_database() AND schema_name = 'main' "
                 "ORDER BY table_name, column_index"):
        held[table].append((column, comment))
    for name, kind, comment in objects:
        text = relations.get(name)
        if text is None:
            missing.append(name)
        elif str(text).strip() != comment:
            statements.append(f"COMMENT ON {kind} {name} IS {sql_literal(str(text).strip())}")
        for column, comment in held[name]:
            text = columns.get(f"{name}.{column}", columns.get(column))
            if text is None:
                missing.append(f"{name}.{column}")
            elif str(text).strip() != comment:
                statements.append(f"COMMENT ON COLUMN {name}.{column} IS {sql_literal(str(text).strip())}")
    if statements:
        with one_transaction(con):
            run(con, ";\n".join(statements))
    return missing


def document(con: duckdb.DuckDBPyConnection, dictionary: Path = DICTIONARY) -> None:
    """Apply the data dictionary; an object without an entry is an error."""
    missing = apply_comments(con, dictionary)
    if missing:
        raise DictionaryError(f"{dictionary}: no data-dictionary entry for " + ", ".join(missing[:10])
                              + (f" and {len(missing) - 10} more" if len(missing) > 10 else ""))
