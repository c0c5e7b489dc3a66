"""The rule files on Apache Spark, over the Parquet lake (`perfwh.warehouse.lake`).

Each relation of the lake becomes a Spark view; the data-quality interface views (dq_input,
dq_values, dq_claims, dq_rejects) are created from their one definition in schema/50_dq.sql,
and every rule runs from its one file - both translated from DuckDB's SQL to Spark's by
sqlglot at run time (`to_spark`), never kept as a second copy. The findings are written by
Spark as Parquet and loaded into DuckDB's table of findings (`rules.FOUND`), where the typo
repair and everything after it run as for the other engines.

What sqlglot does not translate is fixed in `to_spark`, each fix-up a small rewrite of the
parsed statement:
  - DuckDB macros (``config_key``, ``printed_half_ulp``: `CREATE MACRO` in schema/) are
    inlined: Spark has no macros;
  - ``printf`` becomes the Python UDF ``perfwh_printf`` (`cformat.c_printf`), because Spark's
    printf is Java's, which formats %g and rounds ties differently from DuckDB's;
  - ``nfc_normalize``, which Spark has not, is a Python UDF of that name;
  - ``WITH x AS [NOT] MATERIALIZED`` loses the hint, which is DuckDB's alone.
Rules avoid what has no such fix-up (``UNION ... BY NAME``, ``LATERAL (VALUES ...)``
correlated with the outer row); tests compare every rule's findings on both engines.

One SparkSession per process (`session`), on this machine unless a master URL is given; the
driver binds to 127.0.0.1, the web UI is off, logs are quiet, and nothing needs the network.

How a pass runs (`store_spark_findings`): each rule's query is a Spark job of its own, not
their union - Spark plans and runs the union of the queries more than twice as slowly as the
queries one by one (115 s against 48 s for five reports), and a rule that fails at run time is
named by its own job. On a warehouse's data a job costs mostly what it costs whatever the
data's size (analysis, planning, code generation, scheduling), so that cost is kept down:
each rule is analysed once (its columns selected from the analysed frame; analysing it again
in a wrapping query was about 11 s of a 50 s pass); a translation is made once per process
(`to_spark` is cached: 1.7 s a pass); the views that several rules read are cached (CACHED);
and JOBS jobs run at once, the next rules analysed meanwhile. Over the seven reports' lake
(246 findings, the same rows), a pass took 139 then 93 CPU seconds (first and second pass in
one process) and takes 125 then 77 with these changes alone.

Spark's code generation and adaptive execution stay on (Spark's defaults): on the same lake,
`spark.sql.codegen.wholeStage=false`, `spark.sql.codegen.factoryMode=NO_CODEGEN` and
`spark.sql.adaptive.enabled=false` take a pass from 125/77 to 102/54 CPU seconds, and a
check of a 25,000-row submission from 170/117 to 126/82, but the factory mode is an internal
setting of Spark's own tests, and on more data than this, or on a cluster, compiled code is
what pays; where the crossover lies is not measured (bench/bench_spark.py would). The tests,
which check this module's SQL rather than Spark's code generator, run with them off
(tests/spark/spark-defaults.conf). The CPU seconds are the process's and its JVM's,
measured on a shared two-core machine (load 7-12), where wall times were not comparable.
"""
from __future__ import annotations

import atexit
import contextlib
import logging
import os
import re
import sys
import tempfile
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import duckdb

from perfwh.core.paths import SCHEMA_DIR
from perfwh.warehouse.db import run, sql_literal
from perfwh.warehouse.lake import read_manifest, spark_read

from . import DEFAULT_SPARK_MASTER
from .rules import FINDING_COLUMNS, FOUND, MATERIALISED, RELATIONS, SUGGESTION, Rule, RuleError, create_found

