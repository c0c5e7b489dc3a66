"""The analysis notebooks' shared set-up: `from perfwh.publish.notebook import *`.

The warehouse is $PERFWH_DB (set by `perfwh notebooks`), else data/curated/warehouse.duckdb,
opened read-only; charts render as static SVG drawn by vl-convert (offline, no CDN); sizes
and labels come from the vocabulary, as on the site.
"""
from __future__ import annotations

import altair as alt
import duckdb
import polars as pl
from IPython.display import Markdown, display

from ingest.vocabulary import config_label, persistence_label, size_label
from perfwh.core.paths import warehouse_path
from perfwh.publish.html import inert_markdown

DB = warehouse_path()
con = duckdb.connect(str(DB), read_only=True)
alt.renderers.enable("svg")
alt.data_transformers.disable_max_rows()
pl.Config.set_tbl_rows(40)
pl.Config.set_fmt_str_lengths(80)


def q(sql: str, params: list | None = None) -> pl.DataFrame:
    """A read-only query on the warehouse, as a Polars DataFrame."""
    return con.sql(sql, params=params).pl()


def has(table: str) -> bool:
    return q("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = ?", [table])["n"][0] > 0


def say(text: str) -> None:
    """Markdown written from the numbers (never typed in by hand), made safe (`inert_markdown`):
    the text holds names a submitter chose."""
    display(Markdown(inert_markdown(text)))


def pct(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f} %"


def printed_line(source: str, line: int) -> str | None:
    """Line ``line`` of the raw file ``source`` as the warehouse read it, wherever the raw layer
    keeps it (`perfwh.warehouse.sources.raw_line`); None if it is not there."""
    from perfwh.core.paths import raw_path
    from perfwh.warehouse.sources import raw_line

    return raw_line(raw_path(), source, line)


__all__ = ["DB", "alt", "con", "config_label", "display", "has", "pct", "persistence_label", "pl",
           "printed_line", "q", "say", "size_label"]
