"""Bad input: each gives a clear error naming file:line and what was expected, a non-zero
exit status from `perfwh build`, and leaves the previous warehouse as it was.

Every case damages a copy of data/raw (the `raw_copy` fixture). Where the damage is meant to
get past the checksum (to reach the reader or the parser), the copied sources.yml records the
damaged file's new sha256, as a maintainer recording a new source would.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perfwh.core.paths import PROJECT_ROOT
from perfwh.warehouse.sources import sha256_of

PERFWH = Path(sys.executable).with_name("perfwh")
if not PERFWH.exists():
    PERFWH = PROJECT_ROOT / ".venv" / "bin" / "perfwh"

WB = "wbimb5-aix-2004.txt"
IIB = "iib10-xlinux.txt"
ACE11 = "ace11-vs-iib10-docker-2019.txt"
ACE13 = "ace13-openshift-2025.txt"
MS = "messagesight1-2013.txt"


# ------------------------------------------------------------------------------ helpers

def report(raw: Path, name: str) -> Path:
    return raw / "reports" / name


def record_checksum(raw: Path, name: str) -> None:
    """Record the (damaged) file's sha256 in the copied manifest."""
    manifest = raw / "sources.yml"
    text = manifest.read_text(encoding="utf-8")
    match = re.search(rf"- file: {re.escape(name)}\n\s+family: \S+\n\s+sha256: (\w+)", text)
    assert match, name
    manifest.write_text(text.replace(match.group(1), sha256_of(report(raw, name))), encoding="utf-8")


def rewrite(raw: Path, name: str, change) -> None:
    """Apply ``change`` to the report's text (str -> str or bytes) and record the checksum."""
    path = report(raw, name)
    new = change(path.read_text(encoding="utf-8"))
    if isinstance(new, bytes):
        path.write_bytes(new)
    else:
        path.write_text(new, encoding="utf-8")
    record_checksum(raw, name)


