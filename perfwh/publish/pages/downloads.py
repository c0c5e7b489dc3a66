"""The downloads page: the DuckDB file, and every table and contract view as Parquet and CSV."""
from __future__ import annotations

from perfwh.publish.html import Html, link, prose, table, tag

from .common import columns_of, db_path, query, relations

# Views published besides the tables: the analyst contract.
CONTRACT_VIEWS = ("metric_values", "measurements")


def tables() -> list[dict]:
    """What the downloads hold: every base table and the contract views (not staging or dq)."""
    comments = {r["name"]: r["comment"] for r in query(
        "SELECT table_name AS name, comment FROM duckdb_tables() WHERE schema_name = 'main' "
        "UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal")}
    return [{"name": name, "kind": "view" if kind == "VIEW" else "table", "comment": comments.get(name)}
            for name, kind in relations().items() if kind != "VIEW" or name in CONTRACT_VIEWS]


def page() -> Html:
    listed = tables()
    counts = {t["name"]: query(f'SELECT count(*) AS n FROM "{t["name"]}"')[0]["n"] for t in listed}
    ncols = {t["name"]: len(columns_of(t["name"])) for t in listed}
    size = db_path().stat().st_size
    out = [tag("p", Html(link("warehouse.duckdb", "downloads/warehouse.duckdb")
                         + f" \u2014 the whole warehouse ({size / 1024 / 1024:.1f} MiB), for DuckDB 2.0 or "
                           "later. Open it read-only: "), class_="download-db"),
           Html('<pre class="sql"><code>duckdb -readonly warehouse.duckdb "SELECT * FROM measurements LIMIT 5"'
                '</code></pre>')]
    body = [(t["name"], t["kind"], counts[t["name"]], ncols[t["name"]],
             link("Parquet", f"downloads/parquet/{t['name']}.parquet"), link("CSV", f"downloads/csv/{t['name']}.csv"),
             prose(t["comment"])) for t in listed]
    out.append(table(["Table", "Kind", "Rows", "Columns", "Parquet", "CSV", "What it holds"], body,
                     numeric=[False, False, True, True, False, False, False]))
    return Html("".join(str(x) for x in out))
