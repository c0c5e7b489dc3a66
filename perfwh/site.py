"""`perfwh site`: the website, defined by `_quarto.yml`, rendered by Quarto or by perfwh.

`build_site` runs `quarto render` when the Quarto CLI is on PATH. Otherwise it renders the same
pages, with the same navigation and into the same output folder, itself (`site_render`): each
page's python cells executed with Jupyter (nbclient), the page turned into HTML with pandoc
(the pandoc that pypandoc-binary ships). Both paths end with `finish_output`, which Quarto
runs as the project's post-render script: the chart libraries, the downloads, a root index.

The output folder is replaced atomically by the fallback (built next to it, then renamed), so
a failed build leaves the previous site in place.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from . import PROJECT_ROOT, WAREHOUSE

CONFIG_NAME = "_quarto.yml"
ASSETS = Path("site") / "assets"          # relative to the project root and to the output dir
VENDOR = ASSETS / "vendor"
VENDOR_BUNDLE = "vega-bundle.js"
DOWNLOADS = Path("site") / "downloads"
MARKER = ".perfwh-site"                   # in every output folder perfwh built; only such a folder is replaced


class SiteError(RuntimeError):
    """The site could not be built: names the page, cell or file and what went wrong."""


# -- _quarto.yml ---------------------------------------------------------------------------

@dataclass
class NavItem:
    text: str
    href: str | None = None                  # a page (.qmd) or file, relative to the project root
    menu: list["NavItem"] = field(default_factory=list)


@dataclass
class SiteConfig:
    root: Path
    output_dir: Path                          # absolute
    pages: list[Path]                         # absolute .qmd paths, in render order
    resources: list[Path]                     # absolute files to copy as they are
    title: str
    navbar: list[NavItem]
    navbar_right: list[NavItem]
    footer: str | None
    favicon: str | None                       # relative to the project root
    html: dict                                # format.html options
    execute: dict                             # execute options (echo, warning, ...)
    kernel: str
    post_render: list[str]

    def output_of(self, page: Path) -> Path:
        """Where a page's HTML goes: as Quarto does, its path under the project root, in the
        output folder, with .html."""
        return self.output_dir / page.relative_to(self.root).with_suffix(".html")


def _nav_items(items) -> list[NavItem]:
    out = []
    for item in items or []:
        if isinstance(item, str):
            out.append(NavItem(text=Path(item).stem, href=item))
            continue
        out.append(NavItem(text=str(item.get("text") or Path(item.get("href", "")).stem),
                           href=item.get("href"), menu=_nav_items(item.get("menu"))))
    return out


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def load_config(root: Path = PROJECT_ROOT, output_dir: Path | None = None) -> SiteConfig:
    path = Path(root) / CONFIG_NAME
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise SiteError(f"{path}: not found (the site is defined by {CONFIG_NAME} at the project root)") from None
    except yaml.YAMLError as err:
        raise SiteError(f"{path}: not valid YAML: {err}") from None
    project = data.get("project") or {}
    website = data.get("website") or {}
    if project.get("type") != "website":
        raise SiteError(f"{path}: project.type must be 'website'")
    root = Path(root).resolve()
    pages: list[Path] = []
    for pattern in _as_list(project.get("render")) or ["**/*.qmd"]:
        matches = sorted(glob.glob(str(root / pattern), recursive=True))
        if not matches and not glob.has_magic(pattern):
            raise SiteError(f"{path}: project.render lists {pattern}, which does not exist")
        for m in matches:
            p = Path(m).resolve()
            if p.suffix == ".qmd" and not p.name.startswith("_") and p not in pages:
                pages.append(p)
    if not pages:
        raise SiteError(f"{path}: no page to render")
    resources = []
    for pattern in _as_list(project.get("resources")):
        resources += [Path(m).resolve() for m in sorted(glob.glob(str(root / pattern), recursive=True))
                      if Path(m).is_file()]
    navbar = website.get("navbar") or {}
    footer = website.get("page-footer")
    if isinstance(footer, dict):
        footer = " ".join(str(footer[k]) for k in ("left", "center", "right") if footer.get(k))
    html = ((data.get("format") or {}).get("html") or {})
    out = Path(output_dir).resolve() if output_dir else (root / project.get("output-dir", "_site")).resolve()
    return SiteConfig(
        root=root, output_dir=out, pages=pages, resources=resources,
        title=str(website.get("title") or "perfwh"),
        navbar=_nav_items(navbar.get("left")), navbar_right=_nav_items(navbar.get("right")),
        footer=footer, favicon=website.get("favicon"), html=html, execute=data.get("execute") or {},
        kernel=str(data.get("jupyter") or "python3"),
        post_render=[str(s) for s in _as_list(project.get("post-render"))])


# -- the post-render step (both paths) -----------------------------------------------------

def vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed in one classic script, from vl-convert-python (no
    network): wrapped in a function so that its top-level names stay private; it sets
    window.vega, window.vegaLite and window.vegaEmbed."""
    import altair as alt
    import vl_convert as vlc

    wanted = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    vl_version = wanted if wanted in vlc.get_vegalite_versions() else None
    code = vlc.javascript_bundle(vl_version=vl_version)
    header = (f"/* Vega {vlc.get_vega_version()}, Vega-Lite {vl_version or 'latest'}, vega-embed "
              f"{vlc.get_vega_embed_version()}: bundled by vl-convert-python for the perfwh site. */\n")
    return header + "(function () {\n" + code + "\n})();\n"


