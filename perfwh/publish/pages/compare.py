"""The comparison page: measurements that differ only in the product (ACE 11 against IIB 10) or
the platform (Windows against Linux), and the hardware of each generation.

A number with an unwaived error finding (dq_findings) is not used in a ratio: the pair is
shown, marked, with that ratio left out (the README explains, e.g., why ACE 11's Windows CPU
costs are unusable)."""
from __future__ import annotations

import math

from ingest.vocabulary import config_label, size_label
from perfwh.publish.html import Html, chart, join, link, note, plain, table, tag

from .common import has_error_sql, query, report_href, reports, where

MARK = "\u2691"


def _flagged_sql(alias: str, metric: str) -> str:
    """SQL: whether the number ``metric`` of measurement ``alias`` has an unwaived error."""
    return has_error_sql(f"{alias}.{metric}_fact_id")


def pairs(left: str, right: str, on: str) -> list[dict]:
    """Pairs of measurements that differ only in ``on`` ('product' or 'platform')."""
    other = "platform" if on == "product" else "product"
    return query(f"""
        SELECT a.source, a.scenario, a.{other} AS {other}, a.message_size_bytes AS size,
               a.concurrency_kind, a.concurrency, a.persistent,
               a.msg_rate_printed AS rate_a_printed, b.msg_rate_printed AS rate_b_printed,
               a.cpu_ms_per_msg_printed AS cost_a_printed, b.cpu_ms_per_msg_printed AS cost_b_printed,
               a.source_line AS line_a, b.source_line AS line_b,
               ({_flagged_sql('a', 'msg_rate')} OR {_flagged_sql('b', 'msg_rate')}) AS rate_flagged,
               ({_flagged_sql('a', 'cpu_ms_per_msg')} OR {_flagged_sql('b', 'cpu_ms_per_msg')}) AS cost_flagged,
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
        ORDER BY a.source, a.scenario, a.{other}, size, a.concurrency, a.source_line, b.source_line""",
                 [left, right])


def _usable(r: dict, field: str) -> float | None:
    """A ratio, unless one of its numbers carries an error finding."""
    flagged = r["rate_flagged"] if field == "rate_ratio" else r["cost_flagged"]
    return None if flagged else r[field]


def _domain(values: list[float]) -> list[float]:
    """A log-axis domain that fits the data: the range, widened by a tenth each way."""
    lo, hi = min(values), max(values)
    return [lo / 1.1, hi * 1.1] if lo < hi else [lo / 1.5, hi * 1.5]


# Ratios a reader reads off a log axis; a narrow domain (0.6 to 1.9) holds no power of ten but
# 1, so the axis's own log ticks would label nothing above it.
_RATIO_TICKS = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3,
                4, 5, 7.5, 10, 15, 20, 30, 50, 100)


