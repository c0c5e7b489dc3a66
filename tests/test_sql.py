"""`perfwh sql`: read-only, interruptible, bounded, and values as DuckDB renders them."""
from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
import sys
import time
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from perfwh.core.paths import PROJECT_ROOT
from perfwh.core.values import dumps

PERFWH = [sys.executable, "-m", "perfwh.cli"]
SLOW = "SELECT count(*) FROM range(200000) a, range(100000) b WHERE (a.range * b.range) % 7 = 3"


def sql(db, *args) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + ["sql", *map(str, args), "--db", str(db)],
                          capture_output=True, text=True, timeout=120)


def test_values_print_as_duckdb_renders_them(built_warehouse):
    done = sql(built_warehouse, "SELECT 1362.3::DOUBLE AS rate, 0.1::DOUBLE + 0.2::DOUBLE AS noisy, "
                                "DATE '2013-04-22' AS day, [1, 2] AS list, NULL AS nothing")
    assert done.returncode == 0, done.stderr
    values = done.stdout.splitlines()[2]
    assert re.split(r"\s*\|\s*", values.strip()) == ["1362.3", "0.30000000000000004", "2013-04-22",
                                                     "[1, 2]", "NULL"]
    as_csv = sql(built_warehouse, "--csv", "SELECT 7.3::DOUBLE AS x, NULL AS y")
    assert as_csv.stdout == "x,y\n7.3,\n"
    as_json = json.loads(sql(built_warehouse, "--json", "SELECT 'nan'::DOUBLE AS x, 2 AS y").stdout)
    assert as_json == [{"x": "nan", "y": 2}]  # valid JSON: NaN as DuckDB's text, which null is not


def test_json_holds_every_type_json_has_no_value_for_as_duckdb_renders_it(built_warehouse):
    """Intervals, UUIDs and time-zoned timestamps (alone or in a list) come out as the text the
    table output shows; numbers, booleans and dates as they are; a repeated column name with
    a suffix (a, a_1), so that no column is lost."""
    text = ("SELECT INTERVAL 3 DAY AS a, TIMESTAMPTZ '2020-01-01 10:00:00+00' AS a, "
            "'8a68ba3c-2c16-4a5b-8886-f059e0ea6d16'::UUID AS u, [INTERVAL 1 DAY] AS l, "
            "'101'::BIT AS b, 1.5 AS x, true AS y, DATE '2020-01-02' AS d, "
            "TIMESTAMPTZ_NS '2020-01-01 10:00:00+00' AS n, "
            "TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS ns")
    done = sql(built_warehouse, "--json", text)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    table = re.split(r"\s*\|\s*", sql(built_warehouse, text).stdout.splitlines()[2].strip())
    assert json.loads(done.stdout) == [{"a": "3 days", "a_1": table[1], "u": table[2], "l": table[3],
                                        "b": table[4], "x": 1.5, "y": True, "d": "2020-01-02",
                                        "n": table[8], "ns": "2024-01-02 03:04:05.123456789"}]
    assert table[0] == "3 days" and table[1].startswith("2020-01-01")


def test_json_keys_are_the_names_the_query_wrote_and_infinity_stays_infinity(built_warehouse):
    """A repeated name's suffix never takes a name the query wrote (the key a_1 holds the
    column named a_1); an infinite date or timestamp is 'infinity', as the table shows it, not
    the 9999-12-31 Python's date would make of it; a finite one stays ISO 8601."""
    done = sql(built_warehouse, "--json", "SELECT 1 AS a, 2 AS a, 3 AS a_1, 'infinity'::DATE AS i, "
                                          "'-infinity'::TIMESTAMP AS j, DATE '2020-01-02' AS d, "
                                          "TIMESTAMP '2020-01-02 03:04:05' AS t")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"a": 1, "a_2": 2, "a_1": 3, "i": "infinity", "j": "-infinity",
                                        "d": "2020-01-02", "t": "2020-01-02T03:04:05"}]


