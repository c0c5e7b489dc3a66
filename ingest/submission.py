"""The submission reader: a CSV in the submission template, read by DuckDB into raw_ rows.

The template's columns, units and vocabulary are `ingest.vocabulary`'s (one row per measured
configuration, header on the first line, blank where not measured, extra columns allowed).
This is the one reader of submitted CSVs: the build reads a filed submission with it and
`perfwh check` reads a new one with it, into the same raw_ tables the report parsers fill, so
that every later layer and rule treats a submission and a report alike.

It is SQL-native so that a million rows stay fast: DuckDB reads the file (`stage`), one query
checks every cell against the vocabulary, and the valid cells become the raw layer's rows
(`sub_*` temporary tables, shaped like raw_observations, raw_products, ...). A cell that cannot
be read is not an exception but a row of ``sub_rejects`` (line, column, value, what was
expected), which the rules report; only a file that is not a CSV of the template at all (no
template header, undecodable bytes, a folder) raises ParseError.

Excel exports are read as they come: UTF-8 with or without a byte-order mark, UTF-16 with a
byte-order mark, Windows-1252 (Latin-1) text, comma, semicolon or tab separated. What was
assumed is said in ``CsvFormat.note``.
"""
from __future__ import annotations

import codecs
import csv
import difflib
import io
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .printable import ACTING_CATEGORIES
from .reader import refuse_workbook, text_lines
from .records import Line, ParseError
from .spreadsheet import UNMARK_SQL, csv_writer
from .units import DECIMAL_COMMA_PATTERN, LEADING_ZERO_PATTERN, NUMBER_PATTERN, UNITS
from .vocabulary import (CONCURRENCY_KINDS, FOLD_SQL, MAX_COUNT, MAX_MESSAGE_BYTES, MAX_NAME_LENGTH,
                         METRIC_COLUMNS, NAME_COLUMNS, NO_KIND_WORDS, NON_PERSISTENT_WORDS,
                         OPTIONAL_COLUMNS, PERSISTENT_WORDS, REQUIRED_COLUMNS, SCENARIO_FOLD_SQL,
                         SCENARIO_SPACES_SQL, TEMPLATE_COLUMNS,
                         TOPOLOGIES, TSHIRTS, allowed_tshirts, kind_spellings, kind_synonyms,
                         topology_spellings)

FAMILY = "submission"
DESCRIPTION = "a CSV in the perfwh submission template"
COLUMNS = TEMPLATE_COLUMNS
TABLE_KEY = "submission"
TABLE_TITLE = "Submitted results"
DELIMITERS = (",", ";", "\t")
# The most columns a header may have: the template's and a lab's own beside them (ignored).
# The reader holds a column of text for each: 2,500 read within the check's default 512 MB,
# 3,000 and ten thousand empty ones (70 KB) ran out of it, after minutes, before saying so.
MAX_COLUMNS = 2000
_CHUNK = 1 << 22


@dataclass
class CsvFormat:
    """What `sniff` found out about a CSV file before DuckDB reads it."""
    path: Path
    encoding: str                 # a Python codec name
    delimiter: str
    header: list[str]             # the header's column names, stripped
    line_count: int               # lines in the file (a last line without newline counts)
    quoted: bool                  # a double quote occurs (a quoted cell may span lines)
    blank_lines: bool             # an empty line occurs (DuckDB skips those)
    notes: list[str] = field(default_factory=list)
    header_cells: list[str] = field(default_factory=list)  # the header's cells as printed

    @property
    def note(self) -> str | None:
        return "; ".join(self.notes) or None


def _decoder_for(head: bytes) -> tuple[str, str | None]:
    """(codec, note) from the first bytes: a byte-order mark, or NUL bytes (UTF-16)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", None
    # UTF-32's little-endian mark begins with UTF-16's: test it first
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32", "read as UTF-32 text (a byte-order mark says so)"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16", "read as UTF-16 text (a byte-order mark says so), as Excel's 'Unicode text' exports"
    if b"\x00" in head:  # named at the line of the first (as far as the first 4 KB go)
        raise ParseError("contains NUL bytes but no UTF-16 byte-order mark: a binary file, or "
                         "UTF-16 text without its byte-order mark",
                         head[:head.index(b"\x00")].count(b"\n") + 1,
                         expected="a CSV saved as UTF-8, UTF-16 (with BOM) or Windows-1252 text")
    return "utf-8", None


def sniff(path: Path) -> CsvFormat:
    """Encoding, separator, header and line facts of a CSV, read in chunks (any size)."""
    path = Path(path)
    with open(path, "rb") as handle:
        head = handle.read(4096)
    refuse_workbook(head)
    codec, note = _decoder_for(head)
    notes = [note] if note else []
    try:
        facts = _scan(path, codec)
    except UnicodeDecodeError as err:
        if codec != "utf-8":
            raise ParseError(f"not valid {codec} text ({err.reason})", None,
                             expected="a CSV saved as UTF-8, UTF-16 (with BOM) or Windows-1252 text") from None
        _refuse_mixed_encodings(path)
        codec = "cp1252"
        notes.append("not UTF-8: read as Windows-1252 (Latin-1) text, as Excel on Windows saves CSV")
        try:
            facts = _scan(path, codec)
        except UnicodeDecodeError:  # bytes Windows-1252 leaves undefined
            codec = "latin-1"
            facts = _scan(path, codec)
    first_line, line_count, quoted, blank = facts
    if not first_line.strip():
        raise ParseError("the file is empty" if line_count <= 1 else "the first line is empty", 1,
                         expected="the template header on line 1: " + ",".join(TEMPLATE_COLUMNS))
    if "\r" in first_line:
        raise ParseError("its lines end with a carriage return alone (old Mac line endings), so "
                         "the whole file reads as one line", 1,
                         expected="a CSV with Windows (CR LF) or Unix (LF) line endings, e.g. "
                                  "saved again from Excel as 'CSV UTF-8'")
    delimiter = _delimiter(first_line)
    if delimiter != ",":
        notes.append(f"{'semicolon' if delimiter == ';' else 'tab'}-separated")
    try:
        cells = next(csv.reader([first_line], delimiter=delimiter))
    except csv.Error as err:
        raise ParseError(f"the header line cannot be read as CSV ({err})", 1,
                         expected="the template header on line 1: " + ",".join(TEMPLATE_COLUMNS)) from None
    if len(cells) > MAX_COLUMNS:
        raise ParseError(f"the header has {len(cells):,} columns, more than the {MAX_COLUMNS:,} a submission "
                         "may have", 1, expected=f"the template's {len(TEMPLATE_COLUMNS)} columns, and at most "
                         f"{MAX_COLUMNS - len(TEMPLATE_COLUMNS):,} of a lab's own beside them (ignored)")
    header, units = _header_units(cells)
    if units:
        notes.append(units)
    return CsvFormat(path, codec, delimiter, header, line_count, quoted, blank, notes,
                     [c.strip() for c in cells])


def _refuse_mixed_encodings(path: Path) -> None:
    """ParseError for a file that is not UTF-8 yet writes characters as UTF-8 does (rows pasted
    from two exports): read as Windows-1252, as a file that is not UTF-8 is, its UTF-8 names
    would be garbled ("Café" filed as "CafÃ©", another scenario than the same name typed in the
    other rows). Names the first line that is not UTF-8 and the first that holds UTF-8."""
    bad = good = char = None
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            if line.isascii():
                continue
            if bad is None and not _is_utf8(line):
                bad = number
            if good is None and (char := _utf8_character(line)):
                good = number
            if bad and good:
                where = "it holds UTF-8 too" if good == bad else f"line {good} is"
                raise ParseError(f"mixes two encodings: line {bad} is not UTF-8, but {where} ({char!r} "
                                 f"would read as {char.encode('utf-8').decode('cp1252', 'replace')!r}): "
                                 "read as either, the other's names would be garbled", bad,
                                 expected="the file saved in one encoding, e.g. as 'CSV UTF-8' from Excel")


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _utf8_character(line: bytes) -> str | None:
    """The first character the line writes as UTF-8 writes one of several bytes, or None."""
    text = line.decode("utf-8", errors="replace")  # U+FFFD for each byte that is no UTF-8
    return next((c for c in text if c > "\x7f" and c != "\ufffd"), None)


def _scan(path: Path, codec: str) -> tuple[str, int, bool, bool]:
    """(first line, line count, has a double quote, has an empty line), decoding as it goes."""
    decoder = codecs.getincrementaldecoder(codec)()
    first, lines, quoted, blank, previous, empty = None, 0, False, False, "\n", True
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(_CHUNK)
            text = decoder.decode(chunk, final=not chunk)
            if text:
                empty = False
                if first is None or "\n" not in first:
                    first = (first or "") + text
                quoted = quoted or '"' in text
                joined = previous + text
                blank = blank or bool(re.search(r"\n\r?\n", joined))
                lines += text.count("\n")
                previous = text[-2:]
            if not chunk:
                break
    first = (first or "").split("\n", 1)[0].rstrip("\r").lstrip("\ufeff")
    if not empty and not previous.endswith("\n"):
        lines += 1  # a last line without a newline
    return first, lines, quoted, blank


def column_name(cell: str) -> str:
    """A header cell as the template spells its column, whatever the case and the separators
    between its words ("Product", "msg rate", "CPU-ms-per-msg")."""
    return re.sub(r"[\s-]+", "_", cell.strip().strip('"').strip().lower())


# A header cell may give its column's unit after the name, as spreadsheets title columns:
# "msg_rate (msgs/s)", "CPU ms per msg [ms]".
_HEADER_UNIT = re.compile(r"^(?P<name>.*?)\s*[(\[]\s*(?P<unit>[^()\[\]]*?)\s*[)\]]$")
# The quantity of each template column a unit may follow (`ingest.units.UNITS`), and the
# names such a column has without the unit its name ends in ("message_size (bytes)").
_QUANTITY_OF = {"message_size_bytes": "size", **{m.name: m.quantity for m in METRIC_COLUMNS.values()}}
_STEMS = {c[:-len(end)]: c for c in _QUANTITY_OF for end in ("_bytes", "_pct") if c.endswith(end)}


def header_column(cell: str) -> tuple[str, str | None]:
    """(the column a header cell names, the unit it gives after the name or None). A unit is
    read only where it is one of the column's own units' spellings ("msg_rate (msgs/s)",
    "cpu_busy_pct [%]"); anything else in brackets stays part of the name."""
    name = column_name(cell)
    bracketed = None if name in TEMPLATE_COLUMNS else _bracketed(cell)
    if bracketed and bracketed[1] and bracketed[1] in UNITS[_QUANTITY_OF[bracketed[0]]]:
        return bracketed
    return name, None


def _bracketed(cell: str) -> tuple[str, str] | None:
    """(the measured column, what the brackets hold) for a header cell that names a measured
    column and then something in brackets ("msg_rate (msgs/s)", "message_size (bytes)"), else
    None."""
    found = _HEADER_UNIT.match(cell.strip().strip('"').strip())
    if not found:
        return None
    base = column_name(found.group("name"))
    base = _STEMS.get(base, base)
    return (base, found.group("unit")) if base in _QUANTITY_OF else None


def _header_units(cells: list[str]) -> tuple[list[str], str | None]:
    """The header's column names and a note on the units it gives; a unit other than the one
    the column is in ("cpu_ms_per_msg (us)") is refused: its cells, bare numbers, would be
    read in the column's own unit."""
    names, units, unknown = [], [], []
    for cell in cells:
        name, unit = header_column(cell)
        names.append(name)
        if unit is None:
            unknown += _unknown_unit(cell)
            continue
        canonical, factor = UNITS[_QUANTITY_OF[name]][unit]
        if factor != "1":
            raise ParseError(f"the header gives {name} in {unit} ({cell.strip()!r}), but the "
                             f"column is in {canonical}", 1,
                             expected=f"{name}'s numbers in {canonical}, or the unit in each cell "
                                      f"(e.g. 2.5 {unit}) and none in the header")
        units.append(f"{name} ({unit})")
    for column, unit, cell in unknown:
        if column not in names:  # beside the column itself, an extra column of a lab's own
            known = ", ".join(u for u in UNITS[_QUANTITY_OF[column]] if u)
            raise ParseError(f"the header gives {column} in {unit!r} ({cell.strip()!r}), which is not a unit "
                             f"of {column}", 1, expected=f"{column} with one of its units in brackets "
                             f"({known}), or none")
    note = f"the header's units are the columns' own: {', '.join(units)}" if units else None
    return names, note


