"""perfwh's own renderer for the Quarto site, used when the Quarto CLI is not installed.

It reads what `_quarto.yml` says (pages, navigation, output folder, format options) through
`config.load_config` and renders each page the way Quarto does, with the tools that install
from the package registries here:

1. the .qmd is split into its YAML front matter, markdown and ```{python} cells (with their
   `#|` options);
2. the cells run, in a fresh Jupyter kernel per page (nbclient; two pages at a time), with the
   page's folder as working directory;
3. the outputs become pandoc markdown: text/html as raw HTML blocks, images inline, text as code
   blocks; an error in a cell stops the build, naming the page and the cell's line;
4. pandoc (from pypandoc-binary) turns the markdown into HTML (and the table of contents);
5. the page gets the navbar, title block, footer, CSS and include-after-body of _quarto.yml, with
   every link made relative to where the page is written (`SiteConfig.output_of`).

No template or script loads anything from a CDN: no MathJax (math stays plain), no require.js,
no web fonts.
"""
from __future__ import annotations

import asyncio
import base64
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from perfwh.core import yamltext
from perfwh.publish.html import anchor_id, esc, raw_html_block
from perfwh.publish.pages import common
from perfwh.publish.kernels import KernelDied, execute_notebook, run_stoppably

from .config import NavItem, SiteConfig, SiteError
from .quarto import hazards

# The fallback's search index (the site's pages, headings, reports and scenarios), a script
# that sets window.PERFWH_SEARCH so that it loads from a file:// page too; Quarto has its own.
SEARCH_INDEX = "site/search-index.js"
_FENCE_OPEN = re.compile(r"^(?P<fence>`{3,})\s*\{(?P<lang>[A-Za-z0-9_]+)(?P<rest>[^}]*)\}\s*$")
_OPTION = re.compile(r"^#\|\s?(.*)$")


@dataclass
class Cell:
    kind: str                     # "markdown" or "code"
    source: str
    line: int                     # 1-based line of the .qmd where the cell starts
    options: dict = field(default_factory=dict)


@dataclass
class Page:
    path: Path
    meta: dict
    cells: list[Cell]


def renderer_sentence() -> str:
    return f"rendered without Quarto, with Jupyter (nbclient) and pandoc {pandoc_version()} (pypandoc-binary)"


def pandoc_version() -> str:
    import pypandoc
    return pypandoc.get_pandoc_version()


# -- 1. parsing ----------------------------------------------------------------------------

def parse_qmd(path: Path) -> Page:
    text = Path(path).read_text(encoding="utf-8")
    lines = text.split("\n")
    meta: dict = {}
    start = 0
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                try:
                    meta = yamltext.safe_load("\n".join(lines[1:i])) or {}
                except yaml.YAMLError as err:
                    raise SiteError(f"{path}:1: front matter is not valid YAML: {err}") from None
                if not isinstance(meta, dict):
                    raise SiteError(f"{path}:1: front matter must be a mapping")
                start = i + 1
                break
        else:
            raise SiteError(f"{path}:1: front matter is not closed by ---")
    cells: list[Cell] = []
    md: list[str] = []
    md_start = start + 1
    i = start
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if not m:
            md.append(lines[i])
            i += 1
            continue
        fence, lang, open_line = m.group("fence"), m.group("lang"), i + 1
        body: list[str] = []
        i += 1
        closing = re.compile("^`{%d,}\\s*$" % len(fence))
        while i < len(lines) and not closing.match(lines[i]):
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            raise SiteError(f"{path}:{open_line}: code cell is not closed by {fence}")
        i += 1
        if lang != "python":
            raise SiteError(f"{path}:{open_line}: only python cells can run here, not {{{lang}}}")
        if "".join(md).strip():
            cells.append(Cell("markdown", "\n".join(md).strip("\n"), md_start))
        md, md_start = [], i + 1
        option_lines, code = [], []
        for b in body:
            opt = _OPTION.match(b)
            if opt and not code:
                option_lines.append(opt.group(1))
            else:
                code.append(b)
        try:
            options = yamltext.safe_load("\n".join(option_lines)) or {}
        except yaml.YAMLError as err:
            raise SiteError(f"{path}:{open_line}: cell options (#|) are not valid YAML: {err}") from None
        if not isinstance(options, dict):
            raise SiteError(f"{path}:{open_line}: cell options (#|) must be 'key: value' lines")
        cells.append(Cell("code", "\n".join(code).strip("\n"), open_line, options))
    if "".join(md).strip():
        cells.append(Cell("markdown", "\n".join(md).strip("\n"), md_start))
    return Page(Path(path), meta, cells)


