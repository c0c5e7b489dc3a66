"""The rules on Apache Spark: the same findings as in DuckDB, from the same rule files.

The Spark tests share one SparkSession (the `spark_session` fixture); the translation tests
need no Spark at all.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import duckdb
import pytest

from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, SOURCES_FILE
from perfwh.quality.cformat import c_printf
from perfwh.quality.rules import load_rules
from perfwh.quality.spark import _view_query, interface_views, macros, to_spark
from support.sandbox import private_layers

sys.path.insert(0, str(PROJECT_ROOT / "bench"))
import synthetic  # noqa: E402  (the benchmarks' generator of submissions)

# One worker runs every Spark test: one JVM, started once (two would share two cores).
pytestmark = pytest.mark.xdist_group("spark")

# What "the same finding" means across engines, and the whole of what dq_findings holds.
KEY = "rule, source, source_line, metric"
ALL = ("rule, severity, source, source_line, table_title, metric, printed_value, message, "
       "suggested_value, finding_key, waiver")


def test_every_rule_and_interface_view_translates():
    """sqlglot reads every rule file and view as DuckDB SQL; the fix-ups leave nothing that
    only DuckDB knows (macros, printf, MATERIALIZED hints)."""
    for rule in load_rules():
        spark_sql = to_spark(rule.query())
        assert "CONFIG_KEY(" not in spark_sql.upper() and "MATERIALIZED" not in spark_sql.upper()
        assert "PRINTF(" not in spark_sql.upper().replace("PERFWH_PRINTF(", ""), rule.name
    views = interface_views()
    assert {"dq_input", "dq_values", "dq_claims", "dq_rejects", "dq_claim_values", "dq_predictions"} <= set(views)
    for name, create in views.items():
        assert "MATERIALIZED" not in to_spark(_view_query(create)).upper(), name
    assert {"config_key", "printed_half_ulp"} <= set(macros())
    inlined = to_spark("SELECT config_key(k, v, r, t, topology, qms, latency) FROM x")
    assert "CONCAT_WS('|'" in inlined and "single_copy" in inlined


@pytest.mark.parametrize("template, values", [
    ("%.3g x the capacity (%s %g -> %g)", (2.0, "docker_cores", 1.0, 2.0)),
    ("%.4g ms (%.4g to %.4g)", (3.5544, 1234567.0, 0.000123456)),
    ("%.1f W over %d readings, %.2f and %.0f%%", (2.25, 12, 0.125, 136.5)),
    ("%s is %s here (%s:%d)", ("msg_rate", "13662.3", "iib10-xlinux.txt", 136)),
    ("%s %s", (True, "x")),
    ("%s", (None,)),
])
def test_messages_are_formatted_as_duckdb_formats_them(template, values):
    """Spark's printf is Java's (2.00000 for %g, ties rounded up); the engine formats with
    `c_printf`, which must agree with DuckDB's printf, NULL included."""
    con = duckdb.connect()
    placeholders = ", ".join("?" for _ in values)
    expected = con.execute(f"SELECT printf(?, {placeholders})", [template, *values]).fetchall()[0][0]
    assert c_printf(template, values) == expected


@pytest.fixture(scope="module")
def five_reports(tmp_path_factory, spark_session, built_warehouse):
    """The reports built twice: rules in DuckDB (the run's shared warehouse, built from the
    same inputs), and on Spark over the staged lake."""
    from perfwh.stages.build import build

    out = tmp_path_factory.mktemp("spark") / "warehouse.duckdb"
    build(out=out, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="spark", progress=False)
    return {"duckdb": built_warehouse, "spark": out}


def findings(path, columns: str) -> list[tuple]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.sql(f"SELECT {columns} FROM dq_findings ORDER BY finding_id").fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_spark_and_duckdb_give_the_same_findings_on_the_five_reports(five_reports):
    duck, spark = (findings(five_reports[e], KEY) for e in ("duckdb", "spark"))
    assert len(duck) > 100
    assert sorted(spark) == sorted(duck)
    # and more: the same rows of dq_findings, messages, suggestions and ids included
    assert findings(five_reports["spark"], ALL) == findings(five_reports["duckdb"], ALL)


