"""Writing files so that a reader never sees half of one: write beside, then rename.

Every stage that writes (build, add, models, notebooks, site) stages its output under a
temporary name in the same folder (``.NAME.tmp-PID``) and renames it over the target only
when it is complete; a rename within one file system is atomic.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

from .paths import RAW_FILE_FOLDERS


def temporary_path(target: Path, suffix: str = "", pid: int | None = None) -> Path:
    """A name beside ``target`` for staging its replacement: .NAME.tmp-PID[suffix], PID this
    process's unless ``pid`` names another writer (whose staged files one looks for)."""
    target = Path(target)
    return target.with_name(f".{target.name}.tmp-{os.getpid() if pid is None else pid}{suffix}")


def in_raw_layer(path: Path, raw_folder: Path) -> bool:
    """Whether writing ``path`` would change the raw layer in ``raw_folder``: an existing file
    of it (its manifest, sources.yml, a report, a submission), or a new file among the reports
    or submissions, where it would pass for a raw file. Raw files are never changed - `perfwh
    add` only adds one."""
    raw = Path(raw_folder).resolve()
    target = Path(path).resolve()
    if raw not in target.parents:
        return False
    return target.exists() or any(raw / folder in target.parents for folder in RAW_FILE_FOLDERS)


def output_folder_problem(folder: Path, marker: str, writer: str, also_ours=lambda _p: False) -> str | None:
    """Why the output folder ``folder`` may not be replaced by ``writer``'s output, or None: a
    writer that renames a new folder over its output folder would remove whatever else the
    folder held, so only a folder it wrote itself (``marker`` in it), an empty one or a new
    one is replaced. ``also_ours(entry)``: what a folder written before the marker existed
    may hold (such a folder is the writer's when it holds nothing else)."""
    folder = Path(folder)
    if not folder.exists():
        return None
    if not folder.is_dir():
        return f"{folder} is not a folder: expected the folder to write the output of {writer} to"
    entries = list(folder.iterdir())
    if not entries or (folder / marker).is_file() or all(also_ours(e) for e in entries):
        return None
    return (f"{folder} exists and is not a folder {writer} wrote (no {marker} in it): refusing to "
            "replace it and everything in it; choose a new or empty output folder")


# The longest name a file system here takes (ext4, XFS, tmpfs: 255 bytes), and the most a
# staged name (`temporary_path`: a dot, ".tmp-", a process id of up to seven digits and a
# suffix) adds to a target's.
NAME_MAX = 255
STAGED_NAME_EXTRA = 24


def longest_name_problem(names: dict[str, str]) -> str | None:
    """The first of ``names`` (what it is -> the name) longer than NAME_MAX bytes, as a
    message; None when every one fits."""
    for what, name in names.items():
        size = len(name.encode("utf-8"))
        if size > NAME_MAX:
            return f"{what} would be {size} bytes long, more than the {NAME_MAX} a file name may have"
    return None


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


@contextlib.contextmanager
def scratch_directory(kind: str):
    """A new folder under the system's temporary directory, perfwh-KIND-PID-RANDOM, removed
    when the block ends. A process killed by SIGKILL cannot remove its own: folders of the
    same kind whose process no longer runs are removed first."""
    prefix = f"perfwh-{kind}-"
    for old in Path(tempfile.gettempdir()).glob(prefix + "*"):
        match = re.fullmatch(re.escape(prefix) + r"(\d+)-[^-]+", old.name)
        if match and not running(int(match.group(1))):
            shutil.rmtree(old, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=f"{prefix}{os.getpid()}-") as folder:
        yield Path(folder)


def running(pid: int) -> bool:
    """Whether a process of that id runs (or waits to be reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
