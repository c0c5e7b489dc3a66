"""The analyst contract: the two views, the data dictionary, the Parquet export and `perfwh sql`.

Other tools and people depend on these names exactly (DEVELOPING.md, "The warehouse contract").
The CLI is run as a user runs it: the venv's `perfwh` in a subprocess, with `--db`.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from perfwh.core.paths import PROJECT_ROOT
from perfwh.warehouse.sources import sha256_of
from support.expected import measurements, total_values

PERFWH = Path(sys.executable).with_name("perfwh")
if not PERFWH.exists():  # pytest run by another interpreter than the venv's
    PERFWH = PROJECT_ROOT / ".venv" / "bin" / "perfwh"

METRIC_VALUES_COLUMNS = (
    "source", "source_line", "page", "product", "product_version", "platform", "scenario",
    "message_size_bytes", "persistent", "concurrency_kind", "concurrency", "replicas", "tshirt",
    "cpu_limit_cores", "component", "metric", "unit", "value", "printed_value", "value_half_ulp")
MEASUREMENTS_COLUMNS = (
    "source", "source_line", "page", "product", "product_version", "platform", "scenario",
    "message_size_bytes", "persistent", "concurrency_kind", "concurrency", "replicas", "tshirt",
    "cpu_limit_cores", "msg_rate", "cpu_busy_pct", "cpu_ms_per_msg", "msg_rate_printed",
    "cpu_busy_pct_printed", "cpu_ms_per_msg_printed")
# Metric names and canonical units the contract fixes.
CONTRACT_METRICS = {"msg_rate": "msgs/s", "cpu_busy_pct": "%", "cpu_ms_per_msg": "ms",
                    "startup_s": "s"}
ACE11 = "ace11-vs-iib10-docker-2019.txt"
WB = "wbimb5-aix-2004.txt"


def perfwh(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(PERFWH), *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def sql(db: Path, query: str, *flags: str) -> subprocess.CompletedProcess:
    return perfwh("sql", "--db", db, *flags, query)


def columns_of(wh, relation: str) -> list[str]:
    return [r[0] for r in wh.sql(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = $t ORDER BY column_index",
        params={"t": relation}).fetchall()]


# ---------------------------------------------------------------------------- the views

def test_metric_values_has_the_contract_columns(wh):
    assert wh.sql("SELECT count(*) FROM duckdb_views() WHERE view_name = 'metric_values'"
                  ).fetchall() == [(1,)]
    missing = set(METRIC_VALUES_COLUMNS) - set(columns_of(wh, "metric_values"))
    assert not missing


def test_measurements_has_the_contract_columns(wh):
    assert wh.sql("SELECT count(*) FROM duckdb_views() WHERE view_name = 'measurements'"
                  ).fetchall() == [(1,)]
    missing = set(MEASUREMENTS_COLUMNS) - set(columns_of(wh, "measurements"))
    assert not missing


def test_metric_values_is_one_row_per_number(wh):
    assert wh.sql("SELECT count(*), count(DISTINCT fact_id) FROM metric_values").fetchall() \
        == [(total_values(), total_values())]
    # every number keeps its file, line and printed cell
    assert wh.sql("SELECT count(*) FROM metric_values WHERE source IS NULL OR source_line IS NULL "
                  "OR printed_value IS NULL OR value IS NULL OR unit IS NULL").fetchall() == [(0,)]


def test_contract_metric_names_and_units(wh):
    units = dict(wh.sql("SELECT DISTINCT metric, unit FROM metric_values").fetchall())
    for metric, unit in CONTRACT_METRICS.items():
        assert units[metric] == unit
    # other metrics are named from the one metric table
    from ingest.units import METRICS
    assert set(units) <= set(METRICS)
    for metric in ("latency_avg_us", "connections", "connection_burst_s", "ingress_msg_rate",
                   "egress_msg_rate", "msgs_per_watt", "msgs_per_s_per_rack_unit",
                   "supply_voltage_v", "mapping_overhead_pct"):
        assert metric in units


def test_measurements_one_row_per_table_row_and_product(wh):
    """ACE 11 Linux HTTP BLOB Echo, 2k, 1 core (line 183): one row for IIB, one for ACE."""
    rows = wh.sql("""
        SELECT product, product_version, msg_rate, msg_rate_printed, cpu_ms_per_msg,
               cpu_ms_per_msg_printed, cpu_busy_pct, message_size_bytes, concurrency
        FROM measurements WHERE source = $s AND source_line = 183 ORDER BY product""",
                  params={"s": ACE11}).fetchall()
    assert rows == [
        ("ACE", "11.0.0.4", 2761.2, "2761.20/s", 0.36313, "363.13 μs", None, 2048, 1.0),
        ("IIB", "10.0.0.16", 1998.06, "1998.06/s", 0.47671, "476.71 μs", None, 2048, 1.0)]


def test_measurements_pivot_the_three_metrics(wh):
    """WBIMB 10.1, line 907: "no 1024 2601.00 34.00 1.05"."""
    rows = wh.sql("""
        SELECT msg_rate, cpu_busy_pct, cpu_ms_per_msg, msg_rate_printed, cpu_busy_pct_printed,
               cpu_ms_per_msg_printed, persistent, message_size_bytes
        FROM measurements WHERE source = $s AND source_line = 907""", params={"s": WB}).fetchall()
    assert rows == [(2601.0, 34.0, 1.05, "2601.00", "34.00", "1.05", False, 1024)]


def test_measurements_counts(wh):
    """One row per table row and product (or column group: an appliance and its deployment), and
    per scenario and persistence half where one printed row holds several (WBIMB Tables 1 and 2,
    the IIB halves), as each family's expected values count them in its reports."""
    got = dict(wh.sql("SELECT source, count(*) FROM measurements GROUP BY 1").fetchall())
    assert got == measurements()
    total = sum(measurements().values())
    # no row lost or split: the grouping keys are exactly row, product, scenario, half and the
    # column group's deployment
    assert wh.sql("""SELECT count(*) FROM (SELECT DISTINCT source, source_line, product, platform,
                      scenario, persistent, topology, simulated_latency_ms FROM metric_values
                      WHERE metric IN ('msg_rate', 'cpu_busy_pct', 'cpu_ms_per_msg'))""").fetchall() \
        == [(total,)]
    assert wh.sql("SELECT count(*), count(DISTINCT measurement_id) FROM measurements").fetchall() \
        == [(total, total)]


