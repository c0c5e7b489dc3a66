"""`perfwh sql`: read-only queries for analysts, printed as a table, CSV or JSON."""
from __future__ import annotations

import decimal
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest.printable import OneLineMessage
from ingest.spreadsheet import csv_writer
from perfwh.core.values import dumps

from .db import out_of_memory


class QueryError(OneLineMessage, RuntimeError):
    pass


DEFAULT_MEMORY_LIMIT = "1GB"
# What the process needs besides the query's own memory (Python, DuckDB, the result).
PROCESS_HEADROOM = 768 * 1024 ** 2
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$", re.IGNORECASE)
_UNIT = {"B": 1, "KB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3, "TB": 1000 ** 4,
         "KIB": 1024, "MIB": 1024 ** 2, "GIB": 1024 ** 3, "TIB": 1024 ** 4}


# The memory limits every command accepts: from 1MB to 1TB (more than any machine here has).
MIN_MEMORY, MAX_MEMORY = _UNIT["MB"], _UNIT["TB"]


def memory_bytes(text: str) -> int:
    """'1GB', '500MB', '2GiB' in bytes (DuckDB's spelling of sizes), from 1MB to 1TB."""
    match = _SIZE.match(text)
    if not match:
        raise QueryError(f"{text!r} is not a memory size (expected e.g. 500MB, 1GB, 2GiB)")
    size = int(float(match.group(1)) * _UNIT[(match.group(2) or "B").upper()])
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise QueryError(f"{text!r}: a memory size of at least 1MB and at most 1TB is needed "
                         "(e.g. 500MB, 1GB)")
    return size


def cap_process_memory(limit: str) -> None:
    """Bound the whole process, not only DuckDB's buffer manager (a single huge value, or
    the result handed to Python, is allocated outside it): past the cap an allocation fails
    and DuckDB reports an out-of-memory error instead of the machine swapping."""
    import resource

    cap = memory_bytes(limit) + PROCESS_HEADROOM
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))


class QueryTimeout(QueryError):
    pass


class NotOneQuery(QueryError):
    """The text is not one query `perfwh sql` runs (empty, several statements, or a statement
    that is not a query): a usage error, refused before the warehouse is opened."""


# Every query stops after this long unless --timeout says otherwise: a careless cross join
# should not hold a core for hours.
DEFAULT_TIMEOUT = 300.0
MAX_TIMEOUT = 24 * 3600.0

# What `perfwh sql` runs: queries, which DuckDB parses as SELECT statements - SELECT, WITH,
# FROM-first, VALUES, TABLE, DESCRIBE, SHOW, SUMMARIZE. Every other kind (COPY, EXPORT,
# ATTACH, INSTALL, LOAD, SET, PRAGMA, CALL, CHECKPOINT, CREATE, EXPLAIN ANALYZE of any of
# those, a PIVOT statement ...) is refused before anything runs.
QUERY_WORDS = "SELECT, WITH, FROM, VALUES, TABLE, DESCRIBE, SHOW or SUMMARIZE"


def one_query(text: str) -> str:
    """``text`` if it is exactly one query, else NotOneQuery saying what it is instead."""
    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error as err:  # a syntax error: said as DuckDB says it
        raise QueryError(str(err).strip()) from None
    if not statements:
        raise NotOneQuery("the query is empty")
    if len(statements) > 1:
        raise NotOneQuery(f"the text holds {len(statements)} statements; perfwh sql runs one "
                          "query at a time (run each on its own, or join them with UNION ALL)")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        word = (statements[0].query.split() or [kind.name])[0].upper()
        hint = (" (a PIVOT or UNPIVOT statement runs as a query inside one: SELECT * FROM "
                "(PIVOT ...))" if kind == duckdb.StatementType.MULTI else "")
        raise NotOneQuery(f"{word} is not a query: perfwh sql runs queries only "
                          f"({QUERY_WORDS}) and changes no table and no file{hint}")
    return _without_final_semicolon(statements[0].query)


