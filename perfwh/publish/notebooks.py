"""`perfwh notebooks`: execute every notebooks/*.ipynb headless and keep the executed copies.

Each notebook runs with nbclient in the Jupyter kernel ``perfwh`` (the venv's, registered by
`make install`), with the project root as working directory and the warehouse passed in the
environment variable PERFWH_DB (the notebooks default to data/curated/warehouse.duckdb).
The executed copies are written to a temporary folder and renamed over the output folder
(default data/curated/notebooks/) only when every notebook ran without an error. The
notebooks under notebooks/ stay as committed: without outputs.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from perfwh.core.files import output_folder_problem, replace_directory, temporary_path
from perfwh.core.paths import CURATED_DIR, DB_ENV, NOTEBOOKS_DIR, PROJECT_ROOT, WAREHOUSE

from .kernels import KernelDied, execute_notebook, run_stoppably

OUT_DIR = CURATED_DIR / "notebooks"
# In every output folder `perfwh notebooks` wrote: only such a folder is replaced.
MARKER = ".perfwh-notebooks"
KERNEL = "perfwh"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class NotebookError(RuntimeError):
    """A notebook failed (the cell, the error) or could not be started."""


@dataclass
class NotebookRun:
    path: Path
    out: Path
    seconds: float
    cells: int
    charts: int


def notebook_paths(directory: Path = NOTEBOOKS_DIR) -> list[Path]:
    return sorted(Path(directory).glob("*.ipynb"))


def count_charts(nb) -> int:
    """Outputs that carry a chart (SVG, PNG or a Vega-Lite spec)."""
    kinds = ("image/svg+xml", "image/png", "application/vnd.vegalite.v5+json")
    return sum(1 for cell in nb.cells if cell.cell_type == "code"
               for output in cell.get("outputs", []) if any(k in output.get("data", {}) for k in kinds))


def strip_outputs(nb) -> None:
    """Clear outputs and execution counts (the form notebooks are committed in)."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)


async def _execute(path: Path, target: Path, db: Path, kernel: str, timeout: int,
                   semaphore) -> NotebookRun:
    import nbformat
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    async with semaphore:
        nb = nbformat.read(path, as_version=4)
        strip_outputs(nb)
        # The kernel's own log (e.g. its warning that it talks to us over TCP on localhost) is
        # kept out of the output; cell errors still arrive as messages and fail the run.
        client = NotebookClient(nb, kernel_name=kernel, timeout=timeout, startup_timeout=timeout,
                                allow_errors=False, resources={"metadata": {"path": str(PROJECT_ROOT)}},
                                extra_arguments=["--IPKernelApp.log_level=ERROR"])
        env = {**os.environ, DB_ENV: str(db), "PYTHONHASHSEED": "0"}
        started = time.perf_counter()
        try:
            await execute_notebook(client, env=env, cwd=str(PROJECT_ROOT))
        except NoSuchKernel:
            raise NotebookError(f"Jupyter kernel {kernel!r} is not installed: run `make install` "
                                "(it registers the venv's kernel) or pass --kernel") from None
        except CellExecutionError as err:
            text = _ANSI.sub("", str(err)).strip()
            last = text.splitlines()[-1] if text else ""
            raise NotebookError(f"{path.name}: a cell failed: {last}\n{text}") from None
        except KernelDied as err:
            raise NotebookError(f"{path.name}: {err}") from None
        seconds = time.perf_counter() - started
        nbformat.write(nb, target / path.name)
        return NotebookRun(path, target / path.name, seconds, len(nb.cells), count_charts(nb))


async def _execute_all(paths, target, db, kernel, timeout, jobs):
    import asyncio

    semaphore = asyncio.Semaphore(max(1, jobs))
    return await asyncio.gather(*(_execute(p, target, db, kernel, timeout, semaphore) for p in paths))


def _require_kernel(kernel: str) -> None:
    """The kernel must be installed: asked for one that is not, jupyter_client logs its
    traceback for every notebook before saying so (seventy lines for one mistyped name)."""
    from jupyter_client.kernelspec import KernelSpecManager

    installed = sorted(KernelSpecManager().find_kernel_specs())
    if kernel not in installed:
        advice = ("run `make install` (it registers the venv's kernel)" if kernel == KERNEL
                  else "give --kernel one of them")
        raise NotebookError(f"Jupyter kernel {kernel!r} is not installed (installed: "
                            f"{', '.join(installed) or 'none'}): {advice}")


def _require_output_folder(out: Path, paths: list[Path]) -> None:
    """The output folder is replaced whole: it must be one this command wrote (or new, or
    empty), never the committed notebooks' own folder. A folder written before the marker
    was (data/curated/notebooks of an older checkout) holds nothing but executed copies of
    these notebooks, and counts as this command's."""
    if out == NOTEBOOKS_DIR.resolve():
        raise NotebookError(f"--out {out}: is the folder of the committed notebooks, which stay "
                            "without outputs; choose another output folder")
    names = {p.name for p in paths}
    problem = output_folder_problem(out, MARKER, "`perfwh notebooks`",
                                    also_ours=lambda entry: entry.is_file() and entry.name in names)
    if problem:
        raise NotebookError(problem)


def run_notebooks(db: Path = WAREHOUSE, out: Path = OUT_DIR, notebooks: list[Path] | None = None,
                  kernel: str = KERNEL, timeout: int = 600, jobs: int = 2) -> list[NotebookRun]:
    """Execute the notebooks against ``db``; write the executed copies to ``out``
    atomically. Raises NotebookError on the first failure (``out`` is then unchanged)."""
    db = Path(db).resolve()
    if not db.is_file():
        raise NotebookError(f"{db}: no warehouse; run `perfwh build` and `perfwh models` (or `make models`)")
    paths = notebook_paths() if notebooks is None else [Path(p) for p in notebooks]
    if not paths:
        raise NotebookError(f"no notebooks in {NOTEBOOKS_DIR}")
    _require_kernel(kernel)
    out = Path(out).resolve()
    _require_output_folder(out, paths)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(out)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        runs = run_stoppably(lambda: _execute_all(paths, tmp, db, kernel, timeout, jobs))
        (tmp / MARKER).write_text("written by `perfwh notebooks`; the next run replaces this folder\n",
                                  encoding="utf-8")
        replace_directory(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [NotebookRun(r.path, out / r.path.name, r.seconds, r.cells, r.charts) for r in runs]