def _unknown_unit(cell: str) -> list[tuple[str, str, str]]:
    """[(the measured column, the unit, the cell)] for a header cell `header_column` read no
    unit of, that names a measured column and, in brackets, something that is none of its
    units ("msg_rate (kmsgs/s)"); [] otherwise."""
    bracketed = None if column_name(cell) in TEMPLATE_COLUMNS else _bracketed(cell)
    return [(*bracketed, cell)] if bracketed else []


def _delimiter(header_line: str) -> str:
    """The separator that splits the header into the most template columns."""
    def hits(d: str) -> int:
        names = {header_column(c)[0] for c in header_line.split(d)}
        return len(names & set(TEMPLATE_COLUMNS))
    return max(DELIMITERS, key=lambda d: (hits(d), d == ","))


def lines_of(path: Path) -> list[Line]:
    """The submission's text as numbered lines (the numbers its findings name), decoded as
    `sniff` finds it: an Excel export may be UTF-16 or Windows-1252 rather than UTF-8."""
    fmt = sniff(path)
    with open(path, encoding=fmt.encoding, newline="") as handle:
        return text_lines(handle.read())


def looks_like_submission(path: Path) -> bool:
    """A CSV whose first line is (most of) the template header."""
    try:
        fmt = sniff(path)
    except (ParseError, OSError):
        return Path(path).suffix.lower() == ".csv"
    return len(set(fmt.header) & set(TEMPLATE_COLUMNS)) >= len(REQUIRED_COLUMNS) or \
        Path(path).suffix.lower() == ".csv"


def header_problem(header: Sequence[str], printed: Sequence[str] = ()) -> str | None:
    """Why the header cannot be read, or None. A column it leaves out reads as blank - but not
    a required one, not every measured one, and none while another of its names looks like a
    misspelling of a column it lacks (a blank column would hide the misspelt one). ``printed``:
    the header's cells as the file prints them, which a message quotes."""
    names = _names(header)
    missing = absent_columns(header)
    guesses = _misspellings(missing, names)
    shown = dict(zip(names, printed))
    # the columns that stop the reading: an optional one left out reads as blank
    stopping = [c for c in missing if c in REQUIRED_COLUMNS or c in guesses]
    if stopping:
        hint = ", ".join(f"{shown.get(guess, guess)!r} for {column}" for column, guess in guesses.items())
        blank = [c for c in missing if c not in stopping]
        return (f"missing column{'s' if len(stopping) > 1 else ''} {', '.join(stopping)}"
                + (f" (perhaps misspelt: {hint})" if hint else "")
                + (f"; the header also lacks {', '.join(blank)}, which would read as blank"
                   if blank else ""))
    if all(c in missing for c in METRIC_COLUMNS):
        return f"no measured column: the header needs at least one of {', '.join(METRIC_COLUMNS)}"
    twice = sorted({c for c in names if c and names.count(c) > 1})
    if twice:
        return f"columns named twice: {', '.join(twice)}"
    return None


# How far below line 1 a header is looked for, to say that a title or notes stand above it.
HEADER_SEARCH_LINES = 10


def _header_further_down(fmt: CsvFormat) -> str:
    """Where the first line is no header: the line below that reads as one, if any ("; line 3
    reads as the header ..."), else ''."""
    with open(fmt.path, encoding=fmt.encoding, newline="") as handle:
        for number, text in enumerate(itertools.islice(handle, 1, HEADER_SEARCH_LINES), start=2):
            line = text.rstrip("\r\n")
            cells = next(csv.reader([line], delimiter=_delimiter(line)), [])
            names = [header_column(c)[0] for c in cells]  # a hint: its units are not checked
            if names and header_problem(names) is None:
                return (f"; line {number} reads as the header (a title or notes above it?): the "
                        "header must be line 1")
    return ""


def absent_columns(header: Sequence[str]) -> list[str]:
    """The template's columns (beyond the optional deployment ones) a readable header leaves
    out: they read as blank."""
    names = _names(header)
    return [c for c in TEMPLATE_COLUMNS if c not in names and c not in OPTIONAL_COLUMNS]


# How many of a header's own columns a note names before it counts the rest.
NAMED_EXTRA_COLUMNS = 10


def _extra_columns(fmt: CsvFormat) -> str:
    """A note naming the header's columns the template has not (as the file prints them), which
    are read as nothing - a lab's own notes, or a column meant as one the file has already
    ("msgrate" beside msg_rate) - or ''."""
    extra = [cell for name, cell in zip(_names(fmt.header), fmt.header_cells) if name and name not in TEMPLATE_COLUMNS]
    if not extra:
        return ""
    named = ", ".join(repr(c) for c in extra[:NAMED_EXTRA_COLUMNS])
    more = f" and {len(extra) - NAMED_EXTRA_COLUMNS:,} more" if len(extra) > NAMED_EXTRA_COLUMNS else ""
    return f"column{'s' if len(extra) > 1 else ''} {named}{more} not in the template: ignored"


def _names(header: Sequence[str]) -> list[str]:
    return [h.strip().lstrip("\ufeff") for h in header]


def _misspellings(missing: list[str], names: list[str]) -> dict[str, str]:
    """{missing column: the header's column that looks like its misspelling} (the template
    allows extra columns, so an unknown name alone is no problem)."""
    unknown = [n for n in names if n and n not in TEMPLATE_COLUMNS]
    guesses = {}
    for column in missing:
        close = difflib.get_close_matches(column, unknown, n=1, cutoff=0.6) or _meaning_alike(column, unknown)
        if close:
            guesses[column] = close[0]
            unknown.remove(close[0])
    return guesses


