"""A folder committed in parts (an add's lake: a few partitions of thousands) lands whole or not
at all, whichever step of the commit a kill comes at, and the next writer finishes it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import perfwh.core.commit as commit
from perfwh.core.commit import JOURNAL, Transaction

# The folder as committed, the parts a writer staged, and what it should become.
BEFORE = {"a/family=x/source=1/data_0.parquet": "a1", "a/family=x/source=2/data_0.parquet": "a2",
          "a/family=y/source=3/data_0.parquet": "a3", "a/family=y/source=5/data_0.parquet": "a5",
          "b/data_0.parquet": "b", "c/family=x/source=2/data_0.parquet": "c2",
          "c/family=x/source=6/data_0.parquet": "c6", "manifest.json": "m1"}
STAGED = {"a/family=x/source=2/data_0.parquet": "a2 new", "a/family=z/source=4/data_0.parquet": "a4",
          "b/data_0.parquet": "b new", "manifest.json": "m2"}
REPLACED = ["a/family=x/source=2", "a/family=z/source=4", "b", "manifest.json"]
REMOVED = ["a/family=y", "c/family=x/source=2"]
AFTER = {"a/family=x/source=1/data_0.parquet": "a1", "a/family=x/source=2/data_0.parquet": "a2 new",
         "a/family=z/source=4/data_0.parquet": "a4", "b/data_0.parquet": "b new",
         "c/family=x/source=6/data_0.parquet": "c6", "manifest.json": "m2"}


class Killed(BaseException):
    """Stands for SIGKILL: nothing of the writer's runs after it (not even its clean-up)."""


def write(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def tree(root: Path) -> dict[str, str | None]:
    """Files with their text; folders only where empty (the others show in their files)."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out[p.relative_to(root).as_posix()] = p.read_text()
        elif not any(p.iterdir()):
            out[p.relative_to(root).as_posix()] = None
    return out


def staged_commit(root: Path) -> Transaction:
    """A transaction of ``root``/lake committed in parts, not yet committed."""
    target = root / "lake"
    write(target, BEFORE)
    transaction = Transaction(root)
    staged = transaction.stage(target)
    write(staged, STAGED)
    transaction.in_parts(staged, REPLACED, REMOVED)
    return transaction


def killed_at(step: int, monkeypatch) -> dict:
    """From now on, the ``step``-th file operation of the commit (a rename, a replace, a
    removal) raises Killed instead of happening."""
    seen = {"ops": 0}

    def dying(real):
        def op(*args, **kwargs):
            seen["ops"] += 1
            if seen["ops"] == step:
                raise Killed
            return real(*args, **kwargs)
        return op

    monkeypatch.setattr(Path, "rename", dying(Path.rename))
    monkeypatch.setattr(os, "replace", dying(os.replace))
    monkeypatch.setattr(commit, "_remove", dying(commit._remove))
    return seen


def next_writer(root: Path) -> None:
    """What the next writer does first, in a process of its own (a staged file of this
    process's id would be taken for its own)."""
    code = f"from perfwh.core.commit import recover; recover({str(root)!r}, [{str(root)!r}])"
    subprocess.run([sys.executable, "-c", code], check=True)


def ended_pid() -> int:
    """The id of a process that has ended: a killed writer's, whose staged files carry it (the
    next writer leaves a running process's staging alone)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_folder_committed_in_parts_lands_whole_from_a_kill_at_any_step(tmp_path, monkeypatch):
    outcomes, step = [], 0
    while True:
        step += 1
        root = tmp_path / f"kill-{step}"
        with monkeypatch.context() as patch:
            killed_pid = ended_pid()
            patch.setattr(os, "getpid", lambda: killed_pid)  # the writer this process stands for
            transaction = staged_commit(root)
            killed_at(step, patch)
            try:
                transaction.commit()
                finished = True
            except Killed:
                finished = False
            journal = (root / JOURNAL).exists()
        next_writer(root)
        got = tree(root / "lake")
        assert got == (AFTER if journal or finished else BEFORE), step
        assert sorted(p.name for p in root.iterdir()) == ["lake"], step  # nothing staged is left
        outcomes.append(got == AFTER)
        if finished:
            break
    # kills before the journal and after it, one at every step of the renames
    assert not outcomes[0] and outcomes[-1]
    assert outcomes.count(True) > len(REPLACED) + len(REMOVED)


def test_only_a_staged_folder_is_committed_in_parts(tmp_path):
    with Transaction(tmp_path) as transaction:
        with pytest.raises(ValueError, match="not staged"):
            transaction.in_parts(tmp_path / "elsewhere", ["x"], [])


def test_a_rename_that_cannot_succeed_stops_the_commit_before_its_point(tmp_path):
    """A file staged for a path that is a folder (`perfwh build --out` naming a folder) would fail
    at its rename after the journal was written, and every later writer's roll-forward with it:
    the commit refuses it first, and nothing is left to roll forward."""
    (tmp_path / "wh.duckdb").mkdir()
    with Transaction(tmp_path) as transaction:
        transaction.stage_text(tmp_path / "wh.duckdb", "new")
        transaction.stage_text(tmp_path / "other.txt", "other")
        with pytest.raises(IsADirectoryError, match="wh.duckdb is a folder"):
            transaction.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wh.duckdb"]
    (tmp_path / "folder.json").write_text("a file")
    with Transaction(tmp_path) as transaction:
        (transaction.stage(tmp_path / "folder.json")).mkdir()
        with pytest.raises(NotADirectoryError, match="folder.json is a file"):
            transaction.commit()
    assert not (tmp_path / JOURNAL).exists() and (tmp_path / "folder.json").read_text() == "a file"
    os.mkfifo(tmp_path / "device")  # as /dev/null: not to be replaced by a file
    with Transaction(tmp_path) as transaction:
        transaction.stage_text(tmp_path / "device", "new")
        with pytest.raises(FileExistsError, match="device is not a regular file"):
            transaction.commit()
    assert (tmp_path / "device").is_fifo() and not (tmp_path / JOURNAL).exists()
