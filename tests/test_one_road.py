"""One road for every input: a submission is read by one reader, into the same layers, checked
by the same rules as the reports; `perfwh check` and `perfwh add` agree on every submission."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import duckdb
import pytest

from ingest import families
from ingest.submission import write_rows
from ingest.vocabulary import CONCURRENCY_KINDS, TEMPLATE_COLUMNS, TSHIRTS
from perfwh.stages.add import AddError, add
from perfwh.stages.check import SubmissionError, check, checked
from perfwh.warehouse.query import rows_as_template
from perfwh.warehouse.sources import load_manifest, sha256_of
from support.sandbox import private_layers
from support.resubmit import copy_refused

ISO = dict(product="IIB", product_version="10.0.0.2", platform="xLinux", server_cores="8",
           scenario="ISO 8583 Transformation", message_size_bytes="1384", persistent="false",
           concurrency_kind="flow_copies", concurrency="", replicas="", msg_rate="1362.3",
           cpu_busy_pct="94.0", cpu_ms_per_msg="5.5")


def write(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        write_rows(rows, handle)
    return path


def clean_rows(con, source: str) -> list[dict]:
    """The source's rows in the template, less those an error finding in the warehouse is
    about - its own line and the lines its message compares it with (the anomalies the README
    judges real: resubmitted, they are errors again)."""
    flagged = set()
    for line, message in con.sql("SELECT source_line, message FROM dq_findings "
                                 "WHERE severity = 'error' AND source = ?", params=[source]).fetchall():
        flagged.add(line)
        flagged.update(int(n) for n in re.findall(rf"{re.escape(source)}:(\d+)|line (\d+)", message)
                       for n in n if n)
    return [r for r in rows_as_template(con, source) if r["source_line"] not in flagged]


def sources_of(con) -> list[str]:
    return [s for (s,) in con.sql("SELECT source FROM dim_report ORDER BY source").fetchall()]


def test_every_family_is_registered():
    assert set(families.families()) >= {"wbimb", "iib10", "ace11", "ace13", "messagesight"}


def test_the_warehouses_own_rows_resubmitted_give_no_error(wh, built_warehouse, tmp_path):
    """Each report's measurements written in the template (T-shirt names, units as printed)
    and checked against the warehouse: no error, and the numbers land as the report's do."""
    for source in sources_of(wh):
        rows = clean_rows(wh, source)
        path = write(tmp_path / f"own-{source}.csv", rows)
        if copy_refused(path, built_warehouse, source):
            # every row the template carries, unchanged: a copy - refused, which says that each
            # row found its twin; the rules still find no error in them as a revision
            assert not check(path, warehouse=built_warehouse, revision_of=source).errors, source
            continue
        with checked(path, warehouse=built_warehouse) as (result, scratch):
            assert not result.errors, (source, result.errors[:3])
            same = scratch.sql("""
                SELECT count(*) FROM dq_input s JOIN dq_input w
                  ON w.source = ? AND s.product = w.product AND s.product_version = w.product_version
                 AND s.platform = w.platform AND s.scenario = w.scenario
                 AND s.message_size_bytes IS NOT DISTINCT FROM w.message_size_bytes
                 AND s.persistent IS NOT DISTINCT FROM w.persistent AND s.config_key = w.config_key
                 AND s.msg_rate IS NOT DISTINCT FROM w.msg_rate
                 AND s.cpu_ms_per_msg IS NOT DISTINCT FROM w.cpu_ms_per_msg
                WHERE s.source = ?""", params=[source, path.name]).fetchall()[0][0]
        assert same >= len(rows), source  # every row found its twin under the same keys


def test_tshirt_names_and_their_synonyms_read_as_the_report_does(wh, built_warehouse, tmp_path):
    rows = clean_rows(wh, "ace13-openshift-2025.txt")
    assert {r["concurrency"] for r in rows} == set(TSHIRTS)
    spellings = {t.name: (t.name, t.name.lower(), t.synonyms[-1].upper()) for t in TSHIRTS.values()}
    for n, row in enumerate(rows):
        row["concurrency"] = spellings[row["concurrency"]][n % 3]
    path = write(tmp_path / "ace13-tshirts.csv", rows)
    with checked(path, warehouse=built_warehouse) as (result, scratch):
        assert not result.errors, result.errors[:3]
        configs = scratch.sql("""SELECT DISTINCT tshirt, cpu_limit_cores, memory_limit_mib
                                 FROM metric_values WHERE source = ? ORDER BY 2""",
                              params=[path.name]).fetchall()
    assert configs == [(t.name, float(t.cpu_cores), int(t.memory_mib)) for t in TSHIRTS.values()]