# Words by which a column a lab titled in its own way still says which measured column it is
# ("CPU Cost (ms/msg)", "Throughput", "Msg Size"): such a column is not left out as an extra
# one while the column it means reads as blank.
_MEANING_WORDS = {"cpu_ms_per_msg": {"cost"}, "msg_rate": {"rate", "throughput", "tps"},
                  "cpu_busy_pct": {"busy", "utilisation", "utilization", "util"},
                  "message_size_bytes": {"size"}}


def _meaning_alike(column: str, unknown: list[str]) -> list[str]:
    """The first of ``unknown`` (header names) that gives a unit of ``column``'s quantity in
    brackets ("cpu_cost_(ms/msg)") or one of its _MEANING_WORDS ("cpu_cost"), if any."""
    for name in unknown:
        found = _HEADER_UNIT.match(name)
        unit = found.group("unit") if found else ""
        words = set(re.split(r"[^a-z]+", (found.group("name") if found else name)))
        if (unit and column in _QUANTITY_OF and unit in UNITS[_QUANTITY_OF[column]]) \
                or words & _MEANING_WORDS.get(column, set()):
            return [name]
    return []


# -- reading into DuckDB ---------------------------------------------------------------------

@dataclass
class Staged:
    """A submission read into temporary tables of a DuckDB connection."""
    source: str
    format: CsvFormat
    rows: int            # data rows (blank rows not counted)
    observations: int    # numbers that will enter the warehouse
    rejects: int         # cells or rows that could not be read

    RELATIONS = {"raw_observations": "sub_observations", "raw_products": "sub_products",
                 "raw_platforms": "sub_platforms", "raw_scenarios": "sub_scenarios",
                 "raw_tables": "sub_tables", "raw_tshirts": "sub_tshirts",
                 "raw_rejects": "sub_rejects"}