def _without_final_semicolon(statement: str) -> str:
    """The statement without the `;` that ends it (and any comment after that): the query
    runs inside a projection, where a semicolon would end it early."""
    tokens = [(offset, kind) for offset, kind in duckdb.tokenize(statement)
              if kind != duckdb.token_type.comment]
    if tokens and statement[tokens[-1][0]:].startswith(";"):
        return statement[:tokens[-1][0]]
    return statement


def connect_read_only(path: Path, memory_limit: str = DEFAULT_MEMORY_LIMIT) -> duckdb.DuckDBPyConnection:
    """The warehouse opened read-only with no access to other files: a query reads the
    warehouse and nothing else, and within ``memory_limit`` of memory. DuckDB still lets a
    connection write to its own database's paths (the WAL files beside it, its temporary
    folder): `one_query` keeps every statement that writes out, spilling to disk is off (past
    the limit a query fails), extensions are neither installed nor loaded, and the settings
    are locked against SET and PRAGMA; `perfwh sql` also gives up the right to change any file
    (perfwh.core.sandbox) before it connects."""
    if not Path(path).is_file():
        raise QueryError(f"{path}: no warehouse yet; run `make` (or `perfwh build`) first")
    try:
        return duckdb.connect(str(path), read_only=True, config=READ_ONLY_CONFIG | {
            "memory_limit": memory_limit})
    except duckdb.Error as err:
        raise QueryError(f"{path}: cannot open the warehouse: {str(err).splitlines()[0]}") from None


READ_ONLY_CONFIG = {
    "enable_external_access": False,   # no other file, no network: read_csv, ATTACH, COPY TO
    "temp_directory": "",              # no spilling: nothing written beside the warehouse
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "lock_configuration": True,        # last: SET, RESET and PRAGMA cannot undo the above
}


@dataclass
class QueryResult:
    columns: list[str]
    types: list[str]
    rows: list[tuple]   # as DuckDB renders each value (text) or as Python values (for JSON)


def query(path: Path, sql: str, params: list | None = None, timeout: float | None = DEFAULT_TIMEOUT,
          memory_limit: str = DEFAULT_MEMORY_LIMIT, rendered: bool = True) -> QueryResult:
    """Run one read-only query (`one_query`). ``rendered``: every value as DuckDB renders it
    (CAST AS VARCHAR: numbers, dates and lists exactly as the DuckDB shell shows them);
    otherwise Python values. It runs in a worker thread so that Ctrl-C (KeyboardInterrupt) and
    ``timeout`` (None: none) stop it at once (DuckDB is asked to interrupt) instead of when it
    ends."""
    sql = one_query(sql)
    con = connect_read_only(path, memory_limit)
    outcome: dict = {}
    # Completion is an Event, not Thread.join: a KeyboardInterrupt raised inside join() can
    # leave the Thread saying it has ended while it still runs.
    finished = threading.Event()

    def work():
        try:
            relation = con.sql(sql, params=params)
            if relation is None:  # a statement without a result
                outcome["result"] = QueryResult([], [], [])
                return
            columns, types = list(relation.columns), [str(t) for t in relation.types]
            if rendered and columns:
                relation = relation.project("CAST(COLUMNS(*) AS VARCHAR)")
            elif columns:
                columns = distinct_names(columns)
                infinite = [n for n, t in enumerate(types) if t in _INFINITE_IN_JSON]
                floats = [n for n, t in enumerate(types) if t == "FLOAT"]
                if infinite or floats or any(map(_rendered_for_json, types)):
                    relation = relation.project(", ".join(
                        [f"CAST(#{n} AS VARCHAR)" if _rendered_for_json(t) or t == "FLOAT" else f"#{n}"
                         for n, t in enumerate(types, 1)]
                        + [f"CASE WHEN NOT isfinite(#{n + 1}) THEN CAST(#{n + 1} AS VARCHAR) END"
                           for n in infinite]))
                rows = relation.fetchall()
                if infinite or floats:
                    rows = [_with_infinities(_floats_as_printed(row, floats), infinite, len(types))
                            for row in rows]
                outcome["result"] = QueryResult(columns, types, rows)
                return
            outcome["result"] = QueryResult(columns, types, relation.fetchall())
        except BaseException as err:  # handed to the main thread
            outcome["error"] = err
        finally:
            finished.set()

    threading.Thread(target=work, name="perfwh-sql", daemon=True).start()
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        while not finished.wait(0.05):
            if deadline is not None and time.monotonic() > deadline:
                con.interrupt()
                finished.wait()
                raise QueryTimeout(f"the query ran longer than {timeout:g} s and was stopped "
                                   "(--timeout)")
    except KeyboardInterrupt:
        con.interrupt()
        finished.wait()
        raise
    finally:
        if finished.is_set():
            con.close()
    error = outcome.get("error")
    if out_of_memory(error):
        first = str(error).strip().splitlines()[0]
        raise QueryError(f"{first} (the limit is {memory_limit}: raise it with --memory-limit)") from None
    if isinstance(error, duckdb.Error):
        raise QueryError(str(error).strip()) from None
    if isinstance(error, MemoryError):  # the result handed to Python, past the process's cap
        raise QueryError(f"out of memory: the result is more than the process may hold within {memory_limit} "
                         "(raise it with --memory-limit, or ask for fewer rows: LIMIT, an aggregate)") from None
    if error is not None:
        raise error
    return outcome["result"]


