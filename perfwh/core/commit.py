"""All-or-nothing changes to several files: stage beside, journal, rename, forget.

A writer (build, add, models, notebooks, site) prepares every file it changes under a
temporary name in the target's own folder (`files.temporary_path`). `Transaction.commit`
then writes a journal listing each (staged, target) pair - the commit point - renames the
staged files over their targets, and deletes the journal. A staged folder may instead be
committed in parts (`Transaction.in_parts`: an add's lake, which changes a few partitions of
thousands): each part renamed over its target, the target's old part moved into the staged
folder, parts that are gone taken out, and the staged folder removed last.

Whatever stops a writer (SIGKILL, Ctrl-C, a full disk), the next writer, holding the lock
(`perfwh.core.lock`), calls `recover` first: a journal left behind means the commit point was
passed, so the remaining renames are done (rolled forward); staged files without a journal
are leftovers of a run that never committed, and are removed. Either way the files end up as
one run or the other left them, never between.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import sys
import threading
from pathlib import Path

from .files import running, temporary_path, write_text_atomic

JOURNAL = ".perfwh-journal.json"
# Names the stages use for staged and replaced files: .NAME.tmp-PID[...] and .NAME.old-PID.
_STAGED = re.compile(r"^\..+?\.(?:tmp|old)-(?P<pid>\d+)")


class Transaction:
    """Files staged for one commit. Use as a context manager: leaving the block without
    `commit` removes whatever was staged."""

    def __init__(self, journal_dir: Path):
        self.journal = Path(journal_dir) / JOURNAL
        self.pairs: list[tuple[Path, Path]] = []
        self.parts: dict[Path, tuple[list[str], list[str]]] = {}  # staged folder -> (replaced, removed)
        self.committed = False

    def stage(self, target: Path) -> Path:
        """A temporary path beside ``target`` for its new contents (file or folder)."""
        target = Path(target).resolve()
        staged = temporary_path(target)
        _remove(staged)
        self.pairs.append((staged, target))
        return staged

    def stage_text(self, target: Path, text: str) -> Path:
        staged = self.stage(target)
        staged.parent.mkdir(parents=True, exist_ok=True)
        staged.write_text(text, encoding="utf-8")
        return staged

    def stage_copy(self, source: Path, target: Path) -> Path:
        staged = self.stage(target)
        staged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, staged)
        return staged

    def in_parts(self, staged: Path, replaced: list[str], removed: list[str]) -> None:
        """Commit the folder ``staged`` (from `stage`) in parts instead of whole: each path of
        ``replaced`` (relative to it) is put over the same path of the target, in that order,
        and each of ``removed`` taken out of the target; the rest of the target stays."""
        staged = Path(staged).resolve()
        if staged not in {s for s, _t in self.pairs}:
            raise ValueError(f"{staged} was not staged in this transaction")
        self.parts[staged] = (list(replaced), list(removed))

    def _entries(self) -> list[list[str | None]]:
        """The journal: [staged, target] to rename; for a folder committed in parts, [staged
        part, target part, where the old part goes] and [None, part, where it goes] for each
        part taken out, then [None, staged folder] to remove it."""
        entries: list[list[str | None]] = []
        for staged, target in self.pairs:
            if staged not in self.parts:
                entries.append([str(staged), str(target)])
                continue
            replaced, removed = self.parts[staged]
            old = staged / f".replaced-{os.getpid()}"
            for k, part in enumerate(replaced):
                entries.append([str(staged / part), str(target / part), str(old / str(k))])
            for k, part in enumerate(removed, start=len(replaced)):
                entries.append([None, str(target / part), str(old / str(k))])
            entries.append([None, str(staged)])
        return entries

    def commit(self) -> None:
        """The commit point (the journal), then every rename; the journal goes last."""
        entries = self._entries()
        missing = [s for s, *_rest in entries if s is not None and not Path(s).exists()]
        if missing:
            raise FileNotFoundError("nothing was staged at " + ", ".join(missing))
        _refuse_unrenameable(entries)
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        # Ctrl-C and SIGTERM wait until the renames are done: a change that passed its commit
        # point lands now, not at the next writer (only SIGKILL leaves that to `recover`).
        with _signals_deferred() as deferred:
            write_text_atomic(self.journal, json.dumps(entries, indent=1))
            # Past the commit point: from here an interruption must leave the staged files
            # for the next writer to roll forward, never remove them.
            self.committed = True
            roll_forward(self.journal)
        if deferred:
            print(f"perfwh: {signal.Signals(deferred[0]).name} came during the commit; the change "
                  "was committed whole before stopping", file=sys.stderr, flush=True)

    def abort(self) -> None:
        """Remove what was staged - unless the journal exists: then the commit point was
        passed (an interruption came between writing it and noting so), and the staged files
        belong to the next writer's roll-forward."""
        if self.journal.exists():
            return
        for staged, _target in self.pairs:
            _remove(staged)

    def __enter__(self) -> "Transaction":
        return self

    def __exit__(self, *exc) -> None:
        if not self.committed:
            self.abort()