def test_measurement_values_equal_their_facts(wh):
    """Every pivoted value is the value of the fact it names."""
    bad = wh.sql("""
        SELECT m.measurement_id FROM measurements m
        JOIN metric_values f ON f.fact_id IN (m.msg_rate_fact_id, m.cpu_busy_pct_fact_id,
                                              m.cpu_ms_per_msg_fact_id)
        WHERE f.value IS DISTINCT FROM CASE f.metric WHEN 'msg_rate' THEN m.msg_rate
                                       WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct
                                       ELSE m.cpu_ms_per_msg END""").fetchall()
    assert bad == []


# ---------------------------------------------------------------------- the dictionary

def test_every_table_and_view_has_a_comment(wh):
    tables = wh.sql("SELECT table_name, comment FROM duckdb_tables() WHERE NOT internal "
                    "AND database_name = current_database()").fetchall()
    views = wh.sql("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal "
                   "AND database_name = current_database()").fetchall()
    assert len(tables) >= 20 and len(views) >= 2
    assert {"metric_values", "measurements"} <= {v for v, _ in views}
    empty = [name for name, comment in tables + views if not (comment or "").strip()]
    assert empty == []


def test_every_column_has_a_comment(wh):
    rows = wh.sql("SELECT table_name, column_name, comment FROM duckdb_columns() "
                  "WHERE NOT internal AND database_name = current_database()").fetchall()
    assert len(rows) > 300
    empty = [f"{t}.{c}" for t, c, comment in rows if not (comment or "").strip()]
    assert empty == []
    comments = {(t, c): comment for t, c, comment in rows}
    assert "1024" in comments[("metric_values", "message_size_bytes")] or \
        "byte" in comments[("metric_values", "message_size_bytes")].lower()


# ------------------------------------------------------------------------- Parquet

def test_the_lake_holds_every_table_and_the_two_views(built_warehouse, wh):
    """The Parquet export is the lake (data/curated/lake): one relation per table and per
    contract view, with the warehouse's rows, columns and printed numbers."""
    from perfwh.warehouse.lake import duckdb_scan, read_manifest

    lake = built_warehouse.parent / "lake"
    tables = {r[0] for r in wh.sql("SELECT table_name FROM duckdb_tables() WHERE NOT internal "
                                   "AND database_name = current_database()").fetchall()}
    relations = read_manifest(lake)["relations"]
    assert set(relations) == tables | {"metric_values", "measurements"}
    assert not (built_warehouse.parent / "parquet").exists()  # the flat export is retired
    reader = duckdb.connect()
    try:
        for name in sorted(relations):
            [(lake_rows,)] = reader.sql(f"SELECT count(*) FROM {duckdb_scan(lake, name)}").fetchall()
            [(db_rows,)] = wh.sql(f'SELECT count(*) FROM "{name}"').fetchall()
            assert lake_rows == db_rows, name
        columns = [c["name"] for c in relations["metric_values"]["columns"]]
        assert columns == columns_of(wh, "metric_values")
        sample = reader.sql(f"SELECT printed_value, value FROM {duckdb_scan(lake, 'metric_values')} "
                            "WHERE source = $s AND source_line = 183 AND product = 'IIB' "
                            "ORDER BY metric", params={"s": ACE11}).fetchall()
        assert sample == [("476.71 μs", 0.47671), ("1998.06/s", 1998.06)]
    finally:
        reader.close()


