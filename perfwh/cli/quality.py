"""Subcommands of the data-quality stage: check (a submission), add (file it), rules (list them)."""
from __future__ import annotations

import sys
from pathlib import Path

from ingest.printable import one_line
from perfwh.core.progress import live_status
from perfwh.core.values import counted

from .common import (add_db, add_engine, add_memory_limit, add_no_wait, add_sources, json_error,
                     warehouse_path, warehouse_to_read, warehouse_to_update)

EXIT_CLEAN, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


# More findings than this on the submission: the terminal gets a summary per rule instead of
# every line (all of them go to --out FILE, or to stdout with --json).
MANY_FINDINGS = 200


def add_fit_limit(parser) -> None:
    """--fit-limit: how many of the submission's series the check may fit."""
    from perfwh.warehouse.db import CHECK_FIT_LIMIT

    parser.add_argument("--fit-limit", type=_series_limit, default=CHECK_FIT_LIMIT, metavar="N",
                        help="fit the models on at most N of the submission's series for the "
                             "model residual rule, about 20 ms a series (default "
                             f"{CHECK_FIT_LIMIT}; 'all': no limit)")


# The most series --fit-limit may name (more than any submission has; 'all' lifts the limit).
MAX_FIT_LIMIT = 10_000_000


def _series_limit(text: str) -> int | None:
    import argparse

    if text == "all":
        return None
    if text.isdigit() and int(text) <= MAX_FIT_LIMIT:
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a number of series or 'all', not {text!r} (a "
                                     f"number from 0 to {MAX_FIT_LIMIT:,})")


def _unusable_out(args) -> str | None:
    """Why --out FILE cannot take the findings, or None: it must be a regular file or a new
    one (the findings are written beside it and renamed over it, which would replace a device,
    a pipe or a socket, not write into it; a link is followed and the file it names written);
    not the submission being checked (writing the findings over it would lose it), the
    warehouse or a file perfwh keeps beside it (its lock, its log, the lake, Data Docs, the
    build's output folder), nor the raw layer's manifest or a file beside or below it (raw
    files are never changed); and its folder must exist (found before the check runs, not
    after it)."""
    import stat

    from perfwh.core.files import in_raw_layer
    from perfwh.core.paths import RAW_DIR

    out = args.out
    if out is None:
        return None
    if out.is_dir():
        return f"--out {out}: is a folder; expected a file to write the findings to"
    try:
        mode = out.stat().st_mode  # through any link
    except FileNotFoundError:
        mode = None
    except OSError as err:
        return f"--out {out}: cannot be read ({err.strerror}); expected a file to write the findings to"
    if mode is not None and not stat.S_ISREG(mode):
        return (f"--out {out}: is not a regular file (a device, a pipe or a socket); the findings "
                "are written to a file (--json without --out writes them to standard output)")
    for raw in (Path(args.sources).parent, RAW_DIR):  # the manifest's, and the project's
        if in_raw_layer(out, raw):
            return (f"--out {out}: lies in the raw layer ({raw.resolve()}), whose files are never "
                    "changed; give a file outside it")
    for path, what in ((args.path, "the submission being checked"), (warehouse_path(args.db), "the warehouse")):
        if path is not None and _same_file(out, Path(path)):
            return f"--out {out}: is {what}; the findings would overwrite it (give another file)"
    kept = _kept_by_perfwh(out.resolve(), warehouse_path(args.db))
    if kept:
        return f"--out {out}: is {kept}; give a file outside it"
    folder = out.resolve().parent
    if not folder.is_dir():
        return f"--out {out}: the folder {folder} does not exist"
    return None


def _kept_by_perfwh(target: Path, db: Path) -> str | None:
    """What of perfwh's own ``target`` is, or None: a file of the project's build output
    (data/curated), or beside the warehouse ``db`` its lock, its write-ahead log, or a file of
    the folders written there (the lake, Data Docs)."""
    from perfwh.core.lock import LOCK_NAME
    from perfwh.core.paths import CURATED_DIR
    from perfwh.stages.writing import LAKE_DIR

    curated = CURATED_DIR.resolve()
    if target == curated or curated in target.parents:
        return f"in perfwh's build output ({curated}), which its builds replace"
    folder = db.resolve().parent
    if target.parent == folder and target.name in (LOCK_NAME, db.name + ".wal"):
        return "the lock or the log of the warehouse, which perfwh keeps beside it"
    if any(folder / kept in target.parents for kept in (LAKE_DIR, "gx")):
        return "a file of the lake or Data Docs written beside the warehouse"
    return None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return a.resolve() == b.resolve()


