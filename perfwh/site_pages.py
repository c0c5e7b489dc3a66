"""What the site's pages show: queries on the warehouse turned into safe HTML and charts.

The pages in site/*.qmd are thin: their python cells call the functions here (so the logic is
importable and tested, not locked in a page). Every function reads the warehouse named by
$PERFWH_DB (default data/curated/warehouse.duckdb), read-only, and returns an `Html` fragment
that Jupyter displays as text/html. Every string that came from a report or a submission goes
through `site_html` (escaped in HTML, \\u-escaped inside chart JSON).
"""
from __future__ import annotations

import os
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import duckdb

from . import PROJECT_ROOT, RAW_DIR, WAREHOUSE
from .site_html import (Html, anchor_id, chart, dl, esc, fmt_bytes, fmt_num, join, link, note,
                        plain, spans, table, tag)

SITE_DIR = PROJECT_ROOT / "site"
DB_ENV = "PERFWH_DB"
ALL = "__all__"  # the "no filter" value of the explorer's drop-downs

KIND_LABELS = {
    "docker_cores": "Docker cores", "flow_instances": "flow instances",
    "execution_groups": "execution groups", "tshirt": "T-shirt", "subscribers": "subscribers",
    "destination_list_entries": "destination-list entries", "flow_copies": "flow copies",
    "fanout_ratio": "fan-out", "wmq_queue_managers": "WMQ queue managers",
}
METRIC_LABELS = {"msg_rate": "Rate", "cpu_busy_pct": "CPU busy", "cpu_ms_per_msg": "CPU per msg",
                 "startup_s": "Startup"}


# -- the warehouse -------------------------------------------------------------------------

def db_path() -> Path:
    return Path(os.environ.get(DB_ENV) or WAREHOUSE)


_CON: duckdb.DuckDBPyConnection | None = None


def con() -> duckdb.DuckDBPyConnection:
    global _CON
    if _CON is None:
        path = db_path()
        if not path.exists():
            raise FileNotFoundError(f"warehouse {path} not found: run `perfwh build` (or `make`) first")
        _CON = duckdb.connect(str(path), read_only=True)
    return _CON


def reset() -> None:
    """Forget the connection and cached lookups (to read another warehouse in this process)."""
    global _CON
    if _CON is not None:
        _CON.close()
    _CON = None
    for cached in (relations, reports, family_of, flags_by_fact):
        cached.cache_clear()


def query(sql: str, params: list | None = None) -> list[dict]:
    """Rows as dicts (executed and fetched at once: DuckDB 2.0 keeps no pending result)."""
    cur = con().execute(sql, params or [])
    columns = [d[0] for d in cur.description]
    return [dict(zip(columns, row)) for row in cur.fetchall()]


def query_table(sql: str, params: list | None = None) -> tuple[list[str], list[tuple]]:
    cur = con().execute(sql, params or [])
    columns = [d[0] for d in cur.description]
    return columns, cur.fetchall()


