"""The analysis notebooks (issue 4): committed without outputs, and all of them execute green,
headless, against a freshly built warehouse with its models, drawing their charts."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from perfwh.publish.notebooks import (MARKER, NOTEBOOKS_DIR, NotebookError, count_charts, notebook_paths,
                                     run_notebooks)

PERFWH = [sys.executable, "-m", "perfwh.cli"]
EXPECTED = ["01_warehouse_tour.ipynb", "02_cost_vs_size.ipynb", "03_ace11_vs_iib10.ipynb",
            "04_scaling.ipynb", "05_persistence.ipynb", "06_generations.ipynb"]


def perfwh(*args) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def executed(built_warehouse, tmp_path_factory) -> tuple[Path, Path, subprocess.CompletedProcess]:
    """`perfwh models` then `perfwh notebooks` on a copy of the session's fresh warehouse."""
    work = tmp_path_factory.mktemp("notebooks")
    db = work / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    done = perfwh("models", "--db", db, "--no-parquet", "-q")
    assert done.returncode == 0, done.stderr
    out = work / "executed"
    return db, out, perfwh("notebooks", "--db", db, "--out", out)


def test_the_six_notebooks_are_committed_without_outputs():
    assert [p.name for p in notebook_paths()] == EXPECTED
    for path in notebook_paths():
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata["kernelspec"]["name"] == "perfwh"
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{path.name} has outputs"
        # the set-up is the shared module, not a copy per notebook
        setup = next(c.source for c in nb.cells if c.cell_type == "code")
        assert "from perfwh.publish.notebook import *" in setup, path.name
        assert "duckdb.connect" not in "\n".join(c.source for c in nb.cells if c.cell_type == "code"), path.name


def test_the_shared_notebook_setup_reads_the_warehouse_read_only_and_draws_offline():
    import importlib.util

    # read, not imported: importing it opens the warehouse, which `make test` alone has not built
    text = Path(importlib.util.find_spec("perfwh.publish.notebook").origin).read_text()
    assert "warehouse_path()" in text and "read_only=True" in text  # $PERFWH_DB, else the default
    assert 'alt.renderers.enable("svg")' in text  # static SVG by vl-convert: no CDN


