"""The test run's temporary files in memory (/dev/shm), where the machine has room for them.

Nearly every test writes a warehouse, a lake or a scratch database, and DuckDB waits for the
disk at each commit (fdatasync): on this machine's disk those waits were more than a third
of the suite's time. No test is about what reaches the disk after a power cut - the writers'
tests kill processes, and a killed process's writes are in the page cache either way - so
the run's temporary folder (pytest's, and $TMPDIR for every process a test starts: perfwh's
scratch copies, Spark's and Chromium's files; Spark's local folders too) is a folder in /dev/shm when that is a
writable memory file system with MIN_FREE free.

PERFWH_TEST_TMPDIR names another folder, or (empty) keeps the system's; an explicit TMPDIR
is kept as it is.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

MEMORY = Path("/dev/shm")
MIN_FREE = 6 * 2**30  # a whole run writes about 2 GiB; pytest keeps the last two runs' files


def chosen_folder() -> Path | None:
    """Where the run's temporary files go, or None for the system's default."""
    if "PERFWH_TEST_TMPDIR" in os.environ:
        given = os.environ["PERFWH_TEST_TMPDIR"]
        return Path(given) if given else None
    if os.environ.get("TMPDIR"):
        return None
    if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK)):
        return None
    stats = os.statvfs(MEMORY)
    if stats.f_bavail * stats.f_frsize < MIN_FREE:
        return None
    return MEMORY / f"perfwh-tests-{os.getuid()}"


def install() -> None:
    """Point TMPDIR (inherited by every process the tests start) and Python's tempfile at the
    chosen folder; called before pytest makes its temporary folders."""
    folder = chosen_folder()
    if folder is None:
        return
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.environ["TMPDIR"] = str(folder)
    os.environ.setdefault("SPARK_LOCAL_DIRS", str(folder))  # Spark's own files go to /tmp otherwise
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
