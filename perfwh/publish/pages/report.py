"""A report page: every table of a report re-drawn from the warehouse, each number as printed
and linked to the line of the report's text it was read from (shown at the bottom)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ingest import submission
from ingest.reader import read_lines
from ingest.vocabulary import config_label, kind_label, persistence_label, topology_label
from perfwh.core.paths import raw_path
from perfwh.warehouse.sources import sha256_of
from perfwh.publish.html import Html, anchor_id, dl, esc, join, link, note, spans, stated, table, tag

from .common import (finding_flag, findings_by_claim, has, metric_header, number_cell, platform_of, query,
                     unit_over,
                     report_page_name, reports, src_anchor, where)


_ATTRS = [("product", "Product"), ("platform", "Platform"), ("scenario", "Scenario"),
          ("size", "Message size"), ("persistence", "Persistence"), ("deployment", "Deployment"),
          ("config", "Configuration"), ("component", "Component"), ("observed_at", "Time")]


def _report_facts(report_id: int) -> list[dict]:
    rows = query("""
        SELECT f.fact_id, r.source, f.source_line, f.page, f.table_id, f.metric, f.unit, f.value,
               f.printed_value, f.message_size_printed AS size, f.observed_at,
               p.product || ' ' || p.product_version AS product, pl.platform, pl.cores, s.scenario,
               c.persistent, c.concurrency_kind, f.concurrency_printed, c.concurrency, c.replicas,
               c.tshirt, c.component, c.topology, c.queue_managers, c.simulated_latency_ms
        FROM fact_metric_value f
        JOIN dim_report r USING (report_id)
        LEFT JOIN dim_product p USING (product_id)
        LEFT JOIN dim_platform pl USING (platform_id)
        LEFT JOIN dim_scenario s USING (scenario_id)
        LEFT JOIN dim_configuration c USING (configuration_id)
        -- in the order the report prints them (a number's place in its source, the raw layer's
        -- seq): a table's columns follow their first appearance, and a fact id is a hash
        LEFT JOIN (SELECT stable_id(json_array(source, seq)) AS fact_id, seq FROM raw_observations
                   WHERE source IN (SELECT source FROM dim_report WHERE report_id = ?)) o USING (fact_id)
        WHERE f.report_id = ? ORDER BY f.table_id, o.seq, f.fact_id""", [report_id, report_id])
    for r in rows:
        r["platform"] = platform_of(r["source"], r["platform"], r.pop("cores"))
        r["persistence"] = persistence_label(r["persistent"])
        r["deployment"] = topology_label(r["topology"], r["queue_managers"], r["simulated_latency_ms"])
        r["config"] = (config_label(r["concurrency_kind"], r["concurrency"], r["replicas"], r["tshirt"],
                                    r["concurrency_printed"])
                       if r["concurrency_kind"] or r["replicas"] not in (None, 1) else None)
        r["observed_at"] = r["observed_at"].isoformat(sep=" ") if r["observed_at"] is not None else None
    return rows


def _config_header(facts: list[dict]) -> str:
    kinds = {f["concurrency_kind"] for f in facts if f["concurrency_kind"]}
    return "Configuration" if len(kinds) != 1 else kind_label(next(iter(kinds))).capitalize()


def _short_config(f: dict) -> str | None:
    """The configuration without its kind (the column header names the kind)."""
    if f["concurrency_kind"] == "tshirt":
        return f["config"][len("T-shirt "):] if f["config"] else None
    value = f["concurrency_printed"] or (f"{f['concurrency']:g}" if f["concurrency"] is not None
                                         else "not stated")
    if f["replicas"] not in (None, 1):
        value += f", {f['replicas']} replicas"
    return value


def _config_as_column(facts: list[dict]) -> list[dict]:
    """The configuration as a column of each column group, beside its numbers: where a printed
    line holds several groups (appliances, deployments) each measured at a load of its own (the
    MQ Appliance's requester clients at each group's peak), the load is a cell of the group,
    not a group of its own."""
    out: list[dict] = []
    seen: set = set()
    for f in facts:
        group = (f["source_line"], f["platform"], f["product"], f["deployment"])
        out.append({**f, "config": None})
        if group not in seen and f["concurrency_kind"]:
            seen.add(group)
            out.append({**f, "config": None, "fact_id": None, "metric": kind_label(f["concurrency_kind"]),
                        "unit": None, "printed_value": _short_config(f)})
    return out


def _cell(facts: list[dict]) -> Html:
    """A table cell: numbers as printed, linked to their line; a load shown beside them (a
    configuration, not a number of the facts) as printed."""
    if all(f["fact_id"] is None for f in facts):
        return Html(esc(" ".join(str(f["printed_value"]) for f in facts)))
    return number_cell(facts)


def results_table(facts: list[dict]) -> tuple[Html, list[tuple[str, str]]]:
    """One results table re-drawn from its facts: a row per source line, the attributes that
    change within a line as column groups, the rest as row headers; each number links to its
    line. Returns the table and the (attribute, value) pairs constant over the table."""
    def varies_within_a_line(attr: str) -> bool:
        lines: dict[int, set] = {}
        for f in facts:
            lines.setdefault(f["source_line"], set()).add(f[attr])
        return any(len(v) > 1 for v in lines.values())

    if varies_within_a_line("config") and any(varies_within_a_line(a) for a, _ in _ATTRS if a != "config"):
        facts = _config_as_column(facts)
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
    printed: dict[str, list[str]] = defaultdict(list)
    for f in facts:
        key = tuple(f[a] for a in col_attrs) + (f["metric"],)
        if key not in col_keys:
            col_keys.append(key)
        units.setdefault(f["metric"], f["unit"])
        printed[f["metric"]].append(f["printed_value"])
    units = {metric: unit_over(metric, unit, printed[metric]) for metric, unit in units.items()}

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
        row += [_cell(cells[k]) if k in cells else Html("") for k in col_keys]
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
        row += [metric_header(f["metric"], unit_over(f["metric"], f["unit"], [f["printed_value"]])), _cell([f]),
                where(f["source"], f["source_line"], f["page"])]
        body.append(row)
    return table([labels[a] for a in attrs] + ["Metric", "Value", "Source line"], body,
                 numeric=[False] * len(attrs) + [False, True, False], class_="data results long")


def built_from(rep: dict) -> Path | None:
    """The raw file this warehouse read for the report: found by name under the raw folder
    ($PERFWH_RAW, else data/raw) and only if its sha256 is the one the warehouse recorded - a
    site built from another warehouse never shows a text that warehouse was not built from."""
    raw = raw_path()
    matches = sorted(p for p in raw.rglob("*") if p.name == rep["source"] and p.is_file()) \
        if raw.is_dir() else []
    return next((p for p in matches if sha256_of(p) == rep.get("sha256")), None)


def _source_text(rep: dict, data_lines: set[int]) -> Html:
    """The report's text with numbered lines, each line an anchor (`<stem>-L<n>`)."""
    found = built_from(rep)
    if found is None:
        return note(f"The text of {rep['source']} that this warehouse was built from (sha256 "
                    f"{str(rep.get('sha256'))[:16]}...) is not in {raw_path()}, so it is not shown "
                    "(perfwh site --raw names the folder it is in).")
    lines = submission.lines_of(found) if rep["family"] == submission.FAMILY else read_lines(found)
    out = ['<pre class="source-text">']
    for ln in lines:
        anchor = src_anchor(rep["source"], ln.number)
        cls = "src-line data-line" if ln.number in data_lines else "src-line"
        out.append(f'<span id="{anchor}" class="{cls}"><a class="ln" href="#{anchor}">{ln.number}</a>'
                   f"{esc(ln.text)}</span>")  # block spans: no newline between them
    out.append("</pre>")
    return Html("".join(out))