@pytest.mark.slow
def test_the_spark_build_commits_the_lake_it_read(five_reports):
    from perfwh.warehouse.lake import read_manifest

    lake = five_reports["spark"].parent / "lake"
    manifest = read_manifest(lake)
    assert manifest["relations"]["dq_findings"]["rows"] == len(findings(five_reports["spark"], KEY))
    assert not list(five_reports["spark"].parent.glob(".*tmp-*"))  # nothing staged left over


# Rows of the large submission: more than one Spark task per stage (the shuffles'
# partitions, whatever the size), in one Parquet row group, as 100,000 rows were (size
# beyond that adds nothing here; bench/bench_check.py measures size), and few enough series
# for a check to fit them: 142 findings of 8 rules, the models' residuals among them.
LARGE = 5_000


# A lab's run, filed before the large submission is checked; the large submission opens with
# (lines 2-5) that row again, the row run again with other numbers, a report's row with a slip
# (13334.9 for 1334.9) and a report's test run again on a machine of the report's name.
LAB = "IIB,10.0.0.2,lab A,8,ISO 8583 Transformation,1384,false,flow_copies,,,"
FILED_FIRST = [LAB + "1000.0,50.0,4.000"]
RESUBMITTED = [LAB + "1000.0,50.0,4.000", LAB + "990.0,49.5,4.000",
               "IIB,10.0.0.2,xLinux,8,Coordinated Request/Reply,256,false,flow_copies,,,13334.9,89.0,5.3",
               "IIB,10.0.0.2,xLinux,8,ISO 8583 Transformation,1384,false,flow_copies,,,1250.0,85.0,5.44"]
RESUBMISSION_HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
                       "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")


@pytest.fixture(scope="module")
def large_checked(tmp_path_factory, built_warehouse, spark_session) -> dict[str, dict]:
    """The large submission checked as a user checks it, `perfwh check --json` (in-process,
    on the shared Spark session), once on each engine, against the reports' warehouse with a
    lab's run filed (FILED_FIRST): its status, its output (the findings as JSON) and its
    summary. A pass of the rules on Spark costs minutes of CPU here, so the command line's
    test, the findings' parity and the resubmissions' judgement share these two runs."""
    import contextlib
    import csv
    import io
    import json

    from perfwh.cli import main

    folder = tmp_path_factory.mktemp("large")
    box = private_layers(folder, built_warehouse)
    place = ["--db", str(box["db"]), "--sources", str(box["sources"])]
    first = folder / "first.csv"
    first.write_text(RESUBMISSION_HEADER + "".join(row + "\n" for row in FILED_FIRST))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["add", str(first), *place]) == 0
    generated = synthetic.write(folder / "generated.csv", LARGE).read_text().splitlines()
    blank = "," * (len(generated[0].split(",")) - len(RESUBMISSION_HEADER.split(",")))
    path = folder / "synthetic-large.csv"
    path.write_text("\n".join([generated[0], *(row + blank for row in RESUBMITTED), *generated[1:]]) + "\n")
    assert [len(r) for r in csv.reader(io.StringIO(path.read_text()))][:6] == [len(generated[0].split(","))] * 6
    runs = {}
    for engine in ("duckdb", "spark"):
        printed, said = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
            status = main(["check", str(path), *place, "--engine", engine, "--json"])
        runs[engine] = {"status": status, "stdout": printed.getvalue(), "stderr": said.getvalue(),
                        "findings": json.loads(printed.getvalue())}
    return runs


