"""Talking to DuckDB: the few helpers every stage uses on an open connection."""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import duckdb

from ingest.printable import one_line
from perfwh.core.paths import NotAWarehouse

# What DuckDB may hold in memory while a stage builds a warehouse and runs the rules on it
# (`perfwh build`, `check`, `add`, `findings`); beyond it, sorts, joins, windows and temporary
# tables spill to a folder beside the database. With Python and the libraries, a process
# stays under about twice this.
BUILD_MEMORY_LIMIT = "512MB"

# How many of a submission's series `perfwh check` fits for the model residual rule by default:
# fitting takes about 20 ms a series, so this bounds it to seconds (a report has 20 to 80
# series, the five reports 209 together); `perfwh add` fits every series whatever the number.
CHECK_FIT_LIMIT = 2000


# Every warehouse built by `perfwh build` has this view (the analyst contract).
CONTRACT_VIEW = "measurements"


def held_manifest(db: Path) -> str | None:
    """The sha256 of the sources.yml the warehouse at ``db`` holds (raw_manifest: the text it was
    built from or an add last wrote), if it tells."""
    if not Path(db).is_file():
        return None
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error:
        return None
    try:
        rows = con.execute("SELECT sha256 FROM raw_manifest").fetchall()
        return rows[0][0] if len(rows) == 1 else None
    except duckdb.Error:
        return None
    finally:
        con.close()


def manifest_in_step(db: Path, sources_file: Path) -> bool | None:
    """Whether ``sources_file`` is the manifest the warehouse at ``db`` holds (a filing extends
    both, so they must be the same text): None where either cannot tell (no warehouse, one that
    keeps no manifest, an unreadable file - whoever reads it next says why)."""
    from perfwh.warehouse.sources import sha256_of

    held = held_manifest(db)
    if held is None:
        return None
    try:
        return sha256_of(sources_file) == held
    except OSError:
        return None


def require_warehouse(path: Path) -> Path:
    """``path`` if it is a warehouse built by `perfwh build`, else NotAWarehouse saying why."""
    path = Path(path)
    shown = one_line(str(path))  # a name holding a line break cannot split the message
    if not path.exists():
        raise NotAWarehouse(f"{shown}: no warehouse there (--db must name an existing warehouse; "
                            "run `make` or `perfwh build` to create one)")
    if path.is_dir():
        raise NotAWarehouse(f"{shown}: is a directory, not a DuckDB warehouse")
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)
    except OSError as err:
        raise NotAWarehouse(f"{shown}: cannot be read ({err.strerror})") from None
    if head[8:12] != b"DUCK":
        raise NotAWarehouse(f"{shown}: not a DuckDB database (--db must name a warehouse built "
                            "by `perfwh build`)")
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as err:
        raise NotAWarehouse(f"{shown}: cannot be opened as a DuckDB database "
                            f"({str(err).splitlines()[0]})") from None
    try:
        if not has_relation(con, CONTRACT_VIEW):
            raise NotAWarehouse(f"{shown}: a DuckDB database, but not a perfwh warehouse (it has no "
                                f"view {CONTRACT_VIEW}; build one with `perfwh build`)")
    finally:
        con.close()
    return path


def spill_directory(database: Path | None) -> Path:
    """Where DuckDB spills for ``database``: beside the file (NAME.spill, so that a staged
    .NAME.tmp-PID's spill is a staged leftover too), or a new folder under the system's
    temporary directory for an in-memory database. DuckDB creates it when it first spills
    and removes it on close; `remove_spill` removes what a failed run left."""
    if database is not None:
        return Path(f"{database}.spill")
    return Path(tempfile.gettempdir()) / f"perfwh-{os.getpid()}-{os.urandom(4).hex()}.spill"


def connect_bounded(database: Path | None, memory_limit: str = BUILD_MEMORY_LIMIT
                    ) -> tuple[duckdb.DuckDBPyConnection, Path]:
    """A read-write connection to ``database`` (None: in memory) whose memory DuckDB keeps
    under ``memory_limit``, spilling to `spill_directory`. Returns (connection, spill folder)."""
    spill = spill_directory(database)
    con = duckdb.connect(str(database) if database is not None else ":memory:",
                         config={"memory_limit": memory_limit, "temp_directory": str(spill)})
    return con, spill


@contextlib.contextmanager
def single_threaded(con: duckdb.DuckDBPyConnection):
    """DuckDB on one thread for the block (then as many as before): rows written in the order
    they are read, and one thread's working memory instead of one per thread."""
    threads = run(con, "SELECT current_setting('threads')")[0][0]
    run(con, "SET threads = 1")
    try:
        yield
    finally:
        run(con, f"SET threads = {int(threads)}")


