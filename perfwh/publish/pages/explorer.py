"""The scenario explorer: every measurement with a message size, cost and rate against size,
filtered by product, platform, scenario, persistence and configuration."""
from __future__ import annotations

from collections import Counter

from ingest.vocabulary import CONCURRENCY_KINDS, config_label, persistence_label, size_label, topology_label
from perfwh.publish.html import Html, chart, note, plain

from .common import ALL, fitted_log_scale, platform_of, query

# Pixels for the y axes' tick labels: the widest a cost is labelled ("20,000") or a rate
# ("300k", with SI prefixes), with the ticks and padding.
Y_LABELS = 44
FILTERS = [("product", "Product"), ("platform", "Platform"), ("scenario", "Scenario"),
           ("persistence", "Persistence"), ("configuration", "Configuration")]


def data() -> list[dict]:
    rows = query("""
        SELECT m.measurement_id, m.source, m.source_line, m.source_table, r.family AS report,
               m.product || ' ' || m.product_version AS product, m.platform, m.server_cores, m.scenario,
               m.message_size_bytes AS size, m.persistent, m.concurrency_kind, m.concurrency, m.replicas,
               m.tshirt, m.topology, m.queue_managers, m.simulated_latency_ms,
               m.msg_rate AS rate, m.cpu_ms_per_msg AS cost, m.cpu_busy_pct AS cpu_pct,
               m.msg_rate_printed, m.cpu_ms_per_msg_printed, m.cpu_busy_pct_printed
        FROM measurements m JOIN dim_report r USING (source)
        WHERE m.message_size_bytes IS NOT NULL AND (m.msg_rate IS NOT NULL OR m.cpu_ms_per_msg IS NOT NULL)
        ORDER BY r.published_year NULLS LAST, m.source, m.source_table, m.scenario, m.message_size_bytes,
                 m.source_line, m.measurement_id""")
    out = []
    for r in rows:
        r["platform"] = platform_of(r["source"], r["platform"], r["server_cores"])
        kind = CONCURRENCY_KINDS.get(r["concurrency_kind"] or "")
        deployment = topology_label(r["topology"], r["queue_managers"], r["simulated_latency_ms"])
        if kind is not None and kind.peak_load:
            # each row peaked at a load of its own: the series is the test's deployment, the
            # load a number of the point
            config = deployment or kind.label
            load = config_label(r["concurrency_kind"], r["concurrency"])
        else:
            config = config_label(r["concurrency_kind"], r["concurrency"], r["replicas"], r["tshirt"])
            config = f"{config}, {deployment}" if deployment else config
            load = ""  # blank in the tooltip
        persistence = persistence_label(r["persistent"]) or "not stated"
        out.append({
            "report": r["report"], "product": r["product"], "platform": r["platform"], "scenario": r["scenario"],
            "persistence": persistence, "configuration": config,
            "group": f"{r['product']} \u00b7 {r['platform']}",
            "series": f"{r['source']}|{r['source_table']}|{r['product']}|{r['platform']}|{r['scenario']}|"
                      f"{persistence}|{config}",
            "size": plain(r["size"]), "size_label": size_label(r["size"]),
            "rate": plain(r["rate"]), "cost": plain(r["cost"]),
            # a number the row does not print shows blank in the tooltip, not "null"
            "rate_printed": r["msg_rate_printed"] or "", "cost_printed": r["cpu_ms_per_msg_printed"] or "",
            "cpu_printed": r["cpu_busy_pct_printed"] or "", "load": load,
            "table": r["source_table"], "where": f"{r['source']}:{r['source_line']}",
        })
    return out


def default_scenario(rows: list[dict]) -> str:
    """The scenario shown first: the one measured in the most series (ties: by name), so that
    the page opens on a readable chart rather than every series at once - among the scenarios
    with a CPU cost where any has one, so that neither of the page's two charts opens empty."""
    costed = [d for d in rows if d["cost"] is not None] or rows
    series = Counter()
    for scenario, _s in {(d["scenario"], d["series"]) for d in costed}:
        series[scenario] += 1
    return min(series, key=lambda s: (-series[s], s))


def explorer_chart(rows: list[dict] | None = None) -> Html:
    """Cost and rate against message size (log scales), filtered by five drop-downs."""
    import altair as alt

    rows = data() if rows is None else rows
    if not rows:
        return note("No measurement with a message size is in this warehouse.")
    first = default_scenario(rows)
    params, tests = [], []
    for field, label in FILTERS:
        options = sorted({d[field] for d in rows if d[field] is not None})
        p = alt.param(name=f"f_{field}", value=first if field == "scenario" else ALL,
                      bind=alt.binding_select(options=[ALL] + options, labels=["All"] + options,
                                              name=f"{label} "))
        params.append(p)
        # Only names and the constant ALL go into the expression; values come from the param.
        tests.append(f"(f_{field} == '{ALL}' || datum['{field}'] == f_{field})")
    data_spec = alt.Data(values=rows, name="measurements")
    tooltip = [alt.Tooltip("scenario:N"), alt.Tooltip("product:N"), alt.Tooltip("platform:N"),
               alt.Tooltip("configuration:N"), alt.Tooltip("persistence:N"),
               alt.Tooltip("size_label:N", title="size"), alt.Tooltip("rate_printed:N", title="rate (printed)"),
               alt.Tooltip("cost_printed:N", title="CPU/msg (printed)"),
               alt.Tooltip("cpu_printed:N", title="%CPU (printed)"), alt.Tooltip("load:N", title="load at the peak"),
               alt.Tooltip("where:N", title="source line")]
    # the end labels flush with the axis: a label reaching past its end would widen the chart
    # by a few pixels for some filters and not others, past its container on a phone
    x = alt.X("size:Q", scale=fitted_log_scale(), title="Message size (bytes, log scale)",
              axis=alt.Axis(format="~s", labelFlush=True))
    # The legend's place and columns are configuration, not the encoding's, so that site.js
    # can put it in one column when the panels stack on a phone.
    color = alt.Color("group:N", title="Product \u00b7 platform")

    def panel(field: str, title: str, axis: dict):
        # The same room for the y-axis labels whatever the filters show ("0.3" or "20,000"):
        # the panels keep their place and width when the labels change.
        y_axis = alt.Axis(minExtent=Y_LABELS, maxExtent=Y_LABELS, **axis)
        return (alt.Chart(data_spec)
                .transform_filter(" && ".join(tests))
                .transform_filter(f"isValid(datum.{field}) && datum.{field} > 0")
                .mark_line(point=True, strokeWidth=1.5, opacity=0.85)
                .encode(x=x, y=alt.Y(f"{field}:Q", scale=fitted_log_scale(), title=title, axis=y_axis),
                        color=color, detail="series:N", tooltip=tooltip)
                .properties(width=460, height=380))

    both = (alt.hconcat(panel("cost", "CPU ms per message (log scale)", {}),
                        panel("rate", "Messages per second (log scale)", {"format": "~s"}))
            .add_params(*params)
            # laid out again after every change of a filter: the legend grows with the series
            # shown, and a layout made once would cut its rows off under the caption
            .properties(autosize=alt.AutoSizeParams(type="pad", resize=True))
            .configure_legend(orient="bottom", columns=3))
    return chart(both, "explorer", "Each line is one series (a table's product, platform, scenario, "
                                   "persistence and configuration across message sizes). Hover a point for "
                                   "the numbers as printed and their source line.")
