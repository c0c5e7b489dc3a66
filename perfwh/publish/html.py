"""Safe HTML for the site's pages: every string from a report or a submission is data.

Everything a page shows goes through here. `esc` escapes text; `Html` marks a fragment that
was built from escaped parts (and only such fragments); `chart` embeds a Vega-Lite spec as
JSON inside a <script type="application/json"> element whose text cannot end the element
(`<`, `>` and `&` are written as \\u escapes, which JSON.parse reads back unchanged).
"""
from __future__ import annotations

import datetime as _dt
import decimal
import html
import itertools
import json
import math
import re
from typing import Any, Iterable, Sequence

from perfwh.core.values import json_value


def raw_html_block(content: str) -> str:
    """Pandoc markdown holding ``content`` as a raw HTML block, passed through untouched: a
    ```{=html} fence that no backtick run in the content can close."""
    longest = max((len(m) for m in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"\n{fence}{{=html}}\n{content}\n{fence}\n"


class Html(str):
    """An HTML fragment that is safe to insert as it is (built only from escaped parts).

    Displayed by Jupyter as text/markdown holding a raw HTML block, never as text/html: Quarto
    adds require.js and jQuery from a CDN to every page with a text/html (or JavaScript)
    output (its Jupyter widget handling, quarto-cli src/core/jupyter/widgets.ts), while
    markdown passes through pandoc as it is. perfwh's fallback renderer reads it the same way.
    """

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/markdown": raw_html_block(str(self)), "text/plain": "<HTML fragment>"}

    def __add__(self, other):  # Html + Html stays Html; Html + str escapes the str
        return Html(str(self) + (str(other) if isinstance(other, Html) else esc(other)))


def esc(value: Any) -> str:
    """Text as HTML: None is empty, an Html fragment stays as it is, anything else is escaped."""
    if value is None:
        return ""
    if isinstance(value, Html):
        return str(value)
    return html.escape(str(value), quote=True)


def prose(value: Any) -> Html:
    """Authored text (a caption, a rule's reason, a table's comment) as HTML: escaped, with its
    `backticked` names as code, as the README writes them."""
    return Html(re.sub(r"`([^`\n]+)`", r"<code>\1</code>", esc(value)))


def join(parts: Iterable[Any], sep: str = "") -> Html:
    return Html(esc(sep).join(esc(p) for p in parts))


def tag(name: str, content: Any = None, **attrs: Any) -> Html:
    """<name attr="...">content</name> with the attributes and the content escaped.
    `class_` is written as class; an attribute whose value is None or False is left out."""
    parts = [name]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        key = key.rstrip("_").replace("_", "-")
        parts.append(key if value is True else f'{key}="{esc(value)}"')
    return Html(f"<{' '.join(parts)}>{esc(content)}</{name}>")


def link(text: Any, href: str | None, **attrs: Any) -> Html:
    return tag("a", text, href=href, **attrs) if href else Html(esc(text))


def anchor_id(*parts: Any) -> str:
    """An id/fragment made of letters, digits, '-' and '_' only (safe in attributes and URLs)."""
    text = "-".join(str(p) for p in parts if p is not None and str(p) != "")
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "x"


# A code span: a run of backticks, what it holds, the same run again (CommonMark).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# What outside a code span could begin markup that acts or pretends: raw HTML (<img onerror>,
# <script>), an autolink or a link ([x](javascript:...)), an entity (&lt;), math ($...$) - each
# written escaped, which shows it as itself.
_ACTIVE = re.compile(r"([\\<>\[\]$&])")


def inert_markdown(text: str) -> str:
    """``text`` with the characters that would start HTML, a link, an entity or math escaped
    outside its code spans (inside one, Markdown shows everything as it is). The notebooks' own
    Markdown uses emphasis, lists and code spans alone, which this leaves working; a name that
    holds `<img src=x onerror=...>` or `[click](javascript:...)` prints as those characters."""
    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_ACTIVE.sub(r"\\\1", text[at:span.start()]), span.group(0)]
        at = span.end()
    out.append(_ACTIVE.sub(r"\\\1", text[at:]))
    return "".join(out)


# -- numbers and values --------------------------------------------------------------------

def fmt_num(value: Any, digits: int = 4) -> str:
    """A number for reading: integers as integers, others to `digits` significant digits."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, decimal.Decimal):
        value = float(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        if value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}"
        magnitude = math.floor(math.log10(abs(value))) if value else 0
        decimals = max(0, digits - 1 - magnitude)
        return f"{value:,.{decimals}f}"
    return str(value)


def plain(value: Any) -> Any:
    """A value as JSON can hold it (for chart data)."""
    return json_value(value)


def cell(value: Any) -> Html:
    """A table cell's content: numbers formatted, text escaped, Html kept."""
    if isinstance(value, Html):
        return value
    if isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool):
        return Html(esc(fmt_num(value)))
    if isinstance(value, bool):
        return Html("yes" if value else "no")
    if isinstance(value, (_dt.datetime, _dt.date)):
        return Html(esc(value.isoformat(sep=" ") if isinstance(value, _dt.datetime) else value.isoformat()))
    return Html(esc(value))


# A value the source leaves unstated (NULL in the warehouse where the thing exists - a server's
# CPU, cores, memory), as a table shows it: muted words, not an empty cell, which reads as "does
# not apply". Only for such fields: a NULL that means "does not apply" stays empty, and the
# downloads (the warehouse's own tables) keep NULL as NULL.
NOT_STATED = Html('<span class="muted not-stated">not stated</span>')


def stated(value: Any) -> Any:
    """``value``, or NOT_STATED where it is None (for a field the source could have stated)."""
    return NOT_STATED if value is None else value


