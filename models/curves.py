"""Fitted series back from the warehouse: a series' predictive curve at any size, for `perfwh
size`, the notebooks and the site - the same predictions and intervals `perfwh models` wrote.

At each of its sizes a series has its leave-one-size-out prediction in model_predictions (its
line fitted without the size, times what the report's series share there) with the log-scale
SD of its predictive distribution (``sd_log``); model_fits holds the distribution's calibration
(``interval_scale``, ``interval_df``) and the test's own scatter (``spread_sd_log``). At a
measured size the curve's centre is the measurement weighed against that prediction (`weighed`):
the prediction, a Student t, is the prior; the size's measurements, scattering by the test's
spread, the likelihood; the centre is the posterior median. Where the test scatters little the
centre is the measurement (a planner asking at 2 MB gets what was measured at 2 MB, not what
the other sizes would have guessed); where the measurement lies within the prediction's
spread of its scatter both count. The interval is at least as wide as the prediction's - the
width whose coverage model_accuracy checks against the measurements: each report prints one
run per point, so how far a rerun strays from the printed one is not known more narrowly - and
wider where a rerun (the posterior plus the test's scatter) strays further (`rerun_sd`): where
measurement and prediction disagree in a test that scatters, the interval holds both. A size
whose every measurement is left out (an error finding) keeps its prediction.
Between the measured sizes the curve is the series' line fitted to all its usable points,
corrected by the ratio centre / line of the neighbouring sizes, interpolated in log size, and
so is the SD, widened by how far the correction steps between those sizes (what lies between
two measured sizes is not measured: a Brownian bridge as rough as that step). Beyond the measured sizes the end's correction is kept and its SD grows with the
line's own uncertainty there (its leverage).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import duckdb
import numpy as np

from .fit import KIB, Fit, distinct_points, fit
from .calibration import Predictive
from .spec import LINEAR, NARROW_LEVEL
from .tables import query


def fit_row(con: duckdb.DuckDBPyConnection, series_id: int) -> dict:
    result = con.execute("SELECT * FROM model_fits WHERE series_id = ?", [series_id])
    names = [d[0] for d in result.description]
    found = result.fetchall()
    if not found:
        raise KeyError(f"no series {series_id} in model_fits")
    return dict(zip(names, found[0]))


def refit(con: duckdb.DuckDBPyConnection, series_id: int, row: dict | None = None) -> tuple[Fit, dict]:
    """(the series' line fitted to its usable points in model_predictions - the same points
    and code as `perfwh models` - and its model_fits row)."""
    row = row or fit_row(con, series_id)
    points = query(con, """
        SELECT message_size_bytes, observed_cpu_ms_per_msg FROM model_predictions
        WHERE series_id = ? AND NOT excluded ORDER BY message_size_bytes, source_line""", [series_id])
    x, y = distinct_points([p[0] for p in points], [p[1] for p in points])
    return fit(row["model"], x, y), row


# The posterior's grid: this many points either side of the prior's and of the likelihood's
# centre, out to GRID_REACH of their scales (the t's tails beyond hold a negligible mass at
# the likelihood's distance, which is where the median lies when the two disagree).
GRID_POINTS = 1201
GRID_REACH = 40.0
RERUN_DRAWS = 199  # the posterior's quantiles a rerun's distribution is mixed from
RERUN_BISECTIONS = 40  # halvings of the bracket of a rerun's quantile: far below a printed digit


def weighed(prior_log: float, prior_sd: float | None, predictive: Predictive,
            observed_logs: list[float], spread: float | None) -> float:
    """The log cost at a measured size: the posterior median of a prior - the size's
    leave-one-size-out prediction ``prior_log``, a Student t of scale ``predictive.scale`` x
    ``prior_sd`` and ``predictive.df`` degrees of freedom (the distribution the intervals use)
    - and the likelihood of the size's measurements, normal about their mean with the test's
    ``spread`` over the root of their number. The prior is that of a new measurement, a little
    wider than that of the cost curve itself: the measurement counts, if anything, more. With
    no measurement the prediction; with no prior SD or no spread (a report with no other series)
    the measurement: there is nothing to weigh it against."""
    if not observed_logs:
        return prior_log
    found = _posterior(prior_log, prior_sd, predictive, observed_logs, spread)
    if found is None:
        return float(np.mean(observed_logs))
    mu, mass = found
    return float(np.interp(0.5, mass, mu))


def rerun_sd(prior_log: float, prior_sd: float | None, predictive: Predictive,
             observed_logs: list[float], spread: float | None) -> float | None:
    """The SD the interval at a measured size uses: the prediction's, or wider where a rerun -
    the posterior cost curve (`weighed`) plus the test's own scatter - strays further: where
    the measurement and the prediction disagree and the test scatters (ACE 13's MQ Aggregation
    at 200 KB measured 13.58 ms against 29.7 predicted, a spread of 19 %), an interval as narrow
    as the prediction's would hold neither. Expressed as the SD whose ``predictive`` 90 %
    interval is the rerun's, so that every level comes from one distribution."""
    found = _posterior(prior_log, prior_sd, predictive, observed_logs, spread)
    if found is None:
        return prior_sd
    mu, mass = found
    from scipy.special import ndtr

    draws = np.interp((np.arange(RERUN_DRAWS) + 0.5) / RERUN_DRAWS, mass, mu)
    tail = (1 - NARROW_LEVEL) / 2
    # the rerun's quantiles at both tails, by bisection (its CDF is the draws' normal CDFs' mean)
    targets = np.array([tail, 1 - tail])
    low = np.full(2, draws.min() - 8 * spread)
    high = np.full(2, draws.max() + 8 * spread)
    for _ in range(RERUN_BISECTIONS):
        mid = 0.5 * (low + high)
        below = ndtr((mid[:, None] - draws[None, :]) / spread).mean(axis=1) < targets
        low, high = np.where(below, mid, low), np.where(below, high, mid)
    lower, upper = 0.5 * (low + high)
    centre = float(np.interp(0.5, mass, mu))
    half = max(centre - float(lower), float(upper) - centre)
    return max(prior_sd, half / predictive.half_width(NARROW_LEVEL, 1.0))


