"""Cost-vs-size models (issue 4, issue 24): the fitting library and the hierarchical model of
what a report's series share on synthetic data with known parameters, the model tables on the
real warehouse, and `perfwh size`."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import shutil
import statistics
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models.fit import (INTERIOR, LINEAR, LOWEST, POWER, FitError, cores_for_rate, distinct_points, fit,
                        fit_linear, fit_power, leave_one_size_out, pooled_sigma, position,
                        rate_from_cost, t_quantile)
from models.calibration import UNCALIBRATED, calibrate
from models.sizing import SizeQuery, SizingError, parse_size, percent, version_matches
from models.hierarchy import LOG_VARIANCE_BOUNDS, SPREAD_STEP
from models.spec import BASE, MIN_CALIBRATION_SCORES, PRIOR_DF
from models.tables import SERIES_KEYS
from perfwh.core.paths import PROJECT_ROOT
from perfwh.stages.models import build_models
from perfwh.warehouse.lake import read_manifest

PERFWH = [sys.executable, "-m", "perfwh.cli"]
SIZES = np.array([256, 2048, 20480, 204800, 2048000, 20480000], dtype=float)
KB = SIZES / 1024

# Issue 24's accuracy targets are statements about reports measured enough to estimate them:
# a median error or a coverage of a handful of left-out points says little (a report of one
# short series, such as a fixture family's, is held to the structure, not the figures).
MEASURED_ENOUGH = 30


def perfwh(*args) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True)


def linear_truth(a=0.4, b=0.02):
    return lambda kb: a + b * kb


def power_truth(c=0.5, e=0.7):
    return lambda kb: c * kb ** e


# -- the library on synthetic data ------------------------------------------------------------

def test_exact_data_gives_the_parameters_back():
    lin = fit_linear(SIZES, linear_truth()(KB))
    assert lin.params == pytest.approx((0.4, 0.02), rel=1e-6)
    assert lin.rss == pytest.approx(0.0, abs=1e-12)
    pw = fit_power(SIZES, power_truth()(KB))
    assert pw.params == pytest.approx((0.5, 0.7), rel=1e-9)
    assert pw.r2_log == pytest.approx(1.0)


@pytest.mark.parametrize("model,truth,params", [
    (LINEAR, linear_truth(0.4, 0.02), (0.4, 0.02)),
    (LINEAR, linear_truth(3.0, 0.3), (3.0, 0.3)),
    (POWER, power_truth(0.5, 0.7), (0.5, 0.7)),
    (POWER, power_truth(2.0, 0.35), (2.0, 0.35)),
])
def test_noisy_data_recovers_known_parameters_within_their_95_intervals(model, truth, params):
    rng = np.random.default_rng(20240)
    y = truth(KB) * np.exp(rng.normal(0.0, 0.08, len(KB)))
    f = fit(model, SIZES, y)
    for (estimate, lower, upper), true in zip(f.param_intervals(f.own_sigma, f.df, 0.95), params):
        assert lower <= true <= upper, (model, true, lower, estimate, upper)
        assert lower <= estimate <= upper


@pytest.mark.parametrize("model,truth,params", [
    (LINEAR, linear_truth(0.4, 0.02), (0.4, 0.02)),
    (POWER, power_truth(0.5, 0.7), (0.5, 0.7)),
])
def test_95_intervals_cover_the_truth_about_95_percent_of_the_time(model, truth, params):
    rng = np.random.default_rng(11)
    trials, covered = 400, [0, 0]
    for _ in range(trials):
        y = truth(KB) * np.exp(rng.normal(0.0, 0.1, len(KB)))
        f = fit(model, SIZES, y)
        for i, ((_, lower, upper), true) in enumerate(zip(f.param_intervals(f.own_sigma, f.df), params)):
            covered[i] += lower <= true <= upper
    for hits in covered:
        assert 0.90 <= hits / trials <= 0.99, covered


def test_loso_leaves_out_every_point_of_a_size_and_predicts_from_the_rest():
    sizes = [1024, 4096, 4096, 16384, 65536]  # two measurements at 4 KB
    costs = [1.3, 1.75, 1.8, 3.5, 10.1]
    left = leave_one_size_out(LINEAR, sizes, costs)
    assert [lo.size for lo in left] == [1024, 4096, 16384, 65536]
    assert left[1].observed == (1.75, 1.8)
    for lo in left:
        assert lo.size not in lo.fit.sizes
        keep = [i for i, s in enumerate(sizes) if s != lo.size]
        manual = fit_linear([sizes[i] for i in keep], [costs[i] for i in keep])
        assert lo.predicted == pytest.approx(float(manual.predict([lo.size])[0]), rel=1e-9)
        assert lo.residual == pytest.approx(float(np.mean(np.log(np.array(lo.observed) / lo.predicted))))
    assert [lo.position for lo in left] == [LOWEST, INTERIOR, INTERIOR, "highest"]
    assert position(512, [1024, 4096]) == LOWEST and position(2048, [1024, 4096]) == INTERIOR


def test_the_power_law_cannot_bend_from_a_fixed_cost_into_a_slope():
    """Why the power law errs by 45-82 % on the reports (README): on a fixed cost plus a cost
    per KB, log cost against log size is flat and then rises with slope 1; a straight line
    through any two of those sizes misses the third. On data that are a power law it is exact."""
    exact_line = linear_truth(0.4, 0.02)(KB)
    errors = [abs(lo.predicted / obs - 1) * 100
              for lo in leave_one_size_out(POWER, SIZES, exact_line) for obs in lo.observed]
    assert statistics.median(errors) > 40
    assert all(abs(lo.predicted / lo.observed[0] - 1) < 1e-9
               for lo in leave_one_size_out(POWER, SIZES, power_truth()(KB)))
    assert all(abs(lo.predicted / lo.observed[0] - 1) < 1e-6
               for lo in leave_one_size_out(LINEAR, SIZES, exact_line))


def test_duplicate_points_count_once_and_bad_input_is_refused():
    x, y = distinct_points([2048, 2048, 4096], [1.0, 1.0, 2.0])
    assert list(x) == [2048, 4096] and list(y) == [1.0, 2.0]
    with pytest.raises(FitError):
        leave_one_size_out(LINEAR, [2048, 2048, 4096], [1.0, 1.1, 2.0])  # two sizes
    with pytest.raises(FitError):
        fit_linear([1024, 2048], [1.0, 0.0])
    with pytest.raises(FitError):
        fit("cubic", [1, 2], [1, 2])


def test_pooled_sigma_and_t_quantiles():
    assert pooled_sigma(0.0, 0) == (None, 0)
    s, df = pooled_sigma(0.02, 1, 0.06, 3)
    assert (s, df) == (pytest.approx(math.sqrt(0.08 / 4)), 4)
    assert t_quantile(0, 0.9) is None
    assert t_quantile(1000000, 0.95) == pytest.approx(1.959964, rel=1e-4)
    assert t_quantile(1, 0.90) == pytest.approx(6.313752, rel=1e-5)


# -- the mixed model of what series share ----------------------------------------------------

def synthetic_members(rng, tests=4, configs=3, sizes=(2048, 20480, 204800, 2097152), bend=0.2, scatter=0.03,
                      missing=0.0, twice=0.0):
    """Members of a report whose costs lie on lines (a fixed cost and a cost per KB of their own)
    bent alike by their test and their configuration at each size, with run-to-run scatter; a
    size beyond the third left out with chance ``missing``, printed twice (two costs) with chance
    ``twice``."""
    from models.hierarchy import Member

    f = rng.normal(0, bend, (tests, len(sizes)))
    g = rng.normal(0, bend / 3, (configs, len(sizes)))
    members = []
    for t in range(tests):
        for c in range(configs):
            fixed, per_kb = rng.uniform(0.2, 2.0), rng.uniform(0.005, 0.1)
            points = []
            for k, size in enumerate(sizes):
                if k > 2 and rng.random() < missing:
                    continue
                for _ in range(2 if rng.random() < twice else 1):
                    points.append((float(size), math.log(fixed + per_kb * size / 1024) + f[t, k] + g[c, k]
                                   + rng.normal(0, scatter)))
            points.sort()
            x = np.array([p[0] for p in points])
            members.append(Member(f"test {t}", (c,), tuple(x.tolist()), tuple(p[1] for p in points),
                                  fit_linear(x, np.exp([p[1] for p in points])).theta))
    return members


def dense(model, phi, leave=None, spread=None):
    """The linearised model over every cost (but member ``leave[0]``'s at size ``leave[1]``, and
    with ``spread`` as its test's spread instead of phi's), densely: Z, X (each series' line),
    the residuals, the costs' noise variances, G's diagonal, and which (member, cost) each row is."""
    from models.hierarchy import _Variances

    lay = model.layout
    var = _Variances.of(phi, lay.n_tests)
    if spread is not None:
        var.spreads = var.spreads.copy()
        var.spreads[lay.test_of[leave[0]]] = spread
    v, g = model._noise(var), model._prior_variances(var)
    rows = [(i, k) for i in range(lay.n) for k in range(lay.nmax) if lay.mask[i, k]
            and not (leave is not None and i == leave[0] and lay.size[i, k] == leave[1])]
    z, x = np.zeros((len(rows), lay.width)), np.zeros((len(rows), 2 * lay.n))
    for row, (i, k) in enumerate(rows):
        for col in (lay.obs_test_col[i, k], lay.obs_config_col[i, k]):
            if col >= 0:
                z[row, col] = 1.0
        x[row, 2 * i:2 * i + 2] = model.jac[i, k]
    r = np.array([model.residual[i, k] for i, k in rows])
    return z, x, r, np.array([v[i, k] for i, k in rows]), g, rows


def restricted(z, x, r, v, g):
    """-log of the restricted likelihood (up to a constant) and its projection P, densely."""
    x = x[:, np.abs(x).sum(axis=0) > 0]
    big_v = (z * g) @ z.T + np.diag(v)
    vi = np.linalg.inv(big_v)
    xvx = x.T @ vi @ x
    p = vi - vi @ x @ np.linalg.solve(xvx, x.T @ vi)
    return 0.5 * (np.linalg.slogdet(big_v)[1] + np.linalg.slogdet(xvx)[1] + r @ p @ r), p


def priors(phi, n_tests):
    """The spreads' and bends' priors (scaled inverse chi-square densities of the logs)."""
    out = 0.0
    for logs, centre in ((phi[1:1 + n_tests], phi[0]), (phi[2 + n_tests:2 + 2 * n_tests], phi[1 + n_tests])):
        out += float(np.sum(PRIOR_DF / 2 * logs + PRIOR_DF * np.exp(centre) / (2 * np.exp(logs)))
                     - n_tests * PRIOR_DF / 2 * centre)
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), tests=st.integers(1, 4), configs=st.integers(1, 4),
       missing=st.sampled_from([0.0, 0.4]), twice=st.sampled_from([0.0, 0.3]))
def test_the_blocks_are_the_dense_algebra(seed, tests, configs, missing, twice):
    """C kept as its blocks (one factor eliminated level by level, the Schur complement on the
    other) gives the dense algebra's restricted likelihood, its gradient, C^-1's blocks and the
    solve, for any sharing of tests and configurations, sizes a series lacks and sizes printed
    twice (a level held by one cost folded into its noise)."""
    from models.hierarchy import ReportModel

    rng = np.random.default_rng(seed)
    members = synthetic_members(rng, tests, configs, missing=missing, twice=twice)
    if len(members) < 2:
        return
    model = ReportModel(members)
    model._linearise(model.layout.theta)
    nt = model.layout.n_tests
    phi = rng.uniform(-8, -2, 2 * nt + 3)
    other = phi + rng.normal(0, 0.3, len(phi))
    # the objective drops the constants of the lines' Jacobians: compare two phis' difference
    expected = [restricted(*dense(model, p)[:5])[0] + priors(p, nt) for p in (phi, other)]
    value, gradient = model._objective(phi)
    assert model._objective(other)[0] - value == pytest.approx(expected[1] - expected[0], rel=1e-7, abs=1e-7)
    h = 1e-6
    numeric = [(model._objective(phi + h * e)[0] - model._objective(phi - h * e)[0]) / (2 * h)
               for e in np.eye(len(phi))]
    assert gradient == pytest.approx(np.array(numeric), rel=1e-4, abs=1e-5)
    z, x, r, v, g, _rows = dense(model, phi)
    x = x[:, np.abs(x).sum(axis=0) > 0]
    w = np.diag(1.0 / v)
    q = w - w @ x @ np.linalg.solve(x.T @ w @ x, x.T @ w)
    c = np.diag(1.0 / g) + z.T @ q @ z
    c_inv = np.linalg.inv(c)
    _var, _parts, _g, inverse, b = model._state(phi)
    assert b == pytest.approx(z.T @ q @ r, rel=1e-8, abs=1e-10)
    assert inverse.logdet == pytest.approx(np.linalg.slogdet(c)[1] if len(c) else 0.0, abs=1e-8)
    assert inverse.u == pytest.approx(c_inv @ b, rel=1e-7, abs=1e-10)
    assert inverse.diagonal() == pytest.approx(np.diag(c_inv), rel=1e-7, abs=1e-12)
    cols = np.sort(rng.permutation(model.layout.width)[:7])
    assert inverse.block(cols) == pytest.approx(c_inv[np.ix_(cols, cols)], rel=1e-7, abs=1e-12)
    local = inverse.local_blocks()
    for i in range(model.layout.n):
        own = model.layout.loc[i][model.layout.loc[i] >= 0]
        assert local[i, :len(own), :len(own)] == pytest.approx(c_inv[np.ix_(own, own)], rel=1e-7, abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), tests=st.integers(1, 3), configs=st.integers(1, 3),
       missing=st.sampled_from([0.0, 0.4]), twice=st.sampled_from([0.0, 0.3]))
# the least at e^-15.993, a trace more likely than the bound e^-16 the grid search ends at
@example(seed=7572, tests=2, configs=2, missing=0.0, twice=0.0)
def test_a_point_is_predicted_from_everything_but_its_size(seed, tests, configs, missing, twice):
    """A point's test's spread without it is the minimum over that spread alone of the restricted
    likelihood of every other cost (plus the prior), and the effects it borrows are their
    posterior given every other series, the test at that spread - the dense algebra's, afresh;
    the one-step spread (for a test too big for that search) is near it, and the whole fit less
    the series' own share is the posterior given the other series at the fitted spreads."""
    from scipy.optimize import minimize_scalar

    from models.hierarchy import ReportModel

    rng = np.random.default_rng(seed)
    members = synthetic_members(rng, tests, configs, missing=missing, twice=twice)
    if len(members) < 2:
        return
    model = ReportModel(members).fit()
    lay, phi = model.layout, model.phi
    for i in rng.permutation(lay.n)[:3]:
        size = float(rng.choice(lay.size[i][lay.mask[i]]))
        keep = lay.mask[i] & (lay.size[i] != size)
        block = model._test_block(lay.test_of[i])

        def without(log_spread, i=i, size=size):
            value = restricted(*dense(model, phi, (i, size), math.exp(log_spread))[:5])[0]
            return value + PRIOR_DF / 2 * log_spread + PRIOR_DF * math.exp(phi[0]) / (2 * math.exp(log_spread))

        # the global minimum: the likelihood of a spread may have two (seed 253: a local one at
        # e^-7.3 and the least at the bound e^-16), so a grid finds it and a bounded search refines it
        grid = np.arange(-16.0, 4.0 + 1e-9, 0.25)
        start = float(grid[int(np.argmin([without(g) for g in grid]))])
        best = minimize_scalar(without, bounds=(max(start - 0.5, -16), min(start + 0.5, 4)), method="bounded",
                               options={"xatol": 1e-7}).x
        found = block.spread_without(i, keep)
        if math.log(found) in LOG_VARIANCE_BOUNDS:
            # at a bound the parabola has no point beyond it to refine with: the least within a
            # grid step of the bound, and as likely but for a trace (e^-16: no scatter at all)
            assert abs(best - math.log(found)) <= SPREAD_STEP
            assert without(math.log(found)) - without(best) < 1e-3
        else:
            assert math.log(found) == pytest.approx(best, abs=5e-3)
        assert math.log(model._spread_stepped(i, keep)) == pytest.approx(best, abs=1.5)
        cols, mean, cov = block.effects_without(i, found, [])
        z, x, r, v, g, rows = dense(model, phi, (i, size), found)
        others = [row for row, (j, _k) in enumerate(rows) if j != i]
        _value, p = restricted(z[others], x[others], r[others], v[others], g)
        # (a fit whose scatter fell to its bound, e^-16, works with numbers of 1e7: digits go)
        assert mean == pytest.approx((g * (z[others].T @ p @ r[others]))[cols], rel=1e-5, abs=1e-6)
        covariance = np.diag(g) - (z[others] * g).T @ p @ (z[others] * g)
        assert cov == pytest.approx(covariance[np.ix_(cols, cols)], rel=1e-5, abs=1e-8)
        # the whole fit less the member's own share; and a size the member has no cost at
        # (only excluded points there) borrows the bends of the others' costs at that size
        absent = sorted(set(lay.size[lay.mask].tolist()) - set(lay.size[i][lay.mask[i]].tolist()))
        for at in [None] + absent[:1]:
            new = [] if at is None else [c for c in model._columns_at(i, at) if c >= 0]
            z, x, r, v, g, rows = dense(model, phi)
            others = [row for row, (j, _k) in enumerate(rows) if j != i]
            _value, p = restricted(z[others], x[others], r[others], v[others], g)
            posterior = g * (z[others].T @ p @ r[others])
            cols, mean, _cov = block.effects_without(i, float(model.var.spreads[lay.test_of[i]]), new)
            assert set(new) <= set(cols.tolist())
            assert mean == pytest.approx(posterior[cols], rel=1e-6, abs=1e-6)
            if at is not None:
                mean, variance = model.predict(i, at)
                assert math.isfinite(mean) and variance > 0


@pytest.mark.parametrize("cap", [None, 1])
def test_the_kept_sums_give_the_predictions_computed_afresh(monkeypatch, cap):
    """Every point's spread search meets its test's sums at the same grids: kept by the model,
    they give bit for bit the predictions of sums computed afresh for each point, within the
    memory they may take (``cap``: one byte, so that each grid's replaces the last)."""
    import models.hierarchy as hierarchy

    rng = np.random.default_rng(5)
    members = synthetic_members(rng, tests=3, configs=4, missing=0.3, twice=0.2)
    if cap is not None:
        monkeypatch.setattr(hierarchy, "SUMMED_BYTES", cap)
    kept = hierarchy.ReportModel(members).fit()
    afresh = hierarchy.ReportModel(members).fit()
    afresh.summed = lambda _t, spreads, compute: compute(spreads)
    lay = kept.layout
    points = [(i, float(size)) for i in range(lay.n) for size in lay.size[i][lay.mask[i]]]
    assert [kept.predict(i, size) for i, size in points] == [afresh.predict(i, size) for i, size in points]
    assert kept._summed  # grids were kept ...
    assert kept._summed_bytes <= max(cap or hierarchy.SUMMED_BYTES,
                                     max(sum(p.nbytes for p in v) for v in kept._summed.values()))
    assert all(not part.flags.writeable for value in kept._summed.values() for part in value)


def test_a_big_test_borrows_from_the_whole_fit_less_its_member():
    """A test of hundreds of series takes a point's effects from the whole fit with the member's
    own share taken out (no test block of its own): the posterior given the other series, as the
    dense algebra computes it afresh, where a member's share is a small part of its columns'."""
    from models.hierarchy import ReportModel

    rng = np.random.default_rng(11)
    members = synthetic_members(rng, tests=2, configs=12, scatter=0.03)
    model = ReportModel(members).fit()
    lay, phi = model.layout, model.phi
    z, x, r, v, g, rows = dense(model, phi)
    for i in rng.permutation(lay.n)[:6]:
        others = [row for row, (j, _k) in enumerate(rows) if j != i]
        _value, p = restricted(z[others], x[others], r[others], v[others], g)
        cols, mean, cov = model._effects_without(i, [])
        assert mean == pytest.approx((g * (z[others].T @ p @ r[others]))[cols], rel=1e-5, abs=1e-7)
        covariance = np.diag(g) - (z[others] * g).T @ p @ (z[others] * g)
        assert cov == pytest.approx(covariance[np.ix_(cols, cols)], rel=1e-5, abs=1e-9)


def test_the_line_search_finds_the_least_squares_optimum():
    """The bounded Gauss-Newton of a series' line does at least as well as scipy's least_squares,
    with either bound active, from a start far off, whitened or not."""
    from scipy.optimize import least_squares

    from models.hierarchy import _fit_line

    rng = np.random.default_rng(5)
    for case in range(80):
        kb = np.sort(rng.choice([0.25, 2.0, 20.0, 200.0, 2000.0, 20000.0], size=int(rng.integers(2, 6)), replace=False))
        fixed, per_kb = [(1.0, 0.01), (0.0, 0.02), (1.5, 0.0), (0.3, 0.3)][case % 4]
        target = np.log(fixed + per_kb * kb + 1e-9) + rng.normal(0, 0.05, len(kb))
        whiten = None if case % 2 else np.linalg.cholesky(np.linalg.inv(
            np.diag(rng.uniform(0.5, 2, len(kb))) + 0.2 * np.ones((len(kb), len(kb))))).T
        start = np.array([rng.uniform(0, 3), rng.uniform(0, 0.5)])
        theta = _fit_line(kb, target, start, whiten)
        w = np.eye(len(kb)) if whiten is None else whiten

        def residual(th, w=w, kb=kb, target=target):
            return w @ (target - np.log(np.maximum(th[0] + th[1] * kb, 1e-300)))

        best = least_squares(residual, start + 1e-3, bounds=([0, 0], [np.inf, np.inf]), ftol=1e-15, xtol=1e-15,
                             gtol=1e-15, max_nfev=5000).x
        assert residual(theta) @ residual(theta) <= residual(best) @ residual(best) * (1 + 1e-7) + 1e-14
        assert (theta >= 0).all()


def test_a_shared_bend_is_predicted_from_the_test_s_other_series():
    """Curves that bend alike (by test and configuration) away from lines: each point predicted
    without its size from the others' bends errs far less than its own line of the other sizes."""
    from models.hierarchy import ReportModel

    rng = np.random.default_rng(7)
    shared, alone = [], []
    for _ in range(4):
        members = synthetic_members(rng, tests=5, configs=3, bend=0.3, scatter=0.02)
        model = ReportModel(members).fit()
        for i, m in enumerate(members):
            lines = {lo.size: lo for lo in leave_one_size_out(LINEAR, m.sizes, np.exp(m.log_costs))}
            for size, y in zip(m.sizes, m.log_costs):
                mean, variance = model.predict(i, size)
                shared.append(abs(mean - y))
                alone.append(abs(math.log(lines[size].predicted) - y))
                assert variance > 0
    assert statistics.median(shared) < 0.3 * statistics.median(alone)


def test_a_test_s_spread_is_its_own_and_never_its_point_s():
    """One test scatters ten times as much as the others: its spread says so. A point moved off
    its curve (a slip) does not move its own prediction, and its interval's spread is estimated
    without it, so the slip stays far outside. It reaches its interval only through what the
    report shares: in this design (every test in every configuration, 1 % scatter against bends
    of 7-20 %) the configuration's bend at the size takes up a share of the slip and passes it to
    the other tests' series there, whose scatter - and s0 - grow with it (a fifth too much:
    about twice as wide; on the reports a tenfold slip moved its 99 % limits by 19-24 %)."""
    from models.hierarchy import ReportModel

    rng = np.random.default_rng(3)
    members = synthetic_members(rng, tests=5, configs=3, scatter=0.01)
    for i, m in enumerate(members):
        if m.test == "test 0":
            members[i] = dataclasses.replace(m, log_costs=tuple(y + float(rng.normal(0, 0.1)) for y in m.log_costs))
    model = ReportModel(members).fit()
    spreads = dict(zip(model.tests, model.spreads))
    assert spreads["test 0"] > 10 * max(v for t, v in spreads.items() if t != "test 0")
    quiet = next(i for i, m in enumerate(members) if m.test == "test 3")
    m = members[quiet]
    size = m.sizes[1]
    before = model.predict(quiet, size)
    for factor, out in ((1.2, 4.0), (10.0, 20.0)):
        slipped = list(members)
        slipped[quiet] = dataclasses.replace(m, log_costs=tuple(y + (math.log(factor) if s == size else 0.0)
                                                                for s, y in zip(m.sizes, m.log_costs)))
        after = ReportModel(slipped).fit().predict(quiet, size)
        assert after[0] == pytest.approx(before[0], abs=0.02)
        assert after[1] >= before[1] * 0.8
        assert abs(m.log_costs[1] + math.log(factor) - after[0]) > out * math.sqrt(after[1])


def test_lone_tests_do_not_drag_the_report_s_spread_to_zero():
    """A submission of lone tests (one series each) and one persistence pair, one configuration:
    a lone test's bends cannot be told from its scatter, and the priors must not reward every
    spread and s0 for falling together towards zero (a density of the variance rather than of
    its log did: s0 fell to 0.04 % and a pair's member was predicted within +-0.05 %)."""
    from models.hierarchy import Member, ReportModel

    sizes = (10240.0, 51200.0, 204800.0, 1048576.0)
    for seed in range(5):
        rng = np.random.default_rng(seed)
        members = []
        for k, test in enumerate([f"lone {t}" for t in range(8)] + ["pair", "pair"]):
            factor = 1 + 0.2 * (k % 2)
            y = tuple(math.log((0.5 + 0.05 * s / 1024) * factor) + float(rng.normal(0, 0.005)) for s in sizes)
            members.append(Member(test, ("lab",), sizes, y, fit_linear(np.array(sizes), np.exp(y)).theta))
        model = ReportModel(members).fit()
        assert math.sqrt(model.s0) > 0.002  # the series scatter by 0.5 %
        for i in (len(members) - 2, len(members) - 1):
            for size, y in zip(members[i].sizes, members[i].log_costs):
                mean, variance = model.predict(i, size)
                assert abs(y - mean) < 4 * math.sqrt(variance) and math.sqrt(variance) > 0.002


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.floats(-5.0, 0.0), st.floats(1e-4, 1.0)), min_size=2, max_size=30),
       st.floats(-12.0, 2.0))
