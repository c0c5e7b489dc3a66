"""The website: _quarto.yml as the one definition, the fallback renderer, safe HTML, the pages'
content against the warehouse, downloads, and the choice between quarto and the fallback.
The browser checks are in test_site_browser.py."""
from __future__ import annotations

import json
import os
import re
import stat
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest

from perfwh.core.paths import DB_ENV, PROJECT_ROOT
from perfwh.publish.pages import common, compare, cookbook, downloads, explorer, overview, quality, report
from perfwh.publish.pages import models as models_page
from perfwh.publish.site.build import SiteError, build_site
from perfwh.publish.site.config import load_config
from perfwh.publish.html import Html, anchor_id, chart, esc, json_for_script, table, tag
from perfwh.publish.site.fallback import parse_qmd
from support.site import build_test_site

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="session")
def site(built_warehouse, tmp_path_factory):
    """The whole site, built once from a fresh warehouse (see perfwh.site_testing)."""
    return build_test_site(tmp_path_factory, built_warehouse)


@pytest.fixture
def pages_db(built_warehouse, monkeypatch):
    """The page modules reading the session warehouse."""
    monkeypatch.setenv(DB_ENV, str(built_warehouse))
    common.reset()
    yield built_warehouse
    common.reset()


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str, str]] = []   # (tag, attribute, value)
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag_, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append((tag_, name, value))
            if name == "id" and value:
                self.ids.add(value)
        self._in_script = tag_ == "script"

    def handle_endtag(self, tag_):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def _parse(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


class _Tables(HTMLParser):
    """The tables of a page as their classes, headers and rows of cell texts (tags dropped)."""

    def __init__(self):
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag_, attrs):
        if tag_ == "table":
            self.tables.append({"class": dict(attrs).get("class", ""), "columns": [], "rows": []})
        elif tag_ == "tr" and self.tables:
            self._row = []
        elif tag_ in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag_):
        if tag_ in ("td", "th") and self._cell is not None:
            self._row.append(("th:" if tag_ == "th" else "") + "".join(self._cell).strip())
            self._cell = None
        elif tag_ == "tr" and self._row is not None:
            if self._row and all(c.startswith("th:") for c in self._row):
                self.tables[-1]["columns"] = [c[3:] for c in self._row]
            else:
                self.tables[-1]["rows"].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _tables(html: str, class_: str) -> list[dict]:
    p = _Tables()
    p.feed(html)
    return [t for t in p.tables if class_ in t["class"].split()]


# -- _quarto.yml ---------------------------------------------------------------------------

def test_quarto_yml_defines_every_page_and_the_navigation(site, wh):
    """_quarto.yml as Quarto reads it after the pre-render step (which the site fixture ran):
    a page and a Reports menu entry per family of the warehouse, oldest report first."""
    config = load_config()
    names = [p.relative_to(PROJECT_ROOT).as_posix() for p in config.pages]
    assert names[0] == "site/index.qmd"
    families = [f for (f,) in wh.sql("SELECT family FROM dim_report GROUP BY family "
                                     "ORDER BY min(published_year), family").fetchall()]
    for required in ["index", *(f"report-{f}" for f in families), "compare", "generations", "explorer", "models",
                     "quality", "cookbook", "downloads"]:
        assert f"site/{required}.qmd" in names
    assert config.output_dir == PROJECT_ROOT / "site" / "_site"
    items = config.navbar + config.navbar_right
    hrefs = [i.href for i in items if i.href] + [s.href for i in items for s in i.menu]
    assert sorted(hrefs) == sorted(names), "every page is in the navbar, and the navbar only names pages"
    menu = next(i for i in config.navbar if i.menu)
    assert [Path(s.href).stem for s in menu.menu] == [f"report-{f}" for f in families]
    assert config.output_of(config.pages[0]) == config.output_dir / "site" / "index.html"
    assert config.kernel == "python3" and config.execute["echo"] is False


def test_page_cells_are_thin_calls_into_perfwh():
    for page in load_config().pages:
        parsed = parse_qmd(page)
        assert parsed.meta.get("title"), page
        code = [c for c in parsed.cells if c.kind == "code"]
        assert code and re.match(r"from perfwh\.publish\.pages import \w+", code[0].source), page
        # thin: one import of the page module, then calls into it; no logic of its own
        body = "\n".join([code[0].source.split("\n", 1)[1] if "\n" in code[0].source else ""]
                         + [c.source for c in code[1:]])
        assert not re.search(r"^\s*(def|class|import|from|for|while|if)\b", body, re.M), page


def test_parse_qmd_front_matter_cells_and_options(tmp_path):
    qmd = tmp_path / "p.qmd"
    qmd.write_text(textwrap.dedent("""\
        ---
        title: "T"
        toc: false
        ---

        Some *text*.

        ```{python}
        #| echo: true
        #| label: first
        x = 1
        ```

        ````{python}
        print("```")
        ````
        More.
        """), encoding="utf-8")
    page = parse_qmd(qmd)
    assert page.meta == {"title": "T", "toc": False}
    assert [c.kind for c in page.cells] == ["markdown", "code", "code", "markdown"]
    assert page.cells[1].options == {"echo": True, "label": "first"}
    assert page.cells[1].source == "x = 1" and page.cells[1].line == 8
    assert page.cells[2].source == 'print("```")'


@pytest.mark.parametrize("text, message", [
    ("---\ntitle: x\n", ":1: front matter is not closed"),
    ("---\ntitle: x\n---\n\n```{python}\nx = 1\n", ":5: code cell is not closed"),
    ("---\ntitle: x\n---\n```{r}\n1\n```\n", ":4: only python cells"),
    ("---\ntitle: x\n---\n\n\n```{python}\n#| just words\n1\n```\n", ":6: cell options (#|) must be"),
])
def test_parse_qmd_errors_name_file_and_line(tmp_path, text, message):
    qmd = tmp_path / "bad.qmd"
    qmd.write_text(text, encoding="utf-8")
    with pytest.raises(SiteError, match=re.escape(f"bad.qmd{message}")):
        parse_qmd(qmd)


# -- safe HTML -----------------------------------------------------------------------------

def test_json_in_a_script_element_cannot_end_it():
    nasty = {"a": "</script><script>alert(1)</script>", "b": "<!-- <script>", "c": "a & b > c", "d": "\u2028"}
    text = json_for_script(nasty)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == nasty
    html = chart({"data": {"values": [nasty]}, "mark": "point"}, "x")
    assert html.count("</script>") == 1 and "alert(1)</script>" not in html