def test_the_template_lists_every_kind_and_its_examples_check_clean_once_edited(built_warehouse, tmp_path):
    from ingest.submission import template_text

    text = template_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(TEMPLATE_COLUMNS)
    assert [r["concurrency_kind"] for r in rows] == list(CONCURRENCY_KINDS)
    edited = tmp_path / "edited.csv"
    with open(edited, "w", newline="", encoding="utf-8") as handle:
        write_rows([dict(r, platform="test rig" if r["platform"] == "lab box" else "OpenShift 4.16")
                    for r in rows], handle)
    assert check(edited, warehouse=built_warehouse).findings == []


def test_the_templates_examples_left_unchanged_are_errors_and_never_filed(built_warehouse, tmp_path):
    from ingest.submission import template_text

    path = tmp_path / "results.csv"
    text = template_text()
    path.write_text(text + "ACE,13.0.1.0,test rig,8,HTTP XMLNSC ESQL Transformation,2048,false,"
                           "docker_cores,2,,1234.5,,1.62\n", encoding="utf-8")
    result = check(path, warehouse=built_warehouse)
    examples = [f for f in result.findings if f["rule"] == "template_example"]
    assert [f["source_line"] for f in examples] == list(range(2, 2 + len(CONCURRENCY_KINDS)))
    assert all(f["severity"] == "error" and "example for concurrency_kind" in f["message"]
               for f in examples)
    assert "docker_cores" in examples[0]["message"]
    assert [f for f in result.findings if f["rule"] != "template_example"] == []
    with checked(path, warehouse=built_warehouse) as (_result, con):
        # only the edited row reaches the facts
        assert con.sql("SELECT DISTINCT platform FROM measurements WHERE source = ?",
                       params=[path.name]).fetchall() == [("test rig",)]


# -- check and add agree -------------------------------------------------------------------

def _row(**changes) -> dict:
    return dict(ISO, platform="corpus box", **changes)


# name -> (rows, the rule@metric of the errors check must report; None: readable and clean)
CORPUS = {
    "clean": ([_row()], set()),
    "tshirt-names": ([_row(concurrency_kind="tshirt", concurrency=name, replicas="1",
                           server_cores="", msg_rate=rate, cpu_busy_pct="", cpu_ms_per_msg=cost)
                      for name, rate, cost in (("Small", "800.5", "0.6"), ("m", "1600.25", "0.6"),
                                               ("LARGE", "3150.0", "0.62"))], set()),
    "unit-tokens": ([_row(msg_rate="1.3623K", cpu_busy_pct="94.0%", cpu_ms_per_msg="5.5 ms")], set()),
    "unknown-rate-unit": ([_row(msg_rate="1362.3 kbps")], {"unreadable_value@msg_rate"}),
    "unknown-cost-unit": ([_row(cpu_ms_per_msg="5.5 ns")], {"unreadable_value@cpu_ms_per_msg"}),
    "unknown-size-unit": ([_row(message_size_bytes="2k?")], {"unreadable_value@message_size_bytes"}),
    "unknown-persistence": ([_row(persistent="maybe")], {"unreadable_value@persistent"}),
    "unknown-kind": ([_row(concurrency_kind="threads", concurrency="4")],
                     {"unreadable_value@concurrency_kind"}),
    "unknown-tshirt": ([_row(concurrency_kind="tshirt", concurrency="XXL")],
                       {"unreadable_value@concurrency"}),
    "word-for-a-count": ([_row(concurrency_kind="flow_instances", concurrency="two")],
                         {"unreadable_value@concurrency"}),
    "blank-product": ([_row(product="")], {"missing_key@product"}),
    "blank-scenario": ([_row(scenario="")], {"missing_key@scenario"}),
    "no-numbers": ([_row(msg_rate="", cpu_busy_pct="", cpu_ms_per_msg="")], {"missing_key@None"}),
    "not-a-number": ([_row(msg_rate="fast")], {"unreadable_value@msg_rate"}),
    "nan": ([_row(msg_rate="NaN")], {"unreadable_value@msg_rate"}),
    "infinity": ([_row(msg_rate="inf")], {"unreadable_value@msg_rate"}),
    "overflow": ([_row(msg_rate="1e999")], {"unreadable_value@msg_rate"}),
    "negative-rate": ([_row(msg_rate="-5")], {"unreadable_value@msg_rate"}),
    "zero-rate": ([_row(msg_rate="0")], {"unreadable_value@msg_rate"}),
    "zero-size": ([_row(message_size_bytes="0")], {"unreadable_value@message_size_bytes"}),
    "negative-size": ([_row(message_size_bytes="-8192")], {"unreadable_value@message_size_bytes"}),
    "negative-cost": ([_row(cpu_ms_per_msg="-3")], {"unreadable_value@cpu_ms_per_msg"}),
    "cpu-over-100": ([_row(cpu_busy_pct="500")], {"unreadable_value@cpu_busy_pct"}),
    "rate-only-zero": ([_row(cpu_busy_pct="", cpu_ms_per_msg="", msg_rate="0")],
                       {"unreadable_value@msg_rate"}),
    "typo": ([_row(msg_rate="13662.3")], {"cpu_identity@msg_rate", "cpu_capacity@msg_rate"}),
}


