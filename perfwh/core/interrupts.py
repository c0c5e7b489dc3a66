"""Whether an exception is an interruption (Ctrl-C, SIGTERM) rather than a fault.

DuckDB stops a query when a signal handler raises, and reports it as its own
``InterruptException`` ("Query interrupted"): code that turns DuckDB errors into messages
about bad input or a broken rule must let these through, or a Ctrl-C would end as
"cannot be read as CSV" with the status of an error."""
from __future__ import annotations

import sys
import threading
from typing import Callable, TypeVar

T = TypeVar("T")


def interrupted(err: BaseException) -> bool:
    """Ctrl-C, SIGTERM, or DuckDB reporting a query it stopped because of one (older DuckDB
    said so as "RuntimeError: Query interrupted"). DuckDB is looked up, not imported: a
    Ctrl-C can come before it was ever loaded."""
    duckdb = sys.modules.get("duckdb")  # not imported (or half imported): not a DuckDB error
    interrupt = getattr(duckdb, "InterruptException", KeyboardInterrupt)
    if isinstance(err, (KeyboardInterrupt, interrupt)):
        return True
    if isinstance(err, RuntimeError) and "interrupted" in str(err).lower():
        return True
    return err.__cause__ is not None and interrupted(err.__cause__)


def interruptibly(work: Callable[[], T]) -> T:
    """``work()``, run on a thread of its own while this one waits for it, when this is the
    main thread. Python runs signal handlers on the main thread only, between two bytecodes:
    a long call into numpy or LAPACK (one eigendecomposition of a fit of tens of thousands of
    series takes minutes) held Ctrl-C and SIGTERM until it returned. Waiting here, the handler
    runs at once and its exception leaves this call; the work, abandoned, ends with the
    process (a daemon thread; it must write nothing another thread reads). Its own exception
    is raised here."""
    if threading.current_thread() is not threading.main_thread():
        return work()
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as err:  # noqa: B902 - handed to the waiting thread as it is
            outcome["error"] = err

    worker = threading.Thread(target=run, name="perfwh-work", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)  # a signal's handler runs within this, or between two of them
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
