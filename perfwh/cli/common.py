"""What every subcommand shares: the --db and --sources options and the exit statuses."""
from __future__ import annotations

import argparse
from pathlib import Path

from perfwh.core.paths import DB_ENV, SOURCES_FILE, WAREHOUSE, warehouse_path
from perfwh.quality import DEFAULT_SPARK_MASTER

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143


def add_db(parser: argparse.ArgumentParser, help: str = "warehouse file") -> None:
    """--db: the warehouse; the default is $PERFWH_DB, else data/curated/warehouse.duckdb."""
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help=f"{help} (default ${DB_ENV}, else {WAREHOUSE})")


def add_sources(parser: argparse.ArgumentParser, role: str = "") -> None:
    """--sources: the raw layer's manifest; ``role`` says what the command does with it."""
    parser.add_argument("--sources", type=Path, default=SOURCES_FILE, metavar="FILE",
                        help=f"the raw layer's manifest (default {SOURCES_FILE})" + (f"; {role}" if role else ""))


def add_no_wait(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-wait", action="store_true",
                        help="fail at once if another perfwh writer holds the lock, instead of waiting")


def add_memory_limit(parser: argparse.ArgumentParser) -> None:
    """--memory-limit: what DuckDB may hold in memory before it spills to disk."""
    from perfwh.warehouse.db import BUILD_MEMORY_LIMIT

    parser.add_argument("--memory-limit", type=memory_size, default=BUILD_MEMORY_LIMIT,
                        metavar="SIZE",
                        help="memory DuckDB may use before it spills to a folder beside the "
                             f"database, e.g. 256MB, 2GB (default {BUILD_MEMORY_LIMIT})")


def add_engine(parser: argparse.ArgumentParser) -> None:
    """--engine and --spark-master: where the rules run."""
    parser.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb",
                        help="run the rules in DuckDB (default) or on Apache Spark over a "
                             "Parquet lake of the checked warehouse")
    add_spark_master(parser)


def add_spark_master(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spark-master", default=DEFAULT_SPARK_MASTER, metavar="URL",
                        help=f"the Spark cluster for the Spark engine (default "
                             f"{DEFAULT_SPARK_MASTER}, Spark on this machine; e.g. spark://host:7077)")


def memory_size(text: str) -> str:
    from perfwh.warehouse.query import QueryError, memory_bytes

    try:
        memory_bytes(text)
    except QueryError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text.strip()


def whole_number(low: int, high: int, noun: str):
    """An argparse type: a whole number from ``low`` to ``high`` (of ``noun``), or a usage
    error saying so - never a traceback, never a value the command cannot use."""
    def parse(text: str) -> int:
        value = text.strip()
        if not value.isdigit() or not low <= int(value) <= high:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of {noun} from "
                                             f"{low:,} to {high:,}")
        return int(value)
    return parse


def warehouse_to_read(db: Path | None) -> Path:
    """The warehouse a reader (sql, check, size, template) opens: it must be one (else
    NotAWarehouse, which `main` prints as one line), and a change a killed writer committed
    but did not finish is finished first, so that the reader sees it whole."""
    from perfwh.stages.writing import finish_abandoned
    from perfwh.warehouse.db import require_warehouse

    path = warehouse_path(db)
    finish_abandoned(path)
    return require_warehouse(path)


def warehouse_to_update(db: Path | None) -> Path:
    """The warehouse a later stage (findings, models) rewrites: it must be one already."""
    from perfwh.warehouse.db import require_warehouse

    return require_warehouse(warehouse_path(db))


# The fields a command's --json answer always has, null in an error, so that a script reading
# answer["cores"] gets None rather than a KeyError whichever way the question failed.
def _empty_size_answer() -> dict:
    from models.sizing import empty_answer

    return empty_answer()


# The commands whose --json prints an answer: a refusal has the answer's shape, every key there.
EMPTY_ANSWERS = {"perfwh size": _empty_size_answer}


def json_error(message: str, status: int, command: str | None = None) -> str:
    """An error as a command asked for --json prints it on stdout: scripts always get JSON,
    in one shape per command whether argparse or the command itself refused."""
    from perfwh.core.values import dumps

    empty = EMPTY_ANSWERS.get(command or "")
    answer = {"error": message, "status": status}
    if empty:
        answer = empty() | answer | {"warnings": [message]}
    return dumps(answer, indent=2)