def _check(args) -> int:
    from perfwh.stages.check import SubmissionError, checked

    unusable = _unusable_out(args)
    if unusable:
        print(f"perfwh check: error: {unusable}", file=sys.stderr)
        if args.json:
            print(json_error(unusable, EXIT_UNREADABLE))
        return EXIT_UNREADABLE
    try:
        # where a long check has got to, on a terminal; cleared before anything is reported
        with live_status("perfwh check") as live, \
                checked(args.path, warehouse=warehouse_to_read(args.db), sources_file=args.sources,
                        revision_of=args.revision_of, memory_limit=args.memory_limit,
                        engine=args.engine, spark_master=args.spark_master, collect=False,
                        fit_limit=args.fit_limit, given=given_facts(args)) as (result, con):
            live.end()
            for note in result.notes:
                print(f"perfwh check: note: {one_line(str(args.path))}: {note}", file=sys.stderr)
            _report(args, result, con)
    except SubmissionError as err:
        print(f"perfwh check: {err.verb}: {err}", file=sys.stderr)
        if args.json and args.out is None:  # stdout stays valid JSON, errors included
            print(json_error(f"{err.verb}: {err}", err.status))
        return err.status
    print(f"perfwh check: {counted(result.rows, 'row')}, {counted(result.error_count, 'error')}, "
          f"{counted(result.warning_count, 'warning')}", file=sys.stderr)
    return EXIT_ERRORS if result.error_count else EXIT_CLEAN


def _report(args, result, con) -> None:
    """Every finding to --out FILE (the terminal gets a summary per rule) or, with --json, to
    stdout; otherwise every line, or a summary per rule when there are more than
    MANY_FINDINGS."""
    from perfwh.core.files import atomic_writer
    from perfwh.stages.check import own_findings

    total = sum(result.counts.values())
    if args.out is not None:
        with atomic_writer(args.out.resolve()) as handle:  # a link stays, the file it names is written
            _write_findings(own_findings(con, result), handle, args.json)
        _summary(result, sys.stdout)
        print(f"perfwh check: {counted(total, 'finding')} written to {one_line(str(args.out))}", file=sys.stderr)
    elif args.json:
        _write_findings(own_findings(con, result), sys.stdout, True)
    elif total > MANY_FINDINGS:
        _summary(result, sys.stdout)
        print(f"perfwh check: {total} findings, summarised per rule; all of them with "
              "--out FILE or --json", file=sys.stderr)
    else:
        _write_findings(own_findings(con, result), sys.stdout, False)


def _write_findings(findings, out, as_json: bool) -> None:
    """Findings as they stream in: FILE:LINE lines, or one JSON array (with the id --waive
    takes), written item by item."""
    from ingest.printable import printable
    from perfwh.core.values import dumps
    from perfwh.stages.check import as_json as json_of, format_line

    if not as_json:
        for finding in findings:
            out.write(format_line(finding) + "\n")
        return
    out.write("[")
    for n, finding in enumerate(findings):  # a file (--out) gets the escapes a terminal gets
        out.write(("," if n else "") + "\n" + printable(dumps(json_of(finding), indent=1)))
    out.write("\n]\n")


def _summary(result, out) -> None:
    """One line per rule: severity, how many findings."""
    from ingest.printable import one_line

    for (rule, severity), count in result.counts.items():
        out.write(one_line(f"{result.path}: {count} {severity}{'s' if count != 1 else ''} {rule}") + "\n")


def _reason(text: str) -> str:
    """A waiver's reason is the record of why an error was let in: it must say something."""
    import argparse

    from ingest.printable import printable

    if printable(text) != text or "\n" in text or "\r" in text:
        raise argparse.ArgumentTypeError("a waiver's reason is one line of text: it holds a "
                                         "character that would act on a terminal or page")
    if not text.strip():
        raise argparse.ArgumentTypeError("a waiver's reason cannot be blank: say why the finding "
                                         "is acceptable")
    return text.strip()


def _conflicting_waivers(ids: list[str], reasons: list[str]) -> str | None:
    """What is wrong with waiving one finding id twice with two reasons (a waiver's reason is
    its record, and only one could be kept), or None; the same id and reason twice is one
    waiver."""
    given: dict[str, str] = {}
    for key, reason in zip(ids, reasons):
        if given.setdefault(key, reason) != reason:
            return (f"--waive {key} is given twice with different reasons ({given[key]!r} and "
                    f"{reason!r}): give it once, with the reason to record")
    return None


