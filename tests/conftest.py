"""Shared fixtures: one warehouse built from the real reports per test session."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pytest

from perfwh.core.paths import PROJECT_ROOT, RAW_DIR, SOURCES_FILE

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")

ARTIFACTS = PROJECT_ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def built_warehouse(tmp_path_factory) -> Path:
    """A warehouse built from data/raw by `perfwh.build.build` (rules run directly in DuckDB)."""
    from perfwh.stages.build import build

    out = tmp_path_factory.mktemp("warehouse") / "warehouse.duckdb"
    build(out=out, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="duckdb", progress=False)
    return out


@pytest.fixture(scope="session")
def wh(built_warehouse) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the session warehouse."""
    con = duckdb.connect(str(built_warehouse), read_only=True)
    yield con
    con.close()


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

    session = spark.session()
    yield session
    spark.stop()
