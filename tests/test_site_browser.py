"""The website in a real browser: headless Chromium (Debian's package) driven by Playwright.

The site is built into a temporary folder from a fresh warehouse (perfwh.site_testing), served
over HTTP on 127.0.0.1 by a local http.server thread, and every page is opened: it loads (200),
every chart draws (an SVG with marks), the explorer's filters change its chart, nothing is
written to the console as an error, no request leaves 127.0.0.1 (every request is routed
through a handler that records and aborts anything else), and a scenario named
<script>alert(1)</script> shows as text without a dialog. Screenshots of the main pages go to
test-artifacts/.
"""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from perfwh.site import load_config
from perfwh.site_testing import build_test_site

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HOSTILE = "<script>alert(1)</script>"
MAIN_PAGES = ["index", "report-iib10", "compare", "explorer", "models", "quality", "cookbook", "downloads"]

pytestmark = pytest.mark.slow


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def serve():
    """serve(folder) -> base URL of a local HTTP server for that folder (stopped at the end)."""
    servers = []

    def start(folder: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make install` installs Debian's chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Visit:
    """A browser page that records console errors, page errors, dialogs and every request, and
    lets only requests to the local server through."""

    def __init__(self, browser, base: str):
        self.base = base
        self.host = urlsplit(base).netloc
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.blocked: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.on("request", lambda r: self.requests.append(r.url))

    def _route(self, route):
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc == self.host:
            route.continue_()
        elif parts.scheme in ("data", "blob", "about"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _dialog(self, dialog):
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self, path: str):
        response = self.page.goto(f"{self.base}/{path}", wait_until="load")
        assert response is not None and response.status == 200, f"{path}: HTTP {response and response.status}"
        self.page.wait_for_function(
            "Array.from(document.querySelectorAll('.perfwh-chart')).every(e => e.hasAttribute('data-rendered'))",
            timeout=30_000)
        self.page.wait_for_load_state("networkidle")
        return response

    def charts(self) -> list[dict]:
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('.perfwh-chart')).map(el => {
            const svg = el.querySelector('svg');
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {name: el.dataset.chart, state: el.getAttribute('data-rendered'),
                    width: box.width, height: box.height,
                    marks: svg ? svg.querySelectorAll('.role-mark > *').length : 0};
        })""")

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def site(built_warehouse, tmp_path_factory):
    result, _, _ = build_test_site(built_warehouse, tmp_path_factory.getbasetemp() / "sites")
    return result


@pytest.fixture(scope="module")
def hostile_site(built_warehouse, tmp_path_factory):
    result, _, _ = build_test_site(built_warehouse, tmp_path_factory.getbasetemp() / "sites", scenario_name=HOSTILE)
    return result


def _page_paths(out: Path) -> list[str]:
    config = load_config(output_dir=out)
    return [config.output_of(p).relative_to(out).as_posix() for p in config.pages]


def test_every_page_loads_draws_its_charts_and_stays_local(site, browser, serve, artifacts):
    base = serve(site.out)
    visit = Visit(browser, base)
    drawn = 0
    try:
        visit.open("")  # the root index sends the reader to the first page
        assert visit.page.url.endswith("/site/index.html")
        for path in _page_paths(site.out):
            visit.open(path)
            assert visit.page.locator("h1.title").count() == 1, path
            assert visit.page.locator("header.navbar a").count() >= 10, path
            for c in visit.charts():
                assert c["state"] == "true", f"{path}: chart {c['name']} did not draw"
                assert c["width"] > 50 and c["height"] > 50, f"{path}: chart {c['name']} is empty: {c}"
                assert c["marks"] > 0, f"{path}: chart {c['name']} has no marks"
                drawn += 1
            name = Path(path).stem
            if name in MAIN_PAGES:
                visit.page.screenshot(path=str(artifacts / f"site-{name}.png"), full_page=name != "report-iib10")
        assert not visit.errors, visit.errors
        assert not visit.blocked, f"requests that would leave 127.0.0.1: {visit.blocked}"
        assert all(urlsplit(u).netloc == visit.host for u in visit.requests if u.startswith("http"))
        assert any(u.endswith("/site/assets/vendor/vega-bundle.js") for u in visit.requests)
        assert not visit.dialogs
    finally:
        visit.close()
    assert drawn >= 7  # coverage, two comparisons, explorer, model accuracy, sizing, findings


def test_explorer_filters_change_the_chart(site, browser, serve, artifacts):
    visit = Visit(browser, serve(site.out))
    try:
        visit.open("site/explorer.html")
        page = visit.page
        selects = page.locator(".perfwh-chart .vega-bindings select")
        assert selects.count() == 5
        labels = page.locator(".perfwh-chart .vega-bindings .vega-bind-name").all_inner_texts()
        assert [t.strip() for t in labels] == ["Product", "Platform", "Scenario", "Persistence", "Configuration"]
        svg = page.locator(".perfwh-chart svg").first
        before = svg.inner_html()
        marks_before = visit.charts()[0]["marks"]
        product = selects.nth(0)
        options = product.locator("option").all_inner_texts()
        assert options[0] == "All" and "IIB 10.0.0.2" in options
        product.select_option(label="IIB 10.0.0.2")
        page.wait_for_function("(before) => document.querySelector('.perfwh-chart svg').innerHTML !== before", arg=before)
        marks_after = visit.charts()[0]["marks"]
        assert 0 < marks_after < marks_before
        page.screenshot(path=str(artifacts / "site-explorer-filtered.png"), full_page=True)
        # a second filter narrows further; back to All restores the first view
        after_product = svg.inner_html()
        selects.nth(3).select_option(label="persistent")
        page.wait_for_function("(b) => document.querySelector('.perfwh-chart svg').innerHTML !== b", arg=after_product)
        assert visit.charts()[0]["marks"] < marks_after
        selects.nth(3).select_option(label="All")
        product.select_option(label="All")
        page.wait_for_function("(n) => document.querySelectorAll('.perfwh-chart svg .role-mark > *').length === n",
                               arg=marks_before)
        assert not visit.errors, visit.errors
        assert not visit.blocked
    finally:
        visit.close()


def test_sizing_slider_changes_the_answer(site, browser, serve):
    visit = Visit(browser, serve(site.out))
    try:
        visit.open("site/models.html")
        page = visit.page
        chart = page.locator('.perfwh-chart[data-chart="sizing"]')
        assert chart.count() == 1, "the models page has a sizing chart (model tables present)"
        before = chart.locator("svg").inner_html()
        chart.locator('input[type="range"]').first.fill("5000")
        page.wait_for_function(
            "(b) => document.querySelector('.perfwh-chart[data-chart=\"sizing\"] svg').innerHTML !== b", arg=before)
        assert not visit.errors, visit.errors
    finally:
        visit.close()


def test_a_hostile_scenario_name_shows_as_text_and_runs_nothing(hostile_site, browser, serve, artifacts):
    visit = Visit(browser, serve(hostile_site.out))
    try:
        shown = 0
        for path in _page_paths(hostile_site.out):
            visit.open(path)
            text = visit.page.evaluate("() => document.body.innerText")
            shown += text.count(HOSTILE)
            # nothing from the name became an element
            assert visit.page.evaluate(
                "() => Array.from(document.scripts).every(s => !s.textContent.includes('alert(1)') "
                "|| s.type === 'application/json')")
        assert shown >= 3, "the name appears as text on the overview and report pages"
        visit.open("site/explorer.html")
        options = visit.page.locator(".perfwh-chart .vega-bindings select").nth(2).locator("option").all_inner_texts()
        assert HOSTILE in options
        visit.page.locator(".perfwh-chart .vega-bindings select").nth(2).select_option(label=HOSTILE)
        visit.page.wait_for_timeout(300)
        assert visit.charts()[0]["marks"] > 0
        # the tooltip (vega-tooltip) shows the name as text too
        visit.page.locator(".perfwh-chart svg .mark-symbol path").first.hover(force=True)
        tooltip = visit.page.locator("#vg-tooltip-element")
        tooltip.wait_for(state="visible")
        assert HOSTILE in tooltip.inner_text()
        assert tooltip.locator("script").count() == 0
        visit.open("site/report-iib10.html")
        cell = visit.page.get_by_text(HOSTILE, exact=True).first
        cell.scroll_into_view_if_needed()
        visit.page.screenshot(path=str(artifacts / "site-hostile-name.png"))
        assert not visit.dialogs, visit.dialogs
        assert not visit.errors, visit.errors
        assert not visit.blocked
    finally:
        visit.close()