def _posterior(prior_log: float, prior_sd: float | None, predictive: Predictive,
               observed_logs: list[float], spread: float | None) -> tuple[np.ndarray, np.ndarray] | None:
    """(log costs, the posterior's cumulative mass there, 0 to 1) of `weighed`, or None where
    there is nothing to weigh."""
    if not observed_logs or prior_sd is None or spread is None or prior_sd <= 0 or spread <= 0:
        return None
    mean = float(np.mean(observed_logs))
    noise = float(spread) / math.sqrt(len(observed_logs))
    scale = predictive.scale * prior_sd
    reach = np.linspace(-GRID_REACH, GRID_REACH, GRID_POINTS)
    mu = np.unique(np.concatenate([prior_log + scale * reach, mean + noise * reach]))
    log_density = (-(predictive.df + 1) / 2 * np.log1p(np.square((mu - prior_log) / scale) / predictive.df)
                   - 0.5 * np.square((mu - mean) / noise))
    density = np.exp(log_density - log_density.max())
    mass = np.concatenate([[0.0], np.cumsum(0.5 * (density[1:] + density[:-1]) * np.diff(mu))])
    return mu, mass / mass[-1]


@dataclass(frozen=True)
class Anchor:
    """A size of the series: log(centre / line) there (`weighed`) and the prediction's SD."""

    size: float
    correction: float
    sd: float | None


def line_of(row: dict, sizes) -> Fit:
    """The series' line from its model_fits row (the fit `refit` repeats), with (J'J)^-1 at its
    usable ``sizes`` for the leverage: no least squares again, for a page that draws every series."""
    a, b = row["fixed_ms"], row["ms_per_kb"]
    u = np.asarray(sorted(sizes), dtype=float) / KIB
    f = np.maximum(a + b * u, 1e-300)
    jacobian = np.column_stack([1.0 / f, u / f])
    inverse = np.linalg.pinv(jacobian.T @ jacobian)
    return Fit(LINEAR, (a, b), ((float(inverse[0, 0]), float(inverse[0, 1])),
                                (float(inverse[1, 0]), float(inverse[1, 1]))),
               float("nan"), row["distinct_points"], tuple(float(s) for s in sorted(sizes)))


