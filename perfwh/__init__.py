"""perfwh: a performance-results data warehouse for IBM integration middleware reports."""
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
RAW_DIR = PROJECT_ROOT / "data" / "raw"
SOURCES_FILE = RAW_DIR / "sources.yml"
CURATED_DIR = PROJECT_ROOT / "data" / "curated"
WAREHOUSE = CURATED_DIR / "warehouse.duckdb"
SCHEMA_DIR = PROJECT_ROOT / "schema"
RULES_DIR = PROJECT_ROOT / "rules"
