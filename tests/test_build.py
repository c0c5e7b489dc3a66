"""`perfwh build`: atomic (a failed build leaves the previous warehouse byte-identical and no
temporary file), deterministic (same inputs, same rows, ids and order), header variants
logged, and progress as plain lines when stderr is not a terminal."""
from __future__ import annotations

import hashlib
import logging
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, SOURCES_FILE
from perfwh.core.lock import LOCK_NAME
from support.expected import parsed, report_count, total_values
from support.tables import contents
from perfwh.stages.build import BuildError, build
from perfwh.warehouse.sources import sha256_of

PERFWH = Path(sys.executable).with_name("perfwh")
if not PERFWH.exists():
    PERFWH = PROJECT_ROOT / ".venv" / "bin" / "perfwh"

IIB = "iib10-xlinux.txt"
ACE11 = "ace11-vs-iib10-docker-2019.txt"
ACE13 = "ace13-openshift-2025.txt"


def snapshot(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` (hidden temporary files included) with its sha256."""
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def record_checksum(raw: Path, name: str) -> None:
    manifest = raw / "sources.yml"
    text = manifest.read_text(encoding="utf-8")
    old = re.search(rf"- file: {re.escape(name)}\n\s+family: \S+\n\s+sha256: (\w+)", text).group(1)
    manifest.write_text(text.replace(old, sha256_of(raw / "reports" / name)), encoding="utf-8")


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> Path:
    """A good build (with Parquet) that the failing builds below must leave alone."""
    out = tmp_path_factory.mktemp("previous") / "warehouse.duckdb"
    build(out=out, rules="none", progress=False)
    return out


def listing(directory: Path) -> list[str]:
    """The folder's entries but the writer lock's file (which stays, empty, by design)."""
    return sorted(p.name for p in directory.iterdir() if p.name != LOCK_NAME)


def assert_untouched(out: Path, before: dict[str, str]) -> None:
    assert snapshot(out.parent) == before
    names = listing(out.parent)
    assert names == ["lake", "warehouse.duckdb"], names  # no .tmp, .wal or .spill left


# ---------------------------------------------------------------------------- atomicity

def test_checksum_mismatch_leaves_previous_warehouse(previous, raw_copy):
    before = snapshot(previous.parent)
    path = raw_copy / "reports" / IIB
    path.write_text(path.read_text(encoding="utf-8").replace("1362.3", "13662.3"), encoding="utf-8")
    with pytest.raises(BuildError, match=rf"{re.escape(str(path))}: sha256 \w+ does not match"):
        build(out=previous, raw_dir=raw_copy, sources_file=raw_copy / "sources.yml",
              rules="none", progress=False)
    assert_untouched(previous, before)


def test_parser_error_leaves_previous_warehouse(previous, raw_copy):
    before = snapshot(previous.parent)
    path = raw_copy / "reports" / ACE13
    path.write_text(path.read_text(encoding="utf-8").replace("| Large | 2K | 1 | 3398.66 | 0.58 |",
                                                              "| Large | 2K | 1 | 3398.66 |"),
                    encoding="utf-8")
    record_checksum(raw_copy, ACE13)
    with pytest.raises(BuildError, match=rf"^{re.escape(ACE13)}:206: row has 4 cells"):
        build(out=previous, raw_dir=raw_copy, sources_file=raw_copy / "sources.yml",
              rules="none", progress=False)
    assert_untouched(previous, before)


def test_failure_after_the_temporary_warehouse_exists(previous, monkeypatch):
    """A failure late in the build (here: the Parquet export, half written) removes the
    temporary warehouse and the temporary Parquet folder, and keeps the previous ones."""
    import perfwh.stages.writing as writing_module

    before = snapshot(previous.parent)
    seen = {}

    def failing_export(con, directory, **_incremental):
        directory.mkdir(parents=True)
        (directory / "manifest.json").write_bytes(b"half written")
        seen["tmp_lake"] = directory
        seen["tmp_files"] = sorted(p.name for p in previous.parent.iterdir())
        raise duckdb.IOException("disk full (simulated)")

    monkeypatch.setattr(writing_module, "write_lake", failing_export)
    with pytest.raises(BuildError, match="disk full"):
        build(out=previous, rules="none", progress=False)
    # the failure happened while the temporary files existed ...
    assert any(name.startswith(".warehouse.duckdb.tmp-") for name in seen["tmp_files"])
    assert seen["tmp_lake"].name.startswith(".lake.tmp-")
    # ... and they are gone
    assert not seen["tmp_lake"].exists()
    assert_untouched(previous, before)


def test_cli_failure_exits_non_zero_and_names_the_file(previous, raw_copy):
    before = snapshot(previous.parent)
    path = raw_copy / "reports" / ACE11
    path.write_bytes(path.read_bytes() + b"\n")
    result = subprocess.run([str(PERFWH), "build", "--rules", "none", "--raw", str(raw_copy),
                             "--sources", str(raw_copy / "sources.yml"), "--out", str(previous)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert f"perfwh build: error: {path}: sha256" in result.stderr
    assert "perfwh build: the previous warehouse is unchanged" in result.stderr
    assert "Traceback" not in result.stderr
    assert_untouched(previous, before)


def test_a_good_build_replaces_the_previous_one(previous, tmp_path):
    """Success renames the new files over the old ones and leaves no temporary file;
    the same inputs give a byte-identical Parquet table of the facts' natural keys."""
    before = snapshot(previous.parent)
    (previous.parent / "lake" / "stale_table").mkdir()
    (previous.parent / "lake" / "stale_table" / "data_0.parquet").write_bytes(b"from an older schema")
    summary = build(out=previous, rules="none", progress=False)
    assert (summary.reports, summary.values) == (report_count(), total_values())
    assert listing(previous.parent) == ["lake", "warehouse.duckdb"]
    after = snapshot(previous.parent)
    assert "lake/stale_table/data_0.parquet" not in after  # the lake was replaced whole
    assert set(after) == set(before)


# --------------------------------------------------------------------------- determinism

@pytest.fixture(scope="module")
def two_builds(tmp_path_factory, previous) -> tuple[dict, dict, dict]:
    """The module's first build, a second build of the same inputs, and a build from a
    manifest listing the reports in the reverse order."""
    second = tmp_path_factory.mktemp("second") / "warehouse.duckdb"
    build(out=second, rules="none", progress=False, parquet=False)
    raw = tmp_path_factory.mktemp("reversed")
    manifest = yaml.safe_load(SOURCES_FILE.read_text(encoding="utf-8"))
    manifest["reports"].reverse()
    (raw / "sources.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    reordered = raw / "out" / "warehouse.duckdb"
    build(out=reordered, raw_dir=RAW_DIR, sources_file=raw / "sources.yml", rules="none",
          progress=False, parquet=False)
    return contents(previous), contents(second), contents(reordered)


def test_same_inputs_same_tables(two_builds):
    first, second, _ = two_builds
    assert len(first["fact_metric_value"]) == total_values()
    assert sorted(first) == sorted(second)
    for name in first:
        assert first[name] == second[name], name


def test_same_ids_and_order(two_builds):
    """Ids are the same numbers for the same rows: each comes from its row's natural key alone
    (a report's from its file name, a fact's from its source and place), never from its
    neighbours, so a row keeps its id whatever is filed beside it; every id is a whole number
    JavaScript holds exactly."""
    from perfwh.warehouse.load import stable_id

    first, second, _ = two_builds
    ids = [r[0] for r in first["fact_metric_value"]]
    assert len(ids) == total_values() == len(set(ids))
    assert [r[0] for r in second["fact_metric_value"]] == ids
    for name in ("dim_report", "dim_product", "dim_platform", "dim_scenario", "dim_message_size",
                 "dim_configuration", "dim_source_table", "fact_claim", "dq_findings"):
        keys = [r[0] for r in first.get(name, [])]
        assert len(keys) == len(set(keys)), name
        assert all(0 < k < 2 ** 53 for k in keys), name
    columns = first["dim_report columns"]
    for row in first["dim_report"]:
        assert row[0] == stable_id(row[columns.index("source")])


def test_manifest_order_does_not_change_ids(two_builds, previous):
    """Only the filing order (a source's position in sources.yml) follows the manifest; ids,
    rows and their order do not."""
    first, _, reordered = two_builds
    for name in first:
        if name in ("raw_reports", "dim_report", "raw_manifest"):  # the order, the manifest's checksum
            continue
        assert first[name] == reordered[name], name
    con = duckdb.connect(str(previous), read_only=True)
    columns = [c[0] for c in con.execute("DESCRIBE dim_report").fetchall()]
    con.close()
    order = columns.index("filed_order")
    strip = lambda rows: [r[:order] + r[order + 1:] for r in rows]  # noqa: E731
    assert strip(first["dim_report"]) == strip(reordered["dim_report"])
    assert [r[order] for r in first["dim_report"]] != [r[order] for r in reordered["dim_report"]]


BUILDS = 20  # a tie left in an ORDER BY once reordered measurements.parquet 1 build in 10


@pytest.fixture(scope="session")
def first_build(built_warehouse) -> tuple[dict, dict]:
    """The Parquet files and the tables of the first build: the run's shared warehouse."""
    return snapshot(built_warehouse.parent / "lake"), contents(built_warehouse)


@pytest.mark.slow
@pytest.mark.parametrize("build_number", range(2, BUILDS + 1))
def test_twenty_builds_write_byte_identical_parquet(tmp_path, first_build, build_number, request):
    """Every Parquet file - tables, views, findings - has the same bytes in 20 builds of the
    same inputs, and every table the same rows: builds 2 to 20, each a test of its own (they
    run side by side), against the first. The second is the run's `second_build`, which
    tests/test_lake.py compares too."""
    files_first, contents_first = first_build
    if build_number == 2:
        out = request.getfixturevalue("second_build")
    else:
        out = tmp_path / "warehouse.duckdb"
        build(out=out, rules="duckdb", progress=False)
    files = snapshot(out.parent / "lake")
    assert "manifest.json" in files and any(f.startswith("dq_findings/") for f in files)
    assert files == files_first, f"build {build_number}: {sorted(k for k in files if files[k] != files_first.get(k))}"
    assert contents(out) == contents_first


def test_natural_row_order_is_deterministic(previous):
    """Read without ORDER BY the fact table and the views come out in id order as well."""
    con = duckdb.connect(str(previous), read_only=True)
    try:
        ids = [r[0] for r in con.sql("SELECT fact_id FROM fact_metric_value").fetchall()]
        assert ids == sorted(ids)
        view = [r[0] for r in con.sql("SELECT fact_id FROM metric_values ORDER BY fact_id").fetchall()]
        assert view == ids
    finally:
        con.close()


# ------------------------------------------------------------------------------- scenarios

def test_a_scenario_attribute_is_spelt_one_way_across_the_reports(wh):
    """An analyst filtering on flow_style or message_domain finds every scenario of that kind:
    no value is another's words reordered ("XML (generic)" beside "Generic XML"), and a
    test both ACE 11 and ACE 13 ran is described alike (WBIMB 5's Aggregation and IIB 10's
    share only a name)."""
    for column in ("flow_style", "message_domain", "transport"):
        values = [v for (v,) in wh.sql(f"SELECT DISTINCT {column} FROM raw_scenarios "
                                       f"WHERE {column} IS NOT NULL ORDER BY 1").fetchall()]
        by_words = {}
        for value in values:
            by_words.setdefault(frozenset(re.findall(r"\w+", value.lower())), []).append(value)
        assert all(len(v) == 1 for v in by_words.values()), (column, by_words)
    same_test = wh.sql("SELECT DISTINCT transport, message_domain, flow_style FROM raw_scenarios "
                       "WHERE name = 'HTTP XMLNSC ESQL Transformation'").fetchall()
    assert same_test == [("HTTP", "XMLNSC", "Toolkit message flow")]
    toolkit = wh.sql("SELECT count(DISTINCT source) FROM raw_scenarios "
                     "WHERE flow_style = 'Toolkit message flow'").fetchall()[0][0]
    assert toolkit == 3  # IIB 10, ACE 11, ACE 13


# -------------------------------------------------------------------------- header variants

def test_header_variants_recorded(wh):
    rows = wh.sql("SELECT source, line, printed, canonical FROM raw_header_variants "
                  "ORDER BY source, line").fetchall()
    by_source = {}
    for source, line, printed, canonical in rows:
        by_source.setdefault(source, []).append((line, printed, canonical))
    # IIB: the second half is headed "Full Persistance" in five tables
    assert by_source[IIB] == [(line, "Full Persistance", "Full Persistent")
                              for line in (44, 55, 66, 77, 88)]
    # ACE 13: every message-rate table heads its cost column "CPU Cost/Msq (ms)"
    msq = [(line, printed) for line, printed, canonical in by_source[ACE13]
           if canonical == "CPU Cost/Msg (ms)"]
    assert msq == [(line, "CPU Cost/Msq (ms)") for line in
                   (202, 218, 234, 250, 265, 281, 297, 303, 309, 316, 323, 330, 350, 360, 367,
                    374, 381)]
    assert (196, "Capacity(T-shirt Size)", "Capacity (T-shirt Size)") in by_source[ACE13]
    assert (20, "TCPIP ISO8853 XML Transformation", "TCPIP ISO8583 XML Transformation") \
        in by_source[ACE13]
    # ACE 11: the Windows pages split the chart legend over four lines (the first does not)
    legend = [line for line, printed, canonical in by_source[ACE11]
              if printed == "Message Rate [1/s] | Message Rate [1/s] | CPU Cost Per Message | "
                            "CPU Cost Per Message"]
    assert legend == [314, 334, 354, 374, 394]
    assert all(canonical.endswith("(on 4 lines)") for _, _, canonical in by_source[ACE11])


def test_header_variants_are_logged(caplog):
    from ingest import families
    from ingest.reader import read_lines

    with caplog.at_level(logging.INFO, logger="perfwh.ingest"):
        families.parse("iib10", read_lines(RAW_DIR / "reports" / IIB), IIB)
    messages = [r.getMessage() for r in caplog.records if r.name == "perfwh.ingest"]
    assert "line 44: header variant 'Full Persistance' read as 'Full Persistent'" in messages
    assert len([m for m in messages if "Full Persistance" in m]) == 5


# ------------------------------------------------------------------------------ progress

def run_build(out: Path, *extra: str, stderr=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([str(PERFWH), "build", "--rules", "none", "--no-parquet",
                           "--out", str(out), *extra],
                          stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=120)


def test_progress_is_plain_lines_without_a_terminal(tmp_path):
    result = run_build(tmp_path / "warehouse.duckdb")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    assert all(line.startswith("perfwh build: ") for line in lines)
    reports = report_count()
    assert lines[:reports] == [f"perfwh build: parsed {source}: {tables} tables, {values} values"
                               for source, (tables, values) in parsed().items()]
    assert lines[reports] == "perfwh build: loaded the star schema"
    assert re.fullmatch(rf"perfwh build: {reports} reports, {total_values()} values, \d+ claims in "
                        r"\d+\.\d\d s", lines[-1])
    assert result.stdout == ""


def test_quiet_build_prints_nothing(tmp_path):
    result = run_build(tmp_path / "warehouse.duckdb", "-q")
    assert result.returncode == 0
    assert result.stderr == "" and result.stdout == ""


def test_progress_on_a_terminal_is_one_live_line(tmp_path):
    """With stderr on a pseudo-terminal the steps redraw one line (carriage return, erase)."""
    master, slave = pty.openpty()
    try:
        result = run_build(tmp_path / "warehouse.duckdb", stderr=slave)
        os.close(slave)
        slave = None
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO once the terminal has no writer left
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    assert result.returncode == 0
    shown = b"".join(chunks).decode("utf-8")
    assert "\r\x1b[K" in shown
    assert re.search(r"perfwh build \[#+-*\] 1/\d+ parsed wbimb5-aix-2004\.txt", shown)
    assert "perfwh build: parsed" not in shown  # no plain lines on a terminal
    assert f"perfwh build: {report_count()} reports, {total_values()} values" in shown


def test_a_big_load_commits_statement_by_statement_and_builds_the_same(tmp_path, monkeypatch, plain_warehouse):
    """Past ONE_TRANSACTION_NUMBERS the model stage's statements commit one by one (a
    transaction holds its temporary tables in memory: a build of 857,000 numbers ran out of it
    under the default limit); the warehouse is the same as one built in one transaction."""
    import perfwh.warehouse.load as load

    transactions = []
    real = load.one_transaction
    monkeypatch.setattr(load, "one_transaction", lambda con: transactions.append(1) or real(con))
    monkeypatch.setattr(load, "ONE_TRANSACTION_NUMBERS", 0)
    out = tmp_path / "big-load.duckdb"
    build(out=out, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="none", parquet=False, progress=False)
    assert transactions == []
    assert contents(out) == contents(plain_warehouse)


def test_the_integrity_check_names_the_loaded_source_s_lost_number_and_only_its_own(plain_warehouse):
    """Every raw number of the sources being loaded must be exactly one fact: a fact lost (a
    join to a dimension that found no row) stops the load, naming the file and line of the
    first number lost. A loss in a source not being loaded is not blamed on the load (the
    check reads only the loaded sources' rows)."""
    from perfwh.warehouse.load import WarehouseError, _set_loading, check_integrity

    con = duckdb.connect(str(plain_warehouse))
    try:
        first, second = (s for (s,) in con.execute(
            "SELECT source FROM raw_reports ORDER BY source LIMIT 2").fetchall())
        line, metric, printed = con.execute(
            "SELECT source_line, metric, printed_value FROM fact_metric_value WHERE source_file = ? "
            "ORDER BY source_line, metric LIMIT 1", [first]).fetchall()[0]
        _set_loading(con, [first, second])
        check_integrity(con)  # the warehouse as built: every number a fact
        con.execute("DELETE FROM fact_metric_value WHERE source_file = ? AND source_line = ? AND metric = ?",
                    [first, line, metric])
        with pytest.raises(WarehouseError) as lost:
            check_integrity(con)
        assert f"{first}:{line} {metric}={printed!r}" in str(lost.value)
        assert "values parsed but" in str(lost.value)
        _set_loading(con, [second])
        check_integrity(con)
    finally:
        con.close()