def test_a_shape_prior_is_its_kind_s_other_shapes(rows, log_spread):
    """`ReportModel.shape_prior`: the weighted mean of the other shapes of the member's kind
    (weights 1 / (spread + own variance)) and the spread plus that mean's variance (None where
    that is looser than MAX_SHAPE_PRIOR_SD); the
    spread maximises the shapes' restricted likelihood (each kind's mean integrated out), as a
    loop over the kinds computes it."""
    from models.hierarchy import LOG_VARIANCE_BOUNDS, MAX_SHAPE_PRIOR_SD, SHAPE_STEP, ReportModel

    model = ReportModel.__new__(ReportModel)
    model.kind_of = np.array([kind for kind, _shape, _v in rows])
    model.shapes = np.array([shape for _k, shape, _v in rows])
    model.shape_variances = np.array([variance for _k, _s, variance in rows])
    model.shapes[::7] = np.nan  # a line at a bound has no shape
    known = np.isfinite(model.shapes)
    grid = np.arange(LOG_VARIANCE_BOUNDS[0], LOG_VARIANCE_BOUNDS[1] + SHAPE_STEP / 2, SHAPE_STEP)
    value = np.zeros(len(grid))
    kinds = [np.flatnonzero((model.kind_of == k) & known) for k in range(4)]
    for members in (m for m in kinds if len(m) >= 2):
        for g, log_spread_g in enumerate(grid):
            v = math.exp(log_spread_g) + model.shape_variances[members]
            w = 1 / v
            mean = float(w @ model.shapes[members]) / float(w.sum())
            value[g] += float(np.log(v).sum() + math.log(w.sum()) + w @ (model.shapes[members] - mean) ** 2)
    spread = model._shape_spread()
    if not any(len(m) >= 2 for m in kinds):
        assert spread is None
        return
    chosen = int(np.argmin(np.abs(grid - math.log(spread))))
    assert math.log(spread) == pytest.approx(grid[chosen], abs=1e-9)  # a point of the grid ...
    assert value[chosen] <= value.min() + 1e-9 * (1 + abs(value.min()))  # ... where the loop's least is
    # the prior at a given spread
    model.shape_spread = math.exp(log_spread)
    model._weigh_shapes()
    for i in range(len(rows)):
        others = [j for j in kinds[model.kind_of[i]] if j != i]
        prior = model.shape_prior(i)
        if not others:
            assert prior is None
            continue
        weights = 1 / (model.shape_spread + model.shape_variances[others])
        loose = model.shape_spread + 1 / weights.sum() - MAX_SHAPE_PRIOR_SD ** 2
        if abs(loose) < 1e-9:  # at the limit itself either reading holds
            continue
        if loose > 0:
            assert prior is None  # too loose to be used
            continue
        assert prior[0] == pytest.approx(float(weights @ model.shapes[others]) / weights.sum(), rel=1e-6, abs=1e-9)
        assert prior[1] == pytest.approx(model.shape_spread + 1 / weights.sum(), rel=1e-6)


