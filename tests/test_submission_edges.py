"""The submission road at its edges, as new users met them: files Excel and old Macs write,
names the disk or make cannot take, copies of reports' rows, warehouses that are not one,
scripts that read --json, and a writer stopped at its commit point."""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ingest import submission
from ingest.records import ParseError
from ingest.units import UNITS
from ingest.units import quantity as quantity_of
from ingest.vocabulary import METRIC_COLUMNS
from perfwh.core.commit import JOURNAL, Transaction
from perfwh.core.files import scratch_directory
from test_reliability import (PERFWH, add_killed_after_its_first_rename, box,  # noqa: F401 - the fixture
                              perfwh, state, submission as three_sizes)

ROOT = Path(__file__).resolve().parents[1]


# -- files --------------------------------------------------------------------------------

def test_old_mac_line_endings_are_refused_saying_so(box):
    path = box["tmp"] / "mac.csv"
    path.write_bytes(three_sizes(box["tmp"] / "plain.csv", "mac box").read_bytes().replace(b"\n", b"\r"))
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 2, done.stderr
        assert "carriage return" in done.stderr and "Traceback" not in done.stderr


def test_a_header_of_more_columns_than_a_submission_may_have_is_refused_at_once(box):
    """Ten thousand empty columns beside the template's (70 KB) are refused naming the count,
    before the reader holds a column for each (it ran out of memory); as many as the limit
    are read, the lab's own ignored."""
    lines = three_sizes(box["tmp"] / "plain.csv", "wide box").read_text(encoding="utf-8").splitlines()
    for extra, status in ((10_000, 2), (submission.MAX_COLUMNS - len(lines[0].split(",")), 0)):
        path = box["tmp"] / f"wide{extra}.csv"
        path.write_text("\n".join([lines[0] + "".join(f",x{i}" for i in range(extra))]
                                  + [line + "," * extra for line in lines[1:]]) + "\n", encoding="utf-8")
        done = perfwh(box, "check", path)
        assert done.returncode == status, done.stderr
        if status:
            assert done.stderr.strip() == (
                f"perfwh check: cannot read the submission: {path}:1: the header has "
                f"{len(lines[0].split(',')) + extra:,} columns, more than the {submission.MAX_COLUMNS:,} a "
                f"submission may have (expected the template's {len(submission.COLUMNS)} columns, and at most "
                f"{submission.MAX_COLUMNS - len(submission.COLUMNS):,} of a lab's own beside them (ignored))")


def test_a_name_that_looks_like_another_is_noted(box):
    """Full-width letters and a Cyrillic letter among Latin ones file as typed - another
    product or machine than the one they look like - so the check says so (Zürich's ü is Latin)."""
    text = three_sizes(box["tmp"] / "plain.csv", "r\u0430ck box").read_text(encoding="utf-8")
    lines = text.splitlines()
    product = lines[1].split(",")[0]
    lines[2] = lines[2].replace(product, "".join(chr(ord(c) + 0xFEE0) for c in product), 1)
    path = box["tmp"] / "look.csv"
    path.write_text("\n".join(lines).replace("r\u0430ck box", "Z\u00fcrich r\u0430ck", 1) + "\n", encoding="utf-8")
    done = perfwh(box, "check", path)
    assert done.returncode == 0, done.stderr
    wide = "".join(chr(ord(c) + 0xFEE0) for c in product)
    assert (f"product {wide!r} is typed in compatibility forms (full-width letters, ligatures) that read as "
            f"{product!r}, and is read as typed (line 3)") in done.stderr
    assert ("platform 'Z\u00fcrich r\u0430ck' mixes the letters of Latin and Cyrillic (\u0430 U+0430 is Cyrillic), "
            "and is read as typed (line 2)") in done.stderr
    assert "platform 'r\u0430ck box' mixes" in done.stderr and "Z\u00fcrich r\u0430ck'" in done.stderr


def test_utf32_is_read_with_a_note(box):
    text = three_sizes(box["tmp"] / "plain.csv", "UTF-32 box").read_text(encoding="utf-8")
    path = box["tmp"] / "u32.csv"
    path.write_bytes(text.encode("utf-32"))
    done = perfwh(box, "check", path)
    assert done.returncode == 0 and "UTF-32" in done.stderr, done.stderr


def test_the_utf8_copy_of_a_killed_load_is_removed_by_the_next(box):
    """A CSV in another encoding is read through a UTF-8 copy in a scratch folder; a process
    killed while reading it cannot remove the folder, the next load does."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = Path(tempfile.gettempdir()) / f"perfwh-csv-{dead.pid}-abandoned"
    left.mkdir()
    (left / "submission-utf8.csv").write_text("x")
    text = three_sizes(box["tmp"] / "plain.csv", "UTF-16 box").read_text(encoding="utf-8")
    path = box["tmp"] / "u16.csv"
    path.write_bytes(text.encode("utf-16"))
    done = perfwh(box, "check", path)
    assert done.returncode == 0 and "UTF-16" in done.stderr, done.stderr
    assert not left.exists()


@pytest.mark.parametrize("encoding", ["cp1252", "utf-16"])
def test_a_submission_reads_back_as_text_in_its_own_encoding(tmp_path, encoding):
    """The site shows a filed submission's text: read as it was filed, not as UTF-8."""
    text = three_sizes(tmp_path / "plain.csv", "Zürich lab").read_text(encoding="utf-8")
    path = tmp_path / f"{encoding}.csv"
    path.write_bytes(text.encode(encoding))
    lines = submission.lines_of(path)
    assert [line.text for line in lines] == text.splitlines()
    assert lines[1].number == 2


MIXED_HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
                "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")
MIXED_ROWS = [("ACE,13.0.2.0,mixbox,8,Café Route,2048,false,,,,24000,92.4,0.308\n", "utf-8"),
              ("ACE,13.0.2.0,mixbox,8,Café Route,4096,false,,,,23000,92.4,0.321\n", "utf-8"),
              ("ACE,13.0.2.0,mixbox,8,Café Route,8192,false,,,,22000,92.4,0.336\n", "cp1252")]


def test_a_file_of_utf8_and_windows_1252_rows_is_refused_naming_a_line_of_each(box):
    """Rows pasted from two exports, two in UTF-8 and one in Windows-1252: read as Windows-1252,
    as a file that is not UTF-8 is, the UTF-8 rows' "Café" would be filed as "CafÃ©". Refused
    as unreadable (status 2) by check and add alike, naming the first line that is not UTF-8 and
    one that is; nothing is filed."""
    path = box["tmp"] / "mixed.csv"
    path.write_bytes(MIXED_HEADER.encode() + b"".join(row.encode(codec) for row, codec in MIXED_ROWS))
    said = (f"{path}:4: mixes two encodings: line 4 is not UTF-8, but line 2 is ('é' would read as "
            "'Ã©'): read as either, the other's names would be garbled (expected the file saved in one "
            "encoding, e.g. as 'CSV UTF-8' from Excel)\n")
    before = state(box)
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith(f"perfwh {command}: ") and done.stderr.endswith(said), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
    assert state(box) == before


@st.composite
def encoded_rows(draw) -> tuple[bytes, list[str], list[str]]:
    """(a submission's bytes, each row's text, each row's encoding): rows whose scenario may
    hold accented letters, each in UTF-8 or Windows-1252 (letters that no two bytes of
    Windows-1252 could also spell in UTF-8)."""
    names = draw(st.lists(st.text("abcXYZ éüñçøà", min_size=1, max_size=8).map(str.strip).filter(bool),
                          min_size=1, max_size=6))
    rows = [f"ACME,1.0,lab,8,{name},{1024 * n},false,,,,1000,,1.5\n" for n, name in enumerate(names, 1)]
    codecs = draw(st.lists(st.sampled_from(["utf-8", "cp1252"]), min_size=len(rows), max_size=len(rows)))
    data = MIXED_HEADER.encode() + b"".join(row.encode(codec) for row, codec in zip(rows, codecs))
    return data, rows, codecs


