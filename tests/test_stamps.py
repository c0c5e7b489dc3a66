"""`make` re-runs a stage when what it reads changed in content, not when a file was touched.

The stamps record the sha256 of each stage's inputs (perfwh/stages/stamps.py), and the
Makefile brings a stamp forward when its inputs hold what it recorded. These tests run `make
-n` in a copy of the project (a virtual environment that is the test's own interpreter; a
warehouse that holds only what the stamps read of it, its raw_manifest) and read which
stages it would run.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from perfwh.core.paths import PROJECT_ROOT

STAGES = ("build", "findings", "models", "notebooks", "site")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hold_manifest(tree: Path) -> None:
    """What `perfwh build` or `perfwh add` leaves in the warehouse: the sha256 of the
    sources.yml it holds."""
    db = tree / "data" / "curated" / "warehouse.duckdb"
    con = duckdb.connect(str(db))
    try:
        con.execute("CREATE OR REPLACE TABLE raw_manifest (sha256 VARCHAR)")
        con.execute("INSERT INTO raw_manifest VALUES (?)", [sha256(tree / "data" / "raw" / "sources.yml")])
    finally:
        con.close()


def make_n(tree: Path) -> str:
    done = subprocess.run(["make", "-n"], cwd=tree, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def stages_run(tree: Path) -> list[str]:
    out = make_n(tree)
    return [s for s in STAGES if f".venv/bin/perfwh {s}" in out]


@pytest.fixture
def made(tmp_path) -> Path:
    """A copy of the project with every stage made: each stamp recorded by the very command
    the Makefile ends the stage with."""
    tree = tmp_path / "tree"
    shutil.copytree(PROJECT_ROOT, tree, ignore=shutil.ignore_patterns(
        ".venv", "data", ".git", "*_site*", "__pycache__", ".pytest_cache", ".hypothesis"))
    shutil.copytree(PROJECT_ROOT / "data" / "raw", tree / "data" / "raw")
    (tree / "data" / "curated").mkdir()
    real = Path(sys.prefix)  # the test's own virtual environment, seen from the copy
    venv = tree / ".venv"
    (venv / "bin").mkdir(parents=True)
    shutil.copyfile(real / "pyvenv.cfg", venv / "pyvenv.cfg")
    (venv / "lib").symlink_to(real / "lib")
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / "bin" / "perfwh").symlink_to(real / "bin" / "perfwh")
    (venv / ".installed").write_text("installed\n")
    hold_manifest(tree)
    recipes = [line for line in make_n(tree).splitlines() if "perfwh.stages.stamps record" in line]
    assert len(recipes) == len(STAGES), recipes
    for line in recipes:
        subprocess.run(shlex.split(line), cwd=tree, check=True,
                       env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    return tree


def test_an_unchanged_tree_runs_nothing_even_when_touched(made):
    assert stages_run(made) == []
    made_at = time.time() - 3600
    for stamp in (made / "data" / "curated" / ".stamps").iterdir():
        os.utime(stamp, (made_at, made_at))
    touched = made_at + 60  # a checkout touches them after the stages ran; their contents are the same
    for path in [*(made / "rules").glob("*.sql"), made / "data" / "raw" / "sources.yml"]:
        os.utime(path, (touched, touched))
    assert stages_run(made) == []


def test_after_an_add_only_what_reads_the_warehouse_runs(made):
    """`perfwh add` files the raw file and its sources.yml entry and brings the warehouse,
    findings and models up to date itself: the notebooks and the site show the warehouse, so
    they run, and nothing before them."""
    raw = made / "data" / "raw"
    (raw / "submissions").mkdir(exist_ok=True)
    (raw / "submissions" / "lab results #1.csv").write_text("product,platform\n")
    with open(raw / "sources.yml", "a", encoding="utf-8") as handle:
        handle.write("\n# an entry an add wrote\n")
    hold_manifest(made)  # the warehouse the add committed holds that manifest
    assert stages_run(made) == ["notebooks", "site"]


def test_an_add_interrupted_before_its_commit_runs_nothing(made):
    """An add stopped before its commit point staged files in the raw layer's folders and took
    them out again (or left them for `perfwh recover`): the folders' times moved, no raw file
    changed, so no stage runs - it rebuilt everything, and rewrote the lake."""
    raw = made / "data" / "raw"
    (raw / "submissions").mkdir(exist_ok=True)
    newest = max(p.stat().st_mtime_ns for p in (made / "data" / "curated" / ".stamps").iterdir())
    while time.time_ns() <= newest + 10_000_000:  # the folders' times after every stamp's
        time.sleep(0.01)
    for folder in (raw, raw / "submissions"):
        staged = folder / ".lab.csv.tmp-4242"
        staged.write_text("staged\n")
        staged.unlink()
    (raw / ".sources.yml.tmp-4243").write_text("left for recover\n")
    assert stages_run(made) == []


def test_a_changed_input_runs_its_stage_and_those_after_it(made):
    rule = sorted((made / "rules").glob("*.sql"))[0]
    rule.write_text(rule.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert stages_run(made) == ["findings", "models", "notebooks", "site"]


def test_a_raw_layer_the_warehouse_does_not_hold_is_built(made):
    """A raw file changed by hand (not by an add): the warehouse holds another manifest."""
    with open(made / "data" / "raw" / "sources.yml", "a", encoding="utf-8") as handle:
        handle.write("\n# edited by hand\n")
    assert stages_run(made) == list(STAGES)