def _ticks(domain: list[float], most: int = 9) -> list[float]:
    """The reading ratios inside ``domain`` (1-2-5 steps over more than a factor of ten), every
    other one dropped until at most ``most`` are left (1, parity, always kept)."""
    candidates = _RATIO_TICKS if domain[1] <= 10 * domain[0] else (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
    ticks = [t for t in candidates if domain[0] <= t <= domain[1]]
    while len(ticks) > most:
        ticks = [t for i, t in enumerate(ticks) if i % 2 == 0 or t == 1]
    return ticks


# Vega cuts an axis label at 180 px ("HTTP XMLNSC Mapper Transform\u2026"): the scenario labels may
# take what the longest needs, at most this many pixels a character (Vega's 10 px sans-serif
# labels take 5 to 9). site.js cuts them again to a share of a narrow screen, where a cut label
# keeps its full name as its title.
LABEL_PX_PER_CHAR = 8


def _label_limit(labels: list[str]) -> int:
    """The labelLimit (px) that lets the longest of ``labels`` show whole."""
    return LABEL_PX_PER_CHAR * max((len(label) for label in labels), default=0) + 8


def _ratio_chart(rows: list[dict], facet: str, name: str, caption: str, a: str, b: str) -> Html:
    import altair as alt

    data = [{"scenario": r["scenario"], facet: r[facet], "size": size_label(r["size"]),
             "cores": config_label(r["concurrency_kind"], r["concurrency"]),
             "rate_ratio": plain(_usable(r, "rate_ratio")), "cost_ratio": plain(_usable(r, "cost_ratio")),
             "rate_a": r["rate_a_printed"], "rate_b": r["rate_b_printed"],
             "cost_a": r["cost_a_printed"], "cost_b": r["cost_b_printed"],
             "where": f"{r['source']}:{r['line_a']} / {r['line_b']}"} for r in rows]
    sizes = [size_label(s) for s in sorted({r["size"] for r in rows if r["size"] is not None})]
    facets = sorted({d[facet] for d in data if d[facet] is not None})
    out = []
    for field, title, printed in (("rate_ratio", f"Rate, {b} / {a}", ("rate_a", "rate_b")),
                                  ("cost_ratio", f"CPU per message, {b} / {a}", ("cost_a", "cost_b"))):
        values = [d[field] for d in data if d[field] is not None and d[field] > 0]
        if not values:
            continue
        domain = _domain(values)
        panels = []
        for value in facets:
            subset = [d for d in data if d[facet] == value and d[field] is not None and d[field] > 0]
            if not subset:
                continue
            points = alt.Chart(alt.Data(values=subset)).mark_point(filled=True, size=60, opacity=0.8).encode(
                x=alt.X(f"{field}:Q", scale=alt.Scale(type="log", domain=domain, nice=False), title=title,
                        axis=alt.Axis(format="~r", values=_ticks(domain), labelOverlap=True)),
                y=alt.Y("scenario:N", title=None),
                color=alt.Color("cores:N", title="Configuration"),
                shape=alt.Shape("size:N", sort=sizes, title="Message size"),
                tooltip=[alt.Tooltip("scenario:N"), alt.Tooltip(f"{facet}:N"), alt.Tooltip("size:N"),
                         alt.Tooltip("cores:N", title="configuration"),
                         alt.Tooltip(f"{printed[0]}:N", title=f"{a} (printed)"),
                         alt.Tooltip(f"{printed[1]}:N", title=f"{b} (printed)"),
                         alt.Tooltip(f"{field}:Q", format=".3f", title=title),
                         alt.Tooltip("where:N", title="lines")])
            parity = (alt.Chart(alt.Data(values=[{"x": 1}])).mark_rule(strokeDash=[4, 3], color="#888")
                      .encode(x=alt.X("x:Q", scale=alt.Scale(type="log", domain=domain, nice=False))))
            layers = [points] if not domain[0] <= 1 <= domain[1] else [parity, points]
            panels.append(alt.layer(*layers).properties(title=str(value), width=300, height=alt.Step(22)))
        out.append(chart(alt.hconcat(*panels).resolve_scale(color="shared", shape="shared")
                         .configure_axisY(labelLimit=_label_limit([d["scenario"] for d in data])),
                         f"{name}-{field.split('_')[0]}", f"{caption}: {title}"))
    if not out:
        return note("No pair has both numbers.")
    return Html("".join(out))


def _ratio_cell(r: dict, field: str):
    flagged = r["rate_flagged"] if field == "rate_ratio" else r["cost_flagged"]
    if flagged:
        return Html(f'<span class="flagged" title="left out: a number of this pair has an error '
                    f'finding (Data quality page)">{MARK} left out</span>')
    return r[field]  # to four significant digits, as every number the site computes (fmt_num)


def _pairs_table(rows: list[dict], other: str, a: str, b: str) -> Html:
    body = [(r["scenario"], r[other], size_label(r["size"]), config_label(r["concurrency_kind"], r["concurrency"]),
             r["rate_a_printed"], r["rate_b_printed"], _ratio_cell(r, "rate_ratio"),
             r["cost_a_printed"], r["cost_b_printed"], _ratio_cell(r, "cost_ratio"),
             join([where(r["source"], r["line_a"]), where(r["source"], r["line_b"])] if r["line_a"] != r["line_b"]
                  else [where(r["source"], r["line_a"])], ", "))
            for r in rows]
    return table(["Scenario", other.capitalize(), "Size", "Configuration", f"Rate {a}", f"Rate {b}", f"{b}/{a}",
                  f"CPU/msg {a}", f"CPU/msg {b}", f"{b}/{a} ", "Source lines"], body,
                 numeric=[False, False, False, False, True, True, True, True, True, True, False],
                 class_="data pairs")


def _median(values: list[float]) -> str:
    values = sorted(v for v in values if v is not None and math.isfinite(v))
    if not values:
        return "n/a"
    mid = len(values) // 2
    value = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return f"{value:.3f}"


def _left_out(rows: list[dict], fields: tuple[str, ...] = ("rate_ratio", "cost_ratio")) -> str:
    """What each median leaves out: the pairs whose numbers of that ratio carry an error
    finding (a pair flagged on its cost keeps its rate ratio)."""
    said = []
    for field, what in (("rate_ratio", "rate"), ("cost_ratio", "CPU-per-message")):
        n = sum(1 for r in rows if r[field] is not None and _usable(r, field) is None) if field in fields else 0
        if n:
            said.append(f"{n} of the {what} ratios")
    if not said:
        return ""
    return (f" Left out of the medians: {' and '.join(said)}, those of a pair with an error finding on one of "
            f"its two numbers ({MARK}).")


def products() -> Html:
    rows = pairs("IIB", "ACE", "product")
    if not rows:
        return note("No table measures ACE and IIB side by side in this warehouse.")
    summary = tag("p", f"{len(rows)} measurements of ACE and IIB on the same hardware, scenario, message "
                       f"size and cores. Median ACE/IIB rate ratio "
                       f"{_median([_usable(r, 'rate_ratio') for r in rows])}; median CPU-per-message ratio "
                       f"{_median([_usable(r, 'cost_ratio') for r in rows])} (above 1: ACE is faster / "
                       f"costs more).{_left_out(rows)}")
    return Html(summary + _ratio_chart(rows, "platform", "ace-vs-iib",
                                       "ACE / IIB, each point one table row; the dashed line is parity",
                                       "IIB", "ACE")
                + _pairs_table(rows, "platform", "IIB", "ACE"))


def platforms() -> Html:
    rows = pairs("Linux", "Windows", "platform")
    if not rows:
        return note("No report measures Linux and Windows side by side in this warehouse.")
    summary = tag("p", f"{len(rows)} measurements on Linux and on Windows of the same product, scenario, "
                       f"size and cores. Median Windows/Linux rate ratio "
                       f"{_median([_usable(r, 'rate_ratio') for r in rows])}.{_left_out(rows, ('rate_ratio',))}")
    return Html(summary + _ratio_chart(rows, "product", "windows-vs-linux",
                                       "Windows / Linux, each point one table row; the dashed line is "
                                       "parity", "Linux", "Windows")
                + _pairs_table(rows, "product", "Linux", "Windows"))


def generations() -> Html:
    """The hardware next to every product generation: what can and cannot be compared."""
    rows = query("SELECT r.source, p.platform, p.os, p.hardware, p.cpu_model, p.cores, p.deployment "
                 "FROM dim_platform p JOIN dim_report r USING (report_id)")
    by_source: dict[str, list[dict]] = {}
    for r in rows:
        by_source.setdefault(r["source"], []).append(r)
    body = []
    for rep in reports():
        for p in sorted(by_source.get(rep["source"], []), key=lambda p: p["platform"] or ""):
            body.append((link(rep["family"], report_href(rep["family"])), rep["published"], p["platform"],
                         p["os"], p["hardware"], p["cpu_model"], p["cores"], p["deployment"]))
    return table(["Report", "Published", "Platform", "OS", "Hardware", "CPU", "Cores", "Deployment"], body)
