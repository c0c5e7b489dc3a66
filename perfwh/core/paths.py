"""Where things live: the one definition of the project's folders and the warehouse path."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The raw layer: data/raw, or the folder $PERFWH_RAW names (another raw layer of the same shape,
# as the tests use for a fixture family added to the reports).
RAW_ENV = "PERFWH_RAW"
RAW_DIR = Path(os.environ.get(RAW_ENV) or PROJECT_ROOT / "data" / "raw")
SOURCES_FILE = RAW_DIR / "sources.yml"
# The raw layer's folders of raw files, beside its manifest: the reports as published, and the
# submissions `perfwh add` files.
RAW_REPORTS, RAW_SUBMISSIONS = "reports", "submissions"
RAW_FILE_FOLDERS = (RAW_REPORTS, RAW_SUBMISSIONS)
# The project's own manifest, whichever raw layer $PERFWH_RAW names: it belongs to WAREHOUSE.
PROJECT_SOURCES = PROJECT_ROOT / "data" / "raw" / "sources.yml"
CURATED_DIR = PROJECT_ROOT / "data" / "curated"
WAREHOUSE = CURATED_DIR / "warehouse.duckdb"
SCHEMA_DIR = PROJECT_ROOT / "schema"
RULES_DIR = PROJECT_ROOT / "rules"
NOTEBOOKS_DIR = PROJECT_ROOT / "notebooks"
SITE_DIR = PROJECT_ROOT / "site"
DICTIONARY = SCHEMA_DIR / "dictionary.yml"
# The npm packages the published Data Docs load (site/vendor/package.json; `make install`).
VENDOR_NODE_MODULES = PROJECT_ROOT / ".venv" / "site-vendor" / "node_modules"

# The environment variables through which notebooks and site pages are told which warehouse
# to read, and where the raw texts it was built from are (set by `perfwh notebooks` and
# `perfwh site`).
DB_ENV = "PERFWH_DB"
RAW_ENV = "PERFWH_RAW"


def warehouse_path(given: str | os.PathLike | None = None) -> Path:
    """The warehouse to use: ``given``, else $PERFWH_DB, else data/curated/warehouse.duckdb."""
    return Path(given or os.environ.get(DB_ENV) or WAREHOUSE)


def raw_path(given: str | os.PathLike | None = None) -> Path:
    """Where to look for the raw texts a warehouse was built from: ``given``, else
    $PERFWH_RAW, else data/raw (a text is used only if its sha256 is the one the warehouse
    recorded)."""
    return Path(given or os.environ.get(RAW_ENV) or RAW_DIR)


@contextlib.contextmanager
def warehouse_env(db: os.PathLike | str, raw: os.PathLike | str | None = None):
    """$PERFWH_DB set to ``db`` (and $PERFWH_RAW to ``raw`` if given) for the block: notebooks
    and pages read the warehouse they name."""
    wanted = {DB_ENV: str(db), **({RAW_ENV: str(raw)} if raw is not None else {})}
    old = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class NotAWarehouse(RuntimeError):
    """A path given as the warehouse (--db, $PERFWH_DB) that is not one; the message says what
    it is instead and what to do (`perfwh.warehouse.db.require_warehouse`)."""