@settings(max_examples=60, deadline=None)
@given(encoded_rows())
def test_a_file_is_read_in_its_one_encoding_and_refused_when_it_mixes_two(case):
    """UTF-8 throughout, or Windows-1252 throughout, reads as the text written; a file whose
    rows are in both (each holding an accented letter) is refused, naming the first line that
    is not UTF-8 and the first that is."""
    data, rows, codecs = case
    accented = [not row.isascii() for row in rows]
    in_1252 = [n for n, (a, c) in enumerate(zip(accented, codecs), 2) if a and c == "cp1252"]
    in_utf8 = [n for n, (a, c) in enumerate(zip(accented, codecs), 2) if a and c == "utf-8"]
    with tempfile.TemporaryDirectory(prefix="perfwh-encodings-") as folder:
        path = Path(folder) / "rows.csv"
        path.write_bytes(data)
        if in_1252 and in_utf8:
            with pytest.raises(ParseError, match="mixes two encodings") as raised:
                submission.sniff(path)
            assert raised.value.line == in_1252[0]
            assert f"line {in_1252[0]} is not UTF-8, but line {in_utf8[0]} is" in raised.value.message
            return
        assert submission.sniff(path).encoding == ("cp1252" if in_1252 else "utf-8")
        assert [line.text + "\n" for line in submission.lines_of(path)][1:] == rows


