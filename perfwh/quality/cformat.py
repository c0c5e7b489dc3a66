"""DuckDB's printf, in plain Python: the messages of the rules, formatted the same way on Spark.

Spark's own printf is Java's String.format, which reads %g differently from C and DuckDB
(2.0 as "2.00000", not "2") and rounds ties up (2.25 as "2.3", not "2.2"). The Spark engine
therefore formats each rule's messages with this function, registered as a Python UDF.
Python's %-formatting is C's, as DuckDB's is. The module imports nothing of perfwh so that
Spark can ship it to a cluster's workers by value.
"""
from __future__ import annotations


def c_printf(template: str | None, args) -> str | None:
    """``printf(template, *args)`` as DuckDB computes it: NULL when the template or any
    argument is NULL; booleans as true/false; numbers and text as C formats them."""
    if template is None:
        return None
    values = tuple(args) if args is not None else ()
    if any(v is None for v in values):
        return None
    values = tuple(("true" if v else "false") if isinstance(v, bool) else v for v in values)
    return template % values