# Few, small shuffles: the default of 200 partitions costs seconds of task overhead here.
# Two: one task per core of the default master (local[2]), so a stage runs in one wave and
# still in more than one task (a pass of the rules over the reports: 4 partitions 24 s,
# 2 partitions 18 s, 1 partition 15 s of jobs, with every rule's work split in none).
SHUFFLE_PARTITIONS = 2
SETTINGS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.sql.shuffle.partitions": str(SHUFFLE_PARTITIONS),
    # partition values (family, source) are text, whatever they look like
    "spark.sql.sources.partitionColumnTypeInference.enabled": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.log.structuredLogging.enabled": "false",
}
# Quiet: a failing query reaches Python as an exception, which the engine reports itself.
LOG_CONFIG = """rootLogger.level = fatal
rootLogger.appenderRef.stderr.ref = console
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = fatal
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = spark: %p %c{1}: %m%n
"""
_MACRO = re.compile(r"CREATE\s+MACRO\s.*?;", re.IGNORECASE | re.DOTALL)
_VIEW = re.compile(r"CREATE\s+VIEW\s+(\w+)\s+AS\s.*?;", re.IGNORECASE | re.DOTALL)
_SESSIONS: dict[str, object] = {}
# What the session's JVM and its launcher printed (an unnamed file, see _start), and the JVM's
# process: a job that fails because the JVM died says what it printed last.
_JVM: dict[str, object] = {}


def session(master: str | None = None):
    """The process's SparkSession on ``master`` (default DEFAULT_SPARK_MASTER), started on
    first use."""
    master = master or DEFAULT_SPARK_MASTER
    if master in _SESSIONS and _jvm_ended():
        _forget_dead_session()  # its JVM died (the job it failed said so): a new one
    if master in _SESSIONS:
        return _SESSIONS[master]
    if _SESSIONS:
        raise RuleError(f"a Spark session on {next(iter(_SESSIONS))} is already running in this "
                        f"process; cannot start another on {master}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PySpark's notice that it does not know pandas 3 yet
        spark = _start(master)
    _SESSIONS[master] = spark
    return spark


def _forget_dead_session() -> None:
    """Forget a session whose JVM has died, as PySpark would after stopping it (it cannot stop
    one without its JVM): PySpark keeps the gateway and the active context and session on its
    classes, and would hand them to the next session."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    SparkContext._gateway = SparkContext._jvm = SparkContext._active_spark_context = None
    SparkSession._instantiatedSession = SparkSession._activeSession = None
    _SESSIONS.clear()
    _JVM.clear()


def _start(master: str):
    try:
        from pyspark.sql import SparkSession
    except ImportError as err:
        raise RuleError(f"the Spark engine needs PySpark ({err}); run `make install`") from None
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    _quiet_py4j()
    _quiet_pyspark()
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    conf = SparkConf().setMaster(master).setAppName("perfwh")
    for key, value in {**SETTINGS, "spark.driver.extraJavaOptions":
                       f"-Dlog4j2.configurationFile=file:{_log_config()}"}.items():
        conf.set(key, value)
    # What the JVM and its launcher print (the incubator module Spark loads, the shell's
    # default log level) is no finding and no error of a check: it goes to a file of its own,
    # unnamed so that nothing is left of it, and its last line says why a start failed.
    jvm_output = tempfile.TemporaryFile(mode="w+b")
    if Path("/proc").is_dir():  # Linux: what a stop during the start leaves is found there
        atexit.register(_end_jvms)
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stdout": jvm_output, "stderr": jvm_output})
        spark = SparkSession(SparkContext(conf=conf, gateway=gateway))
    except Exception as err:  # Java missing, the master unreachable
        raise RuleError(f"cannot start Spark on {master}: {_why_it_failed(err, jvm_output)}"
                        " (the Spark engine needs Java 17: `make system-packages` installs "
                        "Debian's openjdk-17-jre-headless, or says what to run)") from None
    _JVM.update(output=jvm_output, process=getattr(gateway, "proc", None))
    _register_udfs(spark)
    return spark


def _end_jvms() -> None:
    """At the process's exit its JVM ends too. It would on its own once its stdin's end closes,
    but a stop during the JVM's start (SIGTERM while spark-submit still runs its launcher) left
    one running for most of an hour: so every process of Spark's this process started (its
    children whose command names Spark) is asked to end, then killed after 10 s."""
    import signal
    import time

    mine = [pid for pid in _children(os.getpid()) if b"spark" in _command_line(pid)]
    for pid in mine:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in mine) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in filter(_alive, mine):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            text = stat.read_text()
            if int(text[text.rindex(")") + 2:].split()[1]) == parent:
                found.append(int(stat.parent.name))
    return found


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    """Running, and not a zombie this process has yet to reap (reaped here if so)."""
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2:].split()[0] != "Z"


def _why_it_failed(err: Exception, jvm_output) -> str:
    """What a failed start says last, with the last lines the JVM or its launcher printed."""
    printed = _last_printed(jvm_output)
    said = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
    return f"{said} ({'; '.join(printed)})" if printed else said


def _last_printed(jvm_output, lines: int = 3) -> list[str]:
    """The last non-blank lines the JVM or its launcher printed (read from the end of what
    may be megabytes of log)."""
    jvm_output.seek(0, os.SEEK_END)
    jvm_output.seek(max(0, jvm_output.tell() - 8192))
    printed = [line.strip() for line in jvm_output.read().decode("utf-8", "replace").splitlines()
               if line.strip()]
    return printed[-lines:]


def _jvm_ended() -> str:
    """When the session's JVM has ended: how, with the last lines it printed (else "")."""
    process = _JVM.get("process")
    if process is None or process.poll() is None:
        return ""
    printed = _last_printed(_JVM["output"])
    said = f"; it printed last: {'; '.join(printed)}" if printed else ", printing nothing"
    return f" (the Spark JVM ended with status {process.returncode}{said})"