def distinct_names(columns: list[str]) -> list[str]:
    """Column names as keys of a JSON object, which must differ: a repeated name gets the
    first suffix _1, _2 ... that names no other column (SELECT 1 AS a, 2 AS a, 3 AS a_1: a,
    a_2, a_1), so a key the query wrote holds the column it named."""
    taken, seen, out = set(columns), set(), []
    for name in columns:
        if name in seen:
            number = 1
            while f"{name}_{number}" in taken:
                number += 1
            name = f"{name}_{number}"
            taken.add(name)
        seen.add(name)
        out.append(name)
    return out


# Types whose Python values JSON cannot hold as they are (a timedelta, a UUID), that Python
# holds to microseconds only (TIMESTAMP_NS, TIME_NS) or that need a module DuckDB does not
# bring (pytz, for TIMESTAMP WITH TIME ZONE): a JSON result gets them
# as DuckDB renders them, the text the table and CSV outputs show; numbers, text, booleans,
# dates and the lists and structs of these stay JSON values.
_AS_TEXT_IN_JSON = re.compile(r"\b(INTERVAL|UUID|BIT|UNION|WITH TIME ZONE|TIMESTAMPTZ_NS|TIMESTAMP_NS|TIME_NS)\b")


# Dates and timestamps hold infinity, which Python's date cannot (DuckDB hands 9999-12-31 for
# it), and doubles NaN and infinities, which JSON cannot (it would make them null, as a NULL
# is): such a value of a column of them is DuckDB's text, 'infinity' or '-infinity', 'nan',
# 'inf' or '-inf', as the table and CSV outputs show it; the others stay ISO 8601
# (2013-04-26T10:04:05) and numbers. Inside a list or struct they are Python's.
_INFINITE_IN_JSON = {"DATE", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "DOUBLE", "FLOAT"}


def _with_infinities(row: tuple, infinite: list[int], width: int) -> tuple:
    """A row of the JSON query with each infinite date's text (its extra columns, after the
    ``width`` the query has) in place of the finite date Python made of it."""
    values = list(row[:width])
    for n, text in zip(infinite, row[width:]):
        if text is not None:
            values[n] = text
    return tuple(values)


