"""Fitted series back from the warehouse: the chosen model of a series refitted from its usable
points in model_predictions (the same points and code as `perfwh models`), and its curve with
a prediction band, for `perfwh size`, the notebooks and the site."""
from __future__ import annotations

import math

import duckdb

from .fit import Fit, distinct_points, fit
from .tables import query


def fit_row(con: duckdb.DuckDBPyConnection, series_id: int) -> dict:
    result = con.execute("SELECT * FROM model_fits WHERE series_id = ?", [series_id])
    names = [d[0] for d in result.description]
    found = result.fetchall()
    if not found:
        raise KeyError(f"no series {series_id} in model_fits")
    return dict(zip(names, found[0]))


def refit(con: duckdb.DuckDBPyConnection, series_id: int, row: dict | None = None) -> tuple[Fit, dict]:
    """(the chosen model fitted to the series' usable points, its model_fits row)."""
    row = row or fit_row(con, series_id)
    points = query(con, """
        SELECT message_size_bytes, observed_cpu_ms_per_msg FROM model_predictions
        WHERE series_id = ? AND NOT excluded ORDER BY message_size_bytes, source_line""", [series_id])
    x, y = distinct_points([p[0] for p in points], [p[1] for p in points])
    return fit(row["model"], x, y), row


def curve(con: duckdb.DuckDBPyConnection, series_id: int, points: int = 40, level: float = 0.90,
          lo: float | None = None, hi: float | None = None) -> list[dict]:
    """The fitted cost at ``points`` log-spaced sizes from ``lo`` to ``hi`` (default: the
    series' measured range) with the ``level`` prediction interval of a new measurement."""
    model, row = refit(con, series_id)
    lo = lo or row["min_size_bytes"]
    hi = hi or row["max_size_bytes"]
    step = (math.log(hi) - math.log(lo)) / max(points - 1, 1)
    sizes = [math.exp(math.log(lo) + i * step) for i in range(points)]
    centre, lower, upper = model.interval(sizes, row["sigma_log"], row["sigma_df"], level)
    return [{"series_id": series_id, "model": model.model, "message_size_bytes": s,
             "predicted_cpu_ms_per_msg": float(centre[i]),
             "lower": None if lower is None else float(lower[i]),
             "upper": None if upper is None else float(upper[i])}
            for i, s in enumerate(sizes)]