def test_a_shape_its_test_mates_do_not_agree_on_is_not_borrowed():
    """A generated lab file (bench_generated, seed 23, #784): CSV to XML on an 8-core server at
    1-4 KB, its 4 KB a cost off its curve, and on a 16-core server at 200 KB-2 MB. The shapes
    of the two lie 3 apart (the odd one's own scatter makes it unsure, and the kind's spread
    comes out large): a prior that loose is not used, and 200 KB is predicted by the 16-core
    series' own 1 MB and 2 MB - 3.87 ms against 3.90 measured. Borrowed, it pulled the fixed
    cost the two sizes cannot see towards zero: 2.57 ms +- 10 %, the measurement 4 SDs out."""
    from models.hierarchy import Member, ReportModel

    rows = {("CSV to XML", "8 cores"): [(1024, 1.3214), (2048, 1.3338), (4096, 1.7534)],
            ("CSV to XML", "16 cores"): [(204800, 3.898241), (1048576, 12.839588), (2097152, 23.990148)],
            ("Large Message Filter", "16 cores"): [(2048, 2.109405), (4096, 2.225882), (10240, 2.57586),
                                                   (20480, 3.21773), (65536, 5.951316), (102400, 8.216148)],
            ("Large Message Filter", "12 cores"): [(20480, 3.16), (65536, 5.87), (102400, 8.04), (204800, 14.15),
                                                   (1048576, 64.47), (2097152, 126.75)],
            ("File Transfer", "4 cores"): [(4096, 2.54), (10240, 2.799), (20480, 3.285), (65536, 5.262),
                                           (102400, 6.947)],
            ("File Transfer", "12 cores"): [(20480, 3.78), (65536, 6.13), (102400, 7.97), (204800, 13.32)]}
    members = []
    for (test, config), points in rows.items():
        x, y = np.array([p[0] for p in points], dtype=float), np.array([p[1] for p in points])
        members.append(Member(test, (config,), tuple(x.tolist()), tuple(np.log(y).tolist()),
                              fit_linear(x, y).theta, ("MQ", "9.4.0.5", False, "AIX lab")))
    model = ReportModel(members).fit()
    assert model.shape_prior(1) is None
    mean, variance = model.predict(1, 204800.0)
    assert abs(math.log(3.898241) - mean) < math.sqrt(variance)


def test_a_lone_series_has_no_interval():
    from models.hierarchy import Member, ReportModel

    sizes = (2048.0, 20480.0, 204800.0)
    model = ReportModel([Member("t", (1,), sizes, (0.1, 0.5, 2.0), (1.0, 0.03))]).fit()
    assert model.predict(0, 2048.0) is None and model.spread(0) is None


@given(st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.5]) | st.floats(0, 1), max_size=9), st.data())
def test_the_median_of_the_others_is_the_median_without_the_member(values, data):
    """A series' typical fit is the median over its test's other series: taken from the test's
    sorted values with the member's own left out by position, it is the median of the list
    without it (ties, zeros and a member with no value of its own included)."""
    from models.predict import _median_without

    ordered = sorted(values)
    own = data.draw(st.sampled_from(ordered)) if ordered and data.draw(st.booleans()) else None
    rest = list(ordered)
    if own is not None:
        rest.remove(own)
    assert _median_without(ordered, own) == (statistics.median(rest) if rest else None)


def noisy_lines(rng, tests=8, configs=3, sizes=(10240, 51200, 204800, 1048576), noise=0.0075):
    """Series whose costs lie on lines (a fixed part plus a part per KB, a factor per
    configuration) but for a run-to-run noise of +-``noise``, drawn for each run: nothing
    departs from its line but that noise - the generator's lab results."""
    from models.tables import Point, Series

    series, mid = [], 0
    for t in range(tests):
        fixed, per_kb = rng.uniform(0.2, 2.0), rng.uniform(0.005, 0.1)
        for c in range(configs):
            factor = 1.0 + 0.2 * c
            s = Series({k: None for k in SERIES_KEYS} | {"source": "noisy.csv", "scenario": f"test {t}",
                                                          "concurrency_kind": "cores", "concurrency": c + 1})
            for size in sizes:
                mid += 1
                cost = (fixed + per_kb * size / 1024) * factor * rng.uniform(1 - noise, 1 + noise)
                s.points.append(Point(mid, mid, None, "t", float(size), float(cost), None, None, None))
            series.append(s)
    return series


def test_an_extrapolated_size_scatters_as_much_as_its_line_is_unsure_there():
    """A left-out end of a series is the line of the other sizes carried beyond them, and the
    run-to-run noise of those sizes moves it there by a multiple of itself (10 KB from 50 KB to
    1 MB: about four times): a departure scatters by the test's spread times 1 + the leverage of its
    size on that line. One spread for every slot made the intervals of the ends too narrow for
    clean lab results (bench_generated's false alarms) and those between sizes too wide."""
    from models.tables import fit_all

    outside, width = {"interior": [], "ends": []}, {"interior": [], "ends": []}
    for seed in range(6):
        series = noisy_lines(np.random.default_rng(seed))
        fit_all(series)
        for s in series:
            for lo in s.result.loso[BASE]:
                p = s.result.predictions[lo.size]
                low, high = p.limits[0.99]
                place = "interior" if lo.position == "interior" else "ends"
                outside[place] += [not (low <= obs <= high) for obs in lo.observed]
                width[place].append((high - low) / p.predicted)
    assert statistics.mean(outside["ends"]) <= 0.03  # one spread for all: 3.8 %
    assert statistics.mean(outside["interior"]) <= 0.03
    assert statistics.median(width["interior"]) < statistics.median(width["ends"])  # were alike


def test_an_end_is_predicted_with_the_shape_its_test_mates_share():
    """A machine's speed scales a series' fixed cost and its cost per KB alike, so the other
    configurations of its test say what its line's shape is: a left-out end predicted with that
    shape misses by less than the series' own line of its other sizes (median 0.45 % against
    0.63 % here; 0.60 % with each series' shape its own)."""
    from models.tables import fit_all

    model, own = [], []
    for seed in range(6):
        series = noisy_lines(np.random.default_rng(seed))
        fit_all(series)
        for s in series:
            for lo in s.result.loso[BASE]:
                if lo.position != "interior":
                    model += [abs(math.log(obs / s.result.predictions[lo.size].predicted)) for obs in lo.observed]
                    own += [abs(math.log(obs / lo.predicted)) for obs in lo.observed]
    assert statistics.median(model) < 0.85 * statistics.median(own)


def test_the_predictive_t_is_calibrated_on_scores_and_nests_its_levels():
    rng = np.random.default_rng(12)
    heavy = calibrate(rng.standard_t(3, 400) * 0.5)
    assert heavy.scale == pytest.approx(0.5, rel=0.15) and 2 <= heavy.df <= 5
    normal = calibrate(rng.normal(0, 2.0, 400))
    assert normal.scale == pytest.approx(2.0, rel=0.1) and normal.df > 20
    assert calibrate(rng.normal(0, 1, MIN_CALIBRATION_SCORES - 1)) == UNCALIBRATED
    assert UNCALIBRATED.df == PRIOR_DF and UNCALIBRATED.scale == 1.0
    for p in (heavy, normal, UNCALIBRATED):
        assert 0 < p.half_width(0.90, 0.1) < p.half_width(0.99, 0.1)  # nested by construction
    # and the intervals hold what they promise on fresh draws of the same distribution
    z = rng.standard_t(3, 20000) * 0.5
    assert np.mean(np.abs(z) <= heavy.half_width(0.90, 1.0)) == pytest.approx(0.90, abs=0.02)
    assert np.mean(np.abs(z) <= heavy.half_width(0.99, 1.0)) == pytest.approx(0.99, abs=0.006)