def _claim_kind(claim: dict) -> str:
    """'value', or the kind and what it counts or compares: 'count of platforms'."""
    kind = claim.get("claim_kind") or "value"
    compared = claim.get("compared")
    return f"{kind} of {compared.replace('_', ' ')}" if compared and kind == "count" else \
        f"{kind}: {compared.replace('_', ' ')}" if compared else kind


def _claim_findings(claim: dict) -> Html:
    """What the rules on the prose found about a statement, beside it: each finding's flag
    (to the quality page), rule and message, escaped (the message quotes the report's text)."""
    return join([Html(f'<span class="claim-finding">{finding_flag(f)} <code>{esc(f["rule"])}</code>: '
                      f'{esc(f["message"])}</span>')
                 for f in findings_by_claim().get(claim["claim_id"], [])], " ")


def _claims_table(claims: list[dict]) -> Html:
    """The statements of the prose, a statement with a finding marked and its finding beside it."""
    flagged = sum(1 for c in claims if c["claim_id"] in findings_by_claim())
    out = []
    if flagged:
        out.append(tag("p", f"{flagged} of the {len(claims)} statements have a finding of the rules on the "
                            "prose (the tables, counts, orderings and dates they state checked against the "
                            "report's numbers), shown beside the statement; \u2691 links to it on the quality page.",
                       class_="claims-flagged"))
    out.append(table(["Statement", "Kind", "Scenario", "Metric", "Comparison", "As printed", "Finding", "Source line"],
                     [(c["claim_text"], _claim_kind(c), c["scenario"], c["metric"],
                       f"{c['comparison'] or ''} {c['unit'] or ''}".strip(),
                       c["printed_value"], _claim_findings(c), where(c["source_file"], c["source_line"], c["page"]))
                      for c in claims],
                     class_="data claims",
                     row_ids=[anchor_id("claim", c["claim_id"]) if c["claim_id"] in findings_by_claim() else None
                              for c in claims]))
    return Html("".join(out))