@lru_cache(maxsize=None)
def relations() -> dict[str, str]:
    """Tables and views of the warehouse: name -> 'BASE TABLE' or 'VIEW'."""
    return {r["table_name"]: r["table_type"] for r in query(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_schema = 'main' ORDER BY table_name")}


def has(name: str) -> bool:
    return name in relations()


def columns_of(name: str) -> list[str]:
    return [r["column_name"] for r in query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' "
        "AND table_name = ? ORDER BY ordinal_position", [name])]


# -- labels and links ----------------------------------------------------------------------

@lru_cache(maxsize=None)
def reports() -> list[dict]:
    return query("SELECT * FROM dim_report ORDER BY published_date NULLS LAST, report_id")


@lru_cache(maxsize=None)
def family_of() -> dict[str, str]:
    return {r["source"]: r["family"] for r in reports()}


def report_href(family: str | None) -> str | None:
    """The report page of a family, if the site has one."""
    if family and (SITE_DIR / f"report-{anchor_id(family)}.qmd").exists():
        return f"report-{anchor_id(family)}.html"
    return None


def src_anchor(source: str, line: Any) -> str:
    """The id of a line of a report's text on its page: '<file stem>-L<line>'."""
    return anchor_id(f"{Path(source).stem}-L{line}")


def src_href(source: str | None, line: Any) -> str | None:
    page = report_href(family_of().get(source or ""))
    if page is None or line is None:
        return None
    return f"{page}#{src_anchor(source, line)}"


def where(source: str | None, line: Any, page: Any = None) -> Html:
    """'file:line' linked to the line in the report page's source text."""
    if source is None:
        return Html("")
    text = f"{source}:{line}" if line is not None else source
    if page is not None:
        text += f" (p. {page})"
    return link(text, src_href(source, line), class_="src")


def persistence_label(value: Any) -> str | None:
    return None if value is None else ("persistent" if value else "non-persistent")


def config_label(kind: str | None, concurrency: Any, replicas: Any = None, tshirt: Any = None,
                 printed: Any = None) -> str:
    """A configuration for people: 'Docker cores 2', 'T-shirt Small (0.5 CPU), 2 replicas'."""
    if kind is None:
        text = "as printed"
    elif kind == "tshirt":
        text = f"T-shirt {tshirt or printed or ''}".strip()
        if concurrency is not None:
            text += f" ({fmt_num(concurrency)} CPU)"
    else:
        value = printed if printed not in (None, "") else (fmt_num(concurrency) if concurrency is not None else "not stated")
        text = f"{KIND_LABELS.get(kind, kind.replace('_', ' '))} {value}"
    if replicas not in (None, 1):
        text += f", {fmt_num(replicas)} replicas"
    return text


def metric_header(metric: str, unit: str | None) -> str:
    """'supply_voltage_v', 'V' -> 'supply voltage (V)': the unit once, in brackets."""
    name = metric
    head, _, suffix = metric.rpartition("_")
    if unit == "count":
        unit = None
    elif head and unit and (suffix.lower() == unit.lower() or (suffix, unit) == ("pct", "%")):
        name = head
    label = METRIC_LABELS.get(metric, name.replace("_", " "))
    return f"{label} ({unit})" if unit else label


@lru_cache(maxsize=None)
def flags_by_fact() -> dict[int, list[dict]]:
    """Data-quality findings per fact_id (empty when dq_findings is not built)."""
    if not has("dq_findings"):
        return {}
    out: dict[int, list[dict]] = defaultdict(list)
    for r in query("SELECT finding_id, rule, severity, fact_id FROM dq_findings "
                   "WHERE fact_id IS NOT NULL ORDER BY finding_id"):
        out[r["fact_id"]].append(r)
    return dict(out)


def _number_cell(facts: list[dict]) -> Html:
    """A printed number linked to its line; a flag links to its data-quality findings."""
    parts = []
    for f in facts:
        title = f"{f['source']}:{f['source_line']} - {f['metric']} = {fmt_num(f['value'])} {f['unit'] or ''}".strip()
        parts.append(link(f["printed_value"], f"#{src_anchor(f['source'], f['source_line'])}", title=title))
        for flag in flags_by_fact().get(f["fact_id"], []):
            parts.append(tag("a", "\u2691", href=f"quality.html#{anchor_id('finding', flag['finding_id'])}",
                             class_=f"flag flag-{anchor_id(flag['severity'])}",
                             title=f"{flag['severity']}: {flag['rule']} (finding {flag['finding_id']})"))
    return join(parts, " ")


# -- overview ------------------------------------------------------------------------------

def overview_reports() -> Html:
    rows = query("""
        SELECT r.report_id, r.family, r.source, r.title, r.edition, r.published, r.document_id,
               r.line_count,
               (SELECT string_agg(DISTINCT p.product || ' ' || p.product_version, ', ' ORDER BY p.product || ' ' || p.product_version)
                  FROM fact_metric_value f JOIN dim_product p USING (product_id) WHERE f.report_id = r.report_id) AS products,
               (SELECT string_agg(pl.platform || ' (' || coalesce(pl.deployment, '?') || ')', ', ' ORDER BY pl.platform)
                  FROM dim_platform pl WHERE pl.report_id = r.report_id) AS platforms,
               (SELECT count(*) FROM dim_source_table t WHERE t.report_id = r.report_id) AS tables,
               (SELECT count(*) FROM fact_metric_value f WHERE f.report_id = r.report_id) AS numbers
        FROM dim_report r ORDER BY r.published_date NULLS LAST, r.report_id""")
    body = [(link(r["title"], report_href(r["family"])), r["published"], r["products"], r["platforms"],
             r["tables"], r["numbers"], r["source"]) for r in rows]
    total = sum(r["numbers"] for r in rows)
    return table(["Report", "Published", "Products", "Platforms", "Tables", "Numbers", "Source file"], body,
                 caption=f"{len(rows)} reports, {total:,} numbers")


def overview_measured() -> Html:
    """What each report measured: scenarios, metrics, sizes, configurations."""
    rows = query("""
        SELECT source, count(DISTINCT scenario) AS scenarios,
               string_agg(DISTINCT metric, ', ' ORDER BY metric) AS metrics,
               min(message_size_bytes) AS min_size, max(message_size_bytes) AS max_size,
               count(DISTINCT message_size_bytes) AS sizes,
               string_agg(DISTINCT concurrency_kind, ', ' ORDER BY concurrency_kind) AS kinds,
               string_agg(DISTINCT CASE WHEN persistent THEN 'persistent' WHEN NOT persistent THEN 'non-persistent' END, ', ') AS persistence
        FROM metric_values GROUP BY source""")
    by_source = {r["source"]: r for r in rows}
    body = []
    for rep in reports():
        r = by_source.get(rep["source"])
        if r is None:
            continue
        kinds = ", ".join(KIND_LABELS.get(k, k) for k in (r["kinds"] or "").split(", ") if k)
        sizes = (f"{r['sizes']} ({fmt_bytes(r['min_size'])} to {fmt_bytes(r['max_size'])})"
                 if r["sizes"] else "none")
        body.append((link(rep["family"], report_href(rep["family"])), r["scenarios"], r["metrics"], sizes,
                     kinds, r["persistence"]))
    return table(["Report", "Scenarios", "Metrics", "Message sizes", "Configurations", "Persistence"], body)


def coverage_chart() -> Html:
    import altair as alt
    rows = query("""
        SELECT r.family AS report, m.message_size_bytes AS size, count(*) AS numbers,
               count(DISTINCT m.scenario) AS scenarios
        FROM metric_values m JOIN dim_report r USING (source)
        WHERE m.message_size_bytes IS NOT NULL GROUP BY ALL ORDER BY ALL""")
    data = [{**{k: plain(v) for k, v in r.items()}, "size_label": fmt_bytes(r["size"])} for r in rows]
    sizes = [fmt_bytes(s) for s in sorted({r["size"] for r in rows})]
    order = [r["family"] for r in reports()]
    base = alt.Chart(alt.Data(values=data)).encode(
        x=alt.X("size_label:O", sort=sizes, title="Message size"),
        y=alt.Y("report:N", sort=order, title=None))
    rect = base.mark_rect().encode(
        color=alt.Color("numbers:Q", scale=alt.Scale(scheme="blues", type="log"), title="Numbers"),
        tooltip=[alt.Tooltip("report:N"), alt.Tooltip("size_label:N", title="size"),
                 alt.Tooltip("numbers:Q"), alt.Tooltip("scenarios:Q")])
    text = base.mark_text(fontSize=10).encode(text="numbers:Q")
    return chart((rect + text).properties(width="container", height=40 * max(1, len(order))),
                 "coverage", "Numbers per report and message size (darker: more numbers).")


def coverage_matrix() -> Html:
    """Report x scenario x message size: how many configurations were measured."""
    rows = query("""
        SELECT source, scenario, message_size_bytes AS size,
               count(DISTINCT coalesce(concurrency_kind, '') || coalesce(CAST(concurrency AS VARCHAR), '')
                     || coalesce(CAST(replicas AS VARCHAR), '') || coalesce(CAST(persistent AS VARCHAR), '')) AS configs,
               count(*) AS numbers
        FROM metric_values GROUP BY ALL""")
    cell_of = {(r["source"], r["scenario"], r["size"]): r for r in rows}
    out = []
    for rep in reports():
        mine = [r for r in rows if r["source"] == rep["source"]]
        cols = sorted({r["size"] for r in mine if r["size"] is not None})
        cols += [None] if any(r["size"] is None for r in mine) else []
        scen = sorted({r["scenario"] for r in mine}, key=lambda s: (s is None, s))
        body = []
        for s in scen:
            line = [s]
            for size in cols:
                c = cell_of.get((rep["source"], s, size))
                line.append(Html(f'<span class="cov" title="{esc(c["numbers"])} numbers">{esc(c["configs"])}</span>')
                            if c else Html(""))
            body.append(line)
        if not body:
            continue
        headers = ["Scenario"] + [fmt_bytes(s) if s is not None else "no size" for s in cols]
        out.append(tag("h3", rep["title"], id=anchor_id("coverage", rep["family"], rep["report_id"])))
        out.append(table(headers, body, class_="data coverage",
                         numeric=[False] + [True] * len(cols)))
    return Html("".join(out))


# -- report pages --------------------------------------------------------------------------

_ATTRS = [("product", "Product"), ("platform", "Platform"), ("scenario", "Scenario"),
          ("size", "Message size"), ("persistence", "Persistence"), ("config", "Configuration"),
          ("component", "Component"), ("observed_at", "Time")]


def _report_facts(report_id: int) -> list[dict]:
    rows = query("""
        SELECT f.fact_id, r.source, f.source_line, f.page, f.table_id, f.metric, f.unit, f.value,
               f.printed_value, f.message_size_printed AS size, f.observed_at,
               p.product || ' ' || p.product_version AS product, pl.platform, s.scenario,
               c.persistent, c.concurrency_kind, f.concurrency_printed, c.concurrency, c.replicas,
               c.tshirt, c.component
        FROM fact_metric_value f
        JOIN dim_report r USING (report_id)
        LEFT JOIN dim_product p USING (product_id)
        LEFT JOIN dim_platform pl USING (platform_id)
        LEFT JOIN dim_scenario s USING (scenario_id)
        LEFT JOIN dim_configuration c USING (configuration_id)
        WHERE f.report_id = ? ORDER BY f.table_id, f.fact_id""", [report_id])
    for r in rows:
        r["persistence"] = persistence_label(r["persistent"])
        r["config"] = (config_label(r["concurrency_kind"], r["concurrency"], r["replicas"], r["tshirt"],
                                    r["concurrency_printed"])
                       if r["concurrency_kind"] or r["replicas"] not in (None, 1) else None)
        r["observed_at"] = r["observed_at"].isoformat(sep=" ") if r["observed_at"] is not None else None
    return rows


def _config_header(facts: list[dict]) -> str:
    kinds = {f["concurrency_kind"] for f in facts if f["concurrency_kind"]}
    return "Configuration" if len(kinds) != 1 else KIND_LABELS.get(next(iter(kinds)), "Configuration").capitalize()


def _short_config(f: dict) -> str | None:
    """The configuration without its kind (the column header names the kind)."""
    if f["concurrency_kind"] == "tshirt":
        return f["config"][len("T-shirt "):] if f["config"] else None
    value = f["concurrency_printed"] or (fmt_num(f["concurrency"]) if f["concurrency"] is not None else "not stated")
    if f["replicas"] not in (None, 1):
        value += f", {fmt_num(f['replicas'])} replicas"
    return value


def results_table(facts: list[dict]) -> tuple[Html, list[tuple[str, str]]]:
    """One results table re-drawn from its facts: a row per source line, the attributes that
    change within a line as column groups, the rest as row headers; each number links to its
    line. Returns the table and the (attribute, value) pairs constant over the table."""
    by_line: dict[int, list[dict]] = {}
    for f in facts:
        by_line.setdefault(f["source_line"], []).append(f)
    values = {a: [f[a] for f in facts] for a, _ in _ATTRS}
    varying = [a for a, _ in _ATTRS if len(set(values[a])) > 1]
    constant = [(label, values[a][0]) for a, label in _ATTRS
                if len(set(values[a])) == 1 and values[a][0] not in (None, "")]
    col_attrs = [a for a in varying
                 if any(len({f[a] for f in line}) > 1 for line in by_line.values())]
    row_attrs = [a for a in varying if a not in col_attrs]
    labels = dict(_ATTRS)
    labels["config"] = _config_header(facts)

    col_keys: list[tuple] = []
    units: dict[str, str] = {}
    for f in facts:
        key = tuple(f[a] for a in col_attrs) + (f["metric"],)
        if key not in col_keys:
            col_keys.append(key)
        units.setdefault(f["metric"], f["unit"])

    filled = sum(len({tuple(f[a] for a in col_attrs) + (f["metric"],) for f in line}) for line in by_line.values())
    if len(col_keys) > 4 and filled < 0.5 * len(col_keys) * len(by_line):
        return _long_table(facts, varying, labels), constant

    body = []
    for line, line_facts in sorted(by_line.items()):
        first = line_facts[0]
        cells: dict[tuple, list[dict]] = defaultdict(list)
        for f in line_facts:
            cells[tuple(f[a] for a in col_attrs) + (f["metric"],)].append(f)
        row: list[Any] = [_short_config(first) if a == "config" and labels["config"] != "Configuration" else first[a]
                          for a in row_attrs]
        row += [_number_cell(cells[k]) if k in cells else Html("") for k in col_keys]
        row.append(where(first["source"], line, first["page"]))
        body.append(row)

    lead = len(row_attrs)
    header_rows = []
    for i, a in enumerate(col_attrs):
        group = [("", 1)] * lead + spans([k[i] if k[i] is not None else "" for k in col_keys]) + [("", 1)]
        header_rows.append(group)
    columns = [labels[a] for a in row_attrs] + [metric_header(k[-1], units.get(k[-1])) for k in col_keys] + ["Source line"]
    numeric = [False] * lead + [True] * len(col_keys) + [False]
    return table(columns, body, header_rows=header_rows, numeric=numeric, class_="data results"), constant


def _long_table(facts: list[dict], attrs: list[str], labels: dict[str, str]) -> Html:
    """A sparse table (most rows fill few of its columns, like a score card or a from x to
    matrix printed row by row) as one row per number, in the order of the report."""
    body = []
    for f in sorted(facts, key=lambda f: (f["source_line"], f["fact_id"])):
        row: list[Any] = [_short_config(f) if a == "config" and labels["config"] != "Configuration" else f[a]
                          for a in attrs]
        row += [metric_header(f["metric"], f["unit"]), _number_cell([f]), where(f["source"], f["source_line"], f["page"])]
        body.append(row)
    return table([labels[a] for a in attrs] + ["Metric", "Value", "Source line"], body,
                 numeric=[False] * len(attrs) + [False, True, False], class_="data results long")


def _source_text(rep: dict, data_lines: set[int]) -> Html:
    """The report's text with numbered lines, each line an anchor (`<stem>-L<n>`)."""
    matches = sorted(RAW_DIR.rglob(rep["source"])) if RAW_DIR.exists() else []
    if not matches:
        return note(f"The source file {rep['source']} is not in {RAW_DIR.name}/, so its text is not shown.")
    from ingest.reader import read_lines
    lines = read_lines(matches[0])
    out = ['<pre class="source-text">']
    for ln in lines:
        anchor = src_anchor(rep["source"], ln.number)
        cls = "src-line data-line" if ln.number in data_lines else "src-line"
        out.append(f'<span id="{anchor}" class="{cls}"><a class="ln" href="#{anchor}">{ln.number}</a>'
                   f"{esc(ln.text)}</span>")  # block spans: no newline between them
    out.append("</pre>")
    return Html("".join(out))


def report_page(family: str) -> Html:
    """Everything about the reports of one family: facts, scenarios, tables, claims, text."""
    reps = [r for r in reports() if r["family"] == family]
    if not reps:
        return note(f"No report of family {family} is in this warehouse.", "warning")
    out = []
    for rep in reps:
        rid = rep["report_id"]
        facts = _report_facts(rid)
        tables = query("SELECT * FROM dim_source_table WHERE report_id = ? ORDER BY heading_line, table_id", [rid])
        platforms = query("SELECT * FROM dim_platform WHERE report_id = ? ORDER BY platform_id", [rid])
        scenarios = query("SELECT * FROM dim_scenario WHERE report_id = ? ORDER BY scenario", [rid])
        products = sorted({f["product"] for f in facts if f["product"]})
        if len(reps) > 1:
            out.append(tag("h2", rep["title"], id=anchor_id("report", rid)))
        out.append(dl([("Title", rep["title"]), ("Edition", rep["edition"]), ("Published", rep["published"]),
                       ("Document", rep["document_id"]), ("Origin", rep["origin"]),
                       ("Source file", f"{rep['source']} ({fmt_num(rep['line_count'])} lines, sha256 {rep['sha256']})"),
                       ("Products", ", ".join(products)),
                       ("Numbers", f"{len(facts):,} in {len(tables)} tables")]))
        if platforms:
            out.append(tag("h3", "Platform", id=anchor_id("platform", rid)))
            out.append(table(["Platform", "OS", "Hardware", "CPU", "Cores", "Deployment", "Memory", "Note"],
                             [(p["platform"], p["os"], p["hardware"], p["cpu_model"], p["cores"], p["deployment"],
                               p["memory"], p["note"]) for p in platforms]))
        if scenarios:
            out.append(tag("h3", "Scenarios", id=anchor_id("scenarios", rid)))
            out.append(table(["Scenario", "Transport", "Message domain", "Flow style", "Description"],
                             [(s["scenario"], s["transport"], s["message_domain"], s["flow_style"], s["description"])
                              for s in scenarios]))
        out.append(tag("h3", "Results tables", id=anchor_id("tables", rid)))
        by_table: dict[int, list[dict]] = defaultdict(list)
        for f in facts:
            by_table[f["table_id"]].append(f)
        out.append('<ol class="table-index">' + "".join(
            f'<li>{link(t["table_title"], "#" + anchor_id("table", rid, t["table_id"]))} '
            f'<span class="muted">({len(by_table.get(t["table_id"], []))} numbers, line {esc(t["heading_line"])})</span></li>'
            for t in tables) + "</ol>")
        for t in tables:
            tfacts = by_table.get(t["table_id"], [])
            out.append(f'<section class="results" id="{anchor_id("table", rid, t["table_id"])}">')
            out.append(tag("h4", t["table_title"]))
            meta = [Html("Heading at ") + where(rep["source"], t["heading_line"], t["heading_page"]),
                    Html(esc(f"{len(tfacts)} numbers"))]
            if t["note"]:
                meta.append(Html(esc(t["note"])))
            if not tfacts:
                out.append(tag("p", join(meta, " \u00b7 "), class_="table-meta"))
                out.append(note("No numbers were loaded from this table."))
                out.append("</section>")
                continue
            html_table, constant = results_table(tfacts)
            meta += [Html(f"{esc(k)}: <strong>{esc(v)}</strong>") for k, v in constant]
            out.append(tag("p", join(meta, " \u00b7 "), class_="table-meta"))
            out.append(html_table)
            out.append("</section>")
        claims = query("SELECT * FROM fact_claim WHERE report_id = ? ORDER BY source_line, claim_id", [rid]) \
            if has("fact_claim") else []
        if claims:
            out.append(tag("h3", "Numbers stated in the prose", id=anchor_id("claims", rid)))
            out.append(table(["Claim", "Scenario", "Metric", "Value", "As printed", "Source line"],
                             [(c["claim_text"], c["scenario"], c["metric"],
                               f"{c['comparison'] or ''} {fmt_num(c['value'])} {c['unit'] or ''}".strip(),
                               c["printed_value"], where(c["source_file"], c["source_line"], c["page"]))
                              for c in claims]))
        out.append(tag("h3", "Source text", id=anchor_id("source", rid)))
        out.append(tag("p", f"The report as loaded ({rep['source']}); highlighted lines hold numbers of the tables above."))
        out.append(_source_text(rep, {f["source_line"] for f in facts}))
    return Html("".join(str(x) for x in out))


# -- comparisons ---------------------------------------------------------------------------

def _pairs(left: str, right: str, on: str) -> list[dict]:
    """Pairs of measurements that differ only in `on` ('product' or 'platform')."""
    other = "platform" if on == "product" else "product"
    return query(f"""
        SELECT a.source, a.scenario, a.{other} AS {other}, a.message_size_bytes AS size,
               a.concurrency_kind, a.concurrency, a.persistent,
               a.msg_rate AS rate_a, b.msg_rate AS rate_b, a.cpu_ms_per_msg AS cost_a, b.cpu_ms_per_msg AS cost_b,
               a.msg_rate_printed AS rate_a_printed, b.msg_rate_printed AS rate_b_printed,
               a.cpu_ms_per_msg_printed AS cost_a_printed, b.cpu_ms_per_msg_printed AS cost_b_printed,
               a.source_line AS line_a, b.source_line AS line_b,
               b.msg_rate / a.msg_rate AS rate_ratio, b.cpu_ms_per_msg / a.cpu_ms_per_msg AS cost_ratio
        FROM measurements a JOIN measurements b
          ON a.source = b.source AND a.scenario = b.scenario
         AND a.{other} = b.{other}
         AND a.message_size_bytes IS NOT DISTINCT FROM b.message_size_bytes
         AND a.concurrency_kind IS NOT DISTINCT FROM b.concurrency_kind
         AND a.concurrency IS NOT DISTINCT FROM b.concurrency
         AND a.replicas IS NOT DISTINCT FROM b.replicas
         AND a.persistent IS NOT DISTINCT FROM b.persistent
        WHERE a.{on} = ? AND b.{on} = ?
        ORDER BY a.source, a.scenario, a.{other}, size, a.concurrency""", [left, right])


def _ratio_chart(rows: list[dict], facet: str, name: str, caption: str, a: str, b: str) -> Html:
    import altair as alt
    data = [{"scenario": r["scenario"], facet: r[facet], "size": fmt_bytes(r["size"]),
             "size_bytes": plain(r["size"]),
             "cores": config_label(r["concurrency_kind"], r["concurrency"]),
             "rate_ratio": plain(r["rate_ratio"]), "cost_ratio": plain(r["cost_ratio"]),
             "where": f"{r['source']}:{r['line_a']} / {r['line_b']}"} for r in rows]
    sizes = [fmt_bytes(s) for s in sorted({r["size"] for r in rows if r["size"] is not None})]
    facets = sorted({d[facet] for d in data if d[facet] is not None})
    rows_ = []
    for field, title in (("rate_ratio", f"Rate, {b} / {a}"), ("cost_ratio", f"CPU per message, {b} / {a}")):
        panels = []
        for value in facets:
            subset = [d for d in data if d[facet] == value and d[field] is not None and d[field] > 0]
            if not subset:
                continue
            points = alt.Chart(alt.Data(values=subset)).mark_point(filled=True, size=60, opacity=0.8).encode(
                x=alt.X(f"{field}:Q", scale=alt.Scale(type="log"), title=title),
                y=alt.Y("scenario:N", title=None),
                color=alt.Color("cores:N", title="Configuration"),
                shape=alt.Shape("size:N", sort=sizes, title="Message size"),
                tooltip=[alt.Tooltip("scenario:N"), alt.Tooltip(f"{facet}:N"), alt.Tooltip("size:N"),
                         alt.Tooltip("cores:N", title="configuration"),
                         alt.Tooltip(f"{field}:Q", format=".3f", title=title),
                         alt.Tooltip("where:N", title="lines")])
            parity = alt.Chart(alt.Data(values=[{"x": 1}])).mark_rule(strokeDash=[4, 3], color="#888").encode(x="x:Q")
            panels.append(alt.layer(parity, points).properties(title=str(value), width=260, height=alt.Step(22)))
        if panels:
            rows_.append(alt.hconcat(*panels))
    if not rows_:
        return note("No pair has both numbers.")
    return chart(alt.vconcat(*rows_).resolve_scale(color="shared", shape="shared"), name, caption)


def _pairs_table(rows: list[dict], other: str, a: str, b: str) -> Html:
    body = [(r["scenario"], r[other], fmt_bytes(r["size"]), config_label(r["concurrency_kind"], r["concurrency"]),
             r["rate_a_printed"], r["rate_b_printed"], r["rate_ratio"],
             r["cost_a_printed"], r["cost_b_printed"], r["cost_ratio"],
             join([where(r["source"], r["line_a"]), where(r["source"], r["line_b"])] if r["line_a"] != r["line_b"]
                  else [where(r["source"], r["line_a"])], ", "))
            for r in rows]
    return table(["Scenario", other.capitalize(), "Size", "Configuration", f"Rate {a}", f"Rate {b}", f"{b}/{a}",
                  f"CPU/msg {a}", f"CPU/msg {b}", f"{b}/{a} ", "Source lines"], body,
                 numeric=[False, False, False, False, True, True, True, True, True, True, False])


def compare_products() -> Html:
    rows = _pairs("IIB", "ACE", "product")
    if not rows:
        return note("No table measures ACE and IIB side by side in this warehouse.")
    n = len(rows)
    rr = sorted(r["rate_ratio"] for r in rows if r["rate_ratio"] is not None)
    cr = sorted(r["cost_ratio"] for r in rows if r["cost_ratio"] is not None)
    summary = tag("p", f"{n} measurements of ACE and IIB on the same hardware, scenario, message size and cores. "
                       f"Median ACE/IIB rate ratio {fmt_num(rr[len(rr) // 2], 3) if rr else 'n/a'}; "
                       f"median CPU-per-message ratio {fmt_num(cr[len(cr) // 2], 3) if cr else 'n/a'} "
                       "(above 1: ACE is faster / costs more).")
    return Html(summary + _ratio_chart(rows, "platform", "ace-vs-iib",
                                       "ACE / IIB, each point one table row; the dashed line is parity.", "IIB", "ACE")
                + _pairs_table(rows, "platform", "IIB", "ACE"))


def compare_platforms() -> Html:
    rows = _pairs("Linux", "Windows", "platform")
    if not rows:
        return note("No report measures Linux and Windows side by side in this warehouse.")
    rr = sorted(r["rate_ratio"] for r in rows if r["rate_ratio"] is not None)
    summary = tag("p", f"{len(rows)} measurements on Linux and on Windows of the same product, scenario, size and "
                       f"cores. Median Windows/Linux rate ratio {fmt_num(rr[len(rr) // 2], 3) if rr else 'n/a'}.")
    return Html(summary + _ratio_chart(rows, "product", "windows-vs-linux",
                                       "Windows / Linux, each point one table row; the dashed line is parity.",
                                       "Linux", "Windows")
                + _pairs_table(rows, "product", "Linux", "Windows"))


def generations() -> Html:
    """The hardware next to every product generation: what can and cannot be compared."""
    rows = query("""
        SELECT r.family, r.published, p.platform, p.os, p.hardware, p.cpu_model, p.cores, p.deployment
        FROM dim_platform p JOIN dim_report r USING (report_id)
        ORDER BY r.published_date NULLS LAST, r.report_id, p.platform_id""")
    return table(["Report", "Published", "Platform", "OS", "Hardware", "CPU", "Cores", "Deployment"],
                 [(link(r["family"], report_href(r["family"])), r["published"], r["platform"], r["os"], r["hardware"],
                   r["cpu_model"], r["cores"], r["deployment"]) for r in rows])


# -- explorer ------------------------------------------------------------------------------

def explorer_data() -> list[dict]:
    rows = query("""
        SELECT m.source, m.source_line, m.source_table, r.family AS report,
               m.product || ' ' || m.product_version AS product, m.platform, m.scenario,
               m.message_size_bytes AS size, m.persistent, m.concurrency_kind, m.concurrency, m.replicas,
               m.tshirt, m.msg_rate AS rate, m.cpu_ms_per_msg AS cost, m.cpu_busy_pct AS cpu_pct,
               m.msg_rate_printed, m.cpu_ms_per_msg_printed
        FROM measurements m JOIN dim_report r USING (source)
        WHERE m.message_size_bytes IS NOT NULL AND (m.msg_rate IS NOT NULL OR m.cpu_ms_per_msg IS NOT NULL)
        ORDER BY r.published_date, m.source, m.source_table, m.source_line, m.product""")
    out = []
    for r in rows:
        config = config_label(r["concurrency_kind"], r["concurrency"], r["replicas"], r["tshirt"])
        persistence = persistence_label(r["persistent"]) or "not stated"
        out.append({
            "report": r["report"], "product": r["product"], "platform": r["platform"], "scenario": r["scenario"],
            "persistence": persistence, "configuration": config,
            "group": f"{r['product']} \u00b7 {r['platform']}",
            "series": f"{r['source']}|{r['source_table']}|{r['product']}|{r['platform']}|{r['scenario']}|{persistence}|{config}",
            "size": plain(r["size"]), "size_label": fmt_bytes(r["size"]),
            "rate": plain(r["rate"]), "cost": plain(r["cost"]), "cpu_pct": plain(r["cpu_pct"]),
            "rate_printed": r["msg_rate_printed"], "cost_printed": r["cpu_ms_per_msg_printed"],
            "table": r["source_table"], "where": f"{r['source']}:{r['source_line']}",
        })
    return out


EXPLORER_FILTERS = [("product", "Product"), ("platform", "Platform"), ("scenario", "Scenario"),
                    ("persistence", "Persistence"), ("configuration", "Configuration")]


def explorer_chart(data: list[dict] | None = None) -> Html:
    """Cost and rate against message size (log scales), filtered by five drop-downs."""
    import altair as alt
    data = explorer_data() if data is None else data
    if not data:
        return note("No measurement with a message size is in this warehouse.")
    params, tests = [], []
    for field, label in EXPLORER_FILTERS:
        options = sorted({d[field] for d in data if d[field] is not None})
        p = alt.param(name=f"f_{field}", value=ALL,
                      bind=alt.binding_select(options=[ALL] + options, labels=["All"] + options, name=f"{label} "))
        params.append(p)
        # Only names and the constant ALL go into the expression; values come from the param.
        tests.append(f"(f_{field} == '{ALL}' || datum['{field}'] == f_{field})")
    data_spec = alt.Data(values=data, name="measurements")
    tooltip = [alt.Tooltip("scenario:N"), alt.Tooltip("product:N"), alt.Tooltip("platform:N"),
               alt.Tooltip("configuration:N"), alt.Tooltip("persistence:N"),
               alt.Tooltip("size_label:N", title="size"), alt.Tooltip("rate_printed:N", title="rate (printed)"),
               alt.Tooltip("cost_printed:N", title="CPU/msg (printed)"), alt.Tooltip("where:N", title="source line")]
    x = alt.X("size:Q", scale=alt.Scale(type="log"), title="Message size (bytes, log scale)",
              axis=alt.Axis(format="~s"))
    color = alt.Color("group:N", title="Product \u00b7 platform")

    def panel(field: str, title: str):
        return (alt.Chart(data_spec)
                .transform_filter(" && ".join(tests))
                .transform_filter(f"isValid(datum.{field}) && datum.{field} > 0")
                .mark_line(point=True, strokeWidth=1, opacity=0.8)
                .encode(x=x, y=alt.Y(f"{field}:Q", scale=alt.Scale(type="log"), title=title),
                        color=color, detail="series:N", tooltip=tooltip)
                .properties(width=460, height=340))

    both = alt.hconcat(panel("cost", "CPU ms per message (log scale)"),
                       panel("rate", "Messages per second (log scale)")).add_params(*params)
    return chart(both, "explorer", "Each line is one series (a table's product, platform, scenario, persistence "
                                   "and configuration across message sizes). Hover a point for its source line.")


# -- models and sizing ---------------------------------------------------------------------

MODELS_MISSING = ("The model tables (model_fits, model_predictions) are not built in this warehouse: "
                  "run `make` (or `perfwh models`) to fit them, then rebuild the site.")


def _accuracy_from_predictions() -> list[dict]:
    excluded = "AND NOT p.excluded" if "excluded" in columns_of("model_predictions") else ""
    return query(f"""
        SELECT coalesce(p.source, 'all') AS scope, count(*) AS points,
               median(abs(p.predicted_cpu_ms_per_msg - p.observed_cpu_ms_per_msg) / p.observed_cpu_ms_per_msg) * 100 AS mdape_pct,
               avg(CASE WHEN p.observed_cpu_ms_per_msg BETWEEN p.lower_90 AND p.upper_90 THEN 1.0 ELSE 0.0 END) * 100 AS inside_90_pct
        FROM model_predictions p
        WHERE p.observed_cpu_ms_per_msg > 0 AND p.predicted_cpu_ms_per_msg IS NOT NULL {excluded}
        GROUP BY ROLLUP (p.source) ORDER BY p.source NULLS LAST""")


def _scope_link(scope: str) -> Html:
    if scope == "all":
        return Html("<strong>all reports</strong>")
    return link(scope, report_href(family_of().get(scope)))


def models_summary() -> Html:
    """Leave-one-size-out accuracy per report: model_accuracy when built, else computed."""
    if not has("model_fits") and not has("model_predictions"):
        return note(MODELS_MISSING, "warning")
    if has("model_accuracy"):
        rows = query("SELECT * FROM model_accuracy")
        cols = set(columns_of("model_accuracy"))
        chosen = [r for r in rows if r.get("model") in (None, "chosen")]
        chosen.sort(key=lambda r: (r["scope"] == "all", r["scope"]))
        body = [(_scope_link(r["scope"]), r.get("series"), r.get("points"), r.get("excluded_points"),
                 _pct(r.get("mdape_pct")), _pct(r.get("p90_ape_pct")), _pct(r.get("interpolated_mdape_pct")),
                 _pct(r.get("extrapolated_mdape_pct")), _pct(r.get("inside_90_pct"))) for r in chosen]
        out = [table(["Report", "Series", "Points", "Excluded", "Median abs. error", "90th pct. error",
                      "Median, inside the sizes", "Median, at the ends", "Inside 90 % interval"], body,
                     numeric=[False] + [True] * 8,
                     caption="Leave-one-size-out accuracy of CPU ms per message (chosen model per series).")]
        alt_rows = {(r["scope"], r.get("model")): r for r in rows}
        lin, pw = alt_rows.get(("all", "linear")), alt_rows.get(("all", "power"))
        if lin and pw and "mdape_pct" in cols:
            out.append(tag("p", f"Over all reports, the linear model alone has a median error of "
                                f"{fmt_num(lin['mdape_pct'], 3)} % and the power law alone "
                                f"{fmt_num(pw['mdape_pct'], 3)} %."))
        return Html("".join(out))
    if not has("model_predictions"):
        return note("model_predictions is not built in this warehouse.", "warning")
    rows = _accuracy_from_predictions()
    body = [(_scope_link(r["scope"]), r["points"], _pct(r["mdape_pct"]), _pct(r["inside_90_pct"])) for r in rows]
    return table(["Report", "Points predicted", "Median abs. error", "Inside 90 % interval"], body,
                 numeric=[False, True, True, True],
                 caption="Leave-one-size-out accuracy: each point predicted by a fit that did not use it.")


def _pct(value: Any) -> str | None:
    return None if value is None else f"{float(value):.1f} %"


def _interval(value: Any, low: Any, high: Any) -> str | None:
    if value is None:
        return None
    text = fmt_num(value, 3)
    if low is not None and high is not None:
        text += f" [{fmt_num(low, 3)}, {fmt_num(high, 3)}]"
    return text


_FIT_COLUMNS = ("series_label", "model", "sizes", "min_size_bytes", "max_size_bytes", "fixed_ms", "ms_per_kb",
                "ms_at_1kb", "exponent", "loso_mdape_pct")


def models_fits() -> Html:
    if not has("model_fits"):
        return note("model_fits is not built in this warehouse.", "warning")
    cols = set(columns_of("model_fits"))
    if not set(_FIT_COLUMNS) <= cols:  # not the documented shape: show it as it is
        columns, rows = query_table("SELECT * FROM model_fits ORDER BY ALL")
        return table(columns, rows, class_="data wide", caption=f"{len(rows)} fitted series")
    rows = query("SELECT * FROM model_fits ORDER BY series_id")
    body = [(r["series_id"], r["series_label"], r["model"], r["sizes"],
             f"{fmt_bytes(r['min_size_bytes'])} to {fmt_bytes(r['max_size_bytes'])}",
             _interval(r["fixed_ms"], r.get("fixed_ms_lower_95"), r.get("fixed_ms_upper_95")),
             _interval(r["ms_per_kb"], r.get("ms_per_kb_lower_95"), r.get("ms_per_kb_upper_95")),
             _interval(r["ms_at_1kb"], r.get("ms_at_1kb_lower_95"), r.get("ms_at_1kb_upper_95")),
             _interval(r["exponent"], r.get("exponent_lower_95"), r.get("exponent_upper_95")),
             _pct(r["loso_mdape_pct"]), r.get("excluded_points"))
            for r in rows]
    return table(["#", "Series", "Model", "Sizes", "Size range", "Linear: fixed ms [95 %]", "Linear: ms per KB [95 %]",
                  "Power: ms at 1 KB [95 %]", "Power: exponent [95 %]", "LOSO median error", "Excluded points"],
                 body, numeric=[True, False, False, True, False, True, True, True, True, True, True],
                 class_="data fits", caption=f"{len(rows)} fitted series; the chosen model's parameters are the "
                                             "ones it uses, both are shown.")


def models_unfitted() -> Html:
    if not has("model_unfitted"):
        return Html("")
    rows = query("SELECT * FROM model_unfitted ORDER BY ALL")
    if not rows:
        return Html("")
    cols = set(columns_of("model_unfitted"))
    if not {"series_label", "reason"} <= cols:
        columns, data = query_table("SELECT * FROM model_unfitted ORDER BY ALL")
        return table(columns, data)
    return Html(tag("p", f"{len(rows)} series with three or more sizes were not fitted: data-quality errors left "
                         "fewer than three usable sizes.")
                + table(["Series", "Sizes", "Usable sizes", "Why"],
                        [(r["series_label"], r.get("sizes"), r.get("usable_sizes"), r["reason"]) for r in rows],
                        numeric=[False, True, True, False], class_="data unfitted"))


def _prediction_rows() -> list[dict]:
    cols = set(columns_of("model_predictions"))
    fits = set(columns_of("model_fits")) if has("model_fits") else set()
    if "series_label" in fits:
        label, join_fits = "f.series_label", "LEFT JOIN model_fits f USING (series_id)"
    else:
        extra = [c for c in ("product", "product_version", "platform", "scenario") if c in cols]
        label = (" || ' | ' || ".join(f"coalesce(CAST(p.{c} AS VARCHAR), '')" for c in extra)
                 if extra else "CAST(p.series_id AS VARCHAR)")
        join_fits = ""
    excluded = "p.excluded" if "excluded" in cols else "false"
    return query(f"""
        SELECT p.series_id, p.source, p.source_line, p.message_size_bytes AS size, p.model,
               p.observed_cpu_ms_per_msg AS observed, p.predicted_cpu_ms_per_msg AS predicted,
               p.lower_90 AS lower, p.upper_90 AS upper, {label} AS label, {excluded} AS excluded
        FROM model_predictions p {join_fits}
        WHERE p.predicted_cpu_ms_per_msg IS NOT NULL AND p.predicted_cpu_ms_per_msg > 0
          AND p.observed_cpu_ms_per_msg > 0
        ORDER BY p.series_id, size, p.source_line""")


def models_chart() -> Html:
    import altair as alt
    if not has("model_predictions"):
        return note(MODELS_MISSING, "warning")
    rows = [r for r in _prediction_rows() if not r["excluded"]]
    if not rows:
        return note("model_predictions holds no prediction.", "warning")
    data = [{"label": r["label"], "report": family_of().get(r["source"], r["source"]),
             "model": r["model"], "size": fmt_bytes(r["size"]), "observed": plain(r["observed"]),
             "predicted": plain(r["predicted"]), "lower": plain(r["lower"]), "upper": plain(r["upper"]),
             "where": f"{r['source']}:{r['source_line']}"} for r in rows]
    base = alt.Chart(alt.Data(values=data))
    scale = alt.Scale(type="log")
    bars = base.transform_filter("isValid(datum.lower) && isValid(datum.upper) && datum.lower > 0").mark_rule(
        opacity=0.35).encode(x=alt.X("observed:Q", scale=scale), y=alt.Y("lower:Q", scale=scale), y2="upper:Q",
                             color=alt.Color("report:N", title="Report"))
    points = base.mark_point(filled=True, size=40).encode(
        x=alt.X("observed:Q", scale=scale, title="Observed CPU ms per message (log)"),
        y=alt.Y("predicted:Q", scale=scale, title="Predicted without this size (log)"),
        color=alt.Color("report:N", title="Report"), shape=alt.Shape("model:N", title="Model"),
        tooltip=[alt.Tooltip("label:N", title="series"), "model:N", "size:N",
                 alt.Tooltip("observed:Q", format=".4g"), alt.Tooltip("predicted:Q", format=".4g"),
                 alt.Tooltip("lower:Q", format=".4g", title="90 % low"),
                 alt.Tooltip("upper:Q", format=".4g", title="90 % high"), alt.Tooltip("where:N", title="source line")])
    lo = min(d["observed"] for d in data)
    hi = max(d["observed"] for d in data)
    diag = alt.Chart(alt.Data(values=[{"v": lo}, {"v": hi}])).mark_line(color="#888", strokeDash=[4, 3]).encode(
        x=alt.X("v:Q", scale=scale), y=alt.Y("v:Q", scale=scale))
    return chart(alt.layer(diag, bars, points).properties(width="container", height=420), "model-accuracy",
                 "Each point is predicted by its series' model fitted without that size; vertical bars are the "
                 "90 % intervals; dashed: a perfect prediction.")


def _fit_curves(labels: dict[int, str], steps: int = 24) -> list[dict]:
    """Points along each fitted curve between its smallest and largest fitted size."""
    cols = set(columns_of("model_fits")) if has("model_fits") else set()
    need = {"series_id", "model", "min_size_bytes", "max_size_bytes", "fixed_ms", "ms_per_kb", "ms_at_1kb", "exponent"}
    if not need <= cols:
        return []
    out = []
    for f in query("SELECT * FROM model_fits ORDER BY series_id"):
        lo, hi = f["min_size_bytes"], f["max_size_bytes"]
        if f["series_id"] not in labels or not lo or not hi or lo <= 0:
            continue
        for i in range(steps + 1):
            size = lo * (hi / lo) ** (i / steps)
            kb = size / 1024
            if f["model"] == "power" and f["ms_at_1kb"] is not None and f["exponent"] is not None:
                cost = f["ms_at_1kb"] * kb ** f["exponent"]
            elif f["fixed_ms"] is not None and f["ms_per_kb"] is not None:
                cost = f["fixed_ms"] + f["ms_per_kb"] * kb
            else:
                break
            out.append({"series": labels[f["series_id"]], "size": plain(size), "cost": plain(cost)})
    return out


def sizing_chart() -> Html:
    """Cores needed for a target rate against message size, for one series at a time."""
    import altair as alt
    if not has("model_predictions"):
        return note(MODELS_MISSING, "warning")
    rows = [r for r in _prediction_rows() if r["size"] is not None]
    if not rows:
        return note("model_predictions holds no prediction.", "warning")
    labels = {r["series_id"]: f"{r['label']}" for r in rows}
    points = [{"series": labels[r["series_id"]], "size": plain(r["size"]), "size_label": fmt_bytes(r["size"]),
               "observed": plain(r["observed"]), "predicted": plain(r["predicted"]),
               "lower": plain(r["lower"]), "upper": plain(r["upper"]),
               "point": "excluded (data-quality error)" if r["excluded"] else "measured",
               "where": f"{r['source']}:{r['source_line']}"} for r in rows]
    curves = _fit_curves(labels)
    series = sorted(set(labels.values()))
    p_series = alt.param(name="s_series", value=series[0], bind=alt.binding_select(options=series, name="Series "))
    p_rate = alt.param(name="s_rate", value=500, bind=alt.binding_range(min=10, max=20000, step=10,
                                                                         name="Target msgs/s "))
    p_util = alt.param(name="s_util", value=0.8, bind=alt.binding_range(min=0.3, max=1.0, step=0.05,
                                                                         name="CPU utilisation "))
    x = alt.X("size:Q", scale=alt.Scale(type="log"), title="Message size (bytes, log)", axis=alt.Axis(format="~s"))
    y_title = "Cores needed"
    pts = (alt.Chart(alt.Data(values=points)).transform_filter("datum.series == s_series")
           .transform_calculate(cores="s_rate * datum.observed / 1000 / s_util",
                                cores_pred="s_rate * datum.predicted / 1000 / s_util",
                                cores_low="s_rate * datum.lower / 1000 / s_util",
                                cores_high="s_rate * datum.upper / 1000 / s_util"))
    interval = pts.mark_rule(strokeWidth=3, opacity=0.35, color="#0f62fe").encode(
        x=x, y=alt.Y("cores_low:Q", title=y_title), y2="cores_high:Q")
    observed = pts.mark_point(filled=True, size=70).encode(
        x=x, y=alt.Y("cores:Q", title=y_title),
        shape=alt.Shape("point:N", title=None, scale=alt.Scale(domain=["measured", "excluded (data-quality error)"],
                                                               range=["circle", "cross"])),
        color=alt.value("#161b26"),
        tooltip=[alt.Tooltip("size_label:N", title="size"),
                 alt.Tooltip("cores:Q", format=".2f", title="cores (measured cost)"),
                 alt.Tooltip("cores_pred:Q", format=".2f", title="cores (predicted without this size)"),
                 alt.Tooltip("cores_low:Q", format=".2f", title="90 % low"),
                 alt.Tooltip("cores_high:Q", format=".2f", title="90 % high"),
                 alt.Tooltip("point:N"), alt.Tooltip("where:N", title="source line")])
    layers = [interval, observed]
    if curves:
        curve = (alt.Chart(alt.Data(values=curves)).transform_filter("datum.series == s_series")
                 .transform_calculate(cores="s_rate * datum.cost / 1000 / s_util")
                 .mark_line(color="#0f62fe").encode(x=x, y=alt.Y("cores:Q", title=y_title)))
        layers.insert(0, curve)
    return chart(alt.layer(*layers).add_params(p_series, p_rate, p_util).properties(width="container", height=340),
                 "sizing", "Cores = target rate x CPU ms per message / 1000 / utilisation. Line: the fitted model "
                           "over the measured sizes; dots: the measured costs; bars: the 90 % interval of each "
                           "leave-one-size-out prediction.")


# -- data quality --------------------------------------------------------------------------

def quality_summary() -> Html:
    import altair as alt
    if not has("dq_findings"):
        return note("dq_findings is not built in this warehouse: run `perfwh build` with rules (the default).",
                    "warning")
    rows = query("SELECT rule, severity, count(*) AS findings FROM dq_findings GROUP BY ALL ORDER BY ALL")
    sev = Counter()
    for r in rows:
        sev[r["severity"]] += r["findings"]
    text = tag("p", ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(sev.items()))
               if sev else "No finding: every rule holds.")
    if not rows:
        return text
    data = [{k: plain(v) for k, v in r.items()} for r in rows]
    c = alt.Chart(alt.Data(values=data)).mark_bar().encode(
        y=alt.Y("rule:N", sort="-x", title=None), x=alt.X("findings:Q", title="Findings"),
        color=alt.Color("severity:N", scale=alt.Scale(domain=["error", "warning", "info"],
                                                      range=["#c0392b", "#e69f00", "#7f8c8d"])),
        tooltip=["rule:N", "severity:N", "findings:Q"]).properties(width="container", height=20 * len({r["rule"] for r in rows}))
    return Html(text + chart(c, "findings-by-rule", "Findings per rule and severity."))