@pytest.mark.slow
def test_spark_and_duckdb_give_the_same_findings_on_a_large_submission(large_checked):
    by_engine = {engine: run["findings"] for engine, run in large_checked.items()}
    for run in large_checked.values():
        assert f"{LARGE + len(RESUBMITTED)} rows" in run["stderr"]
    duck = by_engine["duckdb"]
    assert len(duck) >= LARGE // synthetic.TYPO_EVERY  # the planted typos
    assert any(f["rule"] == "model_residual" for f in duck)  # the fitted models' rule too
    assert any(f["suggested_value"] for f in duck)  # and the typo repair's suggestions
    key = ("rule", "file", "line", "metric")
    assert {tuple(f[k] for k in key) for f in by_engine["spark"]} == {tuple(f[k] for k in key) for f in duck}
    assert by_engine["spark"] == duck  # messages, suggestions and ids included, in order


@pytest.mark.slow
def test_a_rule_spark_cannot_run_is_reported_naming_its_file(tmp_path, spark_session):
    from perfwh.quality.rules import RuleError, parse_rule
    from perfwh.quality.spark import rule_frame

    path = tmp_path / "by_name.sql"
    path.write_text("-- severity: warning\n-- relation: dq_input\n-- compares: source\n-- repair: none\n"
                    "-- summary: x\n-- reason: y\n"
                    "SELECT * FROM {batch} UNION ALL BY NAME SELECT * FROM {batch}\n")
    with pytest.raises(RuleError, match="by_name.sql on Spark"):
        rule_frame(spark_session, parse_rule(path))


@pytest.mark.slow
def test_check_engine_spark_on_the_command_line(large_checked):
    """`perfwh check --engine spark` prints what the DuckDB engine prints, the summary on
    stderr too, and ends with its status (1: the planted typos are errors)."""
    duck, spark = large_checked["duckdb"], large_checked["spark"]
    assert (spark["status"], spark["stdout"], spark["stderr"]) == (duck["status"], duck["stdout"], duck["stderr"])
    assert spark["status"] == 1
    assert [f for f in spark["findings"] if f["severity"] == "error" and f["suggested_value"]]


def one_row(folder: Path, platform: str) -> Path:
    """A submission of one consistent row on ``platform``."""
    path = folder / "one.csv"
    path.write_text("product,product_version,platform,server_cores,scenario,message_size_bytes,"
                    "persistent,concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,"
                    f"cpu_ms_per_msg\nIIB,10.0.0.2,{platform},8,ISO 8583 Transformation,1384,false,"
                    "flow_copies,,,1362.3,94.0,5.5\n")
    return path


