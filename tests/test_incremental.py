"""Building from scratch equals filing one by one.

`perfwh add` changes a warehouse incrementally: the new source's rows are appended, the rows of
the dimensional model it makes written by the build's own definitions, the rules run on its
rows and those they compare them with, its series fitted, its findings repaired; nothing of
the other sources is rebuilt. What keeps that honest is the full-refresh = incremental
property: a build of the reports R and the submissions S1..Sn (as their sources.yml entries
say, waivers and retirements included) holds the same rows, ids, findings, suggestions and
model tables as a build of R followed by `add` S1 ... `add` Sn.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest

from perfwh.quality.rules import load_rules
from perfwh.stages.add import add
from perfwh.stages.build import build
from perfwh.warehouse.lake import read_manifest
from support.tables import contents

HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
          "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")


def csv(path: Path, rows: list[str]) -> Path:
    path.write_text(HEADER + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def measured_again(warehouse: Path) -> str:
    """A row of the filed report's, as the template writes it, its rate alone and 2 % higher:
    the same measurement printed with another number. Read from the warehouse (the
    first row of a rate, %CPU and cost that is not a T-shirt's), not written down here."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        row = con.sql("""
            SELECT product, product_version, platform, server_cores, scenario, message_size_bytes,
                   persistent, concurrency_kind, concurrency, replicas, msg_rate_printed,
                   cpu_busy_pct_printed, cpu_ms_per_msg_printed
            FROM measurements
            WHERE msg_rate IS NOT NULL AND cpu_busy_pct IS NOT NULL AND cpu_ms_per_msg IS NOT NULL
              AND coalesce(concurrency_kind, '') <> 'tshirt' AND message_size_bytes IS NOT NULL
            ORDER BY source, source_line LIMIT 1""").fetchall()[0]
    finally:
        con.close()
    cells = ["" if v is None else str(v).lower() if isinstance(v, bool) else str(v) for v in row]
    # the rate 2 % higher at its printed precision, alone (rate-only rows are compared too)
    rate = cells[10].replace(",", "")
    decimals = len(rate.partition(".")[2])
    cells[10:13] = [f"{float(rate) * 1.02:.{decimals}f}", "", ""]
    if cells[8].endswith(".0"):
        cells[8] = cells[8][:-2]
    return ",".join(cells)


def filings(folder: Path, warehouse: Path) -> list[tuple[Path, dict, str | None]]:
    """(submission, waivers, the source it revises) in filing order: a series with a slip the
    rules catch (waived), one measured again from the filed report with another number
    (waived), several servers, products, configurations and persistence in one file, a test of
    the reports' name, and a revision that retires a filed source."""
    lab = csv(folder / "lab.csv", [
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,120,false,flow_copies,,,2864.4,94.0,2.6",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,134,false,flow_copies,,,2300.5,94.0,3.3",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,1384,false,flow_copies,,,1362.3,94.0,5.5",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,4096,false,flow_copies,,,9999.9,94.0,9.9"])
    mixed = csv(folder / "mixed servers.csv", [
        "ACE,12.0.1.0,rack 2,4,My own flow,1024,false,flow_instances,2,,1000.0,50.0,2.000",
        "ACE,12.0.1.0,rack 2,4,My own flow,10240,false,flow_instances,2,,800.0,50.0,2.500",
        "ACE,12.0.1.0,rack 2,4,My own flow,102400,false,flow_instances,2,,400.0,50.0,5.000",
        "ACE,12.0.1.0,rack 2,4,My own flow,102400,true,flow_instances,2,,300.0,50.0,6.667",
        "ACE,13.0.1.0,cluster,,HTTP XMLNSC ESQL Transformation,2048,,tshirt,Small,2,500.0,,1.50",
        "ACE,13.0.1.0,cluster,,HTTP XMLNSC ESQL Transformation,20480,,tshirt,Small,2,300.0,,2.40",
        measured_again(warehouse)])
    revised = csv(folder / "lab v2.csv", [
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,120,false,flow_copies,,,2864.4,94.0,2.6",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,134,false,flow_copies,,,2300.5,94.0,3.3",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,1384,false,flow_copies,,,1362.3,94.0,5.5",
        "IIB,10.0.0.2,lab box,8,ISO 8583 Transformation,4096,false,flow_copies,,,999.9,94.0,7.5"])
    return [(lab, {"cpu_identity@5:cpu_ms_per_msg": "as measured",
                   "cpu_capacity@5:cpu_ms_per_msg": "as measured"}, None),
            (mixed, {"cross_table_consistency@8:msg_rate": "measured again"}, None),
            (revised, {}, "lab.csv")]


def lake_on_disk(lake: Path) -> dict[str, str | None]:
    """Every folder (None) and file (its sha256) under ``lake``, by relative path; the files
    are those its manifest lists, and nothing else is there."""
    found = {p.relative_to(lake).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None
             for p in sorted(lake.rglob("*"))}
    listed = {f["path"]: f["sha256"] for r in read_manifest(lake)["relations"].values() for f in r["files"]}
    assert {k: v for k, v in found.items() if v is not None and k != "manifest.json"} == listed
    return found


def test_building_from_scratch_equals_filing_one_by_one(tmp_path, one_report):
    raw_dir, warehouse = one_report
    raw = tmp_path / "raw"
    shutil.copytree(raw_dir, raw)
    filed = tmp_path / "filed" / "warehouse.duckdb"
    filed.parent.mkdir()
    shutil.copyfile(warehouse, filed)
    for path, waivers, revision_of in filings(tmp_path, warehouse):
        add(path, waivers, warehouse=filed, sources_file=raw / "sources.yml", revision_of=revision_of)
    rebuilt = tmp_path / "rebuilt" / "warehouse.duckdb"
    build(out=rebuilt, raw_dir=raw, sources_file=raw / "sources.yml", rules="duckdb", progress=False)
    once, incrementally = contents(rebuilt), contents(filed)
    assert sorted(once) == sorted(incrementally)
    for name in sorted(once):
        assert once[name] == incrementally[name], name
    # the lake too: the same manifest, folders and files, byte for byte (an add wrote only its
    # sources' partitions, put them over the lake's and took out those with no rows left)
    assert read_manifest(rebuilt.parent / "lake") == read_manifest(filed.parent / "lake")
    assert lake_on_disk(rebuilt.parent / "lake") == lake_on_disk(filed.parent / "lake")
    # and the filings were what they claim: each landed, its waivers held, a source retired
    dq = dict((r[0], r[1]) for r in once["dq_rules"])
    assert set(dq) == {r.name for r in load_rules()}
    sources = {r[1]: r for r in once["dim_report"]}
    assert {"lab.csv", "mixed servers.csv", "lab v2.csv"} <= set(sources)