# -- 2. execution --------------------------------------------------------------------------

def _notebook(page: Page, kernel: str):
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": kernel, "display_name": kernel, "language": "python"}
    for cell in page.cells:
        if cell.kind == "code":
            nb.cells.append(nbformat.v4.new_code_cell(cell.source))
        else:
            nb.cells.append(nbformat.v4.new_markdown_cell(cell.source))
    return nb


async def _execute(page: Page, kernel: str, timeout: int = 600):
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = _notebook(page, kernel)
    # startup_timeout: nbclient's 60 s for a kernel's first reply ran out once on a machine
    # whose two cores ran a test suite; a cell's own timeout is the bound for that too
    client = NotebookClient(nb, kernel_name=kernel, timeout=timeout, startup_timeout=timeout,
                            allow_errors=False, resources={"metadata": {"path": str(page.path.parent)}})
    try:
        await execute_notebook(client)
    except CellExecutionError as err:
        index = next((n for n, c in enumerate(nb.cells) if c.cell_type == "code" and any(
            o.get("output_type") == "error" for o in c.get("outputs", []))), None)
        line = page.cells[index].line if index is not None else 1
        raise SiteError(f"{page.path}:{line}: a cell failed:\n{_strip_ansi(str(err))}") from None
    except KernelDied as err:
        raise SiteError(f"{page.path}: {err}") from None
    return nb


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# -- 3. outputs to markdown ----------------------------------------------------------------