def test_the_90_interval_is_the_errors_own_90_quantile_however_heavy_their_tail():
    """A report's errors as ACE 13's are: a tight bulk and a few slips far out. The t of greatest
    likelihood bends its tails to the slips, and its own 90 % interval would hold more than 90 %
    of the errors; the calibrated t keeps that tail for the 99 % level, but its 90 % half-width
    is the errors' 90 % quantile, the half-width of least interval score."""
    rng = np.random.default_rng(5)
    scores = np.concatenate([rng.normal(0, 0.6, 68), [3.7, -4.0, 6.8, 13.6]])
    sizes = np.sort(np.abs(scores))
    calibrated = calibrate(scores)
    half = calibrated.half_width(0.90, 1.0)
    assert half == pytest.approx(sizes[64], rel=1e-12)  # ceil(72 x 0.9) = the 65th smallest
    assert np.mean(sizes <= half) >= 0.90 > np.mean(sizes < half)

    def interval_score(k):  # Gneiting and Raftery's, times alpha / 2, of +-k
        return 0.10 * k + np.mean(np.maximum(sizes - k, 0.0))

    assert all(interval_score(half) <= interval_score(k) + 1e-12 for k in np.linspace(0.0, 15.0, 3001))
    # the tail the slips give it widens the 99 % interval beyond a normal's 2.58 / 1.64
    assert calibrated.half_width(0.99, 1.0) / half > 2.0
    assert 1.0 <= calibrated.df < 5.0


@given(st.lists(st.floats(-50.0, 50.0).filter(lambda z: abs(z) > 1e-9), min_size=MIN_CALIBRATION_SCORES,
                max_size=400), st.floats(0.01, 100.0))
@settings(max_examples=60, deadline=None)
def test_any_errors_calibrate_a_t_whose_90_interval_holds_at_least_90_percent_of_them(scores, unit):
    """Whatever the errors (ties, a few huge ones, all alike), the calibrated t is a proper
    distribution whose 90 % interval holds at least 90 % of them and no wider than it must
    (the next smaller error would be outside), whose 99 % interval holds the 90 % one, and
    which scales with them."""
    sizes = np.sort(np.abs(scores))
    calibrated = calibrate(scores)
    half = calibrated.half_width(0.90, 1.0)
    assert 1.0 <= calibrated.df <= 1000.0 and calibrated.scale > 0 and calibrated.scores == len(sizes)
    assert np.mean(sizes <= half * (1 + 1e-12)) >= 0.90
    assert np.mean(sizes < half * (1 - 1e-12)) < 0.90
    assert half < calibrated.half_width(0.99, 1.0)
    rescaled = calibrate([z * unit for z in scores])
    assert rescaled.half_width(0.90, 1.0) == pytest.approx(unit * half, rel=1e-9)


def test_a_report_fitted_again_with_the_same_points_reuses_its_fits_and_refits_a_changed_one(mcon):
    """Fitting the same series with the same points again (as an add and a build do after the
    typo repair) gives the results of the first fit; a point left out since is fitted afresh,
    and the memo's answer is what a fresh process computes."""
    from models.predict import forget
    from models.tables import fit_all, load_series

    first, again = load_series(mcon), load_series(mcon)
    fit_all(first)
    fit_all(again)
    fitted = [s for s in first if s.result is not None]
    assert fitted and all(a.result is f.result for f, a in zip(first, again) if f.result is not None)

    changed = load_series(mcon)
    series = next(s for s in changed if len(s.usable_sizes) > 3)
    series.points[0].excluded_reason = "left out by the test"
    fit_all(changed)
    forget()
    fresh = load_series(mcon)
    next(s for s in fresh if s.key == series.key).points[0].excluded_reason = "left out by the test"
    fit_all(fresh)
    for c, f in zip(changed, fresh):
        assert (c.result is None) == (f.result is None)
        if c.result is not None:
            if c.key["source"] == series.key["source"]:  # its report is fitted afresh
                assert c.result is not next(s.result for s in first if s.key == c.key)
            assert {k: (p.predicted, p.limits) for k, p in c.result.predictions.items()} == \
                   {k: (p.predicted, p.limits) for k, p in f.result.predictions.items()}


def test_rate_from_cost_and_cores_for_rate_are_inverse():
    # 8 cores at 94 % busy and 5.5 ms per message: the IIB ISO 8583 row, about 1367 msgs/s
    rate = rate_from_cost(8, 0.94, 5.5)
    assert rate == pytest.approx(1367.27, rel=1e-4)
    assert cores_for_rate(rate, 5.5, 0.94) == pytest.approx(8)


def test_sizes_parse_with_the_unit_table_and_versions_match_by_components():
    assert parse_size("50KB") == 51200
    assert parse_size("2k") == 2048
    assert parse_size("1384B") == 1384
    assert parse_size("2MB") == 2 * 1024 * 1024
    assert parse_size("50kb") == parse_size("50kB") == 51200  # b is bytes, as in "1384b"
    assert parse_size("2mb") == 2 * 1024 * 1024
    assert parse_size("1e5") == parse_size("1E+05") == 100000  # bytes as a calculator writes them
    assert parse_size("1e5B") == parse_size("1e5 bytes") == 100000  # and with a unit
    assert parse_size("1.5e3KB") == 1500 * 1024
    with pytest.raises(SizingError, match=r"unknown unit 'x' in '1e5x'"):
        parse_size("1e5x")  # the user's text, not the 100000x it was expanded to
    for huge in ("1e400", "1e999999999"):  # out of range, not an unknown unit, and at once
        with pytest.raises(SizingError, match="out of range"):
            parse_size(huge)
    with pytest.raises(SizingError, match="0.001 B is out of range"):
        parse_size("1e-3")
    assert parse_size("100.5KB") == 102912
    with pytest.raises(SizingError, match="a message is a whole number of bytes"):
        parse_size("100.5")  # not silently 100
    with pytest.raises(SizingError, match="is not a number"):
        parse_size("\u0661\u0660\u0660")  # Arabic-Indic digits: not read as 100
    assert percent(0.8) == "80%" and percent(0.005) == "0.5%" and percent(1e-9) == "1e-07%"
    assert version_matches("11.0.0.4", "11")
    assert version_matches("10.0.0.16", "10.0")
    assert not version_matches("11.0.0.4", "1")
    assert not version_matches("110.0", "11")


# -- the real warehouse -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def modelled(built_warehouse, tmp_path_factory) -> Path:
    """A copy of the session warehouse (rules run: dq_findings present) with the models."""
    db = tmp_path_factory.mktemp("models") / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    build_models(db)
    return db


@pytest.fixture(scope="module")
def mcon(modelled):
    con = duckdb.connect(str(modelled), read_only=True)
    yield con
    con.close()


def rows(con, sql, params=None):
    return con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()


KEYS = ", ".join(SERIES_KEYS)
# a measurement of a fitted series (keys may be NULL: a platform without cores, no fix pack)
SAME_SERIES = " AND ".join(f"m.{k} IS NOT DISTINCT FROM f.{k}" for k in SERIES_KEYS)
EXCLUDED_SQL = """
    SELECT DISTINCT m.measurement_id FROM measurements m JOIN dq_findings f
      ON f.severity = 'error' AND f.waiver IS NULL AND f.metric IN ('cpu_ms_per_msg', 'msg_rate')
     AND (f.fact_id IN (m.cpu_ms_per_msg_fact_id, m.msg_rate_fact_id)
          OR (f.fact_id IS NULL AND f.source = m.source AND f.source_line = m.source_line))"""


def test_every_eligible_series_has_a_fit(mcon):
    eligible = rows(mcon, f"""
        SELECT {KEYS} FROM measurements
        WHERE cpu_ms_per_msg > 0 AND message_size_bytes IS NOT NULL
          AND measurement_id NOT IN ({EXCLUDED_SQL})
        GROUP BY ALL HAVING count(DISTINCT message_size_bytes) >= 3 ORDER BY ALL""")
    fitted = rows(mcon, f"SELECT {KEYS} FROM model_fits ORDER BY ALL")
    assert len(eligible) > 100
    assert fitted == eligible
    from models.tables import SERIES_KEYS, series_id_of

    keyed = rows(mcon, f"SELECT series_id, {', '.join(SERIES_KEYS)} FROM model_fits")
    assert [r[0] for r in keyed] == [series_id_of(dict(zip(SERIES_KEYS, r[1:]))) for r in keyed]
    assert len({r[0] for r in keyed}) == len(keyed)  # an id names one series, from its key alone
    bad = rows(mcon, """SELECT series_id FROM model_fits WHERE model NOT IN ('linear', 'power')
                        OR sizes < 3 OR fixed_ms IS NULL OR exponent IS NULL OR sigma_log IS NULL
                        OR NOT (fixed_ms_lower_95 <= fixed_ms AND fixed_ms <= fixed_ms_upper_95)
                        OR NOT (exponent_lower_95 <= exponent AND exponent <= exponent_upper_95)""")
    assert bad == []


def test_every_point_of_a_fitted_series_has_a_prediction(mcon):
    missing = rows(mcon, f"""
        SELECT m.measurement_id FROM measurements m JOIN model_fits f ON {SAME_SERIES}
        WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
        EXCEPT SELECT measurement_id FROM model_predictions""")
    assert missing == []
    nulls = rows(mcon, """SELECT count(*) FROM model_predictions WHERE predicted_cpu_ms_per_msg IS NULL
                          OR model IS NULL OR (lower_90 IS NULL) <> (sd_log IS NULL)
                          OR (lower_90 IS NULL) <> (upper_90 IS NULL)
                          OR NOT (lower_90 <= predicted_cpu_ms_per_msg AND predicted_cpu_ms_per_msg <= upper_90)""")
    assert nulls == [(0,)]
    # no interval only where nothing tells a spread: a report of a single series
    assert rows(mcon, """SELECT count(*) FROM model_predictions p WHERE lower_90 IS NULL
                         AND (SELECT count(DISTINCT series_id) FROM model_predictions q
                              WHERE q.source = p.source) > 1""") == [(0,)]
    # one distribution gives both levels: every 90 % interval lies inside its 99 % one
    assert rows(mcon, """SELECT count(*) FROM model_predictions
                         WHERE NOT (lower_99 < lower_90 AND upper_90 < upper_99)""") == [(0,)]
    # one row per measurement, in a deterministic order
    order = rows(mcon, "SELECT series_id, message_size_bytes, source_line FROM model_predictions")
    assert order == sorted(order)
    assert rows(mcon, "SELECT count(*) = count(DISTINCT measurement_id) FROM model_predictions") == [(True,)]


def test_points_with_error_findings_are_excluded_and_say_why(mcon):
    flagged = {r[0] for r in rows(mcon, EXCLUDED_SQL)}
    table = dict(rows(mcon, "SELECT measurement_id, excluded FROM model_predictions"))
    assert any(table.get(m) for m in flagged), "the real reports have excluded points in fitted series"
    for mid, excluded in table.items():
        assert excluded == (mid in flagged), mid
    reasons = rows(mcon, "SELECT excluded_reason FROM model_predictions WHERE excluded")
    assert all(r[0] and "error " in r[0] and "finding" in r[0] for r in reasons)
    assert rows(mcon, "SELECT count(*) FROM model_predictions WHERE NOT excluded AND excluded_reason IS NOT NULL") == [(0,)]
    # the JSON Parse rows that repeat other rows under the 2K label (ace13 lines 352-354) never enter a fit
    assert rows(mcon, """SELECT count(*) FROM model_predictions WHERE source = 'ace13-openshift-2025.txt'
                         AND source_line IN (352, 353, 354) AND NOT excluded""") == [(0,)]
    # series that exclusions left with fewer than three sizes are listed, with the reason
    for sizes, usable, reason in rows(mcon, "SELECT sizes, usable_sizes, reason FROM model_unfitted"):
        assert sizes >= 3 > usable and "error " in reason


def test_predictions_are_leave_one_size_out(mcon):
    """Refit a series without one size with the library: the table holds that line, and the
    prediction is the line times the departure the report's other series show there."""
    ids = [r[0] for r in rows(mcon, "SELECT series_id FROM model_fits ORDER BY series_label")]
    for series_id in (ids[0], ids[59], ids[99]):
        model = rows(mcon, "SELECT model FROM model_fits WHERE series_id = ?", [series_id])[0][0]
        pts = rows(mcon, """SELECT message_size_bytes, observed_cpu_ms_per_msg, predicted_linear_cpu_ms_per_msg,
                                   predicted_cpu_ms_per_msg, departure_log, fit_sizes
                            FROM model_predictions WHERE series_id = ? AND NOT excluded""", [series_id])
        sizes = sorted({p[0] for p in pts})
        for size, observed, line, predicted, departure, fit_sizes in pts:
            rest = [(p[0], p[1]) for p in pts if p[0] != size]
            manual = fit(model, [s for s, _ in rest], [c for _, c in rest])
            assert line == pytest.approx(float(manual.predict([size])[0]), rel=1e-6)
            assert predicted == pytest.approx(line * math.exp(departure), rel=1e-9)
            assert fit_sizes == len(sizes) - 1


