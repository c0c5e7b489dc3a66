"""`perfwh site`: the website, defined by `_quarto.yml`, rendered by Quarto or by perfwh.

`build_site` runs `quarto render` when the Quarto CLI is on PATH. Otherwise it renders the same
pages, with the same navigation and into the same output folder, itself (`fallback`): the
pre-render step, each page's python cells executed with Jupyter (nbclient), the page turned into
HTML with pandoc (the pandoc that pypandoc-binary ships), the post-render step.

Either way the site is rendered into a folder staged beside the output folder and committed
over it whole (`perfwh.core.commit`), under the warehouse's writer lock, so a failed or killed
build leaves the previous site in place and the next writer removes what it left.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from perfwh.core.files import output_folder_problem
from perfwh.core.lock import writer_lock
from perfwh.core.paths import PROJECT_ROOT, raw_path, warehouse_env, warehouse_path
from perfwh.stages.writing import writing

from .config import MARKER, SiteConfig, SiteError, load_config
from .output import finish_output, vega_bundle


@dataclass
class SiteResult:
    path: str                   # "quarto" or "fallback"
    renderer: str               # a sentence saying which renderer ran
    out: Path
    pages: list[Path]
    seconds: float


def quarto_path() -> str | None:
    return shutil.which("quarto")


def run_scripts(config: SiteConfig, scripts: list[str], env: dict[str, str]) -> None:
    """Run the project's pre- or post-render scripts as Quarto does: from the project root,
    a .py file with this Python."""
    for script in scripts:
        command = [sys.executable, script] if script.endswith(".py") else [script]
        done = subprocess.run(command, cwd=config.root, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SiteError(f"{script} failed (exit status {done.returncode}):\n"
                            f"{(done.stderr or done.stdout).strip()[-2000:]}")


def _render_with_quarto(quarto: str, config: SiteConfig, out: Path, log: Callable[[str], None]) -> None:
    env = dict(os.environ, QUARTO_PYTHON=sys.executable)
    cmd = [quarto, "render", "--output-dir", str(out)]
    log(f"perfwh site: {' '.join(cmd)}")
    proc = subprocess.run(cmd, cwd=config.root, env=env)
    if proc.returncode != 0:
        raise SiteError(f"quarto render failed (exit status {proc.returncode})")
    # what Quarto leaves in the project while it renders (listed in .gitignore as well)
    for leftover in sorted(config.root.rglob("*.quarto_ipynb")):
        leftover.unlink(missing_ok=True)


def build_site(db: Path | None = None, out: Path | None = None, *, root: Path = PROJECT_ROOT,
               renderer: str = "auto", log: Callable[[str], None] = print,
               workers: int | None = None, wait: bool = True, raw: Path | None = None) -> SiteResult:
    """Render the site of `root`/_quarto.yml from warehouse `db` into `out` (default: the
    output-dir of _quarto.yml). renderer: 'auto' (quarto when on PATH), 'quarto' or 'fallback'.
    ``raw``: where the raw texts `db` was built from are (default data/raw; the report pages
    show a text only if its sha256 is the one `db` recorded)."""
    start = time.perf_counter()
    config = load_config(root, out)
    db = warehouse_path(db).resolve()
    if not db.exists():
        raise SiteError(f"warehouse {db} not found: run `perfwh build` (or `make`) first")
    quarto = quarto_path() if renderer in ("auto", "quarto") else None
    if renderer == "quarto" and quarto is None:
        raise SiteError("quarto is not on PATH")
    final = config.output_dir
    problem = output_folder_problem(final, MARKER, "`perfwh site`")
    if problem:
        raise SiteError(problem)
    final.parent.mkdir(parents=True, exist_ok=True)
    # the warehouse's writer lock (no add while its site renders), and the project's: the
    # pre-render step writes the generated pages into the project's site/ folder
    with warehouse_env(db, raw_path(raw).resolve()), writer_lock(config.root / "site", "site", wait=wait), \
            writing(db, "site", wait=wait, also=(final.parent,)) as transaction:
        staged_dir = transaction.stage(final)
        staged_dir.mkdir()
        if quarto:
            sentence = f"rendered with Quarto ({quarto})"
            log(f"perfwh site: quarto found at {quarto}: rendering with `quarto render`")
            _render_with_quarto(quarto, config, staged_dir, log)
            config = load_config(root, out)  # the pages the pre-render step generated
        else:
            from .fallback import renderer_sentence

            sentence = renderer_sentence()
            log(f"perfwh site: quarto is not on PATH: {sentence}")
            config = _build_fallback(config, root, out, staged_dir, db, log, workers)
        transaction.commit()
    seconds = time.perf_counter() - start
    result = SiteResult("quarto" if quarto else "fallback", sentence, config.output_dir,
                        [config.output_of(p) for p in config.pages], seconds)
    log(f"perfwh site: {len(config.pages)} pages {sentence} into {config.output_dir} in {seconds:.1f} s")
    return result


def _build_fallback(config: SiteConfig, root: Path, out: Path | None, staged_dir: Path, db: Path,
                    log, workers) -> SiteConfig:
    """The pre-render step, the pages, the post-render work, into ``staged_dir``; returns the
    configuration as it reads after the pre-render step."""
    from .fallback import render_fallback

    env = dict(os.environ, QUARTO_PROJECT_OUTPUT_DIR=str(staged_dir))
    run_scripts(config, config.pre_render, env)
    config = load_config(root, out)
    bundle: dict[str, object] = {}

    def make_bundle():  # in parallel with the kernels: vl-convert takes a second or two
        try:
            bundle["code"] = vega_bundle()
        except BaseException as err:  # reported below
            bundle["error"] = err

    thread = threading.Thread(target=make_bundle, daemon=True)
    thread.start()
    try:
        staged = SiteConfig(**{**config.__dict__, "output_dir": staged_dir})
        render_fallback(staged, log=log, workers=workers)
        thread.join()
        if "error" in bundle:
            raise SiteError(f"could not bundle the chart libraries with vl-convert: {bundle['error']}")
        finish_output(staged_dir, db, config=staged, bundle=bundle["code"])
    finally:
        thread.join()
    return config
