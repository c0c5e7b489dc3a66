"""Subcommands of the data-quality stage: check (a submission), add (file it), rules (list them)."""
from __future__ import annotations

import sys
from pathlib import Path

from . import SOURCES_FILE, WAREHOUSE

EXIT_CLEAN, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


def _check(args) -> int:
    import json

    from .check import SubmissionError, as_json, check, format_line

    try:
        result = check(args.path, warehouse=args.db, sources_file=args.sources)
    except SubmissionError as err:
        print(f"perfwh check: cannot read the submission: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        json.dump([as_json(f) for f in result.findings], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for finding in result.findings:
            print(format_line(finding))
        errors, warnings = len(result.errors), len(result.findings) - len(result.errors)
        print(f"perfwh check: {result.rows} rows, {errors} errors, {warnings} warnings",
              file=sys.stderr)
    return EXIT_ERRORS if result.errors else EXIT_CLEAN


def _add(args) -> int:
    from .add import AddError, add

    if len(args.waive) != len(args.reason):
        print("perfwh add: give one --reason for each --waive", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        message = add(Path(args.path), dict(zip(args.waive, args.reason)), warehouse=args.db,
                      sources_file=args.sources)
    except AddError as err:
        print(f"perfwh add: {err}", file=sys.stderr)
        return err.status
    print(message)
    return EXIT_CLEAN


def _rules(args) -> int:
    from .dq import load_rules

    for rule in load_rules():
        print(f"{rule.name} ({rule.severity}, {rule.relation}): {rule.reason}")
    return EXIT_CLEAN


def register(sub) -> None:
    p = sub.add_parser("check", help="run every data-quality rule on submitted results",
                       description="Check a CSV in the submission template, or a report text "
                                   "or PDF, without changing the warehouse. Prints "
                                   "FILE:LINE: severity rule: message (suggest VALUE). Exit "
                                   "status 0 clean, 1 errors found, 2 unreadable.")
    p.add_argument("path", type=Path, help="CSV (template columns) or report (.txt / .pdf)")
    p.add_argument("--json", action="store_true", help="print a JSON array of findings")
    p.add_argument("--db", type=Path, default=WAREHOUSE, help="warehouse for context")
    p.add_argument("--sources", type=Path, default=SOURCES_FILE, help="sources.yml")
    p.set_defaults(func=_check)

    p = sub.add_parser("add", help="file a clean submission into data/raw and rebuild",
                       description="File a submission whose check finds no errors (or only "
                                   "waived ones) into data/raw/submissions/ with a sources.yml "
                                   "entry, then rebuild. A failed add changes nothing.")
    p.add_argument("path", type=Path)
    p.add_argument("--waive", action="append", default=[], metavar="ID",
                   help="waive the finding with this id (rule@line:metric, see check --json)")
    p.add_argument("--reason", action="append", default=[], metavar="TEXT",
                   help="why the waived finding is acceptable (one per --waive)")
    p.add_argument("--db", type=Path, default=WAREHOUSE)
    p.add_argument("--sources", type=Path, default=SOURCES_FILE)
    p.set_defaults(func=_add)

    p = sub.add_parser("rules", help="list the data-quality rules")
    p.set_defaults(func=_rules)
