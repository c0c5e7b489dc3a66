"""The Great Expectations Data Docs, published with the site and working offline.

GX writes its Data Docs with Bootstrap, jQuery, bootstrap-table, Font Awesome, Vega and a logo
loaded from six CDNs; opened offline they are two bare links and empty tables. Here they are
copied into the site and every such reference is pointed at a local copy: the npm packages of
the same libraries and versions (site/vendor/package.json, installed by `make install`), and the
Vega libraries the site already serves. A reference to an outside host that has no local copy
(the logo) is removed, so that no page requests anything from outside the site.
"""
from __future__ import annotations

import os
import re
import shutil
from html import escape
from pathlib import Path

from perfwh.core.paths import VENDOR_NODE_MODULES


class DataDocsError(RuntimeError):
    """The Data Docs cannot be published offline."""

# CDN address (its start) -> file under node_modules (or VEGA for the site's own bundle).
VEGA = "vega-bundle"
LOCAL = {
    "https://maxcdn.bootstrapcdn.com/bootstrap/4.3.1/css/bootstrap.min.css": "bootstrap/dist/css/bootstrap.min.css",
    "https://stackpath.bootstrapcdn.com/bootstrap/4.3.1/js/bootstrap.min.js": "bootstrap/dist/js/bootstrap.min.js",
    "https://cdn.jsdelivr.net/npm/@forevolve/bootstrap-dark@1.1.0/dist/css/bootstrap-prefers-dark.css":
        "@forevolve/bootstrap-dark/dist/css/bootstrap-prefers-dark.css",
    "https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/css/bootstrap-datepicker.min.css":
        "bootstrap-datepicker/dist/css/bootstrap-datepicker.min.css",
    "https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/js/bootstrap-datepicker.min.js":
        "bootstrap-datepicker/dist/js/bootstrap-datepicker.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.6.0/css/all.min.css":
        "@fortawesome/fontawesome-free/css/all.min.css",
    "https://unpkg.com/bootstrap-table@1.19.1/dist/bootstrap-table.min.css": "bootstrap-table/dist/bootstrap-table.min.css",
    "https://unpkg.com/bootstrap-table@1.19.1/dist/bootstrap-table.min.js": "bootstrap-table/dist/bootstrap-table.min.js",
    "https://unpkg.com/bootstrap-table@1.19.0/dist/extensions/filter-control/bootstrap-table-filter-control.css":
        "bootstrap-table/dist/extensions/filter-control/bootstrap-table-filter-control.css",
    "https://unpkg.com/bootstrap-table@1.19.1/dist/extensions/filter-control/bootstrap-table-filter-control.min.js":
        "bootstrap-table/dist/extensions/filter-control/bootstrap-table-filter-control.min.js",
    "https://code.jquery.com/jquery-3.7.1.min.js": "jquery/dist/jquery.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/popper.js/1.12.9/umd/popper.min.js": "popper.js/dist/umd/popper.min.js",
    "https://cdn.jsdelivr.net/npm/vega@5": VEGA,
    "https://cdn.jsdelivr.net/npm/vega-lite@5": VEGA,
    "https://cdn.jsdelivr.net/npm/vega-embed@6": VEGA,
}
# Folders a copied file needs beside it (Font Awesome's CSS loads ../webfonts/).
COMPANIONS = {"@fortawesome/fontawesome-free/css/all.min.css": "@fortawesome/fontawesome-free/webfonts"}
VENDOR = "vendor"  # under the published Data Docs folder
_TAG = re.compile(r"<(?P<tag>script|link|img|source)\b(?P<attrs>[^>]*)>(?P<close>\s*</script>)?",
                  re.IGNORECASE)
_EXTERNAL_URL = re.compile(r"""url\(\s*(["']?)(https?:)?//[^)]*\)""", re.IGNORECASE)
_URL_ATTR = re.compile(r"""\b(?P<name>src|href|srcset)\s*=\s*(?P<q>["'])(?P<url>[^"']*)(?P=q)""", re.IGNORECASE)


def available(node_modules: Path = VENDOR_NODE_MODULES) -> bool:
    """Whether every library the Data Docs load is installed locally."""
    return all((node_modules / path).is_file() for path in set(LOCAL.values()) - {VEGA})


