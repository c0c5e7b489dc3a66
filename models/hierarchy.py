"""What the series of one report share: a mixed model of their log costs, and each point's
prediction from everything but its own size.

Per report, the log cost of series i at message size s is

    y[i, s] = log(fixed[i] + per_kb[i] x KB) + f[test(i), s] + g[config(i), s] + e,
    f[t, s] ~ N(0, tau[t]),   g[c, s] ~ N(0, tau_c),   e ~ N(0, sigma2[test(i)]):

- each series' own line (a fixed cost per message and a cost per KB, both >= 0) is free: a
  flat prior, nothing borrowed for it;
- f is how the curves of one test bend away from straight lines at a size, alike on every
  product, platform, configuration and persistence that ran it (ACE 13's JSON Parse costs 300
  times more at 2 MB than at 200 KB on every T-shirt; through 20K and 200K the lines of ACE 11
  under-predict 2K in every scenario), with a bend variance tau[t] of each test's own, shrunk
  towards the report's tau0 (the ESQL transformations bend little, JSON Parse a lot);
- g is how one configuration bends in all the report's tests (ACE 11's 4-core containers cost
  more at 2K than their larger sizes suggest, in five of its six tests);
- e is the run-to-run scatter, with a spread sigma2[t] of each test's own (MQ tests scatter,
  ESQL transformations do not), shrunk towards the report's s0.

Both shrinkages are a scaled inverse chi-square with PRIOR_DF degrees of freedom around the
report's value (empirical Bayes), written as a density of the log variance the fit moves. A
level held by one observation alone is folded into that observation's noise: the same model,
a smaller system (a lab's file of thousands of lone configurations costs vectors, not
matrices).

The variances maximise the restricted likelihood of the report's log costs - each series' line
integrated out, so that its two parameters cost the series two degrees of freedom (a series of
three sizes has one left to tell its scatter) - plus the priors, with the model linearised in
each line's two parameters at the joint mode of lines and effects; mode and variances are
found in turn until the lines stop moving.

A point's prediction (`ReportModel.predict`) leaves out every cost of its series at its size:
the effects given every other series, then its series' line fitted to its other sizes together
with them (a bounded generalised least squares fit of the line, the effects integrated out);
the prediction is that line at the size plus the effects' mean there, and its variance the
joint uncertainty of line and effects there plus the test's spread. The test's spread is
estimated again without the point - from the test's other series and the point's own series'
other sizes, given the other tests - so neither the prediction nor the spread of a point's
interval uses its value, and a slip cannot widen its own interval (the typo repair holds a
corrected value to the same interval). What the whole report shares (tau, s0, the other tests'
spreads, the points where the lines were linearised) is estimated once with every point: through
it a point's value reaches its own interval only weakly.

The left-out point's line is fitted with one more thing the series shares: its shape, log(per
KB / fixed) (minus the log of the size, in KB, at which the cost per KB adds up to the fixed
cost). A machine's speed
scales both parts alike, so the runs of one test in other configurations, T-shirts and replica
counts of the same product, version, persistence and platform (its kind) say what the shape
is (across platforms it differs: ACE 11's Windows containers cost little at 2 KB on one
core). The prior of a series' shape is its kind's other shapes, each weighted by how sure its
own costs make it, with the spread of the shapes about their kind's, estimated by restricted
likelihood over the report (`ReportModel.shape_prior`). Two or three sizes leave a line's
slope unsure, and an end extrapolated from them carried that several times over (ACE 13's
JSON Parse Small at 2 KB, from 20 KB to 2 MB: an interval of seven orders of magnitude; now
40 % wide). A series whose costs lie off its line more than its test scatters is that much
less sure of its shape; a prior looser than MAX_SHAPE_PRIOR_SD (the kind's shapes disagree) is
not used.

The algebra keeps C = G^-1 + Z'QZ (Henderson's equations with the lines absorbed) as its blocks:
the effects of one level (a test's sizes, a configuration's) couple only within the level and
with the other factor's, so the factor with more columns is eliminated level by level and only
the Schur complement on the other (tests x sizes, typically) is inverted.

scipy is imported inside the functions that need it (see `models.fit`).
"""
from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .fit import KIB
from .spec import PRIOR_DF

LOG_VARIANCE_BOUNDS = (-16.0, 4.0)  # e^-16 to e^4 in log-cost squared: 0.03 % to 740 %
START_LOG_VARIANCE = math.log(0.01)
MAX_ROUNDS = 8            # mode and variances found in turn at most this often
LINE_TOLERANCE = 1e-7     # a relative move of every line below this ends the rounds
# A test of at most EXACT_OBSERVATIONS costs, whose effects and its series' configurations span
# at most EXACT_COLUMNS columns, has its spread estimated again without each point from the
# likelihood of its other costs given the other tests' (exact). Beyond, one step of the spread's
# estimating equation without the point's own terms: among so many, one point moves the
# effects its test-mates are measured against by a small share of itself.
EXACT_OBSERVATIONS = 400
EXACT_COLUMNS = 120
SPREAD_STEP = 0.1         # the log-variance grid of that search, refined by a parabola
# Up to this many tests, a test's view of the others is built from the others' series afresh;
# beyond (a lab's file of hundreds of lone tests), the whole fit less the test's own share.
REBUILT_TESTS = 64
LINE_ITERATIONS = 200
# The memory a report's model may keep of its tests' sums at the spread grids (`ReportModel.summed`).
SUMMED_BYTES = 256 * 2 ** 20
# The grid (log variance, a tenth apart) of the spread of the series' shapes about their test's
# (`ReportModel._shape_spread`): the same range as the other variances.
SHAPE_STEP = 0.1
# A shape's prior looser than this (log SD: the ratio of cost per KB to fixed cost known within
# a factor 1.65) is not used. It cannot place an end, and a Gaussian in the log of a ratio whose
# fixed part the other sizes cannot see (an end below them) pulls that part towards zero where
# the log is steep: the linearised interval about such a mode is far too narrow (a lab's test
# whose other server carried a cost off its curve, its shapes 3 apart: 2.54 ms +- 7 % predicted
# where its own sizes say 3.87 +- 25 % and 3.90 was measured).
MAX_SHAPE_PRIOR_SD = 0.5


@dataclass(frozen=True)
class Member:
    """One series of the report: its test, its configuration, and its usable distinct points."""

    test: str
    config: tuple
    sizes: tuple[float, ...]      # bytes, ascending; a size twice where it has two costs
    log_costs: tuple[float, ...]
    theta: tuple[float, float]    # its own line (fixed ms, ms per KB) of all its points: the start
    kin: tuple = ()               # what else its line's shape is shared with besides its test
                                  # (product, version, persistence, platform: `ReportModel.shape_prior`)