def test_every_notebook_executes_green_and_draws_charts(executed):
    db, out, done = executed
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in out.glob("*.ipynb")) == EXPECTED
    for name in EXPECTED:
        nb = nbformat.read(out / name, as_version=4)
        outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
        assert not [o for o in outputs if o.output_type == "error"], name
        assert count_charts(nb) >= 1, f"{name} drew no chart"
        svgs = [o.data["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
        assert all("<svg" in s and len(s) > 5000 for s in svgs), name
        # the text cells state what the data shows, computed at run time
        assert any("text/markdown" in o.get("data", {}) for o in outputs), f"{name} states no finding"
        # the warehouse came from PERFWH_DB, not from the default path
        first = next(o for o in outputs if o.output_type == "stream")
        assert f"warehouse: {db}" in first.text
        assert not any(url in s for s in svgs for url in ("cdn.jsdelivr", "unpkg.com"))
    assert "wrote 6 executed notebooks" in done.stdout


def test_committed_notebooks_are_left_unexecuted(executed):
    for path in notebook_paths():
        nb = nbformat.read(path, as_version=4)
        assert all(c.outputs == [] for c in nb.cells if c.cell_type == "code")


def test_findings_are_computed_from_the_warehouse(executed):
    _, out, _ = executed
    nb = nbformat.read(out / "02_cost_vs_size.ipynb", as_version=4)
    text = "\n".join(o.data["text/markdown"] for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs if "text/markdown" in o.get("data", {}))
    assert "median absolute error" in text and "series" in text
    nb = nbformat.read(out / "06_generations.ipynb", as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    text = "\n".join(o.data.get("text/markdown", "") for o in outputs if "data" in o)
    assert "RS64-III" in text and "EPYC" in text  # the hardware, from dim_platform


def test_a_failing_notebook_leaves_the_previous_output_unchanged(executed, tmp_path):
    db, _, _ = executed
    out = tmp_path / "out"
    out.mkdir()
    (out / MARKER).write_text("written by `perfwh notebooks`\n", encoding="utf-8")  # a previous run's
    (out / "previous.ipynb").write_text("{}", encoding="utf-8")
    bad = nbformat.v4.new_notebook()
    bad.cells = [nbformat.v4.new_code_cell("raise ValueError('planted failure')")]
    path = tmp_path / "bad.ipynb"
    nbformat.write(bad, path)
    with pytest.raises(NotebookError, match="planted failure"):
        run_notebooks(db=db, out=out, notebooks=[path])
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "previous.ipynb"]
    assert not list(tmp_path.glob(".out.tmp-*"))


def test_a_folder_the_command_did_not_write_is_never_replaced(executed, tmp_path):
    """The output folder is replaced whole: a folder of the user's (here with a notebook of the
    same name as one of ours beside a file of theirs) or the committed notebooks' own folder is
    refused before anything runs, and kept as it was; a run's own output folder, or an older
    run's holding nothing but its executed copies, is replaced."""
    db, executed_out, done = executed
    assert done.returncode == 0, done.stderr
    assert (executed_out / MARKER).is_file()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("precious", encoding="utf-8")
    (mine / EXPECTED[0]).write_text("{}", encoding="utf-8")
    refused = perfwh("notebooks", "--db", db, "--out", mine)
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[0] == (
        f"perfwh notebooks: error: {mine} exists and is not a folder `perfwh notebooks` wrote (no "
        f"{MARKER} in it): refusing to replace it and everything in it; choose a new or empty output folder")
    assert sorted(p.name for p in mine.iterdir()) == sorted(["keep.txt", EXPECTED[0]])
    with pytest.raises(NotebookError, match="is the folder of the committed notebooks"):
        run_notebooks(db=db, out=NOTEBOOKS_DIR)
    older = tmp_path / "older"  # an older run's output, from before the marker
    older.mkdir()
    (older / EXPECTED[0]).write_text("{}", encoding="utf-8")
    bad = nbformat.v4.new_notebook()
    bad.cells = [nbformat.v4.new_code_cell("raise ValueError('planted failure')")]
    nbformat.write(bad, tmp_path / EXPECTED[0])
    with pytest.raises(NotebookError, match="planted failure"):  # accepted: it ran
        run_notebooks(db=db, out=older, notebooks=[tmp_path / EXPECTED[0]])


def test_notebooks_need_a_warehouse(tmp_path):
    done = perfwh("notebooks", "--db", tmp_path / "missing.duckdb", "--out", tmp_path / "out")
    assert done.returncode == 2  # --db names no warehouse: what was given cannot be used
    assert "no warehouse" in done.stderr
    assert NOTEBOOKS_DIR.is_dir()


KERNEL_DIES_AT_START = '''
import asyncio
import nbformat
from jupyter_client.asynchronous.client import AsyncKernelClient
from nbclient import NotebookClient
from perfwh.publish.kernels import execute_notebook

async def dies(self, timeout=None):
    raise RuntimeError("Kernel died before replying to kernel_info")

AsyncKernelClient._async_wait_for_ready = AsyncKernelClient.wait_for_ready = dies
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
try:
    asyncio.run(execute_notebook(NotebookClient(nb, kernel_name="python3")))
except RuntimeError as err:
    print("failed:", err)
'''


def test_a_kernel_that_fails_to_start_leaves_no_exit_hook_behind():
    # nbclient's own cleanup on this path leaves an atexit hook that fails at interpreter exit
    # ("Exception ignored in atexit callback ... AssertionError"); a page cancelled because a
    # sibling page failed took the same path now and then.
    done = subprocess.run([sys.executable, "-c", KERNEL_DIES_AT_START], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[1])
    # started again KERNEL_STARTS times (each start's hook removed), then one KernelDied
    assert done.stdout.startswith("failed: the Jupyter kernel died as it started, 3 times in a row: "
                                  "Kernel died before replying to kernel_info"), (done.stdout, done.stderr)
    assert "atexit" not in done.stderr and "AssertionError" not in done.stderr, done.stderr


KERNEL_BOOKKEEPING_LOST = '''
import asyncio
import os
import sys
import nbformat
from nbclient import NotebookClient
from perfwh.publish.kernels import execute_notebook

async def loses_count(self):  # jupyter_client no longer counts the kernel as running
    self.kc = self.km = None

NotebookClient._async_cleanup_kernel = loses_count
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
asyncio.run(execute_notebook(NotebookClient(nb, kernel_name="python3")))

sys.path.insert(0, "tests")
from support.processes import alive, kernels_of

print("kernels left:", [k for k in kernels_of(os.getpid()) if alive(k)])
'''


def test_a_kernel_its_manager_lost_count_of_is_still_ended():
    # Stopped at the wrong moment, jupyter_client's bookkeeping can say no kernel runs while
    # one does: seen as a kernel hung in its own exit after `perfwh notebooks` had ended,
    # orphaned and holding the caller's output pipe open. The run ends the process it launched.
    done = subprocess.run([sys.executable, "-c", KERNEL_BOOKKEEPING_LOST], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert done.stdout.strip() == "kernels left: []", done.stderr


def test_a_kernel_that_dies_as_it_starts_is_started_again_and_a_third_time_is_an_error():
    """jupyter_client's "Kernel died before replying to kernel_info": nothing ran, so the
    notebook runs on a fresh kernel (two pages rendered side by side on a busy machine met it);
    a kernel that dies every time is one KernelDied, not a traceback."""
    import asyncio

    from perfwh.publish import kernels

    class Client:
        def __init__(self, failures: int):
            self.failures, self.starts, self.km = failures, 0, None

        def create_kernel_manager(self):
            return type("Manager", (), {"launched": None})()

        def _cleanup_kernel(self):
            pass

        async def async_execute(self, **kwargs):
            self.starts += 1
            if self.starts <= self.failures:
                raise RuntimeError(kernels.DIED_STARTING)
            return "ran"

    twice = Client(failures=2)
    assert asyncio.run(kernels.execute_notebook(twice)) == "ran" and twice.starts == 3
    always = Client(failures=kernels.KERNEL_STARTS)
    with pytest.raises(kernels.KernelDied, match="died as it started, 3 times"):
        asyncio.run(kernels.execute_notebook(always))


def test_a_kernel_that_is_not_installed_is_one_line_naming_the_installed_ones(built_warehouse, tmp_path):
    done = subprocess.run([sys.executable, "-m", "perfwh.cli", "notebooks", "--kernel", "nosuch",
                           "--db", str(built_warehouse), "--out", str(tmp_path / "nb")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "Jupyter kernel 'nosuch' is not installed (installed: " in done.stderr and "perfwh" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 3


def test_a_name_in_a_notebooks_words_is_shown_not_run():
    """say() writes names a submitter chose (a source's file name, a scenario) into Markdown:
    whatever the name holds - raw HTML, a javascript: link, an entity, math - it shows as its own
    characters, in a code span or not (a backtick that ends the span early still runs nothing),
    and the notebooks' own emphasis, lists and code spans still work."""
    import html
    import re as regex

    import mistune
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from perfwh.publish.html import inert_markdown

    assert mistune.html(inert_markdown("* **bold** and `code`")).strip() == \
        "<ul>\n<li><strong>bold</strong> and <code>code</code></li>\n</ul>"

    pieces = st.sampled_from(["<img src=x onerror=alert(1)>", "<script>x</script>", "[click](javascript:alert(1))",
                              "<javascript:alert(1)>", "&lt;", "&#60;", "$x^2$", "`", "``", "\\", "](", "a", " ",
                              "!", "[", "]", "(", ")", "<", ">", "&"])

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(pieces, min_size=1, max_size=8).map("".join))
    def shown_as_itself(name):
        rendered = mistune.html(inert_markdown(f"The source `{name}` and {name}, measured."))
        assert not regex.search(r"<(a|img|script)\b", rendered), rendered
        text = html.unescape(regex.sub(r"<[^>]+>", "", rendered))
        if "`" not in name:  # (a backtick in a name moves where its code span ends: shown, not run)
            assert f" and {name}, measured." in text, (name, rendered)

    shown_as_itself()
