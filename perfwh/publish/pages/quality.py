"""The data-quality page: findings per rule, the rules themselves, and the Great Expectations
Data Docs published with the site."""
from __future__ import annotations

from collections import Counter, defaultdict

from perfwh.publish import datadocs
from perfwh.publish.html import Html, anchor_id, chart, esc, link, note, plain, prose, table, tag

from .common import columns_of, db_path, has, query, where

# Where the post-render step publishes the Data Docs, relative to the pages (site/*.html),
# and this page, which they link back to.
DATA_DOCS = "data-docs/index.html"
PAGE = "quality.html"


def summary() -> Html:
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
        color=alt.Color("severity:N", scale=alt.Scale(domain=["error", "warning"], range=["#c0392b", "#e69f00"])),
        tooltip=["rule:N", "severity:N", "findings:Q"]).properties(
            width="container", height=22 * len({r["rule"] for r in rows}))
    return Html(text + chart(c, "findings-by-rule", "Findings per rule and severity."))


def data_docs() -> Html:
    """The link to the Great Expectations Data Docs, when this build ran the rules through GX."""
    if datadocs.source_of(db_path()) is None:
        return note("The Great Expectations Data Docs are published when the warehouse's rules ran "
                    "through Great Expectations (`make`, or `perfwh build --rules gx`).")
    return tag("p", Html("The rules also ran through Great Expectations: its validation results, "
                         "one expectation per rule file, are in the ")
               + link("Data Docs", DATA_DOCS) + Html(" (served with this site, offline)."))


def rules() -> Html:
    if not has("dq_rules"):
        return note("dq_rules is not built in this warehouse.", "warning")
    cols = set(columns_of("dq_rules"))
    rows = query("SELECT * FROM dq_rules ORDER BY rule")
    return table(["Rule", "Severity", "Repair", "What it checks", "Findings", "File"],
                 [(link(r["rule"], "#" + anchor_id("rule", r["rule"])), r["severity"], r.get("repair"),
                   r.get("summary") if "summary" in cols else r["reason"], r["findings"], r["file"])
                  for r in rows],
                 numeric=[False, False, False, False, True, False], class_="data rules")


def findings() -> Html:
    """Every finding, grouped by rule: where (linked), evidence, suggestion."""
    if not has("dq_findings"):
        return note("dq_findings is not built in this warehouse.", "warning")
    rows = query("SELECT * FROM dq_findings ORDER BY rule, finding_id")
    reasons = {r["rule"]: r for r in query("SELECT * FROM dq_rules ORDER BY rule")} if has("dq_rules") else {}
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
            out.append(tag("p", Html(f"<strong>{esc(info.get('severity'))}</strong> \u00b7 ") + prose(info.get("reason", "")),
                           class_="rule-reason"))
        if not found:
            out.append(tag("p", "No finding: the rule holds on every row.", class_="muted"))
            out.append("</section>")
            continue
        body, ids = [], []
        for f in found:
            suggestion = f.get("suggested_value")
            body.append((str(f["finding_id"]), tag("span", f["severity"], class_=f"sev sev-{anchor_id(f['severity'])}"),
                         where(f["source"], f["source_line"]), f.get("table_title"), f.get("metric"),
                         f.get("printed_value"),
                         tag("strong", suggestion) if suggestion not in (None, "") else None,
                         f.get("message"), f.get("waiver")))
            ids.append(anchor_id("finding", f["finding_id"]))
        headers = ["#", "Severity", "Where", "Table", "Metric", "Printed", "Suggestion", "Evidence", "Waiver"]
        if not any(f.get("waiver") for f in found):
            headers, body = headers[:-1], [b[:-1] for b in body]
        out.append(table(headers, body, row_ids=ids, class_="data findings",
                         numeric=[True] + [False] * (len(headers) - 1)))
        out.append("</section>")
    return Html("".join(out)) if out else note("No finding: every rule holds.")