def replace_once(old: str, new: str):
    def change(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return change


def cut_after(marker: str, keep: bool = True):
    """Truncate the file just after (or just before) ``marker``."""
    def change(text: str) -> str:
        assert text.count(marker) == 1, marker
        at = text.index(marker)
        return text[: at + len(marker) if keep else at]
    return change


def remove_rows(header: str):
    """Keep a table's header line(s) and drop every row below it."""
    def change(text: str) -> str:
        at = text.index(header) + len(header)
        end = text.index("\n\n", at)
        return text[:at] + text[end + 1:]
    return change


def snapshot(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` with its sha256 (names include hidden temp files)."""
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A warehouse (and its Parquet export) from a good build, and its snapshot."""
    from perfwh.stages.build import build

    out = tmp_path_factory.mktemp("previous") / "warehouse.duckdb"
    build(out=out, rules="none", progress=False)
    state = snapshot(out.parent)
    assert "warehouse.duckdb" in state and "lake/manifest.json" in state
    return out, state


def perfwh_build(raw: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(PERFWH), "build", "--rules", "none", "--raw", str(raw),
                           "--sources", str(raw / "sources.yml"), "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=120)


# ------------------------------------------------------------------------------ the cases

# (id, damage, file named in the error, line named (None: no line applies), phrases expected)
CASES = [
    # truncated files: in the middle of a table (between rows, and inside a row), before any table
    ("truncated-between-rows", lambda raw: rewrite(raw, WB, cut_after("no\t4096\t862.33\t23.00\t2.13\n")),
     WB, 930, ["truncated", "expected the Index that follows chapter 10"]),
    ("truncated-inside-a-row", lambda raw: rewrite(raw, IIB, cut_after("20kB 783.5 97")),
     IIB, 48, ["truncated", "Measurement Environment"]),
    ("truncated-mid-ace13-table", lambda raw: rewrite(raw, ACE13, cut_after("| Small | 20K | 1 | 299.76 | 1.63 |\n")),
     ACE13, 207, ["truncated", "trademarks notice"]),
    ("truncated-mid-power-table", lambda raw: rewrite(raw, MS, cut_after("04/26/2013\t10:07:06\t202.85\t0.890\t0.49\t136\t182\n")),
     MS, 553, ["truncated", "Appendix A"]),
    ("truncated-before-any-table-ace11", lambda raw: rewrite(raw, ACE11, cut_after("Results\n\nFind here", keep=False)),
     ACE11, 165, ["truncated", "'Trademarks' section"]),
    ("truncated-before-any-table-wbimb", lambda raw: rewrite(raw, WB, cut_after("3.7.1 Copy Mapping Test", keep=False)),
     WB, 475, ["truncated"]),
    ("truncated-before-any-table-ms", lambda raw: rewrite(raw, MS, cut_after("## Score card", keep=False)),
     MS, 414, ["truncated"]),
    # wrong encodings
    ("utf-16", lambda raw: rewrite(raw, ACE11, lambda t: t.encode("utf-16")),
     ACE11, 1, ["UTF-16", "expected a UTF-8 text report"]),
    ("utf-16-without-bom", lambda raw: rewrite(raw, IIB, lambda t: t.encode("utf-16-le")),
     IIB, 1, ["NUL bytes", "expected a UTF-8 text report"]),
    ("old-mac-line-ends", lambda raw: rewrite(raw, IIB, lambda t: t.replace("\n", "\r")),
     IIB, 1, ["carriage return alone", "expected a text report with Windows (CR LF) or Unix (LF) line endings"]),
    ("latin-1", lambda raw: rewrite(raw, WB, lambda t: t.encode("latin-1", errors="replace")),
     WB, 32, ["not valid UTF-8", "byte 0xa9", "expected a UTF-8 text report"]),
    # a row with a missing column, and with an extra one
    ("missing-column-wbimb", lambda raw: rewrite(raw, WB, replace_once("no\t4096\t862.33\t23.00\t2.13", "no\t4096\t862.33\t2.13")),
     WB, 930, ["row has 4 cells", "expected 5 cells"]),
    ("missing-column-ace11", lambda raw: rewrite(raw, ACE11, replace_once("2 5088.72/s 382.01 μs 6040.22/s 331.64 μs", "2 5088.72/s 382.01 μs 6040.22/s")),
     ACE11, 184, ["row has 5 cells", "7 cells"]),
    ("missing-size-cell-ace11", lambda raw: rewrite(raw, ACE11, replace_once("20k 1 1446.23/s", "1 1446.23/s")),
     ACE11, 186, ["message size 2k with concurrency 1 appears twice", "expected the message size on the first row"]),
    ("use-case-title-deleted", lambda raw: rewrite(raw, IIB, replace_once("\nCoordinated Request/Reply\n", "\n")),
     IIB, 54, ["has no use-case title", "is a results row ('20000kB 1.0 97.5 8125.0", "title deleted?"]),
    ("blank-line-inside-a-table", lambda raw: rewrite(raw, IIB, replace_once("2kB 1136.9", "\n2kB 1136.9")),
     IIB, 48, ["a results-table row that no table read", "with no blank line"]),
    ("missing-header", lambda raw: rewrite(raw, WB, replace_once("10.5 Filter Node Results\n\nPersist\tMsg Size\tMsgs/sec\t% CPU Busy\tCPU ms/msg\n", "10.5 Filter Node Results\n\n")),
     WB, 1000, ["a results-table row that no table read", "'no 1024 1576.67 25.00 1.27'"]),
    ("missing-column-fanout", lambda raw: rewrite(raw, MS, replace_once("1:10\t10\t100\t10\t330K\t3.3M", "1:10\t10\t100\t330K\t3.3M")),
     MS, 517, ["row has 5 cells", "expected 6 cells"]),
    ("extra-column-iib", lambda raw: rewrite(raw, IIB, replace_once("20kB 783.5 97.1 9.9 635.4 95.3 12.0", "20kB 783.5 97.1 9.9 635.4 95.3 12.0 7.7")),
     IIB, 48, ["row has 8 cells", "expected 7 cells"]),
    ("extra-column-ace13", lambda raw: rewrite(raw, ACE13, replace_once("| Small | 20K | 1 | 299.76 | 1.63 |", "| Small | 20K | 1 | 299.76 | 1.63 | 9 |")),
     ACE13, 207, ["row has 6 cells", "expected 5 cells"]),
    # unknown units
    ("unit-ns", lambda raw: rewrite(raw, ACE11, replace_once("476.71 μs", "476.71 ns")),
     ACE11, 183, ["unknown unit 'ns'", "'476.71 ns'", "expected a cpu_cost unit"]),
    ("unit-2kX", lambda raw: rewrite(raw, ACE11, replace_once("2k 1 1998.06/s", "2kX 1 1998.06/s")),
     ACE11, 183, ["unknown unit 'kX'", "expected a size unit"]),
    ("unit-in-wbimb-cost", lambda raw: rewrite(raw, WB, replace_once("no\t1024\t2601.00\t34.00\t1.05", "no\t1024\t2601.00\t34.00\t1.05ns")),
     WB, 907, ["unknown unit 'ns'", "expected a cpu_cost unit"]),
    ("unit-G-rate", lambda raw: rewrite(raw, MS, replace_once("1:10\t10\t100\t10\t330K", "1:10\t10\t100\t10\t330G")),
     MS, 517, ["unknown unit 'G'", "expected a rate unit"]),
    ("not-a-number", lambda raw: rewrite(raw, IIB, replace_once("2kB 1136.9 98.5", "2kB n/a 98.5")),
     IIB, 47, ["'n/a' is not a number", "expected a rate value"]),
    ("digits-and-letters", lambda raw: rewrite(raw, IIB, replace_once("2kB 1136.9 98.5", "2kB 11x36.9 98.5")),
     IIB, 47, ["unknown unit 'x36.9' in '11x36.9'", "expected a rate unit"]),
    ("unknown-tshirt", lambda raw: rewrite(raw, ACE13, replace_once("| Small | 2K | 1 | 1011.38 | 0.47 |", "| Tiny | 2K | 1 | 1011.38 | 0.47 |")),
     ACE13, 204, ["unknown T-shirt size 'Tiny'", "expected one of Small, Medium, Large"]),
    # empty tables: a header and no rows
    ("empty-table-wbimb", lambda raw: rewrite(raw, WB, remove_rows("10.2 Aggregation Node Results\n\nPersist\tMsg Size\tMsgs/sec\t% CPU Busy\tCPU ms/msg\n")),
     WB, 916, ["table 10.2 has no rows", "expected rows of Persist"]),
    ("empty-table-iib", lambda raw: rewrite(raw, IIB, remove_rows("SOAP Consumer\n\nNon Persistent\nMsg Size Msg Rate % CPU Busy CPU ms/msg\n")),
     IIB, 112, ["'SOAP Consumer' has no rows", "expected one row per message size"]),
    ("empty-table-ace11", lambda raw: rewrite(raw, ACE11, remove_rows("Message Size Concurrency 10.0.0.16 11.0.0.4 + LAD76278\nRate CPU cost Rate CPU cost\n")),
     ACE11, 182, ["'linux: HTTP BLOB Echo' has no rows", "expected one row per message size and concurrency"]),
    ("empty-table-ace13", lambda raw: rewrite(raw, ACE13, replace_once("| Small | 1 | 5.11 | 93.93 |\n| Medium | 1 | 11.29 | 85.46 |\n| Large | 1 | 12.65 | 85.65 |\n", "")),
     ACE13, 303, ["table has a header but no rows", "expected at least one data row"]),
    ("empty-table-fanout", lambda raw: rewrite(raw, MS, remove_rows("Ingress rate (msgs/sec)\tEgress rate (msgs/sec)\n")),
     MS, 516, ["fan-out table has no rows", "expected one row per fan-out ratio"]),
    # a file of another family, under the wrong family
    ("another-family-file", lambda raw: rewrite(raw, WB, lambda t: report(raw, IIB).read_text(encoding="utf-8")),
     WB, 1, ["not a 'wbimb' report", "expected the WebSphere Business Integration Message Broker"]),
    ("wrong-family-in-manifest", lambda raw: (raw / "sources.yml").write_text(
        (raw / "sources.yml").read_text(encoding="utf-8").replace(
            f"file: {ACE13}\n    family: ace13", f"file: {ACE13}\n    family: ace11"), encoding="utf-8"),
     ACE13, 1, ["not a 'ace11' report", "expected the ACE 11 vs IIB 10 container performance report"]),
    # empty, blank, binary, missing, changed files
    ("empty-file", lambda raw: rewrite(raw, IIB, lambda t: ""),
     IIB, 1, ["the file is empty", "expected the IBM Integration Bus V10 xLinux performance report"]),
    ("blank-file", lambda raw: rewrite(raw, MS, lambda t: "\n \n\t\n"),
     MS, 1, ["the file is empty"]),
    ("binary-file", lambda raw: rewrite(raw, ACE13, lambda t: bytes(range(256)) * 4),
     ACE13, 1, ["NUL bytes"]),
    ("damaged-pdf", lambda raw: rewrite(raw, IIB, lambda t: b"%PDF-1.4\n% not really a PDF\n"),
     IIB, None, ["cannot read the PDF", "expected a PDF with a text layer"]),
    ("missing-file", lambda raw: report(raw, MS).unlink(),
     MS, None, ["raw report listed in sources.yml is missing"]),
    ("sha256-mismatch", lambda raw: report(raw, ACE13).write_text(
        report(raw, ACE13).read_text(encoding="utf-8").replace("1011.38", "1011.39"), encoding="utf-8"),
     ACE13, None, ["sha256", "does not match sources.yml", "raw reports are never edited"]),
    ("missing-manifest", lambda raw: (raw / "sources.yml").unlink(),
     "sources.yml", None, ["cannot read the manifest"]),
]


@pytest.mark.parametrize("damage, file, line, phrases",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_a_clear_error(raw_copy, previous, damage, file, line, phrases):
    out, before = previous
    damage(raw_copy)
    result = perfwh_build(raw_copy, out)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    error = [l for l in result.stderr.splitlines() if l.startswith("perfwh build: error: ")]
    assert len(error) == 1, result.stderr
    message = error[0]
    if line is None:
        assert file in message
    else:
        assert re.search(rf"{re.escape(file)}:{line}: ", message), message
    for phrase in phrases:
        assert phrase in message, message
    assert "the previous warehouse is unchanged" in result.stderr
    # the previous warehouse and its Parquet export are byte-identical, no temp file is left
    assert snapshot(out.parent) == before


def test_error_names_the_expected_shape_in_process(raw_copy, previous):
    """The same error through the Python API: a BuildError whose cause is the ParseError."""
    from ingest.records import ParseError
    from perfwh.stages.build import BuildError, build

    out, before = previous
    rewrite(raw_copy, WB, replace_once("no\t4096\t862.33\t23.00\t2.13", "no\t4096\t862.33\t23.00"))
    with pytest.raises(BuildError) as caught:
        build(out=out, raw_dir=raw_copy, sources_file=raw_copy / "sources.yml", rules="none",
              progress=False)
    cause = caught.value.__cause__
    assert isinstance(cause, ParseError)
    assert (cause.source, cause.line) == (WB, 930)
    assert cause.expected.startswith("5 cells")
    assert snapshot(out.parent) == before


def test_undamaged_copy_builds(raw_copy, tmp_path):
    """The control: the same command on an undamaged copy succeeds."""
    out = tmp_path / "ok" / "warehouse.duckdb"
    result = perfwh_build(raw_copy, out, "--no-parquet", "-q")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert out.is_file()
    shutil.rmtree(out.parent)