def quality_rules() -> Html:
    if not has("dq_rules"):
        return note("dq_rules is not built in this warehouse.", "warning")
    cols = set(columns_of("dq_rules"))
    rows = query("SELECT * FROM dq_rules ORDER BY rule")
    return table(["Rule", "Severity", "Reason", "Findings", "File"],
                 [(link(r["rule"], "#" + anchor_id("rule", r["rule"])), r["severity"], r["reason"],
                   r.get("findings") if "findings" in cols else None, r.get("file")) for r in rows],
                 numeric=[False, False, False, True, False])


def quality_findings() -> Html:
    """Every finding, grouped by rule: where (linked), evidence, suggestion."""
    if not has("dq_findings"):
        return note("dq_findings is not built in this warehouse.", "warning")
    cols = set(columns_of("dq_findings"))
    rows = query("SELECT * FROM dq_findings ORDER BY rule, finding_id")
    reasons = {r["rule"]: r for r in query("SELECT * FROM dq_rules")} if has("dq_rules") else {}
    by_rule: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_rule[r["rule"]].append(r)
    out = []
    for rule in sorted(set(by_rule) | set(reasons)):
        found = by_rule.get(rule, [])
        info = reasons.get(rule, {})
        out.append(f'<section class="rule" id="{anchor_id("rule", rule)}">')
        out.append(tag("h3", f"{rule} ({len(found)})"))
        if info:
            out.append(tag("p", Html(f"<strong>{esc(info.get('severity'))}</strong> \u00b7 ") + info.get("reason", ""),
                           class_="rule-reason"))
        if not found:
            out.append(tag("p", "No finding: the rule holds on every row.", class_="muted"))
            out.append("</section>")
            continue
        body, ids = [], []
        for f in found:
            suggestion = f.get("suggested_value")
            body.append((f["finding_id"], tag("span", f["severity"], class_=f"sev sev-{anchor_id(f['severity'])}"),
                         where(f["source"], f["source_line"]), f.get("table_title"), f.get("metric"),
                         f.get("printed_value"),
                         tag("strong", suggestion) if suggestion not in (None, "") else None,
                         f.get("message"), f.get("waiver") if "waiver" in cols else None))
            ids.append(anchor_id("finding", f["finding_id"]))
        headers = ["#", "Severity", "Where", "Table", "Metric", "Printed", "Suggestion", "Evidence", "Waiver"]
        if "waiver" not in cols or not any(f.get("waiver") for f in found):
            headers, body = headers[:-1], [b[:-1] for b in body]
        out.append(table(headers, body, row_ids=ids, class_="data findings",
                         numeric=[True] + [False] * (len(headers) - 1)))
        out.append("</section>")
    return Html("".join(out)) if out else note("No finding: every rule holds.")


