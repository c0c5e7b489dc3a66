"""The analysis notebooks' shared set-up: `from perfwh.publish.notebook import *`.

The warehouse is $PERFWH_DB (set by `perfwh notebooks`), else data/curated/warehouse.duckdb,
opened read-only; charts render as static SVG drawn by vl-convert (offline, no CDN); sizes
and labels come from the vocabulary, as on the site.
"""
from __future__ import annotations

import re

import altair as alt
import duckdb
import polars as pl
from IPython.display import Markdown, display

from ingest.vocabulary import config_label, persistence_label, size_label
from perfwh.core.paths import warehouse_path

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


# A code span: a run of backticks, what it holds, the same run again (CommonMark).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# What outside a code span could begin markup that acts or pretends: raw HTML (<img onerror>,
# <script>), an autolink or a link ([x](javascript:...)), an entity (&lt;), math ($...$) - each
# written escaped, which shows it as itself.
_ACTIVE = re.compile(r"([\\<>\[\]$&])")


def inert_markdown(text: str) -> str:
    """``text`` with the characters that would start HTML, a link, an entity or math escaped
    outside its code spans (inside one, Markdown shows everything as it is). The notebooks' own
    Markdown uses emphasis, lists and code spans alone, which this leaves working; a name that
    holds `<img src=x onerror=...>` or `[click](javascript:...)` prints as those characters."""
    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_ACTIVE.sub(r"\\\1", text[at:span.start()]), span.group(0)]
        at = span.end()
    out.append(_ACTIVE.sub(r"\\\1", text[at:]))
    return "".join(out)


def pct(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f} %"


def printed_line(source: str, line: int) -> str | None:
    """Line ``line`` of the raw file ``source`` as the warehouse read it, wherever the raw layer
    keeps it (`perfwh.warehouse.sources.raw_line`); None if it is not there."""
    from perfwh.core.paths import raw_path
    from perfwh.warehouse.sources import raw_line

    return raw_line(raw_path(), source, line)


__all__ = ["DB", "alt", "con", "config_label", "display", "has", "pct", "persistence_label", "pl",
           "printed_line", "q", "say", "size_label"]  # inert_markdown: import it by name