def is_numeric(value: Any) -> bool:
    return isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)


# -- tables --------------------------------------------------------------------------------

def table(columns: Sequence[Any], rows: Iterable[Sequence[Any]], *, caption: Any = None,
          class_: str = "data", numeric: Sequence[bool] | None = None,
          header_rows: Sequence[Sequence[tuple[Any, int]]] | None = None,
          id_: str | None = None, row_ids: Sequence[str | None] | None = None) -> Html:
    """An HTML table. Cells are escaped unless they are Html. `header_rows` (optional) are
    extra header rows above `columns`, each a list of (label, colspan)."""
    rows = [list(r) for r in rows]
    for n, r in enumerate(rows):
        if len(r) != len(columns):
            raise ValueError(f"table row {n} has {len(r)} cells for {len(columns)} columns")
    if numeric is None:
        numeric = [bool(rows) and all(is_numeric(r[i]) or r[i] is None or r[i] is NOT_STATED for r in rows)
                   and any(is_numeric(r[i]) for r in rows) for i in range(len(columns))]
    out = [f'<div class="table-wrap"><table class="{esc(class_)}"' + (f' id="{esc(id_)}"' if id_ else "") + ">"]
    if caption is not None:
        out.append(f"<caption>{prose(caption)}</caption>")
    out.append("<thead>")
    for header in header_rows or []:
        out.append("<tr>" + "".join(
            f'<th colspan="{int(span)}" class="group">{esc(label)}</th>' if span > 1 else f'<th class="group">{esc(label)}</th>'
            for label, span in header) + "</tr>")
    attrs = [' class="num"' if numeric[i] else "" for i in range(len(columns))]
    out.append("<tr>" + "".join(f"<th{attrs[i]}>{esc(c)}</th>" for i, c in enumerate(columns))
               + "</tr></thead><tbody>")
    for n, row in enumerate(rows):
        rid = row_ids[n] if row_ids else None
        out.append(("<tr>" if not rid else f'<tr id="{esc(rid)}">') + "".join(
            f"<td{attrs[i]}>{cell(v)}</td>" for i, v in enumerate(row)) + "</tr>")
    out.append("</tbody></table></div>")
    return Html("".join(out))


def spans(labels: Sequence[Any]) -> list[tuple[Any, int]]:
    """Consecutive equal labels merged into (label, colspan) pairs, for grouped headers."""
    return [(label, len(list(group))) for label, group in itertools.groupby(labels)]


def note(text: Any, kind: str = "note") -> Html:
    return tag("div", text, class_=f"callout callout-{kind}")


def dl(pairs: Iterable[tuple[Any, Any]]) -> Html:
    """A definition list of (term, value) pairs; empty values are left out."""
    items = [f"<dt>{esc(k)}</dt><dd>{cell(v)}</dd>" for k, v in pairs if v not in (None, "")]
    return Html('<dl class="facts">' + "".join(items) + "</dl>")


# -- charts --------------------------------------------------------------------------------

def json_for_script(obj: Any) -> str:
    """JSON that can sit inside a <script> element: no '<', '>' or '&' appears literally, so
    neither '</script>' nor '<!--' can end or confuse the element. JSON.parse reads the
    \\u escapes back as the same characters."""
    text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"), default=plain, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _spec(chart: Any) -> dict:
    """The Vega-Lite spec, without its $schema: it names a host outside the site, and site.js
    tells vega-embed the mode itself. An Altair chart is validated against the Vega-Lite schema
    with each inline dataset cut to its first rows: Altair validates every row of the data
    otherwise (the models page's sizing chart spent 2.2 of its 2.6 s so), and a row can only
    be an object of values, which the first ones show."""
    if isinstance(chart, dict):
        spec = dict(chart)
    else:
        spec = chart.to_dict(validate=False)
        try:
            type(chart).validate(_with_few_rows(spec))
        except Exception:
            chart.to_dict()  # Altair's own validation, which says what is wrong in its words
            raise
    spec.pop("$schema", None)
    return spec


def _with_few_rows(spec: Any, rows: int = 3) -> Any:
    """A copy of a Vega-Lite spec whose inline data (the top level's `datasets`, a `data`
    object's `values`) keeps its first ``rows`` rows; everything else (an axis's tick
    `values` too) is kept whole."""
    if isinstance(spec, list):
        return [_with_few_rows(item, rows) for item in spec]
    if not isinstance(spec, dict):
        return spec
    cut = {}
    for key, value in spec.items():
        if key == "datasets" and isinstance(value, dict):
            cut[key] = {name: data[:rows] if isinstance(data, list) else data for name, data in value.items()}
        elif key == "data" and isinstance(value, dict) and isinstance(value.get("values"), list):
            cut[key] = {**value, "values": value["values"][:rows]}
        else:
            cut[key] = _with_few_rows(value, rows)
    return cut


def chart(chart: Any, name: str, caption: Any = None) -> Html:
    """An Altair chart (or a Vega-Lite spec dict) drawn in the browser by site.js with the
    vega libraries served with the site. `name` identifies the chart (tests, anchors)."""
    spec = _spec(chart)
    out = [f'<figure class="chart-figure" id="{anchor_id("chart", name)}">',
           f'<div class="perfwh-chart" data-chart="{esc(anchor_id(name))}">',
           f'<script type="application/json" class="perfwh-spec">{json_for_script(spec)}</script>',
           '<noscript>This chart needs JavaScript.</noscript></div>']
    if caption is not None:
        out.append(f"<figcaption>{prose(caption)}</figcaption>")
    out.append("</figure>")
    return Html("".join(out))