# -- SQL cookbook --------------------------------------------------------------------------

def sql_example(sql: str, limit: int = 25) -> Html:
    """A query shown as written, run against the warehouse now, with its result."""
    sql = sql.strip()
    columns, rows = query_table(sql)
    shown = rows[:limit]
    more = f" (first {limit} shown)" if len(rows) > limit else ""
    return Html(f'<pre class="sql"><code>{esc(sql)}</code></pre>'
                + table(columns, shown, caption=f"{len(rows)} row{'s' if len(rows) != 1 else ''}{more}",
                        class_="data sql-result"))


# -- downloads -----------------------------------------------------------------------------

def download_tables() -> list[dict]:
    """What the downloads hold: every base table and the analyst views (not staging/dq views)."""
    keep_views = {"metric_values", "measurements"}
    comments = {r["name"]: r["comment"] for r in query(
        "SELECT table_name AS name, comment FROM duckdb_tables() WHERE schema_name = 'main' "
        "UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal")}
    out = []
    for name, kind in relations().items():
        if kind == "VIEW" and name not in keep_views:
            continue
        out.append({"name": name, "kind": "view" if kind == "VIEW" else "table", "comment": comments.get(name)})
    return out


def downloads() -> Html:
    tables = download_tables()
    counts = {t["name"]: query(f'SELECT count(*) AS n FROM "{t["name"]}"')[0]["n"] for t in tables}
    ncols = {t["name"]: len(columns_of(t["name"])) for t in tables}
    size = db_path().stat().st_size
    out = [tag("p", Html(link("warehouse.duckdb", "downloads/warehouse.duckdb")
                         + f" \u2014 the whole warehouse ({esc(fmt_num(size / 1024 / 1024, 3))} MiB), for DuckDB 2.0 or later. "
                           "Open it read-only: "), class_="download-db"),
           Html('<pre class="sql"><code>duckdb -readonly warehouse.duckdb "SELECT * FROM measurements LIMIT 5"</code></pre>')]
    body = [(t["name"], t["kind"], counts[t["name"]], ncols[t["name"]],
             link("Parquet", f"downloads/parquet/{t['name']}.parquet"), link("CSV", f"downloads/csv/{t['name']}.csv"),
             t["comment"]) for t in tables]
    out.append(table(["Table", "Kind", "Rows", "Columns", "Parquet", "CSV", "What it holds"], body,
                     numeric=[False, False, True, True, False, False, False]))
    return Html("".join(str(x) for x in out))