def test_a_chart_is_validated_whole_but_its_data_by_its_first_rows():
    """The page's spec is Altair's validated spec, $schema aside; a chart Vega-Lite would
    reject fails the page with Altair's own message, however much data it holds."""
    import altair as alt

    rows = [{"size": i, "cost": i / 7, "label": f"<{i}>"} for i in range(5000)]
    good = alt.layer(alt.Chart(alt.Data(values=rows)).mark_line().encode(x="size:Q", y="cost:Q"),
                     alt.Chart(alt.Data(values=rows)).mark_text().encode(x="size:Q", text="label:N"))
    expected = good.to_dict()
    expected.pop("$schema")
    html = str(chart(good, "good"))
    spec = json.loads(re.search(r'class="perfwh-spec">(.*?)</script>', html).group(1))
    assert spec == expected and len(spec["layer"][0]["data"]["values"]) == 5000
    bad = alt.Chart(alt.Data(values=rows)).mark_point().encode(x="size:Q")
    bad.mark = "dots"  # set after construction, as only the whole spec's validation sees it
    with pytest.raises(alt.utils.schemapi.SchemaValidationError, match="'dots' is an invalid value"):
        chart(bad, "bad")


def test_tables_and_tags_escape_data_but_keep_fragments():
    out = table([HOSTILE, "b"], [[HOSTILE, tag("b", HOSTILE)], [1.5, None]])
    assert "<script>" not in out and out.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 3
    assert "<b>&lt;script&gt;" in out
    assert esc('"') == "&quot;" and esc(None) == ""
    with pytest.raises(ValueError, match="row 1 has 1 cells for 2 columns"):
        table(["a", "b"], [["x", "y"], ["z"]])
    assert isinstance(Html("<i>x</i>") + HOSTILE, Html) and "<script>" not in Html("<i>x</i>") + HOSTILE


# -- page content against the warehouse ----------------------------------------------------

def test_a_results_table_keeps_every_number_with_its_line(pages_db, wh):
    facts = [f for f in report._report_facts(
        wh.sql("SELECT report_id FROM dim_report WHERE family = 'ace11'").fetchall()[0][0])
        if f["table_id"] == wh.sql("SELECT min(table_id) FROM dim_source_table t JOIN dim_report r USING (report_id) "
                                   "WHERE r.family = 'ace11'").fetchall()[0][0]]
    html, constant = report.results_table(facts)
    # ACE and IIB side by side: product is a column group, so each line is one row
    assert "IIB 10.0.0.16" in html and "ACE 11.0.0.4" in html
    assert html.count("<tr") >= len({f["source_line"] for f in facts})
    for f in facts:
        assert f'>{esc(f["printed_value"])}</a>' in html
        assert f'href="#{common.src_anchor(f["source"], f["source_line"])}"' in html
    assert ("Scenario", facts[0]["scenario"]) in constant


def test_sql_example_shows_the_query_and_its_result(pages_db):
    html = cookbook.sql_example("SELECT 1 + 1 AS two, '<x>' AS text")
    assert "SELECT 1 + 1 AS two, &#x27;&lt;x&gt;&#x27; AS text" in html
    assert ">2</td>" in html and "&lt;x&gt;" in html and "1 row" in html


def test_the_cookbook_shows_numbers_as_duckdb_renders_them(pages_db):
    """A printed number stays as printed: 1362.3 and 1191.6, never '1,362' or '1,192'."""
    html = cookbook.sql_example("SELECT msg_rate, msg_rate_printed, message_size_bytes FROM measurements "
                                "WHERE msg_rate_printed IN ('1362.3', '1191.6') ORDER BY msg_rate")
    assert ">1191.6</td>" in html and ">1362.3</td>" in html and ">1384</td>" in html
    assert "1,362" not in html and "1,192" not in html


def test_the_overview_is_counted_from_the_warehouse_oldest_report_first(pages_db, wh):
    from support.expected import report_count, total_values

    years = [y for (y,) in wh.sql("SELECT published_year FROM dim_report ORDER BY published_year").fetchall()]
    intro = overview.intro()
    reports_in_words = common.number_words(report_count()).capitalize()
    assert f"{reports_in_words} IBM performance reports ({years[0]} to {years[-1]}), " \
           f"{total_values():,} numbers" in intro
    assert [r["year"] for r in common.reports()] == sorted(years)
    listed = re.findall(r'<a href="(report-[^"]+)\.html"', overview.reports_table())
    assert listed == [common.report_page_name(r["family"]) for r in common.reports()]


def test_machines_of_one_name_are_told_apart_and_submissions_listed_as_filed(built_warehouse, tmp_path,
                                                                            monkeypatch):
    """A lab's file of an 8-core and a 16-core "lab box" (and a row leaving its cores blank),
    filed after another submission: the overview lists the submissions in the order they were
    filed and each machine of the lab once, with its cores; the report page's rows and the
    explorer's name the machine they ran on, so that their rows do not read as repeats."""
    import subprocess
    import sys
    import shutil

    from perfwh.core.paths import RAW_DIR

    raw = tmp_path / "raw"
    shutil.copytree(RAW_DIR, raw)
    db = tmp_path / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    header = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
              "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")
    files = {"zz-first.csv": header + "ACE,12.0.1.0,bench,4,Echo,1024,false,,,,8000.0,80.0,0.400\n",
             "aa-second.csv": header + "".join(
                 f"ACE,12.0.12.0,lab box,{cores},Enrich,{kb * 1024},false,,,,{cores * 950 / cost:.1f},95.0,{cost:.3f}\n"
                 for cores in (8, 16) for kb, cost in ((1, 0.427), (10, 0.483), (100, 1.025)))
             + "ACE,12.0.12.0,lab box,,Enrich,1048576,false,,,,800.0,95.0,9.500\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "perfwh.cli", "add", str(tmp_path / name), "--db", str(db),
                               "--sources", str(raw / "sources.yml")], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    monkeypatch.setenv(DB_ENV, str(db))
    common.reset()
    try:
        sources = [r["source"] for r in common.reports()]
        assert sources[-2:] == ["zz-first.csv", "aa-second.csv"]
        listed = overview.reports_table()
        assert ("lab box (8 cores) (as submitted), lab box (16 cores) (as submitted), "
                "lab box (cores not given) (as submitted)") in listed
        assert "bench (as submitted)" in listed  # one machine of its name: no cores said
        rid = [r["report_id"] for r in common.reports() if r["source"] == "aa-second.csv"][0]
        platforms = {f["source_line"]: f["platform"] for f in report._report_facts(rid)}
        assert [platforms[line] for line in (2, 5, 8)] == ["lab box (8 cores)", "lab box (16 cores)",
                                                          "lab box (cores not given)"]
        rows = [r for r in explorer.data() if r["where"].startswith("aa-second.csv")]
        assert {r["platform"] for r in rows} == {"lab box (8 cores)", "lab box (16 cores)",
                                                 "lab box (cores not given)"}
    finally:
        common.reset()


