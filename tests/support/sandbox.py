"""A private copy of the raw layer and of a built warehouse, for a test that files into them."""
from __future__ import annotations

import shutil
from pathlib import Path

from perfwh.core.paths import RAW_DIR


def private_layers(folder: Path, warehouse: Path, raw_dir: Path = RAW_DIR) -> dict:
    """``raw_dir`` copied to folder/raw and ``warehouse`` to folder/curated/warehouse.duckdb (as
    the project lays them out): {"raw", "sources", "db", "tmp"}."""
    raw = folder / "raw"
    shutil.copytree(raw_dir, raw)
    db = folder / "curated" / "warehouse.duckdb"
    db.parent.mkdir()
    shutil.copyfile(warehouse, db)
    return {"raw": raw, "sources": raw / "sources.yml", "db": db, "tmp": folder}
