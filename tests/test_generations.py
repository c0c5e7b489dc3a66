"""The pairing of tests across generations (perfwh/publish/generations.yml) against the real
reports: every test it names exists with CPU costs in its generation's series, every test whose
name recurs in another report is paired with its twin or set apart with a reason, and a mapping
that breaks either rule says so. The page built from it is checked in test_site.py, its charts
in test_site_browser.py, the notebook in test_notebooks.py."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from perfwh.publish import generations as gen

WB, IIB, ACE11, ACE13 = ("wbimb5-aix-2004.txt", "iib10-xlinux.txt", "ace11-vs-iib10-docker-2019.txt",
                         "ace13-openshift-2025.txt")


def test_the_mapping_holds_against_the_warehouse(wh):
    mapping = gen.load()
    assert gen.problems(wh, mapping) == []
    # every entry has its one reason, and every mapped test bed is in the warehouse
    assert all(t.reason for t in mapping.tests()) and all(b.reason for b in mapping.test_beds.values())
    assert [g["source"] for g in gen.generations(wh, mapping)] == [WB, IIB, ACE11, ACE13]  # oldest first


def test_the_generations_are_named_from_the_warehouse_with_their_hardware(wh):
    found = {g["source"]: g for g in gen.generations(wh, gen.load())}
    assert [g["label"] for g in found.values()] == ["WBIMB 5 (2004)", "IIB 10 (2015)", "ACE 11 (2019)",
                                                    "ACE 13 (2025)"]
    assert [(h["platform"], h["cores"]) for h in found[WB]["hardware"]] == [("AIX", 8)]
    # ACE 11's series is its Linux container limited to one core, not the Windows one
    assert [h["platform"] for h in found[ACE11]["hardware"]] == ["Linux"] and found[ACE11]["cpu_limit_cores"] == 1
    assert found[ACE13]["cpu_limit_cores"] == 1  # the Medium T-shirt


def test_the_points_are_the_printed_costs_of_one_series_per_test(wh):
    """The ACE 13 aggregation line: the Medium T-shirt's four sizes, as printed on their lines."""
    points = [p for p in gen.points(wh, gen.load()) if p["source"] == ACE13 and p["scenario"] == "MQ Aggregation"]
    assert len(points) == 4 and len({p["size"] for p in points}) == 4
    for p in points:
        printed = wh.sql("SELECT printed_value FROM metric_values WHERE source = ? AND source_line = ? "
                         "AND metric = 'cpu_ms_per_msg' AND tshirt = 'Medium'",
                         params=[p["source"], p["source_line"]]).fetchall()
        assert printed == [(p["cost_printed"],)]
    # IIB 10's is the non-persistent half of its table: six sizes from 256b to 20000kB
    iib = [p for p in gen.points(wh, gen.load()) if p["source"] == IIB and p["scenario"] == "Aggregation"]
    assert [p["size_printed"] for p in iib] == ["256b", "2kB", "20kB", "200kB", "2000kB", "20000kB"]
    assert [p["cost_printed"] for p in iib] == ["6.6", "6.9", "9.9", "41.8", "407.7", "8125.0"]