def write_vendor(out: Path, bundle: str | None = None) -> Path:
    target = out / VENDOR / VENDOR_BUNDLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(bundle if bundle is not None else vega_bundle(), encoding="utf-8")
    return target


def write_downloads(out: Path, db: Path) -> list[Path]:
    """The DuckDB file, and every table of `site_pages.download_tables` as Parquet and CSV."""
    import duckdb

    from . import site_pages

    target = out / DOWNLOADS
    (target / "parquet").mkdir(parents=True, exist_ok=True)
    (target / "csv").mkdir(parents=True, exist_ok=True)
    written = [target / "warehouse.duckdb"]
    shutil.copyfile(db, written[0])
    old = os.environ.get(site_pages.DB_ENV)
    os.environ[site_pages.DB_ENV] = str(db)
    try:
        site_pages.reset()
        tables = site_pages.download_tables()
    finally:
        site_pages.reset()
        if old is None:
            os.environ.pop(site_pages.DB_ENV, None)
        else:
            os.environ[site_pages.DB_ENV] = old
    con = duckdb.connect(str(db), read_only=True)
    try:
        for t in tables:
            name = t["name"].replace('"', '""')
            for fmt, opts in (("parquet", "FORMAT parquet"), ("csv", "FORMAT csv, HEADER true")):
                path = target / fmt / f"{t['name']}.{fmt}"
                con.execute(f"COPY (SELECT * FROM \"{name}\" ORDER BY ALL) TO ? ({opts})", [str(path)]).fetchall()
                written.append(path)
    finally:
        con.close()
    return written


def write_root_index(config: SiteConfig, out: Path) -> Path | None:
    """<out>/index.html sending the reader to the first page (site/index.html): Quarto keeps
    each page's path under the project root, so the pages sit one folder down."""
    first = config.pages[0]
    rel = first.relative_to(config.root).with_suffix(".html").as_posix()
    if rel == "index.html":
        return None
    path = out / "index.html"
    from .site_html import esc
    path.write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={esc(rel)}">'
        f"<title>{esc(config.title)}</title></head>"
        f'<body><p><a href="{esc(rel)}">{esc(config.title)}</a></p></body></html>\n', encoding="utf-8")
    return path


def finish_output(out: Path, db: Path | None = None, *, config: SiteConfig | None = None,
                  bundle: str | None = None) -> None:
    """What a rendered site needs besides its pages: the chart libraries, the downloads and
    the root index. Quarto runs it as the post-render script; the fallback calls it."""
    config = config or load_config()
    db = Path(db or os.environ.get("PERFWH_DB") or WAREHOUSE).resolve()
    if not db.exists():
        raise SiteError(f"warehouse {db} not found: run `perfwh build` first")
    out = Path(out)
    (out / MARKER).write_text("built by `perfwh site`; the next build replaces this folder\n", encoding="utf-8")
    write_vendor(out, bundle)
    write_downloads(out, db)
    write_root_index(config, out)