@pytest.mark.slow
def test_sigterm_during_a_spark_check_is_one_line(tmp_path, built_warehouse):
    """Stopped while it waits on the JVM, a Spark check ends like any other command: one line,
    exit 143, no traceback from py4j's logging - and no process of Spark's outlives it (one
    stopped while spark-submit still started it once ran on for most of an hour)."""
    import signal
    import subprocess
    import time

    one = one_row(tmp_path, "sigterm box")
    mark = f"perfwh-sigterm-{os.getpid()}-{time.monotonic_ns()}"  # inherited by all it starts
    proc = subprocess.Popen([sys.executable, "-m", "perfwh.cli", "check", str(one), "--db",
                             str(built_warehouse), "--engine", "spark"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PERFWH_TEST_MARK": mark})
    started = time.monotonic()
    while _java_below(proc.pid) is None and time.monotonic() - started < 120:
        time.sleep(0.2)  # until a JVM is up (spark-submit's launcher first, then Spark's own)
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "py4j" not in err, err
    assert err.strip().splitlines() == ["perfwh check: terminated"], err  # nothing of the JVM's
    ended = time.monotonic() + 30
    while _marked(mark) and time.monotonic() < ended:
        time.sleep(0.2)
    assert not _marked(mark), f"processes {_marked(mark)} of the stopped check still run"


def _marked(mark: str) -> list[int]:
    """The processes (zombies aside) whose environment holds PERFWH_TEST_MARK=``mark``."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if f"PERFWH_TEST_MARK={mark}".encode() in environ.read_bytes().split(b"\0"):
                state = (environ.parent / "stat").read_text()
                if state[state.rindex(")") + 2:].split()[0] != "Z":
                    found.append(int(environ.parent.name))
        except OSError:
            continue
    return found


def _java_below(pid: int) -> int | None:
    """The JVM below process ``pid``, if one runs."""
    children: dict[int, list[int]] = {}
    names = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        names[int(stat.parent.name)] = name
        children.setdefault(int(rest[1]), []).append(int(stat.parent.name))
    below, seen = list(children.get(pid, [])), set()
    while below:
        child = below.pop()
        if child in seen:
            continue
        seen.add(child)
        if names.get(child) == "java":
            return child
        below.extend(children.get(child, []))
    return None


def test_spark_that_cannot_start_is_one_line_saying_why(tmp_path, built_warehouse):
    """No Java where JAVA_HOME points: the check cannot run its rules and says so in one line,
    with what the launcher printed (the JVM's output goes nowhere else)."""
    import subprocess

    one = one_row(tmp_path, "no java box")
    done = subprocess.run([sys.executable, "-m", "perfwh.cli", "check", str(one), "--db",
                           str(built_warehouse), "--engine", "spark"], capture_output=True, text=True,
                          env={**os.environ, "JAVA_HOME": str(tmp_path / "no-java")}, timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfwh check: cannot check: cannot start Spark"), lines
    assert f"{tmp_path / 'no-java'}/bin/java" in lines[0] and "Java 17" in lines[0]


@pytest.mark.slow
def test_spark_and_duckdb_judge_resubmissions_alike(large_checked):
    """The rules that compare a submission with what is filed - `already_filed` and the
    resubmission branches of `cross_table_consistency` - never fire on the reports or on a
    generated file: the large submission's first lines (RESUBMITTED) are a lab's run filed
    before, that row run again with other numbers, a report's row with a slip and a report's
    test run again on a machine of the report's name. Both engines give the same findings."""
    by_engine = {engine: [f for f in run["findings"] if 2 <= (f["line"] or 0) <= 1 + len(RESUBMITTED)]
                 for engine, run in large_checked.items()}
    duck = by_engine["duckdb"]
    rules = {(f["rule"], f["line"]) for f in duck if f["severity"] == "error"}
    assert {("already_filed", 2), ("cross_table_consistency", 3), ("cross_table_consistency", 4),
            ("cross_table_consistency", 5)} <= rules, rules
    assert any(f["line"] == 3 and "--revision-of first.csv" in f["message"] for f in duck)
    assert any(f["line"] == 4 and f["suggested_value"] == "1334.9" for f in duck)
    assert all(f["suggested_value"] is None and "another run" in f["message"]
               for f in duck if f["line"] == 5 and f["rule"] == "cross_table_consistency")
    assert by_engine["spark"] == duck  # messages, suggestions and ids included, in order


# A process whose Spark JVM is killed between the analysis of a rule and its job.
_JVM_DIES = """
import os, signal, sys, tempfile
from pathlib import Path
from perfwh.quality import spark
from perfwh.quality.rules import RuleError, load_rules
session = spark.session()
frame = session.sql("SELECT 1 AS x")
process = spark._JVM["process"]
os.kill(process.pid, signal.SIGKILL)
process.wait()
rule = load_rules()[0]
try:
    spark.write_parquet(session, [(rule, frame)], Path(tempfile.mkdtemp(dir=sys.argv[1])))
except RuleError as err:
    print(err)
print(spark.session().sql("SELECT 41 + 1 AS answer").collect()[0].answer)
spark.stop()
"""


@pytest.mark.slow
def test_a_rule_whose_jvm_died_says_so_and_the_next_session_starts(tmp_path):
    """The Spark JVM dying under a check (it did once in CI, leaving only "Connection
    refused") is reported naming the rule, the JVM's exit status and the last lines it
    printed; the process's next Spark session is a new one, not the dead one."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", _JVM_DIES, str(tmp_path)], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "SPARK_CONF_DIR": str(Path(__file__).parent / "spark")})
    assert done.returncode == 0, done.stderr[-2000:]
    said, answer = done.stdout.strip().splitlines()
    assert said.startswith(f"{load_rules()[0].path} on Spark: ") and \
        "(the Spark JVM ended with status -9; it printed last: " in said, said
    assert answer == "42"