def _quiet_py4j() -> None:
    """py4j logs tracebacks of its own (some through the root logger) when Ctrl-C or SIGTERM
    interrupts a call into the JVM, although the command then says in one line that it was
    interrupted; every real failure of a call reaches perfwh as an exception. Its log records
    are dropped."""
    logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)
    logging.getLogger().addFilter(_not_from_py4j)


def _quiet_pyspark() -> None:
    """PySpark logs every error of Spark's that names where in a query it arose (as JSON on
    stderr), as it turns it into the exception that the engine reports in one line itself
    (naming the rule's file). Made by PySpark's class, as PySpark would make them: it logs
    through them with arguments only that class takes."""
    from pyspark.logger import PySparkLogger

    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 1)


def _not_from_py4j(record: logging.LogRecord) -> bool:
    return f"{os.sep}py4j{os.sep}" not in record.pathname


@lru_cache(maxsize=1)
def _log_config() -> Path:
    path = Path(tempfile.gettempdir()) / f"perfwh-spark-log4j2-{os.getuid()}.properties"
    if not path.exists() or path.read_text() != LOG_CONFIG:
        path.write_text(LOG_CONFIG)
    return path


def _register_udfs(spark) -> None:
    from pyspark import cloudpickle
    from pyspark.sql.types import StringType

    from . import cformat

    cloudpickle.register_pickle_by_value(cformat)  # workers need no perfwh installed
    spark.udf.register("perfwh_printf", cformat.c_printf, StringType())

    def nfc_normalize(text):
        """DuckDB's nfc_normalize (schema's name_spaces), which Spark has not: composed accents."""
        import unicodedata

        return None if text is None else unicodedata.normalize("NFC", text)

    spark.udf.register("nfc_normalize", nfc_normalize, StringType())  # pickled by value: nested


def stop() -> None:
    """Stop the process's Spark session (tests and short-lived commands call it at the end)."""
    for spark in _SESSIONS.values():
        spark.stop()
    _SESSIONS.clear()
    _JVM.clear()


# -- translating DuckDB's SQL ------------------------------------------------------------------

@lru_cache(maxsize=1)
def macros() -> dict[str, tuple[list[str], object]]:
    """name -> (parameters, body expression) of every DuckDB macro the schema defines."""
    import sqlglot
    from sqlglot import exp

    found = {}
    for path in sorted(Path(SCHEMA_DIR).glob("*.sql")):
        for text in _MACRO.findall(_without_comments(path.read_text(encoding="utf-8"))):
            create = sqlglot.parse_one(text.rstrip(";"), read="duckdb")
            function = create.this
            name = function.this.name if isinstance(function.this, exp.Table) else function.name
            found[name.lower()] = ([p.name for p in function.expressions], create.expression)
    return found