def test_a_revised_report_stands_for_its_generation_and_its_lines_are_found(built_warehouse, tmp_path):
    """A further edition of the IIB report filed with --revision-of retires the report it
    revises: the mapping names the report, and its current edition stands for IIB 10 with the
    same tests (the page and notebook 06 dropped IIB 10); the edition's lines are read where
    the raw layer keeps it, under submissions/ (notebook 01 looked under reports/ and failed
    `make`)."""
    import shutil
    import subprocess
    import sys

    import duckdb

    from perfwh.core.paths import RAW_DIR
    from perfwh.warehouse.sources import raw_line

    raw = tmp_path / "raw"
    shutil.copytree(RAW_DIR, raw)
    db = tmp_path / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    text = (RAW_DIR / "reports" / IIB).read_text(encoding="utf-8")
    edition = tmp_path / "iib10-xlinux-v2.txt"
    edition.write_text(text.replace("1384B 1362.3 94.0 5.5", "1384B 1362.3 94.0 5.6"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "perfwh.cli", "add", str(edition), "--revision-of", IIB,
                           "--waive", "cpu_identity@*", "--reason", "a test's edition", "--db", str(db),
                           "--sources", str(raw / "sources.yml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        mapping = gen.current_editions(con, gen.load())
        assert [g["source"] for g in gen.generations(con, mapping)] == [WB, edition.name, ACE11, ACE13]
        mapped = {t.scenario for t in mapping.tests() if t.source == edition.name}
        assert mapped == {t.scenario for t in gen.load().tests() if t.source == IIB} and mapped
        assert {p["scenario"] for p in gen.points(con, mapping) if p["source"] == edition.name} == mapped
        assert gen.problems(con, mapping) == []
    finally:
        con.close()
    assert raw_line(raw, edition.name, 136) == "1384B 1362.3 94.0 5.6"
    assert (raw / "submissions" / edition.name).is_file()


def test_tests_that_recur_by_name_are_found_in_the_reports(wh):
    """The recurrences the check guards against, read from the scenario names themselves."""
    found = {frozenset(pair) for pair in gen.recurrences(wh)}
    assert frozenset({(WB, "Aggregation"), (IIB, "Aggregation")}) in found
    assert frozenset({(IIB, "Aggregation"), (ACE13, "MQ Aggregation")}) in found
    assert frozenset({(ACE11, "HTTP XMLNSC ESQL Transformation"), (ACE13, "HTTP XMLNSC ESQL Transformation")}) in found
    assert frozenset({(IIB, "ISO 8583 Transformation"), (ACE13, "TCPIP ISO8583 XML Transformation")}) in found
    # names that share a word but not their work are not recurrences
    assert not any({s for _src, s in pair} == {"SOAP Echo", "SOAP Provider"} for pair in found)
    assert gen.work_words("TCPIP ISO8583 XML Transformation") == {"iso", "8583", "xml", "transformation"}


def _edited(tmp_path: Path, change) -> gen.Mapping:
    data = yaml.safe_load(gen.MAPPING.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "generations.yml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return gen.load(path)


def test_an_unmapped_recurrence_is_found(wh, tmp_path):
    mapping = _edited(tmp_path, lambda d: d.pop("apart"))
    [problem] = gen.problems(wh, mapping)
    assert "'ISO 8583 Transformation'" in problem and "'TCPIP ISO8583 XML Transformation'" in problem
    assert "pair them in a comparison or set them apart" in problem

    def split_aggregation(d):  # ACE 13's aggregation moved out of the comparison of its twins
        comparison = next(c for c in d["comparisons"] if c["name"] == "MQ aggregation")
        ace13 = next(t for t in comparison["tests"] if t["source"] == ACE13)
        comparison["tests"].remove(ace13)
        d["comparisons"].append({"name": "ACE 13 aggregation alone", "work": "x",
                                 "tests": [ace13, {"source": WB, "scenario": "Filter", "reason": "r"}]})

    problems = gen.problems(wh, _edited(tmp_path, split_aggregation))
    assert len(problems) == 2 and all("'MQ Aggregation'" in p and "recur under one name" in p for p in problems)


def test_a_mapped_test_the_warehouse_lacks_is_found(wh, tmp_path):
    def rename(d):
        d["comparisons"][0]["tests"][0]["scenario"] = "Aggregation Nodes"
        d["test_beds"][1]["series"]["product"] = "ACE"  # IIB 10's report measured no ACE
        d["caveats"][0]["lines"] = [32, 99999]

    problems = gen.problems(wh, _edited(tmp_path, rename))
    assert f"MQ aggregation: {WB} has no scenario 'Aggregation Nodes'" in problems
    assert any(f"{IIB} 'Aggregation' has no CPU cost in its test bed's series" in p for p in problems)
    assert any(p.startswith(f"caveat of {ACE13}: lines [32, 99999]") for p in problems)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["comparisons"][0]["tests"][0].pop("reason"), "comparison 'MQ aggregation', test 1: expected a non-empty 'reason'"),
    (lambda d: d["test_beds"][0]["series"].update({"scenario": "x"}), "test bed 1 (wbimb5-aix-2004.txt): 'series' must select by"),
    (lambda d: d["test_beds"][1]["series"].update({"persistent": "maybe"}), "series persistent: 'maybe' is not a true/false"),
    (lambda d: d["test_beds"].pop(0), "comparison 'MQ aggregation': wbimb5-aix-2004.txt has no test bed"),
    (lambda d: d["comparisons"][1]["tests"].pop(0), "comparison 'MQ coordinated request/reply': a comparison needs tests of two reports"),
])
def test_a_mapping_of_the_wrong_shape_is_a_one_line_error(tmp_path, change, message):
    with pytest.raises(gen.MappingError) as err:
        _edited(tmp_path, change)
    assert str(err.value).startswith(str(tmp_path / "generations.yml")) and message in str(err.value)
    assert "\n" not in str(err.value)
