"""The Parquet lake: partitions, manifest, determinism, and DuckDB, Polars and Spark reading it
as it is."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from perfwh.core.paths import SOURCES_FILE
from perfwh.warehouse.lake import (MANIFEST, PARTITIONS, duckdb_scan, hive_escape, polars_scan,
                                   read_manifest, spark_read, write_lake)
from perfwh.warehouse.lake import exported_relations
from perfwh.warehouse.sources import load_manifest

ODD_NAME = "lab results (v2) #1=é.csv"
CSV = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
       "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n"
       "IIB,10.0.0.9,odd box,8,ISO 8583 Transformation,1384,false,flow_copies,,,1362.3,94.0,5.5\n"
       "IIB,10.0.0.9,odd box,8,ISO 8583 Transformation,120,false,flow_copies,,,2864.4,94.0,2.6\n")


@pytest.fixture(scope="module")
def lake(built_warehouse) -> Path:
    return built_warehouse.parent / "lake"


def own_columns(manifest: dict, relation: str) -> list[str]:
    return [c["name"] for c in manifest["relations"][relation]["columns"]]


def test_every_relation_is_in_the_manifest_with_its_rows(lake, wh):
    manifest = read_manifest(lake)
    assert set(manifest["relations"]) == set(exported_relations(wh))
    assert manifest["partitioning"] == list(PARTITIONS)
    for name, entry in manifest["relations"].items():
        assert entry["rows"] == wh.sql(f"SELECT count(*) FROM {name}").fetchall()[0][0], name
        assert sum(f["rows"] for f in entry["files"]) == entry["rows"], name
        assert own_columns(manifest, name) == [c for c, *_ in wh.sql(f"DESCRIBE {name}").fetchall()]
        for f in entry["files"]:
            data = (lake / f["path"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == f["sha256"] and len(data) == f["bytes"]


def test_relations_of_reports_are_partitioned_by_family_and_source(lake, wh):
    manifest = read_manifest(lake)
    reports = set(wh.sql("SELECT family, source FROM dim_report").fetchall())
    for name in ("fact_metric_value", "metric_values", "measurements", "dq_findings",
                 "raw_observations", "dim_scenario", "dim_report"):
        entry = manifest["relations"][name]
        assert entry["partitioned"], name
        partitions = {(f["family"], f["source"]) for f in entry["files"]}
        assert partitions <= reports and partitions, name
        for f in entry["files"]:
            assert f["path"] == f"{name}/family={f['family']}/source={hive_escape(f['source'])}/data_0.parquet"
    for name in ("dim_product", "dim_configuration", "ref_units", "dq_rules"):
        assert not manifest["relations"][name]["partitioned"]
        assert [f["path"] for f in manifest["relations"][name]["files"]] == [f"{name}/data_0.parquet"]


def test_duckdb_reads_the_lake_as_the_warehouse_holds_it(lake, wh):
    """Row for row and digit for digit (compared as text: a HUGEINT written as a DOUBLE compared
    equal to its rounded self); each column of the type the manifest says."""
    manifest = read_manifest(lake)
    for name in manifest["relations"]:
        own = own_columns(manifest, name)
        columns = ", ".join(f"CAST({c} AS VARCHAR)" for c in own)
        lake_rows = f"SELECT {columns} FROM {duckdb_scan(lake, name)}"
        differ = wh.sql(f"SELECT count(*) FROM ((SELECT {columns} FROM {name} EXCEPT ALL {lake_rows}) "
                        f"UNION ALL ({lake_rows} EXCEPT ALL SELECT {columns} FROM {name}))").fetchall()
        assert differ == [(0,)], name
        types = dict(wh.sql(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {duckdb_scan(lake, name)})")
                     .fetchall())
        declared = {c["name"]: c["type"] for c in manifest["relations"][name]["columns"]}
        assert {c: types[c].replace(" ", "") for c in own} == {c: declared[c].replace(" ", "") for c in own}, name


def test_polars_reads_the_lake(lake, wh):
    facts = polars_scan(lake, "fact_metric_value").collect()
    assert facts.height == wh.sql("SELECT count(*) FROM fact_metric_value").fetchall()[0][0]
    assert facts.schema["family"] == pl.String and facts.schema["source"] == pl.String
    assert (facts["source"] == facts["source_file"]).all()
    per_source = dict(polars_scan(lake, "measurements").group_by("source").len().collect().iter_rows())
    assert per_source == dict(wh.sql("SELECT source, count(*) FROM measurements GROUP BY ALL").fetchall())
    # one row per product, version and fix pack that sources.yml records for its reports
    products = {(p["short"], str(p["version"]), p.get("fix_pack"))
                for s in load_manifest(SOURCES_FILE) for p in s.products.values()}
    assert polars_scan(lake, "dim_product").collect().height == len(products)


def test_the_lake_is_byte_deterministic(built_warehouse, second_build):
    first, second = (p.parent / "lake" / MANIFEST for p in (built_warehouse, second_build))
    assert first.read_bytes() == second.read_bytes()  # every file's sha256 is in it


def test_every_file_of_the_lake_holds_its_rows_in_order(lake):
    """Each file's rows are in ORDER BY ALL order, partitioned or not: DuckDB's partitioned
    write does not keep its query's order, and a file whose order depends on what else was
    written with it differs between a build and the same sources filed one by one."""
    con = duckdb.connect()
    unsorted = []
    for path in sorted(lake.rglob("*.parquet")):
        read = f"read_parquet('{path}', hive_partitioning = false)"
        as_stored, ordered = (repr(con.sql(f"SELECT * FROM {read}{order}").fetchall())  # repr: NaN equals NaN
                              for order in ("", " ORDER BY ALL"))
        if as_stored != ordered:
            unsorted.append(str(path.relative_to(lake)))
    assert len(list(lake.rglob("*.parquet"))) > 100 and not unsorted


@pytest.fixture(scope="module")
def odd_lake(tmp_path_factory, built_warehouse) -> Path:
    """The lake of a scratch warehouse holding a submission whose name needs escaping."""
    from perfwh.stages.check import checked

    folder = tmp_path_factory.mktemp("odd")
    path = folder / ODD_NAME
    path.write_text(CSV, encoding="utf-8")
    with checked(path, warehouse=built_warehouse) as (_result, con):
        write_lake(con, folder / "lake")
    return folder / "lake"


def test_partition_values_that_need_escaping_read_back_in_duckdb_and_polars(odd_lake):
    sources = duckdb.sql(f"SELECT DISTINCT source FROM {duckdb_scan(odd_lake, 'measurements')}").fetchall()
    assert (ODD_NAME,) in sources
    assert ODD_NAME in set(polars_scan(odd_lake, "measurements").collect()["source"].to_list())
    entry = [f for f in read_manifest(odd_lake)["relations"]["measurements"]["files"]
             if f["source"] == ODD_NAME]
    assert len(entry) == 1 and entry[0]["rows"] == 2
    assert "source=lab results (v2) %231%3Dé.csv" in entry[0]["path"]  # Hive's escaping


def test_an_empty_relation_is_one_file_with_every_column(lake):
    manifest = read_manifest(lake)
    entry = manifest["relations"]["raw_waivers"]
    assert entry["rows"] == 0 and [f["path"] for f in entry["files"]] == ["raw_waivers/data_0.parquet"]
    columns = [c for c, *_ in duckdb.sql(f"DESCRIBE SELECT * FROM {duckdb_scan(lake, 'raw_waivers')}").fetchall()]
    # as in a partitioned relation with rows, the partition columns come last
    assert columns == [c for c in own_columns(manifest, "raw_waivers") if c not in PARTITIONS] + list(PARTITIONS)


@pytest.mark.slow
@pytest.mark.xdist_group("spark")  # on the worker whose Spark session runs
def test_spark_reads_the_lake(lake, odd_lake, wh, spark_session):
    manifest = read_manifest(lake)
    for name in manifest["relations"]:
        frame = spark_read(spark_session, lake, name)
        assert frame.columns == own_columns(manifest, name)
        assert frame.count() == manifest["relations"][name]["rows"], name
    rows = spark_read(spark_session, lake, "measurements").groupBy("source").count().collect()
    assert {r["source"]: r["count"] for r in rows} == dict(
        wh.sql("SELECT source, count(*) FROM measurements GROUP BY ALL").fetchall())
    odd = {r["source"] for r in spark_read(spark_session, odd_lake, "measurements").collect()}
    assert ODD_NAME in odd


def test_a_copy_of_the_lake_elsewhere_reads_the_same(lake, tmp_path):
    """Paths in the manifest are relative: the lake moves (to object storage, another machine)
    as a folder."""
    copy = tmp_path / "lake"
    shutil.copytree(lake, copy)
    assert read_manifest(copy) == read_manifest(lake)
    assert duckdb.sql(f"SELECT count(*) FROM {duckdb_scan(copy, 'fact_metric_value')}").fetchall() == \
        duckdb.sql(f"SELECT count(*) FROM {duckdb_scan(lake, 'fact_metric_value')}").fetchall()


def test_the_readme_examples_read_the_lake(lake, capsys):
    """The README's lake examples (DuckDB and Polars) run as written, on this lake."""
    import re

    from perfwh.core.paths import PROJECT_ROOT

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- the lake's examples; tests/test_lake.py runs them -->\n```python\n(.*?)```",
                      readme, re.S).group(1)
    assert 'lake = "data/curated/lake"' in block
    names: dict = {}
    exec(block.replace('lake = "data/curated/lake"', f"lake = {str(lake)!r}"), names)
    assert "iib10-xlinux.txt" in capsys.readouterr().out
    assert names["rates"].height > 0 and set(names["rates"].columns) == {"scenario", "tshirt", "msg_rate"}


def test_a_partial_write_takes_out_what_has_no_rows_left():
    """An add's lake: the partitions it wrote go over the lake's; a changed source's partition
    with no rows now is taken out - its family's folder whole where no file of it is left."""
    from perfwh.warehouse.lake import _partition_changes

    def files(*paths):
        return [{"path": f"m/{p}/data_0.parquet"} for p in paths]

    before = files("family=f/source=1", "family=f/source=2", "family=g/source=3", "family=g/source=6",
                   "family=h/source=4")
    kept = files("family=f/source=1")  # 2, 3, 4 and 6 changed
    written = files("family=h/source=4", "family=k/source=5")
    replaced, removed = _partition_changes(before, kept, written)
    assert replaced == ["m/family=h/source=4", "m/family=k/source=5"]
    assert removed == ["m/family=f/source=2", "m/family=g"]
