"""The overview page: what the warehouse holds, derived from it (counts, years, coverage)."""
from __future__ import annotations

from ingest.vocabulary import kind_label, size_label
from perfwh.publish.html import Html, anchor_id, chart, esc, link, plain, table, tag

from .common import number_words, platform_of, query, report_href, reports, source_link


def intro() -> Html:
    """One sentence of what is in the warehouse: counted, never typed in."""
    reps = reports()
    filed = [r for r in reps if r["family"] != "submission"]
    submitted = len(reps) - len(filed)
    years = sorted({r["year"] for r in filed if r["year"] is not None})
    numbers = query("SELECT count(*) AS n FROM fact_metric_value")[0]["n"]
    text = (f"{number_words(len(filed)).capitalize()} IBM performance "
            f"report{'s' if len(filed) != 1 else ''}")
    if years:
        text += f" ({years[0]} to {years[-1]})" if len(years) > 1 else f" ({years[0]})"
    if submitted:
        text += f" and {number_words(submitted)} submission{'s' if submitted != 1 else ''} of new results"
    text += f", {numbers:,} numbers, one warehouse."
    return tag("p", Html(f"<strong>{esc(text)}</strong>"), class_="lead")


def reports_table() -> Html:
    rows = query("""
        SELECT r.report_id, r.family, r.source, r.title, r.published, r.line_count,
               (SELECT string_agg(DISTINCT p.product || ' ' || p.product_version, ', '
                                  ORDER BY p.product || ' ' || p.product_version)
                  FROM fact_metric_value f JOIN dim_product p USING (product_id)
                  WHERE f.report_id = r.report_id) AS products,
               (SELECT list({'platform': pl.platform, 'cores': pl.cores, 'deployment': pl.deployment}
                            ORDER BY pl.platform, pl.cores NULLS LAST)
                  FROM dim_platform pl WHERE pl.report_id = r.report_id) AS platforms,
               (SELECT count(*) FROM dim_source_table t WHERE t.report_id = r.report_id) AS tables,
               (SELECT count(*) FROM fact_metric_value f WHERE f.report_id = r.report_id) AS numbers
        FROM dim_report r""")
    by_source = {r["source"]: r for r in rows}
    ordered = [by_source[r["source"]] for r in reports() if r["source"] in by_source]
    body = [(link(r["title"], report_href(r["family"])), r["published"], r["products"], _platforms(r),
             r["tables"], r["numbers"], r["source"]) for r in ordered]
    total = sum(r["numbers"] for r in ordered)
    return table(["Report", "Published", "Products", "Platforms", "Tables", "Numbers", "Source file"], body,
                 caption=f"{len(ordered)} sources, {total:,} numbers, oldest first")


def _platforms(report: dict) -> str:
    """The report's platforms with their deployment ('xLinux (bare metal)'; 'lab box (8 cores)
    (as submitted)' where it names machines of several core counts alike)."""
    return ", ".join(f"{platform_of(report['source'], p['platform'], p['cores'])} ({p['deployment'] or '?'})"
                     for p in report["platforms"] or [])


def measured() -> Html:
    """What each report measured: scenarios, metrics, sizes, configurations."""
    rows = query("""
        SELECT source, count(DISTINCT scenario) AS scenarios,
               string_agg(DISTINCT metric, ', ' ORDER BY metric) AS metrics,
               min(message_size_bytes) AS min_size, max(message_size_bytes) AS max_size,
               count(DISTINCT message_size_bytes) AS sizes,
               string_agg(DISTINCT concurrency_kind, ', ' ORDER BY concurrency_kind) AS kinds,
               string_agg(DISTINCT CASE WHEN persistent THEN 'persistent'
                                        WHEN NOT persistent THEN 'non-persistent' END, ', '
                          ORDER BY CASE WHEN persistent THEN 'persistent'
                                        WHEN NOT persistent THEN 'non-persistent' END) AS persistence
        FROM metric_values GROUP BY source""")
    by_source = {r["source"]: r for r in rows}
    body = []
    for rep in reports():
        r = by_source.get(rep["source"])
        if r is None:
            continue
        kinds = ", ".join(kind_label(k) for k in (r["kinds"] or "").split(", ") if k)
        sizes = (f"{r['sizes']} ({size_label(r['min_size'])} to {size_label(r['max_size'])})"
                 if r["sizes"] else "none")
        body.append((source_link(rep["source"], rep["family"]), r["scenarios"], r["metrics"],
                     sizes, kinds, r["persistence"]))
    return table(["Source", "Scenarios", "Metrics", "Message sizes", "Configurations", "Persistence"],
                 body)


