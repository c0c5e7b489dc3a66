"""The SQL cookbook: queries shown as written, run against the warehouse when the site is built,
their results shown as DuckDB renders them (a printed number stays as printed)."""
from __future__ import annotations

from perfwh.publish.html import Html, esc, table

from .common import query_rendered

NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "FLOAT", "DOUBLE", "DECIMAL")


def sql_example(sql: str, limit: int = 25) -> Html:
    sql = sql.strip()
    columns, types, rows = query_rendered(sql)
    shown = rows[:limit]
    more = f" (first {limit} shown)" if len(rows) > limit else ""
    return Html(f'<pre class="sql"><code>{esc(sql)}</code></pre>'
                + table(columns, [["NULL" if v is None else v for v in row] for row in shown],
                        caption=f"{len(rows)} row{'s' if len(rows) != 1 else ''}{more}",
                        numeric=[t.startswith(NUMERIC) for t in types], class_="data sql-result"))