@pytest.fixture
def sandbox(tmp_path, built_warehouse) -> dict:
    return private_layers(tmp_path, built_warehouse)


def _state(box: dict) -> tuple:
    files = sorted((str(p.relative_to(box["raw"])), sha256_of(p)) for p in box["raw"].rglob("*")
                   if p.is_file())
    return files, sha256_of(box["db"])


@pytest.mark.parametrize("case", sorted(CORPUS))
def test_check_and_add_agree(case, sandbox, tmp_path):
    rows, expected = CORPUS[case]
    path = write(tmp_path / f"{case}.csv", rows)
    result = check(path, warehouse=sandbox["db"], sources_file=sandbox["sources"])
    errors = {f"{f['rule']}@{f['metric']}" for f in result.errors}
    assert errors == expected, [f["message"] for f in result.errors]
    for f in result.errors:
        if f["rule"] == "unreadable_value":  # the column, the value and what is allowed
            assert f["metric"] in f["message"] and "expected" in f["message"]
    before = _state(sandbox)
    if expected:
        with pytest.raises(AddError, match="refused"):
            add(path, {}, warehouse=sandbox["db"], sources_file=sandbox["sources"])
        assert _state(sandbox) == before
    else:
        add(path, {}, warehouse=sandbox["db"], sources_file=sandbox["sources"])
        con = duckdb.connect(str(sandbox["db"]), read_only=True)
        filed = con.sql("SELECT count(*) FROM measurements WHERE source = ?",
                        params=[path.name]).fetchall()[0][0]
        con.close()
        assert filed == len(rows)
        assert path.name in [s.file for s in load_manifest(sandbox["sources"])]



def test_a_submitted_test_takes_what_the_reports_agree_it_is(sandbox, tmp_path):
    """A submission names its tests; the transport, domain and flow style come from the reports
    that ran a test of that name, where they all say the same."""
    path = write(tmp_path / "described.csv", [
        _row(),
        _row(scenario="HTTP XMLNSC ESQL Transformation", message_size_bytes="2048"),
        _row(scenario="Aggregation", message_size_bytes="4096"),  # WBIMB 5 and IIB 10 differ
        _row(scenario="My own flow", message_size_bytes="8192")])
    add(path, {}, warehouse=sandbox["db"], sources_file=sandbox["sources"])
    con = duckdb.connect(str(sandbox["db"]), read_only=True)
    try:
        described = con.sql("""
            SELECT scenario, transport, message_domain, flow_style, description
            FROM dim_scenario JOIN dim_report USING (report_id) WHERE source = ?
            ORDER BY scenario""", params=[path.name]).fetchall()
        reported = con.sql("SELECT DISTINCT transport, message_domain, flow_style FROM dim_scenario "
                           "WHERE scenario = 'Aggregation' AND description <> 'Submitted results' "
                           "ORDER BY ALL").fetchall()
    finally:
        con.close()
    assert described == [
        ("Aggregation", "MQ", None, None, "Submitted results"),
        ("HTTP XMLNSC ESQL Transformation", "HTTP", "XMLNSC", "Toolkit message flow", "Submitted results"),
        ("ISO 8583 Transformation", "TCP/IP", "DFDL (ISO 8583)", "Toolkit message flow", "Submitted results"),
        ("My own flow", None, None, None, "Submitted results")]
    assert reported == [("MQ", "Generic XML", "Aggregate nodes"), ("MQ", None, "Toolkit message flow")]

def test_unknown_vocabulary_names_column_value_and_allowed_values(built_warehouse, tmp_path):
    path = write(tmp_path / "vocab.csv", [_row(concurrency_kind="tshirt", concurrency="XXL"),
                                          _row(persistent="maybe")])
    messages = [f["message"] for f in check(path, warehouse=built_warehouse).errors]
    assert any("XXL" in m and "concurrency" in m and "Small" in m and "Medium" in m for m in messages)
    assert any("maybe" in m and "persistent" in m and "true" in m and "false" in m for m in messages)


def test_unreadable_files_are_refused_alike(sandbox, tmp_path):
    cases = {"directory": tmp_path / "a-folder", "missing": tmp_path / "nope.csv"}
    cases["directory"].mkdir()
    notes = tmp_path / "notes.txt"
    notes.write_text("Just some notes\nwith no tables\n")
    cases["notes"] = notes
    header = tmp_path / "header.csv"
    header.write_text("foo,bar\n1,2\n")
    cases["header"] = header
    for name, path in cases.items():
        with pytest.raises(SubmissionError) as checked:
            check(path, warehouse=sandbox["db"], sources_file=sandbox["sources"])
        with pytest.raises(AddError) as added:
            add(path, {}, warehouse=sandbox["db"], sources_file=sandbox["sources"])
        assert checked.value.status == added.value.status == 2, name


def test_readme_documents_the_template_from_its_one_definition():
    from ingest.vocabulary import template_markdown
    from perfwh.core.paths import PROJECT_ROOT

    assert template_markdown() in (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
