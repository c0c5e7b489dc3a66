"""A new report family takes four files: its raw report, its sources.yml entry, its parser module
and its expected values. The "toy" family lives only under tests/fixtures/toy/, as those four
files; here it is built on its own, shown to be four files that nothing else names, and run
through the whole test suite (every test, not only these: `make test-family` does the same).
"""
from __future__ import annotations

import os
import subprocess
import sys
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


def _project_files() -> list[Path]:
    """The project's own files: code, schema, rules, data, site, notebooks, bench and tests (no
    build output, virtual environment or caches)."""
    out = []
    for folder in ("ingest", "perfwh", "models", "schema", "rules", "data/raw", "site", "notebooks",
                   "bench", "tests"):
        for path in (PROJECT_ROOT / folder).rglob("*"):
            parts = set(path.relative_to(PROJECT_ROOT).parts)
            if path.is_file() and not parts & {"__pycache__", "_site", "node_modules", "vendor"}:
                out.append(path)
    return out


def test_the_registry_finds_the_package_families_without_a_list():
    assert {"wbimb", "iib10", "ace11", "ace13", "messagesight", "mqappliance"} <= set(families.families())
    # the toy is a family only where it is put: the whole-suite run's $PERFWH_FAMILY_PATH
    assert ("toy" in families.families()) == (extra.folder() == TOY.resolve())


@pytest.mark.slow
def test_the_whole_suite_takes_the_family():
    """Every test of the suite with the toy family added: counts, lists and expectations over
    the reports follow the registry and the expected values, so the four files are enough.
    (Not run again inside that run.)"""
    if extra.folder() is not None:
        assert extra.folder() == TOY.resolve()  # this is the run: the family is in it
        return
    env = {**os.environ, extra.ENV: str(TOY.relative_to(PROJECT_ROOT))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-n", os.environ.get("PERFWH_TEST_WORKERS", "auto"), "--dist",
                           "loadgroup", "--no-loadscope-reorder", str(PROJECT_ROOT / "tests")],
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
