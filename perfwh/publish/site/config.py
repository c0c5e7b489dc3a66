"""The site's definition: what `_quarto.yml` says, read the way Quarto reads it.

Both renderers start here: Quarto reads the file itself, perfwh's fallback renderer reads it
through `load_config` (pages, navigation, output folder, format options).
"""
from __future__ import annotations

import glob
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from perfwh.core import yamltext
from perfwh.core.paths import PROJECT_ROOT

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
    pre_render: list[str] = field(default_factory=list)

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


def merge(base, extra):
    """Quarto's merge of configuration: mappings merge key by key, lists are concatenated
    (duplicates dropped), anything else is replaced (quarto-cli src/core/config.ts)."""
    if isinstance(base, dict) and isinstance(extra, dict):
        out = dict(base)
        for key, value in extra.items():
            out[key] = merge(base[key], value) if key in base else value
        return out
    if isinstance(base, list) or isinstance(extra, list):
        if base is None or extra is None:
            return extra if base is None else base
        combined = _as_list(base) + _as_list(extra)
        seen, out = set(), []
        for item in combined:
            key = yaml.safe_dump(item, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out
    return extra


def _read_yaml(path: Path, missing_ok: bool = False) -> dict:
    try:
        data = yamltext.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        if missing_ok:  # as Quarto does for a metadata file that is not there (yet)
            return {}
        raise SiteError(f"{path}: not found (the site is defined by {CONFIG_NAME} at the project root)") from None
    except yaml.YAMLError as err:
        raise SiteError(f"{path}: not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise SiteError(f"{path}: expected a mapping")
    return data


def load_config(root: Path = PROJECT_ROOT, output_dir: Path | None = None) -> SiteConfig:
    """The site as _quarto.yml defines it, with its metadata files merged in (read it again
    after the pre-render step: it may have written them)."""
    path = Path(root) / CONFIG_NAME
    data = _read_yaml(path)
    for extra in _as_list(data.get("metadata-files")):
        data = merge(data, _read_yaml(Path(root) / extra, missing_ok=True))
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
        post_render=[str(s) for s in _as_list(project.get("post-render"))],
        pre_render=[str(s) for s in _as_list(project.get("pre-render"))])
