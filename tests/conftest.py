"""Shared fixtures: one warehouse built from the real reports per test run (shared by every
pytest-xdist worker, `support.shared`), and the order the tests start in."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from support import cpu_profile, extra, memory_tmp, xdist_groups

memory_tmp.install()  # before pytest makes its temporary folders
extra.install()  # $PERFWH_EXTRA_FAMILY: a family added to the whole suite, before perfwh loads

import duckdb  # noqa: E402
import pytest  # noqa: E402

from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, SOURCES_FILE  # noqa: E402
from support.shared import digest, once  # noqa: E402

extra.register_expected()

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")

ARTIFACTS = PROJECT_ROOT / "test-artifacts"


def pytest_configure(config):
    cpu_profile.install(config)  # $PERFWH_TEST_CPU: CPU seconds per test
    xdist_groups.install(config)  # --dist loadgroup's groups, lost under pytest 9


@pytest.fixture(scope="session")
def built_warehouse(tmp_path_factory) -> Path:
    """A warehouse built from data/raw by `perfwh.build.build` (rules run directly in DuckDB),
    once per run. Read-only for every test: a test that writes copies it first. The session
    ends with an error if its bytes changed (root ignores file modes, so nothing else would
    tell)."""
    out = once(tmp_path_factory, "warehouse", build_of_the_reports)
    before = digest(out)
    yield out
    assert digest(out) == before, f"a test changed the shared warehouse {out}: copy it first"


def build_of_the_reports(folder: Path) -> Path:
    """The reports built into ``folder`` as `built_warehouse` builds them (rules in DuckDB,
    the lake beside the warehouse)."""
    from perfwh.stages.build import build

    out = folder / "warehouse.duckdb"
    build(out=out, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="duckdb", progress=False)
    return out


@pytest.fixture(scope="session")
def _plain_build(tmp_path_factory) -> Path:
    def make(folder: Path) -> Path:
        from perfwh.stages.build import build

        out = folder / "plain.duckdb"
        build(out=out, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="none", parquet=False,
              progress=False)
        return out

    return once(tmp_path_factory, "plain-warehouse", make)


@pytest.fixture
def plain_warehouse(tmp_path, _plain_build) -> Path:
    """A private copy of the reports built without rules or Parquet (so without findings or
    models), tmp_path/plain.duckdb; built once per run."""
    out = tmp_path / "plain.duckdb"
    shutil.copyfile(_plain_build, out)
    return out


@pytest.fixture(scope="session")
def second_build(tmp_path_factory) -> Path:
    """The same inputs built a second time, in a process of its own (whichever worker asks
    first), for the tests that compare two builds byte for byte. Read-only."""
    return once(tmp_path_factory, "warehouse-again", build_of_the_reports)


@pytest.fixture(scope="session")
def wh(built_warehouse) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the session warehouse."""
    con = duckdb.connect(str(built_warehouse), read_only=True)
    yield con
    con.close()


@pytest.fixture(scope="session")
def one_report(tmp_path_factory) -> tuple[Path, Path]:
    """(raw folder, warehouse) of the smallest report of the manifest alone, built once per
    run. How a writer lands or fails does not depend on how much the warehouse holds, and an
    add there takes a fraction of the time, so the tests that run many adds use it."""
    def make(folder: Path) -> tuple[Path, Path]:
        from perfwh.stages.build import build

        import yaml

        manifest = yaml.safe_load((RAW_DIR / "sources.yml").read_text(encoding="utf-8"))
        smallest = min(manifest["reports"], key=lambda e: (RAW_DIR / "reports" / e["file"]).stat().st_size)
        raw = folder / "raw"
        (raw / "reports").mkdir(parents=True)
        shutil.copyfile(RAW_DIR / "reports" / smallest["file"], raw / "reports" / smallest["file"])
        (raw / "sources.yml").write_text(yaml.safe_dump({"reports": [smallest]}, allow_unicode=True,
                                                        sort_keys=False), encoding="utf-8")
        out = folder / "curated" / "warehouse.duckdb"
        build(out=out, raw_dir=raw, sources_file=raw / "sources.yml", rules="duckdb", progress=False)
        return raw, out

    return once(tmp_path_factory, "one-report", make)


@pytest.fixture
def raw_copy(tmp_path) -> Path:
    """A writable copy of data/raw (reports and sources.yml) for tests that damage it."""
    target = tmp_path / "raw"
    shutil.copytree(RAW_DIR, target)
    return target


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def spark_session():
    """The one SparkSession of the test run (local[2]), shared by every Spark test: the Spark
    engine (`perfwh.quality.spark.session`) reuses the process's session, so builds and checks
    run in-process here start no second JVM. Stopped when the tests end."""
    from perfwh.quality import spark

    # settings for small data (tests/spark/spark-defaults.conf says which and why)
    previous = os.environ.get("SPARK_CONF_DIR")
    os.environ["SPARK_CONF_DIR"] = str(Path(__file__).parent / "spark")
    session = spark.session()
    yield session
    spark.stop()
    if previous is None:
        os.environ.pop("SPARK_CONF_DIR", None)
    else:
        os.environ["SPARK_CONF_DIR"] = previous


# -- running on several cores (pytest-xdist, `--dist loadgroup`) -----------------------------

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    _keep_module_fixtures_on_one_worker(items)
    # collection happens in xdist's workers (where `dist` reads "no"); the order of their
    # items is the order in which the controller hands out the work units
    if getattr(config.option, "loadgroup", False):
        _longest_first(items)


def _keep_module_fixtures_on_one_worker(items) -> None:
    """A test that uses a module-scoped fixture runs on the worker that runs the rest of its
    module (an xdist group named after the module): xdist hands single tests to whichever
    worker is free, and a module fixture would be set up again in every worker that got one
    of its tests - and again each time that worker came back to the module. Tests that set
    their own group (one Spark session, one browser) keep it."""
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        definitions = item._fixtureinfo.name2fixturedefs
        if any(d.scope == "module" for name in item.fixturenames for d in definitions.get(name, ())):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


def _longest_first(items) -> None:
    """Work units (a group, or a single test) that hold slow tests start first, so that the
    last unit to finish is a short one (the longest-processing-time-first rule); otherwise
    the order is the collection's. Needs `--no-loadscope-reorder`, or xdist orders the units
    by their number of tests."""
    def unit(item):
        return xdist_groups.group_of(item) or item.nodeid

    slow_units = {unit(i) for i in items if i.get_closest_marker("slow")}
    items.sort(key=lambda i: unit(i) not in slow_units)  # stable: in-unit order is kept
