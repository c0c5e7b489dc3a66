"""A sixth report family takes four files: its raw report, its sources.yml entry, its parser
module and this expected-values test. The "toy" family lives only under tests/fixtures/toy/."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest import families

TOY = Path(__file__).parent / "fixtures" / "toy"

EXPECTED = {  # (line, metric) -> printed value: every number of the report
    (9, "msg_rate"): "2000.0", (9, "cpu_busy_pct"): "50.0", (9, "cpu_ms_per_msg"): "1.00",
    (10, "msg_rate"): "1600.0", (10, "cpu_busy_pct"): "60.0", (10, "cpu_ms_per_msg"): "1.50",
    (11, "msg_rate"): "400.0", (11, "cpu_busy_pct"): "80.0", (11, "cpu_ms_per_msg"): "8.00",
    (15, "msg_rate"): "1500.0", (15, "cpu_busy_pct"): "75.0", (15, "cpu_ms_per_msg"): "2.00",
    (16, "msg_rate"): "1200.0", (16, "cpu_busy_pct"): "90.0", (16, "cpu_ms_per_msg"): "3.00",
}


@pytest.fixture(scope="module")
def toy_warehouse(tmp_path_factory):
    from fixtures.toy import toy_family
    from perfwh.stages.build import build

    families.register(toy_family)
    try:
        out = tmp_path_factory.mktemp("toy") / "warehouse.duckdb"
        build(out=out, raw_dir=TOY, sources_file=TOY / "sources.yml", rules="duckdb",
              progress=False)
    finally:
        families.unregister("toy")
    return out


def test_every_number_of_the_toy_report_lands_with_its_line(toy_warehouse):
    con = duckdb.connect(str(toy_warehouse), read_only=True)
    rows = con.sql("""SELECT source_line, metric, printed_value, value, message_size_bytes,
                             product, platform, server_cores, report_title
                      FROM metric_values ORDER BY source_line, metric""").fetchall()
    findings = con.sql("SELECT rule, message FROM dq_findings WHERE severity = 'error'").fetchall()
    con.close()
    assert {(r[0], r[1]): r[2] for r in rows} == EXPECTED
    assert {(r[5], r[6], r[7], r[8]) for r in rows} == {
        ("TOY", "test box", 4, "Toy Broker 1.0 Performance Report")}
    assert {r[4] for r in rows} == {1024, 10240, 102400}
    assert findings == []  # the numbers hold together: 4 cores x 10 x %CPU / rate = cost


def test_the_registry_finds_the_package_families_without_a_list():
    assert {"wbimb", "iib10", "ace11", "ace13", "messagesight"} <= set(families.families())
    assert "toy" not in families.families()  # registered only by the fixture, and removed


def test_the_first_report_of_a_family_is_checked_with_its_facts_on_the_command_line(
        built_warehouse, capsys):
    """No edition of the toy family is filed beside the five reports: the check names the keys
    whose facts it needs, and with them given (--product, --platform) reads the report by them -
    the 4 cores given make every row exact, 8 would break the CPU identity of every row."""
    from fixtures.toy import toy_family
    from perfwh.cli import main

    report = str(TOY / "toy-broker-2026.txt")
    families.register(toy_family)
    try:
        def checked(*facts: str) -> tuple[int, str]:
            status = main(["check", report, "--db", str(built_warehouse), *facts])
            return status, capsys.readouterr().err

        status, said = checked()
        assert status == 2 and "give --product toy1=NAME:VERSION --platform box=LABEL[:CORES]" in said
        status, said = checked("--product", "TOY:1.0")
        assert status == 2 and "give --platform box=LABEL[:CORES]" in said
        status, said = checked("--product", "toy9=TOY:1.0", "--platform", "test box:4")
        assert status == 2 and "names no product 'toy9' (its products: toy1)" in said
        status, said = checked("--product", "TOY:1.0", "--platform", "box=test box:4")
        assert (status, said.splitlines()[-1]) == (0, "perfwh check: 5 rows, 0 errors, 0 warnings")
        status, said = checked("--product", "TOY:1.0", "--platform", "test box:8")
        assert (status, said.splitlines()[-1]) == (1, "perfwh check: 5 rows, 5 errors, 0 warnings")
    finally:
        families.unregister("toy")