def source_of(db: Path) -> Path | None:
    """The Data Docs the warehouse's last Great Expectations run wrote, if they can be
    published offline (their libraries installed); else None."""
    folder = Path(db).parent / "gx" / "data_docs"
    return folder if (folder / "index.html").is_file() and available() else None


def publish(source: Path, target: Path, vega_bundle: Path, node_modules: Path = VENDOR_NODE_MODULES,
            back: tuple[str, str] | None = None) -> list[Path]:
    """Copy the Data Docs at ``source`` to ``target`` with their libraries local. ``back`` is
    (address relative to ``target``, text) of a link back to the site, put at the top of every
    page: GX's own pages know nothing of the site they are published in. Returns the HTML
    pages written."""
    if not available(node_modules):
        raise DataDocsError(f"{node_modules}: the Data Docs' libraries are not installed (run `make install`)")
    # a folder from an earlier publication (a re-render into the same output) is replaced
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    used = set()
    pages = sorted(target.rglob("*.html"))
    for page in pages:
        text = _localised(page.read_text(encoding="utf-8"), page, target, vega_bundle, used)
        text = _EXTERNAL_URL.sub("none", text)  # the same styles, inlined in each page
        if back is not None:
            text = _with_link_back(text, page, os.path.relpath(target / back[0], page.parent).replace(os.sep, "/"),
                                   back[1])
        page.write_text(text, encoding="utf-8")
    for sheet in sorted(target.rglob("*.css")):  # GX's own styles load its logo from S3
        text = sheet.read_text(encoding="utf-8")
        sheet.write_text(_EXTERNAL_URL.sub("none", text), encoding="utf-8")
    for path in sorted(used - {VEGA}):
        dest = target / VENDOR / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(node_modules / path, dest)
        if path in COMPANIONS:
            shutil.copytree(node_modules / COMPANIONS[path], target / VENDOR / COMPANIONS[path],
                            dirs_exist_ok=True)
    return pages


_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
# Inline styles: the bar must look the same whatever GX's Bootstrap theme does to a <nav>.
_BACK_BAR = ('<nav class="perfwh-back" style="background:#161b26;padding:0.45rem 1rem;font-size:0.95rem">'
             '<a href="{href}" style="color:#fff">\u2190 {text}</a></nav>')


def _with_link_back(html: str, page: Path, href: str, text: str) -> str:
    """The page with a bar at the top of its body linking back to the site."""
    bar = _BACK_BAR.format(href=escape(href, quote=True), text=escape(text))
    match = _BODY.search(html)
    if match is None:
        raise DataDocsError(f"{page}: a Data Docs page without <body>: cannot link it back to the site")
    return html[:match.end()] + bar + html[match.end():]


def _missing_local(url: str, page: Path, root: Path) -> bool:
    """A relative address (no scheme, not a fragment) of a file that is not in the Data Docs."""
    if not url or re.match(r"^([a-z][a-z0-9+.-]*:|//|#)", url, re.IGNORECASE):
        return False
    path = (page.parent / url.split("#", 1)[0].split("?", 1)[0]).resolve()
    return not path.exists()


def _localised(html: str, page: Path, root: Path, vega_bundle: Path, used: set) -> str:
    seen_vega = []

    def tag(match: re.Match) -> str:
        attrs = match.group("attrs")
        url = next((m.group("url") for m in _URL_ATTR.finditer(attrs)), None)
        if url is not None and _missing_local(url, page, root):
            return ""  # a link to a file GX did not write (its favicon): a request that fails
        if url is None or not re.match(r"^(https?:)?//", url):
            return match.group(0)
        local = next((path for prefix, path in LOCAL.items() if url.startswith(prefix)), None)
        if local is None:
            return ""  # an outside resource with no local copy (the GX logo): left out
        used.add(local)
        if local == VEGA:
            if seen_vega:  # the one bundle holds vega, vega-lite and vega-embed
                return ""
            seen_vega.append(url)
            href = os.path.relpath(vega_bundle, page.parent).replace(os.sep, "/")
        else:
            href = os.path.relpath(root / VENDOR / local, page.parent).replace(os.sep, "/")
        attrs = _URL_ATTR.sub(lambda m: f'{m.group("name")}="{href}"', attrs, count=1)
        attrs = re.sub(r"""\s(integrity|crossorigin)\s*=\s*(["'])[^"']*\2""", "", attrs)
        return f"<{match.group('tag')}{attrs}>{match.group('close') or ''}"

    return _TAG.sub(tag, html)
