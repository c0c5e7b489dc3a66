"""One writer at a time: `perfwh build`, `add`, `models`, `notebooks` and `site` take the
writer lock of the warehouse's folder; readers (`sql`, `check`, `size`) never do, and see the
warehouse before or after a writer's commit, never during it (renames are atomic).

The lock is an flock(2) on ``.perfwh.lock`` beside the warehouse: the kernel releases it when
its holder ends, however it ends, so a killed writer never leaves a stale lock. The file also
says who holds it, for the message a waiting writer prints.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path

LOCK_NAME = ".perfwh.lock"


class LockBusy(RuntimeError):
    """Another writer holds the lock and the caller chose not to wait (--no-wait)."""


def _holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip() or "another perfwh writer"
    except OSError:
        return "another perfwh writer"


@contextlib.contextmanager
def writer_lock(folder: Path, command: str, wait: bool = True, log=None):
    """Hold the writer lock of ``folder`` for the block. Waits (saying so once) unless
    ``wait`` is False, in which case a held lock raises LockBusy."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    handle = open(path, "a+", encoding="utf-8")
    held = False
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(path)
            if not wait:
                raise LockBusy(f"{holder} is writing to {folder}; try again when it has finished "
                               "(or leave out --no-wait to wait for it)") from None
            say = log or (lambda text: print(text, file=sys.stderr, flush=True))
            say(f"perfwh {command}: waiting for {holder} to finish ...")
            started = time.monotonic()
            fcntl.flock(handle, fcntl.LOCK_EX)
            say(f"perfwh {command}: the lock is free after {time.monotonic() - started:.1f} s; going on")
        held = True
        handle.seek(0)
        handle.truncate()
        handle.write(f"perfwh {command} (pid {os.getpid()})\n")
        handle.flush()
        yield
    finally:
        if held:  # only the holder says who holds it
            with contextlib.suppress(OSError):
                handle.seek(0)
                handle.truncate()
        handle.close()  # closing releases the flock