def _code_block(text: str, cls: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"\n{fence}{(' ' + cls) if cls else ''}\n{text.rstrip()}\n{fence}\n"


def _option(cell: Cell, defaults: dict, name: str, default=True):
    return cell.options.get(name, defaults.get(name, default))


def page_markdown(page: Page, nb, defaults: dict) -> str:
    """The page as pandoc markdown: markdown cells as written, code cells as their outputs."""
    parts = []
    for cell, executed in zip(page.cells, nb.cells):  # one notebook cell per page cell
        if cell.kind == "markdown":
            parts.append(cell.source + "\n")
            continue
        if not _option(cell, defaults, "include"):
            continue
        if _option(cell, defaults, "echo", True) is True:
            parts.append(_code_block(cell.source, "python"))
        if not _option(cell, defaults, "output", True):
            continue
        for out in executed.get("outputs", []):
            kind = out.get("output_type")
            if kind == "stream":
                if out.get("name") == "stderr" and not _option(cell, defaults, "warning", True):
                    continue
                parts.append(_code_block(out.get("text", ""), "cell-output"))
            elif kind in ("display_data", "execute_result"):
                data = out.get("data", {})
                if "text/html" in data:
                    parts.append(raw_html_block(data["text/html"]))
                elif "image/svg+xml" in data:
                    parts.append(raw_html_block(data["image/svg+xml"]))
                elif "image/png" in data:
                    b64 = data["image/png"].replace("\n", "")
                    base64.b64decode(b64, validate=True)  # only base64 goes into the attribute
                    parts.append(raw_html_block(f'<img alt="" src="data:image/png;base64,{b64}">'))
                elif "text/markdown" in data:
                    parts.append(data["text/markdown"] + "\n")
                elif "text/plain" in data:
                    parts.append(_code_block(data["text/plain"], "cell-output"))
    return "\n".join(parts)


# -- 4. pandoc -----------------------------------------------------------------------------

_TEMPLATE = "$if(toc)$<nav id=\"TOC\" class=\"toc\"><h2>On this page</h2>\n$table-of-contents$\n</nav>$endif$\n<!--PERFWH-BODY-->\n$body$\n"


def markdown_to_html(markdown: str, toc: bool, toc_depth: int, template: Path) -> tuple[str, str]:
    import pypandoc
    args = ["--standalone", f"--template={template}", "--wrap=none"]
    if toc:
        args += ["--toc", f"--toc-depth={int(toc_depth)}"]
    html = pypandoc.convert_text(markdown, "html5", format="markdown", extra_args=args)
    toc_html, _, body = html.partition("<!--PERFWH-BODY-->")
    return toc_html.strip(), body.strip()


# -- 5. the page shell ---------------------------------------------------------------------

def _rel(config: SiteConfig, page_out: Path, target: str | None) -> str | None:
    """A link from the page written at page_out to `target` (a path relative to the project
    root; .qmd means the page rendered from it)."""
    if not target:
        return None
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
        return target
    path, _, fragment = target.partition("#")
    dest = config.output_dir / Path(path)
    if dest.suffix in (".qmd", ".ipynb", ".md"):
        dest = dest.with_suffix(".html")
    rel = os.path.relpath(dest, page_out.parent).replace(os.sep, "/")
    return rel + (f"#{fragment}" if fragment else "")


def _nav_html(config: SiteConfig, items: list[NavItem], page_out: Path, current: str) -> str:
    """The navbar's items; a menu is a button and a .dropdown-menu list, closed until clicked
    (site.js opens it), as in Quarto's Bootstrap navbar."""
    out = []
    for item in items:
        if item.menu:
            active = any(sub.href and Path(sub.href).with_suffix("").as_posix() == current for sub in item.menu)
            menu_id = anchor_id("menu", item.text)
            out.append(f'<li class="nav-item dropdown{" active" if active else ""}">'
                       f'<button type="button" class="nav-link dropdown-toggle" aria-expanded="false" '
                       f'aria-controls="{menu_id}">{esc(item.text)}</button>'
                       f'<ul class="dropdown-menu" id="{menu_id}">'
                       + _nav_html(config, item.menu, page_out, current) + "</ul></li>")
        else:
            active = item.href and Path(item.href).with_suffix("").as_posix() == current
            li = '<li class="nav-item active">' if active else '<li class="nav-item">'
            current_attr = ' aria-current="page"' if active else ""
            out.append(f'{li}<a class="nav-link" href="{esc(_rel(config, page_out, item.href))}"{current_attr}>'
                       f"{esc(item.text)}</a></li>")
    return "".join(out)


def page_html(config: SiteConfig, page: Page, toc_html: str, body_html: str, generator: str) -> str:
    out_path = config.output_of(page.path)
    current = page.path.relative_to(config.root).with_suffix("").as_posix()
    meta = page.meta
    html_opts = config.html
    title = str(meta.get("title") or page.path.stem)
    css = [_rel(config, out_path, c) for c in _as_list(html_opts.get("css"))]
    head_extra = "".join(_include(config, f) for f in _as_list(html_opts.get("include-in-header")))
    after_body = "".join(_include(config, f) for f in _as_list(html_opts.get("include-after-body")))
    home = _rel(config, out_path, config.navbar[0].href) if config.navbar and config.navbar[0].href else None
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f'<meta name="generator" content="{esc(generator)}">\n',
        f"<title>{esc(title)} \u2013 {esc(config.title)}</title>\n",
    ]
    if meta.get("description"):
        parts.append(f'<meta name="description" content="{esc(meta["description"])}">\n')
    if config.favicon:
        parts.append(f'<link rel="icon" href="{esc(_rel(config, out_path, config.favicon))}">\n')
    parts += [f'<link rel="stylesheet" href="{esc(c)}">\n' for c in css]
    parts.append(head_extra)
    parts.append("</head>\n<body>\n<header class=\"pw-navbar\"><nav>")
    parts.append(f'<a class="brand" href="{esc(home or "#")}">{esc(config.title)}</a>')
    parts.append('<ul class="nav-left">' + _nav_html(config, config.navbar, out_path, current) + "</ul>")
    if config.navbar_right:
        parts.append('<ul class="nav-right">' + _nav_html(config, config.navbar_right, out_path, current) + "</ul>")
    search_index = _rel(config, out_path, SEARCH_INDEX)
    parts.append(f'<div class="pw-search" role="search"><input type="search" id="pw-search-input" '
                 f'placeholder="Search" aria-label="Search the site" autocomplete="off" '
                 f'data-index="{esc(search_index)}"><ul class="pw-search-results" hidden></ul></div>')
    parts.append("</nav></header>\n")
    has_toc = bool(toc_html and "<li" in toc_html)
    parts.append(f'<div class="page{" with-toc" if has_toc else ""}">\n')
    if has_toc:
        parts.append(f'<aside class="toc-aside">{toc_html}</aside>\n')
    parts.append('<main id="content">\n<header class="title-block">')
    parts.append(f"<h1 class=\"title\">{esc(title)}</h1>")
    if meta.get("subtitle"):
        parts.append(f'<p class="subtitle">{esc(meta["subtitle"])}</p>')
    if meta.get("description"):
        parts.append(f'<p class="description">{esc(meta["description"])}</p>')
    parts.append("</header>\n")
    parts.append(body_html)
    parts.append("\n</main>\n</div>\n")
    if config.footer:
        parts.append(f'<footer class="page-footer"><p>{esc(config.footer)}</p></footer>\n')
    parts.append(after_body)
    parts.append("\n</body>\n</html>\n")
    return "".join(parts)


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _include(config: SiteConfig, name: str) -> str:
    path = config.root / name
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SiteError(f"{config.root / '_quarto.yml'}: includes {name}, which does not exist") from None


