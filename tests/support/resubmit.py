"""Checking a report's own rows written in the template, where all of them may be a copy."""
from __future__ import annotations

from pathlib import Path

from perfwh.stages.check import SubmissionError, check


def copy_refused(path: Path, warehouse: Path, source: str) -> bool:
    """Whether `perfwh check` refuses the file as the same measurements as ``source`` (every
    row the template can carry, none changed: a copy, which must not be filed twice)."""
    try:
        check(path, warehouse=warehouse, repair=False)
    except SubmissionError as err:
        if err.status == 1 and f"the same measurements (keys and numbers) as {source}" in str(err):
            return True
        raise
    return False


def check_resubmitted(path: Path, warehouse: Path, source: str):
    """The check of a report's rows resubmitted: against the warehouse as it is, or - where
    they are a copy of the report, which check refuses - as a revision of it, so that the
    rules still judge every row (without its printed twin)."""
    try:
        return check(path, warehouse=warehouse)
    except SubmissionError as err:
        if err.status == 1 and f"the same measurements (keys and numbers) as {source}" in str(err):
            return check(path, warehouse=warehouse, revision_of=source)
        raise
