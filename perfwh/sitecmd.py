"""Subcommands of the publishing stage: notebooks, site."""
from __future__ import annotations

import sys
from pathlib import Path

from . import WAREHOUSE


def _site(args) -> int:
    from .site import SiteError, build_site

    try:
        result = build_site(db=args.db, out=args.out, renderer=args.renderer,
                            log=(lambda msg: None) if args.quiet else print)
    except SiteError as err:
        print(f"perfwh site: error: {err}", file=sys.stderr)
        print("perfwh site: the previous site is unchanged", file=sys.stderr)
        return 1
    if args.quiet:
        print(f"perfwh site: {result.renderer}: {result.out}")
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "site", help="render the website defined by _quarto.yml (quarto render, or Jupyter + pandoc)",
        description="Render the website defined by _quarto.yml from the warehouse. Runs `quarto render` "
                    "when quarto is on PATH; otherwise renders the same pages, navigation and output "
                    "folder with Jupyter (nbclient) and pandoc (pypandoc-binary), and says so.")
    p.add_argument("--db", type=Path, default=WAREHOUSE, help=f"warehouse file (default {WAREHOUSE})")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: project.output-dir of _quarto.yml, site/_site)")
    p.add_argument("--renderer", choices=("auto", "quarto", "fallback"), default="auto",
                   help="auto (default): quarto when on PATH, else the fallback")
    p.add_argument("-q", "--quiet", action="store_true", help="one line of output")
    p.set_defaults(func=_site)