# -- all together --------------------------------------------------------------------------

def render_fallback(config: SiteConfig, log: Callable[[str], None] = print, workers: int | None = None) -> list[Path]:
    """Render every page of `config` into config.output_dir (which must exist) and copy its
    resources. Returns the pages written."""
    pages = [parse_qmd(p) for p in config.pages]
    defaults = dict(config.execute)
    workers = workers or max(1, min(2, os.cpu_count() or 1, len(pages)))
    html_opts = config.html
    generator = f"perfwh site: Jupyter (nbclient) + pandoc {pandoc_version()}, without Quarto"
    written: list[Path] = []

    with tempfile.TemporaryDirectory(prefix="perfwh-site-") as tmp:
        template = Path(tmp) / "template.html"
        template.write_text(_TEMPLATE, encoding="utf-8")

        async def one(page: Page, gate: asyncio.Semaphore):
            async with gate:
                start = time.perf_counter()
                nb = await _execute(page, config.kernel)
                problems = hazards(nb)
                if problems:
                    raise SiteError(f"{page.path}: the page would not render the same, offline, with Quarto:\n  "
                                    + "\n  ".join(problems))
                markdown = page_markdown(page, nb, defaults)
                toc = bool(page.meta.get("toc", html_opts.get("toc", False)))
                depth = page.meta.get("toc-depth", html_opts.get("toc-depth", 3))
                toc_html, body = await asyncio.to_thread(markdown_to_html, markdown, toc, depth, template)
                target = config.output_of(page.path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(page_html(config, page, toc_html, body, generator), encoding="utf-8")
                log(f"  {page.path.relative_to(config.root)} -> {target.relative_to(config.output_dir)}"
                    f" ({time.perf_counter() - start:.1f} s)")
                return target

        async def main():
            gate = asyncio.Semaphore(workers)
            tasks = [asyncio.ensure_future(one(p, gate)) for p in pages]
            try:
                return await asyncio.gather(*tasks)
            except BaseException:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                raise

        written = run_stoppably(main)

    from .search import write_index

    common.reset()  # the warehouse of $PERFWH_DB, which build_site set
    try:
        write_index(config, list(written), config.output_dir / SEARCH_INDEX)
    finally:
        common.reset()
    copy = list(config.resources) + [config.root / c for c in _as_list(html_opts.get("css"))]
    if config.favicon:
        copy.append(config.root / config.favicon)
    for src in copy:
        if not src.exists():
            raise SiteError(f"{config.root / '_quarto.yml'}: resource {src} does not exist")
        dest = config.output_dir / src.relative_to(config.root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    return list(written)
