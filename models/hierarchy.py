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
    a ~ N(0, tau_test),  b ~ N(0, tau_config),  e ~ N(0, sigma2[test] x scale),

with a spread sigma2 of each test's own (MQ tests scatter, ESQL transformations do not) drawn
from a scaled inverse chi-square around the report's s0 with PRIOR_DF degrees of freedom:
each test's spread is shrunk towards the report's (empirical Bayes). tau_test, tau_config, s0
and the spreads maximise the penalised likelihood of all the report's departures. The scale
of a departure is 1 + the leverage of its size on the line of the series' other sizes: the
line carries their scatter to the left-out size, little between them, most below them, where
the fixed cost is extrapolated (0.5 ms + 0.05 ms per KB at 10, 50, 200 KB and 1 MB: the SD
1.2 times between, 1.3 times at 1 MB, 3.9 times at 10 KB).

A point's departure is predicted from the other series' departures in its slot (the best
linear unbiased predictor of a + b); its predictive variance is its test's spread plus the
uncertainty of that prediction. The test's spread is estimated again without the point's
series, so neither the prediction nor the spread of a point's interval uses its own value,
nor its series' other sizes (whose lines were fitted with it): the typo repair compares a
corrected value with the same interval, and a slip cannot widen the spread of its own
interval. What the whole report shares (tau, s0, the other tests' spreads, and the calibration
below, fitted to other series' errors that borrow from every point) is estimated once, with
every series: through it a point's value reaches its own interval only weakly.

The predictive distribution of log cost is a Student t with that variance, its scale and
degrees of freedom calibrated on the standardised leave-one-size-out errors of the report's
other series (``calibrate``): one distribution gives every level, so a 90 % interval lies inside
the 99 % one by construction.

scipy is imported inside the functions that need it (see `models.fit`).
"""
from __future__ import annotations

import functools
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
    # how much more a departure scatters than a measurement: 1 + the leverage of the left-out
    # size on the line of the others (an extrapolated size carries that line's error too)
    scale: dict[Slot, float] = field(default_factory=dict)


class _Layout:
    """Which member of a slot shares which random effect: Z has a column for each test and
    each configuration that two members share (or that ``keep`` names); a level held by one
    member alone is folded into that member's noise (the same model, a smaller system: a slot
    of two thousand series of lone tests costs vector operations, not a 2000 x 2000 matrix)."""

    def __init__(self, tests: np.ndarray, configs: np.ndarray, keep: tuple[int, int] = (-1, -1)):
        self.columns, self.folded, self.level_columns = [], [], []
        offset = 0
        for levels, kept in ((tests, keep[0]), (configs, keep[1])):
            found, index, counts = np.unique(levels, return_inverse=True, return_counts=True)
            own = (counts >= 2) | (found == kept)
            position = np.full(len(found), -1)
            position[own] = offset + np.arange(int(own.sum()))
            self.columns.append(position[index])
            self.folded.append(position[index] < 0)
            self.level_columns.append(dict(zip(found[own].tolist(), position[own].tolist())))
            offset += int(own.sum())
        self.width = offset
        self.factor_of_column = np.array([0] * len(self.level_columns[0]) + [1] * len(self.level_columns[1]),
                                         dtype=int)

    # Z has a 1 in each member's test column and configuration column (where it has them) and
    # nothing else: its products are sums over those two columns, O(members), never the dense
    # members x columns matrix (a lab's file of 7,000 series with 380 columns a slot took
    # 11 s an evaluation of the likelihood so, and a fit needs a hundred).

    def rows(self, members: np.ndarray | None = None) -> list[np.ndarray]:
        """Each factor's column of the ``members`` (a mask or indices; None: all), -1 for none."""
        return [c if members is None else c[members] for c in self.columns]

    def dense(self, members: np.ndarray | None = None) -> np.ndarray:
        """Z's rows of ``members`` as a dense matrix (for a few members: one test's)."""
        columns = self.rows(members)
        z = np.zeros((len(columns[0]), self.width))
        for column in columns:
            has = column >= 0
            z[np.flatnonzero(has), column[has]] = 1.0
        return z

    def times(self, u: np.ndarray, members: np.ndarray | None = None) -> np.ndarray:
        """Z u (of the ``members``' rows)."""
        columns = self.rows(members)
        out = np.zeros(len(columns[0]))
        for column in columns:
            has = column >= 0
            out[has] += u[column[has]]
        return out

    def transposed_times(self, v: np.ndarray, members: np.ndarray | None = None) -> np.ndarray:
        """Z' v (over the ``members``' rows)."""
        out = np.zeros(self.width)
        for column in self.rows(members):
            has = column >= 0
            out += np.bincount(column[has], weights=v[has], minlength=self.width)
        return out


