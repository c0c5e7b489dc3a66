"""The post-render step, shared by Quarto (`project.post-render`) and the fallback renderer:
what a rendered site needs besides its pages - the chart libraries, the downloads, the Great
Expectations Data Docs (offline) and the root index."""
from __future__ import annotations

import shutil
from pathlib import Path

from perfwh.core.paths import warehouse_env, warehouse_path
from perfwh.warehouse.query import export_csv

from perfwh.publish import datadocs
from perfwh.publish.html import esc
from perfwh.publish.pages import common, downloads, quality

from .config import DOWNLOADS, MARKER, VENDOR, VENDOR_BUNDLE, SiteConfig, SiteError, load_config


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
    """The DuckDB file, and every table `pages.downloads.tables` lists as Parquet and CSV."""
    import duckdb

    target = out / DOWNLOADS
    (target / "parquet").mkdir(parents=True, exist_ok=True)
    (target / "csv").mkdir(parents=True, exist_ok=True)
    written = [target / "warehouse.duckdb"]
    shutil.copyfile(db, written[0])
    with warehouse_env(db):
        common.reset()
        try:
            tables = downloads.tables()
        finally:
            common.reset()
    con = duckdb.connect(str(db), read_only=True)
    try:
        for t in tables:
            name = t["name"].replace('"', '""')
            path = target / "parquet" / f"{t['name']}.parquet"
            con.execute(f"COPY (SELECT * FROM \"{name}\" ORDER BY ALL) TO ? (FORMAT parquet)",
                        [str(path)]).fetchall()
            # the CSV as every CSV of perfwh is written (no formula a spreadsheet would run)
            export_csv(con, t["name"], target / "csv" / f"{t['name']}.csv")
            written += [path, target / "csv" / f"{t['name']}.csv"]
    finally:
        con.close()
    return written


def write_data_docs(out: Path, db: Path) -> list[Path]:
    """The Data Docs of the warehouse's last Great Expectations run, offline, at the address
    the data-quality page links to (site/data-docs/)."""
    source = datadocs.source_of(db)
    if source is None:
        return []
    target = out / "site" / Path(quality.DATA_DOCS).parent
    # the page that links to them, relative to the Data Docs' folder: their way back
    back = Path(*[".."] * len(Path(quality.DATA_DOCS).parent.parts)) / quality.PAGE
    return datadocs.publish(source, target, out / VENDOR / VENDOR_BUNDLE,
                            back=(back.as_posix(), "Back to the site: data quality"))


def write_root_index(config: SiteConfig, out: Path) -> Path | None:
    """<out>/index.html sending the reader to the first page (site/index.html): Quarto keeps
    each page's path under the project root, so the pages sit one folder down."""
    first = config.pages[0]
    rel = first.relative_to(config.root).with_suffix(".html").as_posix()
    if rel == "index.html":
        return None
    path = out / "index.html"
    # the site's icon (both renderers copy it to its path under the output folder): without
    # one the browser asks for /favicon.ico, a 404 in the console of every visit
    icon = f'<link rel="icon" href="{esc(Path(config.favicon).as_posix())}">' if config.favicon else ""
    path.write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={esc(rel)}">'
        f"<title>{esc(config.title)}</title>{icon}</head>"
        f'<body><p><a href="{esc(rel)}">{esc(config.title)}</a></p></body></html>\n', encoding="utf-8")
    return path


def finish_output(out: Path, db: Path | None = None, *, config: SiteConfig | None = None,
                  bundle: str | None = None) -> None:
    """What a rendered site needs besides its pages: the chart libraries, the downloads and
    the root index. Quarto runs it as the post-render script; the fallback calls it."""
    config = config or load_config()
    db = warehouse_path(db).resolve()
    if not db.exists():
        raise SiteError(f"warehouse {db} not found: run `perfwh build` first")
    out = Path(out)
    (out / MARKER).write_text("built by `perfwh site`; the next build replaces this folder\n", encoding="utf-8")
    write_vendor(out, bundle)
    write_downloads(out, db)
    write_data_docs(out, db)
    write_root_index(config, out)
