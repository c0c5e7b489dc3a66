"""Property test: random mutations of the real tables, fed to each family's pure parser.

Every outcome must be rows or a clean `ParseError` naming a line - never another exception -
and when rows come back, no number is silently wrong: every table row whose line the
mutation did not touch is still there, with the same metrics, printed cells and numbers
as in the parse of the unmutated report.

The mutations work on the report's own lines (mostly the tables and their headings): delete,
duplicate or swap lines, delete, insert or replace characters, replace tokens, change units,
truncate. Lines keep their original numbers in a side table so a row can be followed through
the renumbering that deleting or duplicating lines causes.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest import families
from ingest.reader import read_lines
from ingest.records import Line, ParsedReport, ParseError
from perfwh.core.paths import RAW_DIR, SOURCES_FILE
from perfwh.warehouse.sources import find_raw, load_manifest

SOURCES = {s.family: s.file for s in load_manifest(SOURCES_FILE)}
FAMILIES = list(families.families())  # the registry: every report family

# What a mutation may put into a line.
CHARACTERS = "0123456789.,-+ \t|/%:#*kKMBbsμµxX"
TOKENS = ["", "0", "1.5", "999999", ".5", "5.", "1,000", "1e5", "NaN", "-3", "2k", "20kB", "2kX",
          "476.71 ns", "abc", "|", "-", "μs", "ms", "K", "M", "/s", "yes", "no", "Small", "1:10"]
UNIT_SWAPS = {"μs": ["ms", "s", "ns", "us"], "ms": ["μs", "s", "ns"], "kB": ["MB", "KB", "B", "kX"],
              "b": ["B", "kB", "x"], "k": ["K", "M", "kX"], "K": ["M", "G", ""], "M": ["K", "G"],
              "/s": ["/m", ""], "B": ["kB", "b", "Q"], "MB": ["GB", "kB"]}


@dataclass(frozen=True)
class Report:
    family: str
    source: str
    lines: tuple[Line, ...]
    rows: dict[int, Counter]  # row line -> its values as parsed from the unmutated report
    targets: tuple[int, ...]  # 0-based indexes of table lines (headings, headers, rows)


def values(parsed: ParsedReport, number_of) -> dict[int, Counter]:
    """Row line (mapped through ``number_of``) -> Counter of (metric, printed, number, unit)."""
    out: dict[int, Counter] = {}
    for o in parsed.observations:
        line = number_of(o.row_line)
        out.setdefault(line, Counter())[(o.metric, o.value.printed, o.value.number,
                                        o.value.unit)] += 1
    return out


@lru_cache(maxsize=None)
def report(family: str) -> Report:
    source = SOURCES[family]
    lines = tuple(read_lines(find_raw(RAW_DIR, source)))  # a text report's, or a PDF's
    parsed = families.parse(family, lines, source)
    rows = values(parsed, lambda n: n)
    targets = set()
    for table in parsed.tables:
        last = max(o.row_line for o in parsed.observations if o.table_key == table.table_key)
        targets.update(range(table.heading_line - 2, last + 2))
    return Report(family, source, lines, rows,
                  tuple(sorted(i - 1 for i in targets if 1 <= i <= len(lines))))


# ------------------------------------------------------------------------------ mutations

class Mutated:
    """The mutated document as [(original line number or None, text)], the original numbers
    of the lines a mutation changed, removed or copied, and what was done (its repr)."""

    def __init__(self, doc, touched, ops):
        self.doc, self.touched, self.ops = doc, touched, ops

    def __repr__(self) -> str:
        return "Mutated(" + "; ".join(self.ops) + ")"


@st.composite
def mutated(draw, family: str) -> Mutated:
    base = report(family)
    doc: list[tuple[int | None, str]] = [(line.number, line.text) for line in base.lines]
    touched: set[int] = set()
    ops: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        if not doc:
            break
        near_tables = [i for i in base.targets if i < len(doc)]
        if near_tables and draw(st.integers(0, 9)) > 0:
            index = draw(st.sampled_from(near_tables))
        else:
            index = draw(st.integers(0, len(doc) - 1))
        number, text = doc[index]
        op = draw(st.sampled_from(["delete_line", "duplicate_line", "swap_lines", "delete_char",
                                   "insert_char", "replace_char", "replace_token", "change_unit",
                                   "truncate", "insert_blank"]))
        if number is not None:
            touched.add(number)
        before = text
        if op == "delete_line":
            del doc[index]
        elif op == "duplicate_line":
            doc.insert(index + 1, (None, text))
        elif op == "insert_blank":
            doc.insert(index + draw(st.integers(0, 1)), (None, ""))
        elif op == "swap_lines":
            other = min(len(doc) - 1, max(0, index + draw(st.integers(-3, 3))))
            if doc[other][0] is not None:
                touched.add(doc[other][0])
            doc[index], doc[other] = doc[other], doc[index]
        elif op == "truncate":
            cut = draw(st.integers(0, len(text)))
            doc[index:] = [(number, text[:cut])]
        elif op in ("delete_char", "insert_char", "replace_char"):
            pos = draw(st.integers(0, max(0, len(text) - (op != "insert_char"))))
            char = draw(st.sampled_from(CHARACTERS))
            if op == "delete_char":
                text = text[:pos] + text[pos + 1:]
            elif op == "insert_char":
                text = text[:pos] + char + text[pos:]
            else:
                text = text[:pos] + char + text[pos + 1:]
            doc[index] = (number, text)
        elif op == "replace_token":
            parts = re.split(r"(\s+|\|)", text)
            spots = [i for i, p in enumerate(parts) if p.strip() and p != "|"]
            if spots:
                spot = draw(st.sampled_from(spots))
                parts[spot] = draw(st.sampled_from(TOKENS))
            doc[index] = (number, "".join(parts))
        elif op == "change_unit":
            units = [m for m in re.finditer(r"(?<=[\d ])(μs|ms|kB|MB|/s|b|k|K|M|B)\b", text)]
            if units:
                unit = draw(st.sampled_from(units))
                new = draw(st.sampled_from(UNIT_SWAPS[unit.group(1)]))
                text = text[:unit.start()] + new + text[unit.end():]
            doc[index] = (number, text)
        after = doc[index][1] if index < len(doc) else None
        ops.append(f"{op} at line {number} (index {index}): {before!r} -> {after!r}")
    return Mutated(doc, touched, ops)


def check(family: str, doc: list[tuple[int | None, str]], touched: set[int]) -> None:
    base = report(family)
    lines = [Line(i, text) for i, (_, text) in enumerate(doc, 1)]
    try:
        parsed = families.parse(family, lines, base.source)
    except ParseError as err:
        # a clean error: it names the file, and a line of the document when it names one
        assert err.source == base.source
        assert err.line is None or 1 <= err.line <= max(1, len(lines)), str(err)
        assert err.message
        return
    original = {i: number for i, (number, _) in enumerate(doc, 1)}
    got = values(parsed, lambda n: original.get(n))
    # no number from nowhere: every parsed row is a line of the report (or a copied line)
    for number, counter in got.items():
        if number is None or number in touched:
            continue
        assert number in base.rows, f"line {number} is not a table row of the report"
        assert counter == base.rows[number], f"line {number}: {counter} != {base.rows[number]}"
    # no row silently lost: every untouched row is still read, with the same values
    present = {number for number, _ in doc}
    for number, counter in base.rows.items():
        if number in touched or number not in present:
            continue
        assert got.get(number) == counter, f"row at line {number} lost or changed"


def _property(family: str):
    @settings(max_examples=150, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(case=mutated(family))
    def run(case):
        check(family, case.doc, case.touched)
    return run


@pytest.mark.parametrize("family", FAMILIES)
def test_mutations_give_rows_or_a_clean_error(family):
    assert report(family).rows  # the unmutated report parses, with rows
    _property(family)()


@pytest.mark.parametrize("family", FAMILIES)
def test_the_unmutated_report_passes_the_check(family):
    """The check itself accepts the unmutated report and refuses a changed number."""
    base = report(family)
    doc = [(line.number, line.text) for line in base.lines]
    check(family, doc, set())
    row = min(n for n in base.rows if re.search(r"\d\.\d", doc[n - 1][1]))
    index = row - 1
    text = doc[index][1]
    match = list(re.finditer(r"\d+\.\d+", text))[-1]
    changed = text[:match.start()] + str(float(match.group(0)) + 1) + text[match.end():]
    doc[index] = (row, changed)
    with pytest.raises(AssertionError):
        check(family, doc, set())  # the changed row is not declared touched: caught
    check(family, doc, {row})


# Text made of what labels hold: letters, spaces and tabs, tags, and every string the clean-up
# replaces (mojibake, no-break and thin spaces, curly quotes).
LABEL_PIECES = st.sampled_from(["a", "Z", "9", " ", "  ", "\t", "<b>", "</b>", "<br/>", "< b", "x>y",
                                "–", "¬", "†", "–¬†", "¬†–", "¬†", "\u00a0", "\u2002", "\u2003",
                                "\u2009", "\u202f", "\u2018", "\u2019", "\u201c", "\u201d", "é"])


@lru_cache(maxsize=None)
def parsed_whole(family: str, lines: tuple[Line, ...]) -> tuple:
    """Everything a parse gives - each row with all its keys (table, scenario, persistence,
    configuration, line, page), each table, scenario and claim - as plain tuples."""
    import dataclasses

    parsed = families.parse(family, list(lines), SOURCES[family])
    return tuple([dataclasses.astuple(x) for x in things]
                 for things in (parsed.observations, parsed.tables, parsed.scenarios, parsed.claims))


WHITESPACE_EDITS = {"a tab at its end": lambda t: t + "\t", "a space at its end": lambda t: t + " ",
                    "a space before it": lambda t: " " + t, "a space doubled": lambda t: t.replace(" ", "  ", 1)}


def _edited(lines: tuple[Line, ...], index: int, edit: str) -> tuple[Line, ...]:
    import dataclasses

    changed = list(lines)
    changed[index] = dataclasses.replace(lines[index], text=WHITESPACE_EDITS[edit](lines[index].text))
    return tuple(changed)


@pytest.mark.parametrize("family", FAMILIES)
def test_whitespace_another_editor_adds_changes_nothing_a_report_says(family):
    """A tab after a heading (WBIMB's "10.9.1.1 One Subscriber Results" was read as an entry of the
    contents, and its table filed under the heading above it), a paragraph indented or doubly
    spaced (MessageSight's LATENCY lost its persistence): whitespace an editor adds to a line
    changes no row, key, table, scenario or claim of any family's report. Every table's heading
    and every line that begins a scenario's description gets each edit; other lines, a sample."""
    from ingest.text import clean_text

    base = report(family)
    whole = parsed_whole(family, base.lines)
    parsed = families.parse(family, list(base.lines), base.source)
    headings = {t.heading_line for t in parsed.tables}
    openings = [d for d in (sc.description for sc in parsed.scenarios) if d]
    key = [i for i, line in enumerate(base.lines) if line.number in headings or (
        len(clean_text(line.text)) >= 12 and any(d.startswith(clean_text(line.text)[:40]) for d in openings))]
    assert key
    for index in key:
        for edit in WHITESPACE_EDITS:
            assert parsed_whole(family, _edited(base.lines, index, edit)) == whole, \
                f"{edit} on line {base.lines[index].number}: {base.lines[index].text!r}"
    written = [i for i, line in enumerate(base.lines) if line.text.strip()]

    @settings(max_examples=40, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(index=st.sampled_from(written), edit=st.sampled_from(sorted(WHITESPACE_EDITS)))
    def run(index, edit):
        assert parsed_whole(family, _edited(base.lines, index, edit)) == whole, \
            f"{edit} on line {base.lines[index].number}"

    run()


@settings(max_examples=300, deadline=None)
@given(st.lists(LABEL_PIECES, max_size=20).map("".join))
def test_clean_text_skips_only_steps_that_change_nothing(text):
    """`clean_text` skips the replacements for ASCII text and the tag removal for text without
    "<": the same result as every step applied to every text."""
    from ingest.text import _REPLACEMENTS, _SPACES, _TAGS, clean_text

    expected = text
    for bad, good in _REPLACEMENTS:
        expected = expected.replace(bad, good)
    expected = _SPACES.sub(" ", _TAGS.sub("", expected)).strip()
    assert clean_text(text) == expected


_CELLS = {
    "BIGINT": st.none() | st.integers(-2 ** 63, 2 ** 63 - 1),
    "DOUBLE": st.none() | st.floats(allow_nan=False) | st.integers(-2 ** 53, 2 ** 53),
    "VARCHAR": st.none() | st.text(),  # any text, a lone surrogate too (undecodable file names)
    "DECIMAL(18,3)": st.none() | st.decimals(min_value=-10 ** 14, max_value=10 ** 14, places=3,
                                             allow_nan=False, allow_infinity=False),
    "BOOLEAN": st.none() | st.booleans(),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.fixed_dictionaries({f"c {kind}": cell for kind, cell in _CELLS.items()}),
                min_size=1, max_size=30))
def test_insert_rows_stores_the_same_rows_through_arrow_as_through_list_parameters(monkeypatch, rows):
    """A big insert goes through Arrow, a small one through list parameters: the table holds
    the same rows either way, or both refuse the rows alike."""
    import duckdb

    from perfwh.warehouse import db

    def stored(arrow_from: int):
        monkeypatch.setattr(db, "ARROW_ROWS", arrow_from)
        con = duckdb.connect()
        con.execute("CREATE TABLE t (" + ", ".join(f'"c {kind}" {kind}' for kind in _CELLS) + ")")
        try:
            db.insert_rows(con, "t", rows)
        except duckdb.Error as err:
            return type(err)
        return con.execute("SELECT * FROM t ORDER BY rowid").fetchall()

    assert stored(1) == stored(10 ** 9)
