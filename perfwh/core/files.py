"""Writing files so that a reader never sees half of one: write beside, then rename.

Every stage that writes (build, add, models, notebooks, site) stages its output under a
temporary name in the same folder (``.NAME.tmp-PID``) and renames it over the target only
when it is complete; a rename within one file system is atomic.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path


def temporary_path(target: Path, suffix: str = "") -> Path:
    """A name beside ``target`` for staging its replacement: .NAME.tmp-PID[suffix]."""
    target = Path(target)
    return target.with_name(f".{target.name}.tmp-{os.getpid()}{suffix}")


def replace_directory(new: Path, target: Path) -> None:
    """Put the folder ``new`` in the place of ``target`` (which may not exist yet)."""
    new, target = Path(new), Path(target)
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    path = Path(path)
    tmp = temporary_path(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_writer(path: Path):
    """A text file opened for writing under a temporary name beside ``path``, renamed over it
    when the block ends without an exception (otherwise removed): for output written as it
    is produced, too big to hold in memory first."""
    path = Path(path)
    tmp = temporary_path(path)
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            yield handle
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def copy_atomic(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` through a temporary file and a rename."""
    tmp = temporary_path(Path(target))
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def remove_database(path: Path) -> None:
    """A DuckDB file and its write-ahead log."""
    Path(path).unlink(missing_ok=True)
    remove_database_wal(path)


def remove_database_wal(path: Path) -> None:
    """The write-ahead log DuckDB leaves beside a database file (empty once it is closed)."""
    Path(str(path) + ".wal").unlink(missing_ok=True)