@contextlib.contextmanager
def _signals_deferred():
    """For the block, SIGINT and SIGTERM are noted (yielded list) instead of acted on; the
    handlers in force before are restored afterwards. (Only the main thread can set handlers:
    elsewhere the block runs as it is.)"""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    wanted = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, lambda signum, frame: noted.append(signum)) for s in wanted}
    try:
        yield noted
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _refuse_unrenameable(entries: list[list[str | None]]) -> None:
    """Before the commit point: a rename that cannot succeed (a file over a folder, or a folder
    over a file) would wedge every later writer's roll-forward on it, and one over a device
    must not succeed, so either stops the commit."""
    for staged, target, *_old in entries:
        if staged is None:
            continue
        staged, target = Path(staged), Path(target)
        if target.is_dir() and not target.is_symlink() and not staged.is_dir():
            raise IsADirectoryError(f"{target} is a folder: a file cannot replace it")
        if staged.is_dir() and target.exists() and not target.is_dir():
            raise NotADirectoryError(f"{target} is a file: a folder cannot replace it")
        if target.exists() and not target.is_dir() and not target.is_file():
            # a device, a pipe or a socket (/dev/null): replacing it would break the system
            raise FileExistsError(f"{target} is not a regular file: perfwh replaces none")


def roll_forward(journal: Path) -> None:
    """Finish what a journal lists (each step at most once, so a second pass after a kill
    does what the first left), then delete it."""
    for staged, target, *old in json.loads(Path(journal).read_text(encoding="utf-8")):
        old = Path(old[0]) if old else None
        if staged is None:
            _take_out(Path(target), old)
        else:
            _put(Path(staged), Path(target), old)
    _fsync_dir(Path(journal).parent)
    Path(journal).unlink(missing_ok=True)


def _take_out(target: Path, old: Path | None) -> None:
    """Move ``target`` to ``old`` (inside a staged folder removed later), or remove it."""
    if old is None:
        _remove(target)
    elif target.exists() or target.is_symlink():
        old.parent.mkdir(parents=True, exist_ok=True)
        target.rename(old)


def _put(staged: Path, target: Path, old: Path | None = None) -> None:
    """Rename ``staged`` over ``target``; done already if ``staged`` is gone. A folder with
    ``old`` (a part of a folder committed in parts): the target's previous folder moves there
    first, inside the staged folder, which is removed after every part is in place."""
    if not staged.exists() and not staged.is_symlink():
        return
    if staged.is_dir() and old is not None:
        _take_out(target, old)
        target.parent.mkdir(parents=True, exist_ok=True)
        staged.rename(target)
    elif staged.is_dir():
        beside = target.with_name(f".{target.name}.old-{os.getpid()}")
        if target.exists():
            _remove(beside)
            target.rename(beside)
        staged.rename(target)
        _remove(beside)
    else:  # a file replaces its target in one step
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, target)


def recover(journal_dir: Path, folders: list[Path]) -> list[Path]:
    """Roll a committed but unfinished change forward, then remove staged leftovers of runs
    that never committed from ``folders``: those of processes that have ended (a stage that
    writes without the writer lock - the notebooks, the site - stages beside the warehouse
    while an add runs, and its folder is not the add's to take). Call it holding the writer
    lock. Returns what it removed."""
    journal = Path(journal_dir) / JOURNAL
    if journal.exists():
        roll_forward(journal)
    removed = []
    for folder in sorted({Path(f).resolve() for f in folders}):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            match = _STAGED.match(entry.name)
            pid = int(match.group("pid")) if match else None
            if pid is not None and pid != os.getpid() and not running(pid):
                _remove(entry)
                removed.append(entry)
    return removed


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
