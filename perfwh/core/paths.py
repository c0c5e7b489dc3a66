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
CURATED_DIR = PROJECT_ROOT / "data" / "curated"
WAREHOUSE = CURATED_DIR / "warehouse.duckdb"
SCHEMA_DIR = PROJECT_ROOT / "schema"
RULES_DIR = PROJECT_ROOT / "rules"
NOTEBOOKS_DIR = PROJECT_ROOT / "notebooks"
SITE_DIR = PROJECT_ROOT / "site"
DICTIONARY = SCHEMA_DIR / "dictionary.yml"
# The npm packages the published Data Docs load (site/vendor/package.json; `make install`).
VENDOR_NODE_MODULES = PROJECT_ROOT / ".venv" / "site-vendor" / "node_modules"

# The environment variable through which notebooks and site pages are told which warehouse
# to read (set by `perfwh notebooks` and `perfwh site`).
DB_ENV = "PERFWH_DB"


def warehouse_path(given: str | os.PathLike | None = None) -> Path:
    """The warehouse to use: ``given``, else $PERFWH_DB, else data/curated/warehouse.duckdb."""
    return Path(given or os.environ.get(DB_ENV) or WAREHOUSE)


@contextlib.contextmanager
def warehouse_env(db: os.PathLike | str):
    """$PERFWH_DB set to ``db`` for the block (notebooks and pages read the warehouse it names)."""
    old = os.environ.get(DB_ENV)
    os.environ[DB_ENV] = str(db)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(DB_ENV, None)
        else:
            os.environ[DB_ENV] = old


class NotAWarehouse(RuntimeError):
    """A path given as the warehouse (--db, $PERFWH_DB) that is not one; the message says what
    it is instead and what to do (`perfwh.warehouse.db.require_warehouse`)."""