def _floats_as_printed(row: tuple, floats: list[int]) -> tuple:
    """A row with each FLOAT (given as DuckDB's text of it) as the decimal number that text
    prints, the shortest that reads back as the same single-precision value (0.1, where the
    double it widens to is 0.10000000149011612); a non-finite one stays text."""
    if not floats:
        return row
    values = list(row)
    for n in floats:
        text = values[n]
        if text is not None:
            number = decimal.Decimal(text)
            values[n] = number if number.is_finite() else text
    return tuple(values)


def _rendered_for_json(type_name: str) -> bool:
    return bool(_AS_TEXT_IN_JSON.search(type_name))


NUMERIC_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
                 "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE", "DECIMAL")


def _columns_of(text: str) -> int:
    """How many columns of a terminal a text takes: a wide character (東, ブ, a full-width
    digit) two, a combining mark none, anything else one - so that names in any script line up."""
    import unicodedata

    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def write_table(result: QueryResult, out=sys.stdout) -> None:
    """Aligned columns, a cell a line: a value's line breaks, tabs and acting characters show
    escaped (a value cannot forge the table's rows), and widths count what is shown."""
    from ingest.printable import one_line

    cells = [["NULL" if v is None else one_line(v) for v in row] for row in result.rows]
    columns = [one_line(c) for c in result.columns]
    widths = [max([_columns_of(c)] + [_columns_of(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [t.startswith(NUMERIC_TYPES) for t in result.types]

    def padded(value: str, width: int, right: bool) -> str:
        pad = " " * (width - _columns_of(value))
        return pad + value if right else value + pad

    def line(values):
        return " | ".join(padded(v, w, numeric[i])
                          for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    out.write(line(columns) + "\n")
    out.write("-+-".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write(line(row) + "\n")
    count = len(result.rows)
    out.write(f"({count} row{'s' if count != 1 else ''})\n")


def write_csv(result: QueryResult, out=sys.stdout) -> None:
    """CSV with DuckDB's rendering of each value (NULL as an empty cell); a text a spreadsheet
    would run as a formula gets a leading apostrophe (ingest.spreadsheet)."""
    writer = csv_writer(out)
    writer.writerow(result.columns)
    for row in result.rows:
        writer.writerow(["" if v is None else v for v in row])


def export_csv(con: duckdb.DuckDBPyConnection, relation: str, path: Path, chunk: int = 10000) -> None:
    """A relation of ``con`` (a table or view name) as a CSV file, sorted on all its columns,
    each value as DuckDB renders it, as `write_csv` writes them; streamed in chunks."""
    name = '"' + relation.replace('"', '""') + '"'
    result = con.execute(f"SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (SELECT * FROM {name} ORDER BY ALL)")
    columns = [d[0] for d in result.description]
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv_writer(handle)
        writer.writerow(columns)
        while rows := result.fetchmany(chunk):
            writer.writerows(["" if v is None else v for v in row] for row in rows)


def write_json(result: QueryResult, out=sys.stdout) -> None:
    out.write(dumps([dict(zip(result.columns, row)) for row in result.rows], indent=1))
    out.write("\n")


# The submission template's columns as the measurements view holds them: a T-shirt by its
# name, a count without a trailing ".0", a number as printed (with its unit, which the
# template accepts).
TEMPLATE_SELECT = """
    SELECT product, product_version, platform, server_cores, scenario, message_size_bytes,
           CASE WHEN persistent IS NULL THEN NULL WHEN persistent THEN 'true' ELSE 'false' END
               AS persistent,
           concurrency_kind,
           CASE WHEN concurrency_kind = 'tshirt' THEN tshirt
                WHEN concurrency = round(concurrency) THEN CAST(CAST(concurrency AS BIGINT) AS VARCHAR)
                ELSE CAST(concurrency AS VARCHAR) END AS concurrency,
           replicas, topology, queue_managers,
           CASE WHEN simulated_latency_ms = round(simulated_latency_ms)
                THEN CAST(CAST(simulated_latency_ms AS BIGINT) AS VARCHAR)
                ELSE CAST(simulated_latency_ms AS VARCHAR) END AS simulated_latency_ms,
           msg_rate_printed AS msg_rate, cpu_busy_pct_printed AS cpu_busy_pct,
           cpu_ms_per_msg_printed AS cpu_ms_per_msg, source, source_line
    FROM measurements
    WHERE source = ? AND coalesce(msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed) IS NOT NULL
    ORDER BY source_line, measurement_id"""


def rows_as_template(con: duckdb.DuckDBPyConnection, source: str) -> list[dict]:
    """A filed source's measurements as rows of the submission template (plus their source
    and line): what a resubmission of those numbers looks like."""
    result = con.sql(TEMPLATE_SELECT, params=[source])
    return [dict(zip(result.columns, row)) for row in result.fetchall()]


# What the README's "Contents of the warehouse" says, counted from the warehouse (`perfwh
# contents --markdown`; a test keeps the README equal to it).
CONTENTS_SQL = """
    SELECT r.source, r.title, r.published_year,
           (SELECT count(*) FROM dim_source_table t WHERE t.report_id = r.report_id) AS tables,
           (SELECT count(*) FROM fact_metric_value f WHERE f.report_id = r.report_id) AS numbers,
           (SELECT count(*) FROM fact_claim c WHERE c.report_id = r.report_id) AS statements
    FROM dim_report r
    WHERE r.retired_by IS NULL AND (? IS NULL OR list_contains(?, r.source))
    ORDER BY r.published_year NULLS LAST, r.source"""


def contents_markdown(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None) -> str:
    """The warehouse's reports, tables, numbers, statements and findings, as the README lists
    them: one sentence and one row per report (oldest first); of ``sources`` only, if given."""
    reports = con.execute(CONTENTS_SQL, [sources, sources]).fetchall()
    chosen = [r[0] for r in reports]
    kinds = dict(con.execute("SELECT claim_kind, count(*) FROM fact_claim c JOIN dim_report r "
                             "USING (report_id) WHERE list_contains(?, r.source) GROUP BY 1",
                             [chosen]).fetchall())
    errors, warnings, waived = con.execute(
        "SELECT count(*) FILTER (WHERE severity = 'error' AND waiver IS NULL), "
        "count(*) FILTER (WHERE severity = 'warning' AND waiver IS NULL), count(*) FILTER (WHERE waiver "
        "IS NOT NULL) FROM dq_findings WHERE list_contains(?, source)", [chosen]).fetchall()[0]
    numbers = sum(r[4] for r in reports)
    tables = sum(r[3] for r in reports)
    statements = sum(r[5] for r in reports)
    values = kinds.get("value", 0)
    lines = [f"{numbers} numbers from {tables} results tables of {len(reports)} reports, and "
             f"{statements} statements from the reports' prose - {values} numbers and "
             f"{statements - values} counts, orderings, superlatives, trends, windows and dates "
             f"(`fact_claim.claim_kind`); the rules find {errors} errors and {warnings} warnings "
             f"in them (`dq_findings`){f', and {waived} findings waived when filed' if waived else ''}:", "",
             "| report | published | tables | numbers | statements |", "|---|---|---|---|---|"]
    for source, title, year, n_tables, n_numbers, n_statements in reports:
        lines.append(f"| {_markdown_text(title)} ({_markdown_code(source)}) | {year if year is not None else ''} "
                     f"| {n_tables} | {n_numbers} | {n_statements} |")
    return "\n".join(lines) + "\n"


def _markdown_text(text: str) -> str:
    """A name as text in a Markdown table cell: no markup of its own (a submission's title may
    hold <b>, & or *), no cell break."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|#~])", r"\\\1", text)


def _markdown_code(text: str) -> str:
    """A file name as code in a Markdown table cell: fenced by more backticks than it holds in
    a row, its | escaped (a table's cell break even in code)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}"
