"""What the series of one report share, and the predictive distribution of a left-out size.

A series' line fitted to its other sizes misses a left-out size by a *departure*,
d = log(observed / line). The series of a report that ran the same test - the same scenario on
other products, platforms, configurations or with the other persistence - miss the same size
the same way (their curves bend alike), and so do the series measured with the same
configuration in the report's other tests (ACE 11's 4-core containers cost more per KB at
200K than the 2K and 20K runs suggest, in every test). Per report and *slot* - the left-out
size and whether it is the series' lowest, an interior or its highest size - the departures
are modelled as

    d = a[test] + b[configuration] + e,
    a ~ N(0, tau_test),  b ~ N(0, tau_config),  e ~ N(0, sigma2[test]),

with a spread sigma2 of each test's own (MQ tests scatter, ESQL transformations do not) drawn
from a scaled inverse chi-square around the report's s0 with PRIOR_DF degrees of freedom:
each test's spread is shrunk towards the report's (empirical Bayes). tau_test, tau_config, s0
and the spreads maximise the penalised likelihood of all the report's departures.

A point's departure is predicted from the other series' departures in its slot (the best
linear unbiased predictor of a + b); its predictive variance is its test's spread plus the
uncertainty of that prediction. The test's spread is estimated again without the point's
series, so neither the prediction nor the interval of a point uses its own value, nor its
series' other sizes (whose lines were fitted with it): the typo repair compares a corrected
value with the same interval, and a slip cannot widen its own interval. What the whole report
shares (tau, s0, the other tests' spreads) is estimated once, with every series.

The predictive distribution of log cost is a Student t with that variance, its scale and
degrees of freedom calibrated on the standardised leave-one-size-out errors of the report's
other series (``calibrate``): one distribution gives every level, so a 90 % interval lies inside
the 99 % one by construction.

scipy is imported inside the functions that need it (see `models.fit`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .spec import MIN_CALIBRATION_SCORES, PRIOR_DF

Slot = tuple  # (size in bytes, position: lowest / interior / highest)
LOG_VARIANCE_BOUNDS = (-16.0, 4.0)  # e^-16 to e^4 in log-cost squared: 0.03 % to 740 %


@dataclass
class Member:
    """One series of the report: what it shares, and its departures by slot."""

    test: str
    config: tuple
    departures: dict[Slot, float] = field(default_factory=dict)


@dataclass
class _Block:
    """The departures of one slot: members (indices), values, their tests (indices into
    ReportModel.tests) and the two sharing matrices (1 where two members share the test, the
    configuration)."""

    members: np.ndarray
    values: np.ndarray
    tests: np.ndarray
    same_test: np.ndarray
    same_config: np.ndarray

    def without(self, i: int) -> _Block:
        keep = self.members != i
        return _Block(self.members[keep], self.values[keep], self.tests[keep],
                      self.same_test[np.ix_(keep, keep)], self.same_config[np.ix_(keep, keep)])


class ReportModel:
    """The hierarchical model of one report's departures (see the module's docstring)."""

    def __init__(self, members: list[Member]):
        self.members = members
        self.tests = sorted({m.test for m in members})
        self._test_of = np.array([self.tests.index(m.test) for m in members], dtype=int)
        self._spread_index = 1 + np.arange(len(self.tests))  # theta index of each test's spread
        self._own_spreads = len(self.tests)
        slots = sorted({s for m in members for s in m.departures})
        self.blocks: dict[Slot, _Block] = {}
        for slot in slots:
            idx = np.array([i for i, m in enumerate(members) if slot in m.departures], dtype=int)
            tests = self._test_of[idx]
            configs = [members[i].config for i in idx]
            self.blocks[slot] = _Block(
                idx, np.array([members[i].departures[slot] for i in idx]), tests,
                (tests[:, None] == tests[None, :]).astype(float),
                np.array([[1.0 if a == b else 0.0 for b in configs] for a in configs]))
        self.theta: np.ndarray | None = None

    # -- parameters: theta = [log s0, log sigma2 of each test, log tau_test, log tau_config] ---

    @property
    def s0(self) -> float:
        return math.exp(self.theta[0])

    @property
    def spreads(self) -> np.ndarray:
        """The spread of each test."""
        return np.exp(self.theta[self._spread_index])

    @property
    def tau(self) -> tuple[float, float]:
        return math.exp(self.theta[-2]), math.exp(self.theta[-1])

    def _objective(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        """Penalised negative log-likelihood and its gradient in theta."""
        n_own = self._own_spreads
        s0, spreads = math.exp(theta[0]), np.exp(theta[self._spread_index])
        tau_t, tau_c = math.exp(theta[-2]), math.exp(theta[-1])
        value, grad = 0.0, np.zeros_like(theta)
        for b in self.blocks.values():
            noise = spreads[b.tests]
            v = np.diag(noise) + tau_t * b.same_test + tau_c * b.same_config
            inv = np.linalg.inv(v)
            alpha = inv @ b.values
            value += 0.5 * (np.linalg.slogdet(v)[1] + b.values @ alpha)
            np.add.at(grad, self._spread_index[b.tests], 0.5 * noise * (np.diag(inv) - alpha * alpha))
            grad[-2] += 0.5 * tau_t * (np.sum(inv * b.same_test) - alpha @ b.same_test @ alpha)
            grad[-1] += 0.5 * tau_c * (np.sum(inv * b.same_config) - alpha @ b.same_config @ alpha)
        # each test's spread ~ scaled inverse chi-square (PRIOR_DF, s0)
        log_own = theta[1:1 + n_own]
        own = np.exp(log_own)
        value += float(np.sum((PRIOR_DF / 2 + 1) * log_own + PRIOR_DF * s0 / (2 * own))
                       - n_own * PRIOR_DF / 2 * theta[0])
        grad[1:1 + n_own] += (PRIOR_DF / 2 + 1) - PRIOR_DF * s0 / (2 * own)
        grad[0] += float(np.sum(PRIOR_DF * s0 / (2 * own))) - n_own * PRIOR_DF / 2
        return value, grad

    def fit(self) -> ReportModel:
        from scipy.optimize import minimize

        start = np.full(self._own_spreads + 3, math.log(0.01))
        result = minimize(self._objective, start, jac=True, method="L-BFGS-B",
                          bounds=[LOG_VARIANCE_BOUNDS] * len(start))
        self.theta = result.x
        return self

    # -- one member left out ----------------------------------------------------------------

    def spread_without(self, i: int) -> float | None:
        """The spread of member ``i``'s test, estimated from the test's other members (with
        the shrinkage towards s0); s0 where the test has no other member. None when the report
        has no other member at all: nothing but the point's own series could say how far it
        scatters."""
        if len(self.members) < 2:
            return None
        g = self._test_of[i]
        blocks = [b.without(i) for b in self.blocks.values()]
        blocks = [b for b in blocks if np.any(b.tests == g)]
        if not blocks:
            return self.s0
        from scipy.optimize import minimize_scalar

        spreads, (tau_t, tau_c), s0 = self.spreads.copy(), self.tau, self.s0

        def objective(log_spread: float) -> float:
            spreads[g] = math.exp(log_spread)
            value = 0.0
            for b in blocks:
                v = np.diag(spreads[b.tests]) + tau_t * b.same_test + tau_c * b.same_config
                value += 0.5 * (np.linalg.slogdet(v)[1] + b.values @ np.linalg.solve(v, b.values))
            return value + (PRIOR_DF / 2 + 1) * log_spread + PRIOR_DF * s0 / (2 * math.exp(log_spread))

        found = minimize_scalar(objective, bounds=LOG_VARIANCE_BOUNDS, method="bounded",
                                options={"xatol": 1e-4})
        return math.exp(found.x)

    def predict(self, i: int, slot: Slot, spread: float) -> tuple[float, float]:
        """(departure, variance) of member ``i`` at ``slot`` from the other members' departures
        there, with ``spread`` (spread_without(i)) as its test's spread."""
        tau_t, tau_c = self.tau
        prior = spread + tau_t + tau_c
        block = self.blocks.get(slot)
        if block is None:
            return 0.0, prior
        b = block.without(i)
        if not len(b.members):
            return 0.0, prior
        spreads = self.spreads.copy()
        spreads[self._test_of[i]] = spread
        v = np.diag(spreads[b.tests]) + tau_t * b.same_test + tau_c * b.same_config
        me = self.members[i]
        c = np.array([tau_t * (self.members[j].test == me.test) + tau_c * (self.members[j].config == me.config)
                      for j in b.members])
        weights = np.linalg.solve(v, c)
        return float(weights @ b.values), float(max(prior - c @ weights, spread))


# -- the predictive distribution --------------------------------------------------------------

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
