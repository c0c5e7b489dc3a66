"""A new report family takes four files: its raw report, its sources.yml entry, its parser module
and its expected values. The "toy" family lives only under tests/fixtures/toy/, as those four
files; here it is built on its own, shown to be four files that nothing else names, and the
tests that count over the reports are run with it added (`make test-family` runs every test so).
"""
from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
import yaml

from ingest import families
from perfwh.core.paths import PROJECT_ROOT
from support import extra

TOY = Path(__file__).parent / "fixtures" / "toy"
# What may name the toy family outside its own folder: this test, and the documentation and
# Makefile target that say how to run the suite with it.
MAY_NAME_IT = {"tests/test_fixture_family.py", "DEVELOPING.md", "README.md", "Makefile"}


def _expected():
    from fixtures.toy import expected_values

    return expected_values


@contextmanager
def toy_registered():
    """The toy family registered for a while (left as it is in a run that has it throughout)."""
    from fixtures.toy import toy_family

    if "toy" in families.families():
        yield
        return
    families.register(toy_family)
    try:
        yield
    finally:
        families.unregister("toy")


@pytest.fixture(scope="module")
def toy_warehouse(tmp_path_factory):
    from perfwh.stages.build import build

    with toy_registered():
        out = tmp_path_factory.mktemp("toy") / "warehouse.duckdb"
        build(out=out, raw_dir=TOY, sources_file=TOY / "sources.yml", rules="duckdb",
              progress=False)
    return out


def test_every_number_of_the_toy_report_lands_with_its_line(toy_warehouse):
    con = duckdb.connect(str(toy_warehouse), read_only=True)
    rows = con.sql("""SELECT source_line, metric, printed_value, value, message_size_bytes,
                             product, platform, server_cores, report_title
                      FROM metric_values ORDER BY source_line, metric""").fetchall()
    findings = con.sql("SELECT rule, message FROM dq_findings WHERE severity = 'error'").fetchall()
    con.close()
    assert {(r[0], r[1]): r[2] for r in rows} == _expected().SOURCES["toy-broker-2026.txt"]["numbers"]
    assert {(r[5], r[6], r[7], r[8]) for r in rows} == {
        ("TOY", "test box", 4, "Toy Broker 1.0 Performance Report")}
    assert {r[4] for r in rows} == {1024, 10240, 102400}
    assert findings == []  # the numbers hold together: 4 cores x 10 x %CPU / rate = cost


def test_the_toy_family_is_four_files_that_nothing_else_names():
    """Its raw report, its sources.yml entry, its parser, its expected values - and no other
    file of the project (code, schema, rules, data, site, notebooks, other tests) names it."""
    files = sorted(p.name for p in TOY.iterdir() if p.is_file() and not p.name.startswith("."))
    entries = yaml.safe_load((TOY / "sources.yml").read_text(encoding="utf-8"))["reports"]
    parsers = [name for name in files if name.endswith(".py") and name != extra.EXPECTED]
    assert len(files) == 4
    assert sorted([e["file"] for e in entries] + ["sources.yml", extra.EXPECTED] + parsers) == files
    assert len(parsers) == 1 and len(entries) == 1
    naming = [str(path.relative_to(PROJECT_ROOT)) for path in _project_files()
              if TOY not in path.parents and str(path.relative_to(PROJECT_ROOT)) not in MAY_NAME_IT
              and any(word in path.read_bytes()
                      for word in (b"toy-broker-2026", b"Toy Broker", b'FAMILY = "toy"'))]
    assert naming == []


def _generated(path: Path) -> bool:
    """A page or menu the site's pre-render step writes from a warehouse (ignored by git):
    output, which names whatever family the last site was built with."""
    return path.parent == PROJECT_ROOT / "site" and (
        fnmatch.fnmatch(path.name, "report-*.qmd") or path.name == "_reports.yml")


def _project_files() -> list[Path]:
    """The project's own files: code, schema, rules, data, site, notebooks, bench and tests (no
    build output, virtual environment or caches)."""
    out = []
    for folder in ("ingest", "perfwh", "models", "schema", "rules", "data/raw", "site", "notebooks",
                   "bench", "tests"):
        for path in (PROJECT_ROOT / folder).rglob("*"):
            parts = set(path.relative_to(PROJECT_ROOT).parts)
            if path.is_file() and not parts & {"__pycache__", "_site", "node_modules", "vendor"} \
                    and not _generated(path):
                out.append(path)
    return out


def test_the_registry_finds_the_package_families_without_a_list():
    assert {"wbimb", "iib10", "ace11", "ace13", "messagesight", "mqappliance"} <= set(families.families())
    # the toy is a family only where it is put: the whole-suite run's $PERFWH_FAMILY_PATH
    assert ("toy" in families.families()) == (extra.folder() == TOY.resolve())


def test_the_first_report_of_a_family_is_checked_with_its_facts_on_the_command_line(
        built_warehouse, capsys):
    """No edition of the toy family is filed beside the reports: the check names the keys
    whose facts it needs, and with them given (--product, --platform) reads the report by them -
    the 4 cores given make every row exact, 8 would break the CPU identity of every row."""
    from perfwh.cli import main

    report = str(TOY / "toy-broker-2026.txt")
    with toy_registered():
        def checked(*facts: str) -> tuple[int, str]:
            status = main(["check", report, "--db", str(built_warehouse), *facts])
            return status, capsys.readouterr().err

        if extra.folder() is not None:  # the run with the family added: this very report is filed
            status, said = checked()
            assert status == 1 and "already filed" in said
            return
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


# The test files whose expectations are over every report of the registry.
COUNTING_TESTS = ("test_contract.py", "test_expected_values.py", "test_dq_rules.py",
                  "test_tables_exact.py", "test_lake.py")


@pytest.mark.slow
def test_the_suites_counts_take_the_family():
    """The tests that count, list and expect over "the reports" (contract, expected values,
    rules, tables, lake), with the toy family added: they follow the registry and the expected
    values, so the four files are enough. (Not run again inside that run.) The whole suite
    with the family added is `make test-family`: run it when a family or such a test changes
    (twice the suite's time, so not inside `make test`)."""
    if extra.folder() is not None:
        assert extra.folder() == TOY.resolve()  # this is the run: the family is in it
        return
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")},
           extra.ENV: str(TOY.relative_to(PROJECT_ROOT))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-m", "not slow", *(str(PROJECT_ROOT / "tests" / name) for name in COUNTING_TESTS)],
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
