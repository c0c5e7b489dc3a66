"""The website in a real browser: headless Chromium (Debian's package) driven by Playwright.

The site is built into a temporary folder from a fresh warehouse (perfwh.site_testing), served
over HTTP on 127.0.0.1 by a local http.server thread, and every page - the Great Expectations
Data Docs published with it included - is opened at 1400 px and at 390 px (a phone): it loads
(200), every chart draws (an SVG with marks) inside its container with its legends and axis
titles inside its box, the page body does not overflow sideways, no table is cut without a
visible scroll affordance and no file name in a table wraps, no page names a folder of the
build machine, every drop-down menu of the navbar is closed until clicked and open after,
nothing is written to the console as an error, the server answers no request with an error (a
missing icon is a 404 in the console), no request leaves 127.0.0.1 (every request is routed
through a handler that records and aborts anything else), and the Data Docs link back to the
site. The same under Quarto's Bootstrap styles. The explorer's filters change its chart and keep
its legend and axis titles in it, tooltips show report numbers exactly as printed on their
source line, the search finds numbers and words of the pages' text, and a scenario named
<script>alert(1)</script> shows as text without a dialog. Screenshots (JPEG) go to test-artifacts/.
"""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from perfwh.core.paths import PROJECT_ROOT
from perfwh.publish.site.config import load_config
from support.site import build_test_site

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HOSTILE = "<script>alert(1)</script>"
MAIN_PAGES = ["index", "report-iib10", "compare", "generations", "explorer", "models", "quality", "cookbook",
              "downloads"]
WIDTHS = {"desktop": 1400, "phone": 390}
# a laptop's window: the report pages' widest tables scroll there, beside a sticky column
LAPTOP = 1280
DATA_DOCS = "site/data-docs"

pytestmark = pytest.mark.slow


