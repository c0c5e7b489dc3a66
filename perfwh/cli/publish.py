"""Subcommands of the publishing stage: notebooks, site."""
from __future__ import annotations

import sys
from pathlib import Path

from ingest.printable import one_line
from perfwh.publish.notebooks import KERNEL, OUT_DIR  # light: nbclient is imported on use

from .common import add_db, warehouse_to_read, whole_number


def _site(args) -> int:
    from perfwh.publish.site.build import SiteError, build_site

    try:
        result = build_site(db=warehouse_to_read(args.db), out=args.out, renderer=args.renderer,
                            raw=args.raw,
                            log=(lambda msg: None) if args.quiet else print)
    except SiteError as err:
        print(f"perfwh site: error: {err}", file=sys.stderr)
        print("perfwh site: the previous site is unchanged", file=sys.stderr)
        return 1
    if args.quiet:
        print(f"perfwh site: {result.renderer}: {result.out}")
    return 0


def _notebooks(args) -> int:
    from perfwh.publish.notebooks import NotebookError, run_notebooks

    try:
        runs = run_notebooks(db=warehouse_to_read(args.db), out=args.out, kernel=args.kernel, timeout=args.timeout,
                             jobs=args.jobs)
    except NotebookError as err:
        print(f"perfwh notebooks: error: {err}", file=sys.stderr)
        print("perfwh notebooks: the previous executed notebooks are unchanged", file=sys.stderr)
        return 1
    for r in runs:
        print(f"perfwh notebooks: {r.path.name}: {r.cells} cells, {r.charts} charts, {r.seconds:.1f} s")
    print(f"perfwh notebooks: wrote {len(runs)} executed notebooks to {one_line(str(args.out))}")
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "site", help="render the website defined by _quarto.yml (quarto render, or Jupyter + pandoc)",
        description="Render the website defined by _quarto.yml from the warehouse. Runs `quarto render` "
                    "when quarto is on PATH; otherwise renders the same pages, navigation and output "
                    "folder with Jupyter (nbclient) and pandoc (pypandoc-binary), and says so.")
    add_db(p)
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: project.output-dir of _quarto.yml, site/_site)")
    p.add_argument("--raw", type=Path, default=None, metavar="DIR",
                   help="where the raw texts the warehouse was built from are, for the report "
                        "pages (default data/raw; a text is shown only if its sha256 is the one "
                        "the warehouse recorded)")
    p.add_argument("--renderer", choices=("auto", "quarto", "fallback"), default="auto",
                   help="auto (default): quarto when on PATH, else the fallback")
    p.add_argument("-q", "--quiet", action="store_true", help="one line of output")
    p.set_defaults(func=_site)

    p = sub.add_parser(
        "notebooks", help="execute notebooks/*.ipynb headless into data/curated/notebooks/",
        description="Execute every notebook of notebooks/ with nbclient (kernel perfwh, working directory "
                    "the project root, the warehouse in $PERFWH_DB) and write the executed copies to the "
                    "output folder, atomically. The committed notebooks stay without outputs.")
    add_db(p)
    p.add_argument("--out", type=Path, default=OUT_DIR, help=f"output folder (default {OUT_DIR})")
    p.add_argument("--kernel", default=KERNEL, help=f"Jupyter kernel name (default {KERNEL})")
    p.add_argument("--timeout", type=whole_number(1, 86400, "seconds"), default=600,
                   help="seconds allowed per cell, 1 to 86400 (default 600)")
    p.add_argument("--jobs", type=whole_number(1, 64, "notebooks"), default=2,
                   help="notebooks executed at once, 1 to 64 (default 2)")
    p.set_defaults(func=_notebooks)
