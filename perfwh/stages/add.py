"""`perfwh add PATH`: file a checked submission - one transaction.

`add` runs `perfwh check` on a scratch copy of the warehouse staged beside it (the same
function, so what check accepts add accepts) and, when no unwaived error stands, commits
together: the raw file (data/raw/submissions/), its sources.yml entry (with the waivers and,
for `--revision-of`, the replaced source marked retired), and the new warehouse - the
scratch database with its findings, every model table refitted, documented - with its Parquet
export and lake. Under the writer lock; a killed or failed add changes nothing, and the next writer
cleans up after it (`perfwh.core.commit`). The notebooks and the site are not rebuilt here:
`make` rebuilds them (their stamps are older than the warehouse), and `add` says so.
"""
from __future__ import annotations

import datetime as dt
import fnmatch
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ingest.printable import one_line
from perfwh.core.files import remove_database_wal
from perfwh.core.paths import PROJECT_SOURCES, RAW_SUBMISSIONS, WAREHOUSE
from perfwh.core.values import counted
from perfwh.quality.rules import finding_id, load_rules
from perfwh.warehouse.schema import document
from perfwh.warehouse.db import insert_rows, manifest_in_step, remove_spill, spill_directory
from perfwh.warehouse.load import record_manifest
from perfwh.warehouse.sources import (SourceError, load_manifest, with_entry,
                                      with_retired)

from .check import CheckResult, GivenFacts, SubmissionError, check, format_line
from .models import file_findings
from .writing import stage_exports, writing


class AddError(RuntimeError):
    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


@dataclass
class AddResult:
    target: Path
    rows: int
    waived: int
    revision_of: str | None
    notes: list[str]
    warehouse: Path = WAREHOUSE
    unfiled_lines: tuple[int, ...] = ()  # rows a waived unreadable name kept out of the facts
    blank_cells: int = 0                 # waived unreadable cells of filed rows, filed as blank

    def message(self) -> str:
        text = f"added {one_line(str(self.target))} ({counted(self.rows, 'row')}"
        if self.unfiled_lines:
            lines = ", ".join(map(str, self.unfiled_lines[:10])) + (", ..." if len(self.unfiled_lines) > 10 else "")
            text += (f", {len(self.unfiled_lines)} of them not filed: a name on line{'s' if len(self.unfiled_lines) > 1 else ''} "
                     f"{lines} could not be read (the raw file keeps {'them' if len(self.unfiled_lines) > 1 else 'it'})")
        if self.blank_cells:
            text += f", {counted(self.blank_cells, 'unreadable cell')} of filed rows left blank"
        if self.waived:
            text += f", {counted(self.waived, 'waived finding')}"
        text += "); sources.yml, the warehouse, its findings and its models updated"
        if self.revision_of:
            text += (f"; {one_line(self.revision_of)} is retired (kept in {one_line(str(self.target.parent.parent))}, "
                     "no longer in the facts)")
        return text + ". The notebooks and the site are now stale: " + self._rebuild() + "."

    def _rebuild(self) -> str:
        """How to rebuild what reads the warehouse: `make` for the project's own; for another
        (a copy given with --db), the commands that read it, since `make` reads the project's."""
        if self.warehouse.resolve() == WAREHOUSE.resolve():
            return "run `make` to rebuild them"
        db = one_line(str(self.warehouse))
        return (f"`make` rebuilds the project's own warehouse's, so for {db} run `perfwh notebooks --db {db} "
                f"--out FOLDER` and `perfwh site --db {db} --out FOLDER`")