# -- building ------------------------------------------------------------------------------

@dataclass
class SiteResult:
    path: str                   # "quarto" or "fallback"
    renderer: str               # a sentence saying which renderer ran
    out: Path
    pages: list[Path]
    seconds: float


def quarto_path() -> str | None:
    return shutil.which("quarto")


def _render_with_quarto(quarto: str, config: SiteConfig, out: Path, log: Callable[[str], None]) -> None:
    env = dict(os.environ, QUARTO_PYTHON=sys.executable)
    cmd = [quarto, "render", "--output-dir", str(out)]
    log(f"perfwh site: {' '.join(cmd)}")
    proc = subprocess.run(cmd, cwd=config.root, env=env)
    if proc.returncode != 0:
        raise SiteError(f"quarto render failed (exit status {proc.returncode})")


def build_site(db: Path | None = None, out: Path | None = None, *, root: Path = PROJECT_ROOT,
               renderer: str = "auto", log: Callable[[str], None] = print,
               workers: int | None = None) -> SiteResult:
    """Render the site of `root`/_quarto.yml from warehouse `db` into `out` (default: the
    output-dir of _quarto.yml). renderer: 'auto' (quarto when on PATH), 'quarto' or 'fallback'."""
    start = time.perf_counter()
    config = load_config(root, out)
    db = Path(db or WAREHOUSE).resolve()
    if not db.exists():
        raise SiteError(f"warehouse {db} not found: run `perfwh build` (or `make`) first")
    quarto = quarto_path() if renderer in ("auto", "quarto") else None
    if renderer == "quarto" and quarto is None:
        raise SiteError("quarto is not on PATH")
    old_env = os.environ.get("PERFWH_DB")
    os.environ["PERFWH_DB"] = str(db)
    try:
        if quarto:
            sentence = f"rendered with Quarto ({quarto})"
            log(f"perfwh site: quarto found at {quarto}: rendering with `quarto render`")
            _render_with_quarto(quarto, config, config.output_dir, log)
        else:
            from .site_render import render_fallback, renderer_sentence
            sentence = renderer_sentence()
            log(f"perfwh site: quarto is not on PATH: {sentence}")
            _build_fallback(config, db, log, workers, render_fallback)
    finally:
        if old_env is None:
            os.environ.pop("PERFWH_DB", None)
        else:
            os.environ["PERFWH_DB"] = old_env
    seconds = time.perf_counter() - start
    result = SiteResult("quarto" if quarto else "fallback", sentence, config.output_dir,
                        [config.output_of(p) for p in config.pages], seconds)
    log(f"perfwh site: {len(config.pages)} pages {sentence} into {config.output_dir} in {seconds:.1f} s")
    return result


def _build_fallback(config: SiteConfig, db: Path, log, workers, render_fallback) -> None:
    final = config.output_dir
    if final.exists() and (not final.is_dir() or (any(final.iterdir()) and not (final / MARKER).exists())):
        raise SiteError(f"{final} exists and is not a site perfwh built (no {MARKER} in it): refusing to "
                        "replace it; choose a new or empty output folder")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".{final.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    bundle: dict[str, object] = {}

    def make_bundle():  # in parallel with the kernels: vl-convert takes a second or two
        try:
            bundle["code"] = vega_bundle()
        except BaseException as err:  # reported below
            bundle["error"] = err

    thread = threading.Thread(target=make_bundle, daemon=True)
    thread.start()
    try:
        staged = SiteConfig(**{**config.__dict__, "output_dir": tmp})
        render_fallback(staged, log=log, workers=workers)
        thread.join()
        if "error" in bundle:
            raise SiteError(f"could not bundle the chart libraries with vl-convert: {bundle['error']}")
        finish_output(tmp, db, config=staged, bundle=bundle["code"])
        old = final.parent / f".{final.name}.old-{os.getpid()}"
        if final.exists():
            final.rename(old)
        tmp.rename(final)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        thread.join()
        shutil.rmtree(tmp, ignore_errors=True)
        raise