def _q(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _line_map(fmt: CsvFormat) -> list[int] | None:
    """Line of each data record when records and lines do not correspond one to one (a quoted
    cell spanning lines, or empty lines DuckDB skips); None when record n is on line n + 1."""
    if not fmt.quoted and not fmt.blank_lines:
        return None
    try:
        return _record_starts(fmt, strict=True)
    except csv.Error:  # a quote inside a cell ('"a"b'), which DuckDB reads as it stands
        return _record_starts(fmt, strict=False)


def _record_starts(fmt: CsvFormat, strict: bool) -> list[int]:
    """The line on which each data record starts. A quote opened and never closed would make
    the rest of the file one cell (and the row "without a measured value"): ParseError naming
    the line where it opened."""
    starts = []
    with open(fmt.path, encoding=fmt.encoding, newline="") as handle:
        reader = csv.reader(handle, delimiter=fmt.delimiter, strict=strict)
        line = 0
        try:
            next(reader, None)
            line = reader.line_num
            for cells in reader:
                if cells:  # the csv module gives [] for an empty line, as DuckDB skips it
                    starts.append(line + 1)
                line = reader.line_num
        except csv.Error as err:
            if "unexpected end of data" not in str(err):
                raise
            raise ParseError("a quoted cell opened on this line is never closed: the rest of "
                             "the file would read as one cell", line + 1,
                             expected='a closing double quote (") at the end of the cell, or no '
                                      "opening one") from None
    return starts


def _utf8_copy(fmt: CsvFormat, directory: Path) -> Path:
    """The file re-encoded as UTF-8, for DuckDB (which reads UTF-8)."""
    target = Path(directory) / "submission-utf8.csv"
    with open(fmt.path, encoding=fmt.encoding, newline="") as src, \
            open(target, "w", encoding="utf-8", newline="") as dst:
        while True:
            block = src.read(_CHUNK)
            if not block:
                break
            dst.write(block)
    return target


SPARE_CELLS = 4  # room for cells beyond the header, so that a long row is reported, not lost
SHOWN_CELL = 40  # how much of a cell too long to be a value or a name a message quotes
# Characters a name cannot hold: control characters (a tab, a line break, the escape that starts
# a terminal's colour or cursor codes), format characters (direction overrides, zero-width
# spaces) and line separators, which print as nothing yet act on the terminal or page that
# prints the name, or make two names that look alike differ.
UNPRINTABLE = "[" + "".join(f"\\p{{{category}}}" for category in ACTING_CATEGORIES) + "]"
NO_CELL = "\x01"  # what DuckDB reads as NULL: no cell holds it, so NULL is a cell the row lacks


def stage(con, path: Path, source: str, fmt: CsvFormat | None, scratch: Path) -> Staged:
    """Read the CSV at ``path`` into temporary tables ``sub_*`` of ``con`` (see
    `Staged.RELATIONS`), naming its rows ``source``. Raises ParseError (with the file) for a
    file that is not a CSV of the template; cells that cannot be read go to sub_rejects.
    ``fmt``: the file's format if already sniffed. ``scratch``: a folder for the UTF-8 copy of
    a file in another encoding (the caller owns it, so that it can clean up after a process
    that was killed)."""
    path = Path(path)
    try:
        fmt = fmt or sniff(path)
        problem = header_problem(fmt.header, fmt.header_cells)
        if problem:
            raise ParseError(problem + _header_further_down(fmt), 1,
                             expected="the submission template header " + ",".join(TEMPLATE_COLUMNS))
        absent = absent_columns(fmt.header)
        if absent and not any(n.startswith("no column") for n in fmt.notes):
            fmt.notes.append(f"no column {', '.join(absent)} in the header: read as blank")
        extra = _extra_columns(fmt)
        if extra and not any(n.startswith(extra) for n in fmt.notes):
            fmt.notes.append(extra)
        lines = _line_map(fmt)
        readable = path if fmt.encoding in ("utf-8", "utf-8-sig") else _utf8_copy(fmt, scratch)
        _read_cells(con, readable, fmt, lines)
    except ParseError as err:
        raise err.located(str(path)) from None
    except UnicodeDecodeError as err:
        raise ParseError(f"not valid {fmt.encoding if fmt else 'UTF-8'} text: {err.reason}", None,
                         str(path), expected="a CSV saved as UTF-8, UTF-16 or Windows-1252") from None
    rows = con.sql("SELECT count(*) FROM sub_cells").fetchall()[0][0]
    if rows == 0:
        raise ParseError("no data rows below the header", 1, str(path),
                         expected="one row per measured configuration")
    _check_cells(con, source, fmt)
    _vocabulary_notes(con, fmt)
    _scenario_spellings(con, fmt)
    _lookalike_names(con, fmt)
    _raw_rows(con, source)
    observations = con.sql("SELECT count(*) FROM sub_observations").fetchall()[0][0]
    rejects = con.sql("SELECT count(*) FROM sub_rejects").fetchall()[0][0]
    return Staged(source, fmt, rows, observations, rejects)


def _read_cells(con, readable: Path, fmt: CsvFormat, lines: list[int] | None) -> None:
    """sub_cells: every data record's template cells, trimmed (blank as NULL), with its line.
    ``lines``: each record's line where records and lines differ (see `_line_map`)."""
    names = fmt.header + [f"_spare_{i}" for i in range(SPARE_CELLS)]
    named = [n if n else f"_unnamed_{i}" for i, n in enumerate(names)]
    columns = "{" + ", ".join(f"{_q(n)}: 'VARCHAR'" for n in named) + "}"
    # a name perfwh wrote with the apostrophe that keeps spreadsheets from running it reads back
    # without it (ingest.spreadsheet); an optional column the header leaves out is blank
    template = ", ".join(f"nullif(trim({UNMARK_SQL.format(_ident(c))}), '') AS {c}" if c in fmt.header
                         else f"NULL::VARCHAR AS {c}" for c in TEMPLATE_COLUMNS)
    spare = " OR ".join(f"nullif(trim({_ident(f'_spare_{i}')}), '') IS NOT NULL"
                        for i in range(SPARE_CELLS))
    # How many cells each row has: an empty cell reads as '', a cell the row lacks as NULL
    # (nullstr is a character no cell holds), and DuckDB pads a short row at its end.
    # (counted over a list: a sum of thousands of terms would pass DuckDB's expression depth)
    cells = f"list_aggregate([{', '.join(_ident(n) for n in named)}], 'count')"
    # Rows whose every cell is blank (Excel's ",,,,") are not measurements.
    any_cell = " OR ".join(f"{c} IS NOT NULL" for c in TEMPLATE_COLUMNS)
    if lines is None:
        line_of, join = "record + 1", ""
    else:
        con.execute("CREATE OR REPLACE TEMP TABLE sub_lines AS SELECT unnest(range(1, ?)) AS record, "
                    "unnest(?::INTEGER[]) AS line", [len(lines) + 1, lines]).fetchall()
        line_of, join = "l.line", "JOIN sub_lines l USING (record)"
    try:
        con.sql(f"""
            CREATE OR REPLACE TEMP TABLE sub_cells AS
            SELECT * FROM (
                SELECT CAST({line_of} AS INTEGER) AS line, {template}, ({spare}) AS extra_cells,
                       ({cells})::INTEGER AS cells
                FROM (SELECT *, row_number() OVER () AS record
                      FROM read_csv({_q(str(readable))}, auto_detect = false, header = true,
                                    columns = {columns}, delim = {_q(fmt.delimiter)}, quote = '"',
                                    escape = '"', null_padding = true, parallel = false,
                                    strict_mode = false, all_varchar = true,
                                    nullstr = {_q(NO_CELL)})) r {join})
            WHERE {any_cell} OR extra_cells""")
    except Exception as err:  # duckdb.Error; ingest keeps duckdb an optional import
        if type(err).__name__ in ("InterruptException", "OutOfMemoryException"):
            raise  # Ctrl-C stopped the read, or the memory limit did: not bad input
        first = str(err).strip().splitlines()[0]
        match = re.search(r"[Ll]ine:?\s*(\d+)", first)
        line = int(match.group(1)) if match else None
        too_long = re.search(r"Maximum line size of (\d+) bytes exceeded\. Actual Size:\s*(\d+)", str(err))
        if too_long:  # DuckDB's first line says only "CSV Error on Line: 2"
            raise ParseError(f"the line is {int(too_long.group(2)):,} bytes long, more than the "
                             f"{int(too_long.group(1)):,} bytes a line may have", line,
                             expected=f"{DESCRIPTION}: names of at most {MAX_NAME_LENGTH} "
                                      "characters and numbers") from None
        raise ParseError(f"cannot be read as CSV ({first})", line,
                         expected=f"{DESCRIPTION}, separated by {fmt.delimiter!r}") from None
    finally:
        if lines is not None:
            con.execute("DROP TABLE IF EXISTS sub_lines").fetchall()


def _writes_decimal_commas(con, fmt: CsvFormat, decimal_comma: str) -> str | None:
    """Why the file's numbers may use decimal commas ("is semicolon-separated", as spreadsheets
    write CSV where the comma is the decimal mark; "writes 50,0", a measured value with one), or
    None."""
    if fmt.delimiter == ";":
        return "is semicolon-separated"
    found = con.sql("SELECT " + " OR ".join(f"regexp_full_match({m}, ?)" for m in METRIC_COLUMNS)
                    + " AS decimal, " + ", ".join(METRIC_COLUMNS)
                    + " FROM sub_cells WHERE decimal ORDER BY line LIMIT 1",
                    params=[decimal_comma] * len(METRIC_COLUMNS)).fetchall()
    if not found:
        return None
    example = next(cell for cell in found[0][1:] if cell is not None and re.fullmatch(decimal_comma, cell))
    return f"writes {example}"


def _short_rows_sql(con, fmt: CsvFormat) -> str:
    """SQL true for a row with fewer cells than the header whose gap could be anywhere, so that
    every cell after it may be read in the wrong column. A row ending early is read padded
    with blanks where nothing is lost either way: what it leaves out are optional columns (the
    deployment's) that no row of the file fills in."""
    read = [name for name in fmt.header if name in TEMPLATE_COLUMNS]
    filled = con.sql("SELECT " + ", ".join(f"bool_or({name} IS NOT NULL)" for name in read)
                     + " FROM sub_cells").fetchall()[0]
    kept = {name for name, used in zip(read, filled) if used} | (set(read) - set(OPTIONAL_COLUMNS))
    must_reach = 1 + max((i for i, name in enumerate(fmt.header) if name in kept), default=-1)
    return f"(cells < {must_reach})"


def _longer_rows_sql(con, fmt: CsvFormat) -> str:
    """SQL true for a row with more cells than the header: a cell beyond it that is not blank,
    or blank cells beyond it that most rows of the file do not have. Such a row's cells may have
    moved right, a comma in a cell not quoted splitting it in two (1,240 read as 1 and 240, the
    240 then in the column after it, and an ignored column may take it); where most rows end in
    the same blank cells, they are the file's trailing separators."""
    usual = con.sql("SELECT cells FROM sub_cells GROUP BY cells ORDER BY count(*) DESC, cells "
                    "LIMIT 1").fetchall()
    return f"(extra_cells OR cells > {max([len(fmt.header)] + [n for (n,) in usual if n is not None])})"


def _cells_needed(fmt: CsvFormat) -> int:
    """The cells of the header up to its last named column."""
    return 1 + max((i for i, name in enumerate(fmt.header) if name.strip()), default=len(fmt.header) - 1)


def _list(values) -> str:
    return "[" + ", ".join(_q(v) for v in values) + "]"


def _split_sql(column: str, default_token: str) -> tuple[str, str]:
    """SQL splitting a cell that holds a number and perhaps a unit token ("476.71 μs", "460K",
    "2kB") into (the number as printed, the unit token); a bare number is in the unit of
    ``default_token``; NULL number: not such a cell. Plain digits skip the regex (the common
    case, a million times over; a zero before a digit is no number, as NUMBER_PATTERN says)."""
    plain = f"ltrim({column}, '0123456789.') = '' AND {column} <> '' AND NOT {_leading_zero_sql(column)}"
    parts = f"regexp_extract({column}, '^({NUMBER_PATTERN})\\s*(\\S*)$', ['n', 'u'])"
    number = f"CASE WHEN {plain} THEN {column} ELSE nullif({parts}.n, '') END"
    token = f"CASE WHEN {plain} OR {parts}.u = '' THEN {_q(default_token)} ELSE {parts}.u END"
    return number, token


def _leading_zero_sql(column: str) -> str:
    """SQL true for a cell that begins with a zero before a digit (050, 00.5)."""
    return f"regexp_matches({column}, '^{LEADING_ZERO_PATTERN}')"


def _value_sql(number: str, token: str, quantity: str) -> str:
    """SQL for the value in canonical units of a split cell (NULL: no number, unknown unit)."""
    factors = " ".join(f"WHEN {_q(t)} THEN {f}" for t, (_u, f) in UNITS[quantity].items())
    return f"TRY_CAST(replace({number}, ',', '') AS DOUBLE) * CASE {token} {factors} END"


def _kind_sql(column: str) -> str:
    """SQL for a concurrency_kind cell as the kind's name, whichever documented spelling or
    synonym it is in ("T-shirt", "Tshirt", "Docker cores", "cores", ...); NULL for a word that
    says none is counted ("none", "n/a"); an unknown word stays as written."""
    words = {**kind_spellings(), **kind_synonyms()}
    cases = " ".join(f"WHEN {_q(w)} THEN {_q(k)}" for w, k in sorted(words.items()))
    return (f"CASE WHEN list_contains({_list(NO_KIND_WORDS)}, lower(trim({column}))) THEN NULL "
            f"ELSE COALESCE(CASE {FOLD_SQL.format(column)} {cases} END, {column}) END")


def _vocabulary_notes(con, fmt: CsvFormat) -> None:
    """A note for each synonym the file uses ("cores" read as docker_cores), on ``fmt``: what
    was assumed is said, as for the encoding."""
    synonyms = kind_synonyms()
    cases = " ".join(f"WHEN {_q(w)} THEN {_q(k)}" for w, k in sorted(synonyms.items()))
    for word, kind, rows, first in con.sql(f"""
            SELECT trim(concurrency_kind) AS word,
                   CASE WHEN list_contains({_list(NO_KIND_WORDS)}, lower(trim(concurrency_kind))) THEN ''
                        ELSE CASE {FOLD_SQL.format('concurrency_kind')} {cases} END END AS kind,
                   count(*), min(line)
            FROM sub_cells
            WHERE list_contains({_list(NO_KIND_WORDS)}, lower(trim(concurrency_kind)))
               OR list_contains({_list(sorted(synonyms))}, {FOLD_SQL.format('concurrency_kind')})
            GROUP BY ALL ORDER BY min(line), word""").fetchall():
        meaning = (f"{kind} ({CONCURRENCY_KINDS[kind].meaning})" if kind
                   else "blank (no concurrency counted)")
        where = f"line {first}" if rows == 1 else f"{rows} rows, the first at line {first}"
        fmt.notes.append(f"concurrency_kind {word!r} read as {meaning} ({where})")


def _lookalike_names(con, fmt: CsvFormat) -> None:
    """A note on ``fmt`` for each name that looks like another one it is not: typed in a
    compatibility form (full-width 'ＡＣＥ', a ligature), or mixing the letters of Latin, Greek
    and Cyrillic ('Сafe box' with a Cyrillic С) - filed as typed, another product or machine
    than the one it looks like."""
    for column in ("product", "product_version", "platform", "scenario"):
        for name, first in con.sql(f"""
                SELECT {column}, min(line) FROM sub_rows
                WHERE NOT regexp_full_match({column}, '[\x00-\x7f]*')
                GROUP BY 1 ORDER BY 2, 1""").fetchall():
            why = _looks_like_another(name)
            if why:
                fmt.notes.append(f"{column} {name!r} {why}, and is read as typed (line {first})")


def _looks_like_another(name: str) -> str:
    """Why ``name`` may be a look-alike of another name, or ''."""
    import unicodedata

    compatible = unicodedata.normalize("NFKC", name)
    if compatible != unicodedata.normalize("NFC", name):
        return f"is typed in compatibility forms (full-width letters, ligatures) that read as {compatible!r}"
    scripts = {}
    for char in name:
        if char.isalpha():
            script = unicodedata.name(char, "").split(" ")[0]
            if script in ("LATIN", "GREEK", "CYRILLIC"):
                scripts.setdefault(script, char)
    if len(scripts) > 1:
        odd = [f"{c} U+{ord(c):04X} is {s.title()}" for s, c in scripts.items() if s != "LATIN"]
        return f"mixes the letters of {' and '.join(s.title() for s in scripts)} ({'; '.join(odd)})"
    return ""


def _scenario_spellings(con, fmt: CsvFormat) -> None:
    """sub_scenario_names: each scenario cell of the readable rows and the name it is filed
    under - the first spelling in the file of the names equal to it but for case and spacing,
    its spaces collapsed - so that one test typed two ways is one series, not two; a note on
    ``fmt`` for each cell read as another spelling."""
    fold = SCENARIO_FOLD_SQL.format("scenario")
    first_spelling = SCENARIO_SPACES_SQL.format("first_value(scenario) OVER (PARTITION BY folded ORDER BY first)")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_scenario_names AS
        WITH spellings AS (
            SELECT scenario, {fold} AS folded, min(line) AS first, count(*) AS rows
            FROM sub_rows GROUP BY scenario)
        SELECT scenario, {first_spelling} AS name, first, rows
        FROM spellings""")
    for printed, name, first, rows in con.sql(
            "SELECT scenario, name, first, rows FROM sub_scenario_names WHERE scenario <> name "
            "ORDER BY first").fetchall():
        where = f"line {first}" if rows == 1 else f"{rows} rows, the first at line {first}"
        fmt.notes.append(f"scenario {printed!r} read as {name!r}, one scenario but for case and spacing ({where})")


def _name_nearest(con) -> None:
    """Each cell refused as an unknown word of the vocabulary (a concurrency kind, a
    persistence, a T-shirt) names the nearest documented word (fewest edits of the folded
    forms, two neighbours swapped being one) among those it is near - at most half the letters
    of the word, and of the cell, changed (a slip: "persistant", "Medum", "yse") -, else none
    (the problem lists the documented words): "maybe" is no slip of "false", and naming it would
    suggest an answer the file never gave. So a word or a cell of one letter is near nothing but
    itself: "7", "X" or "2" is no slip of s (Small) or y (a digit is no slip of a letter), nor
    "o" of no. In sub_rejects."""
    kinds = [(w, k.name) for k in CONCURRENCY_KINDS.values() for w in (k.name, k.label, *k.synonyms)]
    vocabularies = {
        "concurrency_kind": ("concurrency_kind is not a concurrency kind", kinds),
        "persistent": ("persistent is not a persistence",
                       [(w, w) for w in PERSISTENT_WORDS + NON_PERSISTENT_WORDS]),
        "concurrency": ("concurrency is not a T-shirt size",
                        [(w, t.name) for t in TSHIRTS.values() for w in (t.name, *t.synonyms)]),
    }
    for column, (problem, words) in vocabularies.items():
        known = ", ".join(f"({_q(w)}, {_q(shown)}, {rank})" for rank, (w, shown) in enumerate(words))
        fold_value, fold_word = FOLD_SQL.format("v.value"), FOLD_SQL.format("w.word")
        con.sql(f"""
            UPDATE sub_rejects SET problem = problem || ' (the nearest documented word: ' || n.shown || ')'
            FROM (SELECT v.value, arg_min(w.shown, w.edits * 1000 + w.rank) AS shown
                  FROM (SELECT DISTINCT printed_value AS value FROM sub_rejects
                        WHERE column_name = {_q(column)} AND problem = {_q(problem)}) v
                  CROSS JOIN LATERAL (SELECT w.shown, w.rank,
                                             least(length({fold_word}), length({fold_value})) AS letters,
                                             damerau_levenshtein({fold_value}, {fold_word}) AS edits
                                      FROM (VALUES {known}) w(word, shown, rank)) w
                  WHERE w.edits <= w.letters // 2
                  GROUP BY v.value) n
            WHERE sub_rejects.column_name = {_q(column)} AND sub_rejects.problem = {_q(problem)}
              AND sub_rejects.printed_value = n.value""")


def _topology_sql(column: str) -> str:
    """SQL for a topology cell as the topology's name, whichever documented spelling it is in
    ("HA group", "ha_group", "HAgroup"); an unknown word stays as written."""
    cases = " ".join(f"WHEN {_q(w)} THEN {_q(t)}" for w, t in sorted(topology_spellings().items()))
    return f"COALESCE(CASE {FOLD_SQL.format(column)} {cases} END, {column})"


# What tools and spreadsheets write in a cell that holds no number: the mark of a value not
# measured, and a spreadsheet's formula errors (#DIV/0!, #VALUE!, #N/A, #REF!).
NO_VALUE_MARKS = ("n/a", "#n/a", "na", "-", "--", "?", "none", "null", "nan", "missing", "tbd", "x")
SPREADSHEET_ERROR = r"^#[A-Z][A-Z0-9/]*[!?]?$"
SCIENTIFIC = r"^[+-]?(?:\d+[.]?\d*|[.]\d+)[eE][+-]?\d+$"


# What some locales group thousands with, and a report never does: a space (plain, no-break,
# thin, narrow no-break) or an apostrophe (straight or curly).
GROUP_MARK = "[ ''\u2019\u00a0\u2009\u202f]"


def _unreadable_why_sql(column: str) -> str:
    """SQL for what a cell that is no number is instead, where that says what to write (''
    where it does not)."""
    plain = (f"regexp_replace(regexp_replace(CAST(CAST(TRY_CAST({column} AS DOUBLE) AS DECIMAL(38, 10)) "
             "AS VARCHAR), '0+$', ''), '[.]$', '')")
    return f"""CASE
        WHEN regexp_full_match({column}, '{SCIENTIFIC}') AND TRY_CAST({column} AS DOUBLE) < 1e27
        THEN ': it is in scientific notation (write ' || {plain} || ')'
        WHEN list_contains({_list(NO_VALUE_MARKS)}, lower(trim({column})))
        THEN ': it marks no value (leave the cell blank where nothing was measured)'
        WHEN regexp_full_match(upper(trim({column})), '{SPREADSHEET_ERROR}')
        THEN ': it is a spreadsheet''s formula error (write the number measured, or leave the cell blank)'
        WHEN {_leading_zero_sql(column)}
        THEN ': it has a leading zero, which a report never prints (a number such as 2,050 split at an '
             || 'unquoted comma?)'
        WHEN regexp_full_match(trim({column}), '[1-9][0-9]{{0,2}}(?:{GROUP_MARK}[0-9]{{3}})+(?:[.][0-9]+)?\\s*[^0-9\\s.,]*')
        THEN ': its digits are grouped by a space or an apostrophe, as some locales write thousands (write '
             || regexp_replace(trim({column}), '([0-9]){GROUP_MARK}([0-9])', '\\1\\2', 'g') || ')'
        ELSE '' END"""


def _spelt_infinite_sql(column: str) -> str:
    """SQL: the cell spells NaN or infinity, which read as numbers but are none (1e999, a
    number too big, is out of range)."""
    return f"regexp_full_match(lower(trim({column})), '[+-]?(?:nan|inf|infinity)')"


def _out_of_range_why_sql(m) -> str:
    """SQL for why a number out of range may be so, where a common mistake explains it."""
    if m.name != "cpu_busy_pct":
        return "''"
    return (f"CASE WHEN {m.name}_value > 100 THEN ': %CPU is the share of all the server''s cores, at "
            "most 100 (a tool that sums the cores, as top does, prints up to 100 x cores: divide by "
            "the cores)' ELSE '' END")


# A number whose separator a decimal-comma file leaves in doubt: a comma after one to three
# digits before exactly three ("2,500": 2.5 or 2500), or a dot so, as those locales group
# thousands ("12.500": 12.5 or 12500); a unit may follow.
GROUPED_BY_COMMAS = "^[1-9]\\d{0,2}(?:,\\d{3})+\\s*[^\\d\\s.,]*$"
GROUPED_BY_DOTS = "^[1-9]\\d{0,2}(?:[.]\\d{3})+\\s*[^\\d\\s.,]*$"


def _separator_doubt_sql(column: str, why: str | None) -> str:
    """WHEN clauses of a cell's problem for a number whose separator is in doubt, in a file
    whose commas may be decimal ones (``why``: what says so; None: no doubt, no clauses)."""
    if not why:
        return ""
    # (why, which may quote a cell, is a literal beside the format, never in it)
    return f"""WHEN regexp_full_match({column}, '{GROUPED_BY_COMMAS}')
                 THEN printf('%s may be %s or %s: the file ', {_q(column)},
                             regexp_replace({column}, ',', '.'), replace({column}, ',', ''))
                      || {_q(why)} || ', so its comma may be a decimal one; write the number without a comma'
                 WHEN regexp_full_match({column}, '{GROUPED_BY_DOTS}')
                 THEN printf('%s may be %s or %s: the file ', {_q(column)}, {column},
                             regexp_replace({column}, '[.]', '', 'g'))
                      || {_q(why)} || ', so its dot may separate thousands, as the decimal comma''s '
                      || 'locales write them; write the number without the dot if it does'"""


def _check_cells(con, source: str, fmt: CsvFormat) -> None:
    """sub_checked: each row's typed cells and their problems; sub_rejects: the problems;
    sub_rows: the rows whose keys are all readable."""
    short = _short_rows_sql(con, fmt)
    number = f"^(?:{NUMBER_PATTERN})$"
    decimal_comma = f"^(?:{DECIMAL_COMMA_PATTERN})\\s*[^\\d\\s.,]*$"
    commas_are_decimal = _writes_decimal_commas(con, fmt, decimal_comma)
    size_tokens = [t for t in UNITS["size"] if t]
    tshirt_words = {w: t.name for t in TSHIRTS.values() for w in (t.name.lower(), *t.synonyms)}
    tshirt_case = " ".join(f"WHEN {_q(w)} THEN {_q(n)}" for w, n in sorted(tshirt_words.items()))
    kinds = sorted(CONCURRENCY_KINDS)
    size_number, size_token = _split_sql("message_size_bytes", "")
    split = [f"{size_number} AS size_number", f"{size_token} AS size_unit"]
    typed = [f"{_value_sql('size_number', 'size_unit', 'size')} AS size_bytes"]
    problems_sql = []
    for m in METRIC_COLUMNS.values():
        m_number, m_token = _split_sql(m.name, m.token)
        split += [f"{m_number} AS {m.name}_number", f"{m_token} AS {m.name}_unit"]
        typed.append(f"{_value_sql(f'{m.name}_number', f'{m.name}_unit', m.quantity)} AS {m.name}_value")
        high = f" OR {m.name}_value > {m.high}" if m.high is not None else ""
        # a number DuckDB reads but a report would not print ("-5", "1e999", "NaN"): out of
        # range if it is, else a number in the wrong form
        loose = f"TRY_CAST(replace({m.name}, ',', '') AS DOUBLE)"
        loose_high = f" OR {loose} > {m.high}" if m.high is not None else ""
        unreadable = f"({m.name}_value IS NULL OR NOT isfinite({m.name}_value))"
        # where the file's numbers use decimal commas, "1,600" may be 1.6 as well as 1600
        # (why, which may quote a cell, is a literal beside the format, never in it)
        ambiguous = _separator_doubt_sql(m.name, commas_are_decimal)
        problems_sql.append(f"""
            CASE WHEN {m.name} IS NULL THEN NULL
                 {ambiguous}
                 WHEN {unreadable} AND regexp_full_match({m.name}, '{decimal_comma}')
                 THEN printf('%s has a decimal comma, which a report does not print: write %s',
                             {_q(m.name)}, replace(replace({m.name}, '.', ''), ',', '.'))
                 WHEN {unreadable} AND NOT {_leading_zero_sql(m.name)}
                      AND {loose} IS NOT NULL AND NOT {_spelt_infinite_sql(m.name)}
                      AND (NOT isfinite({loose}) OR {loose} <= {m.low}{loose_high})
                 THEN printf('%s is out of range', {_q(m.name)})
                 WHEN {m.name}_value IS NULL OR NOT isfinite({m.name}_value)
                 THEN printf('%s is not a number as a report prints one', {_q(m.name)})
                      || {_unreadable_why_sql(m.name)}
                 WHEN {m.name}_value <= {m.low}{high} THEN printf('%s is out of range', {_q(m.name)})
                      || {_out_of_range_why_sql(m)}
            END AS {m.name}_problem""")
    names_sql = ", ".join(
        f"CASE WHEN length({c}) > {MAX_NAME_LENGTH} THEN printf('{c} is %d characters long', length({c})) "
        f"WHEN regexp_matches({c}, '{UNPRINTABLE}') THEN printf('{c} holds the control character U+%04X, "
        f"which would act on a terminal or page that prints the name', "
        f"unicode(regexp_extract({c}, '{UNPRINTABLE}'))) END AS {c}_problem" for c in NAME_COLUMNS)
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_checked AS
        WITH split AS (
            SELECT c.* REPLACE ({_kind_sql('c.concurrency_kind')} AS concurrency_kind,
                               {_topology_sql('c.topology')} AS topology,
                               {', '.join(f"{_whole_sql('c.' + k, commas_are_decimal)} AS {k}" for k in COUNT_COLUMNS)}),
                   {', '.join(split)},
                   lower(persistent) AS persistent_word,
                   CASE lower(concurrency) {tshirt_case} END AS tshirt_name
            FROM sub_cells c),
        typed AS (SELECT *, {', '.join(typed)} FROM split)
        SELECT t.*,
            CASE WHEN message_size_bytes IS NULL THEN NULL
                 WHEN size_bytes IS NULL OR NOT isfinite(size_bytes)
                 THEN 'message_size_bytes is not a message size' || {_unreadable_why_sql('message_size_bytes')}
                 WHEN size_bytes <= 0 THEN 'message_size_bytes is not positive'
                 WHEN size_bytes > {MAX_MESSAGE_BYTES} THEN 'message_size_bytes is out of range'
                 WHEN size_bytes <> round(size_bytes) THEN 'message_size_bytes is not a whole number of bytes'
            END AS size_problem,
            {names_sql},
            CASE WHEN persistent IS NULL OR list_contains({_list(PERSISTENT_WORDS + NON_PERSISTENT_WORDS)},
                                                          persistent_word) THEN NULL
                 ELSE 'persistent is not a persistence' END AS persistent_problem,
            CASE WHEN concurrency_kind IS NULL OR list_contains({_list(kinds)}, concurrency_kind) THEN NULL
                 ELSE 'concurrency_kind is not a concurrency kind' END AS kind_problem,
            CASE WHEN concurrency IS NULL THEN
                      CASE WHEN concurrency_kind = 'tshirt'
                           THEN 'concurrency is blank, but the kind tshirt needs a T-shirt name' END
                 WHEN concurrency_kind IS NULL THEN 'concurrency is given without a concurrency_kind'
                 WHEN NOT list_contains({_list(kinds)}, concurrency_kind) THEN NULL  -- the kind's own problem
                 WHEN concurrency_kind = 'tshirt' AND tshirt_name IS NULL THEN 'concurrency is not a T-shirt size'
                 {_separator_doubt_sql('concurrency', commas_are_decimal)}
                 WHEN concurrency_kind <> 'tshirt' AND NOT (regexp_full_match(concurrency, '{number}')
                      AND TRY_CAST(replace(concurrency, ',', '') AS DOUBLE) > 0)
                 THEN 'concurrency is not a positive number'
                 WHEN concurrency_kind <> 'tshirt'
                      AND TRY_CAST(replace(concurrency, ',', '') AS DOUBLE) > {MAX_COUNT}
                 THEN 'concurrency is out of range'
            END AS concurrency_problem,
            {_count_problem('server_cores', commas_are_decimal)} AS cores_problem,
            {_count_problem('replicas', commas_are_decimal)} AS replicas_problem,
            CASE WHEN topology IS NULL OR list_contains({_list(sorted(TOPOLOGIES))}, topology) THEN NULL
                 ELSE 'topology is not a topology' END AS topology_problem,
            {_count_problem('queue_managers', commas_are_decimal)} AS queue_managers_problem,
            CASE WHEN simulated_latency_ms IS NULL THEN NULL
                 WHEN NOT regexp_full_match(simulated_latency_ms, '{number}')
                 THEN 'simulated_latency_ms is not a number of ms'
                 WHEN topology = 'standalone'
                 THEN 'simulated_latency_ms is given for a standalone test, which has no '
                      || 'replication link' END AS latency_problem,
            {', '.join(problems_sql)}
        FROM typed t""")
    expected = {
        "message_size_bytes": "bytes as a whole number, or a number with one of the units "
                              + ", ".join(size_tokens) + " (1k = 1024), from 1 byte to 1 GiB",
        "persistent": "one of " + ", ".join(PERSISTENT_WORDS + NON_PERSISTENT_WORDS) + ", or blank",
        "concurrency_kind": "one of " + ", ".join(kinds) + ", or blank",
        "concurrency": f"a number greater than 0 and at most {MAX_COUNT:,}, or for "
                       "concurrency_kind tshirt one of " + allowed_tshirts(),
        "server_cores": f"a whole number from 1 to {MAX_COUNT:,}, or blank",
        "replicas": f"a whole number from 1 to {MAX_COUNT:,}, or blank",
        "topology": "one of " + ", ".join(TOPOLOGIES) + ", or blank",
        "queue_managers": f"a whole number from 1 to {MAX_COUNT:,}, or blank",
        "simulated_latency_ms": "a number of ms (0 for appliances connected directly) for a "
                                "replicated topology, or blank",
        **{c: f"a name of at most {MAX_NAME_LENGTH} characters, without control or format characters "
              "(tab, line break, escape, direction overrides, zero-width spaces)" for c in NAME_COLUMNS},
    }
    key_problems = [("message_size_bytes", "size_problem"), ("persistent", "persistent_problem"),
                    ("concurrency_kind", "kind_problem"), ("concurrency", "concurrency_problem"),
                    ("server_cores", "cores_problem"), ("replicas", "replicas_problem"),
                    ("topology", "topology_problem"), ("queue_managers", "queue_managers_problem"),
                    ("simulated_latency_ms", "latency_problem"),
                    *((c, f"{c}_problem") for c in NAME_COLUMNS)]
    cells = key_problems + [(m, f"{m}_problem") for m in METRIC_COLUMNS]
    allowed = {**expected, **{m.name: m.allowed + (" (a unit may follow: "
                                                   + ", ".join(t for t in UNITS[m.quantity] if t) + ")")
                              for m in METRIC_COLUMNS.values()}}
    def shown(col: str) -> str:
        # a cell too long to read is quoted by its beginning; its line breaks and tabs as \n,
        # \r, \t (quoted in a finding's line, a line break would begin a line that looks like
        # a finding of its own)
        longest = MAX_NAME_LENGTH if col in NAME_COLUMNS else SHOWN_CELL
        cell = f"CASE WHEN length({col}) > {longest} THEN left({col}, {SHOWN_CELL}) || '...' ELSE {col} END"
        for char, written in (("chr(10)", "'\\n'"), ("chr(13)", "'\\r'"), ("chr(9)", "'\\t'")):
            cell = f"replace({cell}, {char}, {written})"
        return cell

    _find_headers(con, fmt)
    # A row whose cells are not in their columns - a cell short or too many, or the header
    # again - has one problem, that one: none of its cells is judged, and nothing of it is read.
    longer = _longer_rows_sql(con, fmt)
    misplaced = f"({short} OR {longer} OR line IN (SELECT line FROM sub_headers))"
    selects = [f"""SELECT line, {_q(col)} AS column_name, {shown(col)} AS printed_value, {prob} AS problem,
                          {_q(allowed[col])} AS expected, 'unreadable' AS kind
                   FROM sub_checked WHERE {prob} IS NOT NULL AND NOT {misplaced}""" for col, prob in cells]
    for col in REQUIRED_COLUMNS:
        selects.append(f"""SELECT line, {_q(col)}, NULL, {_q(col + ' is blank')}, {_q('a ' + col)},
                                  'missing' FROM sub_checked WHERE {col} IS NULL AND NOT {misplaced}""")
    any_metric = " OR ".join(f"{m} IS NOT NULL" for m in METRIC_COLUMNS)
    selects.append(f"""SELECT line, NULL, NULL, 'the row has no measured value',
                              {_q('at least one of ' + ', '.join(METRIC_COLUMNS))}, 'missing'
                       FROM sub_checked WHERE NOT ({any_metric}) AND NOT {misplaced}""")
    selects.append(f"""SELECT line, NULL, NULL,
                              'the row has more cells than the header (a comma in a cell not quoted, '
                              || 'as in 24,000?): each cell after it would be read in the wrong column',
                              {_q(f'{len(fmt.header)} cells, as in the header')}, 'unreadable'
                       FROM sub_checked WHERE {longer}""")
    selects.append(f"""SELECT line, NULL, NULL,
                              printf('the row has %d cells where the header has {_cells_needed(fmt)}: a cell '
                                     || 'is missing, and each cell after it would be read in the wrong '
                                     || 'column', cells),
                              {_q(f'{_cells_needed(fmt)} cells, one per column of the header (a blank '
                                  f'cell is an empty one: {fmt.delimiter * 2})')}, 'unreadable'
                       FROM sub_checked WHERE {short} AND line NOT IN (SELECT line FROM sub_headers)""")
    selects.append("""SELECT line, NULL, NULL,
                              'the row repeats the header (two files joined into one?): it is no measurement',
                              'a measurement, or no row: remove the line', 'unreadable'
                       FROM sub_headers""")
    _find_examples(con)
    selects.append("""SELECT line, NULL, NULL,
                              printf('the row is the template''s example for concurrency_kind %s, unchanged',
                                     concurrency_kind),
                              'a measurement of your own in its place, or no row', 'example'
                       FROM sub_examples""")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_rejects AS
        SELECT {_q(source)} AS source, line, column_name, printed_value, problem, expected, kind
        FROM ({' UNION ALL '.join(selects)})
        ORDER BY line, column_name NULLS FIRST, problem""")
    _name_nearest(con)
    bad_key = " OR ".join(f"{p} IS NOT NULL" for _c, p in key_problems)
    required = " OR ".join(f"{c} IS NULL" for c in REQUIRED_COLUMNS)
    # a view, not a copy of a million wide rows: its few readers filter sub_checked themselves
    con.sql(f"""
        CREATE OR REPLACE TEMP VIEW sub_rows AS
        SELECT * FROM sub_checked
        WHERE NOT ({bad_key} OR {required} OR {misplaced})
          AND line NOT IN (SELECT line FROM sub_examples)""")


# The columns that hold counts (`_count_problem`).
COUNT_COLUMNS = ("server_cores", "replicas", "queue_managers")


def _whole_sql(column: str, doubt: str | None) -> str:
    """SQL for a count cell as a whole number: "8.0" is 8 (a tool that keeps a column with
    blanks as floating point, as pandas does, writes its whole numbers so); "8.5" stays as it
    is, for `_count_problem` to refuse, and so does "8.000" where ``doubt`` says the file's
    dots may group thousands (`_separator_doubt_sql`)."""
    whole = f"regexp_replace({column}, '^([0-9]+)[.]0*$', '\\1')"
    if not doubt:
        return whole
    return f"CASE WHEN regexp_full_match({column}, '{GROUPED_BY_DOTS}') THEN {column} ELSE {whole} END"


def _count_problem(column: str, doubt: str | None) -> str:
    """SQL for the problem of a cell that holds a count (server cores, replicas): a whole
    number from 1 to MAX_COUNT, or blank; in doubt where the file's separators leave it so."""
    return f"""CASE WHEN {column} IS NULL THEN NULL
                    {_separator_doubt_sql(column, doubt)}
                    WHEN NOT regexp_full_match({column}, '^[0-9]+$') OR ltrim({column}, '0') = ''
                    THEN '{column} is not a positive whole number'
                    WHEN coalesce(TRY_CAST({column} AS BIGINT) > {MAX_COUNT}, TRUE)
                    THEN '{column} is out of range' END"""