def test_gitignore_holds_what_quarto_render_would_add():
    """`quarto render` appends /.quarto/ and **/*.quarto_ipynb to .gitignore when those exact
    lines are missing (quarto-cli src/project/project-gitignore.ts), and the pre-render step
    writes generated pages: all ignored, so a render leaves `git status` clean."""
    lines = [line.strip() for line in (PROJECT_ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()]
    for entry in ("/.quarto/", "**/*.quarto_ipynb", "site/report-*.qmd", "site/_reports.yml", "site/_site/"):
        assert entry in lines, entry


def test_the_sizing_chart_marks_the_series_perfwh_size_refuses(pages_db):
    """The chart draws what `perfwh size` answers: a series size refuses (error findings on its
    costs: ACE 13's JSON Parse on the Small T-shirt, the mislabelled rows 352-354) is marked so
    in the drop-down, and one it answers is not."""
    from models.sizing import SizeQuery, size

    html = models_page.sizing_chart()
    refused = size(common.con(), SizeQuery("JSON Parse", "2KB", 100.0, config="T-shirt Small", product="ACE"))
    answered = size(common.con(), SizeQuery("HTTP XMLNSC ESQL Transformation", "100KB", 1000.0,
                                            config="T-shirt Large", product="ACE", version="13"))
    assert refused["refused"] and not refused["candidates"] and refused.get("cores") is None
    assert answered["cores"] is not None and not answered["refused"]
    assert f"{refused['refused'][0]['series_label']}{models_page.REFUSED_MARK}" in html
    assert f"{answered['series_label']}{models_page.REFUSED_MARK}" not in html
    assert f"{answered['series_label']}" in html


def test_models_page_says_when_the_model_tables_are_absent(plain_warehouse, monkeypatch):
    db = plain_warehouse  # without rules, so without the models they fit
    monkeypatch.setenv(DB_ENV, str(db))
    common.reset()
    try:
        assert not common.has("model_predictions")
        assert "not built" in models_page.summary()
        assert "not built" in models_page.sizing_chart()
        assert "not built" in models_page.fits()
    finally:
        common.reset()


# -- the built site ------------------------------------------------------------------------

def test_fallback_renders_every_page_into_the_configured_layout(site):
    result, log, _ = site
    # the pages this build rendered: the project's site/ holds those of the last build
    config = load_config(output_dir=result.out)
    assert result.path == "fallback"
    assert "quarto is not on PATH" in log[0] and "Jupyter (nbclient) and pandoc" in log[0]
    assert {p.name for p in result.pages} >= {config.output_of(p).name for p in config.pages
                                             if not p.name.startswith("report-")}
    for out in result.pages:
        assert out.exists(), out
        html = out.read_text(encoding="utf-8")
        assert "<h1 class=\"title\">" in html and '<header class="pw-navbar">' in html
    assert (result.out / "index.html").read_text().count('url=site/index.html') == 1


def test_every_local_link_resolves_and_nothing_is_loaded_from_outside(site):
    result, _, _ = site
    pages = sorted((result.out / "site").glob("*.html"))
    ids = {p.resolve(): _parse(p).ids for p in pages}
    for page in pages:
        parsed = _parse(page)
        for tag_, attr, value in parsed.links:
            if attr == "src" or tag_ == "link":
                assert not re.match(r"^(https?:)?//", value), f"{page.name} loads {value}"
            if re.match(r"^[a-z]+:", value):
                continue
            path, _, fragment = value.partition("#")
            target = (page.parent / path).resolve() if path else page
            assert target.exists(), f"{page.name}: {value} does not exist"
            if fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = _parse(target).ids
                assert fragment in ids[target], f"{page.name}: {value}: no such id"
    for text in [p.read_text(encoding="utf-8") for p in pages] + [
            (result.out / "site/assets/site.css").read_text(), (result.out / "site/assets/site.js").read_text()]:
        for cdn in ("cdn.jsdelivr", "unpkg.com", "googleapis", "mathjax", "require.js", "@import"):
            assert cdn not in text.lower()


def test_out_holds_the_site_and_nothing_is_left_elsewhere(site):
    """`perfwh site --out DIR`: DIR holds the site and nothing else; nothing is left beside it
    (staging folders) or in the project (untracked files git does not ignore)."""
    import subprocess

    result, _, _ = site
    assert sorted(p.name for p in result.out.iterdir()) == [".perfwh-site", "index.html", "site"]
    pages = {p.name for p in result.pages}
    expected = pages | {"assets", "downloads", "data-docs", "search-index.js"}
    assert {p.name for p in (result.out / "site").iterdir()} == expected
    assert sorted(p.name for p in (result.out / "site" / "assets").iterdir()) == [
        "favicon.svg", "site.css", "site.js", "vendor"]
    # beside it only the writer lock (kept, like every lock file of perfwh's writers)
    assert [p.name for p in result.out.parent.iterdir() if p.name.startswith(".")] == [".perfwh.lock"]
    # the pre-render step's pages, the lock in site/: all ignored by git
    stray = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "site", "_quarto.yml"],
                           cwd=PROJECT_ROOT, capture_output=True, text=True).stdout.split()
    assert stray == []