def add(path: Path, waivers: dict[str, str], warehouse: Path, sources_file: Path,
        today: dt.date | None = None, revision_of: str | None = None,
        wait: bool = True, given: GivenFacts | None = None) -> AddResult:
    path, warehouse, sources_file = Path(path), Path(warehouse), Path(sources_file)
    _require_own_manifest(warehouse, sources_file)
    today = today or dt.date.today()
    raw_dir = sources_file.parent
    target = raw_dir / RAW_SUBMISSIONS / path.name
    patterns = {key: reason for key, reason in waivers.items() if is_waiver_pattern(key)}
    unnamed = sorted(key for key in waivers if key not in patterns and re.search(r"[*?\[]", key))
    if unnamed:
        raise AddError(f"the waiver pattern {one_line(unnamed[0])} names no rule: a pattern waives findings of "
                       "one rule, written RULE@... (e.g. cross_table_consistency@*)", status=2)
    waivers = {key: reason for key, reason in waivers.items() if key not in patterns}
    with writing(warehouse, "add", wait=wait, also=(raw_dir, raw_dir / RAW_SUBMISSIONS)) as transaction:
        scratch = transaction.stage(warehouse)
        rules = load_rules()
        try:
            result, con = check(path, warehouse=warehouse, sources_file=sources_file, rules=rules,
                                scratch=scratch, today=today, keep=True, revision_of=revision_of,
                                fit_limit=None, waivers=waivers, given=given)
        except SubmissionError as err:
            raise AddError(f"cannot file the submission: {err}", status=err.status) from None
        try:
            # after the check, which names what is wrong with the file itself first
            _require_in_step(warehouse, sources_file)
            if target.exists():
                raise AddError(f"{one_line(str(target))} already exists; give the submission a name of its own")
            matched = _matching(result, patterns, waivers)
            # recorded as a build reads them from the entry: the rules never read waivers, the
            # filed findings and the refit after them do
            insert_rows(con, "raw_waivers", [{"source": result.source.file, "finding_key": key,
                                              "reason": reason} for key, reason in sorted(matched.items())])
            waivers = {**waivers, **matched}
            _gate(result, waivers, path)
            entry = _entry(result, waivers)
            try:
                new_text = with_entry(Path(sources_file).read_text(encoding="utf-8"), entry)
                if revision_of:
                    new_text = with_retired(new_text, revision_of, path.name, today.isoformat())
                staged_manifest = transaction.stage_text(sources_file, new_text)
                load_manifest(staged_manifest)  # the new manifest must read back
            except SourceError as err:  # changed under the check, or will not take the entry
                raise AddError(f"cannot file the submission: {err}", status=2) from None
            record_manifest(con, hashlib.sha256(new_text.encode("utf-8")).hexdigest())
            unfiled, blank = _unreadable_left_out(con, result.source.file)
            file_findings(con, rules, result.subjects)
            document(con)
            stage_exports(transaction, warehouse).write(con, changed=result.changed)
        finally:
            con.close()
            remove_spill(spill_directory(scratch))
        remove_database_wal(scratch)
        transaction.stage_copy(path, target)
        transaction.commit()
    return AddResult(target, result.rows, len(waivers), revision_of, result.notes, warehouse, unfiled, blank)


def _unreadable_left_out(con, source: str) -> tuple[tuple[int, ...], int]:
    """What waived unreadable cells (raw_rejects) kept out of the facts: the lines of rows not
    filed at all (a name could not be read) and how many cells of filed rows were left blank."""
    [(unfiled, blank)] = con.execute("""
        WITH filed AS (SELECT DISTINCT source_line FROM measurements WHERE source = $1),
             rejected AS (SELECT line, line IN (SELECT source_line FROM filed) AS filed
                          FROM raw_rejects WHERE source = $1 AND kind = 'unreadable')
        SELECT list(DISTINCT line ORDER BY line) FILTER (WHERE NOT filed), count(*) FILTER (WHERE filed)
        FROM rejected""", [source]).fetchall()
    return tuple(unfiled or ()), blank


def _require_own_manifest(warehouse: Path, sources_file: Path) -> None:
    """The project's raw layer belongs to the project's warehouse: filing another warehouse (a
    copy, --db or $PERFWH_DB) with the project's manifest would record the submission in the
    project's raw layer and not in its warehouse, and every later add there would be refused.
    A copy built from the same manifest is in step with it, so `_require_in_step` cannot tell."""
    if (Path(sources_file).resolve() == PROJECT_SOURCES.resolve()
            and Path(warehouse).resolve() != WAREHOUSE.resolve()):
        raise AddError(f"{one_line(str(warehouse))} is not the project's warehouse, and the manifest is the "
                       f"project's ({one_line(str(sources_file))}): filing would record the submission in the "
                       "project's raw layer and not in its warehouse. Give the other warehouse's own manifest "
                       "with --sources (a copy of the raw layer beside it), or file into the project's "
                       "warehouse (no --db)", status=2)