def out_of_memory(err: BaseException) -> bool:
    """DuckDB ran out of memory: its OutOfMemoryException, or a commit that could not allocate
    a block (which DuckDB raises as a TransactionException)."""
    return isinstance(err, duckdb.OutOfMemoryException) or (
        isinstance(err, duckdb.Error) and "could not allocate block" in str(err))


def remove_spill(spill: Path) -> None:
    """The spill folder of a closed connection, if anything is left of it."""
    shutil.rmtree(spill, ignore_errors=True)


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[tuple]:
    """Execute and fetch to the end: DuckDB 2.0 refuses new work on a connection while a
    result of execute() is still pending, even for statements that return nothing."""
    result = con.execute(sql, params) if params is not None else con.execute(sql)
    return result.fetchall()


def placeholders(values: list) -> str:
    """'?, ?, ...' for ``values`` given as parameters: a list of constants, which DuckDB
    pushes down through a view's joins and regrouping (a subquery or a list parameter it
    applies after them)."""
    return ", ".join("?" * len(values))


@contextlib.contextmanager
def one_transaction(con: duckdb.DuckDBPyConnection):
    """The block's statements in one transaction (rolled back if the block fails): on a
    database file each statement outside one is a commit of its own, and a commit waits for
    the disk (seven hundred COMMENT statements took seconds, in one transaction a quarter)."""
    run(con, "BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        run(con, "ROLLBACK")
        raise
    run(con, "COMMIT")


def run_sql_file(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    run(con, Path(path).read_text(encoding="utf-8"))


# From this many rows on, `insert_rows` hands DuckDB the rows as Arrow columns: binding
# Python lists as list parameters costs about a microsecond a value (2.6 s for the 460,000
# candidate worlds a million-row check tries), Arrow builds its columns in C (0.9 s); below
# it, importing pyarrow (0.3 s) would cost a small check more than it saves.
ARROW_ROWS = 100_000


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict]) -> None:
    """Insert dicts into ``table`` by column name (missing keys are NULL), each column cast to
    the column's type: as one list parameter per column, unnested beside the others, or for
    ARROW_ROWS rows or more as an Arrow table. (Not Arrow for fewer: importing pyarrow and
    the pandas it loads took a quarter of a one-row check.)"""
    if not rows:
        return
    columns = [(name, kind) for name, kind, *_ in run(con, f"DESCRIBE {table}")]
    names = ", ".join(f'"{name}"' for name, _kind in columns)
    values = [[row.get(name) for row in rows] for name, _kind in columns]
    if len(rows) >= ARROW_ROWS and _insert_arrow(con, table, names, columns, values):
        return
    lists = ", ".join(f"unnest(?::{kind}[])" for _name, kind in columns)
    run(con, f"INSERT INTO {table} ({names}) SELECT {lists}", values)


def _insert_arrow(con: duckdb.DuckDBPyConnection, table: str, names: str,
                  columns: list[tuple[str, str]], values: list[list]) -> bool:
    """`insert_rows` through an Arrow table; False (nothing inserted) where Arrow cannot type
    a column (values of mixed kinds), which the list parameters' casts then take."""
    import pyarrow as pa

    try:
        rows = pa.table({f"c{i}": pa.array(column) for i, column in enumerate(values)})
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        return False  # (a string that is not UTF-8 text, too: the list path says what it says)
    view = f"insert_rows_{id(rows)}"
    con.register(view, rows)
    try:
        run(con, f"INSERT INTO {table} ({names}) "
                 f"SELECT {', '.join(f'CAST(c{i} AS {kind})' for i, (_name, kind) in enumerate(columns))} "
                 f"FROM {view}")
    finally:
        con.unregister(view)
    return True


def sql_literal(text: str) -> str:
    """A SQL string literal, for the few statements that take no parameters (COPY, ATTACH,
    COMMENT ON)."""
    return "'" + str(text).replace("'", "''") + "'"


def has_relation(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(run(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? "
                         "AND database_name = current_database()", [name])[0][0]
                or run(con, "SELECT count(*) FROM duckdb_views() WHERE view_name = ? "
                            "AND database_name = current_database()", [name])[0][0])


def create_table(con: duckdb.DuckDBPyConnection, table: str, columns: dict[str, str],
                 rows: list[dict]) -> None:
    """(Re)create ``table`` with the given column types and fill it with ``rows``."""
    run(con, f"DROP TABLE IF EXISTS {table}")
    run(con, f"CREATE TABLE {table} ({', '.join(f'{c} {t}' for c, t in columns.items())})")
    insert_rows(con, table, rows)