def test_json_tells_nan_and_infinite_doubles_from_null_and_prints_a_float_as_duckdb_does(built_warehouse):
    """A NaN or infinite double is DuckDB's text of it, as the table shows it (null would read as
    a NULL, which is another value); a FLOAT has the digits DuckDB prints (0.1), not those of the
    double it widens to (0.10000000149011612); a finite double stays a number."""
    done = sql(built_warehouse, "--json", "SELECT 'nan'::DOUBLE AS a, '-inf'::DOUBLE AS b, NULL::DOUBLE AS c, "
                                          "0.1::FLOAT AS f, 'inf'::FLOAT AS g, 1.5::DOUBLE AS d")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout, parse_float=Decimal) == [
        {"a": "nan", "b": "-inf", "c": None, "f": Decimal("0.1"), "g": "inf", "d": Decimal("1.5")}]
    table = sql(built_warehouse, "SELECT 'nan'::DOUBLE AS a, '-inf'::DOUBLE AS b, 0.1::FLOAT AS f")
    assert table.stdout.splitlines()[2].split() == ["nan", "|", "-inf", "|", "0.1"], table.stdout


def test_csv_quotes_a_cell_holding_a_carriage_return(built_warehouse):
    """A lone \\r in a cell is quoted: a reader would otherwise end the row there."""
    done = subprocess.run(PERFWH + ["sql", "--csv", "--db", str(built_warehouse),
                                    "SELECT 'a' || chr(13) || 'b' AS x, 2 AS y, 'p' || chr(10) || 'q' AS z"],
                          capture_output=True, timeout=120)  # bytes: text mode would read \r as \n
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["x", "y", "z"], ["a\rb", "2", "p\nq"]]
    assert text.endswith('"p\nq"\n') and "\r\n" not in text


def test_json_keeps_every_digit_of_a_decimal(built_warehouse):
    """A DECIMAL (a cast, a sum of decimals) comes out with every digit it holds, where a float
    would round it past its 17th significant digit; trailing zeros of its scale aside."""
    done = sql(built_warehouse, "--json", "SELECT CAST('0.12345678901234567891' AS DECIMAL(38, 20)) AS d, "
                                          "1362.3::DECIMAL(38, 10) AS e, [5::DECIMAL(10, 3)] AS l, "
                                          "CAST('-123456789012345678901234567.5' AS DECIMAL(38, 1)) AS big")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout, parse_float=Decimal) == [{
        "d": Decimal("0.12345678901234567891"), "e": Decimal("1362.3"), "l": [Decimal("5.0")],
        "big": Decimal("-123456789012345678901234567.5")}]
    assert '"e": 1362.3,' in done.stdout


_JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.recursive(_JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20),
       st.sampled_from([None, 1, 2]))
def test_json_is_laid_out_as_the_standard_library_lays_it_out(value, indent):
    assert dumps(value, indent=indent) == json.dumps(value, ensure_ascii=False, indent=indent)


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_a_decimal_is_written_as_the_number_it_is(value):
    text = dumps([value])
    assert Decimal(json.loads(text, parse_float=str, parse_int=str)[0]) == value
    assert "e" not in text.lower()


def test_a_query_may_end_with_a_semicolon_and_a_comment(built_warehouse):
    """As typed into any SQL shell: the final `;` (a comment after it, a `;` inside a string)."""
    for text in ("SELECT 1 AS x; -- one", "SELECT 1 AS x /* one */ ;  ", "SELECT 1 AS x -- one"):
        done = sql(built_warehouse, "--csv", text)
        assert (done.returncode, done.stdout) == (0, "x\n1\n"), done.stderr
    assert sql(built_warehouse, "--csv", "SELECT 'a;b' AS s;").stdout == "s\na;b\n"
    assert sql(built_warehouse, "SELECT 1; SELECT 2").returncode == 2


def test_a_value_cannot_forge_the_rows_of_the_table_printed(built_warehouse):
    """A value's line break, tab or escape shows escaped in the text table, so the table has
    its one line per row and its row count as the last line."""
    done = sql(built_warehouse, "SELECT 'ok' || chr(10) || '(1 row)' || chr(9) || chr(27) || '[2J' AS s")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["s", "-" * 22, "ok\\n(1 row)\\t\\u001b[2J", "(1 row)"]


