"""CPU cost against message size: the series' own curves and leave-one-size-out.

Both curves describe the *median* CPU cost per message, with multiplicative (log-normal)
errors, so that a 2 KB message costing 0.3 ms and a 20 MB message costing 3000 ms weigh
alike and every interval stays positive:

- ``linear``: cost = fixed_ms + ms_per_kb x KB (a fixed cost per message plus a cost per
  KB, both >= 0), fitted by non-linear least squares on log(cost);
- ``power``:  cost = ms_at_1kb x KB ** exponent, ordinary least squares in log-log space.

KB = bytes / 1024 (the reports' convention; pages label it KiB, `ingest.vocabulary.KIB_NAME`). Residuals and residual variances (``rss``) are on
the natural-log scale. Parameter intervals are Wald intervals with Student's t. The prediction
of a left-out size and its interval are not made here: the line of the other sizes alone
(``leave_one_size_out``) is kept for comparison and for the guard against a slip among those
sizes, and `models.hierarchy` fits that line again with what the report's other series share
(`models.calibration` the predictive distribution).

numpy is imported here at module level, scipy (slow to import) inside the functions that
need it: `perfwh check` on a submission without a series to fit does not pay for it. Import
this module only where fitting happens (the CLI imports it inside its command functions).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

from ingest.vocabulary import KIB as KIB_BYTES
from .spec import LINEAR, MIN_SIZES, MODELS, POWER  # noqa: F401 - the library's names

KIB = float(KIB_BYTES)  # ms_per_kb is per this many bytes (pages label it ingest.vocabulary.KIB_NAME)


def import_scipy_meanwhile() -> None:
    """Start importing what the fits use of scipy (here and in `models.hierarchy`: about half
    a second) on a thread of its own, for a command that will fit after other work (a check's
    first pass of the rules): DuckDB lets go of the interpreter while it runs a query, so the
    import costs the command next to no time. A fit that comes first waits for the import to
    finish (Python's import lock), then finds it done."""
    def import_scipy():
        import scipy.optimize  # noqa: F401
        import scipy.special  # noqa: F401

    threading.Thread(target=import_scipy, name="perfwh-import-scipy", daemon=True).start()


class FitError(ValueError):
    """The points cannot be fitted (fewer than two sizes, non-positive costs)."""


def t_quantile(df: float, level: float) -> float | None:
    """Two-sided Student t quantile for a central interval of ``level``; None when df < 1."""
    if df is None or df < 1:
        return None
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.5 + level / 2.0))


@dataclass(frozen=True)
class Fit:
    """One model fitted to (size, cost) points.

    ``theta`` is the working parametrisation: linear (fixed_ms, ms_per_kb);
    power (ln ms_at_1kb, exponent). ``xtx_inv`` is (J'J)^-1 of the log-scale model at the
    optimum, so that Cov(theta) = sigma^2 * xtx_inv.
    """

    model: str
    theta: tuple[float, float]
    xtx_inv: tuple[tuple[float, float], tuple[float, float]]
    rss: float
    n: int
    sizes: tuple[float, ...]  # the distinct sizes (bytes) the fit used, ascending
    tss: float = 0.0          # total sum of squares of log(cost) about its mean

    @property
    def df(self) -> int:
        return self.n - 2

    @property
    def own_sigma(self) -> float | None:
        return math.sqrt(self.rss / self.df) if self.df > 0 else None

    @property
    def r2_log(self) -> float | None:
        return 1.0 - self.rss / self.tss if self.tss > 0 else None

    @property
    def params(self) -> tuple[float, float]:
        """Natural parameters: linear (fixed_ms, ms_per_kb); power (ms_at_1kb, exponent)."""
        a, b = self.theta
        return (a, b) if self.model == LINEAR else (math.exp(a), b)

    def log_predict(self, size_bytes) -> np.ndarray:
        u = np.asarray(size_bytes, dtype=float) / KIB
        a, b = self.theta
        if self.model == LINEAR:
            return np.log(np.maximum(a + b * u, 1e-300))
        return a + b * np.log(u)

    def predict(self, size_bytes) -> np.ndarray:
        return np.exp(self.log_predict(size_bytes))

    def gradient(self, size_bytes) -> np.ndarray:
        """d log(cost) / d theta at each size: shape (k, 2)."""
        u = np.atleast_1d(np.asarray(size_bytes, dtype=float)) / KIB
        if self.model == LINEAR:
            f = np.maximum(self.theta[0] + self.theta[1] * u, 1e-300)
            return np.column_stack([1.0 / f, u / f])
        return np.column_stack([np.ones_like(u), np.log(u)])

    def leverage(self, size_bytes) -> np.ndarray:
        """g' (J'J)^-1 g at each size: how much of the residual variance the fit's own
        uncertainty adds to a prediction there (small between the fitted sizes, growing beyond)."""
        g = self.gradient(size_bytes)
        return np.maximum(np.einsum("ij,jk,ik->i", g, np.asarray(self.xtx_inv), g), 0.0)

    def param_intervals(self, sigma: float | None, df: float | None, level: float = 0.95
                        ) -> list[tuple[float, float | None, float | None]]:
        """[(estimate, lower, upper)] for the two natural parameters. The linear model's
        parameters are >= 0, so their lower limits are clipped at 0."""
        t = t_quantile(df, level) if sigma is not None else None
        out = []
        for i, estimate in enumerate(self.params):
            if t is None:
                out.append((estimate, None, None))
                continue
            half = t * sigma * math.sqrt(max(self.xtx_inv[i][i], 0.0))
            if self.model == LINEAR:
                out.append((estimate, max(estimate - half, 0.0), estimate + half))
            elif i == 0:  # ms_at_1kb = exp(ln ms_at_1kb)
                out.append((estimate, math.exp(self.theta[0] - half), math.exp(self.theta[0] + half)))
            else:
                out.append((estimate, estimate - half, estimate + half))
        return out


