"""The generations page: the tests that recur from WBIMB 5 to ACE 13, cost per message against
message size, one line per generation, with the hardware beside each line.

What is compared comes from the mapping (`perfwh.publish.generations`, its file
generations.yml): which tests do the same work, and which rows of each report stand for its
generation. Every number on the page is a CPU cost as printed, linked to its report line.
"""
from __future__ import annotations

from collections import defaultdict

from ingest.vocabulary import config_label, persistence_label, size_label
from perfwh.core.values import counted
from perfwh.publish import generations as mapping_of
from perfwh.publish.html import Html, anchor_id, chart, esc, join, link, note, plain, table, tag

from .common import (con, family_of, finding_flag, fitted_log_scale, flags_by_fact, numbers_with_errors,
                     query, report_href, src_href, where)

# Pixels for the y axis' tick labels, so that every chart of the page lines up.
Y_LABELS = 44
# One colour per generation, the same on every chart (Vega's tableau10, oldest first).
PALETTE = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6"]


def _mapping() -> mapping_of.Mapping:
    """The mapping, each report it names as its current edition in the warehouse."""
    return mapping_of.current_editions(con(), mapping_of.load())


def generations() -> list[dict]:
    """The test beds the warehouse holds, oldest first, each with its hardware and series."""
    mapping = _mapping()
    found = mapping_of.generations(con(), mapping)
    for g in found:
        g["hardware_short"] = _hardware_short(g)
        g["configuration"] = _configuration(mapping.test_beds[g["source"]])
    return found


def _cpu(h: dict) -> str:
    """The processor, without the notes after its name ('HyperThreading off')."""
    return (h["cpu_model"] or "CPU not stated").split(", ")[0]


def _hardware_short(g: dict) -> str:
    """'8 cores, RS64-III 500 MHz' or '1-core container on AMD EPYC 7R13 ...': the capacity a
    line was measured with and the processor, for the legend beside the lines."""
    parts = []
    for h in g["hardware"]:
        if g["cpu_limit_cores"]:
            parts.append(f"{g['cpu_limit_cores']:g}-core {h['deployment'] or 'container'} on {_cpu(h)}")
        elif h["cores"]:
            parts.append(f"{h['cores']} cores, {_cpu(h)}")
        else:
            parts.append(_cpu(h))
    return "; ".join(parts) or "hardware not stated"


def _configuration(bed: mapping_of.TestBed) -> str:
    """The configuration and persistence of a test bed's series, in the vocabulary's words."""
    condition, params = mapping_of.series_condition(bed)
    rows = query(f"""SELECT DISTINCT concurrency_kind, concurrency, replicas, tshirt, persistent
                     FROM measurements WHERE source = ? AND {condition} ORDER BY ALL""", [bed.source, *params])
    labels = sorted({config_label(r["concurrency_kind"], r["concurrency"], r["replicas"], r["tshirt"]) for r in rows})
    persistence = sorted({persistence_label(r["persistent"]) or "persistence not stated" for r in rows})
    return ", ".join(labels + persistence)


def beds() -> Html:
    """Who is on the page: each generation's report, the rows that stand for it, why, and the
    hardware they ran on."""
    found = generations()
    if not found:
        return note("None of the reports the mapping names is in this warehouse.", "warning")
    body = []
    for g in found:
        hardware = join([Html(esc(f"{h['platform']}: {h['cpu_model'] or 'CPU not stated'}; "
                                  + (f"{h['cores']} cores; " if h["cores"] else "")
                                  + f"{h['hardware'] or 'machine not stated'}; {h['deployment'] or ''}"
                                  + (f"; {h['memory']}" if h["memory"] else "")))
                         for h in g["hardware"]], "; ")
        if g["cpu_limit_cores"]:
            hardware = Html(esc(f"limited to {g['cpu_limit_cores']:g} core{'s' if g['cpu_limit_cores'] != 1 else ''}"
                                " of ")) + hardware
        body.append((tag("strong", g["label"]), link(g["title"], report_href(g["family"])), g["configuration"],
                     g["reason"], hardware))
    return table(["Generation", "Report", "Series on this page", "Why these rows", "Hardware"], body,
                 class_="data beds")


def caveats() -> Html:
    """What the reports say themselves about comparing them with earlier reports, quoted."""
    out = []
    families = family_of()
    for caveat in _mapping().caveats:
        if caveat.source not in families:
            continue
        for line, text in mapping_of.quoted(caveat):
            out.append(tag("blockquote", Html(esc(text) + " ") + where(caveat.source, line), class_="caveat"))
    return Html("".join(out))


def _points_by_comparison() -> dict[str, list[dict]]:
    labels = {g["source"]: g for g in generations()}
    by: dict[str, list[dict]] = defaultdict(list)
    for p in mapping_of.points(con(), _mapping()):
        g = labels.get(p["source"])
        if g is not None:
            by[p["comparison"]].append({**p, "generation": g["label"], "hardware": g["hardware_short"],
                                        "year": g["year"]})
    return by


