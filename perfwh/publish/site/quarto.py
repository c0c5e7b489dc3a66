"""What in a page's executed cells would make Quarto render it differently from perfwh's
fallback renderer, or make the page load something from outside the site.

Quarto (quarto-cli, src/core/jupyter/widgets.ts) adds require.js and jQuery from a CDN to every
page that has a cell output of type text/html or application/javascript, and the Jupyter widget
runtime from unpkg for a widget view; perfwh's pages therefore emit their HTML as a raw HTML
block inside text/markdown (`perfwh.publish.html.Html`). Independently of the renderer, nothing
a cell emits may load a file from another host: an attribute (src, href, srcset, data, poster,
action), a CSS url(...) or @import naming one. A host named in a page's text (a report's own
prose quoting a web address) is text, not a reference.

The fallback renderer calls `hazards` on every page it executes and refuses a page with any,
so a site that renders without Quarto here renders the same way, offline, with Quarto.
"""
from __future__ import annotations

import re

# Output types that make Quarto add script dependencies from CDNs.
WIDGET_MIMES = ("text/html", "application/javascript", "application/vnd.jupyter.widget-view+json")
_OUTSIDE = r"""(?:[a-z][a-z0-9+.-]*:)?//(?!127\.0\.0\.1[:/]|localhost[:/])"""
_REFERENCES = re.compile(
    r"""\b(?:src|href|srcset|data|poster|action)\s*=\s*(?P<q>["']?)\s*""" + _OUTSIDE
    + r"""|url\(\s*["']?\s*""" + _OUTSIDE + r"""|@import\s+(?:url\()?\s*["']?\s*""" + _OUTSIDE,
    re.IGNORECASE)


def outside_references(text: str) -> list[str]:
    """The places in ``text`` (HTML, CSS or markdown) that load something from another host."""
    return [text[max(0, m.start() - 20):m.end() + 40].replace("\n", " ") for m in _REFERENCES.finditer(text)]


def _output_text(data: dict) -> str:
    parts = []
    for value in data.values():
        parts.append("".join(value) if isinstance(value, list) else value if isinstance(value, str) else "")
    return "\n".join(parts)


def hazards(nb) -> list[str]:
    """Every output of the executed notebook ``nb`` that Quarto would render with outside
    scripts, or that references another host: '(cell N) ...'."""
    found = []
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for n, cell in enumerate(code_cells, 1):
        for out in cell.get("outputs", []):
            if out.get("output_type") not in ("display_data", "execute_result"):
                continue
            data = out.get("data", {})
            for mime in WIDGET_MIMES:
                if mime in data:
                    found.append(f"(code cell {n}) an output of type {mime}: Quarto would add require.js and "
                                 "jQuery from a CDN to the page (emit HTML as perfwh.publish.html.Html)")
            for place in outside_references(_output_text(data)):
                found.append(f"(code cell {n}) a reference to another host: ...{place}...")
    return found