def test_a_point_s_prediction_and_interval_do_not_use_its_own_value(modelled, tmp_path):
    """The typo repair compares a corrected cost with the interval the printed one got, and a
    slip must not hide behind its own interval: change one cost tenfold, refit, and that point's
    prediction stays put; its 99 % interval moves only through what the whole report shares (the
    calibration, fitted to the other series' errors, which borrow from this point)."""
    from models.tables import fit_all, load_series, prediction_rows

    con = duckdb.connect(str(modelled), read_only=True)
    series = load_series(con)
    con.close()
    run = fit_all(series)
    before = {r["measurement_id"]: r for r in prediction_rows(run)}
    target = next(s for s in run.fitted if s.key["scenario"] == "HTTP XMLNSC ESQL Transformation"
                  and s.key["tshirt"] == "Medium")
    point = next(p for p in target.points if p.size == 204800)
    point.cost = point.cost / 10  # 13.19 -> 1.319
    after = {r["measurement_id"]: r for r in prediction_rows(fit_all(series))}
    mine_before, mine_after = before[point.measurement_id], after[point.measurement_id]
    assert mine_after["predicted_cpu_ms_per_msg"] == pytest.approx(mine_before["predicted_cpu_ms_per_msg"], rel=0.02)
    assert mine_after["upper_99"] == pytest.approx(mine_before["upper_99"], rel=0.25)
    assert not mine_after["inside_99"] and mine_before["inside_99"]


def test_a_refit_that_reuses_earlier_fits_equals_a_fit_from_scratch(modelled):
    """A process memoises what it fitted (a build fits every series twice, a few points changed
    between): after one cost of a report changed, its other series reuse their own curves but
    the report's model is fitted again, and every row is the one a fit from nothing gives;
    the cost changed back, the first rows come back exactly."""
    from models.predict import forget
    from models.tables import fit_all, load_series, model_tables

    con = duckdb.connect(str(modelled), read_only=True)
    series = load_series(con)
    con.close()
    first = model_tables(fit_all(series))
    target = next(s for s in series if len(s.usable_sizes) >= 4)
    point = target.usable[0]
    printed = point.cost
    point.cost = printed * 3
    reused = model_tables(fit_all(series))
    forget()
    fresh = model_tables(fit_all(series))
    assert reused == fresh
    source = target.key["source"]
    others = [(a, b) for a, b in zip(first[1][2], reused[1][2]) if a["series_id"] != target.series_id]
    assert all(a == b for a, b in others if a["source"] != source)  # a source is fitted alone
    assert any(a != b for a, b in others if a["source"] == source)  # its report's model changed
    point.cost = printed
    assert model_tables(fit_all(series)) == first


def test_accuracy_per_report_and_overall_is_in_the_warehouse(mcon):
    acc = {(r[0], r[1]): r[2:] for r in rows(
        mcon, "SELECT scope, model, points, mdape_pct, inside_90_pct FROM model_accuracy")}
    wide = {r[0]: r[1:] for r in rows(mcon, """SELECT scope, inside_99_pct, width_90_pct, width_99_pct,
                                                      interval_score_90, interval_score_99, wider_90_than_99
                                               FROM model_accuracy WHERE model = 'chosen'""")}
    reports = [r[0] for r in rows(mcon, "SELECT DISTINCT source FROM model_fits ORDER BY 1")]
    assert {s for s, _ in acc} == set(reports) | {"all"}
    for scope in reports + ["all"]:
        where = "" if scope == "all" else "AND source = ?"
        apes = [r[0] for r in rows(mcon, f"SELECT ape_pct FROM model_predictions WHERE NOT excluded {where}",
                                   None if scope == "all" else [scope])]
        points, mdape, inside = acc[(scope, "chosen")]
        assert points == len(apes)
        assert float(mdape) == pytest.approx(statistics.median(apes), abs=0.005)  # DECIMAL(12, 2)
        assert 0 <= mdape < 100 and acc[(scope, "linear")][1] is not None
        assert acc[(scope, "power")][1] is not None
        if inside is None:  # a report whose single series gives no interval (see above)
            assert rows(mcon, "SELECT count(*) FROM model_predictions WHERE source = ? AND lower_90 IS NOT NULL",
                        [scope]) == [(0,)]
            continue
        assert 50 < inside <= 100
        if points >= MEASURED_ENOUGH:
            assert mdape < 50
        inside_99, width_90, width_99, score_90, score_99, wider = wide[scope]
        assert inside <= inside_99 <= 100 and 0 < width_90 < width_99 and 0 < score_90 < score_99
        assert wider == 0


def test_accuracy_meets_the_targets_it_can_meet_honestly(mcon):
    """Issue 24's targets that the leave-one-size-out protocol meets (README, "Models and
    sizing", has the table with the one it misses: ACE 13's 90 % width)."""
    acc = {r[0]: r[1:] for r in rows(mcon, f"""SELECT scope, mdape_pct, inside_99_pct, wider_90_than_99
                                               FROM model_accuracy WHERE model = 'chosen'
                                               AND (scope = 'all' OR points >= {MEASURED_ENOUGH})""")}
    for scope, (mdape, inside_99, wider) in acc.items():
        assert mdape <= (4.0 if scope == "all" else 6.0), scope
        assert inside_99 >= 97.0 and wider == 0, scope
    # sharing what the series share beats every series' own line alone, in every report
    own = dict(rows(mcon, "SELECT scope, mdape_pct FROM model_accuracy WHERE model = 'linear'"))
    assert all(acc[scope][0] < own[scope] for scope in acc)


def test_rate_from_cost_agrees_with_the_measured_rates(mcon):
    """Where a report prints %CPU and its cores are known (WBIMB and IIB), cores x utilisation x
    1000 / cost gives its rates back."""
    printing = [r[0] for r in rows(mcon, f"""
        SELECT DISTINCT m.source FROM measurements m JOIN model_fits f ON {SAME_SERIES}
        WHERE m.cpu_busy_pct IS NOT NULL AND m.server_cores IS NOT NULL AND m.msg_rate IS NOT NULL
          AND m.cpu_ms_per_msg IS NOT NULL ORDER BY 1""")]
    checked = rows(mcon, """
        SELECT source, count(*), median(abs(rate_from_observed_cost - observed_msg_rate) / observed_msg_rate),
               median(rate_ape_pct)
        FROM model_predictions WHERE NOT excluded AND rate_from_observed_cost IS NOT NULL
        GROUP BY source ORDER BY source""")
    assert [r[0] for r in checked] == printing and printing
    for source, n, identity_error, loso_rate_error in checked:
        assert identity_error < 0.01      # the identity holds to printing precision
        if n >= MEASURED_ENOUGH:
            assert loso_rate_error < 15   # and the leave-one-size-out cost gives the rate back
    assert rows(mcon, """SELECT count(*) FROM model_predictions WHERE NOT excluded AND cpu_busy_pct IS NOT NULL
                         AND NOT (rate_lower_90 <= rate_from_predicted_cost
                                  AND rate_from_predicted_cost <= rate_upper_90)""") == [(0,)]


def test_model_tables_are_documented_and_exported(mcon, modelled):
    undocumented = rows(mcon, """
        SELECT table_name || '.' || column_name FROM duckdb_columns()
        WHERE table_name LIKE 'model_%' AND (comment IS NULL OR comment = '')""")
    assert undocumented == []
    relations = read_manifest(modelled.parent / "lake")["relations"]
    for table in ("model_fits", "model_predictions", "model_accuracy", "model_unfitted"):
        assert relations[table]["rows"] == rows(mcon, f"SELECT count(*) FROM {table}")[0][0]


def test_models_are_deterministic(modelled, tmp_path):
    again = tmp_path / "again.duckdb"
    shutil.copyfile(modelled, again)
    build_models(again, parquet=False)
    a = duckdb.connect(str(modelled), read_only=True)
    b = duckdb.connect(str(again), read_only=True)
    try:
        for table in ("model_fits", "model_predictions", "model_accuracy", "model_unfitted"):
            assert a.execute(f"SELECT * FROM {table}").fetchall() == b.execute(f"SELECT * FROM {table}").fetchall()
    finally:
        a.close()
        b.close()


def test_models_without_findings_and_a_failed_run_changes_nothing(tmp_path, monkeypatch, plain_warehouse):
    db = plain_warehouse
    done = perfwh("models", "--db", db, "--no-parquet")
    assert done.returncode == 0, done.stderr
    assert "no dq_findings" in done.stdout
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM model_predictions WHERE excluded").fetchone() == (0,)
    con.close()

    import perfwh.stages.models as stage

    before = hashlib.sha256(db.read_bytes()).hexdigest()

    def boom(con):
        raise RuntimeError("fitting failed")
    monkeypatch.setattr(stage, "fit_warehouse", boom)
    with pytest.raises(RuntimeError):
        stage.build_models(db, parquet=False)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not list(tmp_path.glob(".plain.duckdb.tmp-*"))


def test_models_cli_needs_a_warehouse(tmp_path):
    done = perfwh("models", "--db", tmp_path / "none.duckdb")
    assert done.returncode == 2
    assert "no warehouse there" in done.stderr and "Traceback" not in done.stderr


# -- perfwh size ------------------------------------------------------------------------------

ESQL = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--product", "ACE", "--version", "11",
        "--platform", "linux"]


def test_size_json_answers_with_an_interval(modelled, mcon):
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "50KB", "--rate", "500",
                  "--utilisation", "0.8", "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["cores_low"] < answer["cores"] < answer["cores_high"]
    # the 99 % interval, a planner's headroom, holds the 90 % one
    assert answer["cores_low_99"] < answer["cores_low"] and answer["cores_high"] < answer["cores_high_99"]
    assert answer["cpu_ms_per_msg_low_99"] < answer["cpu_ms_per_msg_low"] < answer["cpu_ms_per_msg_high"] \
        < answer["cpu_ms_per_msg_high_99"]
    assert answer["cores"] == pytest.approx(500 * answer["cpu_ms_per_msg"] / 1000 / 0.8)
    assert answer["cores_busy"] == pytest.approx(answer["cores"] * 0.8)
    assert not [w for w in answer["warnings"] if "outside" in w or "ambiguous" in w or "no fitted" in w]
    assert answer["utilisation"] == 0.8
    label, = mcon.execute("SELECT series_label FROM model_fits WHERE series_id = ?",
                          [answer["series_id"]]).fetchone()
    assert answer["series_label"] == label and "Docker cores 2" in label and "ACE 11.0.0.4" in label
    assert answer["query"]["size_bytes"] == 51200
    # the refit in `perfwh size` is the fit in model_fits
    fixed, per_kb = mcon.execute("SELECT fixed_ms, ms_per_kb FROM model_fits WHERE series_id = ?",
                                 [answer["series_id"]]).fetchone()
    assert answer["model_formula"] == f"cpu_ms = {fixed:.4g} + {per_kb:.4g} x KiB"
    # what it rests on: the series' points, the method of its interval and its calibration
    basis = answer["basis"]
    assert basis["series_id"] == answer["series_id"] and len(basis["points"]) == 3
    assert {p["size_bytes"] for p in basis["points"]} == {2048, 20480, 204800}
    assert all(p["source"].startswith("ace11") and p["source_line"] > 0 and p["printed"] for p in basis["points"])
    assert "Student t" in basis["interval_method"] and basis["calibration"]["scores"] >= 30
    assert basis["prediction"].startswith("between measured sizes")