def _prepare(size_bytes, cost_ms) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(size_bytes, dtype=float)
    y = np.asarray(cost_ms, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise FitError("sizes and costs must be two sequences of the same length")
    if np.any(~np.isfinite(x)) or np.any(~np.isfinite(y)) or np.any(x <= 0) or np.any(y <= 0):
        raise FitError("sizes and costs must be positive numbers")
    if len(np.unique(x)) < 2:
        raise FitError("a fit needs at least two distinct message sizes")
    return x, y


def _tss(logy: np.ndarray) -> float:
    return float(np.sum((logy - logy.mean()) ** 2))


def _inverse(m: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    inv = np.linalg.pinv(m)
    return ((float(inv[0, 0]), float(inv[0, 1])), (float(inv[1, 0]), float(inv[1, 1])))


def fit_power(size_bytes, cost_ms) -> Fit:
    """ln cost = ln ms_at_1kb + exponent * ln KB, ordinary least squares."""
    x, y = _prepare(size_bytes, cost_ms)
    X = np.column_stack([np.ones_like(x), np.log(x / KIB)])
    logy = np.log(y)
    theta, *_ = np.linalg.lstsq(X, logy, rcond=None)
    resid = logy - X @ theta
    return Fit(POWER, (float(theta[0]), float(theta[1])), _inverse(X.T @ X),
               float(resid @ resid), len(x), tuple(sorted(set(x.tolist()))), _tss(logy))


def fit_linear(size_bytes, cost_ms) -> Fit:
    """cost = fixed_ms + ms_per_kb * KB with fixed_ms, ms_per_kb >= 0, least squares on ln cost."""
    from scipy.optimize import least_squares

    x, y = _prepare(size_bytes, cost_ms)
    u = x / KIB
    logy = np.log(y)

    def residuals(theta):
        return np.log(np.maximum(theta[0] + theta[1] * u, 1e-300)) - logy

    def jacobian(theta):
        f = np.maximum(theta[0] + theta[1] * u, 1e-300)
        return np.column_stack([1.0 / f, u / f])

    # Start from weighted least squares on the cost itself (weights 1/cost^2: relative error).
    W = 1.0 / y
    A = np.column_stack([W, u * W])
    start, *_ = np.linalg.lstsq(A, np.ones_like(y), rcond=None)
    floor = 1e-6 * float(y.min())
    start = np.array([max(start[0], floor), max(start[1], floor / max(float(u.max()), 1.0))])
    result = least_squares(residuals, start, jac=jacobian, bounds=([0.0, 0.0], [np.inf, np.inf]),
                           method="trf", x_scale="jac", ftol=1e-12, xtol=1e-12, gtol=1e-12,
                           max_nfev=2000)
    theta = result.x
    resid = residuals(theta)
    J = jacobian(theta)
    return Fit(LINEAR, (float(theta[0]), float(theta[1])), _inverse(J.T @ J),
               float(resid @ resid), len(x), tuple(sorted(set(x.tolist()))),
               _tss(logy))


FITTERS = {LINEAR: fit_linear, POWER: fit_power}


def fit(model: str, size_bytes, cost_ms) -> Fit:
    try:
        return FITTERS[model](size_bytes, cost_ms)
    except KeyError:
        raise FitError(f"unknown model {model!r}, expected one of {', '.join(MODELS)}") from None


def distinct_points(size_bytes, cost_ms) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (size, cost) pairs, sorted: a number printed in two tables is one
    measurement, not two."""
    pairs = sorted(set(zip((float(s) for s in size_bytes), (float(c) for c in cost_ms))))
    return (np.array([p[0] for p in pairs], dtype=float), np.array([p[1] for p in pairs], dtype=float))


def pooled_sigma(rss: float, df: int, other_rss: float = 0.0, other_df: int = 0
                 ) -> tuple[float | None, int]:
    """sqrt of (rss + other_rss) / (df + other_df) and its degrees of freedom: the residual SD
    the parameters' 95 % intervals use, pooled with the other series of the same report (with
    three sizes a series alone has one degree of freedom)."""
    total_df = df + other_df
    if total_df < 1:
        return None, 0
    return math.sqrt((rss + other_rss) / total_df), total_df


LOWEST, INTERIOR, HIGHEST = "lowest", "interior", "highest"


def position(size: float, sizes) -> str:
    """Where ``size`` lies among ``sizes`` (the sizes of a series, it included): a left-out
    lowest or highest size is an extrapolation of the others, an interior one an interpolation."""
    ordered = sorted(set(float(s) for s in sizes) | {float(size)})
    if float(size) == ordered[0]:
        return LOWEST
    return HIGHEST if float(size) == ordered[-1] else INTERIOR


@dataclass(frozen=True)
class LeftOut:
    """One size of a series predicted by the curve of its other sizes."""

    size: float
    position: str
    observed: tuple[float, ...]   # the distinct costs measured at the size
    predicted: float              # the curve of the other sizes at this size
    fit: Fit                      # that curve

    @property
    def residual(self) -> float:
        """log(observed / predicted), averaged over the costs measured at the size: how far the
        curve of the other sizes alone misses it."""
        return float(np.mean(np.log(np.asarray(self.observed) / self.predicted)))

    @property
    def leverage(self) -> float:
        return float(self.fit.leverage([self.size])[0])


def leave_one_size_out(model: str, size_bytes, cost_ms) -> list[LeftOut]:
    """Each distinct size predicted by ``model`` fitted to the other sizes, smallest first."""
    x, y = distinct_points(size_bytes, cost_ms)
    sizes = sorted(set(x.tolist()))
    if len(sizes) < MIN_SIZES:
        raise FitError(f"leave-one-size-out needs at least {MIN_SIZES} distinct sizes, got {len(sizes)}")
    out = []
    for size in sizes:
        keep = x != size
        part = fit(model, x[keep], y[keep])
        out.append(LeftOut(size, position(size, sizes), tuple(float(v) for v in y[~keep]),
                           float(part.predict([size])[0]), part))
    return out


def full_fits(size_bytes, cost_ms) -> dict[str, Fit]:
    x, y = distinct_points(size_bytes, cost_ms)
    return {m: fit(m, x, y) for m in MODELS}


# -- rate, cost and cores -------------------------------------------------------------------

def rate_from_cost(cores: float, utilisation: float, cpu_ms_per_msg: float) -> float:
    """Messages per second that ``cores`` busy at ``utilisation`` (0-1] sustain."""
    return cores * utilisation * 1000.0 / cpu_ms_per_msg


def cores_for_rate(rate: float, cpu_ms_per_msg: float, utilisation: float) -> float:
    """Cores needed to sustain ``rate`` msgs/s at ``utilisation`` (0-1] each."""
    return rate * cpu_ms_per_msg / 1000.0 / utilisation
