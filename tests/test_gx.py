"""The rule files under Great Expectations give the same findings as run directly."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import duckdb
import pytest

from perfwh.quality.rules import load_rules, run_rules
from perfwh.quality.gx import findings_in_subprocess, without_leak_report

KEY = ("rule", "severity", "world", "row_id", "fact_id", "source", "source_line", "table_title",
       "metric", "printed_value", "message", "related_row_id")


@pytest.fixture(scope="module")
def private_copy(built_warehouse, tmp_path_factory):
    """GX opens the file read-write; the session fixture holds it read-only, so use a copy."""
    path = tmp_path_factory.mktemp("gx") / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, path)
    return path


def test_gx_and_duckdb_report_the_same_findings(private_copy, tmp_path):
    through_gx = findings_in_subprocess(private_copy, tmp_path / "gx")
    con = duckdb.connect(str(private_copy), read_only=True)
    direct = run_rules(con, load_rules())
    con.close()
    assert len(direct) > 100
    assert sorted(tuple(f[k] for k in KEY) for f in through_gx) == \
        sorted(tuple(f[k] for k in KEY) for f in direct)
    results = json.loads((tmp_path / "gx" / "validation_results.json").read_text())
    expectations = [e for run in results for v in run["validation_results"] for e in v["expectations"]]
    assert len(expectations) == len(load_rules())
    assert (tmp_path / "gx" / "data_docs" / "index.html").is_file()


def test_a_failed_gx_run_is_quoted_by_its_error_not_the_bindings_exit_report():
    """DuckDB's bindings report leaked objects as the child exits, after its traceback: a
    failed run's error must quote the traceback (a rule's braces that GX read as a placeholder
    were hidden behind two thousand characters of that report)."""
    error = ("perfwh.quality.rules.RuleError: rules/capacity_underused.sql under Great "
             "Expectations: `'replicas'` is not a placeholder this metric accepts")
    stderr = ("Traceback (most recent call last):\n  File \"gx.py\", line 90, in main\n" + error + "\n"
              + "nanobind: leaked 15 instances!\n"
              + "".join(f" - leaked instance 0x{i:x} of type \"_duckdb._sqltypes.DuckDBPyType\"\n"
                        for i in range(60))
              + "nanobind: leaked 6 types!\n - leaked type \"_duckdb.DuckDBPyConnection\"\n"
              + "nanobind: this is likely caused by a reference counting issue in the binding code.\n"
              + "See https://nanobind.readthedocs.io/en/latest/refleaks.html\n")
    quoted = without_leak_report(stderr)
    assert quoted.endswith(error)
    assert "leaked" not in quoted
    assert without_leak_report(error + "\n") == error  # no report: the text as it is


def test_without_the_persisted_connection_gx_loses_the_rows(private_copy):
    """Why perfwh.quality.gx registers duckdb as a persisted-connection dialect (GX #10738, #11579)."""
    script = f"""
from perfwh.quality.gx import hide_pyspark
hide_pyspark()
import great_expectations as gx
from great_expectations import expectations as gxe
from perfwh.quality.rules import load_rules
ctx = gx.get_context(mode="ephemeral")
src = ctx.data_sources.add_sql(name="w", connection_string="duckdb:///{private_copy}")
batch = src.add_table_asset(name="dq_claims", table_name="dq_claims").add_batch_definition_whole_table("a").get_batch()
rule = {{r.name: r for r in load_rules()}}["claim_vs_table"]
result = batch.validate(gxe.UnexpectedRowsExpectation(unexpected_rows_query=rule.sql), result_format="COMPLETE")
rows = (result.result.get("details") or {{}}).get("unexpected_rows") or []
print("ROWS", len(rows), "RAISED", bool(result.exception_info))
"""
    env = dict(os.environ, GX_ANALYTICS_ENABLED="false")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    line = next(l for l in done.stdout.splitlines() if l.startswith("ROWS"))
    assert line in ("ROWS 0 RAISED True", "ROWS 0 RAISED False"), done.stdout + done.stderr