def _require_in_step(warehouse: Path, sources_file: Path) -> None:
    """The manifest an add extends is the one the warehouse holds (raw_manifest: the text it was
    built from or the last add wrote): filing into a warehouse with another raw layer's manifest
    - `--db` a copy, the project's sources.yml by default - would record the source in one and
    not the other, and neither would say so until a later add tripped over the name."""
    if manifest_in_step(warehouse, sources_file) is False:
        raise AddError(f"{one_line(str(sources_file))} is not the manifest {one_line(str(warehouse))} holds: the warehouse was built from, "
                       "or last filed into, another sources.yml (or this one changed since), so filing would "
                       "record the submission in one and not the other. Give the manifest of the warehouse's "
                       f"raw layer with --sources, or rebuild the warehouse from this one (`make`, or `perfwh "
                       f"build --out {one_line(str(warehouse))}`)", status=2)


# A waiver id with a wildcard after its rule's name (cross_table_consistency@*, a lab's re-run
# of a report's test: one finding per cell) waives every finding of that rule it matches; the
# rule is always named, so no pattern waives what the filer has not read.
WAIVER_PATTERN = re.compile(r"[a-z_]+@.*[*?\[].*")


def is_waiver_pattern(key: str) -> bool:
    return bool(WAIVER_PATTERN.fullmatch(key))


def _matching(result: CheckResult, patterns: dict[str, str], exact: dict[str, str]) -> dict[str, str]:
    """The findings each pattern waives ({id: the pattern's reason}; an id also waived by name
    keeps its own reason), or an error naming a pattern that matches none."""
    ids = sorted({finding_id(f) for f in result.findings})
    matched: dict[str, str] = {}
    for pattern, reason in patterns.items():
        hits = [i for i in ids if fnmatch.fnmatchcase(i, pattern) and i not in exact]
        if not hits and not any(fnmatch.fnmatchcase(i, pattern) for i in exact):
            raise AddError(f"no finding matches the waiver pattern {pattern} (ids are "
                           "rule@line:metric; see perfwh check --json)", status=2)
        for key in hits:
            matched.setdefault(key, reason)
    return matched


def _gate(result: CheckResult, waivers: dict[str, str], path: Path) -> None:
    """Refuse unknown waiver ids and unwaived errors."""
    ids = {finding_id(f) for f in result.findings}
    unknown = sorted(set(waivers) - ids)
    if unknown:
        near = sorted(i for i in ids for u in unknown if i.startswith(u + ":"))
        raise AddError("no finding has the id " + ", ".join(map(one_line, unknown))
                       + (f"; the findings of that rule on that line are {', '.join(near)}" if near else "")
                       + " (ids are rule@line:metric; see perfwh check --json)", status=2)
    blocking = [f for f in result.errors if finding_id(f) not in waivers]
    if blocking:
        listing = "\n".join(f"  [{finding_id(f)}] {format_line(f)}" for f in blocking)
        raise AddError(f"refused: {len(blocking)} unwaived error(s) in {one_line(str(path))}:\n{listing}\n"
                       "Correct the submission, or waive each with --waive ID --reason TEXT (every "
                       "finding of one rule with --waive 'RULE@*').")


def _entry(result: CheckResult, waivers: dict[str, str]) -> dict:
    entry = dict(result.source.entry)
    found = {finding_id(f): f for f in result.findings}
    if waivers:
        entry["waivers"] = [{"id": key, "reason": reason, "rule": found[key]["rule"],
                             "line": found[key]["source_line"], "message": found[key]["message"]}
                            for key, reason in sorted(waivers.items())]
    return entry