def test_a_configuration_or_platform_named_in_full_chooses_its_series_over_longer_names():
    """--config and --platform match a part of a name: 'T-shirt Large (2 CPU)' is also a part
    of 'T-shirt Large (2 CPU), 2 replicas', and 'lab' of 'lab 2'. Named in full, a series is
    chosen; a part of a name still matches every series it is part of."""
    from models.sizing import _exactly_named_first
    from models.tables import config_label

    one, two = ({"concurrency_kind": "tshirt", "tshirt": "Large", "cpu_limit_cores": 2.0,
                 "concurrency": None, "replicas": replicas, "platform": platform}
                for replicas, platform in ((1, "lab"), (2, "lab 2")))
    assert config_label(one) in config_label(two)
    def chosen(**asked) -> list:
        q = SizeQuery(scenario="x", size="2KB", rate=1.0, **asked)
        return _exactly_named_first([one, two], [], q)[0]

    assert chosen(config=config_label(one).upper()) == [one]
    assert chosen(config=config_label(two)) == [two]
    assert chosen(config="t-shirt large") == [one, two]
    assert chosen(platform=" Lab ") == [one] and chosen(platform="lab 2") == [two]


def test_size_at_a_measured_size_weighs_the_measurement_against_its_prediction(modelled, mcon):
    """At a measured size the answer is the measurement weighed against the size's prediction
    by the other sizes, with that prediction's interval width. ACE 13's MQ Aggregation Small
    measured 100.60 ms at 2 MB (line 245), as its other T-shirts did (100.38, 106.86); its
    other sizes, whose 200 KB (13.58 ms, line 242) lies far below theirs, predict 41.4 ms with
    the shape and the bend at 2 MB its T-shirts share: the answer lies between, nearer the
    measurement, and its interval holds the measurement and the other T-shirts' costs."""
    def answer_at(*query: str, size: str) -> dict:
        done = perfwh("size", *query, "--size", size, "--rate", "10", "--json", "--db", modelled)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def printed_row(series_id: int, size_bytes: int) -> tuple:
        return mcon.execute("""
            SELECT observed_cpu_ms_per_msg, predicted_cpu_ms_per_msg, lower_90, upper_90 FROM model_predictions
            WHERE series_id = ? AND message_size_bytes = ? AND NOT excluded""", [series_id, size_bytes]).fetchone()

    for query, size, size_bytes in ((("--scenario", "MQ Aggregation", "--config", "Small"), "2MB", 2097152),
                                    ((*ESQL, "--config", "docker cores 2"), "20KB", 20480)):
        answer = answer_at(*query, size=size)
        observed, predicted, lower, upper = printed_row(answer["series_id"], size_bytes)
        ms = answer["cpu_ms_per_msg"]
        assert min(observed, predicted) <= ms <= max(observed, predicted)
        assert answer["cpu_ms_per_msg_low"] <= observed <= answer["cpu_ms_per_msg_high"]
        # at least as wide as the prediction's (log scale), moved to the new centre
        assert math.log(answer["cpu_ms_per_msg_high"] / answer["cpu_ms_per_msg_low"]) >= \
            math.log(upper / lower) * (1 - 1e-9)
        assert answer["basis"]["prediction"].startswith("at a measured size: the measurement there weighed")
    aggregation = answer_at("--scenario", "MQ Aggregation", "--config", "Small", size="2MB")
    observed, predicted, _lower, _upper = printed_row(aggregation["series_id"], 2097152)
    assert math.sqrt(observed * predicted) < aggregation["cpu_ms_per_msg"] < observed
    assert aggregation["cpu_ms_per_msg_low"] < 100.38 < 106.86 < aggregation["cpu_ms_per_msg_high"]
    # at 200 KB it measured 13.58 ms against 29.7 predicted (a model_residual warning), in a test
    # scattering by 19 %: the answer lies between, and its interval holds both
    between = answer_at("--scenario", "MQ Aggregation", "--config", "Small", size="200KB")
    observed, predicted, _lower, _upper = printed_row(between["series_id"], 204800)
    assert observed < between["cpu_ms_per_msg"] < predicted
    assert between["cpu_ms_per_msg_low"] < observed and predicted < between["cpu_ms_per_msg_high"]


def test_a_measurement_is_weighed_against_its_prediction_by_their_spreads():
    """`models.curves.weighed`: the posterior median of a Student t prior (the prediction) and
    the measurements' normal likelihood (the test's spread)."""
    from models.calibration import Predictive
    from models.curves import weighed

    normal = Predictive(1.0, 1000.0, 100)
    prior = math.log(10.0)
    measured = [math.log(20.0)]
    # a test that scatters little: the measurement; one that scatters much: the prediction
    assert weighed(prior, 0.3, normal, measured, 1e-4) == pytest.approx(measured[0], abs=1e-5)
    assert weighed(prior, 0.01, normal, measured, 3.0) == pytest.approx(prior, abs=1e-3)
    # equal spreads, normal: half way (in log), and so is a measurement repeated with twice the spread
    half = 0.5 * (prior + measured[0])
    assert weighed(prior, 0.3, normal, measured, 0.3) == pytest.approx(half, abs=1e-3)
    assert weighed(prior, 0.3, normal, measured * 4, 0.6) == pytest.approx(half, abs=1e-3)
    # a heavy-tailed prior gives way to a measurement far outside it
    heavy = Predictive(1.0, 1.5, 100)
    far = [prior + 2.0]
    assert weighed(prior, 0.1, heavy, far, 0.1) > prior + 1.8
    # a rerun's SD: the prediction's where both agree, wider where they disagree and the test scatters
    from models.curves import rerun_sd
    assert rerun_sd(prior, 0.05, heavy, [prior + 0.01], 0.01) == 0.05
    assert rerun_sd(prior, 0.05, heavy, far, 0.3) > 0.1
    assert rerun_sd(prior, 0.05, heavy, [], 0.3) == 0.05
    # nothing to weigh: no measurement, or no spread to weigh it by
    assert weighed(prior, 0.3, normal, [], 0.1) == prior
    assert weighed(prior, None, normal, measured, 0.1) == measured[0]
    assert weighed(prior, 0.3, normal, measured, None) == measured[0]


