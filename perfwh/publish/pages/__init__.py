"""What the site's pages show, one module per page; `common` holds what they share.

The pages in site/*.qmd are thin: their python cells call these functions (so the logic is
importable and tested, not locked in a page). Every function reads the warehouse named by
$PERFWH_DB (default data/curated/warehouse.duckdb), read-only, and returns an `Html` fragment.
Every string that came from a report or a submission goes through `perfwh.publish.html`
(escaped in HTML, \\u-escaped inside chart JSON); every number from a report is shown as printed.
"""
from .common import reset

__all__ = ["reset"]
