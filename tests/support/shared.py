"""Artifacts made once per test run and shared by every pytest-xdist worker.

A warehouse built from the reports, a rendered site, an executed notebook set take seconds
to tens of seconds each; many tests read them and none may change them. Under xdist each
worker is a process of its own, so a session fixture alone would make them once per worker.
`once` makes an artifact in a folder of the run's shared temporary root under a file lock:
the first worker to ask makes it, the others wait for it and reuse it. Tests that write copy
it first (a file copy of a warehouse takes milliseconds, a rebuild seconds).

Nothing is kept between runs: the shared root is the run's own temporary folder, so an
artifact can never be stale.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def run_root(factory: pytest.TempPathFactory) -> Path:
    """The folder every process of this test run shares: a worker's base temporary folder is
    `<root>/popen-gwN` under xdist; without xdist the base folder is the root."""
    base = factory.getbasetemp()
    # by the folder's name, not by $PYTEST_XDIST_WORKER: a pytest a test starts inherits that
    # variable, and would share a folder outside its own run (one that outlives runs)
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") and base.name.startswith("popen-") else base
    folder = root / "shared"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes, however we leave
        yield


def once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> object:
    """``make(folder)``'s result, made once per run into ``folder`` (empty, named after
    ``name``), whichever worker asks first; its result must pickle. If ``make`` fails, the
    next worker to ask tries again (and fails alike, with its own error)."""
    root = run_root(factory)
    key = name if name.replace("-", "").replace("_", "").isalnum() else hashlib.sha256(
        name.encode()).hexdigest()[:16]
    folder, done = root / key, root / f"{key}.result"
    with _locked(root / f"{key}.lock"):
        if done.exists():
            return pickle.loads(done.read_bytes())
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        value = make(folder)
        staged = done.with_suffix(".tmp")
        staged.write_bytes(pickle.dumps(value))
        staged.replace(done)
        return value


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