def test_size_answers_a_planner_can_act_on(modelled):
    """Issue 24's question: ACE 13, T-shirt Large, 100KB at 1000 msgs/s. Its series predicts its
    own sizes to about 1 %: the interval is within 15 % either side."""
    done = perfwh("size", "--scenario", "HTTP XMLNSC ESQL Transformation", "--size", "100KB", "--rate", "1000",
                  "--product", "ACE", "--version", "13", "--config", "T-shirt Large", "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert 6.5 < answer["cores"] < 10
    assert answer["cores_low"] > answer["cores"] / 1.15 and answer["cores_high"] < answer["cores"] * 1.15
    assert not [w for w in answer["warnings"] if "interval spans" in w]
    # the README quotes this answer: it is the answer given today
    quoted = re.search(r"is answered with ([\d.]+) cores, 90 % interval ([\d.]+) to ([\d.]+) \(.*?99 % "
                       r"([\d.]+) to ([\d.]+);", (PROJECT_ROOT / "README.md").read_text(encoding="utf-8"),
                       re.S)
    assert quoted, "the README no longer quotes the answer"
    given = [answer[k] for k in ("cores", "cores_low", "cores_high", "cores_low_99", "cores_high_99")]
    assert [float(v) for v in quoted.groups()] == [float(f"{v:.3g}") for v in given], (quoted.groups(), given)
    text = perfwh("size", "--scenario", "HTTP XMLNSC ESQL Transformation", "--size", "100KB", "--rate", "1000",
                  "--product", "ACE", "--version", "13", "--config", "T-shirt Large", "--db", modelled).stdout
    assert "rests on: the series' 4 usable points: 2 KiB 0.58 ms (line 206)" in text
    assert "interval: Student t on the log scale" in text
    # a cost printed with its unit is shown as printed, once (not "698.06 μs ms")
    ace11 = perfwh("size", *ESQL, "--size", "50KB", "--rate", "500", "--db", modelled).stdout
    assert "2 KiB 698.06 μs (line 223), 20 KiB 3.15 ms (line 226)" in ace11 and " ms ms" not in ace11


def test_between_two_sizes_the_interval_is_as_unsure_as_the_step_between_them(mcon):
    """ACE 13's JSON Parse on the Large T-shirt costs 18.69 ms at 200 KB and 5737.62 ms at 2 MB
    (lines 344, 347): what it costs at 1 MB is not measured, and the interval says so - it holds
    both the straight interpolations between the two, in log-log (about 1,040 ms) and in bytes
    (about 2,570 ms), is wide enough to say it does not know (it was 913 to 1,150 ms), stays
    within what the two sizes span, and lies inside the 99 % one; where the line holds at both
    ends (the ESQL transformation) the interval stays as narrow as a planner needs."""
    from models.curves import SeriesCurve
    from models.spec import WIDE_LEVEL

    def series(scenario: str, tshirt: str) -> int:
        return mcon.execute("SELECT series_id FROM model_fits WHERE source LIKE 'ace13%' AND scenario = ? "
                            "AND tshirt = ? AND replicas = 1 AND model = 'linear'", [scenario, tshirt]).fetchall()[0][0]

    json_parse = SeriesCurve(mcon, series("JSON Parse", "Large"))
    (centre,), (low,), (high,) = json_parse.at([1024 ** 2])
    (_c,), (low_99,), (high_99,) = json_parse.at([1024 ** 2], WIDE_LEVEL)
    w = math.log(1024 ** 2 / 204800) / math.log(2097152 / 204800)
    in_logs = 18.69 * (5737.62 / 18.69) ** w
    in_bytes = 18.69 + (5737.62 - 18.69) * (1024 ** 2 - 204800) / (2097152 - 204800)
    assert low < in_logs < high and low < in_bytes < high and high > 10 * low
    assert low_99 <= low < centre < high <= high_99
    assert 18.69 * 0.5 < low and high < 5737.62 * 2
    esql = SeriesCurve(mcon, series("HTTP XMLNSC ESQL Transformation", "Large"))
    (centre,), (low,), (high,) = esql.at([102400])
    assert centre / 1.15 < low and high < centre * 1.15


def test_size_says_when_an_answer_lies_far_beyond_the_scale_measured(modelled):
    """The series ran on a T-shirt of 2 cores: 8 cores at 1000 msgs/s is a scale-out a planner
    asks for, a million cores at 10^9 msgs/s rests on the linear-scaling assumption alone."""
    def warnings(rate):
        done = perfwh("size", "--scenario", "HTTP XMLNSC ESQL Transformation", "--size", "100KB", "--rate", rate,
                      "--product", "ACE", "--version", "13", "--config", "T-shirt Large", "--json", "--db", modelled)
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        return answer["cores_busy"], [w for w in answer["warnings"] if "linear-scaling assumption alone" in w]

    assert warnings("1000")[1] == []
    cpu, (far,) = warnings("1e9")
    assert 6.6e6 < cpu < 6.7e6
    assert far.startswith(f"the answer needs {cpu:.3g} cores of CPU time, {cpu / 2:.3g} x the 2 cores")


def test_size_names_the_points_its_series_left_out(modelled):
    """JSON Parse Small: the three 2K rows of the multi-replica table that repeat other rows
    (lines 352-354) carry error findings; an answer allowed to use the series names them."""
    done = perfwh("size", "--scenario", "JSON Parse", "--config", "Small", "--size", "100KB",
                  "--rate", "10", "--allow-flagged", "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert answer["cores"] is not None
    left = answer["basis"]["left_out"]
    assert [p["source_line"] for p in left] == [352, 353, 354]
    assert all(p["size_bytes"] == 2048 and "error" in p["excluded_reason"] for p in left)
    # at 2 KB its own other sizes (20 KB 5.08 ms, 200 KB 22.72 ms, 2 MB 6411.70 ms) leave its
    # fixed cost unsure (their line alone: 1.01 ms, an interval of seven orders of magnitude);
    # with the shape its Medium and Large T-shirts share, they predict 3.32 ms: the answer weighs
    # the measurement 3.61 against that, with an interval a planner can use
    done = perfwh("size", "--scenario", "JSON Parse", "--config", "Small", "--size", "2KB",
                  "--rate", "10", "--allow-flagged", "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert 3.3 < answer["cpu_ms_per_msg"] < 3.61
    assert answer["cpu_ms_per_msg_low"] < 3.61 < answer["cpu_ms_per_msg_high"] < 2 * answer["cpu_ms_per_msg_low"]
    assert not [w for w in answer["warnings"] if w.startswith("the 90 % interval spans")]
    # MQ Routing Cache has one T-shirt (no shape to share) whose costs scatter: at 2 KB its
    # interval spans about eightfold, and the answer says its series is poorly predicted
    done = perfwh("size", "--scenario", "MQ Routing Cache", "--config", "Large", "--size", "2KB",
                  "--rate", "10", "--allow-flagged", "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert answer["cpu_ms_per_msg_high"] > 5 * answer["cpu_ms_per_msg_low"]
    assert any(w.startswith("the model predicts this series' own sizes poorly") for w in answer["warnings"])
    # its report's errors have heavy tails: the 99 % interval, the headroom, spans thousands of times
    assert answer["cpu_ms_per_msg_high_99"] > 1000 * answer["cpu_ms_per_msg_low_99"]
    assert any(w.startswith("the 99 % interval spans") and "too wide to plan headroom by" in w
               for w in answer["warnings"]), answer["warnings"]


def _with_lab_file(modelled: Path, tmp_path: Path, name: str, lines: list[str]) -> dict:
    """A private copy of the modelled warehouse and its raw layer with a lab's file of ``lines``
    (the template's columns) added."""
    from test_reliability import HEADER, _box, perfwh as perfwh_in
    from perfwh.core.paths import RAW_DIR

    box = _box(tmp_path, RAW_DIR, modelled)
    path = tmp_path / name
    path.write_text(HEADER + "".join(lines), encoding="utf-8")
    added = perfwh_in(box, "add", path)
    assert added.returncode == 0, added.stdout + added.stderr
    return box


def test_size_calls_an_interval_of_more_than_tenfold_what_it_is(modelled, tmp_path):
    """A lab's series whose costs jump about (1, 9, 2 and 40 ms at 1 KB to 1 MB) beside a steady
    one: at 1 KB, its smallest size, the other sizes predict nothing a planner could use, and
    the 90 % interval spans more than ten times its lower limit (160 times): the answer says to
    read the points, not the interval, and that two series are too few to calibrate it."""
    lines = []
    for scenario, costs in (("Steady", (0.51, 0.6, 1.5, 10.5)), ("Jumpy", (1.0, 9.0, 2.0, 40.0))):
        for kb, cost in zip((1, 10, 100, 1000), costs):
            lines.append(f"ACME,1.0,lab box,8,{scenario},{kb * 1024},false,flow_copies,4,,"
                         f"{8 * 90.0 * 10 / cost:.1f},90.0,{cost:.2f}\n")
    box = _with_lab_file(modelled, tmp_path, "jumpy.csv", lines)
    answer = json.loads(perfwh("size", "--scenario", "Jumpy", "--product", "ACME", "--size", "1KB",
                               "--rate", "10", "--allow-flagged", "--json", "--db", box["db"]).stdout)
    assert answer["cpu_ms_per_msg_high"] > 10 * answer["cpu_ms_per_msg_low"], answer
    assert any(w.startswith("the 90 % interval spans") and "do not tell its cost at 1 KiB" in w
               for w in answer["warnings"]), answer["warnings"]
    # two series give each other 8 errors, too few to calibrate the t: the answer says so, and
    # its method does not claim a calibration
    assert answer["basis"]["calibration"]["scores"] == 0
    assert any(w.startswith("the interval is not calibrated") for w in answer["warnings"]), answer["warnings"]
    method = answer["basis"]["interval_method"]
    assert "not calibrated" in method and "calibrated on" not in method


def test_size_counts_a_measurement_printed_in_two_tables_once(modelled, mcon):
    """WBIMB 5 prints Very Complex Compute at one instance in its own table and again in the
    instances table: three measurements, six printings. The answer rests on three points (the
    fit's distinct points), each naming both lines."""
    done = perfwh("size", "--scenario", "Very Complex Compute", "--config", "flow instances 1", "--size", "10KB",
                  "--rate", "10", "--db", modelled)
    assert done.returncode == 0, done.stderr
    rests = next(line for line in done.stdout.splitlines() if line.startswith("rests on:"))
    printed = rows(mcon, """
        SELECT p.message_size_bytes, list(p.source_line ORDER BY p.source_line)
        FROM model_predictions p JOIN model_fits f USING (series_id)
        WHERE f.scenario = 'Very Complex Compute' AND f.concurrency = 1 AND f.concurrency_kind = 'flow_instances'
        GROUP BY ALL ORDER BY 1""")
    assert len(printed) == 3 and all(len(lines) == 2 for _size, lines in printed)
    assert rests.startswith("rests on: the series' 3 usable points (6 printings")
    for _size, (first, second) in printed:
        assert f"(lines {first}, {second})" in rests
    as_json = perfwh("size", "--scenario", "Very Complex Compute", "--config", "flow instances 1", "--size",
                     "10KB", "--rate", "10", "--json", "--db", modelled)
    points = json.loads(as_json.stdout)["basis"]["points"]
    assert [(p["size_bytes"], [q["source_line"] for q in p["printings"]]) for p in points] == printed
    assert all(p["source_line"] == p["printings"][0]["source_line"] for p in points)


def test_size_text_states_the_utilisation_and_the_series(modelled):
    done = perfwh("size", *ESQL, "--config", "cores 4", "--size", "20k", "--rate", "100",
                  "--utilisation", "70%", "--db", modelled)
    assert done.returncode == 0, done.stderr
    assert "at 70% utilisation" in done.stdout
    assert "Docker cores 4" in done.stdout and "90 % interval" in done.stdout
    assert "hardware: IBM System x3650 M3" in done.stdout


def test_size_warns_outside_the_measured_sizes(modelled):
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "2MB", "--rate", "10",
                  "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["cores"] is not None
    assert any("outside the measured sizes" in w and "extrapolation" in w for w in answer["warnings"])
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "100", "--rate", "10",
                  "--db", modelled)
    assert "warning:" in done.stdout and "outside the measured sizes" in done.stdout


def test_size_reports_no_matching_series(modelled):
    done = perfwh("size", "--scenario", "Quantum Teleport", "--size", "1k", "--rate", "10", "--json",
                  "--db", modelled)
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["cores"] is None and answer["series_id"] is None
    assert any("no scenario matches" in w for w in answer["warnings"])
    done = perfwh("size", *ESQL, "--product", "WBIMB", "--size", "1k", "--rate", "10", "--db", modelled)
    assert done.returncode == 1
    assert "warning: no fitted series matches" in done.stdout
    # which filter leaves none, and what the scenario's series have instead
    assert "--product 'WBIMB' matches none of its series, which have ACE, IIB" in done.stdout, done.stdout
    # a scenario measured without a CPU cost has nothing to model, and says so
    done = perfwh("size", "--scenario", "JMSQUEUE", "--size", "1k", "--rate", "10", "--db", modelled)
    assert done.returncode == 1
    assert ("no model for 'JMSQUEUE': measured, but JMSQUEUE (messagesight1-2013.txt): no CPU cost per "
            "message is printed for it") in done.stdout, done.stdout


def test_size_picks_the_capacity_nearest_the_answer_and_lists_the_others(modelled):
    """Series that differ only in the capacity they were measured with (1, 2, 4 Docker
    cores) answer from the one nearest the cores needed, and name the others with their answers."""
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "500", "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert len(answer["candidates"]) == 3
    assert answer["series"]["concurrency"] == 4  # 4.8 cores needed: the 4-core series
    assert answer["cores_low"] < answer["cores"] < answer["cores_high"]
    [said] = [w for w in answer["warnings"] if w.startswith("3 series match, measured with different capacity")]
    assert all(c["cores_low"] < c["cores"] < c["cores_high"] for c in answer["candidates"])
    # the others' answers are in the warning itself, not only under candidates (JSON): each
    # capacity has a cost a message of its own, and a higher rate choosing a bigger one can need
    # fewer cores
    others = [c for c in answer["candidates"] if c["series_id"] != answer["series_id"]]
    assert len(others) == 2
    for c in others:
        docker = f"Docker cores {c['concurrency']:g}"
        assert f"{docker}: {c['cores']:.3g} cores ({c['cores_low']:.3g} to {c['cores_high']:.3g})" in said, said


def test_size_reports_real_ambiguity_with_each_candidate(modelled):
    """Series of two products are not interchangeable: no answer, every candidate shown."""
    args = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--platform", "linux"]  # ACE and IIB
    done = perfwh("size", *args, "--size", "50KB", "--rate", "500", "--json", "--db", modelled)
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["cores"] is None and len(answer["candidates"]) == 6
    assert any(w.startswith("ambiguous: 6 series match") and "product" in w for w in answer["warnings"])
    assert not any("outside the measured sizes" in w for w in answer["warnings"])  # 50KB is inside


def test_size_counts_a_flow_instance_as_one_core_at_most(modelled):
    """WBIMB 5's Very Complex Compute ran with 1, 2, 4 and 8 flow instances (and execution
    groups) on one 8-core server: each instance keeps at most one core busy, so a load needing
    a fraction of a core is answered from one instance, one needing several from eight."""
    def chosen(rate: str) -> str:
        done = perfwh("size", "--scenario", "Very Complex Compute", "--size", "10KB", "--rate", rate,
                      "--json", "--db", modelled)
        return json.loads(done.stdout)["series_label"]

    assert " 1 | " in chosen("10")
    assert " 8 | " in chosen("3000")


def test_size_does_not_take_subscribers_for_capacity(modelled):
    """WBIMB 5's Topic Based Routing with 1, 10, 100 and 1000 subscribers: four workloads (each
    message delivered that many times), not four capacities of one. No series is nearer the
    truth: the answer is ambiguous until --config names one."""
    done = perfwh("size", "--scenario", "Topic Based Routing", "--size", "4KB", "--rate", "100", "--json",
                  "--db", modelled)
    answer = json.loads(done.stdout)
    assert answer["cores"] is None and len(answer["candidates"]) == 4
    assert any(w.startswith("ambiguous: 4 series match (measured with different work per message - "
                            "subscribers 1, subscribers 10, subscribers 100, subscribers 1000") for w in answer["warnings"])
    chosen = json.loads(perfwh("size", "--scenario", "Topic Based Routing", "--size", "4KB", "--rate", "100",
                               "--config", "subscribers 10", "--json", "--db", modelled).stdout)
    assert chosen["cores"] is not None and "subscribers 10 |" in chosen["series_label"]


def test_size_warns_outside_the_measured_sizes_even_when_ambiguous(modelled):
    args = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--platform", "linux"]  # ACE and IIB
    done = perfwh("size", *args, "--size", "5MB", "--rate", "500", "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert "5 MiB lies outside the measured sizes of 6 of the 6 matching series (2 KiB to 200 KiB)" in \
        " ".join(answer["warnings"])


def test_size_names_series_that_exclusions_left_unfitted(modelled, mcon):
    keys = "scenario, product, product_version, platform, source"
    fitted = set(mcon.execute(f"SELECT {keys} FROM model_fits").fetchall())
    candidates = [r for r in mcon.execute(f"SELECT series_label, {keys} FROM model_unfitted ORDER BY 1").fetchall()
                  if r[1:] not in fitted]
    assert candidates, "the real reports have series that exclusions leave unfitted"
    label, scenario, product, version, platform, source = candidates[0]
    done = perfwh("size", "--scenario", scenario, "--product", product, "--version", version,
                  "--platform", platform, "--report", source, "--size", "2k", "--rate", "10",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert any("was not fitted" in w and label in w for w in answer["warnings"])
    # the options matched it: the first warning says so, not that they match no series together
    first = answer["warnings"][0]
    assert re.search(r"; \d+ series match(es)? them all but (was|were) not fitted \(below\)$", first), first


def test_size_rejects_bad_input(modelled, tmp_path):
    done = perfwh("size", *ESQL, "--size", "50 parsecs", "--rate", "500", "--db", modelled)
    assert done.returncode == 2 and "unknown unit" in done.stderr and "e.g. 64KB or 2MB" in done.stderr
    done = perfwh("size", *ESQL, "--size=-5KB", "--rate", "500", "--db", modelled)
    assert done.returncode == 2 and "a message size is positive" in done.stderr, done.stderr
    done = perfwh("size", "--scenario", " ", "--size", "5KB", "--rate", "500", "--db", modelled)
    assert done.returncode == 2 and "give a scenario's name" in done.stderr, done.stderr
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "-5", "--db", modelled)
    assert done.returncode == 2 and "the rate must be a number of messages per second from" in done.stderr
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--utilisation", "1.5", "--db", modelled)
    assert done.returncode == 2
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--utilisation", "0.8%", "--db", modelled)
    assert done.returncode == 0 and ("warning: --utilisation 0.8% plans for cores 0.8% busy: 125 x the CPU time "
                                     "the rate needs (for 80 % write 0.8 or 80%)") in done.stdout, done.stdout
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--json", "--db", tmp_path / "x.duckdb")
    answer = json.loads(done.stdout)  # a missing warehouse is still answered in the answer's JSON shape
    assert done.returncode == 2 and "no warehouse there" in answer["error"] and answer["cores"] is None
    assert answer["status"] == 2  # the same key as every command's JSON error
    # argparse's refusals and the command's own have one shape: every answer key a script reads
    refusals = [perfwh("size", *ESQL, "--size", "50KB", "--json", "--db", modelled),  # no --rate
                perfwh("size", *ESQL, "--size", "50KB", "--rate", "fast", "--json", "--db", modelled),
                perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--json", "--db", tmp_path / "x.duckdb"),
                perfwh("size", *ESQL, "--size", "50KB", "--rate", "5e-324", "--json", "--db", modelled),
                perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--product", "x" * 5000, "--json",
                       "--db", modelled)]
    shapes = [json.loads(done.stdout) for done in refusals]
    assert all(done.returncode == 2 for done in refusals)
    assert len({tuple(shape) for shape in shapes}) == 1, shapes
    # an answer, and a question no series answers (status 1), have that shape too
    answered = perfwh("size", *ESQL, "--size", "50KB", "--rate", "500", "--json", "--db", modelled)
    unanswered = perfwh("size", "--scenario", "Nothing such", "--size", "50KB", "--rate", "500", "--json",
                        "--db", modelled)
    answer, none = json.loads(answered.stdout), json.loads(unanswered.stdout)
    assert (answered.returncode, answer["status"], answer["error"]) == (0, 0, None)
    assert unanswered.returncode == none["status"] == 1 and none["cores"] is None
    assert none["error"] == "perfwh size: " + none["warnings"][0]
    assert list(answer) == list(none) == list(shapes[0])
    assert all(isinstance(shape[key], list) for shape in shapes + [answer, none]
               for key in ("measured_sizes", "candidates", "refused", "assumptions", "warnings"))
    assert all(shape["error"].startswith("perfwh size: ") and shape["warnings"] == [shape["error"]]
               and shape["cores"] is None for shape in shapes)
    assert "from 1e-06 to 1e+09" in shapes[3]["error"]  # not an answer of 0 cores
    assert "--product is 5000 characters long" in shapes[4]["error"] and "x" * 201 not in shapes[4]["error"]
    # "-5KB" after --size is an option to argparse: the refusal says how to write it
    done = perfwh("size", *ESQL, "--size", "-5KB", "--rate", "500", "--db", modelled)
    assert done.returncode == 2 and "written with '=': --size=-5KB" in done.stderr, done.stderr


@pytest.mark.parametrize("rate, value", [("1.5k", 1500), ("2M", 2_000_000), ("1,200", 1200), ("500 msgs/s", 500), ("500 req/s", 500),
                                         ("40 tps", 40)])
def test_size_reads_a_rate_as_a_submission_prints_one(rate, value):
    """--rate takes what a rate cell of a submission takes (the one unit table), as well as a
    plain number or an exponent."""
    from perfwh.cli.models import _rate

    assert _rate(rate) == value
    assert _rate("1e3") == 1000


def test_size_on_a_warehouse_without_models(plain_warehouse):
    from models.sizing import size_in

    db = plain_warehouse  # built without rules: no findings, no models
    with pytest.raises(SizingError, match="perfwh models"):
        size_in(db, SizeQuery(scenario="Aggregation", size="2k", rate=10.0))


WINDOWS_ESQL = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--product", "ACE", "--version", "11",
                "--platform", "windows", "--size", "50KB", "--rate", "500", "--json"]


def test_size_refuses_series_whose_costs_carry_error_findings(modelled):
    """ACE 11's Windows costs are systematically flagged (README, Data quality): even the
    1-core series, whose own points escaped the errors, is refused."""
    done = perfwh("size", *WINDOWS_ESQL, "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert [r["concurrency"] for r in answer["refused"]] == [1.0]
    assert any(w.startswith("every matching series has error findings on its costs")
               for w in answer["warnings"])
    assert any("a systematic problem of that platform's measurements" in w for w in answer["warnings"])
    # a fitted series with error findings on its own points (3 of JSON Parse Small's are excluded)
    done = perfwh("size", "--scenario", "JSON Parse", "--config", "Small", "--size", "20k", "--rate", "10",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["refused"]
    assert any("error cross_table_consistency" in w or "error conflicting_key" in w
               for w in answer["warnings"])


def test_size_allow_flagged_answers_and_names_the_findings(modelled):
    done = perfwh("size", *WINDOWS_ESQL, "--allow-flagged", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["cores"] is not None and not answer["refused"]
    assert any(w.startswith("answered despite error findings") for w in answer["warnings"])
    assert any(w.startswith("warning findings on this series' points") and "utilisation_outlier" in w
               for w in answer["warnings"])


def test_size_names_the_warning_findings_of_a_clean_series(modelled):
    """ACE 11 Linux HTTP BLOB Echo at 4 cores: its 200K run was not CPU-bound (a warning)."""
    done = perfwh("size", "--scenario", "HTTP BLOB Echo", "--product", "ACE", "--version", "11",
                  "--platform", "linux", "--config", "docker cores 4", "--size", "50KB", "--rate", "500",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["cores"] is not None
    assert any("warning utilisation_outlier" in w and "line 191" in w for w in answer["warnings"])


def test_refitted_series_match_model_fits_and_curves_span_the_measured_sizes(mcon):
    from models.curves import curve, refit

    ids = [r[0] for r in rows(mcon, "SELECT series_id FROM model_fits ORDER BY series_label")]
    for series_id in (ids[0], ids[49], ids[62], ids[109]):
        model, row = refit(mcon, series_id)
        if row["model"] == "linear":
            assert model.params == pytest.approx((row["fixed_ms"], row["ms_per_kb"]), rel=1e-6, abs=1e-12)
        else:
            assert model.params == pytest.approx((row["ms_at_1kb"], row["exponent"]), rel=1e-6)
        points = curve(mcon, series_id, points=10)
        assert len(points) == 10
        assert points[0]["message_size_bytes"] == pytest.approx(row["min_size_bytes"])
        assert points[-1]["message_size_bytes"] == pytest.approx(row["max_size_bytes"])
        assert all(p["lower"] < p["predicted_cpu_ms_per_msg"] < p["upper"] for p in points)


@pytest.mark.parametrize("order", ["series_id DESC, measurement_id DESC", "hash(measurement_id)"])
def test_model_accuracy_does_not_depend_on_the_order_of_the_predictions(built_warehouse, order):
    """The interval scores are means of doubles: summed in the order the rows lie, their last
    digits changed between a build and the same rows filed one by one (bench_filing's
    full-refresh = incremental check). The same predictions in another order give the same
    table, bit for bit."""
    from models.tables import ACCURACY_SQL

    def accuracy(row_order: str) -> list[tuple]:
        con = duckdb.connect()
        try:
            con.execute(f"ATTACH '{built_warehouse}' AS wh (READ_ONLY)")
            con.execute(f"CREATE TABLE model_predictions AS SELECT * FROM wh.model_predictions ORDER BY {row_order}")
            con.execute(ACCURACY_SQL)
            return con.sql("SELECT * FROM model_accuracy ORDER BY ALL").fetchall()
        finally:
            con.close()

    assert accuracy(order) == accuracy("series_id, measurement_id")


def test_each_deployment_is_a_series_and_a_t_shirt_s_replicas_its_capacity(modelled, tmp_path):
    """A lab's messaging test run standalone and as an HA group (the same appliance, clients
    and sizes; the HA group costs twice as much) is two series, as the rules' config_key has
    it, each labelled with its deployment, which --config names; a T-shirt of 2 CPU in 2
    replicas has 4 cores to keep busy, as the cpu_capacity rule counts them, so its rate x
    cost of 3.7 cores raises no warning."""
    from test_reliability import HEADER, _box, perfwh as perfwh_in
    from perfwh.core.paths import RAW_DIR

    box = _box(tmp_path, RAW_DIR, modelled)
    mq = ["product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
          "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg,topology,"
          "queue_managers,simulated_latency_ms\n"]
    for kb, cost in ((2, 0.32), (20, 0.8), (200, 6.4)):
        for topology, factor in (("standalone", 1), ("HA group", 2)):
            mq.append(f"MQ Appliance,9.3,M2003Z,24,Lab Request Responder,{kb * 1024},true,requester "
                      f"clients,300,,{24 * 80 * 10 / (cost * factor):.1f},80.00,{cost * factor:.4f},"
                      f"{topology},1,\n")
    shirts = [HEADER]
    for kb, cost in ((2, 0.61), (20, 0.70), (200, 1.60)):
        for replicas in (1, 2):
            shirts.append(f"ACE,13.0.2.0,rep-ocp,,Rep Route,{kb * 1024},false,tshirt,Large,"
                          f"{replicas},{1.86 * replicas * 1000 / cost:.2f},,{cost:.2f}\n")
    for name, lines in (("deployments.csv", mq), ("replicas.csv", shirts)):
        (tmp_path / name).write_text("".join(lines), encoding="utf-8")
        added = perfwh_in(box, "add", tmp_path / name)
        assert added.returncode == 0, added.stdout + added.stderr
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        fits = con.sql("SELECT series_label, topology, points, capacity_cores FROM model_fits "
                       "WHERE source IN ('deployments.csv', 'replicas.csv') ORDER BY series_label").fetchall()
    finally:
        con.close()
    assert [(topology, points) for _label, topology, points, _cap in fits] == [
        (None, 3), (None, 3), ("ha_group", 3), ("standalone", 3)]
    assert [cap for _label, _t, _p, cap in fits] == [2.0, 4.0, 24.0, 24.0]
    assert "requester clients 300, HA group, 1 queue manager" in fits[2][0]
    ask = ["size", "--scenario", "Lab Request Responder", "--size", "20KB", "--rate", "10000", "--json",
           "--db", box["db"]]
    both = json.loads(perfwh(*ask).stdout)
    assert len(both["candidates"]) == 2 and "ambiguous" in both["warnings"][0]
    ha = json.loads(perfwh(*ask, "--config", "HA group").stdout)
    assert ha["series"]["topology"] == "ha_group" and ha["cpu_ms_per_msg"] == pytest.approx(1.6, rel=0.01)
    shirt = json.loads(perfwh("size", "--scenario", "Rep Route", "--size", "20KB", "--rate", "500", "--config",
                              "T-shirt Large (2 CPU), 2 replicas", "--json", "--db", box["db"]).stdout)
    assert shirt["series"]["replicas"] == 2
    assert not any("more than the" in w for w in shirt["warnings"]), shirt["warnings"]


def test_size_tells_series_of_two_machines_of_one_platform_name_apart(modelled, tmp_path):
    """A lab's 2-core and 8-core "lab box" ran the same test: two series, labelled with their
    cores; without --cores the answer comes from the machine nearest the cores needed and says
    how to choose, with --cores from the one asked for."""
    lines = []
    for cores, fixed, per_kb in ((2, 0.5, 0.010), (8, 0.6, 0.012)):
        for kb in (1, 10, 100, 1000):
            cost = round(fixed + per_kb * kb, 3)
            rate = cores * 90.0 * 10 / cost
            lines.append(f"ACME,1.0,lab box,{cores},Route,{kb * 1024},false,flow_copies,4,,"
                         f"{rate:.1f},90.0,{cost:.3f}\n")
    box = _with_lab_file(modelled, tmp_path, "two-machines.csv", lines)
    ask = ["size", "--scenario", "Route", "--product", "ACME", "--size", "50KB", "--rate", "1000",
           "--json", "--db", box["db"]]
    answer = json.loads(perfwh(*ask).stdout)
    assert answer["cores"] is not None
    labels = sorted(c["series_label"] for c in answer["candidates"])
    assert len(labels) == 2 and "lab box (2 cores)" in labels[0] and "lab box (8 cores)" in labels[1]
    [said] = [w for w in answer["warnings"] if "measured with different capacity" in w]
    assert "(server_cores)" in said and "--cores" in said
    for cores in (2, 8):
        chosen = json.loads(perfwh(*ask, "--cores", str(cores)).stdout)
        assert chosen["series"]["server_cores"] == cores and len(chosen["candidates"]) == 1
        assert not any("different capacity" in w for w in chosen["warnings"])
        # the hardware is the chosen machine's, not the first of its name's
        assert chosen["hardware"] == f"{cores} cores, as submitted (cores as submitted)"