def _add(args) -> int:
    from perfwh.stages.add import AddError, add

    if len(args.waive) != len(args.reason):
        print("perfwh add: give one --reason for each --waive", file=sys.stderr)
        return EXIT_UNREADABLE
    conflict = _conflicting_waivers(args.waive, args.reason)
    if conflict:
        print(f"perfwh add: {conflict}", file=sys.stderr)
        return EXIT_UNREADABLE
    from perfwh.core.lock import LockBusy

    try:
        with live_status("perfwh add"):
            result = add(Path(args.path), dict(zip(args.waive, args.reason)),
                         warehouse=warehouse_to_update(args.db), sources_file=args.sources,
                         revision_of=args.revision_of, wait=not args.no_wait, given=given_facts(args))
    except AddError as err:
        print(f"perfwh add: {err}", file=sys.stderr)
        return err.status
    except LockBusy as err:
        print(f"perfwh add: {err}", file=sys.stderr)
        return EXIT_ERRORS
    for note in result.notes:
        print(f"perfwh add: note: {one_line(str(args.path))}: {note}", file=sys.stderr)
    print(result.message())
    return EXIT_CLEAN


def _rules(args) -> int:
    from perfwh.quality.rules import load_rules, rules_markdown

    rules = load_rules()
    if args.markdown:
        sys.stdout.write(rules_markdown(rules))
        return EXIT_CLEAN
    for rule in rules:
        print(f"{rule.name} ({rule.severity}, {rule.relation}, repair: {rule.repair}): {rule.reason}")
    return EXIT_CLEAN


