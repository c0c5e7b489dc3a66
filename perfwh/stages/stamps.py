"""The stamps of `make`'s stages, by content.

Each stage of the Makefile ends by recording, in its stamp (data/curated/.stamps/STAGE), the
sha256 of every file it read (`record`). make itself decides by modification times, so a
stage would run again whenever a file it reads is newer than its stamp - and `perfwh add`
changes the raw layer (the submission's raw file, its sources.yml entry) while it brings the
warehouse, its findings and its models up to date itself. So before make decides, the
Makefile runs `refresh`: a stage whose inputs still have the contents its stamp recorded -
and whose raw layer, if it reads one, is the one the warehouse holds (raw_manifest: the
sha256 of the sources.yml it was built from or an add wrote) - gets its stamp brought
forward, in the stages' order. After an add, then, only the stages that read the warehouse
itself (the notebooks and the site) run; after a changed rule file, the rules and what
follows; on an unchanged tree, nothing.

    python -m perfwh.stages.stamps record [--reads WAREHOUSE] STAMP FILE...
    python -m perfwh.stages.stamps refresh --raw DIR --db WAREHOUSE STAMP FILE... -- STAMP FILE... -- ...
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

from perfwh.core.files import write_text_atomic
from perfwh.warehouse.db import held_manifest


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def record(stamp: Path, files: list[str], reads: Path | None = None) -> None:
    """Write ``stamp``: the sha256 of each of ``files`` (a stage's inputs) as they are now, and
    for a stage that ``reads`` the warehouse itself (the notebooks, the site: an add changes
    what they show) the manifest it held."""
    stamp = Path(stamp)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    content = {"inputs": {f: _sha256(Path(f)) for f in sorted(set(files)) if Path(f).is_file()}}
    if reads is not None:
        content["warehouse"] = held_manifest(reads)
    write_text_atomic(stamp, json.dumps(content, indent=1, sort_keys=True) + "\n")


def _current(stamp: Path, files: list[str], raw: Path, manifest_held: str | None) -> bool:
    """Whether the stage of ``stamp`` read exactly ``files`` with the contents it recorded; a
    file of the raw layer counts as unchanged when the warehouse holds the manifest as it is."""
    try:
        content = json.loads(Path(stamp).read_text(encoding="utf-8"))
        recorded = content["inputs"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if "warehouse" in content and content["warehouse"] != manifest_held:
        return False  # it shows the warehouse, which holds other sources now
    present = sorted(f for f in set(files) if Path(f).is_file())
    if sorted(recorded) != present:
        return False
    raw = Path(raw).resolve()
    for f in present:
        if _sha256(Path(f)) == recorded[f]:
            continue
        if raw in Path(f).resolve().parents and manifest_held is not None \
                and manifest_held == _sha256(raw / "sources.yml"):
            continue  # the warehouse already holds this raw layer (an add brought it there)
        return False
    return True


def _older_than_inputs(stamp: Path, files: list[str]) -> bool:
    mtime = Path(stamp).stat().st_mtime_ns
    return any(Path(f).is_file() and Path(f).stat().st_mtime_ns > mtime for f in files)


def refresh(stages: list[tuple[Path, list[str]]], raw: Path, db: Path) -> list[str]:
    """Bring forward, in order, the stamp of each stage (``(stamp, inputs)``, in the stages'
    order) that make would run only because of a modification time: its inputs hold the
    contents it recorded. A stage after one that will run is left to make. Returns the stamps
    brought forward."""
    manifest_held = held_manifest(db)
    moved = []
    for stamp, files in stages:
        stamp = Path(stamp)
        if not stamp.is_file() or not _current(stamp, files, raw, manifest_held):
            break  # it runs, and every stage after it
        if moved or _older_than_inputs(stamp, files):
            now = time.time_ns()
            os.utime(stamp, ns=(now, now))
            moved.append(str(stamp))
    return moved


def _stages(args: list[str]) -> list[tuple[Path, list[str]]]:
    stages, current = [], []
    for arg in args + ["--"]:
        if arg == "--":
            if current:
                stages.append((Path(current[0]), current[1:]))
            current = []
        else:
            current.append(arg)
    return stages


def main(argv: list[str]) -> int:
    if argv[:2] == ["record", "--reads"] and len(argv) >= 4:
        record(Path(argv[3]), argv[4:], reads=Path(argv[2]))
        return 0
    if argv[:1] == ["record"] and len(argv) >= 2:
        record(Path(argv[1]), argv[2:])
        return 0
    if argv[:1] == ["refresh"] and len(argv) >= 5 and argv[1] == "--raw" and argv[3] == "--db":
        refresh(_stages(argv[5:]), Path(argv[2]), Path(argv[4]))
        return 0
    print(__doc__.strip().splitlines()[-2:], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