def test_an_empty_query_is_a_usage_error(built_warehouse):
    for text in ("", "   "):
        done = sql(built_warehouse, text)
        assert done.returncode == 2 and "the query is empty" in done.stderr
        assert "Traceback" not in done.stderr


def test_errors_stay_json_with_json(built_warehouse):
    """A script that asked for --json gets JSON on stdout whatever goes wrong."""
    for text, status, words in (("SELECT nope FROM measurements", 1, "nope"),
                                ("", 2, "the query is empty")):
        done = sql(built_warehouse, "--json", text)
        answer = json.loads(done.stdout)
        assert done.returncode == status == answer["status"] and words in answer["error"]
        assert words in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_stops_a_long_query_at_once(built_warehouse):
    proc = subprocess.Popen(PERFWH + ["sql", SLOW, "--db", str(built_warehouse)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert time.monotonic() - sent < 5  # the query ran ~70 s uninterrupted before
    assert err.strip() == "perfwh sql: interrupted"  # a reader: nothing to undo, nothing said of writes


def test_timeout_and_memory_limit(built_warehouse):
    done = sql(built_warehouse, "--timeout", "1", SLOW)
    assert done.returncode == 1 and "longer than 1 s" in done.stderr
    big = sql(built_warehouse, "SELECT repeat('a', 1000000000)")
    assert big.returncode == 1 and "Out of Memory" in big.stderr and "--memory-limit" in big.stderr
    many = sql(built_warehouse, "--memory-limit", "50MB", "SELECT * FROM range(8000000)")  # Python's share
    assert many.returncode == 1 and "out of memory: the result is more than the process may hold within 50MB " \
        "(raise it with --memory-limit" in many.stderr, many.stderr
    bad = sql(built_warehouse, "--memory-limit", "lots", "SELECT 1")
    assert bad.returncode == 2 and "not a memory size" in bad.stderr  # a usage error


def test_queries_cannot_touch_other_files(built_warehouse, tmp_path):
    target = tmp_path / "out.csv"
    done = sql(built_warehouse, f"COPY (SELECT 1) TO '{target}'")
    assert done.returncode == 2 and "COPY is not a query" in done.stderr and not target.exists()


def test_the_readme_queries_run(built_warehouse):
    """Every `perfwh sql` example of the README runs; the dictionary query lists the
    warehouse's own columns, not DuckDB's."""
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r'perfwh sql(?:\s+--(?:csv|json))?\s+"((?:[^"\\]|\\.)*)"', readme, re.S)
    assert len(examples) >= 4
    for text in examples:
        done = sql(built_warehouse, " ".join(text.split()))
        assert done.returncode == 0, (text, done.stderr)
    dictionary = next(t for t in examples if "duckdb_columns" in t)
    first = sql(built_warehouse, "--csv", " ".join(dictionary.split())).stdout.splitlines()[1]
    assert first.startswith(("dim_", "fact_", "raw_", "dq_", "measurements", "metric_values",
                             "model_", "ref_", "stg_"))


def test_the_table_lines_up_names_of_wide_and_combining_characters(built_warehouse):
    """A name of wide characters (ブローカー: two terminal columns each) or with a combining accent
    takes the columns a terminal gives it: the separators of every line stand one above the other."""
    import unicodedata

    def columns(text: str) -> int:
        return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
                   for c in text)

    done = sql(built_warehouse, "SELECT * FROM (VALUES ('ブローカー', 1), ('ACE', 22), "
                                "('e' || chr(769) || 'x', 3)) t(product, n)")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines()[:-1] if "|" in line or "+" in line]
    separators = {columns(line.replace("+", "|").split("|")[0]) for line in lines}
    assert len(lines) == 2 + 3 and len(separators) == 1, done.stdout  # the header, its rule, three rows