def screenshot(page, artifacts: Path, name: str, full_page: bool = True) -> None:
    """A picture of the page for people to look at, test-artifacts/NAME.jpg: JPEG, which the
    browser encodes in about a third less CPU than PNG for a whole page (the main pages at both
    widths: 16 -> 11 CPU s)."""
    page.screenshot(path=str(artifacts / f"{name}.jpg"), type="jpeg", quality=85, full_page=full_page)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder quietly and records every request it answered with an error (a 404 is
    a line in the browser's console, and some - the favicon - reach no page listener)."""

    failed: list[str]

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def log_request(self, code="-", size="-"):
        if isinstance(code, int) and code >= 400:  # an HTTPStatus is an int
            self.failed.append(f"{self.path}: HTTP {int(code)}")


@pytest.fixture(scope="module")
def serve():
    """serve(folder) -> base URL of a local HTTP server for that folder (stopped at the end);
    serve.failed[base] lists the requests that server answered with an error."""
    servers = []

    def start(folder: Path) -> str:
        failed: list[str] = []
        handler = functools.partial(type("Handler", (_QuietHandler,), {"failed": failed}), directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        start.failed[base] = failed
        return base

    start.failed = {}
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make system-packages` (which `make test` runs) installs Debian's chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Visit:
    """A browser page that records console errors, page errors, dialogs and every request, and
    lets only requests to the local server through."""

    def __init__(self, browser, base: str, width: int = WIDTHS["desktop"], rewrite=None):
        self.base = base
        self.rewrite = rewrite  # HTML text -> HTML text, applied to every page served
        self.host = urlsplit(base).netloc
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.blocked: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.on("request", self._started)
        self.page.on("requestfinished", self._ended)
        self.page.on("requestfailed", self._ended)
        self.in_flight: set = set()

    def _route(self, route):
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc == self.host:
            if self.rewrite and parts.path.endswith(".html"):
                response = route.fetch()
                route.fulfill(response=response, body=self.rewrite(response.text()))
            else:
                route.continue_()
        elif parts.scheme in ("data", "blob", "about"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _started(self, request):
        self.requests.append(request.url)
        self.in_flight.add(request)

    def _ended(self, request):
        self.in_flight.discard(request)

    def wait_for_requests(self, timeout_ms: int = 30_000):
        """Until every request the page started has been answered or refused (Playwright's
        "networkidle" waits for half a second of quiet after that, on every page opened)."""
        waited = 0
        while self.in_flight:
            assert waited < timeout_ms, f"requests still unanswered: {[r.url for r in self.in_flight]}"
            self.page.wait_for_timeout(20)  # lets Playwright deliver the requests' events
            waited += 20

    def _dialog(self, dialog):
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self, path: str):
        response = self.page.goto(f"{self.base}/{path}", wait_until="load")
        assert response is not None and response.status == 200, f"{path}: HTTP {response and response.status}"
        self.page.wait_for_function(
            "Array.from(document.querySelectorAll('.perfwh-chart')).every(e => e.hasAttribute('data-rendered'))",
            timeout=30_000)
        self.wait_for_requests()
        return response

    def charts(self) -> list[dict]:
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('.perfwh-chart')).map(el => {
            const svg = el.querySelector('svg');
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {name: el.dataset.chart, state: el.getAttribute('data-rendered'),
                    width: box.width, height: box.height,
                    marks: svg ? svg.querySelectorAll('.role-mark > *').length : 0};
        })""")

    def layout_problems(self) -> list[str]:
        """The page body wider than the window; a chart reaching outside its container."""
        return self.page.evaluate("""() => {
            const problems = [];
            const root = document.documentElement;
            if (root.scrollWidth > root.clientWidth + 1) {
                problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
            }
            for (const el of document.querySelectorAll('.perfwh-chart')) {
                const svg = el.querySelector('svg');
                if (!svg) { continue; }
                const box = el.getBoundingClientRect(), chart = svg.getBoundingClientRect();
                if (chart.left < box.left - 1 || chart.right > box.right + 1) {
                    problems.push(`chart ${el.dataset.chart}: ${Math.round(chart.width)} px in a ${Math.round(box.width)} px container`);
                }
            }
            return problems;
        }""")

    def settle(self):
        """Wait until an input's change has been drawn: two frames and a little more."""
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame("
                           "() => setTimeout(r, 60))))")

    def chart_parts_outside(self) -> tuple[list[str], int]:
        """Legends, axis titles and chart titles that reach outside their chart's box (the
        container clips them, and so does the SVG) or under what follows it: (problems, parts
        measured)."""
        return tuple(self.page.evaluate("""() => {
            const problems = []; let measured = 0;
            for (const el of document.querySelectorAll('.perfwh-chart')) {
                const svg = el.querySelector('svg');
                if (!svg) { continue; }
                const box = el.getBoundingClientRect(), area = svg.getBoundingClientRect();
                const next = el.closest('figure') && el.closest('figure').querySelector('figcaption');
                const below = next ? next.getBoundingClientRect().top : Infinity;
                const parts = svg.querySelectorAll('g.role-legend, g.role-axis-title, g.role-title');
                for (const part of parts) {
                    const r = part.getBoundingClientRect();
                    if (r.width === 0 && r.height === 0) { continue; }
                    measured += 1;
                    const inside = (o) => r.left >= o.left - 1 && r.right <= o.right + 1
                                          && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
                    if (!inside(box) || !inside(area) || r.bottom > below + 1) {
                        const what = part.classList.contains('role-legend') ? 'legend' : 'title';
                        problems.push(`chart ${el.dataset.chart}: ${what} "${part.textContent.slice(0, 40)}" at `
                            + `${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.top)}-${Math.round(r.bottom)}`
                            + ` outside its box ${Math.round(box.left)}-${Math.round(box.right)} x `
                            + `${Math.round(box.top)}-${Math.round(Math.min(box.bottom, area.bottom, below))}`);
                    }
                }
            }
            return [problems, measured];
        }"""))

    def crowded_texts(self, chart: str, gap_px: float = 2.0) -> tuple[list[str], int]:
        """Texts drawn in a chart (axis labels, numbers written in its marks; not its legend)
        that overlap another or come closer to it than ``gap_px`` (closer, '39' '39' reads as
        3939): (problems, texts measured). A text Vega hid (opacity 0) is not drawn."""
        return tuple(self.page.evaluate("""([chart, gap]) => {
            const problems = [];
            const el = document.querySelector(`.perfwh-chart[data-chart="${chart}"]`);
            const svg = el && el.querySelector('svg');
            if (!svg) { return [[`chart ${chart} is not drawn`], 0]; }
            const shown = (t) => {
                for (let e = t; e && e !== svg; e = e.parentElement) {
                    if (parseFloat(e.getAttribute('opacity') ?? '1') === 0
                        || parseFloat(e.getAttribute('fill-opacity') ?? '1') === 0) { return false; }
                }
                return t.textContent.trim() !== '' && !t.closest('g.role-legend');
            };
            const texts = Array.from(svg.querySelectorAll('text')).filter(shown)
                .map(t => ({text: t.textContent, r: t.getBoundingClientRect()})).filter(t => t.r.width > 0);
            for (let i = 0; i < texts.length; i++) {
                for (let j = i + 1; j < texts.length; j++) {
                    const a = texts[i].r, b = texts[j].r;
                    if (a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap) {
                        problems.push(`"${texts[i].text}" at ${Math.round(a.left)}-${Math.round(a.right)} and `
                                      + `"${texts[j].text}" at ${Math.round(b.left)}-${Math.round(b.right)}`);
                    }
                }
            }
            return [problems, texts.length];
        }""", [chart, gap_px]))

    def cut_tables(self) -> list[str]:
        """Tables wider than the box that clips them, without a visible way to see the rest:
        a scrollbar that takes room, or a hint shown beside the box (overlay scrollbars - a
        phone's, macOS's, headless Chromium's - show nothing until one scrolls)."""
        return self.page.evaluate("""() => {
            const problems = [];
            const visible = (e) => e && !e.hidden && e.getClientRects().length > 0
                                   && getComputedStyle(e).visibility !== 'hidden';
            for (const t of document.querySelectorAll('table')) {
                if (!visible(t)) { continue; }
                let clip = t.parentElement;
                while (clip && clip !== document.body && getComputedStyle(clip).overflowX === 'visible') {
                    clip = clip.parentElement;
                }
                if (!clip || clip === document.body || clip.scrollWidth <= clip.clientWidth + 1) { continue; }
                const style = getComputedStyle(clip);
                const scrolls = ['auto', 'scroll'].includes(style.overflowX);
                const bar = clip.offsetHeight - clip.clientHeight - parseFloat(style.borderTopWidth)
                            - parseFloat(style.borderBottomWidth) > 0;
                const hint = [clip.previousElementSibling, clip.querySelector('.scroll-hint')]
                    .some(e => e && e.classList.contains('scroll-hint') && visible(e));
                if (!scrolls || !(bar || hint)) {
                    const name = (t.caption && t.caption.textContent) || (t.querySelector('th') || t).textContent;
                    problems.push(`table "${name.trim().slice(0, 50)}": ${clip.scrollWidth} px in a `
                                  + `${clip.clientWidth} px box, ${scrolls ? 'no visible scroll affordance' : 'cut'}`);
                }
            }
            return problems;
        }""")

    def broken_names(self) -> list[str]:
        """File names, links and code in tables that wrap inside a word ('ace11-vs-iib10-' on
        one line, 'docker-2019.txt' on the next)."""
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('table a, table code'))
            .filter(e => /^\\S{4,}$/.test(e.textContent.trim()) && e.getClientRects().length > 1)
            .map(e => `${e.textContent.trim()} on ${e.getClientRects().length} lines`)""")

    def development_paths(self, paths: list[str]) -> list[str]:
        """Places in the page's text or its link targets that name a folder of the machine the
        site was built on (a reader cannot go there)."""
        return self.page.evaluate("""(paths) => {
            const places = [document.body.innerText].concat(Array.from(
                document.querySelectorAll('[href], [src]'), e => e.getAttribute('href') || e.getAttribute('src')));
            const found = [];
            for (const text of places) {
                for (const p of paths) {
                    const at = text.indexOf(p);
                    if (at !== -1) { found.push(text.slice(Math.max(0, at - 40), at + p.length + 20)); }
                }
            }
            return found;
        }""", paths)

    def check_menus(self, path: str) -> int:
        """Every drop-down menu of the navbar is hidden until its toggle is clicked, shown after,
        and hidden again by Escape. Returns how many were checked."""
        toggles = self.page.locator(".dropdown-toggle")
        checked = 0
        for i in range(toggles.count()):
            toggle = toggles.nth(i)
            if not toggle.is_visible():
                continue
            menu = self.page.locator(f"#{toggle.get_attribute('aria-controls')}")
            assert menu.count() == 1 and menu.get_attribute("class").split().count("dropdown-menu") == 1, path
            assert not menu.is_visible(), f"{path}: a drop-down menu is open before any click"
            toggle.click()
            assert menu.is_visible(), f"{path}: the drop-down menu did not open on a click"
            assert menu.locator("a").first.is_visible()
            self.page.keyboard.press("Escape")
            assert not menu.is_visible(), f"{path}: Escape did not close the drop-down menu"
            checked += 1
        return checked

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def site(built_warehouse, tmp_path_factory):
    result, _, _ = build_test_site(tmp_path_factory, built_warehouse)
    return result


@pytest.fixture(scope="module")
def hostile_site(built_warehouse, tmp_path_factory):
    result, _, _ = build_test_site(tmp_path_factory, built_warehouse, scenario_name=HOSTILE)
    return result


def development_paths(out: Path) -> list[str]:
    """Folders of the machine the site was built on: the project, the output folder, the
    shared folder the raw reports were copied from, and the usual roots of such paths."""
    return sorted({str(PROJECT_ROOT), str(out), "../shared", "shared/raw-reports", "/work/", "/tmp/", "/home/",
                   "/root/"})


def _page_paths(result) -> list[str]:
    """The pages this build rendered (the project's site/ holds the pages of whichever build
    ran last: another test may have built a site from another warehouse since)."""
    return [p.relative_to(result.out).as_posix() for p in result.pages]


def _data_docs_paths(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in (out / DATA_DOCS).rglob("*.html"))


@pytest.mark.parametrize("device", WIDTHS)
def test_every_page_loads_draws_its_charts_fits_and_stays_local(site, browser, serve, artifacts, device):
    base = serve(site.out)
    visit = Visit(browser, base, WIDTHS[device])
    drawn = menus = 0
    try:
        visit.open("")  # the root index sends the reader to the first page
        assert visit.page.url.endswith("/site/index.html")
        for path in _page_paths(site):
            visit.open(path)
            assert visit.page.locator("h1.title").count() == 1, path
            assert visit.page.locator("header.pw-navbar a").count() >= 10, path
            for c in visit.charts():
                assert c["state"] == "true", f"{path}: chart {c['name']} did not draw"
                assert c["width"] > 50 and c["height"] > 50, f"{path}: chart {c['name']} is empty: {c}"
                assert c["marks"] > 0, f"{path}: chart {c['name']} has no marks"
                drawn += 1
            assert visit.layout_problems() == [], path
            assert visit.chart_parts_outside()[0] == [], path
            assert visit.cut_tables() == [], path
            assert visit.broken_names() == [], path
            assert visit.development_paths(development_paths(site.out)) == [], path
            menus += visit.check_menus(path)
            name = Path(path).stem
            if name in MAIN_PAGES:
                screenshot(visit.page, artifacts, f"site-{name}-{device}", full_page=name != "report-iib10")
        docs = _data_docs_paths(site.out)
        assert f"{DATA_DOCS}/index.html" in docs and len(docs) >= 3, "the Data Docs are published with the site"
        visit.open("site/quality.html")
        visit.page.get_by_role("link", name="Data Docs").first.click()
        visit.page.wait_for_load_state("load")
        assert visit.page.url.endswith(f"/{DATA_DOCS}/index.html")
        for path in docs:
            visit.open(path)
            assert visit.page.locator("table tbody tr").count() > 0, f"{path}: its tables are empty"
            assert visit.layout_problems() == [], path
            assert visit.development_paths(development_paths(site.out)) == [], path
            back = visit.page.get_by_role("link", name="Back to the site")
            assert back.count() == 1 and back.is_visible(), f"{path}: no way back to the site"
        screenshot(visit.page, artifacts, f"site-data-docs-{device}", full_page=False)
        visit.page.get_by_role("link", name="Back to the site").click()
        visit.page.wait_for_load_state("load")
        assert visit.page.url.endswith("/site/quality.html")
        assert not visit.errors, visit.errors
        assert serve.failed[base] == [], "requests answered with an error (a line in the console each)"
        assert not visit.blocked, f"requests that would leave 127.0.0.1: {visit.blocked}"
        assert all(urlsplit(u).netloc == visit.host for u in visit.requests if u.startswith("http"))
        assert any(u.endswith("/site/assets/vendor/vega-bundle.js") for u in visit.requests)
        assert not visit.dialogs
    finally:
        visit.close()
    assert drawn >= 7  # coverage, two comparisons, explorer, model accuracy, sizing, findings
    assert menus >= len(_page_paths(site))  # the Reports menu of every page


# What Quarto's HTML post-processing and Bootstrap do to the pages, applied to the fallback's:
# a <figure> gets Bootstrap's class .figure (an inline block), a table its class .table, whose
# links Bootstrap lets break anywhere (`.table a { word-break: break-word }`), and a page with
# a table of contents keeps a column of about 805 px at 1400 px. Charts must still fill their
# containers, no table may be cut without a visible scroll affordance, and no file name may
# break inside.
BOOTSTRAP = ("<style>.figure { display: inline-block; } .table a { word-break: break-word; } "
             "#content { max-width: 805px; }</style>")


def _as_quarto_styles_them(html: str) -> str:
    return (html.replace('<figure class="chart-figure"', '<figure class="chart-figure figure"')
                .replace('<table class="data', '<table class="table data')
                .replace("</head>", BOOTSTRAP + "</head>", 1))


@pytest.mark.parametrize("device", WIDTHS)
def test_charts_and_tables_fit_under_quartos_styles(site, browser, serve, device):
    visit = Visit(browser, serve(site.out), WIDTHS[device], rewrite=_as_quarto_styles_them)
    measured = 0
    try:
        for path in _page_paths(site):
            visit.open(path)
            assert visit.layout_problems() == [], path
            assert visit.cut_tables() == [], path
            assert visit.broken_names() == [], path
            for fill in visit.page.evaluate("""() => Array.from(document.querySelectorAll('figure.figure'))
                    .map(f => [f.getBoundingClientRect().width, f.parentElement.getBoundingClientRect().width])"""):
                assert fill[0] >= fill[1] - 1, f"{path}: a chart's figure is {fill[0]} px in {fill[1]} px"
                measured += 1
    finally:
        visit.close()
    assert measured >= 7


@pytest.mark.parametrize("device", WIDTHS)
def test_the_coverage_charts_labels_and_counts_stand_apart(site, browser, serve, device):
    """The coverage heatmap on the overview: its size and report labels and the counts written
    in its cells are each readable on their own at both widths (on a phone a cell is narrower
    than a three-digit count: the count is left to the cell's tooltip there)."""
    visit = Visit(browser, serve(site.out), WIDTHS[device])
    try:
        visit.open("site/index.html")
        problems, measured = visit.crowded_texts("coverage")
        labels = visit.page.evaluate("""() => document.querySelectorAll(
            '.perfwh-chart[data-chart="coverage"] svg g.role-axis-label text').length""")
    finally:
        visit.close()
    assert problems == []
    assert labels >= 2 and measured > labels  # axis labels and at least one count were measured


# The scenario labels of the Compare page's charts (their y axes): each label's drawn text (an
# SVG title, if any, left out), its title, whether the pointer reaches it at its middle, and
# its left and right edges beside its chart's box.
SCENARIO_LABELS = """() => Array.from(document.querySelectorAll('.perfwh-chart')).flatMap(el => {
    return Array.from(el.querySelectorAll('svg g.role-axis[aria-label^="Y-axis"] g.role-axis-label text'))
        .map(t => {
            t.scrollIntoView({block: 'center'});  // the pointer reaches into the window only
            const r = t.getBoundingClientRect(), box = el.getBoundingClientRect();
            const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            const title = t.querySelector('title');
            return {chart: el.dataset.chart, shown: Array.from(t.childNodes).filter(n => n.nodeType === 3)
                        .map(n => n.nodeValue).join(''),
                    title: title ? title.textContent : null, hoverable: hit === t,
                    left: r.left, right: r.right, box: [box.left, box.right]};
        });
})"""


@pytest.mark.parametrize("width", [WIDTHS["desktop"], LAPTOP, WIDTHS["phone"]])
def test_compare_charts_show_scenario_names_whole_where_there_is_room(site, browser, serve, wh, width):
    """The Compare page's ratio charts: at 1400 and 1280 px every scenario label shows its whole
    name (Vega cut them at 180 px: 'HTTP XMLNSC Mapper Transform...'); on a phone a label may
    be cut to leave the points room, and then keeps its whole name as a title the pointer
    reaches. At every width each label lies inside its chart's box and the charts fit theirs."""
    scenarios = {s for (s,) in wh.sql("SELECT DISTINCT scenario FROM measurements").fetchall()}
    visit = Visit(browser, serve(site.out), width)
    try:
        visit.open("site/compare.html")
        labels = visit.page.evaluate(SCENARIO_LABELS)
        layout = visit.layout_problems()
    finally:
        visit.close()
    assert len({lb["chart"] for lb in labels}) >= 4 and len(labels) >= 16  # two comparisons, rate and cost
    assert layout == []
    outside = [lb for lb in labels if lb["left"] < lb["box"][0] - 1 or lb["right"] > lb["box"][1] + 1]
    assert outside == []
    cut = [lb for lb in labels if lb["shown"].endswith("\u2026")]
    if width != WIDTHS["phone"]:
        assert cut == [], [lb["shown"] for lb in cut]
        assert {lb["shown"] for lb in labels} <= scenarios
        assert max(len(lb["shown"]) for lb in labels) > 30  # names longer than 180 px did show whole
    named = [lb for lb in cut if lb["title"] in scenarios and lb["title"].startswith(lb["shown"][:-1])
             and lb["hoverable"]]
    assert named == cut, [(lb["shown"], lb["title"], lb["hoverable"]) for lb in cut if lb not in named]
    assert {lb["title"] or lb["shown"] for lb in labels} <= scenarios


def _captions_outside_their_box(page) -> tuple[list[str], int]:
    """Captions of tables and charts inside a horizontal scroll box whose box reaches outside
    the box's visible width (a caption as wide as its table is cut off and scrolls away with
    it): (problems, captions measured)."""
    return tuple(page.evaluate("""() => {
        const problems = []; let measured = 0;
        for (const c of document.querySelectorAll('caption, figcaption')) {
            let box = c.parentElement;
            while (box && box !== document.body && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) {
                box = box.parentElement;
            }
            if (!box || box === document.body) { continue; }
            measured += 1;
            const r = c.getBoundingClientRect(), b = box.getBoundingClientRect();
            const left = b.left + box.clientLeft, right = left + box.clientWidth;
            if (r.left < left - 1 || r.right > right + 1) {
                problems.push(`"${c.textContent.slice(0, 40)}" at ${Math.round(r.left)}-${Math.round(r.right)} in a box `
                              + `showing ${Math.round(left)}-${Math.round(right)} (scrolled ${box.scrollLeft} px)`);
            }
        }
        return [problems, measured];
    }"""))


@pytest.mark.parametrize("width", [LAPTOP, WIDTHS["phone"]])
def test_captions_wrap_inside_their_scroll_box(site, browser, serve, width):
    """The models page's wide tables scroll inside their box: each caption wraps to the box's
    visible width, at rest and scrolled to the far end, instead of running as wide as its
    table."""
    visit = Visit(browser, serve(site.out), width)
    try:
        visit.open("site/models.html")
        at_rest, measured = _captions_outside_their_box(visit.page)
        scrolled = visit.page.evaluate("""() => Array.from(document.querySelectorAll('.table-wrap'))
            .filter(b => b.querySelector('caption') && b.scrollWidth > b.clientWidth + 1)
            .map(b => { b.scrollLeft = b.scrollWidth; return b.scrollLeft; })""")
        at_end, _ = _captions_outside_their_box(visit.page)
    finally:
        visit.close()
    assert measured >= 2 and scrolled and all(s > 0 for s in scrolled)  # both tables' captions, boxes that scroll
    assert at_rest == [] and at_end == []


# For every results table wider than its box: (1) at rest, the numeric cells that lie under a
# sticky cell of their row; (2) scrolled to its far end, the cells that slid under a sticky cell
# and show through it (the point at the middle of the overlap is not the sticky cell's), and
# sticky cells whose background is not opaque; (3) how many cells were found covered.
STICKY_PROBLEMS = """() => {
    const sticky = (c) => getComputedStyle(c).position === 'sticky';
    const across = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const opaque = (c) => { const m = getComputedStyle(c).backgroundColor.match(/[\\d.]+/g);
                            return m && (m.length < 4 || parseFloat(m[3]) === 1); };
    const hidden = [], showing = [], clear = []; let covered = 0, tables = 0;
    for (const box of document.querySelectorAll('.table-wrap')) {
        const table = box.querySelector('table.results');
        if (!table || box.scrollWidth <= box.clientWidth + 1) { continue; }
        tables += 1;
        const name = (table.querySelector('thead tr:last-child').textContent || '').slice(0, 40);
        box.scrollLeft = 0;
        for (const row of table.rows) {
            for (const s of Array.from(row.cells).filter(sticky)) {
                for (const n of row.querySelectorAll('td.num')) {
                    if (n !== s && across(s.getBoundingClientRect(), n.getBoundingClientRect()) > 1) {
                        hidden.push(`${name}: "${n.textContent}" under "${s.textContent.slice(0, 30)}" at rest`);
                    }
                }
            }
        }
        box.scrollIntoView({block: 'center'});
        box.scrollLeft = box.scrollWidth;
        for (const row of table.rows) {
            for (const s of Array.from(row.cells).filter(sticky)) {
                if (!opaque(s)) { clear.push(`${name}: "${s.textContent.slice(0, 30)}"`); }
                const a = s.getBoundingClientRect();
                if (a.bottom < 0 || a.top > innerHeight) { continue; }
                for (const c of row.cells) {
                    const b = c.getBoundingClientRect();
                    if (c === s || sticky(c) || across(a, b) <= 2) { continue; }
                    covered += 1;
                    const x = (Math.max(a.left, b.left) + Math.min(a.right, b.right)) / 2;
                    const top = document.elementFromPoint(x, (b.top + b.bottom) / 2);
                    if (!top || top.closest('td, th') !== s) {
                        showing.push(`${name}: "${c.textContent.slice(0, 20)}" over "${s.textContent.slice(0, 30)}"`);
                    }
                }
            }
        }
        box.scrollLeft = 0;
    }
    return {tables, covered, hidden, showing, clear};
}"""


def test_the_sticky_column_hides_no_number_at_rest_and_covers_what_scrolls_under_it(site, browser, serve):
    """At 1280 px the widest results tables of the report pages scroll inside their box: no
    number lies under a sticky column before the reader scrolls, and once scrolled the cells
    that slide under the sticky (label) column are covered by it - an opaque cell on top -,
    not drawn through it."""
    visit = Visit(browser, serve(site.out), LAPTOP)
    found = {"tables": 0, "covered": 0, "hidden": [], "showing": [], "clear": []}
    try:
        for path in _page_paths(site):
            if "/report-" not in path:
                continue
            visit.open(path)
            for key, value in visit.page.evaluate(STICKY_PROBLEMS).items():
                found[key] += value if isinstance(value, int) else [f"{path}: {v}" for v in value]
    finally:
        visit.close()
    assert found["tables"] >= 3 and found["covered"] > 0, found  # tables that scroll, cells that slid under
    assert found["hidden"] == [], found["hidden"][:5]
    assert found["showing"] == [], found["showing"][:5]
    assert found["clear"] == [], found["clear"][:5]


def _tooltip(page) -> dict[str, str]:
    """The rows of the chart tooltip showing (vega-tooltip's key/value table); empty when the
    point hovered lies under another mark and no tooltip opened for it."""
    tooltip = page.locator("#vg-tooltip-element")
    try:
        tooltip.wait_for(state="visible", timeout=1_500)
    except Exception:  # noqa: BLE001 - playwright's TimeoutError: nothing to read
        return {}
    return dict(zip(tooltip.locator("td.key").all_inner_texts(), tooltip.locator("td.value").all_inner_texts()))


def _printed_at(wh, where: str) -> set[str]:
    """Every printed string on the report lines a tooltip names: 'file:12' or 'file:12 / 14'."""
    source, _, lines = where.rpartition(":")
    numbers = [int(n) for n in lines.split("/")]
    return {p for (p,) in wh.sql("SELECT printed_value FROM metric_values WHERE source = ? AND source_line IN "
                                 f"({', '.join('?' * len(numbers))})", params=[source, *numbers]).fetchall()}


def test_tooltips_show_report_numbers_as_printed(site, browser, serve, wh):
    """Hover points of every chart that shows report numbers: each value labelled '(printed)'
    is a string printed on the report line the tooltip names, never a rounded number."""
    visit = Visit(browser, serve(site.out))
    checked = 0
    try:
        for path in ("site/explorer.html", "site/compare.html", "site/generations.html", "site/models.html"):
            visit.open(path)
            for chart in visit.page.locator(".perfwh-chart").all():
                points = chart.locator("svg .mark-symbol.role-mark path")
                n = points.count()
                for i in sorted({round(k * (n - 1) / 9) for k in range(10)} if n else ()):
                    points.nth(i).hover(force=True)
                    rows = _tooltip(visit.page)
                    where = rows.get("source line") or rows.get("lines")
                    printed = {k: v for k, v in rows.items() if k.endswith("(printed)") and v.strip()}
                    if not printed:
                        continue
                    assert where, f"{path}: a tooltip with printed numbers names no source line: {rows}"
                    allowed = _printed_at(wh, where)
                    for key, value in printed.items():
                        assert value in allowed, f"{path}: {key} = {value!r}, printed on {where}: {sorted(allowed)}"
                        checked += 1
        assert not visit.errors, visit.errors
    finally:
        visit.close()
    assert checked >= 30


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
        # it opens on one scenario (readable), not on every series at once
        opening = visit.charts()[0]["marks"]
        assert selects.nth(2).input_value() != "__all__" and opening > 0
        before = svg.inner_html()
        selects.nth(2).select_option(label="All")
        page.wait_for_function("(before) => document.querySelector('.perfwh-chart svg').innerHTML !== before", arg=before)
        marks_before = visit.charts()[0]["marks"]
        assert marks_before > opening
        assert visit.layout_problems() == []
        before = svg.inner_html()
        product = selects.nth(0)
        options = product.locator("option").all_inner_texts()
        assert options[0] == "All" and "IIB 10.0.0.2" in options
        product.select_option(label="IIB 10.0.0.2")
        page.wait_for_function("(before) => document.querySelector('.perfwh-chart svg').innerHTML !== before", arg=before)
        marks_after = visit.charts()[0]["marks"]
        assert 0 < marks_after < marks_before
        screenshot(page, artifacts, "site-explorer-filtered")
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


@pytest.mark.parametrize("device", WIDTHS)
def test_explorer_legends_and_axis_titles_stay_in_the_chart_after_every_filter_change(
        site, browser, serve, artifacts, device):
    """Every option of every drop-down, one at a time from the opening view: the legend (which
    grows with the series shown) and every axis title stay inside the chart's box, above its
    caption - on a phone too, where the panels stack."""
    visit = Visit(browser, serve(site.out), WIDTHS[device])
    try:
        visit.open("site/explorer.html")
        page = visit.page
        problems, measured = visit.chart_parts_outside()
        assert problems == [] and measured >= 5  # two panels' axis titles and the legend
        selects = page.locator(".perfwh-chart .vega-bindings select")
        labels = [t.strip() for t in page.locator(".perfwh-chart .vega-bindings .vega-bind-name").all_inner_texts()]
        changes = 0
        for i, label in enumerate(labels):
            select = selects.nth(i)
            opening = select.input_value()
            for value in select.locator("option").evaluate_all("options => options.map(o => o.value)"):
                select.select_option(value=value)
                visit.settle()
                problems, measured = visit.chart_parts_outside()
                assert problems == [], f"{device}, {label} = {value}: {problems}"
                assert visit.layout_problems() == [], f"{device}, {label} = {value}"
                changes += 1
            select.select_option(value=opening)
            visit.settle()
        page.locator(".perfwh-chart .vega-bindings select").nth(2).select_option(label="HTTP XMLNSC ESQL Transformation")
        visit.settle()
        screenshot(page, artifacts, f"site-explorer-legend-{device}")
        assert changes >= 30
        assert not visit.errors, visit.errors
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
        shown, report_pages = 0, []
        for path in _page_paths(hostile_site):
            visit.open(path)
            text = visit.page.evaluate("() => document.body.innerText")
            shown += text.count(HOSTILE)
            if HOSTILE in text and "/report-" in path:
                report_pages.append(path)  # the report whose scenario was renamed
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
        assert report_pages, "the name shows on the page of its report"
        visit.open(report_pages[0])
        cell = visit.page.get_by_text(HOSTILE, exact=True).first
        cell.scroll_into_view_if_needed()
        screenshot(visit.page, artifacts, "site-hostile-name", full_page=False)
        assert not visit.dialogs, visit.dialogs
        assert not visit.errors, visit.errors
        assert not visit.blocked
    finally:
        visit.close()


def test_search_finds_pages_headings_reports_scenarios_numbers_and_text_offline(site, browser, serve):
    """The fallback's search box: an index served with the site (no CDN), matching page
    titles, section headings, report titles, scenario names and the pages' text, numbers
    included (as Quarto's search does); a result opens its page."""
    visit = Visit(browser, serve(site.out))
    try:
        visit.open("site/index.html")
        box = visit.page.locator("#pw-search-input")
        results = visit.page.locator(".pw-search-results")
        for words, kind, page in (("sizing", "page", "models.html"),
                                  ("every finding", "section of", "quality.html#"),
                                  ("MessageSight", "report", "report-messagesight.html"),
                                  ("soap echo", "scenario", "report-ace11.html")):
            box.fill(words)
            results.wait_for(state="visible")
            hits = results.locator("a")
            assert hits.count() > 0, words
            texts = hits.all_inner_texts()
            hrefs = [hits.nth(i).get_attribute("href") for i in range(hits.count())]
            assert any(kind in t and page in h for t, h in zip(texts, hrefs)), (words, list(zip(texts, hrefs)))
        # numbers and words of the pages' text, as Quarto's search finds them: a number as
        # printed in a table (and on its report line), a phrase of a report's platform
        for words, page in (("1362.3", "report-iib10.html"), ("1523", "report-messagesight.html"),
                            ("230K", "report-messagesight.html"), ("HyperThreading turned off", "report-iib10.html"),
                            ("RS64-III", "report-wbimb.html")):
            box.fill(words)
            results.wait_for(state="visible")
            hits = results.locator("a")
            hrefs = [hits.nth(i).get_attribute("href") for i in range(hits.count())]
            assert any(page in h for h in hrefs), (words, hrefs)
            # the hit shows where the words stand in the text
            assert any(words.lower() in t.lower() for t in hits.all_inner_texts()), (words, hits.all_inner_texts())
        box.fill("no such thing anywhere")
        assert "no match" in results.inner_text()
        box.fill("sizing")
        results.locator("a").first.click()
        visit.page.wait_for_load_state("load")
        assert visit.page.url.split("#")[0].endswith("/site/models.html")
        assert any(u.endswith("/site/search-index.js") for u in visit.requests)
        assert not visit.errors and not visit.blocked
    finally:
        visit.close()
