"""Processes as /proc shows them (Linux): the Jupyter kernels a process started, and whether a
process still runs."""
from __future__ import annotations

from pathlib import Path


def kernels_of(pid: int) -> set[int]:
    """The Jupyter kernels the process ``pid`` started (its children running ipykernel)."""
    found = set()
    for proc in Path("/proc").iterdir():
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"ipykernel" in cmdline:
            found.add(int(proc.name))
    return found


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
