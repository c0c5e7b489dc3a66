"""The predictive distribution of a left-out point: a Student t on the log scale whose shape and
scale are calibrated on the standardised leave-one-size-out errors of the report's other series.
One distribution gives every level, so a 90 % interval lies inside the 99 % one by construction.

Its degrees of freedom - how heavy its tails are, and so how much wider the 99 % interval is
than the 90 % one - are those of the t that fits the errors best (maximum likelihood). Its scale
puts the 90 % interval, the one a planner acts on, where the errors put it: the errors' own 90 %
quantile, the half-width of least interval score (Gneiting and Raftery's proper score for an
interval, the score model_accuracy reports). The likelihood's own scale answers to every error
alike, the tight bulk and the few slips of the tail together, and its 90 % quantile need not be
the errors': ACE 13's errors, nine in ten within 1.7 SD and four slips beyond 3.5, got ts of
1.6-2.9 degrees of freedom whose 90 % intervals held 90-93 % of them and were a median 23 %
wider than the 90 % quantile. The 99 % level is left to the fitted tail, not to the errors' 99 % quantile: of a
report's 70 to 150 errors that is the largest or the second largest, which one slip moves.

scipy is imported inside the functions that need it (see `models.fit`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .spec import MIN_CALIBRATION_SCORES, NARROW_LEVEL, PRIOR_DF

DF_BOUNDS = (1.0, 1000.0)


@dataclass(frozen=True)
class Predictive:
    """A Student t on the log scale: a point with predictive variance v has log(cost) ~
    log(predicted) + scale * sqrt(v) * t(df)."""

    scale: float
    df: float
    scores: int  # how many leave-one-size-out errors calibrated it (0: none, the model's own)

    def half_width(self, level: float, sd: float) -> float:
        return self.scale * _quantile(self.df, level) * sd


UNCALIBRATED = Predictive(1.0, PRIOR_DF, 0)


def _quantile(df: float, level: float) -> float:
    """The half-width of the central ``level`` interval of a standard t of ``df`` degrees of freedom."""
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.5 + level / 2.0))


def calibrate(scores) -> Predictive:
    """The Student t of the maximum-likelihood degrees of freedom for the standardised errors
    ``scores``, scaled so that its 90 % interval is their 90 % quantile (`level_quantile`); the
    model's own t (PRIOR_DF, scale 1) where fewer than MIN_CALIBRATION_SCORES are available."""
    sizes = np.abs(np.asarray(scores, dtype=float))
    sizes = np.sort(sizes[sizes > 0])  # an exact prediction carries no scale
    if len(sizes) < MIN_CALIBRATION_SCORES:
        return UNCALIBRATED
    df = _likeliest_df(np.square(sizes))
    return Predictive(level_quantile(sizes, NARROW_LEVEL) / _quantile(df, NARROW_LEVEL), df, len(sizes))


def level_quantile(sizes: np.ndarray, level: float) -> float:
    """The smallest half-width within which at least ``level`` of the errors of absolute
    ``sizes`` (sorted ascending) lie - the ceil(n x level)-th smallest, their empirical quantile -
    which is the half-width of least mean interval score at ``level``: the score, (1 - level) x
    the half-width plus the mean distance of the errors beyond it, falls while fewer than
    n x level errors lie inside and no longer falls after."""
    n = len(sizes)
    return float(sizes[max(math.ceil(round(n * level, 9)) - 1, 0)])


def _likeliest_df(z2: np.ndarray) -> float:
    """The degrees of freedom of the Student t (scale and df both free) of greatest likelihood
    for errors whose squares are ``z2`` (all > 0)."""
    from scipy.optimize import brentq, minimize_scalar
    from scipy.special import gammaln

    # the root lies between the smallest and the largest z^2 (there excess is > 0, < 0)
    low, high = math.log(float(z2.min())) - 1.0, math.log(float(z2.max())) + 1.0

    def scale_for(df: float) -> float:
        """The likelihood's scale at ``df``: mean((df + 1) z^2 / (df s^2 + z^2)) = 1, a
        decreasing function of s^2, solved on log s^2."""
        def excess(log_scale2: float) -> float:
            return float(np.mean((df + 1) * z2 / (df * math.exp(log_scale2) + z2))) - 1.0

        return math.exp(0.5 * brentq(excess, low, high, xtol=1e-9))

    def negative_log_likelihood(log_df: float) -> float:
        df = math.exp(log_df)
        scale = scale_for(df)
        return -(len(z2) * (gammaln((df + 1) / 2) - gammaln(df / 2) - 0.5 * math.log(df * math.pi)
                            - math.log(scale))
                 - (df + 1) / 2 * float(np.sum(np.log1p(z2 / (scale * scale * df)))))

    found = minimize_scalar(negative_log_likelihood, bounds=tuple(math.log(v) for v in DF_BOUNDS),
                            method="bounded", options={"xatol": 1e-3})
    return math.exp(found.x)