def _without_comments(text: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in text.splitlines())


@lru_cache(maxsize=None)
def to_spark(sql: str) -> str:
    """DuckDB SQL (a rule, a view) as Spark SQL: sqlglot's translation plus the fix-ups
    listed in the module's docstring."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="duckdb")
    known = macros()

    def fix(node):
        if isinstance(node, exp.Anonymous) and node.name.lower() in known:
            params, body = known[node.name.lower()]
            if len(params) != len(node.expressions):
                raise RuleError(f"macro {node.name} takes {len(params)} arguments, "
                                f"given {len(node.expressions)}")
            values = dict(zip(params, node.expressions))
            inlined = body.copy().transform(
                lambda n: exp.Paren(this=values[n.name].copy())
                if isinstance(n, exp.Column) and not n.table and n.name in values else n)
            return exp.Paren(this=inlined.transform(fix))
        if isinstance(node, exp.Anonymous) and node.name.lower() == "printf":
            template, *args = node.expressions
            return exp.Anonymous(this="perfwh_printf", expressions=[
                template.copy().transform(fix),
                exp.Struct(expressions=[a.copy().transform(fix) for a in args])])
        if isinstance(node, exp.CTE) and node.args.get("materialized") is not None:
            node.set("materialized", None)
        return node

    return tree.transform(fix).sql(dialect="spark")


def interface_views() -> dict[str, str]:
    """The CREATE VIEW statements of the data-quality interface (every dq_ view of the schema:
    the relations rules read as their batch, and those they join, such as dq_claim_values and
    dq_predictions), as DuckDB SQL from the schema files that define them, by name, in the
    order they are defined (a view may read one defined before it)."""
    views = {}
    for path in sorted(Path(SCHEMA_DIR).glob("*.sql")):
        text = _without_comments(path.read_text(encoding="utf-8"))
        for match in _VIEW.finditer(text):
            if match.group(1).startswith("dq_"):
                views[match.group(1)] = match.group(0).rstrip(";")
    missing = sorted(set(RELATIONS) - set(views))
    if missing:
        raise RuleError(f"{SCHEMA_DIR}: no CREATE VIEW for {', '.join(missing)}")
    return views


def current_views(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The interface views as the warehouse holds them now: a later stage may have replaced
    one (the models stage points dq_predictions at model_predictions), so the definitions come
    from the warehouse's catalog, in the schema's order."""
    held = dict(run(con, "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal "
                         "AND schema_name = 'main' AND database_name = current_database()"))
    return {name: held.get(name, create).rstrip(";") for name, create in interface_views().items()}


# -- running the rules --------------------------------------------------------------------------

# Interface views Spark caches once registered (computed on first use, kept for every rule,
# spilled to disk as needed): those DuckDB computes once too (`rules.MATERIALISED`), which
# Spark would otherwise recompute from Parquet for each rule that reads them.
CACHED = MATERIALISED
# Rules' jobs run at once: while one job's tasks run, the driver plans and schedules another
# (the driver's share of a small job is most of it). Two to four gained about as much here.
JOBS = 2


def register_lake(spark, lake: Path, definitions: dict[str, str] | None = None) -> None:
    """The interface views over the lake as Spark views: the lake's relations they read, then
    the views themselves (``definitions``, by default the schema's), those in CACHED cached."""
    import sqlglot
    from sqlglot import exp

    views = {name: to_spark(_view_query(create))
             for name, create in (definitions or interface_views()).items()}
    relations = read_manifest(lake)["relations"]
    read = sorted({t.name for sql in views.values()
                   for t in sqlglot.parse_one(sql, read="spark").find_all(exp.Table)} & set(relations))
    for name in read:
        spark_read(spark, lake, name).createOrReplaceTempView(name)
    for name, query in views.items():
        spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW {name} AS {query}")
    for name in CACHED:
        spark.catalog.cacheTable(name)