def test_the_stylesheet_leaves_quartos_navbar_to_bootstrap():
    """Under Quarto the navbar is Bootstrap's (.navbar, .dropdown-menu): no rule of site.css that
    can match it may set display, position or visibility (a `.navbar ul { display: flex }` kept
    its drop-down open on every page). The fallback's navbar is .pw-navbar."""
    css = re.sub(r"/\*.*?\*/", "", (PROJECT_ROOT / "site/assets/site.css").read_text(encoding="utf-8"), flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        for selector in selectors.split(","):
            if ".pw-navbar" in selector or not re.search(r"\.(navbar|dropdown-menu|dropdown|nav-item)\b", selector):
                continue
            assert not re.search(r"\b(display|position|visibility)\s*:", body), selector.strip()


def test_chart_libraries_are_served_with_the_site(site):
    result, _, _ = site
    bundle = result.out / "site" / "assets" / "vendor" / "vega-bundle.js"
    text = bundle.read_text(encoding="utf-8")
    assert "window.vegaEmbed" in text and "window.vegaLite" in text and "window.vega=" in text
    assert "Vega 6" in text.splitlines()[0]


def test_every_number_of_a_report_is_on_its_page_linked_to_its_line(site, wh):
    result, _, _ = site
    for family, source, numbers in wh.sql(
            "SELECT r.family, r.source, count(*) FROM fact_metric_value f JOIN dim_report r USING (report_id) "
            "GROUP BY ALL").fetchall():
        page = result.out / "site" / f"report-{family}.html"
        parsed = _parse(page)
        stem = re.escape(Path(source).stem)
        number_links = [v for t, a, v in parsed.links if t == "a" and re.fullmatch(rf"#{stem}-L\d+", v)]
        # one link per number in the tables, plus the line links of the source text
        lines = len([i for i in parsed.ids if re.fullmatch(rf"{stem}-L\d+", i)])
        assert len(number_links) - lines == numbers, family


def test_iib10_typo_line_is_traceable(site):
    result, _, _ = site
    html = (result.out / "site" / "report-iib10.html").read_text(encoding="utf-8")
    assert 'href="#iib10-xlinux-L136"' in html and ">1362.3</a>" in html
    assert 'id="iib10-xlinux-L230"' in html  # the reader's comment, in the source text


def test_the_messagesight_page_shows_its_bold_values_as_a_reader_sees_them(site):
    """The score card prints msgs/W and msgs/s/U in bold (<b>1523</b>, line 438): the page
    shows 1523 and 230K, linked to their lines, and no markup of the report's text."""
    result, _, _ = site
    html = (result.out / "site" / "report-messagesight.html").read_text(encoding="utf-8")
    assert 'href="#messagesight1-2013-L438"' in html and ">1523</a>" in html
    assert 'href="#messagesight1-2013-L439"' in html and ">230K</a>" in html
    tables = html[:html.index('<pre class="source-text">')]  # the report's own text shows its tags
    assert "&lt;b&gt;" not in tables and "<b>" not in tables


def test_a_familys_menu_entry_names_every_product_and_platform_of_every_report_of_it(built_warehouse, wh):
    """The MQ Appliance family's entry named its first report's MQ 8 and three appliances only;
    its second report (another model, M2002, with MQ 9.1) is no revision of the first."""
    from perfwh.publish.site.generate import family_pages

    pages = family_pages(built_warehouse)
    for page in pages:
        if page["family"] == "submission":
            continue
        for source in page["sources"]:
            rid = wh.sql("SELECT report_id FROM dim_report WHERE source = ?", params=[source]).fetchall()[0][0]
            for (platform,) in wh.sql("SELECT platform FROM dim_platform WHERE report_id = ?", params=[rid]).fetchall():
                assert platform in page["menu"], (source, platform)
            for (product,) in wh.sql("SELECT DISTINCT p.product || ' ' || split_part(p.product_version, '.', 1) "
                                     "FROM fact_metric_value f JOIN dim_product p USING (product_id) "
                                     "WHERE f.report_id = ?", params=[rid]).fetchall():
                assert product in page["menu"], (source, product)
        assert "revisions" not in page["title"]


def test_the_cookbooks_scaling_sweeps_are_each_of_one_product_on_one_machine(wh):
    """The cookbook's "Scaling with concurrency" lists a sweep's rates by concurrency: each list
    is one product on one platform (ACE 11's lists mixed its Linux and Windows rates), each run
    once (WBIMB's runs printed in two tables made "sweeps" of concurrency [1, 1])."""
    text = (PROJECT_ROOT / "site" / "cookbook.qmd").read_text(encoding="utf-8")
    section = text.split("## Scaling with concurrency", 1)[1]
    sql = re.search(r'sql_example\("""(.*?)"""', section, re.S).group(1)
    result = wh.sql(sql)
    assert {"product", "platform", "server_cores"} <= set(result.columns)
    rows = result.fetchall()
    assert {row[0] for row in rows} >= {"ace11-vs-iib10-docker-2019.txt", "wbimb5-aix-2004.txt"}
    for row in rows:  # docker cores 1, 2, 4 once each: one sweep, not Linux's and Windows' together
        assert len(row[-2]) == len(set(row[-2])) > 1, row


def test_report_tables_keep_the_columns_in_the_order_the_report_prints_them(site):
    """In every results table of every report page, a row's numbers of one source line stand in
    the order that line prints them (IIB's Aggregation: rate, %CPU, cost non-persistent, then
    persistent; the columns were in the order of the facts' ids, which are hashes)."""
    import html as html_lib

    result, _, _ = site
    checked = 0
    for page in sorted((result.out / "site").glob("report-*.html")):
        text = page.read_text(encoding="utf-8")
        lines = {anchor: html_lib.unescape(re.sub(r"<[^>]+>", "", body)) for anchor, body in re.findall(
            r'<span id="([\w.-]+-L\d+)" class="src-line[^"]*"><a class="ln"[^>]*>\d+</a>(.*?)</span>', text, re.S)}
        for row in re.findall(r"<tr>(.*?)</tr>", text, re.S):
            cells = re.findall(r'<a href="#([\w.-]+-L\d+)" title="[^"]*">([^<]+)</a>', row)
            for anchor in {a for a, _v in cells}:
                printed = [html_lib.unescape(v) for a, v in cells if a == anchor]
                if len(printed) < 2 or anchor not in lines:
                    continue
                at = 0
                for value in printed:
                    found = lines[anchor].find(value, at)
                    assert found >= 0, (page.name, anchor, printed, lines[anchor])
                    at = found + len(value)
                checked += 1
    assert checked > 500


def test_a_column_header_names_no_unit_its_cells_print_otherwise(site):
    """ACE 11 prints its costs with their units, in μs and ms ("476.71 μs", "2 ms"): the cost
    column's header names no unit over them (it said "CPU per msg (ms)" over "476.71 μs");
    IIB 10's bare costs keep "(ms)" in their header."""
    result, _, _ = site
    pages = {name: (result.out / "site" / f"report-{name}.html").read_text(encoding="utf-8")
             for name in ("ace11", "iib10")}
    def headers(table: str) -> set[str]:
        return set(re.findall(r"<th[^>]*>([^<]*CPU per msg[^<]*)</th>", table))

    ace11 = [t for t in re.findall(r"<table.*?</table>", pages["ace11"], re.S) if "μs" in t]
    assert any("476.71 μs" in t for t in ace11)
    assert all(headers(t) == {"CPU per msg"} for t in ace11), [headers(t) for t in ace11]
    assert headers(pages["iib10"]) == {"CPU per msg (ms)"}


def test_the_models_page_shows_model_accuracy_as_kept_not_rounded_twice(site, wh):
    """model_accuracy keeps percentages to the hundredth: the page shows each as kept (ACE 11's
    99 % coverage 127 / 129 = 98.4496 % is 98.45 %; rounded again to a tenth it read 98.5 %)."""
    result, _, _ = site
    page = (result.out / "site" / "models.html").read_text(encoding="utf-8")
    rows = wh.sql("SELECT inside_90_pct, inside_99_pct, width_90_pct FROM model_accuracy "
                  "WHERE model = 'chosen'").fetchall()
    assert rows
    for row in rows:
        for value in row:
            assert value is None or f"{value:.2f} %" in page, value


def test_a_fitted_value_zero_at_its_intervals_precision_prints_as_0(site):
    """The fits table writes a parameter the fit drove to its bound of 0 as 0, never as
    1.817e-23 beside an upper limit of 0.04997: every number of a "value [low, high]" cell is
    either 0 or at least models.ZERO_SHARE of the cell's largest, and none is in scientific
    notation with a negative exponent."""
    result, _, db = site
    page = (result.out / "site" / "models.html").read_text(encoding="utf-8")
    [fits] = _tables(page, "fits")
    con = duckdb.connect(str(db), read_only=True)
    try:
        zeros = con.sql(f"""SELECT count(*) FROM model_fits WHERE fixed_ms <> 0 AND abs(fixed_ms)
                            < {models_page.ZERO_SHARE} * greatest(abs(fixed_ms), abs(fixed_ms_upper_95))""").fetchall()[0][0]
    finally:
        con.close()
    cells = [c for row in fits["rows"] for c in row if "[" in c]
    assert cells
    printed_zero = 0
    for text in cells:
        assert not re.search(r"\de-\d", text), text
        numbers = [float(n) for n in re.findall(r"-?[\d.]+(?:e[+-]?\d+)?", text)]
        scale = max(abs(n) for n in numbers)
        assert all(n == 0 or abs(n) >= models_page.ZERO_SHARE * scale for n in numbers), text
        printed_zero += text.startswith("0 [")
    # a fitted fixed cost that is zero at its interval's scale is one such 0
    assert printed_zero >= zeros
    assert models_page._interval(1.8168649938597733e-23, 0.0, 0.0499745) == "0 [0, 0.04997]"
    assert models_page._interval(0.006602, 0.0, 0.0447) == "0.006602 [0, 0.0447]"


def test_the_models_pages_cost_per_size_is_labelled_in_the_unit_it_is_computed_in(site):
    """models.fit computes ms_per_kb per KIB = 1024 bytes: the page calls that unit KiB (the
    label of ingest.vocabulary, as its sizes are printed), never KB."""
    from ingest.vocabulary import KIB, KIB_NAME
    from models.fit import KIB as FIT_KIB

    assert (FIT_KIB, KIB, KIB_NAME) == (1024, 1024, "KiB")
    result, _, _ = site
    page = (result.out / "site" / "models.html").read_text(encoding="utf-8")
    [fits] = _tables(page, "fits")
    assert f"Linear: ms per {KIB_NAME} [95 %]" in fits["columns"]
    assert f"Power: ms at 1 {KIB_NAME} [95 %]" in fits["columns"]
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S))
    assert not re.search(r"\bper[ -]KB\b|\bat 1 KB\b", text), re.search(r".{40}\bper[ -]KB\b.{20}", text)