class _BlockInverse:
    """C = diag(1 / prior) + Z' diag(w) Z of a _Layout, kept as its blocks: C's tests x tests
    block and its configurations x configurations block are diagonal (a member has one test
    and one configuration), so the larger is eliminated and only the Schur complement on the
    smaller, S (min(tests, configurations) square), is inverted. A file of 78,000 series in 12
    tests and 2,000 configurations inverted a 2,000-square C per slot and evaluation; S is
    12 x 12. Entries of C^-1 come from S^-1, H = S^-1 B and the large block's diagonal q."""

    def __init__(self, layout: _Layout, w: np.ndarray, prior: np.ndarray):
        n_tests = len(layout.level_columns[0])
        n_configs = layout.width - n_tests
        tests, configs = layout.columns
        diagonal = 1.0 / prior
        for column in (tests, configs):
            has = column >= 0
            diagonal = diagonal + np.bincount(column[has], weights=w[has], minlength=layout.width)
        both = (tests >= 0) & (configs >= 0)
        coupling = np.bincount(tests[both] * n_configs + (configs[both] - n_tests), weights=w[both],
                               minlength=n_tests * n_configs).reshape(n_tests, n_configs)
        self.small_is_tests = n_tests <= n_configs
        if self.small_is_tests:
            self.small = np.arange(n_tests)
            self.large = np.arange(n_tests, layout.width)
            self.coupling = coupling                      # small x large
        else:
            self.small = np.arange(n_tests, layout.width)
            self.large = np.arange(n_tests)
            self.coupling = coupling.T
        # position of each column in its block, and which block it is in
        self.in_small = np.zeros(layout.width, dtype=bool)
        self.in_small[self.small] = True
        self.position = np.empty(layout.width, dtype=int)
        self.position[self.small] = np.arange(len(self.small))
        self.position[self.large] = np.arange(len(self.large))
        self.q = diagonal[self.large]
        over_q = self.coupling / self.q
        schur = np.diag(diagonal[self.small]) - over_q @ self.coupling.T
        self.s_inv = np.linalg.inv(schur) if len(schur) else schur
        self.logdet = float(np.sum(np.log(self.q))) + (float(np.linalg.slogdet(schur)[1]) if len(schur) else 0.0)
        self.h = self.s_inv @ self.coupling               # S^-1 B, small x large

    def solve(self, b: np.ndarray) -> np.ndarray:
        """C^-1 b."""
        b_small, b_large = b[self.small], b[self.large]
        x = np.empty_like(b)
        x_small = self.s_inv @ (b_small - self.coupling @ (b_large / self.q))
        x[self.small] = x_small
        x[self.large] = (b_large - self.coupling.T @ x_small) / self.q
        return x

    @functools.cached_property
    def _diagonal(self) -> np.ndarray:
        out = np.empty(len(self.position))
        out[self.small] = np.diag(self.s_inv)
        out[self.large] = 1.0 / self.q + np.sum(self.coupling * self.h, axis=0) / self.q ** 2
        return out

    def diagonal(self) -> np.ndarray:
        """diag(C^-1)."""
        return self._diagonal

    def entries(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """C^-1[rows[k], cols[k]] for each k (arrays of columns of the same length)."""
        rows, cols = np.asarray(rows, dtype=int), np.asarray(cols, dtype=int)
        out = np.empty(len(rows))
        r_small, c_small = self.in_small[rows], self.in_small[cols]
        pr, pc = self.position[rows], self.position[cols]
        both = r_small & c_small
        out[both] = self.s_inv[pr[both], pc[both]]
        mixed = r_small & ~c_small
        out[mixed] = -self.h[pr[mixed], pc[mixed]] / self.q[pc[mixed]]
        mixed = ~r_small & c_small
        out[mixed] = -self.h[pc[mixed], pr[mixed]] / self.q[pr[mixed]]
        large = ~r_small & ~c_small
        a, b = pr[large], pc[large]
        out[large] = (np.where(a == b, 1.0 / self.q[a], 0.0)
                      + np.sum(self.coupling[:, a] * self.h[:, b], axis=0) / (self.q[a] * self.q[b]))
        return out

    def block(self, columns: np.ndarray) -> np.ndarray:
        """C^-1[columns][:, columns]."""
        columns = np.asarray(columns, dtype=int)
        rows, cols = np.meshgrid(columns, columns, indexing="ij")
        return self.entries(rows.ravel(), cols.ravel()).reshape(len(columns), len(columns))


class _Posterior:
    """The random effects of one slot's members given their departures: Henderson's mixed
    model equations, C u = Z' D^-1 y with C = G^-1 + Z' D^-1 Z (Z from a _Layout)."""

    def __init__(self, layout: _Layout, values: np.ndarray, noise: np.ndarray, tau_t: float, tau_c: float):
        self.layout, self.values, self.tau = layout, values, (tau_t, tau_c)
        self.d = noise + tau_t * layout.folded[0] + tau_c * layout.folded[1]
        self.prior = np.where(layout.factor_of_column == 0, tau_t, tau_c)
        w = 1.0 / self.d
        self.b = layout.transposed_times(w * values)
        self.inverse = _BlockInverse(layout, w, self.prior)
        self.logdet_c = self.inverse.logdet
        self.u = self.inverse.solve(self.b)

    @property
    def columns(self):
        return self.layout.columns

    @property
    def level_columns(self):
        return self.layout.level_columns

    def likelihood(self) -> float:
        """-log density of the departures, up to a constant: (log|V| + y'V^-1 y) / 2."""
        logdet = float(np.sum(np.log(self.d))) + float(np.sum(np.log(self.prior))) + self.logdet_c
        quad = float(np.sum(self.values ** 2 / self.d)) - float(self.u @ self.b)
        return 0.5 * (logdet + quad)

    def gradients(self) -> tuple[np.ndarray, float, float]:
        """d(likelihood)/d(noise) of each member, and d/d tau_t, d/d tau_c."""
        layout = self.layout
        alpha = (self.values - layout.times(self.u)) / self.d
        zcz = self._quadratic()  # z_j' C^-1 z_j
        per_member = 0.5 * (1.0 / self.d - zcz / self.d ** 2 - alpha ** 2)
        # diag(Z'V^-1 Z) = diag(A) - diag(A C^-1 A) with A = Z'WZ = C - D0 (D0 = diag(1 / prior)):
        # A C^-1 A = C - 2 D0 + D0 C^-1 D0, so it is d0 - d0^2 diag(C^-1), no product of C^-1
        d0 = 1.0 / self.prior
        ztvz = d0 - d0 ** 2 * self.inverse.diagonal()
        za = layout.transposed_times(alpha)
        per_column = 0.5 * (ztvz - za ** 2)
        out = [float(np.sum(per_member[self.layout.folded[f]])
                     + np.sum(per_column[self.layout.factor_of_column == f])) for f in (0, 1)]
        return per_member, out[0], out[1]

    def _quadratic(self) -> np.ndarray:
        """z_j' C^-1 z_j of every member: the diagonal entries of its columns and, where it has
        both, twice their cross entry."""
        out = np.zeros(len(self.d))
        diagonal = self.inverse.diagonal()
        tests, configs = self.columns
        for column in (tests, configs):
            has = column >= 0
            out[has] += diagonal[column[has]]
        both = (tests >= 0) & (configs >= 0)
        out[both] += 2.0 * self.inverse.entries(tests[both], configs[both])
        return out

    def without(self, j: int, test: int, config: int) -> tuple[float, float]:
        """effect(test, config) given every member but the j-th (-1: none left out), by a rank-one
        downdate of C (Sherman-Morrison); the target's test must have no column (no other member
        ran it) - its configuration may."""
        if j < 0 or not len(self.u):
            return self.effect(test, config)
        col = self.level_columns[1].get(config, -1)
        if col < 0:
            return 0.0, self.tau[0] + self.tau[1]
        mine = np.array([column[j] for column in self.columns if column[j] >= 0], dtype=int)
        mean, variance = float(self.u[col]), float(self.inverse.entries([col], [col])[0])
        if len(mine):
            # C_j^-1 = C^-1 + c c' / (d_j - z'C^-1 z), c = C^-1 z; u_j = C_j^-1 (b - z y_j / d_j)
            cz_col = float(np.sum(self.inverse.entries(np.full(len(mine), col), mine)))
            zcz = float(np.sum(self.inverse.block(mine)))
            zu = float(np.sum(self.u[mine]))
            y, d = float(self.values[j]), float(self.d[j])
            denominator = d - zcz
            mean += -cz_col * y / d + cz_col * (zu - zcz * y / d) / denominator
            variance += cz_col ** 2 / denominator
        return mean, variance + self.tau[0]

    def effect(self, test: int, config: int) -> tuple[float, float]:
        """Posterior mean and variance of a[test] + b[config]; a level no member holds has its
        prior (0, tau)."""
        cols = [self.level_columns[0].get(test, -1), self.level_columns[1].get(config, -1)]
        present = [c for c in cols if c >= 0]
        mean = float(sum(self.u[c] for c in present))
        variance = float(np.sum(self.inverse.block(np.array(present, dtype=int)))) if present else 0.0
        variance += sum(tau for c, tau in zip(cols, self.tau) if c < 0)
        return mean, variance


class _TestGivenOthers:
    """One slot's departures of one test's members given the other tests' members there:
    y_g | y_rest ~ N(Z_g u_rest, spread I + M) with M = Z_g C_rest^-1 Z_g' + the folded levels'
    variances (a level held by one member is the same model as a column of its own, so the
    slot's layout serves with any member left out). M = Q diag(lambda) Q' once; then for a
    spread s, -log p(y_g) = (sum log(lambda + s) + sum (Q'r)^2 / (lambda + s)) / 2, and leaving
    member i out divides by p(y_i | the test's other members), whose precision and residual are
    the i-th row of Q (diag(1 / (lambda + s))) Q'."""

    def __init__(self, eigenvalues: np.ndarray, vectors: np.ndarray, projected: np.ndarray, rows: dict[int, int]):
        self.eigenvalues, self.vectors, self.projected, self.rows = eigenvalues, vectors, projected, rows

    @classmethod
    def of(cls, layout: _Layout, idx: np.ndarray, values: np.ndarray, own: np.ndarray, spreads: np.ndarray,
           scale: np.ndarray, tau: tuple[float, float]) -> tuple[float, _TestGivenOthers]:
        """(-log p(the others' departures), the test's block) for one slot. The test's members
        scatter by spread x their scale: divided by the root of their scale, by the spread."""
        fold = tau[0] * layout.folded[0] + tau[1] * layout.folded[1]
        prior = np.where(layout.factor_of_column == 0, tau[0], tau[1])
        rest = ~own
        z_own = layout.dense(own)
        d = spreads[rest] * scale[rest] + fold[rest]
        w = np.zeros(len(values))
        w[rest] = 1.0 / d
        inverse = _BlockInverse(layout, w, prior)  # the own members weigh nothing in C: the rest's
        b = layout.transposed_times(values[rest] / d, rest)
        u = inverse.solve(b)
        others = 0.5 * (float(np.sum(np.log(d))) + float(np.sum(np.log(prior))) + inverse.logdet
                        + float(np.sum(values[rest] ** 2 / d)) - float(u @ b))
        root = np.sqrt(scale[own])
        touched = np.flatnonzero(z_own.any(axis=0))  # the columns the test's members hold
        z_touched = z_own[:, touched]
        m = (z_touched @ inverse.block(touched) @ z_touched.T + np.diag(fold[own])) / np.outer(root, root)
        eigenvalues, vectors = np.linalg.eigh(m)
        residual = (values[own] - z_own @ u) / root
        rows = {int(member): row for row, member in enumerate(idx[own])}
        return others, cls(eigenvalues, vectors, vectors.T @ residual, rows)

    def has(self, member: int) -> bool:
        return member in self.rows

    def row(self, member: int) -> np.ndarray | None:
        return self.vectors[self.rows[member]] if member in self.rows else None

    def predictive(self, spread: float, member: int, value: float, scale: float) -> tuple[float, float]:
        """(mean, variance) of ``member``'s departure ``value`` (scale ``scale``) given every
        other departure of the slot - the other tests' and the test's other members' - with
        ``spread`` as the test's: the conditional of one coordinate of the Gaussian above,
        O(members of the test). Its departure less the residual that the others do not
        explain, scaled back by the root of its scale."""
        row = self.vectors[self.rows[member]]
        e = self.eigenvalues + spread
        precision = float(np.sum(row * row / e))
        unexplained = float(np.sum(row * self.projected / e)) / precision
        return value - math.sqrt(scale) * unexplained, scale / precision

    def likelihood_without(self, spread: float, row: np.ndarray | None) -> float:
        """-log p(the test's departures here but the member whose row of Q is ``row``)."""
        e = self.eigenvalues + spread
        value = 0.5 * (float(np.sum(np.log(e))) + float(np.sum(self.projected ** 2 / e)))
        if row is not None:
            precision = float(np.sum(row * row / e))
            residual = float(np.sum(row * self.projected / e)) / precision
            value += 0.5 * (math.log(precision) - precision * residual ** 2)
        return value


class ReportModel:
    """The hierarchical model of one report's departures (see the module's docstring)."""

    def __init__(self, members: list[Member]):
        self.members = members
        self.tests = sorted({m.test for m in members})
        # levels numbered through dicts (a list's index() per member was quadratic: a lab's
        # file of 78,000 series spent minutes here)
        test_number = {test: k for k, test in enumerate(self.tests)}
        config_number = {config: k for k, config in enumerate(dict.fromkeys(m.config for m in members))}
        self._test_of = np.array([test_number[m.test] for m in members], dtype=int)
        self._config_of = np.array([config_number[m.config] for m in members], dtype=int)
        holders: dict[Slot, list[int]] = {}  # slot -> the members with a departure there, in order
        for i, m in enumerate(members):
            for slot in m.departures:
                holders.setdefault(slot, []).append(i)
        self.blocks: dict[Slot, tuple[np.ndarray, np.ndarray]] = {}
        self._scale: dict[Slot, np.ndarray] = {}  # slot -> each member's scale there
        self._row: dict[Slot, dict[int, int]] = {}  # slot -> member -> its row in the block
        self._test_counts: dict[Slot, np.ndarray] = {}  # slot -> members per test in the block
        for slot in sorted(holders):
            idx = np.array(holders[slot], dtype=int)
            self.blocks[slot] = (idx, np.array([members[i].departures[slot] for i in idx]))
            self._scale[slot] = np.array([members[i].scale.get(slot, 1.0) for i in idx])
            self._row[slot] = {int(member): row for row, member in enumerate(idx)}
            self._test_counts[slot] = np.bincount(self._test_of[idx], minlength=len(self.tests))
        self.theta: np.ndarray | None = None
        self._layouts: dict[Slot, _Layout] = {}            # each slot's, all members in it
        self._slot_posteriors: dict[Slot, _Posterior] = {}  # each slot's at the fitted theta
        self._spreads_without: dict[int, float | None] = {}  # member -> spread_without(member)
        self._test_given_others: dict[int, tuple] = {}  # test -> _given_others(test), at the fitted theta

    # -- parameters: theta = [log s0, log sigma2 of each test, log tau_test, log tau_config] ---

    @property
    def s0(self) -> float:
        return math.exp(self.theta[0])

    @property
    def spreads(self) -> np.ndarray:
        return np.exp(self.theta[1:1 + len(self.tests)])

    @property
    def tau(self) -> tuple[float, float]:
        return math.exp(self.theta[-2]), math.exp(self.theta[-1])

    def _layout(self, idx: np.ndarray, keep: tuple[int, int] = (-1, -1)) -> _Layout:
        return _Layout(self._test_of[idx], self._config_of[idx], keep)

    def _posterior(self, idx: np.ndarray, values: np.ndarray, noise: np.ndarray, tau: tuple[float, float],
                   keep: tuple[int, int] = (-1, -1), layout: _Layout | None = None) -> _Posterior:
        return _Posterior(layout or self._layout(idx, keep), values, noise, tau[0], tau[1])

    def _objective(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        """Penalised negative log-likelihood and its gradient in theta."""
        n_tests = len(self.tests)
        s0, spreads = math.exp(theta[0]), np.exp(theta[1:1 + n_tests])
        tau = (math.exp(theta[-2]), math.exp(theta[-1]))
        value, grad = 0.0, np.zeros_like(theta)
        for slot, (idx, values) in self.blocks.items():
            if slot not in self._layouts:
                self._layouts[slot] = self._layout(idx)
            noise = spreads[self._test_of[idx]] * self._scale[slot]
            post = self._posterior(idx, values, noise, tau, layout=self._layouts[slot])
            value += post.likelihood()
            per_member, d_tau_t, d_tau_c = post.gradients()
            np.add.at(grad, 1 + self._test_of[idx], per_member * noise)
            grad[-2] += d_tau_t * tau[0]
            grad[-1] += d_tau_c * tau[1]
        # each test's spread ~ scaled inverse chi-square (PRIOR_DF, s0), as a density of the log
        # spread the fit moves: the density of the spread itself carries a 1 / spread that pays
        # every spread and s0 for falling together towards zero, which a report of lone tests
        # (whose spreads their departures cannot tell from tau_test) then did
        log_spreads = theta[1:1 + n_tests]
        value += float(np.sum(PRIOR_DF / 2 * log_spreads + PRIOR_DF * s0 / (2 * spreads))
                       - n_tests * PRIOR_DF / 2 * theta[0])
        grad[1:1 + n_tests] += PRIOR_DF / 2 - PRIOR_DF * s0 / (2 * spreads)
        grad[0] += float(np.sum(PRIOR_DF * s0 / (2 * spreads))) - n_tests * PRIOR_DF / 2
        return value, grad

    def fit(self) -> ReportModel:
        from scipy.optimize import minimize

        start = np.full(len(self.tests) + 3, math.log(0.01))
        result = minimize(self._objective, start, jac=True, method="L-BFGS-B",
                          bounds=[LOG_VARIANCE_BOUNDS] * len(start))
        self.theta = result.x
        self._slot_posteriors = {}
        self._spreads_without = {}
        self._test_given_others = {}
        return self

    # -- one member left out ----------------------------------------------------------------

    def spread_without(self, i: int) -> float | None:
        """The spread of member ``i``'s test, estimated from the test's other members (with
        the shrinkage towards s0); s0, the report's, where no two of them share a slot (one
        other member's departures cannot tell the test's spread from its effect). None when
        the report has no other member at all: nothing but the point's own series could say
        how far it scatters. Computed once per member (a memoised model is asked again)."""
        if i not in self._spreads_without:
            self._spreads_without[i] = self._spread_without(i)
        return self._spreads_without[i]

    def _spread_without(self, i: int) -> float | None:
        if len(self.members) < 2:
            return None
        g = self._test_of[i]
        if not any(counts[g] - (i in self._row[slot]) >= 2 for slot, counts in self._test_counts.items()):
            return self.s0
        constant, blocks = self._test_blocks(g)
        # the blocks where the test has a member other than i; the i-th member's row in each
        mine = [(block, block.row(i)) for block in blocks.values() if len(block.eigenvalues) > block.has(i)]
        from scipy.optimize import minimize_scalar

        s0 = self.s0

        def objective(log_spread: float) -> float:
            spread = math.exp(log_spread)
            value = constant + sum(block.likelihood_without(spread, row) for block, row in mine)
            return value + PRIOR_DF / 2 * log_spread + PRIOR_DF * s0 / (2 * spread)  # the prior above

        found = minimize_scalar(objective, bounds=LOG_VARIANCE_BOUNDS, method="bounded",
                                options={"xatol": 1e-4})
        return math.exp(found.x)

    def _given_others(self, g: int) -> tuple[float, dict[Slot, _TestGivenOthers]]:
        """The likelihood of test ``g``'s departures split as p(others) p(g's | others), per slot
        where g ran: the first does not depend on g's spread, the second is a Gaussian whose
        covariance is g's spread times I plus a fixed matrix. Computed once per test (not once
        per member and step of the search: that made a report of two thousand series take ten
        minutes), it gives every member's leave-one-out likelihood for any spread in O(members)."""
        spreads, tau = self.spreads, self.tau
        constant, blocks = 0.0, {}
        for slot, (idx, values) in self.blocks.items():
            own = self._test_of[idx] == g
            if own.any():
                part, block = _TestGivenOthers.of(self._layout(idx), idx, values, own,
                                                  spreads[self._test_of[idx]], self._scale[slot], tau)
                constant += part
                blocks[slot] = block
        return constant, blocks

    def _test_blocks(self, g: int) -> tuple[float, dict[Slot, _TestGivenOthers]]:
        """`_given_others(g)` at the fitted theta, computed once."""
        if g not in self._test_given_others:
            self._test_given_others[g] = self._given_others(g)
        return self._test_given_others[g]

    def predict(self, i: int, slot: Slot, spread: float) -> tuple[float, float]:
        """(departure, variance) of member ``i`` at ``slot`` from the other members' departures
        there, with ``spread`` (spread_without(i)) as its test's spread."""
        tau = self.tau
        block = self.blocks.get(slot)
        own = spread * self.members[i].scale.get(slot, 1.0)
        if block is None or len(block[0]) - (i in self._row[slot]) == 0:
            return 0.0, own + tau[0] + tau[1]
        idx, values = block
        test, config = self._test_of[i], self._config_of[i]
        row = self._row[slot].get(i, -1)
        if self._test_counts[slot][test] - (row >= 0) == 0:
            # no other member ran its test: the others' posterior is the slot's, less this member
            mean, variance = self._slot_posterior(slot).without(row, test, config)
            return mean, own + variance
        if row >= 0:
            # its departure given the others': the test's block (once per test and slot, as
            # for its spread), not a posterior of the slot's thousands of members per point
            return self._test_blocks(test)[1][slot].predictive(spread, i, float(values[row]),
                                                           self._scale[slot][row])
        keep = idx != i
        spreads = self.spreads.copy()
        spreads[test] = spread
        noise = spreads[self._test_of[idx[keep]]] * self._scale[slot][keep]
        post = self._posterior(idx[keep], values[keep], noise, tau, (test, config))
        mean, variance = post.effect(test, config)
        return mean, own + variance

    def _slot_posterior(self, slot: Slot) -> _Posterior:
        """The posterior of every member of the slot (the fitted spreads), computed once."""
        if slot not in self._slot_posteriors:
            idx, values = self.blocks[slot]
            noise = self.spreads[self._test_of[idx]] * self._scale[slot]
            self._slot_posteriors[slot] = self._posterior(idx, values, noise, self.tau,
                                                          layout=self._layouts.get(slot))
        return self._slot_posteriors[slot]


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