# ------------------------------------------------------------------------ perfwh sql

def test_sql_prints_a_table(built_warehouse):
    result = sql(built_warehouse, "SELECT product, printed_value, value FROM metric_values "
                 f"WHERE source = '{ACE11}' AND source_line = 183 ORDER BY product DESC, metric DESC")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split("|")[0].strip() == "product"
    assert [c.strip() for c in lines[0].split("|")] == ["product", "printed_value", "value"]
    assert set(lines[1]) <= {"-", "+"}
    assert [c.strip() for c in lines[2].split("|")] == ["IIB", "1998.06/s", "1998.06"]
    assert [c.strip() for c in lines[3].split("|")] == ["IIB", "476.71 μs", "0.47671"]
    assert lines[-1] == "(4 rows)"


def test_sql_csv(built_warehouse):
    result = sql(built_warehouse, "SELECT source_line, product, msg_rate, cpu_busy_pct FROM "
                 f"measurements WHERE source = '{ACE11}' AND source_line = 183 ORDER BY product",
                 "--csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows == [["source_line", "product", "msg_rate", "cpu_busy_pct"],
                    ["183", "ACE", "2761.2", ""], ["183", "IIB", "1998.06", ""]]


def test_sql_json(built_warehouse):
    result = sql(built_warehouse, "SELECT source, source_line, product, msg_rate, persistent, "
                 "observed_at FROM measurements m LEFT JOIN (SELECT NULL::TIMESTAMP observed_at) "
                 f"ON TRUE WHERE source = '{ACE11}' AND source_line = 183 ORDER BY product",
                 "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, list) and all(isinstance(r, dict) for r in data)
    assert data == [
        {"source": ACE11, "source_line": 183, "product": "ACE", "msg_rate": 2761.2,
         "persistent": False, "observed_at": None},
        {"source": ACE11, "source_line": 183, "product": "IIB", "msg_rate": 1998.06,
         "persistent": False, "observed_at": None}]
    timestamps = sql(built_warehouse, "SELECT observed_at, value FROM metric_values WHERE "
                     "source_line = 550 AND metric = 'load_w'", "--json")
    assert json.loads(timestamps.stdout) == [{"observed_at": "2013-04-26T10:04:05", "value": 135.0}]
    empty = sql(built_warehouse, "SELECT * FROM metric_values WHERE false", "--json")
    assert empty.returncode == 0 and json.loads(empty.stdout) == []


@pytest.mark.parametrize("statement", [
    "CREATE TABLE x (a INTEGER)",
    "INSERT INTO dim_report (report_id) VALUES (99)",
    "UPDATE dim_report SET title = 'x'",
    "DELETE FROM fact_metric_value",
    "DROP VIEW measurements",
    "COPY dim_report TO '{tmp}/out.csv'",
    "COPY (SELECT 1) TO '{tmp}/out.parquet' (FORMAT parquet)",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SET enable_external_access = true",
])
def test_sql_is_read_only(built_warehouse, tmp_path, statement):
    before = sha256_of(built_warehouse)
    result = sql(built_warehouse, statement.format(tmp=tmp_path))
    assert result.returncode != 0
    assert result.stdout == ""
    assert result.stderr.startswith("perfwh sql: error: ")
    assert len(result.stderr.strip()) > len("perfwh sql: error: ") + 10
    assert sha256_of(built_warehouse) == before
    assert list(tmp_path.iterdir()) == []  # nothing written or attached


def test_sql_error_is_clear(built_warehouse):
    result = sql(built_warehouse, "SELECT no_such_column FROM metric_values")
    assert result.returncode != 0
    assert result.stdout == ""
    assert "perfwh sql: error:" in result.stderr and "no_such_column" in result.stderr
    assert "Traceback" not in result.stderr
    syntax = sql(built_warehouse, "SELEC 1")
    assert syntax.returncode != 0 and "syntax error" in syntax.stderr.lower()
    assert "Traceback" not in syntax.stderr


def test_sql_missing_warehouse(tmp_path):
    missing = tmp_path / "nowhere" / "warehouse.duckdb"
    result = sql(missing, "SELECT 1")
    assert result.returncode != 0
    assert str(missing) in result.stderr and "no warehouse" in result.stderr
    assert "perfwh build" in result.stderr
    assert "Traceback" not in result.stderr
    assert not missing.exists() and not missing.parent.exists()  # nothing created


def test_readme_contents_is_the_generated_one(wh):
    """The README's "Contents of the warehouse" is `perfwh contents --markdown` for the reports of
    data/raw/sources.yml: a report filed, a table or number added, a rule changed - the counts
    come from the warehouse, never typed in."""
    from perfwh.warehouse.query import contents_markdown
    from perfwh.warehouse.sources import load_manifest

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    published = [s.file for s in load_manifest(PROJECT_ROOT / "data" / "raw" / "sources.yml")]
    assert contents_markdown(wh, published) in readme
