"""The fallback renderer's search: an index of the site written as a small script beside the
pages, read by site.js. Offline, no CDN; under Quarto the site uses Quarto's own search.

Like Quarto's index, it holds the text of every section of every page - the numbers of the
tables as printed and the reports' own text included - besides the page titles, headings,
report titles and scenarios, so that a reader finds "1362.3" or a machine's name under both
renderers.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from perfwh.publish.pages import common

from .config import SiteConfig

# The headings that start a section (the page's <h1> is its title: its first section).
HEADINGS = ("h2", "h3", "h4")
# Elements whose content is not text a reader reads on the page: chart specs and styles.
SKIPPED = ("script", "style", "noscript", "template")
# Elements that close themselves: they never hold the text of a section.
VOID = ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")


@dataclass
class Section:
    title: str
    anchor: str | None
    text: list[str] = field(default_factory=list)


class _Page(HTMLParser):
    """A page's title and the sections of its content (<main>): each heading starts one,
    whose anchor is the heading's id or the id of the nearest element around it (a table's
    <section>), else the anchor of the section before."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.sections: list[Section] = []
        self._open: list[tuple[str, str | None]] = []   # inside <main>: (tag, id)
        self._in_main = False
        self._in_title = False
        self._skip = 0
        self._heading: tuple[str, str | None, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "title":
            self._in_title = True
        if tag == "main" and not self._in_main:
            self._in_main = True
            self.sections.append(Section("", None))
            return
        if not self._in_main or tag in VOID:
            return
        self._open.append((tag, attrs.get("id")))
        if tag in SKIPPED:
            self._skip += 1
        elif tag in HEADINGS and self._heading is None:
            anchor = attrs.get("id") or next((i for _t, i in reversed(self._open[:-1]) if i), None)
            self._heading = (tag, anchor, [])

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        if not self._in_main or tag in VOID:
            return
        if tag == "main" and not any(t == "main" for t, _ in self._open):
            self._in_main = False
            return
        while self._open:  # close what the end tag closes (and anything left open inside it)
            opened, _id = self._open.pop()
            if opened in SKIPPED:
                self._skip -= 1
            if opened == tag:
                break
        if self._heading is not None and tag == self._heading[0]:
            _tag, anchor, words = self._heading
            title = _collapse("".join(words))
            previous = self.sections[-1].anchor if self.sections else None
            self.sections.append(Section(title, anchor or previous))
            self._heading = None

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if not self._in_main or self._skip:
            return
        if self._heading is not None:
            self._heading[2].append(data)
        else:
            self.sections[-1].text.append(data)


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def page_entries(html: str, href: str) -> list[dict]:
    """Search entries of one rendered page: the page, and each of its sections with its text."""
    parser = _Page()
    parser.feed(html)
    parser.close()
    title = _collapse(parser.title).split(" \u2013 ")[0]
    out = []
    for n, section in enumerate(parser.sections):
        text = _collapse(" ".join(section.text))
        if n == 0:
            out.append({"title": title, "kind": "page", "href": href, "text": text})
        elif section.title:
            target = f"{href}#{section.anchor}" if section.anchor else href
            out.append({"title": section.title, "kind": f"section of {title}", "href": target, "text": text})
    return out


def entries(config: SiteConfig, pages: list[Path]) -> list[dict]:
    """Search entries: {"title", "kind", "href", "text"} with hrefs relative to the site/
    folder; report titles and scenarios point at their report's page."""
    site_dir = config.output_dir / "site"
    out = []
    for page in pages:
        href = os.path.relpath(page, site_dir).replace(os.sep, "/")
        out += page_entries(page.read_text(encoding="utf-8"), href)
    for rep in common.reports():
        href = common.report_href(rep["family"])
        if href:
            out.append({"title": rep["title"], "kind": f"report ({rep['source']})", "href": href, "text": ""})
    for row in common.query("""SELECT DISTINCT s.scenario, r.family FROM dim_scenario s
                               JOIN dim_report r USING (report_id) ORDER BY 1, 2"""):
        href = common.report_href(row["family"])
        if href:
            out.append({"title": row["scenario"], "kind": f"scenario ({row['family']})", "href": href, "text": ""})
    return out


def write_index(config: SiteConfig, pages: list[Path], target: Path) -> Path:
    """The index as a script (window.PERFWH_SEARCH = [...]) so that file:// pages load it too."""
    data = json.dumps(entries(config, pages), ensure_ascii=True, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"window.PERFWH_SEARCH = {data};\n", encoding="utf-8")
    return target
