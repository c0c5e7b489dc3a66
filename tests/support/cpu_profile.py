"""CPU seconds per test, for profiling the suite (`PERFWH_TEST_CPU=FOLDER make test`).

On two cores under pytest-xdist a test's wall time says as much about what the other worker
ran beside it as about the test: the run is CPU-bound, and its length is the CPU its tests
use, divided by the cores. So this counts, per test (setup, call and teardown), the CPU of
the worker process and of every process it started - the `perfwh` commands it ran and
waited for, and the ones still running: Spark's JVM, Chromium, Jupyter kernels (from /proc,
Linux only). Each worker appends ``nodeid<TAB>cpu_s<TAB>wall_s`` lines to its own file in
FOLDER; `bench/test_durations.py --cpu FOLDER` sums them per test and per file.

A process that started before a test and ended during it is counted whole at its end (its
parent's wait adds its CPU to the children's account): a small overcount, on that test.
"""
from __future__ import annotations

import os
import resource
import time
from pathlib import Path

import pytest

from .processes import descendants_cpu

ENV = "PERFWH_TEST_CPU"


def _cpu_now() -> float:
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + reaped.ru_utime + reaped.ru_stime + descendants_cpu(os.getpid())


class CpuProfile:
    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.out = (folder / f"{worker}.tsv").open("a", encoding="utf-8")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        cpu, wall = _cpu_now(), time.monotonic()
        yield
        self.out.write(f"{item.nodeid}\t{_cpu_now() - cpu:.3f}\t{time.monotonic() - wall:.3f}\n")
        self.out.flush()


def install(config) -> None:
    """Register the profile when $PERFWH_TEST_CPU names a folder."""
    if getattr(config.option, "numprocesses", None) and "PYTEST_XDIST_WORKER" not in os.environ:
        return  # pytest-xdist's controller: its workers, started after this, run the tests
    # taken out of the environment where the tests run: a test that runs pytest itself (the
    # fixture family's) would otherwise profile its run too, and count its CPU twice
    folder = os.environ.pop(ENV, None)
    if folder and Path("/proc/self/stat").exists():
        config.pluginmanager.register(CpuProfile(Path(folder)), "perfwh-cpu-profile")