def _template(args) -> int:
    from ingest.submission import template_text, write_rows

    if args.markdown:
        from ingest.vocabulary import template_markdown

        sys.stdout.write(template_markdown())
        return EXIT_CLEAN
    if args.rows_of is None:
        sys.stdout.write(template_text(example_rows=not args.header_only))
        return EXIT_CLEAN
    from perfwh.warehouse.query import QueryError, connect_read_only, rows_as_template

    try:
        con = connect_read_only(warehouse_to_read(args.db))
    except QueryError as err:
        print(f"perfwh template: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        rows = rows_as_template(con, args.rows_of)
        if not rows and Path(args.rows_of).name != args.rows_of:  # a path: the file's name is the source
            rows = rows_as_template(con, Path(args.rows_of).name)
        known = [] if rows else [s for (s,) in con.execute(
            "SELECT DISTINCT source FROM measurements ORDER BY source").fetchall()]
        filed = rows or bool(con.execute("SELECT 1 FROM raw_reports WHERE source IN (?, ?)",
                                         [args.rows_of, Path(args.rows_of).name]).fetchall())
    finally:
        con.close()
    if not rows:
        # a name the warehouse does not know is a bad argument (as `check --revision-of` says);
        # a filed source without measurements (retired, or of claims only) is a refusal
        said = "no measurements of the source" if filed else "no source named"
        print(f"perfwh template: {said} {args.rows_of!r} (sources with "
              f"measurements: {', '.join(known) or 'none'})", file=sys.stderr)
        return EXIT_ERRORS if filed else EXIT_UNREADABLE
    write_rows(rows, sys.stdout)
    return EXIT_CLEAN


def _fact(text: str) -> tuple[str | None, list[str]]:
    """KEY=VALUE or VALUE -> (KEY or None, the value's ':'-separated parts)."""
    key, _, value = text.partition("=") if "=" in text.split(":", 1)[0] else ("", "", text)
    return (key.strip() or None), [p.strip() for p in value.split(":")]


def _product_fact(text: str):
    import argparse

    key, parts = _fact(text)
    if len(parts) != 2 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected [KEY=]NAME:VERSION (e.g. ace13=ACE:13.0.1.0), not {text!r}")
    return key, parts


def _platform_fact(text: str):
    import argparse

    key, parts = _fact(text)
    if parts[-1].isdigit() and len(parts) > 1:
        label, cores = ":".join(parts[:-1]), int(parts[-1])
    else:
        label, cores = ":".join(parts), None
    if not label or (cores is not None and not 1 <= cores <= 1_000_000):
        raise argparse.ArgumentTypeError(f"expected [KEY=]LABEL[:CORES] (e.g. xlinux=xLinux:8, cores "
                                         f"from 1 to 1,000,000), not {text!r}")
    return key, (label, cores)


def add_report_facts(parser) -> None:
    """--product, --platform: a report's facts where no filed edition of its family lends them."""
    parser.add_argument("--product", action="append", default=[], type=_product_fact,
                        metavar="[KEY=]NAME:VERSION",
                        help="a report's product (the key its family's parser gives it; none for "
                             "the report's only product), where sources.yml has no report of its "
                             "family to borrow it from, or to replace the borrowed one")
    parser.add_argument("--platform", action="append", default=[], type=_platform_fact,
                        metavar="[KEY=]LABEL[:CORES]",
                        help="a report's platform and its server cores, as --product")


def given_facts(args):
    from perfwh.stages.check import GivenFacts

    return GivenFacts({key: GivenFacts.product(*parts) for key, parts in args.product},
                      {key: GivenFacts.platform(*fact) for key, fact in args.platform})


def add_revision_of(parser) -> None:
    parser.add_argument("--revision-of", metavar="SOURCE", default=None,
                        help="the filed source (file name) this submission replaces: it is "
                             "retired, not deleted, and its numbers leave the facts")


# Readers: an interruption has nothing to undo (main's message says so).
_check.writes = False
_rules.writes = False
_template.writes = False

def register(sub) -> None:
    p = sub.add_parser("check", help="run every data-quality rule on submitted results",
                       description="Check a CSV in the submission template, or a report text "
                                   "or PDF, without changing the warehouse. Prints "
                                   "FILE:LINE: severity rule: message (suggest VALUE). Exit "
                                   "status 0 clean, 1 errors found or the file may not be filed "
                                   "as it is (a copy of a filed source, a name taken), 2 "
                                   "unreadable or bad arguments.")
    p.add_argument("path", type=Path, help="CSV (template columns) or report (.txt / .pdf)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of findings (each with the id --waive takes)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write every finding to FILE (lines, or JSON with --json) and only a "
                        f"summary to the terminal; without it, more than {MANY_FINDINGS} "
                        "findings are summarised per rule")
    add_memory_limit(p)
    add_fit_limit(p)
    add_engine(p)
    add_revision_of(p)
    add_report_facts(p)
    add_db(p, "warehouse the submission is checked against")
    add_sources(p, "the submission is checked as it would be filed beside it")
    p.set_defaults(func=_check)

    p = sub.add_parser("add", help="file a clean submission: raw file, manifest, warehouse (incrementally)",
                       description="File a submission whose check finds no errors (or only "
                                   "waived ones): the raw file into data/raw/submissions/, its "
                                   "sources.yml entry, the warehouse with its findings and "
                                   "models, all in one transaction. A failed or interrupted add "
                                   "changes nothing.")
    p.add_argument("path", type=Path, help="CSV (template columns) or report (.txt / .pdf) to file")
    p.add_argument("--waive", action="append", default=[], metavar="ID",
                   help="waive the finding with this id (rule@line:metric, see check --json); "
                        "a wildcard after the rule's name (cross_table_consistency@*) waives each "
                        "finding of that rule it matches, each stored with the reason")
    p.add_argument("--reason", action="append", default=[], metavar="TEXT", type=_reason,
                   help="why the waived finding is acceptable (one per --waive)")
    add_revision_of(p)
    add_report_facts(p)
    add_no_wait(p)
    add_db(p)
    add_sources(p, "the raw file is filed beside it, so with --db it is that warehouse's own "
                   "(the project's is refused for another warehouse)")
    p.set_defaults(func=_add)

    p = sub.add_parser("template", help="print the submission template (a CSV header and examples)",
                       description="Print the CSV template `perfwh check` and `perfwh add` read: "
                                   "the header, then one example row per concurrency kind. Column "
                                   "meanings, units and allowed values are in the README.")
    p.add_argument("--header-only", action="store_true", help="only the header line")
    p.add_argument("--markdown", action="store_true",
                   help="the columns, units and vocabulary as the README documents them")
    p.add_argument("--rows-of", metavar="SOURCE", default=None,
                   help="instead of examples, the measurements of a filed source (e.g. "
                        "ace13-openshift-2025.txt) written in the template")
    add_db(p)
    p.set_defaults(func=_template)

    p = sub.add_parser("rules", help="list the data-quality rules (one file each in rules/)")
    p.add_argument("--markdown", action="store_true",
                   help="the table of rules as the README carries it")
    p.set_defaults(func=_rules)