def _line(theta: np.ndarray, kb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log(fixed + per_kb x kb) and its Jacobian in (fixed, per_kb), for series' thetas (n, 2)
    at their sizes (n, k)."""
    f = np.maximum(theta[:, :1] + theta[:, 1:2] * kb, 1e-300)
    return np.log(f), np.stack([1.0 / f, kb / f], axis=-1)


def _nonnegative(theta: np.ndarray) -> np.ndarray:
    return np.maximum(theta, 0.0)


def _halved_step(evaluate, value: float, point: np.ndarray, step: np.ndarray, project=None):
    """The first of point + step, + step / 2, + step / 4 ... (each ``project``ed) whose
    ``evaluate(...)[0]`` is no more than ``value``, or the last tried: (it, its evaluation)."""
    length = 1.0
    while True:
        candidate = point + length * step
        if project is not None:
            candidate = project(candidate)
        found = evaluate(candidate)
        if found[0] <= value or length < 1e-12:
            return candidate, found
        length *= 0.5


def _fit_line(kb: np.ndarray, target: np.ndarray, start: np.ndarray, whiten: np.ndarray | None = None
              ) -> np.ndarray:
    """The line (fixed, per_kb, both >= 0) that minimises |whiten (target - log(fixed + per_kb kb))|^2:
    Gauss-Newton from ``start`` with the step halved until it descends, a parameter at its bound
    held there while the gradient pushes it below (scipy's least_squares, called per point and
    per round, was most of a fit's time)."""
    theta = np.maximum(np.asarray(start, dtype=float), 0.0)
    if not np.any(theta > 0):
        theta = np.array([float(np.exp(np.median(target))), 0.0])

    def evaluate(th):
        f = th[0] + th[1] * kb
        if f.min() <= 0:
            return math.inf, None, None
        e = target - np.log(f)
        r = e if whiten is None else whiten @ e
        return 0.5 * float(r @ r), r, f

    value, r, f = evaluate(theta)
    for _iteration in range(LINE_ITERATIONS):
        jf = np.stack([1.0 / f, kb / f])                 # (2, k): d log f / d theta
        jac = -(jf if whiten is None else jf @ whiten.T)  # rows: d r / d theta
        g0, g1 = float(jac[0] @ r), float(jac[1] @ r)
        h00, h01, h11 = float(jac[0] @ jac[0]), float(jac[0] @ jac[1]), float(jac[1] @ jac[1])
        free0 = not (theta[0] <= 0.0 and g0 > 0.0)
        free1 = not (theta[1] <= 0.0 and g1 > 0.0)
        det = h00 * h11 - h01 * h01
        if free0 and free1 and det > 1e-14 * h00 * h11:
            step = np.array([(-g0 * h11 + g1 * h01) / det, (g0 * h01 - g1 * h00) / det])
        elif free0 and h00 > 0:
            step = np.array([-g0 / h00, 0.0])
        elif free1 and h11 > 0:
            step = np.array([0.0, -g1 / h11])
        else:
            break
        candidate, (new_value, new_r, new_f) = _halved_step(evaluate, value, theta, step, _nonnegative)
        if not new_value <= value:
            break
        moved = float(np.max(np.abs(candidate - theta)))
        theta, decrease = candidate, value - new_value
        value, r, f = new_value, new_r, new_f
        if moved <= 1e-13 * float(np.max(theta)) or decrease <= 1e-16 * value:
            break
    return theta


def _shape(theta: np.ndarray) -> float | None:
    """A line's shape: log(per_kb / fixed), minus the log of the size (KB) at which its cost per
    KB adds up to its fixed cost; None for a line at a bound (flat or proportional)."""
    fixed, per_kb = float(theta[0]), float(theta[1])
    return math.log(per_kb / fixed) if fixed > 0 and per_kb > 0 else None


def _shape_gradient(theta: np.ndarray) -> np.ndarray:
    """d _shape / d (fixed, per_kb)."""
    return np.array([-1.0 / theta[0], 1.0 / theta[1]])


def _fit_shaped_line(kb: np.ndarray, target: np.ndarray, start: np.ndarray, whiten: np.ndarray,
                     centre: float, variance: float) -> np.ndarray:
    """The line (fixed, per_kb, both > 0) that minimises |whiten (target - log(fixed + per_kb kb))|^2
    + (log(per_kb / fixed) - centre)^2 / variance: the fit of `_fit_line` with the shape's prior
    (`ReportModel.shape_prior`) as one more observation. Gauss-Newton in the logs of both
    parameters (the prior keeps them off the bounds), the step halved until it descends."""
    scale = float(np.max(start)) if np.max(start) > 0 else float(np.exp(np.median(target)))
    p = np.log(np.maximum(np.asarray(start, dtype=float), 1e-6 * scale))
    root = math.sqrt(variance)

    def evaluate(q):
        f = math.exp(q[0]) + math.exp(q[1]) * kb
        r = np.append(whiten @ (target - np.log(f)), (q[1] - q[0] - centre) / root)
        return 0.5 * float(r @ r), r, f

    value, r, f = evaluate(p)
    for _iteration in range(LINE_ITERATIONS):
        jf = np.stack([math.exp(p[0]) / f, math.exp(p[1]) * kb / f], axis=1)  # d log f / d log theta
        jac = np.vstack([-(whiten @ jf), np.array([-1.0, 1.0]) / root])
        step = np.linalg.lstsq(jac, -r, rcond=None)[0]
        candidate, (new_value, new_r, new_f) = _halved_step(evaluate, value, p, step)
        if not new_value <= value:
            break
        moved = float(np.max(np.abs(candidate - p)))
        p, decrease = candidate, value - new_value
        value, r, f = new_value, new_r, new_f
        if moved <= 1e-12 or decrease <= 1e-16 * value:
            break
    return np.exp(p)


def _scatter(size: int, index: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.bincount(index, weights=values, minlength=size).astype(float, copy=False)


def _inv(a: np.ndarray) -> np.ndarray:
    return np.linalg.inv(a) if a.size else a.copy()


class _Layout:
    """The report's costs as padded arrays (series x their points), the columns of the random
    effects, which factor is eliminated level by level, and the index arrays that scatter each
    series' local blocks into C's blocks and gather C^-1's back."""

    def __init__(self, members: list[Member]):
        n = len(members)
        self.n = n
        lengths = np.array([len(m.sizes) for m in members], dtype=int)
        self.nmax = int(lengths.max())
        self.mask = np.arange(self.nmax)[None, :] < lengths[:, None]
        sizes = sorted({s for m in members for s in m.sizes})
        size_number = {s: k for k, s in enumerate(sizes)}
        self.size = np.ones((n, self.nmax))
        self.y = np.zeros((n, self.nmax))
        size_index = np.full((n, self.nmax), -1, dtype=int)
        for i, m in enumerate(members):
            k = len(m.sizes)
            self.size[i, :k] = m.sizes
            self.y[i, :k] = m.log_costs
            size_index[i, :k] = [size_number[s] for s in m.sizes]
        self.kb = self.size / KIB
        self.theta = np.array([m.theta for m in members], dtype=float)
        self.tests = sorted({m.test for m in members})
        test_number = {t: k for k, t in enumerate(self.tests)}
        config_number = {c: k for k, c in enumerate(dict.fromkeys(m.config for m in members))}
        self.test_of = np.array([test_number[m.test] for m in members], dtype=int)
        self.config_of = np.array([config_number[m.config] for m in members], dtype=int)
        self.n_tests, n_sizes = len(self.tests), len(sizes)

        # columns of each factor: (level, size) held by two observations or more, level-major
        factor_cols, factor_levels, obs_cols, factor_keys = [], [], [], []
        for level_of in (self.test_of, self.config_of):
            key = np.where(self.mask, level_of[:, None] * n_sizes + size_index, -1)
            found, counts = np.unique(key[self.mask], return_counts=True)
            kept = found[counts >= 2]
            position = np.searchsorted(kept, key)
            hit = (self.mask & (position < len(kept))
                   & (kept[np.minimum(position, len(kept) - 1)] == key) if len(kept) else np.zeros_like(self.mask))
            factor_cols.append(len(kept))
            factor_levels.append(kept // n_sizes)
            factor_keys.append(kept)
            obs_cols.append(np.where(hit, position, -1))
        self.folded_test = self.mask & (obs_cols[0] < 0)
        self.folded_config = self.mask & (obs_cols[1] < 0)
        # the factor with fewer columns stays whole (the Schur complement), the other is
        # eliminated level by level
        self.small = 0 if factor_cols[0] <= factor_cols[1] else 1
        large = 1 - self.small
        self.m, self.L = factor_cols[self.small], factor_cols[large]
        self.width = self.m + self.L
        obs_global = [np.where(obs_cols[self.small] >= 0, obs_cols[self.small], -1),
                      np.where(obs_cols[large] >= 0, self.m + obs_cols[large], -1)]
        self.obs_test_col = obs_global[0] if self.small == 0 else obs_global[1]
        self.obs_config_col = obs_global[1] if self.small == 0 else obs_global[0]
        # (factor, level, size) -> its column, for a new cost at a size
        self.col_at = {}
        self.level_columns: dict[tuple[int, int], list[int]] = {}  # (factor, level) -> its columns
        for factor in (0, 1):
            offset = 0 if factor == self.small else self.m
            for position, key in enumerate(factor_keys[factor].tolist()):
                self.col_at[(factor, key // n_sizes, sizes[key % n_sizes])] = offset + position
                self.level_columns.setdefault((factor, key // n_sizes), []).append(offset + position)
        # each column's factor and, for a test's, its test
        col_factor = np.empty(self.width, dtype=int)
        col_factor[:self.m], col_factor[self.m:] = self.small, large
        col_level = np.concatenate([factor_levels[self.small], factor_levels[large]]).astype(int)
        self.col_is_test = col_factor == 0
        self.col_test = np.where(self.col_is_test, col_level, -1)
        # the large factor's levels: contiguous ranges of its columns
        large_levels, starts = np.unique(factor_levels[large], return_index=True)
        self.level_start = np.append(starts, self.L).astype(int)
        self.n_levels = len(large_levels)
        widths = np.diff(self.level_start)
        self.dl = int(widths.max()) if len(widths) else 0
        self.level_of_large = np.repeat(np.arange(self.n_levels), widths)  # large col -> its level
        self.pos_of_large = np.arange(self.L) - self.level_start[self.level_of_large] if self.L else np.zeros(0, int)
        self.level_cols = np.full((self.n_levels, self.dl), -1, dtype=int)  # level -> its large cols
        for lv in range(self.n_levels):
            self.level_cols[lv, :widths[lv]] = np.arange(self.level_start[lv], self.level_start[lv + 1])

        # each series' local columns (the union of its points') and Z in them
        local = [np.unique(np.concatenate([obs_global[0][i][obs_global[0][i] >= 0],
                                           obs_global[1][i][obs_global[1][i] >= 0]])) for i in range(n)]
        self.dmax = max((len(c) for c in local), default=0)
        self.loc = np.full((n, self.dmax), -1, dtype=int)
        self.z = np.zeros((n, self.nmax, self.dmax))
        for i, cols in enumerate(local):
            self.loc[i, :len(cols)] = cols
            for col_of in obs_global:
                rows = np.flatnonzero(col_of[i] >= 0)
                self.z[i, rows, np.searchsorted(cols, col_of[i][rows])] = 1.0
        self._index_blocks()

    def _index_blocks(self) -> None:
        """Index arrays from a series' local (p, q) pairs to C's blocks (S0, B, D) and back."""
        n, d, m = self.n, self.dmax, self.m
        i, p, q = np.meshgrid(np.arange(n), np.arange(d), np.arange(d), indexing="ij")
        cp, cq = self.loc[i, p], self.loc[i, q]
        valid = (cp >= 0) & (cq >= 0)
        src = np.ravel_multi_index((i, p, q), (n, d, d))
        sp, sq = valid & (cp < m), valid & (cq < m)
        both_small, small_large, both_large = sp & sq, sp & (cq >= m) & valid, valid & (cp >= m) & (cq >= m)
        large_small = valid & (cp >= m) & (cq < m)
        self.ss = (src[both_small], cp[both_small] * m + cq[both_small])
        lp, lq = cp[both_large] - m, cq[both_large] - m
        self.ll = (src[both_large], (self.level_of_large[lp] * self.dl + self.pos_of_large[lp]) * self.dl
                   + self.pos_of_large[lq])
        # gathering C^-1[loc, loc] of every series reads S^-1 and the level blocks where the
        # scatter into C wrote S0 and D
        self.k_ss, self.k_ll = self.ss, self.ll
        self.b_index = np.where(self.loc >= 0, self.loc, 0)
        # each large level's coupling with the small factor is non-zero only in the small columns
        # its series hold (a configuration's: its tests'): B[l] is kept as those rows alone
        rows: dict[int, set] = {}
        for i in range(n):
            own = self.loc[i][self.loc[i] >= 0]
            big, little = own[own >= m], own[own < m]
            if len(big):
                rows.setdefault(int(self.level_of_large[big[0] - m]), set()).update(little.tolist())
        self.rmax = max((len(r) for r in rows.values()), default=0)
        self.level_rows = np.zeros((self.n_levels, self.rmax), dtype=int)
        self.level_rows_mask = np.zeros((self.n_levels, self.rmax), dtype=bool)
        for lv, found in rows.items():
            ordered = sorted(found)
            self.level_rows[lv, :len(ordered)] = ordered
            self.level_rows_mask[lv, :len(ordered)] = True
        # a pair's row: its small column's place among its level's rows (sorted, level-major keys)
        keys = (np.arange(self.n_levels)[:, None] * (m + 1) + self.level_rows)[self.level_rows_mask]
        starts = np.concatenate([[0], np.cumsum(self.level_rows_mask.sum(axis=1))])[:-1]

        def in_rows(small_col, large_col):
            """Flat index of (small, large) pairs into a (levels, rows, dl) array."""
            lv = self.level_of_large[large_col - m] if self.L else np.zeros(0, dtype=int)
            row = (np.searchsorted(keys, lv * (m + 1) + small_col) - starts[lv] if self.n_levels
                   else np.zeros(0, dtype=int))
            return (lv * self.rmax + row) * self.dl + (self.pos_of_large[large_col - m] if self.L else lv)

        self.sl = (src[small_large], in_rows(cp[small_large], cq[small_large]))
        # gathering C^-1's small x large entries of every series: from S^-1 B[l] D[l]^-1's rows
        self.k_sl = self.sl
        self.k_ls = (src[large_small], in_rows(cq[large_small], cp[large_small]))
        r1, r2 = np.meshgrid(np.arange(self.rmax), np.arange(self.rmax), indexing="ij")
        self.schur_index = (self.level_rows[:, r1] * m + self.level_rows[:, r2]).ravel()


class _Inverse:
    """C = G^-1 + sum of the series' Z'QZ kept as its blocks: S0 (the small factor's columns), the
    large factor's levels D[l] and their coupling B; C^-1 from S = S0 - sum B[l] D[l]^-1 B[l]'."""

    def __init__(self, layout: _Layout, g: np.ndarray, a_blocks: np.ndarray, b: np.ndarray):
        lay, m, L, dl = layout, layout.m, layout.L, layout.dl
        flat = a_blocks.ravel()
        s0 = _scatter(m * m, lay.ss[1], flat[lay.ss[0]]).reshape(m, m) + np.diag(1.0 / g[:m])
        nl, rmax = lay.n_levels, lay.rmax
        self.b_levels = _scatter(nl * rmax * dl, lay.sl[1], flat[lay.sl[0]]).reshape(nl, rmax, dl)  # B[l]'s rows
        d = _scatter(nl * dl * dl, lay.ll[1], flat[lay.ll[0]]).reshape(nl, dl, dl)
        has = lay.level_cols >= 0
        diagonal = np.where(has, 1.0 / g[m + np.maximum(lay.level_cols, 0)] if L else 1.0, 1.0)
        d[:, np.arange(dl), np.arange(dl)] += np.where(has, diagonal, 1.0)  # a pad weighs 1: logdet 0
        self.d_inv = _inv(d)
        self.logdet = float(np.sum(np.linalg.slogdet(d)[1])) if d.size else 0.0
        self.h = self.b_levels @ self.d_inv                                # B[l] D[l]^-1, its rows
        schur = s0
        if nl and rmax:
            schur = s0 - _scatter(m * m, lay.schur_index, (self.h @ np.swapaxes(self.b_levels, 1, 2)).ravel()
                                  ).reshape(m, m)
        self.s_inv = _inv(schur)
        self.logdet += float(np.linalg.slogdet(schur)[1]) if m else 0.0
        # S^-1 B[l] D[l]^-1 on the level's own rows (all a series' columns of C^-1 need; `block`
        # computes other rows when asked), and C^-1's level blocks
        self.sh = (self.s_inv[lay.level_rows[:, :, None], lay.level_rows[:, None, :]] @ self.h if nl and m
                   else np.zeros((nl, rmax, dl)))
        self.k_large = self.d_inv + np.matmul(np.swapaxes(self.h, 1, 2), self.sh)
        self.layout = layout
        self.u = self.solve(b)

    def solve(self, b: np.ndarray) -> np.ndarray:
        """C^-1 b."""
        lay, m = self.layout, self.layout.m
        has = lay.level_cols >= 0
        b_large = np.where(has, b[m + np.maximum(lay.level_cols, 0)] if lay.L else 0.0, 0.0)  # (levels, dl)
        pushed = _scatter(m, lay.level_rows.ravel(), (self.h @ b_large[..., None])[..., 0].ravel()) if m else 0.0
        u_small = self.s_inv @ (b[:m] - pushed) if m else np.zeros(0)
        rest = (b_large - (np.swapaxes(self.b_levels, 1, 2) @ u_small[lay.level_rows][..., None])[..., 0]
                if lay.n_levels and m else b_large)
        u_levels = np.matmul(self.d_inv, rest[..., None])[..., 0]
        u = np.empty(lay.width)
        u[:m] = u_small
        u[m + lay.level_cols[has]] = u_levels[has]
        return u

    def diagonal(self) -> np.ndarray:
        lay, m = self.layout, self.layout.m
        out = np.empty(lay.width)
        out[:m] = np.diag(self.s_inv)
        has = lay.level_cols >= 0
        out[m + lay.level_cols[has]] = np.einsum("ldd->ld", self.k_large)[has]
        return out

    def local_blocks(self) -> np.ndarray:
        """C^-1[loc_i, loc_i] of every series i, in its local column order."""
        lay = self.layout
        out = np.zeros(lay.n * lay.dmax * lay.dmax)
        out[lay.k_ss[0]] = self.s_inv.ravel()[lay.k_ss[1]]
        if lay.L:
            sh = self.sh.ravel()
            out[lay.k_sl[0]] = -sh[lay.k_sl[1]]
            out[lay.k_ls[0]] = -sh[lay.k_ls[1]]
            out[lay.k_ll[0]] = self.k_large.ravel()[lay.k_ll[1]]
        return out.reshape(lay.n, lay.dmax, lay.dmax)

    def block(self, cols: np.ndarray) -> np.ndarray:
        """C^-1[cols][:, cols] for any columns."""
        lay, m = self.layout, self.layout.m
        cols = np.asarray(cols, dtype=int)
        small = cols < m
        out = np.zeros((len(cols), len(cols)))
        s = np.flatnonzero(small)
        out[np.ix_(s, s)] = self.s_inv[np.ix_(cols[s], cols[s])]
        big = np.flatnonzero(~small)
        if len(big):
            lv, pos = lay.level_of_large[cols[big] - m], lay.pos_of_large[cols[big] - m]
            # B[l] D[l]^-1's columns of the big ones over all small columns, and S^-1 times them
            v = np.zeros((m, len(big)))
            np.add.at(v, (lay.level_rows[lv], np.arange(len(big))[:, None]), self.h[lv, :, pos])
            sh = (self.s_inv @ v).T    # (big, m)
            out[np.ix_(big, big)] = v.T @ sh.T
            same = lv[:, None] == lv[None, :]
            out[np.ix_(big, big)] += np.where(same, self.d_inv[lv[:, None], pos[:, None], pos[None, :]], 0.0)
            if len(s):
                cross = -sh[:, cols[s]].T  # (small, big)
                out[np.ix_(s, big)] = cross
                out[np.ix_(big, s)] = cross.T
        return out


@dataclass
class _Variances:
    s0: float
    spreads: np.ndarray   # sigma2 of each test
    tau0: float
    bends: np.ndarray     # tau of each test
    tau_c: float

    @classmethod
    def of(cls, phi: np.ndarray, n_tests: int) -> _Variances:
        e = np.exp(phi)
        return cls(float(e[0]), e[1:1 + n_tests], float(e[1 + n_tests]), e[2 + n_tests:2 + 2 * n_tests],
                   float(e[-1]))


def _prior(log_values: np.ndarray, values: np.ndarray, log_centre: float, centre: float) -> tuple[float, np.ndarray, float]:
    """-log density of log variances under a scaled inverse chi-square (PRIOR_DF, centre), and its
    gradients in the log variances and in log centre. As a density of the log (the parameter the
    fit moves): that of the variance itself carries a 1 / variance that pays every variance and
    the centre for falling together towards zero where a test's own cannot be told apart."""
    value = float(np.sum(PRIOR_DF / 2 * log_values + PRIOR_DF * centre / (2 * values))
                  - len(values) * PRIOR_DF / 2 * log_centre)
    return value, PRIOR_DF / 2 - PRIOR_DF * centre / (2 * values), \
        float(np.sum(PRIOR_DF * centre / (2 * values)) - len(values) * PRIOR_DF / 2)


@dataclass
class _Parts:
    """One series' linearised likelihood with its line integrated out, at given noise variances:
    Z'QZ, Z'Q r, r'Q r + log|R| + log|J'R^-1 J|, Q and Q r (batched over series, and over a grid)."""

    a: np.ndarray
    b: np.ndarray
    constant: np.ndarray
    q: np.ndarray
    qr: np.ndarray
    qz: np.ndarray


def _parts(v: np.ndarray, mask: np.ndarray, jac: np.ndarray, r: np.ndarray, z: np.ndarray) -> _Parts:
    """For noise variances v (..., k) of costs with mask, Jacobians (..., k, 2), residuals and
    local Z (..., k, d)."""
    w = np.where(mask, 1.0 / v, 0.0)
    wj = w[..., None] * jac
    wj_t = np.swapaxes(wj, -1, -2)
    info = wj_t @ jac
    inv = np.linalg.inv(info)
    q = w[..., :, None] * np.eye(w.shape[-1]) - wj @ inv @ wj_t
    qr = (q @ r[..., None])[..., 0]
    qz = q @ z
    z_t = np.swapaxes(z, -1, -2)
    const = (np.sum(r * qr, axis=-1) + np.sum(np.where(mask, np.log(v), 0.0), axis=-1)
             + np.linalg.slogdet(info)[1])
    return _Parts(z_t @ qz, (z_t @ qr[..., None])[..., 0], const, q, qr, qz)


class ReportModel:
    """The mixed model of one report's series (see the module's docstring)."""

    def __init__(self, members: list[Member]):
        self.members = members
        self.layout = _Layout(members)
        self.tests = self.layout.tests
        self.phi: np.ndarray | None = None
        self._blocks: dict[int, _TestBlock] = {}
        self._summed: OrderedDict[tuple[int, bytes], tuple] = OrderedDict()
        self._summed_bytes = 0

    # -- the fit ------------------------------------------------------------------------------

    def _noise(self, var: _Variances, spreads: np.ndarray | None = None) -> np.ndarray:
        lay = self.layout
        spreads = var.spreads if spreads is None else spreads
        v = (spreads[lay.test_of][:, None] + var.bends[lay.test_of][:, None] * lay.folded_test
             + var.tau_c * lay.folded_config)
        return np.where(lay.mask, v, 1.0)

    def _prior_variances(self, var: _Variances) -> np.ndarray:
        lay = self.layout
        return np.where(lay.col_is_test, var.bends[np.maximum(lay.col_test, 0)], var.tau_c)

    def _linearise(self, theta: np.ndarray) -> None:
        lay = self.layout
        self.theta = theta
        h, self.jac = _line(theta, lay.kb)
        self.residual = np.where(lay.mask, lay.y - h, 0.0)

    def _state(self, phi: np.ndarray):
        lay = self.layout
        var = _Variances.of(phi, lay.n_tests)
        parts = _parts(self._noise(var), lay.mask, self.jac, self.residual, lay.z)
        g = self._prior_variances(var)
        b = _scatter(lay.width, lay.b_index.ravel(), np.where(lay.loc >= 0, parts.b, 0.0).ravel())
        return var, parts, g, _Inverse(lay, g, parts.a, b), b

    def _objective(self, phi: np.ndarray) -> tuple[float, np.ndarray]:
        """Penalised negative restricted log-likelihood and its gradient in phi = [log s0, log
        spreads, log tau0, log bends, log tau_c]."""
        lay, nt = self.layout, self.layout.n_tests
        var, parts, g, inverse, b = self._state(phi)
        u = inverse.u
        value = 0.5 * (float(np.sum(parts.constant)) + float(np.sum(np.log(g))) + inverse.logdet - float(b @ u))
        p_diag, p_r = self._projections(parts, inverse)
        e = np.where(lay.mask, p_diag - p_r ** 2, 0.0)
        grad = np.zeros_like(phi)
        per_test = np.bincount(lay.test_of, weights=e.sum(axis=1), minlength=nt)
        grad[1:1 + nt] = 0.5 * per_test * var.spreads
        folded = np.bincount(lay.test_of, weights=np.where(lay.folded_test, e, 0.0).sum(axis=1), minlength=nt)
        cinv = inverse.diagonal()
        col = (1.0 / g - cinv / g ** 2 - (u / g) ** 2) * g
        by_test = np.bincount(lay.col_test[lay.col_is_test], weights=col[lay.col_is_test], minlength=nt)
        grad[2 + nt:2 + 2 * nt] = 0.5 * (folded * var.bends + by_test)
        grad[-1] = 0.5 * (float(np.sum(np.where(lay.folded_config, e, 0.0))) * var.tau_c
                          + float(np.sum(col[~lay.col_is_test])))
        for (log_values, values, at, centre, where) in (
                (phi[1:1 + nt], var.spreads, 0, var.s0, slice(1, 1 + nt)),
                (phi[2 + nt:2 + 2 * nt], var.bends, 1 + nt, var.tau0, slice(2 + nt, 2 + 2 * nt))):
            p_value, p_grad, p_centre = _prior(log_values, values, phi[at], centre)
            value += p_value
            grad[where] += p_grad
            grad[at] += p_centre
        return value, grad

    def _projections(self, parts: _Parts, inverse: _Inverse) -> tuple[np.ndarray, np.ndarray]:
        """diag(P) and P r per cost, P = Q - QZ C^-1 Z'Q (the restricted likelihood's projection)."""
        lay = self.layout
        k = inverse.local_blocks()
        u_local = np.where(lay.loc >= 0, inverse.u[lay.b_index], 0.0)
        p_diag = np.einsum("nkk->nk", parts.q) - np.sum((parts.qz @ k) * parts.qz, axis=-1)
        p_r = parts.qr - (parts.qz @ u_local[..., None])[..., 0]
        return p_diag, p_r

    def fit(self) -> ReportModel:
        from scipy.optimize import minimize

        lay = self.layout
        if lay.n < 2:  # nothing but the series' own values could say how far it scatters
            return self
        phi = np.full(2 * lay.n_tests + 3, START_LOG_VARIANCE)
        theta = lay.theta.copy()
        for _round in range(MAX_ROUNDS):
            self._linearise(theta)
            found = minimize(self._objective, phi, jac=True, method="L-BFGS-B",
                             bounds=[LOG_VARIANCE_BOUNDS] * len(phi))
            phi = found.x
            u = self._state(phi)[3].u
            moved = self._refit(theta, u)
            step = np.max(np.abs(moved - theta) / (np.abs(theta) + 1e-9 + np.abs(theta).max(axis=1, keepdims=True)))
            theta = moved
            if step < LINE_TOLERANCE:
                break
        self._linearise(theta)
        self.phi = phi
        self.var, self.parts, self.prior_variances, self.inverse, _b = self._state(phi)
        self.p_diag, self.p_r = self._projections(self.parts, self.inverse)
        self._blocks = {}
        self._fit_shapes()
        return self

    def _fit_shapes(self) -> None:
        """Each member's shape (`_shape` of its line at the mode) and that shape's variance from
        its own costs, and how far the shapes of one kind's series spread about their kind's
        (see `shape_prior`)."""
        lay = self.layout
        noise = self._noise(self.var)
        effects = self._effects(self.inverse.u)
        self.shapes = np.full(lay.n, np.nan)
        self.shape_variances = np.full(lay.n, np.nan)
        for i in range(lay.n):
            shape = _shape(self.theta[i])
            if shape is None:
                continue
            k = lay.mask[i]
            jac = self.jac[i][k]
            info = jac.T @ (jac / noise[i][k][:, None])
            gradient = _shape_gradient(self.theta[i])
            try:
                variance = float(gradient @ np.linalg.solve(info, gradient))
            except np.linalg.LinAlgError:
                continue
            # a series whose costs lie further off its line than its test scatters (a cost off
            # its curve, an odd run) is less sure of its shape by as much: its test-mates do not
            # inherit the tilt
            left = (self.residual[i] - effects[i])[k]
            if len(left) > 2:
                variance *= max(1.0, float(left @ left / (len(left) - 2)) / float(np.mean(noise[i][k])))
            if math.isfinite(variance) and variance > 0:
                self.shapes[i], self.shape_variances[i] = shape, variance
        kinds = [(m.test, m.kin) for m in self.members]
        number = {kind: k for k, kind in enumerate(dict.fromkeys(kinds))}
        self.kind_of = np.array([number[kind] for kind in kinds], dtype=int)
        self.shape_spread = self._shape_spread()
        self._weigh_shapes()

    def _weigh_shapes(self) -> None:
        """Each shape's weight at the spread, and each kind's sums of weights and weighted shapes
        (a member's prior takes its own out of them: a kind of thousands costs no more)."""
        self._kind_sums = None
        if self.shape_spread is None:
            return
        known = np.isfinite(self.shapes)
        w = np.where(known, 1.0 / (self.shape_spread + np.where(known, self.shape_variances, 1.0)), 0.0)
        kinds = int(self.kind_of.max()) + 1
        self._kind_sums = (_scatter(kinds, self.kind_of, w),
                           _scatter(kinds, self.kind_of, w * np.where(known, self.shapes, 0.0)))
        self._shape_weights = w

    def _shape_spread(self) -> float | None:
        """The variance of the series' shapes about their kind's, beyond what their own costs
        leave unsure: maximising the restricted likelihood of the shapes (each kind's mean
        integrated out) over a grid of log variances; None where no kind has two shapes."""
        known = np.flatnonzero(np.isfinite(self.shapes))
        counts = np.bincount(self.kind_of[known], minlength=int(self.kind_of.max()) + 1)
        shared = known[counts[self.kind_of[known]] >= 2]
        if not len(shared):
            return None
        shared = shared[np.argsort(self.kind_of[shared], kind="stable")]  # kind by kind
        starts = np.flatnonzero(np.diff(self.kind_of[shared], prepend=-1))
        shapes, variances = self.shapes[shared], self.shape_variances[shared]
        low, high = LOG_VARIANCE_BOUNDS
        grid = np.arange(low, high + SHAPE_STEP / 2, SHAPE_STEP)
        v = np.exp(grid)[:, None] + variances[None, :]          # (grid, shapes)
        w = 1.0 / v
        total = np.add.reduceat(w, starts, axis=1)             # (grid, kinds)
        mean = np.add.reduceat(w * shapes, starts, axis=1) / total
        kind_of_shape = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(shared))))
        value = (np.log(v).sum(axis=1) + np.log(total).sum(axis=1)
                 + (w * (shapes[None, :] - mean[:, kind_of_shape]) ** 2).sum(axis=1))
        return float(np.exp(grid[int(np.argmin(value))]))

    def shape_prior(self, i: int) -> tuple[float, float] | None:
        """What member i's line's shape is expected to be before its own costs are seen: the
        shapes of the other series of its kind (its test, of the same product, version,
        persistence and platform: in other configurations, T-shirts, replicas), each weighted by
        how sure it is, with the kind's spread: (mean, variance), or None where its kind has no
        other shape. A series' fixed cost scales with the machine and so does its cost per KB:
        their ratio is what the runs of one test share (two or three sizes leave a line's slope
        unsure, and an extrapolation from them carries that several times over)."""
        if self._kind_sums is None:
            return None
        k = self.kind_of[i]
        weight, weighted = float(self._kind_sums[0][k]), float(self._kind_sums[1][k])
        if np.isfinite(self.shapes[i]):
            weight -= float(self._shape_weights[i])
            weighted -= float(self._shape_weights[i] * self.shapes[i])
        if weight <= 1e-12 * float(self._kind_sums[0][k]) or weight <= 0:
            return None
        variance = self.shape_spread + 1.0 / weight
        return (weighted / weight, variance) if variance <= MAX_SHAPE_PRIOR_SD ** 2 else None

    def _effects(self, u: np.ndarray) -> np.ndarray:
        """The effects ``u`` summed at each series' costs (Z u, series x their points)."""
        lay = self.layout
        return np.einsum("nkd,nd->nk", lay.z, np.where(lay.loc >= 0, u[lay.b_index], 0.0))

    def _refit(self, theta: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Each series' line fitted again to its costs less the effects' mode (bounded least squares
        on the log scale, as `models.fit`)."""
        lay = self.layout
        effects = self._effects(u)
        out = theta.copy()
        for i in range(lay.n):
            k = lay.mask[i]
            out[i] = _fit_line(lay.kb[i, k], lay.y[i, k] - effects[i, k], theta[i])
        return out

    # -- what the fit gives -------------------------------------------------------------------

    @property
    def s0(self) -> float:
        return self.var.s0

    @property
    def spreads(self) -> np.ndarray:
        return self.var.spreads

    def spread(self, i: int) -> float | None:
        """The scatter (log variance) of member ``i``'s test; None for a report of one series."""
        return None if self.layout.n < 2 else float(self.var.spreads[self.layout.test_of[i]])

    def predict(self, i: int, size: float) -> tuple[float, float] | None:
        """(mean, variance) of the log cost of member ``i`` at ``size`` given everything but its
        costs at that size; None for a report of one series (nothing but its own values could say
        how far it scatters)."""
        lay = self.layout
        if lay.n < 2:
            return None
        t = int(lay.test_of[i])
        keep = lay.mask[i] & (lay.size[i] != size)
        new = [c for c in self._columns_at(i, size) if c >= 0]  # the new cost's shared bends
        block = self._test_block(t)
        if block is not None:
            spread = block.spread_without(i, keep)
            cols, mean, cov = block.effects_without(i, spread, new)
        else:
            spread = self._spread_stepped(i, keep)
            cols, mean, cov = self._effects_without(i, new)
        return self._fit_own(i, keep, size, spread, cols, mean, cov)

    def summed(self, t: int, spreads: np.ndarray, compute) -> tuple[np.ndarray, ...]:
        """``compute(spreads)``, test ``t``'s sums at a grid of spreads, or those computed before
        for the same test and grid: its points' searches of their spread meet the same grids (a
        thousand-row add spent half its fit summing them again). The last grids' are kept, at
        most SUMMED_BYTES in all; read-only, so that no caller changes what another reads."""
        key = (t, spreads.tobytes())
        if key in self._summed:
            self._summed.move_to_end(key)
            return self._summed[key]
        value = tuple(np.asarray(part) for part in compute(spreads))
        for part in value:
            part.flags.writeable = False
        self._summed[key] = value
        self._summed_bytes += sum(part.nbytes for part in value)
        while self._summed_bytes > SUMMED_BYTES and len(self._summed) > 1:
            _key, dropped = self._summed.popitem(last=False)
            self._summed_bytes -= sum(part.nbytes for part in dropped)
        return value

    def _columns_at(self, i: int, size: float) -> tuple[int, int]:
        """The columns of member i's test and configuration at ``size`` (-1: none, a bend no
        other cost shares)."""
        lay = self.layout
        return (lay.col_at.get((0, int(lay.test_of[i]), size), -1),
                lay.col_at.get((1, int(lay.config_of[i]), size), -1))

    def _test_block(self, t: int) -> _TestBlock | None:
        if t not in self._blocks:
            self._blocks[t] = _TestBlock.of(self, t)
        return self._blocks[t]

    def _spread_stepped(self, i: int, keep: np.ndarray) -> float:
        """The test's spread without member i's costs outside ``keep``: one step of its estimating
        equation, sum over the test's costs of (diag P - (P r)^2) + the prior's = 0, from the fit's
        projections less those costs' own terms."""
        lay, var = self.layout, self.var
        t = lay.test_of[i]
        members = lay.test_of == t
        gone = lay.mask[i] & ~keep
        p_sum = float(np.sum(np.where(lay.mask[members], self.p_diag[members], 0.0))) - float(np.sum(self.p_diag[i][gone]))
        r_sum = float(np.sum(np.where(lay.mask[members], self.p_r[members] ** 2, 0.0))) - float(np.sum(self.p_r[i][gone] ** 2))
        s = float(var.spreads[t])
        stepped = (s * s * max(r_sum, 0.0) + PRIOR_DF * var.s0) / (s * max(p_sum, 0.0) + PRIOR_DF)
        return float(np.clip(stepped, *np.exp(LOG_VARIANCE_BOUNDS)))

    def _effects_without(self, i: int, new: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The effects on member i's columns and ``new`` given every other member (its own share
        of C taken out of the marginal of those columns): columns, mean, covariance."""
        lay = self.layout
        d = int(np.sum(lay.loc[i] >= 0))
        own = lay.loc[i, :d]
        cols = np.unique(np.concatenate([own, np.array(new, dtype=int)]))
        if not len(cols):
            return cols, np.zeros(0), np.zeros((0, 0))
        at = np.searchsorted(cols, own)
        k = self.inverse.block(cols)
        k_inv = np.linalg.inv(k)
        precision = k_inv.copy()
        precision[np.ix_(at, at)] -= self.parts.a[i, :d, :d]
        information = k_inv @ self.inverse.u[cols]
        information[at] -= self.parts.b[i, :d]
        cov = np.linalg.inv(precision)
        return cols, cov @ information, cov

    def _fit_own(self, i: int, keep: np.ndarray, size: float, spread: float, cols: np.ndarray,
                 mean: np.ndarray, cov: np.ndarray) -> tuple[float, float]:
        """Member i's line fitted to its costs in ``keep`` with the effects on ``cols`` ~ N(mean,
        cov) integrated out (bounded generalised least squares), and the log cost at ``size``:
        the line there plus the effects' posterior mean, with the joint uncertainty of both."""
        lay, var = self.layout, self.var
        t = lay.test_of[i]
        x, y = lay.size[i, keep], lay.y[i, keep]
        v = spread + var.bends[t] * lay.folded_test[i, keep] + var.tau_c * lay.folded_config[i, keep]
        z = self._z_in(i, keep, cols)
        sigma = np.diag(v) + z @ cov @ z.T
        chol = np.linalg.cholesky(sigma)
        target = y - z @ mean
        kb = x / KIB
        whiten = np.linalg.inv(chol)  # (scipy's solve_triangular cost milliseconds a call here)
        shape = self.shape_prior(i)
        theta = (_fit_line(kb, target, self.theta[i], whiten) if shape is None
                 else _fit_shaped_line(kb, target, self.theta[i], whiten, *shape))
        log_f, jac = _line(theta[None, :], kb[None, :])
        log_f, jac = log_f[0], jac[0]
        # the joint posterior of (line, effects): information form, then the quadratic at the size
        d = len(cols)
        prior_precision = np.linalg.inv(cov) if d else np.zeros((0, 0))
        w = 1.0 / v
        info = np.zeros((2 + d, 2 + d))
        info[:2, :2] = jac.T @ (w[:, None] * jac)
        if shape is not None:  # the shape's prior, linearised at the line
            gradient = _shape_gradient(theta)
            info[:2, :2] += np.outer(gradient, gradient) / shape[1]
        info[:2, 2:] = jac.T @ (w[:, None] * z)
        info[2:, :2] = info[:2, 2:].T
        info[2:, 2:] = prior_precision + z.T @ (w[:, None] * z)
        effects = (np.linalg.solve(info[2:, 2:], prior_precision @ mean + z.T @ (w * (y - log_f)))
                   if d else np.zeros(0))
        at_log, at_jac = _line(theta[None, :], np.array([[size / KIB]]))
        z0, unshared = self._new_cost(i, size, cols)
        gradient = np.concatenate([at_jac[0, 0], z0])
        variance = float(gradient @ np.linalg.pinv(info) @ gradient) + spread + unshared
        return float(at_log[0, 0] + z0 @ effects), variance

    def _z_in(self, i: int, keep: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Z of member i's costs in ``keep`` over ``cols``."""
        lay = self.layout
        out = np.zeros((int(keep.sum()), len(cols)))
        for col_of in (lay.obs_test_col, lay.obs_config_col):
            c = col_of[i, keep]
            rows = np.flatnonzero(c >= 0)
            where = np.searchsorted(cols, c[rows])
            out[rows, where] = 1.0
        return out

    def _new_cost(self, i: int, size: float, cols: np.ndarray) -> tuple[np.ndarray, float]:
        """Z's row of a new cost of member i at ``size`` over ``cols``, and the variance of the
        bends it has no column for (a bend no other cost shares is its own draw)."""
        var = self.var
        z0, unshared = np.zeros(len(cols)), 0.0
        variances = (float(var.bends[self.layout.test_of[i]]), var.tau_c)
        for col, variance in zip(self._columns_at(i, size), variances):
            if col >= 0:
                z0[int(np.searchsorted(cols, col))] = 1.0
            else:
                unshared += variance
        return z0, unshared


class _TestBlock:
    """One test's costs given the other tests': the effects on the test's columns and its series'
    configurations' given the rest of the report, N(m_o, P_o^-1), and each member's likelihood
    as a function of the test's spread. -log p(the test's costs but a point's | the rest) is then
    a function of the test's spread alone: its minimum with the prior is the spread without the
    point. A member whose costs all scatter alike (spread + the same folded bends) has Z'QZ, Z'Q r
    and r'Q r of the spread's reciprocal times fixed matrices, so the members are summed once per
    folded variance and any spread costs a few additions."""

    def __init__(self, model: ReportModel, t: int, cols: np.ndarray, members: np.ndarray):
        self.model, self.t, self.cols, self.members = model, t, cols, members
        lay = model.layout
        where = {int(c): j for j, c in enumerate(cols)}
        self.place = {int(i): np.array([where[int(c)] for c in lay.loc[i] if c >= 0], dtype=int) for i in members}
        if lay.n_tests <= REBUILT_TESTS:
            # C of the other tests' series alone, built afresh: taking the test's own share out of
            # the whole C^-1's block loses every digit where the test's scatter is tiny (its share
            # then dwarfs the rest)
            a_blocks, b_local = model.parts.a.copy(), np.where(lay.loc >= 0, model.parts.b, 0.0)
            a_blocks[members], b_local[members] = 0.0, 0.0
            others = _Inverse(lay, model.prior_variances, a_blocks,
                              _scatter(lay.width, lay.b_index.ravel(), b_local.ravel()))
            self.precision = np.linalg.inv(others.block(cols))
            self.information = self.precision @ others.u[cols]
        else:
            k_inv = np.linalg.inv(model.inverse.block(cols))
            a_sum, b_sum = np.zeros_like(k_inv), np.zeros(len(cols))
            for i in members:
                p = self.place[int(i)]
                a_sum[np.ix_(p, p)] += model.parts.a[i, :len(p), :len(p)]
                b_sum[p] += model.parts.b[i, :len(p)]
            self.precision = k_inv - a_sum
            self.information = k_inv @ model.inverse.u[cols] - b_sum
        self.fold = model.var.bends[t] * lay.folded_test + model.var.tau_c * lay.folded_config
        self._units: dict = {}
        self.groups: dict[float, list] = {}   # folded variance -> summed unit parts of its members
        self.uneven: list[int] = []            # members whose costs scatter unalike
        for i in members:
            unit = self._unit(int(i), lay.mask[i])
            if unit is None:
                self.uneven.append(int(i))
            else:
                fold, parts = unit
                group = self.groups.setdefault(fold, [np.zeros_like(self.precision), np.zeros(len(cols)), 0.0, 0, 0.0, 0])
                for k, value in enumerate(parts):
                    group[k] = group[k] + value
                group[5] += 1

    @classmethod
    def of(cls, model: ReportModel, t: int) -> _TestBlock | None:
        lay = model.layout
        members = np.flatnonzero(lay.test_of == t)
        if int(lay.mask[members].sum()) > EXACT_OBSERVATIONS:
            return None
        # the test's columns and its members' configurations' (a new cost at a size a member
        # has no usable cost at borrows from them too)
        levels = [(0, t)] + [(1, int(c)) for c in np.unique(lay.config_of[members])]
        cols = np.array(sorted({c for level in levels for c in lay.level_columns.get(level, [])}), dtype=int)
        if len(cols) > EXACT_COLUMNS:
            return None
        return cls(model, t, cols, members)

    def _unit(self, i: int, keep: np.ndarray):
        """(folded variance, (Z'Q1 Z, Z'Q1 r, r'Q1 r, costs, log|J'J|) in the block's columns) of
        member i's costs in ``keep`` if they all scatter alike (Q = Q1 / their variance), else None."""
        key = (i, keep.tobytes())
        if key not in self._units:
            self._units[key] = self._unit_afresh(i, keep)
        return self._units[key]

    def _unit_afresh(self, i: int, keep: np.ndarray):
        model, lay = self.model, self.model.layout
        folds = self.fold[i][keep]
        if not len(folds) or np.any(folds != folds[0]):
            return None
        jac, r = model.jac[i][keep], model.residual[i][keep]
        z = lay.z[i][keep][:, :len(self.place[i])]
        info = jac.T @ jac
        q1 = np.eye(len(r)) - jac @ np.linalg.solve(info, jac.T)
        n = len(self.cols)
        a, b = np.zeros((n, n)), np.zeros(n)
        p = self.place[i]
        a[np.ix_(p, p)] = z.T @ q1 @ z
        b[p] = z.T @ (q1 @ r)
        return float(folds[0]), (a, b, float(r @ q1 @ r), len(r), float(np.linalg.slogdet(info)[1]))

    def _parts_at(self, i: int, spreads: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Member i's Z'QZ, Z'Q r and constant in the block's columns at each spread (its costs in
        ``keep`` only)."""
        unit = self._unit(i, keep)
        if unit is not None:
            fold, (a1, b1, rqr, count, logdet) = unit
            v = spreads + fold
            return (a1[None] / v[:, None, None], b1[None] / v[:, None],
                    rqr / v + (count - 2) * np.log(v) + logdet)
        model, lay = self.model, self.model.layout
        d = len(self.place[i])
        v = np.where(keep[None, :], spreads[:, None] + self.fold[i][None, :], 1.0)
        g = len(spreads)
        parts = _parts(v, np.broadcast_to(keep, v.shape), np.broadcast_to(model.jac[i], (g,) + model.jac[i].shape),
                       np.broadcast_to(np.where(keep, model.residual[i], 0.0), v.shape),
                       np.broadcast_to(lay.z[i][:, :d], (g,) + lay.z[i][:, :d].shape))
        n, p = len(self.cols), self.place[i]
        a, b = np.zeros((g, n, n)), np.zeros((g, n))
        a[:, p[:, None], p[None, :]] = parts.a
        b[:, p] = parts.b
        return a, b, parts.constant

    def _sums(self, spreads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sum over the test's members of Z'QZ, Z'Q r and the constants at each spread. Those at a
        grid of spreads are the same for every point of the test (`_without` takes the point's
        own terms out of them): the grids' are kept by the model (`ReportModel.summed`)."""
        if len(spreads) == 1:  # one spread (`effects_without`): a point's own, met once
            return self._sums_afresh(spreads)
        return self.model.summed(self.t, spreads, self._sums_afresh)

    def _sums_afresh(self, spreads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self.cols)
        a, b, c = np.zeros((len(spreads), n, n)), np.zeros((len(spreads), n)), np.zeros(len(spreads))
        for fold, (a1, b1, rqr, count, logdet, members) in self.groups.items():
            v = spreads + fold
            a += a1[None] / v[:, None, None]
            b += b1[None] / v[:, None]
            c += rqr / v + (count - 2 * members) * np.log(v) + logdet
        for i in self.uneven:
            pa, pb, pc = self._parts_at(i, spreads, self.model.layout.mask[i])
            a, b, c = a + pa, b + pb, c + pc
        return a, b, c

    def _without(self, i: int, spreads: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sums with member i's costs outside ``keep`` taken out."""
        a, b, c = self._sums(spreads)
        lay = self.model.layout
        pa, pb, pc = self._parts_at(i, spreads, lay.mask[i])
        a, b, c = a - pa, b - pb, c - pc
        if keep.any():
            pa, pb, pc = self._parts_at(i, spreads, keep)
            a, b, c = a + pa, b + pb, c + pc
        return a, b, c

    def _value(self, i: int, log_spreads: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """-log p(the test's costs in ``keep`` of member i and all of its other members' | the
        rest of the report) + the spread's prior, at each log spread."""
        spreads = np.exp(log_spreads)
        a, b, c = self._without(i, spreads, keep)
        total = self.precision[None] + a
        info = self.information[None] + b
        if len(self.cols):
            logdet = np.linalg.slogdet(total)[1]
            quad = np.einsum("gi,gi->g", info, np.linalg.solve(total, info[..., None])[..., 0])
        else:
            logdet = quad = 0.0
        return 0.5 * (c + logdet - quad) + PRIOR_DF / 2 * log_spreads + PRIOR_DF * self.model.var.s0 / (2 * spreads)

    def spread_without(self, i: int, keep: np.ndarray) -> float:
        """The test's spread given everything but member i's costs outside ``keep``: the minimum
        over a grid of log spreads a unit apart (the whole range: the likelihood need not have
        one minimum), then over one a tenth apart around it, refined by the parabola through the
        least and its neighbours."""
        model = self.model
        if not np.any(model.layout.mask[i] & ~keep):  # nothing left out: the fitted spread
            return float(model.var.spreads[self.t])
        low, high = LOG_VARIANCE_BOUNDS
        coarse = np.arange(low, high + 0.5, 1.0)
        k = int(np.argmin(self._value(i, coarse, keep)))
        fine = np.round(np.arange(max(coarse[k] - 1.0, low), min(coarse[k] + 1.0, high) + SPREAD_STEP / 2,
                                  SPREAD_STEP), 10)
        value = self._value(i, fine, keep)
        k = int(np.argmin(value))
        if 0 < k < len(value) - 1:
            left, mid, right = value[k - 1], value[k], value[k + 1]
            curvature = left - 2 * mid + right
            shift = 0.5 * (left - right) / curvature if curvature > 0 else 0.0
            return float(math.exp(fine[k] + SPREAD_STEP * float(np.clip(shift, -1.0, 1.0))))
        return float(math.exp(fine[k]))

    def effects_without(self, i: int, spread: float, new: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The effects on member i's columns and ``new`` given the rest of the report and the
        test's other members, the test scattering by ``spread``: columns, mean, covariance."""
        a, b, _c = self._without(i, np.array([spread]), np.zeros_like(self.model.layout.mask[i]))
        precision = self.precision + a[0]
        cov_all = np.linalg.inv(precision)
        mean_all = cov_all @ (self.information + b[0])
        p = np.union1d(self.place[int(i)], np.searchsorted(self.cols, np.array(new, dtype=int))).astype(int)
        return self.cols[p], mean_all[p], cov_all[np.ix_(p, p)]
