"""The fallback renderer's search: an index of the site (page titles, headings, report names,
scenarios) written as a small script beside the pages, read by site.js. Offline, no CDN;
under Quarto the site uses Quarto's own search instead."""
from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

from perfwh.publish.pages import common

from .config import SiteConfig


class _Headings(HTMLParser):
    """A page's title and its h1-h3 headings that carry an id."""

    def __init__(self):
        super().__init__()
        self.title = ""
        self.headings: list[tuple[str, str]] = []
        self._in: tuple[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("title", "h1", "h2", "h3"):
            self._in, self._text = (tag, dict(attrs).get("id")), []

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            text = re.sub(r"\s+", " ", "".join(self._text)).strip()
            if tag == "title":
                self.title = text
            elif self._in[1] and text:
                self.headings.append((text, self._in[1]))
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._text.append(data)


def entries(config: SiteConfig, pages: list[Path]) -> list[dict]:
    """Search entries: {"title", "kind", "href"} with hrefs relative to the site/ folder."""
    site_dir = config.output_dir / "site"
    out = []
    for page in pages:
        parser = _Headings()
        parser.feed(page.read_text(encoding="utf-8"))
        href = os.path.relpath(page, site_dir).replace(os.sep, "/")
        title = parser.title.split(" \u2013 ")[0]
        out.append({"title": title, "kind": "page", "href": href})
        out += [{"title": text, "kind": f"section of {title}", "href": f"{href}#{anchor}"}
                for text, anchor in parser.headings]
    for rep in common.reports():
        href = common.report_href(rep["family"])
        if href:
            out.append({"title": rep["title"], "kind": f"report ({rep['source']})", "href": href})
    for row in common.query("""SELECT DISTINCT s.scenario, r.family FROM dim_scenario s
                               JOIN dim_report r USING (report_id) ORDER BY 1, 2"""):
        href = common.report_href(row["family"])
        if href:
            out.append({"title": row["scenario"], "kind": f"scenario ({row['family']})", "href": href})
    return out


def write_index(config: SiteConfig, pages: list[Path], target: Path) -> Path:
    """The index as a script (window.PERFWH_SEARCH = [...]) so that file:// pages load it too."""
    data = json.dumps(entries(config, pages), ensure_ascii=True, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"window.PERFWH_SEARCH = {data};\n", encoding="utf-8")
    return target