def _platform_row(p: dict) -> tuple:
    """A platform's facts; every server has an OS, hardware, a CPU, cores and memory, so a NULL
    among them is one the report does not state. A note is optional: none is an empty cell."""
    return (p["platform"], stated(p["os"]), stated(p["hardware"]), stated(p["cpu_model"]), stated(p["cores"]),
            stated(p["deployment"]), stated(p["memory"]), p["note"])


def _scenario_row(s: dict) -> tuple:
    """A scenario's facts. A flow that carries messages (a transport and a flow style) parses
    them in some message domain, so there a NULL domain is one the report does not state; a
    startup test (no transport) or an appliance's test (no flow) has none to state: empty."""
    parses = s["transport"] is not None and s["flow_style"] is not None
    return (s["scenario"], s["transport"], stated(s["message_domain"]) if parses else s["message_domain"],
            s["flow_style"], s["description"])


def _product_line(family: str) -> Html:
    """How this family's products relate to those of other families' reports (a product line of
    perfwh/publish/generations.yml), linking their pages; nothing for a family of no line."""
    from perfwh.publish import generations

    line = generations.load().line_of(family)
    if line is None:
        return Html("")
    titles: dict[str, list[str]] = {}
    for r in reports():
        if r["family"] in line.families and r["family"] != family:
            titles.setdefault(r["family"], []).append(f"{r['title']} ({r['year']})")
    others = [link("; ".join(titles[f]), f"{report_page_name(f)}.html") for f in line.families
              if f in titles]
    out = [tag("h3", f"Product line: {line.name}", id=anchor_id("line", family)), tag("p", line.relation)]
    if others:
        out.append(tag("p", Html("The line's other reports: ") + join(others, ", ") + Html(".")))
    return Html("".join(str(x) for x in out))


def report_page(family: str) -> Html:
    """Everything about the reports of one family: facts, scenarios, tables, claims, text."""
    reps = [r for r in reports() if r["family"] == family]
    if not reps:
        return note(f"No report of family {family} is in this warehouse.", "warning")
    out = [_product_line(family)]
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
                       ("Source file", f"{rep['source']} ({rep['line_count']} lines, sha256 {rep['sha256']})"),
                       ("Products", ", ".join(products)),
                       ("Numbers", f"{len(facts):,} in {len(tables)} tables")]))
        if platforms:
            out.append(tag("h3", "Platform", id=anchor_id("platform", rid)))
            out.append(table(["Platform", "OS", "Hardware", "CPU", "Cores", "Deployment", "Memory", "Note"],
                             [_platform_row(p) for p in platforms]))
        if scenarios:
            out.append(tag("h3", "Scenarios", id=anchor_id("scenarios", rid)))
            out.append(table(["Scenario", "Transport", "Message domain", "Flow style", "Description"],
                             [_scenario_row(s) for s in scenarios]))
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
            # numbers the prose states, and statements without a number (counts, orderings,
            # superlatives, trends, windows, dates) that the rules check against the tables
            out.append(tag("h3", "Statements in the prose", id=anchor_id("claims", rid)))
            out.append(_claims_table(claims))
        out.append(tag("h3", "Source text", id=anchor_id("source", rid)))
        out.append(tag("p", f"The report as loaded ({rep['source']}); highlighted lines hold numbers of the tables above."))
        out.append(_source_text(rep, {f["source_line"] for f in facts}))
    return Html("".join(str(x) for x in out))