def test_the_coverage_chart_counts_the_numbers_it_cannot_draw(site):
    """The overview's heatmap has a column per message size: its caption says how many numbers
    have none (counted from the warehouse, per report), which are therefore not drawn."""
    result, _, db = site
    page = (result.out / "site" / "index.html").read_text(encoding="utf-8")
    caption = re.search(r'<figure class="chart-figure" id="chart-coverage">.*?<figcaption>(.*?)</figcaption>',
                        page, flags=re.S).group(1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        per_report = con.sql("""SELECT r.family, count(*) FROM metric_values m JOIN dim_report r USING (source)
                                WHERE m.message_size_bytes IS NULL GROUP BY ALL""").fetchall()
    finally:
        con.close()
    total = sum(n for _, n in per_report)
    assert total > 0
    assert f"Not drawn: {total:,} numbers without a message size" in caption
    for family, n in per_report:
        assert f"{n:,} of {esc(family)}" in caption


def test_a_report_page_shows_the_prose_rules_findings_beside_their_statements(site):
    """A finding of a rule on the prose (relation dq_claims: claim_best, claim_vs_table, ...)
    has no number to flag: the report's page shows it in the row of its statement - a flag
    linking to the quality page, the rule and the message, escaped - and counts them."""
    result, _, db = site
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = con.sql("""SELECT r.family, f.finding_id, f.rule, f.message, c.claim_id, c.claim_text, r.report_id
                           FROM dq_findings f JOIN dq_rules USING (rule)
                           JOIN fact_claim c ON c.claim_id = f.row_id JOIN dim_report r USING (report_id)
                           WHERE dq_rules.relation = 'dq_claims'""").fetchall()
        rules = {r for (r,) in con.sql("SELECT rule FROM dq_rules WHERE relation = 'dq_claims'").fetchall()}
    finally:
        con.close()
    assert found and {"claim_vs_table", "claim_count"} <= rules
    pages = {}
    for family, finding_id, rule, message, claim_id, claim_text, _ in found:
        page = pages.setdefault(family, (result.out / "site" / f"report-{family}.html").read_text(encoding="utf-8"))
        row = re.search(rf'<tr id="claim-{claim_id}">(.*?)</tr>', page, flags=re.S)
        assert row, (family, claim_id)
        assert f"<td>{esc(claim_text)}</td>" in row.group(1)
        assert f'href="quality.html#finding-{finding_id}"' in row.group(1)
        assert f"<code>{esc(rule)}</code>: {esc(message)}" in row.group(1)
    for family, page in pages.items():  # one count per report of the family (its statements' table)
        per_report: dict[int, set] = {}
        for f, _, _, _, claim_id, _, report_id in found:
            if f == family:
                per_report.setdefault(report_id, set()).add(claim_id)
        shown = re.findall(r'<p class="claims-flagged">(\d+) of the \d+ statements have a finding', page)
        assert sorted(map(int, shown)) == sorted(len(c) for c in per_report.values()), family


def test_what_a_report_does_not_state_reads_not_stated_and_what_does_not_apply_stays_empty(site):
    """On a report's page a server's OS, hardware, CPU, cores, memory (which every server has)
    that the report leaves NULL read "not stated", muted; a platform without a note and a
    scenario without a message domain that parses none (a startup test, an appliance's test)
    stay empty. The CSV downloads keep NULL as an empty field."""
    import csv

    result, _, db = site
    con = duckdb.connect(str(db), read_only=True)
    try:
        platforms = con.sql("""SELECT r.family, p.platform, p.os, p.hardware, p.cpu_model, p.cores, p.deployment,
                                      p.memory, p.note FROM dim_platform p JOIN dim_report r USING (report_id)""").fetchall()
        scenarios = con.sql("""SELECT r.family, s.scenario, s.transport, s.message_domain, s.flow_style
                               FROM dim_scenario s JOIN dim_report r USING (report_id)""").fetchall()
    finally:
        con.close()
    assert any(None in p[2:8] for p in platforms) and any(p[8] is None for p in platforms)
    pages = {}

    def rows_of(family: str, first_column: str, name: str) -> list[list[str]]:
        """The rows named ``name`` of the family's tables headed ``first_column`` (a family's
        page holds each of its reports, so a platform can have a row in two)."""
        page = pages.setdefault(family, (result.out / "site" / f"report-{family}.html").read_text(encoding="utf-8"))
        found = [row for t in _tables(page, "data") if t["columns"][:1] == [first_column]
                 for row in t["rows"] if row[0] == name]
        assert found, (family, first_column, name)
        return found

    for family, platform, *facts, note in platforms:
        assert any(all((shown == "not stated") == (value is None) for value, shown in zip(facts, row[1:7]))
                   and (row[7] == "" if note is None else row[7] != "not stated")
                   for row in rows_of(family, "Platform", platform)), (family, platform)
    kinds = set()
    for family, scenario, transport, domain, flow in scenarios:
        if domain is None:
            applies = transport is not None and flow is not None
            assert any(row[2] == ("not stated" if applies else "")
                       for row in rows_of(family, "Scenario", scenario)), (family, scenario)
            kinds.add(applies)
    assert kinds == {True, False}  # both cases are in the reports
    shown_muted = [f for f, page in pages.items() if '<td><span class="muted not-stated">not stated</span></td>' in page]
    assert shown_muted, "an unstated value is shown muted"
    for name in ("dim_platform", "dim_scenario"):
        with open(result.out / "site" / "downloads" / "csv" / f"{name}.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        assert rows and all("not stated" not in cell for row in rows for cell in row)
        assert any(cell == "" for row in rows[1:] for cell in row)


def test_ids_print_as_ids_and_authored_names_as_code(site, wh):
    """A finding's or a series' id is a name, not a quantity (8686364001269420, not
    8,686,364,001,269,420); the captions, rules' reasons and tables' descriptions write command
    and column names in backticks, which the pages show as code, never as backticks."""
    result, _, _ = site
    pages = {name: (result.out / "site" / f"{name}.html").read_text(encoding="utf-8")
             for name in ("quality", "models", "downloads")}
    finding = wh.sql("SELECT min(finding_id) FROM dq_findings").fetchall()[0][0]
    series = wh.sql("SELECT min(series_id) FROM model_fits").fetchall()[0][0]
    assert f">{finding}<" in pages["quality"] and f"{finding:,}" not in pages["quality"]
    assert f">{series}<" in pages["models"] and f"{series:,}" not in pages["models"]
    for name, text in pages.items():
        visible = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)
        assert "`" not in re.sub(r"<[^>]+>", "", visible), name
    assert "<code>perfwh size</code>" in pages["models"]


def test_the_explorer_opens_on_a_scenario_with_costs():
    """The scenario measured in the most series, among those with a CPU cost: MQ Appliance's
    request-responder tests (rates and %CPU only, in many series) left the cost chart empty."""
    rows = [{"scenario": "10Q Request Responder", "series": f"s{i}", "cost": None} for i in range(5)]
    rows += [{"scenario": "JSON Parse", "series": f"j{i}", "cost": 1.5} for i in range(2)]
    assert explorer.default_scenario(rows) == "JSON Parse"
    assert explorer.default_scenario(rows[:5]) == "10Q Request Responder"  # no costs anywhere


def test_a_ratio_axis_is_labelled_on_both_sides_of_parity():
    """A log axis over 0.6 to 1.9 holds no power of ten but 1: its own ticks labelled 0.7, 0.8,
    0.9 and 1 and nothing the points above parity could be read against."""
    assert [t for t in compare._ticks([0.6, 1.9]) if t > 1] == [1.1, 1.25, 1.5, 1.75]
    assert 1 in compare._ticks([0.05, 120]) and len(compare._ticks([0.05, 120])) <= 9
    assert compare._ticks([0.95, 1.05]) == [1]


def test_the_compare_pages_ratios_are_the_printed_numbers_ratios_to_four_digits(site):
    """Each ratio cell is b / a of the two printed numbers beside it, to four significant digits
    (0.7617 for 363.13 us / 476.71 us, not 0.7620: a ratio rounded to three decimals and then
    padded)."""
    from perfwh.publish.html import fmt_num

    result, _, _ = site
    page = (result.out / "site" / "compare.html").read_text(encoding="utf-8")
    scale = {"/s": 1.0, "ms": 1.0, "μs": 1e-3}

    def value(text: str) -> float:
        number, unit = re.fullmatch(r"([\d.,]+)\s*(/s|ms|μs)", text).groups()
        return float(number.replace(",", "")) * scale[unit]

    checked = 0
    for row in re.findall(r"<tr>(.*?)</tr>", page, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if len(cells) != 11:
            continue
        for a, b, ratio in ((cells[4], cells[5], cells[6]), (cells[7], cells[8], cells[9])):
            if a and b and "left out" not in ratio:
                assert ratio == fmt_num(value(b) / value(a)), (a, b, ratio)
                checked += 1
    assert checked > 100


def test_the_generations_page_shows_each_pairs_printed_costs_linked_to_their_lines(site, wh):
    """Every cost on the generations page is a CPU cost as printed on the line it links to, and
    every mapped test's series is on the page, each with the reason it is paired."""
    from perfwh.publish import generations as gen

    result, _, _ = site
    html = (result.out / "site" / "generations.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="(report-[\w-]+\.html)#([\w.-]+)-L(\d+)" title="([^"]+):(\d+)">([^<]+)</a>', html)
    assert links
    printed = {(source, line, value) for source, line, value in wh.sql(
        "SELECT source, source_line, printed_value FROM metric_values WHERE metric = 'cpu_ms_per_msg'").fetchall()}
    for _page, _stem, line, source, title_line, value in links:
        assert line == title_line and (source, int(line), value) in printed, (source, line, value)
    mapping = gen.load()
    points = gen.points(wh, mapping)
    assert {(p["source"], p["source_line"]) for p in points} == {(s, int(n)) for _p, _s, n, s, _t, _v in links}
    for test in mapping.tests():
        assert esc(test.reason) in html, test
    for comparison in mapping.comparisons:
        assert f'id="{anchor_id("comparison", comparison.name)}"' in html
    assert html.count('class="perfwh-chart"') == len(mapping.comparisons)
    # the hardware beside each line, and what the reports say about comparing them
    assert "RS64-III 500 MHz" in html and "1-core container on AMD EPYC 7R13" in html
    assert 'href="report-ace13.html#ace13-openshift-2025-L32"' in html


def test_a_generations_cost_with_an_error_finding_is_marked_and_drawn_in_no_line(site, wh):
    """A cost the rules call impossible (ACE 13's 0.53 and 2.44 ms at lines 287 and 290 keep more
    cores busy than the T-shirt had: cpu_capacity) is shown beside the chart with its flag, but
    is in no chart's data, as the comparison page uses such a number in no ratio; every other
    cost of the page is drawn."""
    import json

    from perfwh.publish import generations as gen

    result, _, _ = site
    html = (result.out / "site" / "generations.html").read_text(encoding="utf-8")
    errors = {fact for (fact,) in wh.sql("SELECT fact_id FROM dq_findings WHERE severity = 'error' "
                                         "AND waiver IS NULL AND fact_id IS NOT NULL").fetchall()}
    points = gen.points(wh, gen.load())
    flagged = [p for p in points if p["cost_fact_id"] in errors]
    assert flagged, "the reports hold costs with error findings on the page"
    def data_of(node) -> list[dict]:
        if isinstance(node, dict):
            return [v for k, x in node.items() for v in (x if k == "values" and isinstance(x, list) else data_of(x))]
        return [v for x in node for v in data_of(x)] if isinstance(node, list) else []

    drawn = {v["where"] for spec in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S)
             for v in data_of(json.loads(spec)) if isinstance(v, dict) and "where" in v}
    assert drawn, "no chart data found"
    for p in points:
        where = f"{p['source']}:{p['source_line']}"
        assert (where in drawn) == (p not in flagged), where
    for p in flagged:
        cell = re.search(rf'title="{re.escape(p["source"])}:{p["source_line"]}">{re.escape(p["cost_printed"])}</a>'
                         r' <a href="quality\.html#finding-\d+" class="flag flag-error"', html)
        assert cell, p


def test_pages_with_wide_tables_and_charts_get_the_width_under_quarto():
    """Quarto keeps a page with a table of contents in a column of about 805 px at 1400 px,
    even with page-layout: full (which widens only into empty margins): the pages whose tables
    and charts need the width have none."""
    config = load_config()
    assert config.html.get("page-layout") == "full"
    for name in ("models", "generations"):
        page = parse_qmd(PROJECT_ROOT / "site" / f"{name}.qmd")
        assert page.meta.get("toc") is False, name


def test_quality_page_lists_every_finding(site, wh):
    result, _, _ = site
    html = (result.out / "site" / "quality.html").read_text(encoding="utf-8")
    findings = wh.sql("SELECT finding_id, rule, source, source_line, suggested_value FROM dq_findings").fetchall()
    assert findings
    for finding_id, rule, source, line, suggestion in findings:
        assert f'id="finding-{finding_id}"' in html
        assert f"{esc(source)}:{line}" in html
        if suggestion:
            assert f"<strong>{esc(suggestion)}</strong>" in html


def test_downloads_hold_the_warehouse_as_duckdb_parquet_and_csv(site):
    result, _, db = site
    down = result.out / "site" / "downloads"
    copy = duckdb.connect(str(down / "warehouse.duckdb"), read_only=True)
    try:
        tables = [r[0] for r in copy.sql(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'").fetchall()]
        assert "fact_metric_value" in tables
        for name in tables + ["metric_values", "measurements"]:
            n = copy.sql(f'SELECT count(*) FROM "{name}"').fetchall()[0][0]
            assert copy.sql(f"SELECT count(*) FROM read_parquet('{down / 'parquet' / name}.parquet')").fetchall()[0][0] == n
            assert copy.sql(f"SELECT count(*) FROM read_csv('{down / 'csv' / name}.csv')").fetchall()[0][0] == n
    finally:
        copy.close()
    html = (result.out / "site" / "downloads.html").read_text(encoding="utf-8")
    assert 'href="downloads/warehouse.duckdb"' in html and 'href="downloads/csv/measurements.csv"' in html


def test_site_html_escapes_a_hostile_scenario_name(built_warehouse, tmp_path_factory):
    result, _, _ = build_test_site(tmp_path_factory, built_warehouse, scenario_name=HOSTILE)
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    seen = 0
    for page in sorted((result.out / "site").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert HOSTILE not in html, page.name
        seen += html.count(escaped) + html.count("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e")
        for script in _parse(page).scripts:
            assert "alert(1)" not in script.replace("\\u003cscript\\u003ealert(1)", "")
    assert seen > 5


# -- the fallback on a small project, failures, and the quarto path -----------------------

def _project(root: Path, cell: str) -> Path:
    (root / "site" / "sub").mkdir(parents=True)
    (root / "_quarto.yml").write_text(textwrap.dedent("""\
        project:
          type: website
          output-dir: site/_site
          render: [site/index.qmd, site/sub/deep.qmd]
          resources: [site/a.css]
        website:
          title: "Tiny <site>"
          navbar:
            left:
              - href: site/index.qmd
                text: Home
              - text: More
                menu:
                  - href: site/sub/deep.qmd
                    text: Deep
        format:
          html:
            toc: true
            css: site/a.css
        execute:
          echo: false
        """), encoding="utf-8")
    (root / "site" / "a.css").write_text("body{}", encoding="utf-8")
    (root / "site" / "index.qmd").write_text("---\ntitle: Home\n---\n\n## Part\n\n```{python}\nprint('hello')\n```\n",
                                             encoding="utf-8")
    (root / "site" / "sub" / "deep.qmd").write_text(f"---\ntitle: Deep\n---\n\nText.\n\n```{{python}}\n{cell}\n```\n",
                                                    encoding="utf-8")
    return root


def test_fallback_maps_navigation_for_nested_pages(tmp_path, built_warehouse):
    root = _project(tmp_path / "p", "from perfwh.publish.html import tag\ntag('em', '<b>')")
    result = build_site(db=built_warehouse, root=root, renderer="fallback", log=lambda m: None)
    out = root / "site" / "_site"
    assert result.out == out
    home = (out / "site" / "index.html").read_text()
    deep = (out / "site" / "sub" / "deep.html").read_text()
    assert 'href="sub/deep.html"' in home and 'href="../index.html"' in deep
    assert 'href="../a.css"' in deep and (out / "site" / "a.css").exists()
    assert "<em>&lt;b&gt;</em>" in deep and "hello" in home
    assert "Tiny &lt;site&gt;" in home and 'id="TOC"' in home
    assert 'aria-current="page">Home' in home


def test_a_failing_cell_names_page_and_line_and_keeps_the_previous_site(tmp_path, built_warehouse):
    root = _project(tmp_path / "p", "x = 1\nraise ValueError('boom')")
    out = tmp_path / "out"
    out.mkdir()
    (out / "previous.html").write_text("old", encoding="utf-8")
    (out / ".perfwh-site").write_text("", encoding="utf-8")
    with pytest.raises(SiteError, match=r"deep\.qmd:7: a cell failed:(.|\n)*ValueError: boom"):
        build_site(db=built_warehouse, out=out, root=root, renderer="fallback", log=lambda m: None)
    assert sorted(p.name for p in out.iterdir()) == [".perfwh-site", "previous.html"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]


@pytest.mark.parametrize("cell, problem", [
    ("from IPython.display import HTML\nHTML('<b>bold</b>')", "output of type text/html"),
    ("from IPython.display import Javascript\nJavascript('1')", "output of type application/javascript"),
    ("from perfwh.publish.html import Html\nHtml('<script src=\"https://cdn.example.org/x.js\"></script>')",
     "reference to another host"),
    ("from perfwh.publish.html import Html\nHtml('<p style=\"background: url(//cdn.example.org/a.png)\">x</p>')",
     "reference to another host"),
])
def test_a_page_quarto_would_render_with_outside_scripts_is_refused(tmp_path, built_warehouse, cell, problem):
    """What makes Quarto add require.js and jQuery from a CDN (a text/html or JavaScript
    output), or a cell loading from another host, fails the build with the page named."""
    root = _project(tmp_path / "p", cell)
    with pytest.raises(SiteError, match=rf"deep\.qmd: the page would not render the same(.|\n)*{problem}"):
        build_site(db=built_warehouse, out=tmp_path / "out", root=root, renderer="fallback", log=lambda m: None)


def test_the_quarto_ready_sources_reference_nothing_outside_the_site(site):
    """The pages as Quarto reads them - each .qmd, what its cells emitted (the fallback build
    of the site fixture refuses any output Quarto would render with CDN scripts, see above),
    and the files _quarto.yml adds to every page - load nothing from another host; and the
    page modules emit HTML only through Html, never as text/html."""
    from perfwh.publish.site.quarto import outside_references

    config = load_config()
    files = [*config.pages, PROJECT_ROOT / "_quarto.yml", *config.resources,
             *(PROJECT_ROOT / c for c in ([config.html.get("css")] if isinstance(config.html.get("css"), str)
                                          else config.html.get("css") or [])),
             PROJECT_ROOT / config.html["include-after-body"]]
    for path in files:
        assert outside_references(path.read_text(encoding="utf-8")) == [], path
    for module in sorted((PROJECT_ROOT / "perfwh" / "publish").rglob("*.py")):
        text = module.read_text(encoding="utf-8")
        assert "IPython.display import HTML" not in text and "display(HTML" not in text, module
    result, _, _ = site
    assert result.path == "fallback" and len(result.pages) == len(config.pages)


def test_a_folder_perfwh_did_not_build_is_never_replaced(tmp_path, built_warehouse):
    root = _project(tmp_path / "p", "1")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious", encoding="utf-8")
    with pytest.raises(SiteError, match="is not a folder `perfwh site` wrote"):
        build_site(db=built_warehouse, out=out, root=root, renderer="fallback", log=lambda m: None)
    assert (out / "notes.txt").read_text() == "precious"


def test_quarto_is_used_when_on_path(tmp_path, built_warehouse, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "record.txt"
    fake = bin_dir / "quarto"
    fake.write_text(f'#!/bin/sh\necho "$PWD|$*|$PERFWH_DB" > "{record}"\n', encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    lines: list[str] = []
    out = tmp_path / "out"
    result = build_site(db=built_warehouse, out=out, log=lines.append)
    assert result.path == "quarto" and "rendered with Quarto" in result.renderer
    cwd, args, db = record.read_text().strip().split("|")
    command, _, staged = args.partition(" --output-dir ")
    assert Path(cwd) == PROJECT_ROOT and command == "render"
    # rendered into a folder beside the output folder, then moved over it whole
    assert Path(staged).parent == out.resolve().parent and Path(staged) != out.resolve()
    assert out.is_dir() and not Path(staged).exists()
    assert Path(db) == built_warehouse.resolve()
    assert any("quarto found" in line for line in lines)


def test_quarto_renderer_requested_but_missing_is_an_error(tmp_path, built_warehouse, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SiteError, match="quarto is not on PATH"):
        build_site(db=built_warehouse, out=tmp_path / "o", renderer="quarto", log=lambda m: None)


def test_missing_warehouse_is_a_clear_error(tmp_path):
    with pytest.raises(SiteError, match="not found"):
        build_site(db=tmp_path / "none.duckdb", out=tmp_path / "o", renderer="fallback", log=lambda m: None)


def test_site_command_is_registered():
    from perfwh.cli import make_parser
    args = make_parser().parse_args(["site", "--db", "x.duckdb", "--out", "o"])
    assert args.command == "site" and args.db == Path("x.duckdb") and args.renderer == "auto"


def test_pages_degrade_without_quality_and_model_tables(plain_warehouse, monkeypatch):
    """A warehouse built with --rules none and no models: every page function still answers,
    with a clear note where a table is missing."""
    from perfwh.core.paths import SOURCES_FILE
    from perfwh.warehouse.sources import load_manifest

    db = plain_warehouse
    monkeypatch.setenv(DB_ENV, str(db))
    common.reset()
    try:
        assert not common.has("dq_findings") and not common.has("model_fits")
        for fn in (quality.summary, quality.rules, quality.findings, models_page.summary,
                   models_page.accuracy_chart, models_page.sizing_chart, models_page.fits):
            assert "not built" in fn(), fn.__name__
        assert models_page.unfitted() == ""
        assert set(common.families()) == {s.family for s in load_manifest(SOURCES_FILE)}
        for family in common.families():
            html = report.report_page(family)
            assert 'class="flag' not in html and "<table" in html
        for fn in (overview.reports_table, overview.measured, overview.coverage_chart,
                   overview.coverage_matrix, compare.products, compare.platforms,
                   compare.generations, explorer.explorer_chart, downloads.page):
            assert len(fn()) > 100, fn.__name__
    finally:
        common.reset()


def test_the_post_render_step_runs_again_on_the_same_output(site, tmp_path):
    """Quarto re-renders into an existing output folder (`quarto render page.qmd`, preview,
    --no-clean) and runs the post-render step again: it replaces what it wrote, and every local
    address of the Data Docs pages still resolves (GX's deeper pages link a favicon that is
    not there: the link is left out rather than left failing)."""
    import shutil

    from perfwh.publish.site.output import finish_output

    result, _, db = site
    out = tmp_path / "_site"
    shutil.copytree(result.out, out)
    finish_output(out, str(db))
    finish_output(out, str(db))
    docs = sorted((out / "site" / "data-docs").rglob("*.html"))
    assert docs
    for page in docs:
        # GX inlines its styles, whose logo is fetched from S3: a reader offline loads nothing
        assert not re.search(r"url\(\s*[\"']?(https?:)?//", page.read_text(encoding="utf-8")), page
        for tag_, attr, value in _parse(page).links:
            if tag_ in ("a",) or re.match(r"^([a-z]+:|//|#)", value):
                continue
            assert (page.parent / value.split("#")[0]).exists(), f"{page}: {tag_} {attr}={value} is missing"


def test_every_source_gets_its_own_line_ids_whatever_its_name():
    """A family's page holds the lines of all its files: "a b.csv" and "a-b.csv", "a.csv" and
    "a.txt", or two names in another script ("测试.csv", "результаты.csv") would share their
    lines' ids, and a link to one file's line land on the other's. Each gets its own prefix; a
    stem that is an id already, and no other's, stays as it is (ace13-openshift-2025-L32)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    assert common.line_anchor_prefixes(["ace13-openshift-2025.txt"]) == {
        "ace13-openshift-2025.txt": "ace13-openshift-2025"}
    alike = ["a b.csv", "a-b.csv", "a.csv", "a.txt", "测试.csv", "результаты.csv"]
    prefixes = common.line_anchor_prefixes(alike)
    assert len(set(prefixes.values())) == len(alike), prefixes
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", p) for p in prefixes.values())

    @settings(max_examples=200, deadline=None, database=None)
    @given(st.lists(st.text("ab -_.é测1", min_size=1, max_size=6).map(lambda s: s + ".csv"), unique=True,
                    min_size=2, max_size=6))
    def distinct(names):
        found = common.line_anchor_prefixes(names)
        assert len(set(found.values())) == len(names), found

    distinct()
