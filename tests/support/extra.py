"""A report family added to the whole test suite: ``PERFWH_EXTRA_FAMILY=<folder>`` (relative to
the project) runs every test with the family of that folder beside the real reports.

The folder holds what a new family takes, and nothing else: its raw report(s), a sources.yml
with their entries, its parser module and ``expected_values.py``. Before anything of perfwh is
imported (tests/conftest.py calls `install` first), the raw layer is copied with the family's
reports and entries added, and the environment points every process of the run - this one,
pytest-xdist's workers, and the `perfwh` commands the tests start - at it: $PERFWH_RAW (the raw
layer, `perfwh.core.paths`) and $PERFWH_FAMILY_PATH (the parser, `ingest.families`). The
family's expected values join the registry's (`support.expected`). The copy is made once, by
the first process (xdist's workers inherit the environment it set) and removed when it ends.
"""
from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

ENV = "PERFWH_EXTRA_FAMILY"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
EXPECTED = "expected_values.py"


def folder() -> Path | None:
    """The extra family's folder, or None when the suite runs on the real reports alone."""
    name = os.environ.get(ENV)
    return (PROJECT_ROOT / name).resolve() if name else None


def install() -> None:
    """Point this run at the raw layer with the extra family added (perfwh not yet imported)."""
    family_dir = folder()
    if family_dir is None:
        return
    if not (family_dir / "sources.yml").is_file() or not (family_dir / EXPECTED).is_file():
        raise RuntimeError(f"{ENV}={family_dir}: expected a family folder with sources.yml, "
                           f"{EXPECTED}, its parser module and its raw reports")
    if not os.environ.get("PERFWH_RAW"):
        os.environ["PERFWH_RAW"] = str(_raw_with(family_dir))
    paths = [p for p in os.environ.get("PERFWH_FAMILY_PATH", "").split(os.pathsep) if p]
    if str(family_dir) not in paths:
        os.environ["PERFWH_FAMILY_PATH"] = os.pathsep.join(paths + [str(family_dir)])


def _raw_with(family_dir: Path) -> Path:
    """data/raw copied, with the family's reports under reports/ and its entries appended to
    sources.yml as the manifest lays entries out."""
    import yaml

    from_project = PROJECT_ROOT / "data" / "raw"
    raw = Path(tempfile.mkdtemp(prefix="perfwh-extra-family-")) / "raw"
    atexit.register(shutil.rmtree, raw.parent, True)
    shutil.copytree(from_project, raw)
    manifest = (raw / "sources.yml").read_text(encoding="utf-8")
    entries = yaml.safe_load((family_dir / "sources.yml").read_text(encoding="utf-8"))["reports"]
    for entry in entries:
        shutil.copyfile(family_dir / entry["file"], raw / "reports" / entry["file"])
        manifest = _with_entry(manifest, entry)
    (raw / "sources.yml").write_text(manifest, encoding="utf-8")
    return raw


def _with_entry(manifest: str, entry: dict) -> str:
    # perfwh's own way of appending an entry; imported here, after the environment is set
    from perfwh.warehouse.sources import with_entry

    return with_entry(manifest, entry)


def register_expected() -> None:
    """The extra family's expected values, for `support.expected` (after perfwh is importable)."""
    family_dir = folder()
    if family_dir is None:
        return
    from ingest import families
    from support import expected

    spec = importlib.util.spec_from_file_location("extra_family_expected_values", family_dir / EXPECTED)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    extra = {f for f, m in families.families().items()
             if Path(getattr(m, "__file__", "")).resolve().parent == family_dir}
    for family in extra:
        expected.register(family, module)