def _chart(name: str, rows: list[dict], order: list[str], legend: dict[str, str]) -> Html:
    import altair as alt

    # a cost with an error finding is shown beside the chart, marked, but drawn in no line (as
    # the comparison page uses it in no ratio and the models leave it out)
    data = [{"generation": r["generation"], "legend": legend[r["generation"]], "scenario": r["scenario"],
             "size": plain(r["size"]), "size_label": _size(r), "cost": plain(r["cost"]),
             "cost_printed": r["cost_printed"], "hardware": r["hardware"],
             "where": f"{r['source']}:{r['source_line']}"} for r in rows
            if r["cost_fact_id"] not in numbers_with_errors()]
    # the generations this chart shows, each in the colour it has on every chart of the page
    shown = [g for g in order if any(r["generation"] == g for r in rows)]
    domain = [legend[g] for g in shown]
    colours = [PALETTE[order.index(g) % len(PALETTE)] for g in shown]
    spec = (alt.Chart(alt.Data(values=data))
            .mark_line(point=alt.OverlayMarkDef(filled=True, size=45), strokeWidth=2)
            .encode(x=alt.X("size:Q", scale=fitted_log_scale(), title="Message size (bytes, log scale)",
                            axis=alt.Axis(format="~s")),
                    y=alt.Y("cost:Q", scale=fitted_log_scale(), title="CPU ms per message (log scale)",
                            axis=alt.Axis(minExtent=Y_LABELS, maxExtent=Y_LABELS)),
                    # each label on two lines, the generation over its hardware: narrow enough
                    # for a phone, and nothing cut
                    color=alt.Color("legend:N", title="Generation: hardware",
                                    scale=alt.Scale(domain=domain, range=colours),
                                    legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=320,
                                                      labelExpr="split(datum.label, ': ')")),
                    detail="generation:N",
                    tooltip=[alt.Tooltip("generation:N"), alt.Tooltip("scenario:N", title="test"),
                             alt.Tooltip("size_label:N", title="size"),
                             alt.Tooltip("cost_printed:N", title="CPU ms/msg (printed)"),
                             alt.Tooltip("hardware:N"), alt.Tooltip("where:N", title="source line")])
            .properties(width="container", height=320))
    left_out = sum(1 for r in rows if r["cost_fact_id"] in numbers_with_errors())
    caption = ("Each line is one generation's test, its CPU cost per message at each size it was measured "
               "at, as printed; hover a point for the number and its report line.")
    if left_out:
        caption += (f" {counted(left_out, 'cost')} with an error finding (marked \u2691 in the table) "
                    f"{'is' if left_out == 1 else 'are'} left out of the lines.")
    return chart(spec, f"generations-{anchor_id(name)}", caption)


def _numbers(rows: list[dict]) -> Html:
    """A generation's costs as printed, each linked to its report line: '2 KiB 0.6 · 20 KiB 4.8'."""
    return join([join([Html(esc(_size(r)) + " ") + link(r["cost_printed"], src_href(r["source"], r["source_line"]),
                                                        title=f"{r['source']}:{r['source_line']}")]
                      + [finding_flag(f) for f in flags_by_fact().get(r["cost_fact_id"], [])], " ")
                 for r in rows], " \u00b7 ")


def _size(r: dict) -> str:
    """A message size as its report printed it (2000kB, 2K), else in the vocabulary's words."""
    return r["size_printed"] or size_label(r["size"])


def comparisons() -> Html:
    """One section per comparison: what its tests do, the chart, and beside each line the test,
    why it is paired, the hardware and the numbers as printed."""
    gens = generations()
    if not gens:
        return Html("")
    order = [g["label"] for g in gens]
    legend = {g["label"]: f"{g['label']}: {g['hardware_short']}" for g in gens}
    reasons = {(t.source, t.scenario): t.reason for t in _mapping().tests()}
    by = _points_by_comparison()
    out = []
    for comparison in _mapping().comparisons:
        rows = by.get(comparison.name, [])
        shown = [g for g in order if any(r["generation"] == g for r in rows)]
        if len(shown) < 2:  # one generation alone compares with nothing
            continue
        out.append(tag("h2", comparison.name, id=anchor_id("comparison", comparison.name)))
        out.append(tag("p", comparison.work))
        out.append(_chart(comparison.name, rows, order, legend))
        body = []
        for g in shown:
            mine = sorted((r for r in rows if r["generation"] == g), key=lambda r: (r["size"], r["source_line"]))
            first = mine[0]
            body.append((tag("strong", g), first["scenario"], reasons[(first["source"], first["scenario"])],
                         first["hardware"], _numbers(mine)))
        out.append(table(["Generation", "Test", "Why it is paired", "Hardware",
                          "CPU ms per message, as printed, by size"], body, class_="data gen-pairs"))
    if not out:
        return note("No comparison has tests of two generations in this warehouse.", "warning")
    return Html("".join(str(x) for x in out))


def not_compared() -> Html:
    """What is left out: tests that recur by name but are set apart, and reports without a
    generation on this page."""
    mapping = _mapping()
    families = family_of()
    items = []
    for apart in mapping.apart:
        if all(source in families for source, _ in apart.tests):
            names = " and ".join(f"{source}'s {scenario}" for source, scenario in apart.tests)
            items.append(tag("li", tag("strong", names) + f": {apart.reason}"))
    for rep in query("""SELECT r.source, r.title, r.family, count(m.cpu_ms_per_msg) AS costs
                        FROM dim_report r LEFT JOIN measurements m USING (source)
                        WHERE r.retired_by IS NULL GROUP BY ALL ORDER BY r.source"""):
        if rep["source"] in mapping.test_beds:
            continue
        why = ("prints no CPU cost per message, the measure this page compares" if not rep["costs"]
               else "no test of it is paired with another generation's in the mapping")
        items.append(tag("li", link(rep["title"], report_href(rep["family"])) + f" ({rep['source']}): {why}."))
    return Html(tag("ul", Html("".join(items)))) if items else Html("")
