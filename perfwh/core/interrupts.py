"""Whether an exception is an interruption (Ctrl-C, SIGTERM) rather than a fault.

DuckDB stops a query when a signal handler raises, and reports it as its own
``InterruptException`` ("Query interrupted"): code that turns DuckDB errors into messages
about bad input or a broken rule must let these through, or a Ctrl-C would end as
"cannot be read as CSV" with the status of an error."""
from __future__ import annotations

import sys


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