class SeriesCurve:
    """A fitted series' predictive curve (see the module's docstring)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, series_id: int, row: dict | None = None):
        self.row = row or fit_row(con, series_id)
        self.predictive = Predictive(self.row["interval_scale"] or 1.0, self.row["interval_df"] or 1.0,
                                     self.row["calibration_scores"] or 0)
        found = query(con, """
            SELECT message_size_bytes, arg_min(predicted_cpu_ms_per_msg, (excluded, source_line)),
                   arg_min(sd_log, (excluded, source_line)), bool_and(excluded),
                   list(DISTINCT observed_cpu_ms_per_msg ORDER BY observed_cpu_ms_per_msg)
                       FILTER (WHERE NOT excluded)
            FROM model_predictions WHERE series_id = ? GROUP BY message_size_bytes
            ORDER BY message_size_bytes""", [series_id])
        self.line = line_of(self.row, [size for size, _p, _sd, excluded, _o in found if not excluded])
        spread = self.row.get("spread_sd_log")
        self.anchors = []
        for size, predicted, sd, _excluded, observed in found:
            sd = None if sd is None else float(sd)
            measured = [math.log(v) for v in observed or [] if v and v > 0]
            centre = weighed(math.log(predicted), sd, self.predictive, measured, spread)
            sd = rerun_sd(math.log(predicted), sd, self.predictive, measured, spread)
            self.anchors.append(Anchor(float(size), centre - math.log(float(self.line.predict([size])[0])), sd))

    def _at(self, size: float) -> tuple[float, float | None]:
        """(log correction, SD) at ``size``."""
        a = self.anchors
        if size <= a[0].size or size >= a[-1].size:
            end = a[0] if size <= a[0].size else a[-1]
            if end.sd is None or size == end.size:
                return end.correction, end.sd
            growth = math.sqrt((1.0 + float(self.line.leverage([size])[0])) /
                               (1.0 + float(self.line.leverage([end.size])[0])))
            return end.correction, end.sd * max(growth, 1.0)
        right = next(i for i, anchor in enumerate(a) if anchor.size >= size)
        lo, hi = a[right - 1], a[right]
        w = (math.log(size) - math.log(lo.size)) / (math.log(hi.size) - math.log(lo.size))
        if lo.sd is None or hi.sd is None:
            return (1 - w) * lo.correction + w * hi.correction, None
        # The correction between two measured sizes is not measured: it is read as a Brownian
        # bridge from one to the other, as rough as the step it takes between them (ACE 13's
        # JSON Parse, 13-fold off the line at 2 MB and on it at 200 KB, is not known to +-12 %
        # at 1 MB); where the line holds at both ends the step, and the term, is near nothing.
        bridge = abs(hi.correction - lo.correction) * math.sqrt(w * (1 - w))
        sd = math.hypot((1 - w) * lo.sd + w * hi.sd, bridge)
        return (1 - w) * lo.correction + w * hi.correction, sd

    def at(self, sizes, level: float = NARROW_LEVEL):
        """(median, lower, upper) of a new measurement at each size; lower/upper are None where
        the series has no predictive SD (a report with no other series). Between two measured
        sizes the limits stay within what those sizes' own limits span: a cost between two
        sizes lies between theirs, however rough the step from one to the other."""
        sizes = np.atleast_1d(np.asarray(sizes, dtype=float))
        line = self.line.predict(sizes)
        found = [self._at(float(s)) for s in sizes]
        centre = line * np.exp([c for c, _ in found])
        if any(sd is None for _, sd in found):
            return centre, None, None
        half = np.array([min(self.predictive.half_width(level, sd), 700.0) for _, sd in found])
        lower, upper = centre * np.exp(-half), centre * np.exp(half)
        for i, size in enumerate(sizes):
            hull = self._between(float(size), level)
            if hull is not None:
                lower[i], upper[i] = max(lower[i], hull[0]), min(upper[i], hull[1])
        return centre, lower, upper

    def _between(self, size: float, level: float) -> tuple[float, float] | None:
        """(lowest, highest) of the ``level`` limits at the measured sizes either side of
        ``size``, or None at or beyond the measured sizes."""
        a = self.anchors
        if size <= a[0].size or size >= a[-1].size or any(x.size == size for x in a):
            return None
        right = next(i for i, anchor in enumerate(a) if anchor.size >= size)
        limits = []
        for anchor in (a[right - 1], a[right]):
            if anchor.sd is None:
                return None
            middle = float(self.line.predict([anchor.size])[0]) * math.exp(anchor.correction)
            half = min(self.predictive.half_width(level, anchor.sd), 700.0)
            limits += [middle * math.exp(-half), middle * math.exp(half)]
        return min(limits), max(limits)


def curve(con: duckdb.DuckDBPyConnection, series_id: int, points: int = 40, level: float = NARROW_LEVEL,
          lo: float | None = None, hi: float | None = None) -> list[dict]:
    """The predicted cost at ``points`` log-spaced sizes from ``lo`` to ``hi`` (default: the
    series' measured range) with the ``level`` prediction interval of a new measurement."""
    series = SeriesCurve(con, series_id)
    lo = lo or series.row["min_size_bytes"]
    hi = hi or series.row["max_size_bytes"]
    step = (math.log(hi) - math.log(lo)) / max(points - 1, 1)
    sizes = [math.exp(math.log(lo) + i * step) for i in range(points)]
    centre, lower, upper = series.at(sizes, level)
    return [{"series_id": series_id, "model": series.row["model"], "message_size_bytes": s,
             "predicted_cpu_ms_per_msg": float(centre[i]),
             "lower": None if lower is None else float(lower[i]),
             "upper": None if upper is None else float(upper[i])}
            for i, s in enumerate(sizes)]