def unregister_lake(spark) -> None:
    for name in CACHED:
        spark.catalog.uncacheTable(name)


def _view_query(create: str) -> str:
    """The SELECT of a CREATE VIEW statement."""
    return re.split(r"\bAS\b", create, maxsplit=1, flags=re.IGNORECASE)[1]


# What a finding's columns are stored as, whatever type the rule's query gives them.
CASTS = {"world": "BIGINT", "row_id": "BIGINT", "fact_id": "BIGINT", "source_line": "BIGINT",
         "related_row_id": "BIGINT"}


def rule_frame(spark, rule: Rule):
    """A Spark DataFrame of the rule's findings, FINDING_COLUMNS then its name and severity.
    Spark analyses the query here, once (the columns are selected from the analysed frame),
    so a rule it cannot run is reported naming its file."""
    from pyspark.sql import functions as F

    try:
        found = spark.sql(to_spark(rule.query()))
        # the rule's own suggestion where it returns one (as `rules.store_rule` stores it)
        suggestion = F.col(SUGGESTION) if SUGGESTION in found.columns else F.lit(None)
        return found.select(*[F.col(c).cast(CASTS.get(c, "STRING")).alias(c) for c in FINDING_COLUMNS],
                            F.lit(rule.name).alias("rule"), F.lit(rule.severity).alias("severity"),
                            suggestion.cast("STRING").alias(SUGGESTION))
    except RuleError:
        raise
    except Exception as err:  # a Spark AnalysisException, a sqlglot ParseError
        raise RuleError(f"{rule.path} on Spark: {_first_line(err)}{_jvm_ended()}") from None


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def store_spark_findings(con: duckdb.DuckDBPyConnection, rules: list[Rule], lake: Path,
                         master: str | None = None) -> None:
    """Every rule run by Spark over ``lake``, the findings stored in FOUND of ``con``: each
    rule's query a Spark job of its own (JOBS at a time; the module's docstring says why),
    written as Parquet that DuckDB loads."""
    spark = session(master)
    register_lake(spark, lake, current_views(con))
    create_found(con)
    try:
        with tempfile.TemporaryDirectory(prefix="perfwh-spark-findings-") as tmp:
            # each rule analysed here while the jobs of those before it run
            write_parquet(spark, ((rule, rule_frame(spark, rule)) for rule in rules), Path(tmp))
            # in the rules' order, each rule's files in Spark's order: the order of loading is
            # fixed, whichever job finished first
            files = sorted(str(p) for p in Path(tmp).glob("*/*.parquet"))
            if files:
                run(con, f"INSERT INTO {FOUND} SELECT {', '.join(FINDING_COLUMNS)}, rule, severity, "
                         f"{SUGGESTION}, NULL FROM read_parquet([{', '.join(map(sql_literal, files))}])")
    finally:
        unregister_lake(spark)


def write_parquet(spark, frames: Iterable[tuple[Rule, object]], folder: Path) -> None:
    """Each (rule, frame) written as Parquet to ``folder``/<rule name>, JOBS jobs at a time,
    each submitted as ``frames`` yields it. The rule named when one fails is the same whichever
    job ends first: the first in ``frames`` that Spark cannot analyse, else the first whose job
    fails; the jobs still running are cancelled then, as they are on Ctrl-C or SIGTERM."""
    group = f"perfwh-rules-{uuid.uuid4().hex}"

    def write(rule: Rule, frame) -> None:
        try:
            spark.sparkContext.setJobGroup(group, f"perfwh rule {rule.name}")
            frame.write.parquet(str(folder / rule.name))
        except Exception as err:
            raise RuleError(f"{rule.path} on Spark: {_first_line(err)}{_jvm_ended()}") from None

    with ThreadPoolExecutor(max_workers=JOBS, thread_name_prefix="perfwh-spark") as pool:
        futures = []
        try:
            for rule, frame in frames:
                futures.append(pool.submit(write, rule, frame))
            for future in futures:  # in order: the first failing rule is the one named
                future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            with contextlib.suppress(Exception):  # the error or the stop is what is reported
                spark.sparkContext.cancelJobGroup(group)
            raise
