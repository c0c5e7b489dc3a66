"""The predictive distribution of a left-out point: a Student t on the log scale whose scale and
degrees of freedom are calibrated on the standardised leave-one-size-out errors of the report's
other series. One distribution gives every level, so a 90 % interval lies inside the 99 % one
by construction.

scipy is imported inside the functions that need it (see `models.fit`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .spec import MIN_CALIBRATION_SCORES, PRIOR_DF

DF_BOUNDS = (1.0, 1000.0)


@dataclass(frozen=True)
class Predictive:
    """A Student t on the log scale: a point with predictive variance v has log(cost) ~
    log(predicted) + scale * sqrt(v) * t(df)."""

    scale: float
    df: float
    scores: int  # how many leave-one-size-out errors calibrated it (0: none, the model's own)

    def half_width(self, level: float, sd: float) -> float:
        from scipy.special import stdtrit

        return self.scale * float(stdtrit(self.df, 0.5 + level / 2.0)) * sd


UNCALIBRATED = Predictive(1.0, PRIOR_DF, 0)


def calibrate(scores) -> Predictive:
    """The Student t (scale, degrees of freedom) that fits the standardised errors ``scores``
    best (maximum likelihood); the model's own t (PRIOR_DF, scale 1) where fewer than
    MIN_CALIBRATION_SCORES are available."""
    z2 = np.square(np.asarray(scores, dtype=float))
    z2 = z2[z2 > 0]  # an exact prediction carries no scale
    if len(z2) < MIN_CALIBRATION_SCORES:
        return UNCALIBRATED
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
    df = math.exp(found.x)
    return Predictive(scale_for(df), df, len(z2))