def _find_headers(con, fmt: CsvFormat) -> None:
    """sub_headers: the lines that repeat the header - every template column's cell its header
    cell again, case aside - as a second export appended to a first one leaves them."""
    cells = dict(zip(fmt.header, fmt.header_cells))
    same = " AND ".join(f"lower({c}) IS NOT DISTINCT FROM {_q(cells[c].lower())}"
                        for c in TEMPLATE_COLUMNS if c in cells)
    con.sql(f"CREATE OR REPLACE TEMP TABLE sub_headers AS SELECT line FROM sub_cells WHERE {same or 'FALSE'}")


def _find_examples(con) -> None:
    """sub_examples: the lines that are one of the template's example rows, every cell as
    `perfwh template` prints it. Left in a file by mistake, the example's invented numbers
    would otherwise be filed as a measurement."""
    def cell(value: str) -> str:
        return _q(value) if value else "NULL"

    rows = ", ".join("(" + ", ".join(cell(e.get(c, "")) for c in TEMPLATE_COLUMNS) + ")" for e in _examples())
    same = " AND ".join(f"s.{c} IS NOT DISTINCT FROM e.{c}" for c in TEMPLATE_COLUMNS)
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_examples AS
        SELECT s.line, e.concurrency_kind
        FROM sub_cells s
        JOIN (VALUES {rows}) e({', '.join(TEMPLATE_COLUMNS)}) ON {same}""")


_SLUG = "coalesce(nullif(trim(regexp_replace(lower({}), '[^a-z0-9]+', '-', 'g'), '-'), ''), 'x')"
# What makes two spellings of a name one name: case and runs of spaces aside.
_SAME = "lower(regexp_replace({}, '\\s+', ' ', 'g'))"
# Each name's key (``identity``: what makes it that name) from its ``candidate`` key, kept
# unless a name of another identity has the same candidate: then each of those names' keys
# gets a digest of its identity, so that no two names share a key.
_DISTINCT_KEYS = """
    SELECT c.*, CASE WHEN n.names > 1 THEN c.{candidate} || '-' || substr(md5(c.{identity}), 1, 8)
                     ELSE c.{candidate} END AS {key}
    FROM {relation} c
    JOIN (SELECT {candidate}, count(DISTINCT {identity}) AS names FROM {relation} GROUP BY ALL) n
      USING ({candidate})"""


def _raw_rows(con, source: str) -> None:
    """sub_* relations shaped like the raw_ tables, from the rows whose keys are valid."""
    src = _q(source)
    tshirt_cpu = " ".join(f"WHEN {_q(t.name)} THEN {_q(t.cpu_cores)}" for t in TSHIRTS.values())
    tshirt_memory = " ".join(f"WHEN {_q(t.name)} THEN {_q(t.memory_mib)}" for t in TSHIRTS.values())
    # Product and platform keys are slugs of the names, computed once per distinct name. Names
    # that differ only in case or spacing ("Lab box", "lab  box") are one product or platform;
    # names that differ otherwise but share a slug ("box_1" and "box-1"; "Сервер А" and
    # "Сервер Б", whose slugs are both "x") are not, and each such name's key gets a digest of
    # it (a name whose slug no other name shares keeps its plain slug). A row's server cores
    # are a fact of the machine it ran on: one platform name given with several core counts
    # names several machines (a 2-core and an 8-core "lab box"), each a platform of its own
    # with its own cores, so that every rule reads a row by its own machine.
    product_same = f"json_array({_SAME.format('product')}, {_SAME.format('product_version')})::VARCHAR"
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_keys AS
        WITH named AS (
            SELECT DISTINCT product, product_version, platform,
                   coalesce(server_cores, '') AS cores_given, CAST(server_cores AS INTEGER) AS cores,
                   {_SLUG.format("platform")} AS platform_slug,
                   json_array({_SAME.format("platform")}, CAST(server_cores AS INTEGER))::VARCHAR AS machine,
                   {_SLUG.format("product || ' ' || product_version")} AS product_slug,
                   {product_same} AS product_same
            FROM sub_rows),
        machines AS (
            SELECT platform_slug, count(DISTINCT coalesce(cores, 0)) > 1 AS several
            FROM named GROUP BY platform_slug),
        candidates AS (
            SELECT n.*, CASE WHEN m.several
                             THEN n.platform_slug || '-' || coalesce(CAST(n.cores AS VARCHAR) || '-cores',
                                                                     'cores-not-given')
                             ELSE n.platform_slug END AS platform_candidate
            FROM named n JOIN machines m USING (platform_slug)),
        platform_keyed AS ({_DISTINCT_KEYS.format(candidate="platform_candidate", identity="machine",
                                                  key="platform_key", relation="candidates")}),
        keyed AS ({_DISTINCT_KEYS.format(candidate="product_slug", identity="product_same",
                                         key="product_key", relation="platform_keyed")})
        SELECT product, product_version, platform, cores_given, cores, product_key, platform_key
        FROM keyed""")
    # The row's keys computed once per row, each readable metric cell a raw observation: one
    # SELECT per metric column, joined by UNION ALL (half the work of a LATERAL (VALUES ...)
    # unpivot on a million rows). seq orders them by line, then metric, without sorting (gaps
    # are harmless: fact ids are numbered densely downstream).
    per_metric = [f"""
        SELECT {src} AS source, CAST((k.line - 1) * {len(METRIC_COLUMNS)} + {order} AS INTEGER) AS seq,
               {_q(TABLE_KEY)} AS table_key, k.line AS row_line, NULL::INTEGER AS page,
               k.product_key, k.platform_key, k.scenario, {_q(m.name)} AS metric,
               k.{m.name} AS printed_value, replace(k.{m.name}_number, ',', '') AS number,
               k.{m.name}_unit AS unit, k.message_size_bytes AS size_printed,
               replace(k.size_number, ',', '') AS size_number, k.size_unit, k.persistent,
               k.concurrency_kind, k.concurrency AS concurrency_printed, k.concurrency_number,
               k.replicas, k.tshirt, NULL::VARCHAR AS component, NULL::VARCHAR AS observed_at,
               k.topology, k.queue_managers, k.simulated_latency_ms
        FROM keyed k WHERE k.{m.name} IS NOT NULL AND k.{m.name}_problem IS NULL"""
                  for order, m in enumerate(METRIC_COLUMNS.values(), 1)]
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_observations AS
        WITH keyed AS NOT MATERIALIZED (
            SELECT line, scenario, message_size_bytes, size_number, size_unit, concurrency_kind,
                   concurrency,
                   {", ".join(f"{m}, {m}_number, {m}_unit, {m}_problem" for m in METRIC_COLUMNS)},
                   key.product_key, key.platform_key,
                   CASE WHEN persistent_word IS NULL THEN NULL
                        ELSE list_contains({_list(PERSISTENT_WORDS)}, persistent_word) END AS persistent,
                   CASE WHEN tshirt_name IS NOT NULL AND concurrency_kind = 'tshirt'
                        THEN CASE tshirt_name {tshirt_cpu} END
                        ELSE replace(concurrency, ',', '') END AS concurrency_number,
                   -- a T-shirt's pods are counted as the reports count them (1 replica where
                   -- one ran: ACE 13), and the template leaves the cell blank if one
                   CASE WHEN concurrency_kind = 'tshirt' AND tshirt_name IS NOT NULL
                        THEN coalesce(CAST(replicas AS INTEGER), 1)
                        ELSE CAST(replicas AS INTEGER) END AS replicas,
                   CASE WHEN concurrency_kind = 'tshirt' THEN tshirt_name END AS tshirt,
                   topology, CAST(queue_managers AS INTEGER) AS queue_managers,
                   replace(simulated_latency_ms, ',', '') AS simulated_latency_ms
            FROM (SELECT * REPLACE (n.name AS scenario)
                  FROM sub_rows JOIN sub_scenario_names n USING (scenario)) r
            JOIN sub_keys key ON key.product = r.product AND key.product_version = r.product_version
                             AND key.platform = r.platform
                             AND key.cores_given = coalesce(r.server_cores, ''))
        {" UNION ALL ".join(per_metric)}""")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_products AS
        SELECT {src} AS source, product_key, min(product) AS name,
               min(product) AS short, min(product_version) AS version, NULL::VARCHAR AS fix_pack
        FROM sub_keys GROUP BY ALL ORDER BY product_key""")
    # One platform per machine (see sub_keys): its cores as submitted, or NULL where none are.
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_platforms AS
        SELECT {src} AS source, platform_key, min(platform) AS label,
               NULL::VARCHAR AS os, NULL::VARCHAR AS hardware, NULL::VARCHAR AS cpu_model,
               min(cores) AS cores, 'as submitted' AS deployment, NULL::VARCHAR AS memory,
               CASE WHEN count(cores) = 0 THEN 'the submission gives no core count'
                    ELSE 'cores as submitted' END AS note
        FROM sub_keys GROUP BY platform_key ORDER BY platform_key""")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_scenarios AS
        SELECT DISTINCT {src} AS source, name, NULL::VARCHAR AS transport,
               NULL::VARCHAR AS message_domain, NULL::VARCHAR AS flow_style,
               'Submitted results' AS description
        FROM sub_scenario_names ORDER BY name""")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_tables AS
        SELECT {src} AS source, {_q(TABLE_KEY)} AS table_key, {_q(TABLE_TITLE)} AS title,
               'throughput' AS kind, 1 AS heading_line, NULL::INTEGER AS page,
               NULL::VARCHAR AS note""")
    con.sql(f"""
        CREATE OR REPLACE TEMP TABLE sub_tshirts AS
        SELECT {src} AS source, tshirt_name AS name, CASE tshirt_name {tshirt_cpu} END AS cpu_cores,
               CASE tshirt_name {tshirt_memory} END AS memory_mib, min(line) AS line
        FROM sub_rows WHERE concurrency_kind = 'tshirt' AND tshirt_name IS NOT NULL
        GROUP BY ALL ORDER BY name""")


def drop_staged(con) -> None:
    con.sql("DROP VIEW IF EXISTS sub_rows")
    for name in ("sub_cells", "sub_checked", "sub_keys", "sub_examples", "sub_headers",
                 *Staged.RELATIONS.values()):
        con.sql(f"DROP TABLE IF EXISTS {name}")


def template_text(example_rows: bool = True) -> str:
    """The template as a CSV: the header, and one example row per concurrency kind."""
    out = io.StringIO()
    write_rows(_examples() if example_rows else [], out)
    return out.getvalue()


def write_rows(rows: list[dict], out) -> None:
    """Rows (dicts by template column; other keys ignored, None blank) as a template CSV, as
    every CSV of perfwh is written (`ingest.spreadsheet`: no cell a spreadsheet would run)."""
    writer = csv_writer(out)
    writer.writerow(TEMPLATE_COLUMNS)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row[c] for c in TEMPLATE_COLUMNS])


def _examples() -> list[dict]:
    """One plausible row per concurrency kind (numbers that hold together: rate x cost stays
    within the capacity), so that the template itself checks clean."""
    base = dict(product="ACE", product_version="13.0.1.0", platform="lab box", server_cores="8",
                scenario="HTTP XMLNSC ESQL Transformation", message_size_bytes="2048",
                persistent="false", cpu_busy_pct="")
    values = {  # kind: (concurrency, replicas, rate, cost in ms)
        "docker_cores": ("2", "", "1234.5", "1.62"), "tshirt": ("Small", "2", "1180.25", "0.81"),
        "flow_instances": ("4", "", "2310.0", "1.65"), "execution_groups": ("2", "", "1190.7", "1.64"),
        "flow_copies": ("", "", "4420.5", "1.7"), "subscribers": ("10", "", "870.0", "2.05"),
        "destination_list_entries": ("100", "", "95.4", "18.3"),
        "fanout_ratio": ("10", "", "640.0", "2.6"), "wmq_queue_managers": ("4", "", "3105.0", "1.9")}
    rows = []
    for kind in CONCURRENCY_KINDS:
        concurrency, replicas, rate, cost = values.get(kind, ("1", "", "1000.0", "1.0"))
        row = dict(base, concurrency_kind=kind, concurrency=concurrency, replicas=replicas,
                   msg_rate=rate, cpu_ms_per_msg=cost)
        if kind == "tshirt":
            row.update(platform="OpenShift", server_cores="")
        rows.append(row)
    return rows