def _unsized() -> list[dict]:
    """Per report, the numbers without a message size (a rate of a whole test, a product's
    capacity): the coverage chart has no column for them, so its caption counts them."""
    return query("""
        SELECT r.family AS report, count(*) AS numbers
        FROM metric_values m JOIN dim_report r USING (source)
        WHERE m.message_size_bytes IS NULL GROUP BY ALL ORDER BY ALL""")


def _coverage_caption() -> str:
    text = "Numbers per report and message size (darker: more numbers; a count too wide for its cell is in its tooltip)."
    unsized = _unsized()
    total = sum(r["numbers"] for r in unsized)
    if total:
        text += (f" Not drawn: {total:,} number{'s' if total != 1 else ''} without a message size ("
                 + ", ".join(f"{r['numbers']:,} of {r['report']}" for r in unsized) + ").")
    return text


# A cell's count is written in it only where it fits (digits of about this many px at the
# 10 px font, plus a margin): on a phone the cells are narrower than a four-digit count, and
# counts running into each other and into the axis labels are unreadable; the tooltip keeps it.
DIGIT_PX = 6.5


def coverage_chart() -> Html:
    import altair as alt

    rows = query("""
        SELECT r.family AS report, m.message_size_bytes AS size, count(*) AS numbers,
               count(DISTINCT m.scenario) AS scenarios
        FROM metric_values m JOIN dim_report r USING (source)
        WHERE m.message_size_bytes IS NOT NULL GROUP BY ALL ORDER BY ALL""")
    data = [{**{k: plain(v) for k, v in r.items()}, "size_label": size_label(r["size"])} for r in rows]
    sizes = [size_label(s) for s in sorted({r["size"] for r in rows})]
    order = [f for f in dict.fromkeys(r["family"] for r in reports())]
    # labels that would touch are thinned (greedy, 3 px apart) rather than drawn over each other
    base = alt.Chart(alt.Data(values=data)).encode(
        x=alt.X("size_label:O", sort=sizes, title="Message size",
                axis=alt.Axis(labelOverlap="greedy", labelSeparation=3)),
        y=alt.Y("report:N", sort=order, title=None))
    # the legend goes below the chart: beside it, it takes a sixth of a phone's width from the cells
    rect = base.mark_rect().encode(
        color=alt.Color("numbers:Q", scale=alt.Scale(scheme="blues", type="log"), title="Numbers",
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("report:N"), alt.Tooltip("size_label:N", title="size"),
                 alt.Tooltip("numbers:Q"), alt.Tooltip("scenarios:Q")])
    fits = f"length(toString(datum.numbers)) * {DIGIT_PX} + 2 <= bandwidth('x')"
    text = base.mark_text(fontSize=10).encode(
        text="numbers:Q", opacity=alt.condition(fits, alt.value(1), alt.value(0)))
    return chart((rect + text).properties(width="container", height=40 * max(1, len(order))),
                 "coverage", _coverage_caption())


def coverage_matrix() -> Html:
    """Report x scenario x message size: how many configurations were measured - each
    different machine, product, persistence, concurrency, replica count, T-shirt or deployment
    (two appliances at the same client count are two)."""
    rows = query("""
        SELECT source, scenario, message_size_bytes AS size,
               count(DISTINCT (product, product_version, platform, server_cores, persistent, concurrency_kind,
                               concurrency, replicas, tshirt, cpu_limit_cores, memory_limit_mib, component,
                               topology, queue_managers, simulated_latency_ms)) AS configs,
               count(*) AS numbers
        FROM metric_values GROUP BY ALL""")
    cell_of = {(r["source"], r["scenario"], r["size"]): r for r in rows}
    out = []
    for rep in reports():
        mine = [r for r in rows if r["source"] == rep["source"]]
        cols = sorted({r["size"] for r in mine if r["size"] is not None})
        cols += [None] if any(r["size"] is None for r in mine) else []
        body = []
        for s in sorted({r["scenario"] for r in mine}, key=lambda s: (s is None, s)):
            line = [s]
            for size in cols:
                c = cell_of.get((rep["source"], s, size))
                line.append(Html(f'<span class="cov" title="{esc(c["numbers"])} numbers">'
                                 f'{esc(c["configs"])}</span>') if c else Html(""))
            body.append(line)
        if not body:
            continue
        headers = ["Scenario"] + [size_label(s) if s is not None else "no size" for s in cols]
        out.append(tag("h3", rep["title"], id=anchor_id("coverage", rep["family"], rep["report_id"])))
        out.append(table(headers, body, class_="data coverage", numeric=[False] + [True] * len(cols)))
    return Html("".join(out))

