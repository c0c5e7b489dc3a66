"""Processes as /proc shows them (Linux): the Jupyter kernels a process started, whether a
process still runs, and the CPU of a process's descendants."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

PROC = Path("/proc")


def _stat(folder: Path) -> list[str]:
    """The fields of /proc/PID/stat after the command's name: state, ppid, ... (raises
    OSError when the process has gone)."""
    return folder.joinpath("stat").read_text().rsplit(")", 1)[1].split()


def processes() -> Iterator[tuple[int, list[str], Path]]:
    """(pid, stat fields after the name, its /proc folder) of every process still there."""
    for folder in PROC.iterdir():
        if not folder.name.isdigit():
            continue
        try:
            yield int(folder.name), _stat(folder), folder
        except (OSError, IndexError):
            continue


def kernels_of(pid: int) -> set[int]:
    """The Jupyter kernels the process ``pid`` started (its children running ipykernel)."""
    found = set()
    for child, fields, folder in processes():
        if int(fields[1]) != pid:
            continue
        try:
            if b"ipykernel" in folder.joinpath("cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        return _stat(PROC / str(pid))[0] != "Z"
    except (OSError, IndexError):
        return False


def descendants_cpu(root: int) -> float:
    """CPU seconds (utime + stime, and their reaped children's) of the live processes below
    ``root``."""
    children: dict[int, list[tuple[int, int]]] = {}
    for pid, fields, _folder in processes():
        # fields 11-14: utime, stime, cutime, cstime
        children.setdefault(int(fields[1]), []).append((pid, sum(int(f) for f in fields[11:15])))
    total, stack = 0, [root]
    while stack:
        for pid, ticks in children.get(stack.pop(), []):
            total += ticks
            stack.append(pid)
    return total / os.sysconf("SC_CLK_TCK")


def catches(pid: int, signum: int) -> bool:
    """Process ``pid`` has a handler of its own for signal ``signum`` (its SigCgt mask)."""
    try:
        status = (PROC / str(pid) / "status").read_text()
    except OSError:
        return False
    mask = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(mask, 16) >> (signum - 1) & 1)
