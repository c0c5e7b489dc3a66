"""`perfwh check PATH`: the build's own stages on a scratch copy, and the submission's findings.

A submission is a CSV in the template (`ingest.submission`) or a report text or PDF of a known
family; a revised edition of a known report borrows that report's platform and product facts
from sources.yml. The check copies the warehouse's raw layer into a scratch database, adds the
submission to it exactly as `perfwh build` loads a filed source (same reader, same raw_ and
stg_ layers, same views), builds everything above, runs every rule and the typo repair, and
reports the findings on the submission's own rows. The warehouse is only read.

`perfwh add` runs this same function on a scratch file and, when it accepts the submission,
commits that very database: what check accepts, add accepts.

The scratch database is a file (in a temporary folder, unless `add` gives one beside the
warehouse) and lives within a memory limit (`--memory-limit`), spilling to a folder beside
it; a file, because DuckDB writes a big table's rows into it and needs to hold only the
indexes (the raw layer's primary keys, which it cannot spill), where an in-memory database
must keep or spill everything. The findings stay in it (`perfwh.quality.rules.FOUND`): `own_findings` streams
the submission's findings from there, so a submission of ten million rows, or one with a
finding on every row, is checked in bounded memory. The rules run in DuckDB, or with
``engine="spark"`` on Apache Spark over a Parquet lake of the scratch warehouse.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import shutil
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple
from pathlib import Path

import duckdb

from ingest import families, submission
from ingest.printable import ACTING_CATEGORIES, OneLineMessage, one_line
from ingest.reader import read_lines
from ingest.records import ParsedReport, ParseError
from ingest.spreadsheet import safe_cell
from models.spec import MIN_SIZES
from models.tables import count_series
from perfwh.core.files import STAGED_NAME_EXTRA, longest_name_problem, scratch_directory
from perfwh.core.paths import SOURCES_FILE, WAREHOUSE
from perfwh.core.progress import status
from perfwh.core.values import counted
from perfwh.quality.evaluate import evaluate
from perfwh.quality.rules import FOUND, Rule, RuleError, finding_id, load_rules, stored_findings
from perfwh.warehouse.db import (BUILD_MEMORY_LIMIT, CHECK_FIT_LIMIT, NotAWarehouse,
                                 connect_bounded, insert_rows, manifest_in_step, out_of_memory,
                                 remove_spill, require_warehouse, run)
from perfwh.warehouse.inputs import check_keys
from perfwh.warehouse.lake import hive_escape
from perfwh.warehouse.load import (CsvSubmission, LoadedReport, SourceInput, WarehouseError,
                                   add_sources, create_warehouse, reference_drift)
from perfwh.warehouse.sources import ReportSource, SourceError, load_manifest, sha256_of

from .models import fit_warehouse

CSV, REPORT = "csv", "report"


class SubmissionError(OneLineMessage, RuntimeError):
    """The submission could not be read (status 2), or may not be filed as it is (status 1:
    a copy of a filed source, a name that is taken or too long to file). ``verb`` says which
    to the user."""

    def __init__(self, message: str, status: int = 2, verb: str | None = None):
        super().__init__(message)
        self.status = status
        self.verb = verb or ("cannot read the submission" if status == 2 else "refused")


class Refused(SubmissionError):
    """The submission reads, but may not be filed as it is (status 1)."""

    def __init__(self, message: str):
        super().__init__(message, status=1, verb="refused")


class CannotCheck(SubmissionError):
    """What the check needs besides the submission is missing or broken: the manifest, the
    warehouse, the memory (status 2)."""

    def __init__(self, message: str):
        super().__init__(message, status=2, verb="cannot check")


class OutOfMemory(CannotCheck):
    """The check needed more memory than its limit allows even with spilling (status 2)."""


@dataclass
class CheckResult:
    path: Path
    source: ReportSource          # as it would be filed (file = the submission's file name)
    kind: str                     # csv | report
    rows: int                     # data rows of a CSV, table rows of a report
    # (rule, severity) -> how many findings on the submission's rows, in rule order
    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    # the findings on the submission's rows (collected unless `check` was told not to: then
    # `own_findings` streams them from the scratch connection)
    findings: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)          # what the reader assumed
    # the sources whose findings and fits the check (re)made: the submission's, a retired
    # source's, and those of sources checked again because they measured what it did
    subjects: list[str] = field(default_factory=list)
    # and every source whose rows in the scratch differ from the warehouse's: the subjects and
    # any whose rows a loaded source rewrote (what an add writes of the lake)
    changed: list[str] = field(default_factory=list)

    @property
    def family(self) -> str:
        return self.source.family

    @property
    def errors(self) -> list[dict]:
        return [f for f in self.findings if f["severity"] == "error"]

    @property
    def error_count(self) -> int:
        return sum(n for (_rule, severity), n in self.counts.items() if severity == "error")

    @property
    def warning_count(self) -> int:
        return sum(self.counts.values()) - self.error_count


def check(path: Path, warehouse: Path | None = WAREHOUSE, sources_file: Path = SOURCES_FILE,
          rules: list[Rule] | None = None, repair: bool = True, scratch: Path | None = None,
          today: dt.date | None = None, keep: bool = False, revision_of: str | None = None,
          memory_limit: str = BUILD_MEMORY_LIMIT, engine: str = "duckdb",
          spark_master: str | None = None, collect: bool = True,
          fit_limit: int | None = CHECK_FIT_LIMIT, waivers: dict[str, str] | None = None,
          given: GivenFacts | None = None, discarded: bool = False):
    """Check the submission at ``path`` against ``warehouse`` (None: against nothing).

    The scratch database is a copy of the warehouse to which the submission is added as
    `perfwh add` adds it (`perfwh.warehouse.load.add_sources`: its rows appended, the rows of
    the dimensional model it makes written by the build's own definitions); the rules run on
    its rows and on the rows of other sources they compare them with (`evaluate`'s subjects),
    the models are fitted for its series between the rules' two passes (a series is fitted
    with its own source's series alone), and its findings are repaired. What the other
    sources hold is left as it was. ``waivers`` ({finding id: reason}, what `perfwh add
    --waive` gives) are recorded before the rules run, as a build reads them from sources.yml.
    ``given``: product and platform facts of a report (`--product`, `--platform`), over those
    a filed edition of its family lends or the report prints.

    ``revision_of``: a filed source the submission replaces (it is retired in the scratch
    copy; the sources whose rows measure what it measured are checked again). ``scratch``: the
    database file to build in (default: one in a temporary folder, removed afterwards). With
    ``keep`` (and a ``scratch`` of the caller's: `perfwh add`) the open scratch connection is
    returned too, as (result, connection); `checked` does the same with a temporary scratch.
    ``discarded``: the scratch is removed after the check, so it is never checkpointed (DuckDB
    would write the whole copy to disk on closing it: a tenth of a second or more once the
    warehouse holds a million numbers); `perfwh add` commits its scratch, and so keeps it.
    ``collect``: fetch the submission's findings into ``result.findings`` (without it, only
    their counts; `own_findings` streams them). ``engine``: run the rules in DuckDB or on
    Apache Spark (``spark_master``, default local) over a Parquet lake of the scratch.
    Fitting takes about 20 ms a series, so a check fits at most ``fit_limit`` series (None: any
    number, as `perfwh add` does); past it, the model residual rule finds nothing on the
    submission, and a note says so."""
    if scratch is None:
        if keep:
            raise ValueError("check(keep=True) needs the caller's scratch file; use checked()")
        with scratch_directory("check") as folder:
            return check(path, warehouse, sources_file, rules, repair, Path(folder) / "scratch.duckdb",
                         today, False, revision_of, memory_limit, engine, spark_master, collect,
                         fit_limit, waivers, given, discarded=True)
    path = Path(path)
    _require_file(path)
    in_step = _require_manifest(Path(sources_file), warehouse)
    if warehouse is not None:
        _require_warehouse(Path(warehouse))
    rules = rules if rules is not None else load_rules()
    today = today or dt.date.today()
    status(f"reading {path.name}")
    read = submitted_input(path, sources_file, warehouse, today, revision_of, given)
    retiring = [(revision_of, read.source.file, today.isoformat())] if revision_of else []
    if warehouse is not None:
        shutil.copyfile(warehouse, scratch)  # the submission is added to a copy
    try:
        con, spill = connect_bounded(Path(scratch), memory_limit)
    except duckdb.Error as err:
        raise CannotCheck(f"--memory-limit {memory_limit}: {str(err).splitlines()[0]}") from None
    if discarded:
        run(con, "PRAGMA disable_checkpoint_on_shutdown")
    status(f"loading {path.name} into a scratch copy of the warehouse")
    revision_notes: list[str] = []
    try:
        try:
            if warehouse is None:
                create_warehouse(con, [read])
                subjects = changed = [read.source.file]
            else:
                _require_built_by_this_code(con, Path(warehouse))
                rechecked = measuring_alike(con, revision_of) if revision_of else []
                if revision_of:
                    keep_replaced_keys(con, revision_of)
                loaded, changed = add_sources(con, [read], retiring)
                if revision_of:
                    refuse_unrelated_revision(con, path, read.source, revision_of)
                    revision_notes = dropped_by_revision_note(con, read.source.file, revision_of)
                subjects = sorted(set(loaded + rechecked))
                changed = sorted(set(changed + rechecked))
        except ParseError as err:
            raise SubmissionError(str(err if err.source else err.located(str(path)))) from None
        except WarehouseError as err:
            raise SubmissionError(str(err)) from None
        insert_rows(con, "raw_waivers", [{"source": read.source.file, "finding_key": key, "reason": reason}
                                         for key, reason in sorted((waivers or {}).items())])
        if revision_of is None:
            refuse_same_measurements(con, read.source.file)
        fit_notes: list[str] = []
        fittable = count_series(con, subjects, MIN_SIZES)
        if fittable and (fit_limit is None or fittable <= fit_limit):
            from models.fit import import_scipy_meanwhile  # numpy: only where something is fitted

            import_scipy_meanwhile()  # the fits come after the rules' first pass
        status("running the rules")
        row_notes: list[str] = []
        con = _evaluate(con, rules, engine, repair, spark_master,
                        lambda c, sources: _fit_submission(c, sources, fittable, fit_limit, fit_notes),
                        subjects, lambda c: row_notes.extend(_row_notes(c, read)))
        result = _result(con, path, read, collect, row_notes)
        result.subjects, result.changed = subjects, changed
        result.notes.extend(revision_notes + fit_notes)
        if in_step is False:
            result.notes.append(_out_of_step_note(Path(sources_file), Path(warehouse)))
    except duckdb.Error as err:
        con.close()
        remove_spill(spill)
        if not out_of_memory(err):
            raise
        raise OutOfMemory(f"{path}: the check needs more memory than --memory-limit {memory_limit} "
                          f"even when it spills to disk ({str(err).splitlines()[0]}); give it "
                          "more, e.g. --memory-limit 2GB") from None
    except BaseException:
        con.close()
        remove_spill(spill)
        raise
    if keep:
        return result, con
    con.close()
    remove_spill(spill)
    return result


def measuring_alike(con: duckdb.DuckDBPyConnection, source: str) -> list[str]:
    """The other sources with a row that measures what a row of ``source`` measures (the same
    measurement_key): when ``source`` is retired, their comparisons with it go."""
    return [s for (s,) in run(con, """
        SELECT DISTINCT source FROM dq_input
        WHERE measurement_key IN (SELECT measurement_key FROM dq_input WHERE source = ?) AND source <> ?
        ORDER BY 1""", [source, source])]


@contextlib.contextmanager
def checked(path: Path, **options):
    """`check` with its scratch database kept open for the block, to stream the findings from
    it or query it: yields (result, connection); the scratch (a file in a temporary folder,
    its spill folder beside it) is closed and removed afterwards."""
    with scratch_directory("check") as folder:
        result, con = check(path, scratch=Path(folder) / "scratch.duckdb", keep=True, discarded=True,
                            **options)
        try:
            yield result, con
        finally:
            con.close()


def _fit_submission(con: duckdb.DuckDBPyConnection, sources: list[str], fittable: int,
                    limit: int | None, notes: list[str]) -> None:
    """Fit the series of ``sources`` (the submission's, and those of the sources checked
    again) in the scratch copy, unless there are more than ``limit`` (``fittable``: how many
    there are, counted once by the caller - a count over a million rows takes seconds)."""
    if limit is not None and fittable > limit:
        notes.append(f"the model residual rule did not run: {fittable} series to fit, more than "
                     f"--fit-limit {limit} (fitting takes about 20 ms a series; raise the limit "
                     "to run it)")
        return
    status(f"fitting the models ({fittable:,} series)")
    fit_warehouse(con, sources, accuracy=False)  # the rules read predictions only


def _evaluate(con: duckdb.DuckDBPyConnection, rules: list[Rule], engine: str, repair: bool,
              spark_master: str | None, fit_models, subjects: list[str], inspect
              ) -> duckdb.DuckDBPyConnection:
    """The rules (and the typo repair) on the subjects' rows of the scratch warehouse, the
    models fitted between their two passes, then ``inspect(con)``; for Spark, over a lake of
    it written to a temporary folder."""
    try:
        if engine != "spark":
            return evaluate(con, engine, rules, repair=repair, fit_models=fit_models,
                            subjects=subjects, inspect=inspect)
        with scratch_directory("check-lake") as folder:
            return evaluate(con, engine, rules, lake=Path(folder) / "lake", spark_master=spark_master,
                            repair=repair, fit_models=fit_models, subjects=subjects, inspect=inspect)
    except RuleError as err:  # a rule file, or the engine, not the submission
        raise CannotCheck(str(err)) from None


def _require_file(path: Path) -> None:
    if path.is_dir():
        raise SubmissionError(f"{path}: is a directory, not a submission (expected a CSV in "
                              "the submission template, or a report .txt or .pdf)")
    if not path.exists():
        raise SubmissionError(f"{path}: no such file")
    if not path.is_file():
        raise SubmissionError(f"{path}: not a regular file")


def _require_manifest(sources_file: Path, warehouse: Path | None) -> bool | None:
    """The manifest a filing would extend must read: checked first, so that `check` says what
    `add` would find only after the whole check (its entry cannot be added to a broken one).
    A manifest whose text is the one the warehouse holds (built from it, or written by the
    last add) was read whole when it was recorded, and is not read again: its parse grows
    with every source it lists (0.05 s at two hundred), and a filing must not. Returns whether
    the two are in step (`manifest_in_step`)."""
    in_step = manifest_in_step(warehouse, sources_file) if warehouse is not None else None
    if in_step:
        return in_step
    try:
        load_manifest(sources_file)
    except SourceError as err:
        raise CannotCheck(str(err)) from None
    return in_step


def _out_of_step_note(sources_file: Path, warehouse: Path) -> str:
    """What a check says of a warehouse and a manifest out of step: it compares the submission
    with the warehouse's rows all the same, but the add it rehearses would be refused."""
    return (f"{warehouse} holds another sources.yml than {sources_file} (built from, or last filed "
            "into, another, or this one changed since): `perfwh add` with these two would refuse - "
            "give the warehouse's manifest with --sources, or rebuild the warehouse from this one")


def _require_warehouse(warehouse: Path) -> None:
    try:
        require_warehouse(warehouse)
    except NotAWarehouse as err:
        raise CannotCheck(str(err)) from None


def _require_built_by_this_code(con: duckdb.DuckDBPyConnection, warehouse: Path) -> None:
    """The warehouse (``con``: its scratch copy) was built by this code: one another version
    built would read and convert the submission otherwise than a build of it does (a unit added
    since is unknown to its staging; the facts it would get are not those a build gives)."""
    drift = reference_drift(con)
    if drift:
        raise CannotCheck(f"{warehouse}: built by another version of perfwh than this one - "
                          + "; ".join(drift) + ". Rebuild it from the raw layer first: `make` "
                          "(or `perfwh build --out WAREHOUSE`)")


class Filed(NamedTuple):
    """What the warehouse holds of a filed source."""
    order: int
    sha256: str
    retired_by: str | None  # the source that replaced it, if it is retired
    family: str


def filed_sources(warehouse: Path | None) -> dict[str, Filed]:
    """Every source the warehouse holds, by name."""
    if warehouse is None:
        return {}
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return {s: Filed(*rest) for s, *rest in run(
            con, "SELECT source, filed_order, sha256, retired_by, family FROM raw_reports")}
    except duckdb.Error as err:
        raise CannotCheck(f"{warehouse}: not a perfwh warehouse ({str(err).splitlines()[0]})") from None
    finally:
        con.close()


def _filed_as(name: str, filed: dict[str, Filed]) -> str:
    retired_by = filed[name].retired_by
    return (f"{name}, which was filed and later retired (replaced by {retired_by}; a retired "
            "source stays on file)") if retired_by else f"{name}, which is already filed"


def refuse_unfileable_name(path: Path) -> None:
    """A name the filing could not write: its raw file's staged copy, or the lake's folder for
    the source (Hive escaping makes ':' and '#' three bytes each), too long for the disk; one
    that is not text (bytes no encoding reads): the warehouse and sources.yml name it; or one
    perfwh keeps for itself (its temporary files begin with '.', the manifest is sources.yml),
    which the raw layer's folder could not hold beside its own."""
    if path.name.startswith("."):
        raise Refused(f"{path}: a file name starting with '.' is not filed (such names are reserved "
                      "for perfwh's temporary files); rename it")
    if path.name == "sources.yml":
        raise Refused(f"{path}: that name is the manifest's; rename the file")
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(f"{path}: the file name is not UTF-8 text (its undecodable bytes show as "
                      "\\udcXX); give the file a name of letters, digits and punctuation") from None
    acting = next((ch for ch in path.name if unicodedata.category(ch) in ACTING_CATEGORIES), None)
    if acting is not None:
        raise Refused(f"{one_line(str(path))}: the file name holds the control character "
                      f"U+{ord(acting):04X}, which would act on the terminal, page, chart or notebook "
                      "that prints the source's name (as no product or scenario name may); rename it")
    problem = longest_name_problem({
        "the staged copy of the raw file": "." + path.name + "x" * STAGED_NAME_EXTRA,
        "the Parquet lake's folder for it": "source=" + hive_escape(path.name)})
    if problem:
        raise Refused(f"{path}: the file name cannot be filed as it is: {problem}; "
                      "give the file a shorter name")


def _name_folded(name: str) -> str:
    """A file name as a case-insensitive file system that composes accents compares it."""
    import unicodedata

    return unicodedata.normalize("NFC", name).casefold()


def refuse_filed(path: Path, filed: dict[str, Filed], revision_of: str | None) -> None:
    """A file already filed - under its name, or the same bytes under another - is refused;
    a revision must name a filed source that is current (a retired one was replaced already:
    its further edition revises its replacement, or two editions would stand)."""
    digest = sha256_of(path)
    twin = sorted(s for s, f in filed.items() if f.sha256 == digest)
    if twin:
        raise Refused(f"{path}: the same bytes as {_filed_as(twin[0], filed)} "
                      f"(sha256 {digest[:16]}...): nothing new to check or add")
    if path.name in filed:
        raise Refused(f"{path}: a source named {path.name} is on file with other contents "
                      f"({_filed_as(path.name, filed)}); give the submission a name of "
                      f"its own (to replace that source, rename the file and pass "
                      f"--revision-of {path.name})")
    alike = sorted(s for s in filed if _name_folded(s) == _name_folded(path.name))
    if alike:
        raise Refused(f"{path}: its name differs from {_filed_as(alike[0], filed)}, only in case or "
                      "in how its accents are typed: on macOS and Windows, and in a copy of the lake "
                      "there, the two would be one file; give the submission a name of its own")
    if revision_of is not None and revision_of not in filed:
        raise SubmissionError(f"--revision-of {revision_of}: no filed source has that name "
                              "(see `perfwh sql \"SELECT source FROM dim_report\"`)", verb="error")
    if revision_of is not None and filed[revision_of].retired_by is not None:
        current = _current_edition(revision_of, filed)
        raise Refused(f"--revision-of {revision_of}: it was retired already, replaced by "
                      f"{filed[revision_of].retired_by}; a further edition replaces the current one: "
                      f"give --revision-of {current}")


def _current_edition(name: str, filed: dict[str, Filed]) -> str:
    """The source that stands for ``name`` now: the last of the editions that replaced it."""
    seen = {name}
    while filed[name].retired_by is not None and filed[name].retired_by in filed \
            and filed[name].retired_by not in seen:
        name = filed[name].retired_by
        seen.add(name)
    return name


# The measurement keys of the source a revision replaces, while its check runs.
REPLACED_KEYS = "revision_replaced_keys"


def keep_replaced_keys(con: duckdb.DuckDBPyConnection, source: str) -> None:
    """REPLACED_KEYS: what ``source`` measures, read before a revision retires it."""
    run(con, f"CREATE OR REPLACE TEMP TABLE {REPLACED_KEYS} AS "
             "SELECT measurement_key, min(source_line) AS source_line FROM dq_input WHERE source = ? "
             "GROUP BY measurement_key", [source])


# How many lines of the replaced source a revision's note names.
NAMED_DROPPED = 5


def dropped_by_revision_note(con: duckdb.DuckDBPyConnection, source: str, revision_of: str) -> list[str]:
    """A note on what the replaced source measured that the revision does not measure again:
    retiring it takes those measurements out of the warehouse (a file that repeats only part of
    an earlier one, filed as its revision, drops the rest)."""
    dropped = [line for (line,) in run(con, f"""
        SELECT source_line FROM {REPLACED_KEYS}
        WHERE measurement_key NOT IN (SELECT measurement_key FROM dq_input WHERE source = ?)
        ORDER BY source_line""", [source])]
    if not dropped:
        return []
    lines = list(dict.fromkeys(dropped))  # a line may print several measurements (two products)
    shown = ", ".join(map(str, lines[:NAMED_DROPPED])) + (
        f" and {len(lines) - NAMED_DROPPED:,} more" if len(lines) > NAMED_DROPPED else "")
    return [f"{revision_of} is retired: {len(dropped):,} of its measurements "
            f"{'is' if len(dropped) == 1 else 'are'} not in this file and "
            f"{'leaves' if len(dropped) == 1 else 'leave'} the warehouse (its line{'s' if len(lines) != 1 else ''} {shown}); if this file "
            "adds to it rather than replaces it, file it without --revision-of"]


def refuse_unrelated_revision(con: duckdb.DuckDBPyConnection, path: Path, source: ReportSource,
                              revision_of: str) -> None:
    """A revision is a further edition of what it replaces: of the same family (a report's of
    that report's family, a submission's of a submission), or a transcription measuring at
    least some of what it replaced (REPLACED_KEYS). Any other file retiring a report would take
    every number of it out of the facts for numbers of something else."""
    [(family,)] = run(con, "SELECT family FROM raw_reports WHERE source = ?", [revision_of])
    if family == source.family:
        return
    shared = run(con, f"SELECT count(*) FROM dq_input WHERE source = ? AND measurement_key IN "
                      f"(SELECT measurement_key FROM {REPLACED_KEYS})", [source.file])[0][0]
    if not shared:
        raise Refused(f"{path}: --revision-of {revision_of} names a source of the family {family}, and "
                      f"this file, of the family {source.family}, measures nothing it measured: a "
                      "further edition replaces what it measures again; file it alone (without "
                      "--revision-of)")


# A measured number, keyed the way the warehouse keys it (vocabulary applied): two sources
# whose numbers are the same multiset of these hold the same measurements (schema/40_views.sql).
_FACT_KEY = ("fact_key(product, product_version, platform, scenario, message_size_bytes, persistent, "
             "concurrency_kind, concurrency, replicas, tshirt, component, metric, value)")


def refuse_same_measurements(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """A submission whose numbers are exactly those a filed source prints of the same metrics
    (same keys, same values, however the file is laid out) is a copy of it: refused, naming it.
    Only the submission's metrics are compared: the template cannot carry a report's power
    readings or latencies, so a copy of a report's rows lacks them. The candidates are the
    sources whose fingerprints (dq_source_fingerprints) over those metrics match; only theirs
    are compared number by number."""
    twins = run(con, """
        WITH mine AS (SELECT metric, numbers, keys_sum FROM dq_source_fingerprints WHERE source = ?),
             theirs AS (SELECT source, sum(numbers) AS n, sum(keys_sum) AS h
                        FROM dq_source_fingerprints
                        WHERE metric IN (SELECT metric FROM mine) AND source <> ?
                        GROUP BY source)
        SELECT source FROM theirs
        WHERE n = (SELECT sum(numbers) FROM mine) AND h = (SELECT sum(keys_sum) FROM mine)
        ORDER BY source""", [name, name])
    compared = f"""
        SELECT {_FACT_KEY} AS k FROM metric_values
        WHERE source = ? AND metric IN (SELECT metric FROM metric_values WHERE source = ?)"""
    for (other,) in twins:
        differ = run(con, f"""
            SELECT count(*) FROM (
                ({compared} EXCEPT ALL {compared})
                UNION ALL
                ({compared} EXCEPT ALL {compared}))""",
                     [name, name, other, name, other, name, name, name])[0][0]
        if differ == 0:
            raise SubmissionError(f"{name}: the same measurements (keys and numbers) as {other}, "
                                  f"which is already filed; to replace {other} by it, pass "
                                  f"--revision-of {other}", status=1)


@dataclass(frozen=True)
class GivenFacts:
    """Product and platform facts of a report given on the command line (`--product`,
    `--platform`), by the keys its family's parser gives them (None: the report's only
    product or platform): what sources.yml records for a filed report."""
    products: dict = field(default_factory=dict)
    platforms: dict = field(default_factory=dict)

    @staticmethod
    def product(short: str, version: str) -> dict:
        return {"name": short, "short": short, "version": version, "fix_pack": None}

    @staticmethod
    def platform(label: str, cores: int | None) -> dict:
        return {"label": label, "os": None, "hardware": None, "cpu_model": None, "cores": cores,
                "deployment": "as given on the command line", "memory": None}

    def __bool__(self) -> bool:
        return bool(self.products or self.platforms)


FACT_OPTIONS = {"products": "--product KEY=NAME:VERSION", "platforms": "--platform KEY=LABEL[:CORES]"}


def given_facts(path: Path, family: str, parsed, borrowed: dict, given: GivenFacts) -> dict:
    """The products and platforms of a report's entry: those given on the command line, over
    those borrowed from a filed edition of its family; every key the report's rows name must
    have them. A fact given without a key is the report's only product (platform)."""
    used = {"products": sorted({o.product for o in parsed.observations}),
            "platforms": sorted({o.platform for o in parsed.observations})}
    out, missing = {}, []
    for kind, facts in (("products", given.products), ("platforms", given.platforms)):
        merged = dict(borrowed.get(kind) or {})
        for key, fact in facts.items():
            if key is None:
                if len(used[kind]) != 1:
                    raise SubmissionError(f"{path}: the report names {len(used[kind])} {kind} "
                                          f"({', '.join(used[kind])}): give each as {FACT_OPTIONS[kind]}")
                key = used[kind][0]
            elif key not in used[kind]:
                raise SubmissionError(f"{path}: the report names no {kind[:-1]} {key!r} (its {kind}: "
                                      f"{', '.join(used[kind])})")
            merged[key] = fact
        missing += [FACT_OPTIONS[kind].replace("KEY", key) for key in used[kind] if key not in merged]
        out[kind] = merged
    if missing:
        why = (f"naming products or platforms the filed {family} report does not describe"
               if borrowed.get("products") else
               f"and sources.yml has no {family} report to borrow its products and platforms from")
        raise SubmissionError(f"{path}: a {family} report, {why}: give {' '.join(missing)}")
    return out


def submitted_input(path: Path, sources_file: Path, warehouse: Path | None,
                    today: dt.date, revision_of: str | None = None,
                    given: GivenFacts | None = None) -> SourceInput:
    """The submitted file as the build would read it once filed: a CSV for the submission
    reader, or a report parsed by its family's parser under the manifest entry of a filed
    edition of its family, with the facts ``given`` on the command line over its own."""
    filed = filed_sources(warehouse)
    refuse_unfileable_name(path)
    refuse_filed(path, filed, revision_of)
    order = max((f.order for f in filed.values()), default=0) + 1
    if submission.looks_like_submission(path):
        if given:
            raise SubmissionError(f"{path}: a CSV states its products and platforms in its rows; "
                                  "--product and --platform are for a report")
        try:
            fmt = submission.sniff(path)
        except ParseError as err:
            raise SubmissionError(str(err.located(str(path)))) from None
        source = ReportSource(path.name, submission.FAMILY, sha256_of(path),
                              csv_entry(path, today), order)
        return CsvSubmission(source, path, fmt)
    try:
        lines = read_lines(path)
        family = families.detect(lines, str(path))
        parsed = families.parse(family, lines, str(path))
    except ParseError as err:
        raise SubmissionError(str(err.located(str(path)) if err.source is None else err)) from None
    given = given or GivenFacts()
    entry = edition_entry(path, family, today, sources_file, parsed)
    entry.update(given_facts(path, family, parsed, entry, given))
    if given:
        entry["origin"] += "; facts given on the command line"
    source = ReportSource(path.name, family, sha256_of(path), entry, order)
    try:
        check_keys(source, parsed)
    except SourceError as err:
        raise SubmissionError(str(err)) from None
    return LoadedReport(source, parsed, len(lines))


def csv_entry(path: Path, today: dt.date) -> dict:
    """The sources.yml entry of a CSV submission (its rows state their own products and
    platforms, so it records none)."""
    return {"file": path.name, "family": submission.FAMILY, "sha256": sha256_of(path),
            "title": f"Submitted results {path.name}", "edition": None,
            "published": today.isoformat(), "document_id": None,
            "document_id_note": "a submission in the CSV template",
            "origin": "submitted with perfwh add", "retrieved": today.isoformat()}


def edition_entry(path: Path, family: str, today: dt.date, sources_file: Path,
                  parsed: ParsedReport) -> dict:
    """The sources.yml entry of a report of a known family: a further edition, a revision, or
    the first report of the family.

    Each product and platform its rows name is taken from the family's filed reports (the
    latest that records it), else from what the report prints about itself (`ParsedReport.
    facts`: a new appliance model and its hardware table, a new MQ version); what neither
    gives must be given on the command line (`given_facts` checks that every key is covered).
    Title, edition and date are the report's own where its parser reads them, else the first
    filed report's, marked as a revision (for a family's first report: its file name and
    today)."""
    try:
        known = [s for s in load_manifest(sources_file) if s.family == family]
    except SourceError as err:
        raise CannotCheck(str(err)) from None
    if not known:
        base = {"title": f"{family} report {path.name}", "published": today.isoformat(),
                "document_id": None}
    else:
        base = known[0].entry
    facts = parsed.facts or {}
    borrowed: dict[str, set] = {}

    def facts_of(kind: str, keys: set[str]) -> dict:
        out = {}
        for key in sorted(keys):
            filed = next((s for s in reversed(known) if key in (s.entry.get(kind) or {})), None)
            if filed is not None:
                out[key] = filed.entry[kind][key]
                borrowed.setdefault(filed.file, set()).add(key)
            elif key in (facts.get(kind) or {}):
                out[key] = facts[kind][key]
        return out

    products = facts_of("products", {o.product for o in parsed.observations})
    platforms = facts_of("platforms", {o.platform for o in parsed.observations})
    own = "title" in facts
    origin = "submitted with perfwh add"
    if borrowed:
        origin += "; facts borrowed from " + "; ".join(
            f"{file} ({', '.join(sorted(keys))})" for file, keys in sorted(borrowed.items()))
    return {"file": path.name, "family": family, "sha256": sha256_of(path),
            "title": facts["title"] if own else (
                f"{base['title']} (revised edition)" if known else base["title"]),
            "edition": facts.get("edition") if own else (
                f"revision submitted {today.isoformat()}" if known else None),
            "published": str(facts.get("published") or base["published"]),
            "document_id": facts.get("document_id") if own else base.get("document_id"),
            "origin": origin, "retrieved": today.isoformat(), "products": products,
            "platforms": platforms}


def _row_notes(con: duckdb.DuckDBPyConnection, read: SourceInput) -> list[str]:
    """What a CSV submission's rows themselves call for a note on (read from dq_input)."""
    if not isinstance(read, CsvSubmission):
        return []
    return _repeated_rows_note(con, read.source.file) + _fraction_cpu_note(con, read.source.file)


def _result(con: duckdb.DuckDBPyConnection, path: Path, read: SourceInput,
            collect: bool, row_notes: list[str]) -> CheckResult:
    name = read.source.file
    if isinstance(read, CsvSubmission):
        kind = CSV
        rows = run(con, "SELECT count(DISTINCT source_line) FROM stg_observations WHERE source = ?",
                   [name])[0][0] + run(con, "SELECT count(DISTINCT line) FROM raw_rejects "
                                             "WHERE source = ? AND line NOT IN (SELECT source_line "
                                             "FROM stg_observations WHERE source = ?)", [name, name])[0][0]
        notes = (list(read.format.notes) if read.format else []) + row_notes
    else:
        kind = REPORT
        rows = run(con, "SELECT count(*) FROM dq_input WHERE source = ?", [name])[0][0]
        notes = []
    counts = {(rule, severity): n for rule, severity, n in run(
        con, f"SELECT rule, severity, count(*) FROM {FOUND} WHERE world = 0 AND source = ? "
             "GROUP BY ALL ORDER BY severity, rule", [name])}
    result = CheckResult(path, read.source, kind, rows, counts, [], notes)
    if collect:
        result.findings = list(own_findings(con, result))
    return result


# How many repeated rows a note names by line.
NAMED_REPEATS = 5


def _repeated_rows_note(con: duckdb.DuckDBPyConnection, source: str) -> list[str]:
    """A note on the rows of a submission that repeat an earlier row number for number (the
    same measurement_key, every number printed alike). Each is kept as a printing of its
    measurement, as a report's printings of one measurement in two tables are: a transcription
    of such a report holds them by right, a line copied by mistake does not, and only the
    submitter can tell which - so a note, not a finding of every transcribed report."""
    repeats = run(con, """
        SELECT min(source_line) AS first, list(source_line ORDER BY source_line)[2:] AS copies
        FROM dq_input WHERE source = ?
        GROUP BY measurement_key, msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed
        HAVING count(*) > 1 ORDER BY first""", [source])
    if not repeats:
        return []
    pairs = [(copy, first) for first, copies in repeats for copy in copies]
    named = ", ".join(f"line {copy} repeats line {first}" for copy, first in sorted(pairs)[:NAMED_REPEATS])
    more = f" and {len(pairs) - NAMED_REPEATS:,} more" if len(pairs) > NAMED_REPEATS else ""
    verb = "repeats" if len(pairs) == 1 else "repeat"
    return [f"{counted(len(pairs), 'row')} {verb} an earlier row number for number ({named}{more}): each is "
            "filed as a printing of the same measurement, as a report's printings in two tables are - the "
            "models count it once, sums over `measurements` count every printing; delete any line copied "
            "by mistake"]


def _fraction_cpu_note(con: duckdb.DuckDBPyConnection, source: str) -> list[str]:
    """A note where every %CPU of a submission with a rate and a cost is at most 1: a tool that
    gives utilisation as a fraction (0.45 for 45 %) makes each row's rate x cost 100 times its
    %CPU, an error a row (cpu_identity) that does not say why."""
    [(rows, largest, fraction_like)] = run(con, """
        SELECT count(cpu_busy_pct), max(cpu_busy_pct),
               -- the cores rate x cost keeps busy at the printed %CPU, as cpu_identity reads them
               count(*) FILTER (WHERE cpu_busy_pct > 0 AND server_cores > 0
                                  AND abs(ln(cpu_ms_per_msg * msg_rate / (10 * cpu_busy_pct) / server_cores)
                                          - ln(100)) < ln(2))
        FROM dq_input WHERE source = ?""", [source])
    if not rows or largest is None or largest > 1 or not fraction_like:
        return []
    return [f"every cpu_busy_pct of this file is at most 1 ({largest:g}), and rate x cost says about 100 "
            "times as much: if they are fractions of the CPU, write them as percentages (0.45 is 45)"]


def own_findings(con: duckdb.DuckDBPyConnection, result: CheckResult) -> Iterator[dict]:
    """The findings on the submission's rows, in order, streamed from the scratch database
    (each named by the submitted path, as the user gave it)."""
    for f in stored_findings(con, "world = 0 AND source = ?", [result.source.file]):
        f["source"] = str(result.path)
        yield f


def format_line(f: dict) -> str:
    """FILE:LINE: severity rule: message (suggest VALUE). A line that a spreadsheet would run as
    a formula (a file named "=...") begins with an apostrophe, as a CSV cell of perfwh does:
    such lines go to files (--out) that a spreadsheet may open. A line break or a tab (of a
    file's name) shows as \\n or \\t: one finding is one line, and a name cannot forge another."""
    text = f"{f['source']}:{f['source_line']}: {f['severity']} {f['rule']}: {f['message']}"
    if f.get("suggested_value"):
        text += f" (suggest {f['suggested_value']})"
    return safe_cell(one_line(text))


def as_json(f: dict) -> dict:
    return {"id": finding_id(f), "file": f["source"], "line": f["source_line"],
            "severity": f["severity"], "rule": f["rule"], "metric": f["metric"],
            "printed_value": f["printed_value"], "message": f["message"],
            "suggested_value": f.get("suggested_value")}