def test_column_names_and_kinds_in_any_documented_spelling(box):
    lines = three_sizes(box["tmp"] / "plain.csv", "spelling box").read_text().splitlines()
    header = lines[0].replace("product,product_version", "Product, Product_Version ")
    rows = [r.replace(",flow_copies,,", ",Flow Copies,,") for r in lines[1:]]
    path = box["tmp"] / "spelled.csv"
    path.write_text("\n".join([header] + rows) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 0, done.stderr + done.stdout


def test_an_unknown_kind_is_one_error_naming_the_allowed_kinds(box):
    lines = three_sizes(box["tmp"] / "plain.csv", "kind box").read_text().splitlines()
    path = box["tmp"] / "kind.csv"
    path.write_text("\n".join([lines[0], lines[1].replace(",flow_copies,,", ",pods,Medium,")]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if " error " in line]
    assert len(errors) == 1 and "concurrency_kind" in errors[0] and "tshirt" in errors[0], errors


def test_counts_written_as_floats_read_as_whole_numbers(box):
    """A tool that keeps a column with blanks as floating point (pandas) writes 8 as 8.0."""
    plain = three_sizes(box["tmp"] / "plain.csv", "float box")
    with open(plain, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0]["server_cores"].isdigit()

    def written(name: str, cores: str) -> Path:
        path = box["tmp"] / name
        with open(path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(dict(r, server_cores=r["server_cores"] + cores, replicas="1.0") for r in rows)
        return path

    as_plain = perfwh(box, "check", "--json", plain)
    as_floats = perfwh(box, "check", "--json", written("floats.csv", ".0"))
    assert as_floats.returncode == as_plain.returncode == 0, as_floats.stdout
    assert json.loads(as_floats.stdout) == json.loads(as_plain.stdout)
    half = perfwh(box, "check", written("half.csv", ".5"))
    assert half.returncode == 1 and "server_cores is not a positive whole number" in half.stdout
    added = perfwh(box, "add", box["tmp"] / "floats.csv")
    assert added.returncode == 0, added.stderr
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        filed = con.sql("SELECT DISTINCT server_cores, coalesce(replicas, 1) FROM measurements "
                        "WHERE platform = 'float box'").fetchall()
    finally:
        con.close()
    assert filed == [(int(rows[0]["server_cores"]), 1)]


@pytest.mark.parametrize("printed, cell, says", [
    ("2864.4", "-5", "msg_rate is out of range"), ("2864.4", "1e999", "msg_rate is out of range"),
    ("2864.4", "NaN", "msg_rate is not a number as a report prints one: it marks no value"),
    ("2864.4", "-Infinity", "msg_rate is not a number as a report prints one"),
    ("2864.4", "1e3", "msg_rate is not a number as a report prints one: it is in scientific notation (write 1000)"),
    ("2864.4", "2.8644E+03", "it is in scientific notation (write 2864.4)"),
    ("2864.4", "n/a", "msg_rate is not a number as a report prints one: it marks no value (leave the cell blank"),
    ("2864.4", "#N/A", "it marks no value"),
    ("2864.4", "#DIV/0!", "it is a spreadsheet's formula error (write the number measured, or leave the cell blank)"),
    ("94.0", "190", "cpu_busy_pct is out of range: %CPU is the share of all the server's cores, at most 100"),
    ("94.0", "094.0", "cpu_busy_pct is not a number as a report prints one: it has a leading zero"),
    ("2864.4", "000", "msg_rate is not a number as a report prints one: it has a leading zero"),
    ("2864.4", "2 864.4", "msg_rate is not a number as a report prints one: its digits are grouped by a "
                          "space or an apostrophe, as some locales write thousands (write 2864.4)"),
    ("2864.4", "2'864.4 msgs/s", "grouped by a space or an apostrophe, as some locales write thousands "
                                 "(write 2864.4 msgs/s)"),
    ("2864.4", "1\u202f234\u00a0567", "as some locales write thousands (write 1234567)"),
])
def test_numbers_a_report_would_not_print_say_why(box, printed, cell, says):
    lines = three_sizes(box["tmp"] / "plain.csv", "range box").read_text().splitlines()
    path = box["tmp"] / "range.csv"
    path.write_text("\n".join([lines[0], lines[1].replace(printed, cell)]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1 and says in done.stdout, done.stdout


SHIFTED = """\
product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg,notes
ACE,13.0.2.0,shiftbox,8,Shift Route,2048,false,,,,2,050,,,
ACE,13.0.2.0,shiftbox,8,Shift Route,20480,false,,,,1420,,,
ACE,13.0.2.0,shiftbox,8,Shift Route,204800,false,,,,610,,,
"""


def test_a_number_split_at_an_unquoted_thousands_comma_is_refused_as_a_row_too_long(box):
    """An unquoted 2,050 is two cells, 2 and 050: the row is one cell longer than the header and
    than the file's other rows, its last cell blank, and a blank notes column would take the
    shifted cell. It is refused as a row too long (nothing of it read), not filed as 2 msgs/s
    at 50 %CPU."""
    path = box["tmp"] / "shifted.csv"
    path.write_text(SHIFTED)
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 1, done.stdout + done.stderr
        errors = [line.split(": error ", 1)[1] for line in (done.stdout + done.stderr).splitlines()
                  if ": error " in line]
        assert errors == ["unreadable_value: the row has more cells than the header (a comma in a cell "
                          "not quoted, as in 24,000?): each cell after it would be read in the wrong "
                          "column (expected 14 cells, as in the header)"], done.stdout


def test_a_row_longer_than_the_others_by_blank_cells_is_refused_but_trailing_separators_are_not(box):
    """1,240 unquoted in a file with an ignored column: the row's 240 lands in that column, and
    its one cell beyond the header is blank. Refused (1 was filed as the CPU cost); the same
    file with a trailing separator on every row reads, each row's blank last cell the file's
    habit."""
    header = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
              "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg,comment")
    rows = ["X,1.0,x box,,X Echo,1MB,false,docker_cores,4,,150,,25.6,baseline",
            "X,1.0,x box,,X Echo,10MB,false,docker_cores,4,,15.5,,248,",
            "X,1.0,x box,,X Echo,50MB,false,docker_cores,4,,3.1,,1,240,"]
    path = box["tmp"] / "longer.csv"
    path.write_text("\n".join([header] + rows) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if ": error " in line]
    assert len(errors) == 1 and "longer.csv:4: error unreadable_value: the row has more cells than the " \
        "header" in errors[0], done.stdout
    rows[2] = "X,1.0,x box,,X Echo,50MB,false,docker_cores,4,,3.1,,1240,"
    path.write_text("\n".join([header] + [r + "," for r in rows]) + "\n")
    done = perfwh(box, "check", path)
    assert " error " not in done.stdout, done.stdout


def staged(text: str) -> tuple[list[tuple], list[tuple]]:
    """(sub_rejects as (line, column, problem), sub_observations as (line, metric, number,
    unit)) of a CSV read by the submission reader alone, in memory."""
    con = duckdb.connect()
    try:
        with tempfile.TemporaryDirectory(prefix="perfwh-staged-") as folder:
            path = Path(folder) / "cells.csv"
            path.write_text(text, encoding="utf-8")
            submission.stage(con, path, path.name, None, Path(folder))
            return (con.sql("SELECT line, column_name, problem FROM sub_rejects ORDER BY ALL").fetchall(),
                    con.sql("SELECT row_line, metric, number, unit FROM sub_observations ORDER BY ALL").fetchall())
    finally:
        con.close()


@st.composite
def padded_numbers(draw) -> tuple[str, str, str, str]:
    """(column, the number as a report prints it, its unit token, zeros to put before it): a
    positive number in the column's range (below 100 of its unit; a size below 1 GiB), with or
    without a fraction and a unit."""
    column = draw(st.sampled_from([*METRIC_COLUMNS, "message_size_bytes"]))
    whole = draw(st.integers(0 if column != "message_size_bytes" else 1, 99))
    fraction = "" if column == "message_size_bytes" else draw(st.text("0123456789", max_size=3))
    assume(whole or fraction.strip("0"))
    quantity = METRIC_COLUMNS[column].quantity if column in METRIC_COLUMNS else "size"
    unit = draw(st.sampled_from(sorted(t for t, (_c, factor) in UNITS[quantity].items()
                                       if quantity != "size" or int(factor) <= 1 << 20)))
    return column, str(whole) + (f".{fraction}" if fraction else ""), unit, "0" * draw(st.integers(1, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(padded_numbers(), st.sampled_from(["", " "]))
def test_a_number_with_a_zero_before_a_digit_is_refused_in_every_column_and_by_every_reader(case, space):
    """050, 007 and 00.5 are no numbers as a report prints them: the submission reader refuses
    the cell (saying why) and files nothing of it, the reports' reader refuses it too, and the
    same number without the zeros reads as it is printed."""
    column, number, unit, zeros = case
    cells = dict(product="ACME", product_version="1.0", platform="lab", scenario="Echo", msg_rate="1000")
    rows = [dict(cells, **{column: zeros + number + space + unit}), dict(cells, **{column: number + space + unit})]
    out = io.StringIO()
    submission.write_rows(rows, out)
    rejects, observations = staged(out.getvalue())
    assert [(line, col) for line, col, _ in rejects] == [(2, column)], rejects
    assert "leading zero" in rejects[0][2], rejects
    quantity = METRIC_COLUMNS[column].quantity if column in METRIC_COLUMNS else "size"
    if column in METRIC_COLUMNS:
        assert (2, column) not in {(line, metric) for line, metric, _n, _u in observations}
        assert (3, column, number, unit or METRIC_COLUMNS[column].token) in observations, observations
    with pytest.raises(ParseError):
        quantity_of(zeros + number + space + unit, quantity)
    assert quantity_of(number + space + unit, quantity).number == number


def unreadable_problems(stdout: str) -> set[str]:
    """The cells and problems of a check's unreadable_value errors: "2,500: cpu_ms_per_msg may
    be ..." (what the message expected left off)."""
    return {line.split(": error unreadable_value: ", 1)[1].split(" (expected")[0]
            for line in stdout.splitlines() if "unreadable_value" in line}


def test_a_decimal_comma_export_says_so_and_how_to_write_each_number(box):
    """A spreadsheet in a decimal-comma locale exports "94,0" (and ';' between cells): each such
    cell says what is wrong and what to write, not "out of range" (94,0 is not 940). A comma
    before three digits and a decimal point groups thousands (2,300.5); without the point, in
    such a file, it may be the decimal comma as well (2,500: 2.5 or 2500) and is refused."""
    lines = three_sizes(box["tmp"] / "plain.csv", "comma box").read_text().splitlines()
    cells = [line.split(",") for line in lines]
    rate, cpu, cost = (cells[0].index(c) for c in ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg"))
    cells[1][rate], cells[1][cpu], cells[1][cost] = "2864,4", "94,0", "2,500"
    cells[2][rate], cells[2][cost] = "2,300.5", "3,3"
    cells[3][rate], cells[3][cost] = "1.362,3", "5,5 ms"
    path = box["tmp"] / "comma.csv"
    path.write_text("\n".join(";".join(row) for row in cells) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1, done.stderr
    says = unreadable_problems(done.stdout)
    hint = "has a decimal comma, which a report does not print: write"
    assert says == {f"2864,4: msg_rate {hint} 2864.4", f"94,0: cpu_busy_pct {hint} 94.0",
                    f"3,3: cpu_ms_per_msg {hint} 3.3", f"1.362,3: msg_rate {hint} 1362.3",
                    f"5,5 ms: cpu_ms_per_msg {hint} 5.5 ms",
                    "2,500: cpu_ms_per_msg may be 2.500 or 2500: the file is semicolon-separated, so "
                    "its comma may be a decimal one; write the number without a comma"}, done.stdout
    # the same cells between commas: the decimal commas elsewhere make 2,500 as ambiguous
    path.write_text("\n".join(",".join(f'"{c}"' if "," in c else c for c in row) for row in cells) + "\n")
    done = perfwh(box, "check", path)
    assert ("2,500: cpu_ms_per_msg may be 2.500 or 2500: the file writes 2864,4, so its comma may be a "
            "decimal one") in done.stdout, done.stdout
    # the cell a message quotes is data, not SQL or a format
    cells[1][rate] = "2864,4'%s"
    path.write_text("\n".join(",".join(f'"{c}"' if "," in c else c for c in row) for row in cells) + "\n")
    done = perfwh(box, "check", path)
    assert "the file writes 2864,4'%s, so its comma" in done.stdout, done.stdout + done.stderr


def test_a_dot_before_three_digits_in_a_decimal_comma_file_may_group_thousands(box):
    """Where commas may be decimal ones, those locales group thousands with a dot: "12.500"
    may be 12500 as well as 12.5, and is refused saying so (it was filed as 12.5, a thousandth
    of the rate, once the decimal commas beside it were written with points); in a file of
    decimal points it is 12.5, a number printed to three decimals."""
    lines = three_sizes(box["tmp"] / "plain.csv", "dot box").read_text().splitlines()
    cells = [line.split(",") for line in lines]
    rate, cost = cells[0].index("msg_rate"), cells[0].index("cpu_ms_per_msg")
    cells[1][rate], cells[2][rate] = "12.500", "1.250.000 msgs/s"
    path = box["tmp"] / "dots.csv"
    path.write_text("\n".join(";".join(row) for row in cells) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1, done.stderr
    says = unreadable_problems(done.stdout)
    why = "so its dot may separate thousands, as the decimal comma's locales write them; write the number without the dot if it does"
    assert says == {f"12.500: msg_rate may be 12.500 or 12500: the file is semicolon-separated, {why}",
                    f"1.250.000 msgs/s: msg_rate may be 1.250.000 msgs/s or 1250000 msgs/s: the file is "
                    f"semicolon-separated, {why}"}, done.stdout
    cells[2][rate] = "1250"
    path.write_text("\n".join(",".join(row) for row in cells) + "\n")
    done = perfwh(box, "check", path)
    assert "unreadable_value" not in done.stdout, done.stdout


def test_a_count_or_concurrency_in_a_decimal_comma_file_is_held_to_the_same_doubt(box):
    """Requester clients "1.000" or "2,500", server cores "8.000", in a semicolon-separated file:
    each may be a thousand times what it would be read as, and is refused saying so; "8.0"
    (a float column's whole number) is still 8."""
    path = box["tmp"] / "counts.csv"
    path.write_text(
        "product;product_version;platform;server_cores;scenario;message_size_bytes;persistent;"
        "concurrency_kind;concurrency;replicas;msg_rate;cpu_busy_pct;cpu_ms_per_msg\n"
        "DE;1.0;de box;8.000;DE Echo;1024;false;requester_clients;1.000;;12500;;0.32\n"
        "DE;1.0;de box;8;DE Echo;2048;false;requester_clients;2,500;;11000;;0.36\n"
        "DE;1.0;de box;8.0;DE Echo;4096;false;requester_clients;40;;9500;;0.42\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 1, done.stderr
    says = sorted(problem.split(" may be ")[0] for problem in unreadable_problems(done.stdout))
    assert says == ["1.000: concurrency", "2,500: concurrency", "8.000: server_cores"], done.stdout


def test_a_comma_after_a_leading_zero_or_four_digits_is_a_decimal_one(box):
    """0,489 and 1234,5 group no thousands: in a comma-separated file (the cell quoted) they are
    decimal commas, never 489 and 12345, and the message says what to write."""
    lines = three_sizes(box["tmp"] / "plain.csv", "zero box").read_text().splitlines()
    cells = [line.split(",") for line in lines]
    rate, cost = cells[0].index("msg_rate"), cells[0].index("cpu_ms_per_msg")
    cells[1][cost], cells[2][rate] = "0,489", "2300,5"
    for separator in (",", ";"):
        path = box["tmp"] / f"zero{separator == ';'}.csv"
        path.write_text("\n".join(separator.join(f'"{c}"' if "," in c else c for c in row)
                                  for row in cells) + "\n")
        done = perfwh(box, "check", path)
        assert done.returncode == 1, done.stderr
        says = {line.split(": error unreadable_value: ", 1)[1].split(" (expected")[0]
                for line in done.stdout.splitlines() if "unreadable_value" in line}
        hint = "has a decimal comma, which a report does not print: write"
        assert says == {f"0,489: cpu_ms_per_msg {hint} 0.489", f"2300,5: msg_rate {hint} 2300.5"}, done.stdout


def test_a_misspelt_column_is_named_beside_the_one_it_misses(box):
    lines = three_sizes(box["tmp"] / "plain.csv", "header box").read_text().splitlines()
    path = box["tmp"] / "header.csv"
    path.write_text("\n".join([lines[0].replace("msg_rate", "Msg_Rat").replace("server_cores",
                                                                                "cores,notes")]
                              + [r + "," for r in lines[1:]]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 2
    assert "missing column msg_rate (perhaps misspelt: 'Msg_Rat' for msg_rate); the header also " \
           "lacks server_cores, which would read as blank" in done.stderr, done.stderr


def test_a_header_missing_a_column_names_what_stops_it_apart_from_what_reads_as_blank(box):
    """"message size" for message_size_bytes: the required column is named with the header's
    column it may mean, as the file prints it; the optional columns the header leaves out are said to read as blank,
    not listed as missing beside it."""
    lines = three_sizes(box["tmp"] / "plain.csv", "size box").read_text().splitlines()
    header = [c for c in lines[0].split(",") if c not in ("concurrency_kind", "concurrency", "replicas")]
    path = box["tmp"] / "size.csv"
    path.write_text(",".join(header).replace("message_size_bytes", "message size") + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 2
    assert "size.csv:1: missing column message_size_bytes (perhaps misspelt: 'message size' for " \
           "message_size_bytes); the header also lacks concurrency_kind, concurrency, replicas, which " \
           "would read as blank (expected the submission template header" in done.stderr, done.stderr


@pytest.mark.parametrize("title, column", [("CPU Cost (ms/msg)", "cpu_ms_per_msg"), ("CPU Cost", "cpu_ms_per_msg"),
                                           ("Throughput", "msg_rate"), ("CPU Utilisation", "cpu_busy_pct")])
def test_a_measured_column_titled_in_a_labs_own_words_is_not_dropped(box, title, column):
    """A column the template does not name is an extra one, read as nothing; one whose words or
    bracketed unit say it holds a measured column the header lacks would leave that column
    blank and the file filed without it: refused, naming the column it looks like."""
    lines = three_sizes(box["tmp"] / "plain.csv", "titled box").read_text().splitlines()
    path = box["tmp"] / "titled.csv"
    path.write_text("\n".join([lines[0].replace(column, f'"{title}"')] + lines[1:]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 2, done.stderr
    assert f"for {column})" in done.stderr and "titled.csv:1:" in done.stderr, done.stderr


def test_a_measured_column_in_a_unit_it_has_not_is_named_as_such(box):
    """"msg_rate (kmsgs/s)": the column is msg_rate, the bracket no unit of it - said so with its
    units, not called a misspelling of msg_rate; beside msg_rate itself, such a column is a
    lab's own, ignored with a note naming it."""
    lines = three_sizes(box["tmp"] / "plain.csv", "kunit box").read_text().splitlines()
    path = box["tmp"] / "kunit.csv"
    path.write_text("\n".join([lines[0].replace("msg_rate", "msg_rate (kmsgs/s)")] + lines[1:]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 2, done.stderr
    assert ("kunit.csv:1: the header gives msg_rate in 'kmsgs/s' ('msg_rate (kmsgs/s)'), which is not a unit "
            "of msg_rate (expected msg_rate with one of its units in brackets (/s, msgs/s,") in done.stderr
    assert "misspelt" not in done.stderr
    path.write_text("\n".join([lines[0] + ",msg_rate (kmsgs/s),msgrate"] + [r + ",1,2" for r in lines[1:]]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 0, done.stderr
    assert "columns 'msg_rate (kmsgs/s)', 'msgrate' not in the template: ignored" in done.stderr  # said, not silent


def test_a_cost_column_may_say_ms_per_msg(box):
    lines = three_sizes(box["tmp"] / "plain.csv", "unit box").read_text().splitlines()
    path = box["tmp"] / "unit.csv"
    path.write_text("\n".join([lines[0].replace("cpu_ms_per_msg", "CPU ms per msg (ms/msg)")] + lines[1:]) + "\n")
    done = perfwh(box, "check", path)
    assert done.returncode == 0, done.stderr
    assert "cpu_ms_per_msg (ms/msg)" in done.stderr


def test_a_header_may_give_each_column_its_own_unit_and_stand_below_a_title(box):
    """Spreadsheets title columns with their units: "msg_rate (msgs/s)", "cpu_busy_pct [%]",
    "message_size (bytes)" are the template's columns, read as such with a note. A unit other
    than the column's own is refused (its bare numbers would be read in the column's unit), and
    a header below a title line is named where it stands."""
    lines = three_sizes(box["tmp"] / "plain.csv", "unit header box").read_text().splitlines()
    titled = {"message_size_bytes": "message_size (bytes)", "msg_rate": "Msg Rate (msgs/s)",
              "cpu_busy_pct": "cpu_busy_pct [%]", "cpu_ms_per_msg": "CPU ms per msg (ms)"}
    header = ",".join(titled.get(c, c) for c in lines[0].split(","))
    units = box["tmp"] / "units.csv"
    units.write_text("\n".join([header] + lines[1:]) + "\n", encoding="utf-8")
    plain = perfwh(box, "check", "--json", box["tmp"] / "plain.csv")
    done = perfwh(box, "check", "--json", units)
    assert done.returncode == plain.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(plain.stdout)
    assert ("the header's units are the columns' own: message_size_bytes (bytes), msg_rate (msgs/s), "
            "cpu_busy_pct (%), cpu_ms_per_msg (ms)") in done.stderr
    micro = box["tmp"] / "micro.csv"
    micro.write_text("\n".join([header.replace("CPU ms per msg (ms)", "cpu_ms_per_msg (us)")]
                               + lines[1:]) + "\n", encoding="utf-8")
    done = perfwh(box, "check", micro)
    assert done.returncode == 2
    assert "micro.csv:1: the header gives cpu_ms_per_msg in us ('cpu_ms_per_msg (us)'), but the " \
           "column is in ms" in done.stderr, done.stderr
    title = box["tmp"] / "title.csv"
    title.write_text("\n".join(["Results export - run 2026-11-30", ""] + lines) + "\n", encoding="utf-8")
    done = perfwh(box, "check", title)
    assert done.returncode == 2
    assert "title.csv:1: missing columns product" in done.stderr
    assert "line 3 reads as the header (a title or notes above it?): the header must be line 1" \
        in done.stderr, done.stderr


def test_cpu_given_as_a_fraction_is_named_as_the_likely_cause(box):
    """%CPU written as a fraction (0.450 for 45.0) makes every row a cpu_identity error 100 times
    off: the check says what is likely wrong with the column, once; true small %CPU (a rate
    and a cost that agree with it) gets no such note."""
    header = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
              "msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")
    rows = [("1024", "1362.3", "1.321"), ("10240", "1201.5", "1.515"), ("102400", "612.0", "3.137")]
    fractions = box["tmp"] / "fractions.csv"
    fractions.write_text(header + "".join(f"ACE,12.0.12.0,frac box,4,HTTP XMLNSC Echo,{size},false,{rate},"
                                          f"{float(rate) * float(cost) / 40 / 100:.3f},{cost}\n"
                                          for size, rate, cost in rows), encoding="utf-8")
    done = perfwh(box, "check", fractions)
    assert done.returncode == 1 and done.stdout.count("error cpu_identity") == 3, done.stdout
    assert done.stderr.count("if they are fractions of the CPU, write them as percentages") == 1
    idle = box["tmp"] / "idle.csv"
    idle.write_text(header + "".join(f"ACE,12.0.12.0,idle box,4,HTTP XMLNSC Echo,{size},false,{float(rate) / 100:.3f},"
                                     f"{float(rate) * float(cost) / 40 / 100:.3f},{cost}\n"
                                     for size, rate, cost in rows), encoding="utf-8")
    done = perfwh(box, "check", idle)
    assert "fractions of the CPU" not in done.stderr, done.stderr


def test_a_scenario_typed_two_ways_is_one_series(box):
    """'REST Echo', 'REST  echo' and 'rest echo' in one file are one test: filed under the first
    spelling, each other one noted, and fitted as one series of four sizes (typed two ways they
    were two series and three, the 1 MB point out of every model and sizing answer)."""
    path = box["tmp"] / "spelt.csv"
    path.write_text("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
                    "msg_rate,cpu_busy_pct,cpu_ms_per_msg\n"
                    "ACE,12.0.11.0,spelt box,4,REST Echo,1024,false,4000.0,50.0,0.500\n"
                    "ACE,12.0.11.0,spelt box,4,REST  echo,10240,false,3333.3,50.0,0.600\n"
                    "ACE,12.0.11.0,spelt box,4, rest echo,102400,false,1250.0,50.0,1.600\n"
                    "ACE,12.0.11.0,spelt box,4,REST Echo,1048576,false,173.9,50.0,11.50\n", encoding="utf-8")
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr
    assert "scenario 'REST  echo' read as 'REST Echo', one scenario but for case and spacing (line 3)" in done.stderr
    assert "scenario 'rest echo' read as 'REST Echo'" in done.stderr
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        names = con.sql("SELECT DISTINCT scenario FROM measurements WHERE source = 'spelt.csv'").fetchall()
        fits = con.sql("SELECT distinct_points FROM model_fits WHERE source = 'spelt.csv' "
                       "AND model = 'linear'").fetchall()
    finally:
        con.close()
    assert names == [("REST Echo",)]
    assert fits == [(4,)]


def test_replicas_one_and_blank_are_one_series(box):
    """The template reads a blank replicas cell as one replica, as the rules' configuration key
    does: a file saying 1 on some rows and nothing on others is fitted as one series of four
    sizes, labelled with the 1 it states (it was two series of two sizes, and neither fitted)."""
    path = box["tmp"] / "replicas.csv"
    path.write_text("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
                    "replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n"
                    "ACE,12.0.11.0,replica box,4,REST Echo,1024,false,,4000.0,50.0,0.500\n"
                    "ACE,12.0.11.0,replica box,4,REST Echo,10240,false,1,3333.3,50.0,0.600\n"
                    "ACE,12.0.11.0,replica box,4,REST Echo,102400,false,,1250.0,50.0,1.600\n"
                    "ACE,12.0.11.0,replica box,4,REST Echo,1048576,false,1,173.9,50.0,11.50\n",
                    encoding="utf-8")
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        fits = con.sql("SELECT replicas, distinct_points FROM model_fits WHERE source = 'replicas.csv' "
                       "AND model = 'linear'").fetchall()
        predicted = con.sql("SELECT count(*) FROM model_predictions WHERE source = 'replicas.csv'").fetchall()
    finally:
        con.close()
    assert fits == [(1, 4)]
    assert predicted == [(4,)]


def test_columns_left_out_read_as_blank_and_names_read_with_spaces(box):
    """A lab that measures no %CPU and runs no replicas leaves their columns out; names typed
    with spaces or hyphens are the template's. A header without any measured column, or
    without a required one, is refused; so is one that lacks a column it may have misspelt."""
    plain = three_sizes(box["tmp"] / "plain.csv", "narrow box")
    with open(plain, newline="") as handle:
        rows = list(csv.DictReader(handle))
    keep = [c for c in rows[0] if c not in ("replicas", "cpu_busy_pct")]

    def written(name: str, columns: list[str], header: list[str] | None = None) -> Path:
        path = box["tmp"] / name
        lines = [",".join(header or columns)] + [",".join(r[c] for c in columns) for r in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    spaced = [c.replace("_", " ").title() if c.startswith(("msg", "cpu")) else c for c in keep]
    spaced[keep.index("product_version")] = "Product-Version"
    done = perfwh(box, "check", "--json", written("narrow.csv", keep, spaced))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no column replicas, cpu_busy_pct in the header: read as blank" in done.stderr
    assert perfwh(box, "add", box["tmp"] / "narrow.csv").returncode == 0
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        filed = con.sql("SELECT count(*), count(cpu_busy_pct), count(replicas) FROM measurements "
                        "WHERE platform = 'narrow box'").fetchall()
    finally:
        con.close()
    assert filed == [(3, 0, 0)]
    unmeasured = [c for c in keep if c not in ("msg_rate", "cpu_ms_per_msg")]
    done = perfwh(box, "check", written("none.csv", unmeasured))
    assert done.returncode == 2 and "no measured column" in done.stderr, done.stderr
    done = perfwh(box, "check", written("noscenario.csv", [c for c in keep if c != "scenario"]))
    assert done.returncode == 2 and "missing column scenario" in done.stderr, done.stderr
    misspelt = [c if c != "cpu_ms_per_msg" else "cpu_ms_per_mgs" for c in keep]
    done = perfwh(box, "check", written("misspelt.csv", keep, misspelt))
    assert done.returncode == 2 and "'cpu_ms_per_mgs' for cpu_ms_per_msg" in done.stderr, done.stderr


# -- names --------------------------------------------------------------------------------

def test_a_name_too_long_to_file_is_refused_by_check_and_add_alike(box):
    path = three_sizes(box["tmp"] / ("#" * 84 + ".csv"), "long name box")
    before = sorted(p.name for p in (box["raw"]).rglob("*"))
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 1 and "shorter name" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in (box["raw"]).rglob("*")) == before


def test_make_takes_raw_file_names_it_cannot_list(tmp_path):
    """`make` decides what is stale from data/raw, where a filed submission's name may hold
    spaces, ':' or '#' - names make cannot take as prerequisites."""
    work = tmp_path / "tree"
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(".venv", "data", ".git", "*_site*"))
    shutil.copytree(ROOT / "data" / "raw", work / "data" / "raw")
    stamps = work / "data" / "curated" / ".stamps"
    stamps.mkdir(parents=True)
    venv = work / ".venv"
    venv.mkdir()
    made = [venv / ".installed"] + [stamps / s for s in ("warehouse", "findings", "models", "notebooks", "site")]
    for n, stamp in enumerate(made):  # each stage made after the one it reads
        stamp.touch()
        os.utime(stamp, (2e9 + n, 2e9 + n))
    done = subprocess.run(["make", "-n"], cwd=work, capture_output=True, text=True)
    assert done.returncode == 0 and "perfwh build" not in done.stdout, done.stdout + done.stderr
    odd = work / "data" / "raw" / "submissions" / "my results: a#1.csv"
    odd.parent.mkdir(exist_ok=True)
    odd.write_text("x\n")
    os.utime(odd, (2e9 + 10, 2e9 + 10))  # filed after the warehouse was built
    done = subprocess.run(["make", "-n"], cwd=work, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "perfwh build" in done.stdout, done.stdout


# -- copies -------------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["messagesight1-2013.txt", "wbimb5-aix-2004.txt"])
def test_a_copy_of_a_reports_rows_is_refused(box, source):
    """The template cannot carry a report's power readings or latencies: a copy of every row
    it can carry is still a copy."""
    rows = subprocess.run(PERFWH + ["template", "--rows-of", source, "--db", str(box["db"])],
                          capture_output=True, text=True, check=True).stdout
    path = box["tmp"] / f"copy-of-{source}.csv"
    path.write_text(rows)
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 1 and "the same measurements" in done.stderr and source in done.stderr


def test_a_file_repeating_rows_filed_before_is_refused_row_by_row(box):
    """A cumulative export (the rows filed last time and a new one) would file each old
    measurement twice: its repeated rows are errors naming the filed rows, the new one is not;
    without them it files, and so does a revision of the first file that repeats most of it."""
    first = three_sizes(box["tmp"] / "first.csv", "lab box 7")
    assert perfwh(box, "add", first).returncode == 0
    old = first.read_text(encoding="utf-8").splitlines()
    new_row = old[1].replace("ISO 8583 Transformation", "ISO 8583 Parse")
    cumulative = box["tmp"] / "cumulative.csv"
    cumulative.write_text("\n".join(old + [new_row]) + "\n", encoding="utf-8")
    done = perfwh(box, "check", "--json", cumulative)
    assert done.returncode == 1, done.stderr
    found = [f for f in json.loads(done.stdout) if f["severity"] == "error"]
    assert {(f["rule"], f["line"]) for f in found} == {("already_filed", n) for n in (2, 3, 4)}
    assert all("first.csv:" in f["message"] and "--revision-of first.csv" in f["message"] for f in found)
    assert perfwh(box, "add", cumulative).returncode == 1
    only_new = box["tmp"] / "second.csv"
    only_new.write_text("\n".join([old[0], new_row]) + "\n", encoding="utf-8")
    assert perfwh(box, "add", only_new).returncode == 0
    revised = box["tmp"] / "first-revised.csv"
    revised.write_text("\n".join(old[:3] + [old[3].replace("1362.3", "1363.1")]) + "\n", encoding="utf-8")
    done = perfwh(box, "add", "--revision-of", "first.csv", revised)
    assert done.returncode == 0, done.stdout + done.stderr


def test_repeated_runs_are_told_how_to_be_filed(box):
    """A lab's export of every run repeats each key with other numbers: the errors say a key is
    one measurement and how to file it; a run filed after an earlier one says it may be waived
    as measured again, or file as a revision of that one."""
    first = three_sizes(box["tmp"] / "run1.csv", "runs box")
    rows = first.read_text(encoding="utf-8").splitlines()
    slower = {"2864.4": "2858.1", "2300.5": "2296.0", "1362.3": "1358.2"}  # each run a little off
    again = [next(r.replace(a, b) for a, b in slower.items() if a in r) for r in rows[1:]]
    both = box["tmp"] / "runs.csv"
    both.write_text("\n".join(rows + again) + "\n", encoding="utf-8")
    done = perfwh(box, "check", "--json", both)
    found = [f for f in json.loads(done.stdout) if f["severity"] == "error"]
    assert [(f["rule"], f["line"]) for f in found] == [("conflicting_key", n) for n in (5, 6, 7)], done.stdout
    assert "(ISO 8583 Transformation, 1384 bytes, flow_copies) is printed at line 4" in found[2]["message"]
    assert found[2]["message"].endswith("repeated runs? a key is one measurement: file one row for it "
                                        "(the runs' mean, say), or waive the later ones as measured again")
    assert perfwh(box, "add", first).returncode == 0
    second = box["tmp"] / "run2.csv"
    second.write_text("\n".join(rows[:1] + again) + "\n", encoding="utf-8")
    done = perfwh(box, "check", "--json", second)
    found = [f for f in json.loads(done.stdout) if f["severity"] == "error"]
    assert [(f["rule"], f["line"]) for f in found] == [("cross_table_consistency", n) for n in (2, 3, 4)]
    assert found[2]["message"].endswith("; measured again? waive it as such, or file this run with "
                                        "--revision-of run1.csv if it replaces that one")


def test_rows_of_takes_a_reports_path_and_names_the_sources_it_knows(box):
    by_name = subprocess.run(PERFWH + ["template", "--rows-of", "ace13-openshift-2025.txt", "--db",
                                       str(box["db"])], capture_output=True, text=True, check=True)
    by_path = subprocess.run(PERFWH + ["template", "--rows-of", "data/raw/reports/ace13-openshift-2025.txt",
                                       "--db", str(box["db"])], capture_output=True, text=True, check=True)
    assert by_path.stdout == by_name.stdout and by_name.stdout.count("\n") > 100
    unknown = subprocess.run(PERFWH + ["template", "--rows-of", "ace14.txt", "--db", str(box["db"])],
                             capture_output=True, text=True)
    assert unknown.returncode == 2 and "no source named 'ace14.txt'" in unknown.stderr  # a bad argument
    assert "ace13-openshift-2025.txt, iib10-xlinux.txt" in unknown.stderr


def test_a_retired_source_is_named_as_retired(box):
    first = three_sizes(box["tmp"] / "one.csv", "retire box")
    assert perfwh(box, "add", first).returncode == 0
    second = box["tmp"] / "two.csv"
    second.write_text(first.read_text().replace("2300.5,94.0,3.3", "2310.5,94.0,3.3"))
    assert perfwh(box, "add", second, "--revision-of", "one.csv").returncode == 0
    again = box["tmp"] / "one-again.csv"
    shutil.copyfile(first, again)
    done = perfwh(box, "check", again)
    assert done.returncode == 1 and "later retired (replaced by two.csv" in done.stderr
    rows = subprocess.run(PERFWH + ["template", "--rows-of", "one.csv", "--db", str(box["db"])],
                          capture_output=True, text=True)  # filed, but its numbers are out
    assert rows.returncode == 1 and "no measurements of the source 'one.csv'" in rows.stderr


# -- warehouses that are not one, and --json ------------------------------------------------

@pytest.mark.parametrize("command", [["sql", "SELECT 1"], ["models"], ["template", "--rows-of", "x.txt"],
                                     ["size", "--scenario", "x", "--size", "2k", "--rate", "5"],
                                     ["findings", "--rules", "duckdb"]])
def test_db_that_is_no_warehouse_is_one_line(tmp_path, command):
    text = tmp_path / "text.duckdb"
    text.write_text("hello")
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).close()
    for db, says in ((text, "not a DuckDB database"), (other, "not a perfwh warehouse"),
                     (tmp_path / "none.duckdb", "no warehouse there")):
        done = subprocess.run(PERFWH + command + ["--db", str(db)], capture_output=True, text=True)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_warehouse_another_version_built_is_named_with_what_to_run(box):
    """A unit added to ingest/units.py since the warehouse was built is unknown to its staging:
    check and add say the warehouse is another version's, what differs and what to run (not
    "N values parsed but M facts built"), and the add leaves everything as it was."""
    con = duckdb.connect(str(box["db"]))
    con.execute("DELETE FROM ref_units WHERE token IN ('msgs/s', 'GiB')")
    con.execute("UPDATE ref_topologies SET label = 'renamed' WHERE topology = 'dr_pair'")
    con.close()
    path = three_sizes(box["tmp"] / "new.csv", "stale box")
    path.write_text(path.read_text().replace(",2300.5,", ",2300.5 msgs/s,"))
    before = state(box)
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "built by another version of perfwh" in done.stderr, done.stderr
        assert "ref_units lacks 'GiB' (size), 'msgs/s' (rate)" in done.stderr, done.stderr
        assert "ref_topologies differs in 'dr_pair'" in done.stderr and "`make`" in done.stderr
        assert "facts built" not in done.stderr
    assert state(box) == before


def test_a_warehouse_of_other_schema_files_is_named_with_them(box):
    """Its views and macros are those of the schema files it was built from (a rule calling a
    macro added since would fail in it): the files that differ are named."""
    con = duckdb.connect(str(box["db"]))
    con.execute("UPDATE ref_schema_files SET sha256 = repeat('0', 64) WHERE file = 'schema/50_dq.sql'")
    con.execute("DELETE FROM ref_schema_files WHERE file = 'schema/dictionary.yml'")
    con.close()
    path = three_sizes(box["tmp"] / "new.csv", "schema box")
    for command in ("check", "add"):
        done = perfwh(box, command, path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert ("the schema (schema/): ref_schema_files lacks 'schema/dictionary.yml', differs in "
                "'schema/50_dq.sql'") in done.stderr, done.stderr


def test_the_reports_warehouse_has_this_codes_reference_tables(wh):
    from perfwh.warehouse.load import reference_drift
    assert reference_drift(wh) == []


def test_json_output_stays_json_on_usage_errors(built_warehouse, tmp_path):
    for args in (["size", "--json", "--scenario", "x", "--size", "2k", "--rate", "5", "--utilisation", "0"],
                 ["size", "--json", "--size", "2k", "--rate", "5"],
                 ["check", "--json", str(tmp_path)]):
        done = subprocess.run(PERFWH + args + ["--db", str(built_warehouse)], capture_output=True, text=True)
        assert done.returncode == 2
        assert "error" in json.loads(done.stdout), done.stdout


def test_sql_refuses_a_query_with_no_statement_and_a_zero_memory_limit(built_warehouse):
    for args, says in ((["sql", ";"], "the query is empty"), (["sql", "-- a comment"], "the query is empty"),
                       (["sql", "SELECT 1", "--memory-limit", "0"], "at least 1MB")):
        done = subprocess.run(PERFWH + args + ["--db", str(built_warehouse)], capture_output=True, text=True)
        assert done.returncode == 2 and says in done.stderr, done.stderr


# -- stopped at the commit point ------------------------------------------------------------

def test_ctrl_c_during_the_renames_waits_for_them(tmp_path, capsys):
    """Past the commit point a Ctrl-C (or SIGTERM) is held until every rename is done: the
    change lands now, whole, and the command says so."""
    targets = [tmp_path / f"file{n}" for n in range(3)]
    with Transaction(tmp_path) as transaction:
        for n, target in enumerate(targets):
            transaction.stage_text(target, f"new {n}")
        import perfwh.core.commit as commit

        real_put = commit._put

        def interrupted_put(staged, target, *old):
            if target.name == "file1":
                os.kill(os.getpid(), signal.SIGINT)
            real_put(staged, target, *old)

        commit._put = interrupted_put
        try:
            transaction.commit()
        finally:
            commit._put = real_put
    assert [t.read_text() for t in targets] == ["new 0", "new 1", "new 2"]
    assert not (tmp_path / JOURNAL).exists()
    assert "committed whole" in capsys.readouterr().err


class InterruptedRead:
    """A DuckDB connection on which reading the submission's CSV is stopped by Ctrl-C: DuckDB
    then raises its own InterruptException, not KeyboardInterrupt."""

    def __init__(self, con):
        self._con = con

    def __getattr__(self, name):
        return getattr(self._con, name)

    def sql(self, query, *args, **kwargs):
        if "read_csv" in query:
            raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")
        return self._con.sql(query, *args, **kwargs)


@pytest.mark.parametrize("command", ["add", "check"])
def test_ctrl_c_while_duckdb_reads_the_csv_is_an_interruption_not_bad_input(box, monkeypatch, capsys, command):
    """DuckDB's report of a stopped read is not the file's fault: the command ends as
    interrupted (130), files nothing and does not blame the CSV."""
    from perfwh.cli import EXIT_INTERRUPTED, main

    path = three_sizes(box["tmp"] / "stopped.csv", "stopped box")
    before = state(box)
    real = submission._read_cells
    monkeypatch.setattr(submission, "_read_cells", lambda con, *args: real(InterruptedRead(con), *args))
    status = main([command, str(path), "--db", str(box["db"]), "--sources", str(box["sources"])])
    err = capsys.readouterr().err
    assert status == EXIT_INTERRUPTED, err
    assert "interrupted" in err and "cannot be read" not in err, err
    assert state(box) == before


def test_a_command_that_failed_because_it_was_stopped_ends_as_stopped(box, monkeypatch, capsys):
    """Whatever error a stopped step reported (here the reader blames the file), once Ctrl-C
    came the command's status is 130, as a script waiting on it expects."""
    from perfwh.cli import EXIT_INTERRUPTED, main

    def stopped_then_blamed(*_args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            raise ParseError("cannot be read as CSV (Query interrupted)", 2) from None
        raise AssertionError("SIGINT did not arrive")

    path = three_sizes(box["tmp"] / "blamed.csv", "blamed box")
    before = state(box)
    monkeypatch.setattr(submission, "_read_cells", stopped_then_blamed)
    status = main(["add", str(path), "--db", str(box["db"]), "--sources", str(box["sources"])])
    assert status == EXIT_INTERRUPTED, capsys.readouterr().err
    assert state(box) == before


def test_a_reader_finishes_a_commit_a_killed_writer_left(box, monkeypatch):
    """SIGKILL after the journal: the next reader (sql, check, size) finishes the renames
    when no writer is running, so that it does not read half of the change."""
    add_killed_after_its_first_rename(box, three_sizes(box["tmp"] / "cut.csv", "cut box"), monkeypatch)
    done = subprocess.run(PERFWH + ["sql", "SELECT count(*) FROM measurements WHERE source = 'cut.csv'",
                                    "--db", str(box["db"])], capture_output=True, text=True)
    assert done.returncode == 0 and " 3" in done.stdout, done.stdout + done.stderr
    assert not (box["db"].parent / JOURNAL).exists()
    assert (box["raw"] / "submissions" / "cut.csv").exists()
    assert "cut.csv" in box["sources"].read_text()


def test_scratch_folders_of_killed_checks_are_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = Path(tempfile.gettempdir()) / f"perfwh-check-{dead.pid}-abandoned"
    left.mkdir()
    (left / "scratch.duckdb").write_text("x")
    with scratch_directory("check") as mine:
        assert mine.is_dir() and f"perfwh-check-{os.getpid()}-" in mine.name
    assert not left.exists() and not mine.exists()


# -- the vocabulary -------------------------------------------------------------------------

VOCABULARY = """product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg
ACME,1.0,lab,8,Echo A,1024,false,cores,2,,1000.00,,1.000
ACME,1.0,lab,8,Echo A,2048,false,none,,,900.00,,1.100
ACME,1.0,lab,8,Echo A,4096,false,Docker-Cores,2,,800.00,,1.200
ACME,1.0,lab,8,Echo B,1024,false,Integration Servers,2,,1000.00,,1.000
ACME,1.0,lab,8,Echo B,2048,false,integration_servers,2,,900.00,,1.100
ACME,1.0,lab,8,Echo C,1024,persistant,dockr_cores,2,,1000.00,,1.000
ACME,1.0,lab,8,Echo D,1024,false,tshirt,Medum,,1000.00,,1.000
ACME,1.0,lab,8,Echo E,1024,maybe,docker_cores,2,,1000.00,,1.000
"""


def test_common_words_are_read_with_a_note_and_unknown_ones_name_the_nearest(tmp_path, built_warehouse):
    """"cores" is what docker_cores counts (the cores the runtime was given), "none" a blank
    kind, "Integration Servers" ACE's name for execution groups: read, each with a note; a
    spelling of a name or label ("Docker-Cores") silently; an unknown word is refused naming
    the nearest documented one where one is near (not "maybe": no slip of "false")."""
    from perfwh.stages.check import checked

    path = tmp_path / "words.csv"
    path.write_text(VOCABULARY)
    with checked(path, warehouse=built_warehouse) as (result, con):
        kinds = dict(con.sql("SELECT DISTINCT source_line, concurrency_kind FROM measurements "
                             "WHERE source = ? ORDER BY ALL", params=[path.name]).fetchall())
    assert kinds == {2: "docker_cores", 3: None, 4: "docker_cores", 5: "execution_groups",
                     6: "execution_groups"}
    assert result.notes == [
        "concurrency_kind 'cores' read as docker_cores (CPU cores the container may use) (line 2)",
        "concurrency_kind 'none' read as blank (no concurrency counted) (line 3)",
        "concurrency_kind 'Integration Servers' read as execution_groups (execution groups, one flow "
        "instance each) (line 5)",
        "concurrency_kind 'integration_servers' read as execution_groups (execution groups, one flow "
        "instance each) (line 6)"]
    refused = {(f["source_line"], f["metric"]): f["message"] for f in result.errors}
    assert set(refused) == {(7, "persistent"), (7, "concurrency_kind"), (8, "concurrency"), (9, "persistent")}
    assert "(the nearest documented word: docker_cores)" in refused[(7, "concurrency_kind")]
    assert "(the nearest documented word: persistent)" in refused[(7, "persistent")]
    assert "(the nearest documented word: Medium)" in refused[(8, "concurrency")]
    # no slip of any word: none is put in the file's mouth, the documented words are listed
    assert "nearest" not in refused[(9, "persistent")]
    assert "expected one of true, yes, y, 1, persistent, false, no" in refused[(9, "persistent")]


def nearest_named(column: str, cell: str) -> list[str]:
    """The nearest documented words the reader names for ``cell`` in ``column`` of a T-shirt
    row (none where the cell is a word of the vocabulary or nothing is near it)."""
    row = dict(product="ACME", product_version="1.0", platform="OpenShift", scenario="Echo",
               persistent="false", concurrency_kind="tshirt", concurrency="Small", msg_rate="1000")
    out = io.StringIO()
    submission.write_rows([dict(row, **{column: cell})], out)
    rejects, _observations = staged(out.getvalue())
    return [problem.split("(the nearest documented word: ", 1)[1].rstrip(")")
            for _line, _column, problem in rejects if "nearest documented word" in problem]


@pytest.mark.parametrize("column, cell, nearest", [
    ("concurrency", "7", []), ("concurrency", "X", []), ("concurrency", "XL", []),
    ("persistent", "2", []), ("persistent", "10", []), ("persistent", "O", []), ("concurrency_kind", "2", []),
    ("persistent", "yse", ["yes"]), ("persistent", "ye", ["yes"]), ("persistent", "n0", ["no"]),
    ("concurrency", "Smal", ["Small"]), ("concurrency_kind", "tshrit", ["tshirt"]),
])
def test_a_short_word_is_named_near_only_where_it_is_a_slip(column, cell, nearest):
    """At most half the letters of the documented word and of the cell changed, two neighbours
    swapped being one change: a word of one letter (s for Small, y for yes) is near nothing but
    itself, so "7", "X" or "2" is refused with the documented words alone - a digit is no slip
    of a letter, nor XL of L - while "yse" and "ye" are slips of yes."""
    assert nearest_named(column, cell) == nearest


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["concurrency", "persistent", "concurrency_kind"]),
       st.characters(min_codepoint=33, max_codepoint=126))
def test_one_character_is_named_the_slip_of_no_word(column, char):
    """A one-character cell is a documented word (s, y, 1) or refused without a nearest word:
    changing its one character would change all of it ("o" is no slip of no, nor "2" of y)."""
    assert nearest_named(column, char) == []


def _keys_of(rows: list[tuple[str, str, str | None]]) -> dict[tuple, tuple[str, str]]:
    """(product, platform, cores) -> (product_key, platform_key) as the reader keys them."""
    import tempfile

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["product", "product_version", "platform", "server_cores", "scenario",
                     "message_size_bytes", "msg_rate"])
    for n, (product, platform, cores) in enumerate(rows):
        writer.writerow([product, "1.0", platform, cores or "", "Key Echo", 1024 * (n + 1), 1000])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "keys.csv"
        path.write_text(text.getvalue(), encoding="utf-8")
        con = duckdb.connect()
        submission.stage(con, path, "keys.csv", None, Path(folder))
        return {(product, platform, cores or None): (pk, fk) for product, platform, cores, pk, fk in con.sql(
            "SELECT product, platform, CAST(cores AS VARCHAR), product_key, platform_key FROM sub_keys").fetchall()}


def _same(name: str) -> str:
    """A name with case and runs of spaces set aside (the names here hold no other space)."""
    return " ".join(part for part in name.split(" ") if part).lower()


NAME = st.text("aAbB _-1.Бб", min_size=1, max_size=6).filter(lambda s: s.strip() == s)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(NAME, NAME, st.sampled_from([None, "4", "8"])), min_size=1, max_size=6,
                unique_by=lambda r: (_same(r[0]), _same(r[1]), r[2])))
def test_names_share_a_key_only_when_they_spell_the_same_name(rows):
    """Two platforms (or products) share a key exactly when their names differ at most in case
    and spacing (and, for platforms, their cores agree): "box_1" and "box-1", or two names of
    Cyrillic letters, whose slugs are alike, stay apart."""
    keys = _keys_of(rows)
    for a in keys:
        for b in keys:
            same_product = _same(a[0]) == _same(b[0])
            same_machine = _same(a[1]) == _same(b[1]) and a[2] == b[2]
            assert (keys[a][0] == keys[b][0]) == same_product, (a, b, keys[a], keys[b])
            assert (keys[a][1] == keys[b][1]) == same_machine, (a, b, keys[a], keys[b])


def test_names_alike_but_for_their_punctuation_or_script_are_filed_apart(box):
    """box_1 and box-1, Сервер А and Сервер Б: four platforms, each under its own name."""
    path = box["tmp"] / "alike.csv"
    path.write_text(
        "product,product_version,platform,server_cores,scenario,message_size_bytes,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n"
        "ACE,12.0.9.0,box_1,4,Slug Echo,1024,2000,80.0,1.6\n"
        "ACE,12.0.9.0,box-1,4,Slug Echo,2048,1900,80.0,1.684\n"
        "ACE,12.0.9.0,Сервер А,4,Slug Echo,1024,2000,80.0,1.6\n"
        "ACE,12.0.9.0,Сервер Б,4,Slug Echo,2048,1900,80.0,1.684\n", encoding="utf-8")
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr + done.stdout
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        got = con.sql("SELECT source_line, platform FROM measurements WHERE source = 'alike.csv' "
                      "ORDER BY source_line").fetchall()
    finally:
        con.close()
    assert got == [(2, "box_1"), (3, "box-1"), (4, "Сервер А"), (5, "Сервер Б")]


def test_a_tshirt_row_with_replicas_blank_ran_one_replica_as_the_reports_count_it():
    """The template leaves replicas blank if one: a T-shirt row so is filed with 1 replica, as
    ACE 13's rows are (a query for replicas = 1 finds both); a row of another kind, whose
    reports print no replicas, keeps it blank."""
    text = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
            "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n"
            "ACE,13.0.1.0,my cluster,,Rep Echo,2048,false,tshirt,Small,,1000,,0.47\n"
            "ACE,13.0.1.0,my cluster,,Rep Echo,4096,false,tshirt,Small,2,1000,,0.47\n"
            "ACE,13.0.1.0,my cluster,,Rep Echo,8192,false,docker_cores,2,,1000,,0.47\n")
    con = duckdb.connect()
    with tempfile.TemporaryDirectory(prefix="perfwh-staged-") as folder:
        path = Path(folder) / "replicas.csv"
        path.write_text(text, encoding="utf-8")
        submission.stage(con, path, path.name, None, Path(folder))
        got = con.sql("SELECT DISTINCT row_line, concurrency_kind, replicas FROM sub_observations "
                      "ORDER BY row_line").fetchall()
    assert got == [(2, "tshirt", 1), (3, "tshirt", 2), (4, "docker_cores", None)]
