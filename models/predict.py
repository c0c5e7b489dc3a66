"""Every point of every fitted series predicted without its size, with its intervals.

For each series (its usable points), per report:

1. the series' own curves: the line and the power law fitted to all usable sizes, and each
   usable size predicted by the line (and, for comparison, the power law) of the other sizes
   (`models.fit.leave_one_size_out`); a point left out for an error finding is predicted by
   the curves of all usable sizes, or of the others where its size has a usable point too;
2. what the report's series share (`models.hierarchy.ReportModel`, a mixed model of the
   report's log costs): each usable size predicted by the series' line fitted to its other
   sizes together with the bends the same test and configuration show there, and its variance;
3. the predictive distribution (`models.calibration.calibrate`): a Student t calibrated on the
   standardised errors of the report's other series; the 90 % and 99 % intervals come from it.

A point's prediction and intervals never use its own value (nor, through its series' other
fits, indirectly): the typo repair and the model residual rule rely on it. Imports numpy (and
scipy inside the functions): only `models.tables.fit_all` imports this module, and only when
there is something to fit.
"""
from __future__ import annotations

import bisect
import dataclasses
import hashlib
import math
import statistics
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .calibration import UNCALIBRATED, Predictive, calibrate
from .fit import Fit, LeftOut, distinct_points, full_fits, leave_one_size_out, position, pooled_sigma
from .hierarchy import Member, ReportModel
from .spec import BASE, DEPLOYMENT_KEYS, LEVELS, MODELS, POOL_OUTLIER, POWER

CONFIG_KEYS = ("platform", "concurrency_kind", "concurrency", "replicas", "tshirt", "cpu_limit_cores",
               *DEPLOYMENT_KEYS)
# Besides its test, what a series' line shares its shape (cost per KB / fixed cost) with.
KIN_KEYS = ("product", "product_version", "persistent", "platform")
# A series' predictive distribution is calibrated on the errors of the other series of its
# report, left out in at most this many folds (series i in fold i mod CALIBRATION_FOLDS): one
# series' errors never calibrate its own intervals, and a report of thousands of series costs
# twenty fits of a Student t, not thousands.
CALIBRATION_FOLDS = 20
# A process fits the same series again and again: a build fits every series twice (between the
# rules' two passes, then after the typo repair changed a few points), an add or a check refits
# a source, and the tests build the same reports many times. What is fitted is a pure function
# of exact numbers, so each step is memoised by its exact inputs: a series (a report, a fold's
# scores) whose numbers did not change reuses its result bit for bit. What is kept is immutable
# (frozen Fit, LeftOut and Predictive, tuples) or, for a ReportModel, only ever extended with
# values computed from what it holds; a report's fitted SeriesResults are only read once
# `_fit_report` has returned them. The bounds keep the memory a few tens of MB at most.
SERIES_CACHE = 2048   # series' own curves (a report has 20 to 80 series)
REPORT_CACHE = 16     # reports' mixed models
FOLD_CACHE = 256      # calibrations (up to CALIBRATION_FOLDS a report)
FITTED_CACHE = 4      # reports' fitted series (each result holds every prediction of its series)


@dataclass
class Prediction:
    """The prediction of one size of a series by fits that did not use the size."""

    size: float
    base: float                 # the series' line of the other sizes (all usable sizes for an
    power: float                # excluded point's own size) and its power law, at the size
    base_fit: Fit
    departure: float = 0.0      # log(prediction / base): what the report's series share at the size
    model_variance: float | None = None  # of log cost, from the report's mixed model
    variance: float | None = None        # the same, no narrower than an outlying base fit's own
    predictive: Predictive = UNCALIBRATED
    limits: dict[float, tuple[float, float]] = field(default_factory=dict)  # level -> (lower, upper)

    @property
    def predicted(self) -> float:
        return self.base * math.exp(self.departure)

    @property
    def sd(self) -> float | None:
        return None if self.variance is None else math.sqrt(self.variance)

    @property
    def fit_sizes(self) -> tuple[float, ...]:
        return self.base_fit.sizes

    @property
    def extrapolated(self) -> bool:
        return self.size < self.fit_sizes[0] or self.size > self.fit_sizes[-1]

    @property
    def extrapolation_spans(self) -> float:
        """How far the size lies beyond the fit's sizes, in spans of them (in bytes, as the line is
        linear in bytes): 0 within them, 4,095 for 1 MB predicted from 256 and 512 bytes."""
        low, high = self.fit_sizes[0], self.fit_sizes[-1]
        beyond = max(low - self.size, self.size - high, 0.0)
        return 0.0 if beyond == 0 else (math.inf if high == low else beyond / (high - low))

    def interval(self, level: float) -> tuple[float | None, float | None]:
        return self.limits.get(level, (None, None))


@dataclass
class SeriesResult:
    fits: dict[str, Fit]                    # the curves of all usable sizes
    loso: dict[str, list[LeftOut]]          # each usable size by the curves of the others
    predictions: dict[float, Prediction]    # every size of the series (usable or not)
    sigma: dict[str, tuple[float | None, int]]  # model -> residual SD pooled over the report and
                                                # its degrees of freedom (parameters' 95 % intervals)
    spread: float | None = None             # its test's scatter (log variance), of the report's fit
    predictive: Predictive = UNCALIBRATED
    chosen: str = BASE

    @property
    def fit(self) -> Fit:
        return self.fits[BASE]

    def loso_mape(self, model: str) -> float:
        """Mean absolute percentage error of ``model``'s own curve of the other sizes."""
        return float(np.mean([abs(lo.predicted - obs) / obs * 100.0
                              for lo in self.loso[model] for obs in lo.observed]))


def fit_reports(fitted: list) -> None:
    """Fit every series of ``fitted`` (models.tables.Series with >= MIN_SIZES usable sizes) and
    set each one's ``result``; series are grouped by report (source)."""
    by_report: dict[str, list] = defaultdict(list)
    for s in fitted:
        by_report[s.key["source"]].append(s)
    for members in by_report.values():
        _fit_report(members)


def _fit_report(series: list) -> None:
    """Each series' ``result``, or the results fitted before to the same series with the same
    points (`perfwh add` and a build fit their series again after the typo repair, and the
    points it leaves out are most often the same: a 10,000-row add spent a third of its time
    on the second fit)."""
    key = _digest([(sorted(s.key.items()), [dataclasses.astuple(p) for p in s.points]) for s in series])
    results = _FITTED.get(key, lambda: _fit_report_afresh(series))
    for s, result in zip(series, results):
        s.result = result  # read only from here on (models.tables writes the tables from it)


def _fit_report_afresh(series: list) -> list:
    own = [_own_curves(s) for s in series]
    sigmas = _pooled_sigmas(own)
    typical = _Typical(series, own)
    model = _report_model([_member(s, fits) for s, (fits, _loso) in zip(series, own)])
    for i, (s, (fits, loso)) in enumerate(zip(series, own)):
        s.result = SeriesResult(fits, loso, {}, sigmas[i], spread=model.spread(i))
        for size in sorted({p.size for p in s.points}):
            s.result.predictions[size] = _predict(model, i, size, fits, loso, typical)
    _calibrate(series)
    return [s.result for s in series]


def _own_curves(s) -> tuple[dict[str, Fit], dict[str, list[LeftOut]]]:
    """The series' full fits and leave-one-size-out, new containers of the memoised (frozen)
    fits: a caller may change its dicts and lists without reaching the cache."""
    fits, loso = _curves_of(tuple(p.size for p in s.usable), tuple(p.cost for p in s.usable))
    return dict(fits), {m: list(lefts) for m, lefts in loso.items()}


@lru_cache(maxsize=SERIES_CACHE)
def _curves_of(sizes: tuple[float, ...], costs: tuple[float, ...]
               ) -> tuple[dict[str, Fit], dict[str, tuple[LeftOut, ...]]]:
    return full_fits(sizes, costs), {m: tuple(leave_one_size_out(m, sizes, costs)) for m in MODELS}


def _member(s, fits: dict[str, Fit]) -> Member:
    """The series as the report's mixed model sees it: its test, its configuration, its usable
    distinct points and its own line."""
    x, y = distinct_points([p.size for p in s.usable], [p.cost for p in s.usable])
    return Member(s.key["scenario"], tuple(s.key[k] for k in CONFIG_KEYS), tuple(x.tolist()),
                  tuple(np.log(y).tolist()), fits[BASE].theta, tuple(s.key[k] for k in KIN_KEYS))


def _report_model(members: list[Member]) -> ReportModel:
    """The report's mixed model fitted to ``members``, or the one fitted before to the same
    members in the same order (the same tests, configurations and points)."""
    key = _digest([(m.test, m.config, m.sizes, m.log_costs, m.theta, m.kin) for m in members])
    return _REPORTS.get(key, lambda: ReportModel(members).fit())


class _Memo:
    """The last ``size`` results of a pure computation, by a digest of its exact inputs (which
    can be a million numbers: the digest is what is kept)."""

    def __init__(self, size: int):
        self.size = size
        self.kept: OrderedDict[bytes, object] = OrderedDict()

    def get(self, key: bytes, compute):
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        value = self.kept[key] = compute()
        if len(self.kept) > self.size:
            self.kept.popitem(last=False)
        return value


def _digest(value) -> bytes:
    """SHA-256 of the repr of a structure of strings, numbers and None: a float's repr is
    exact (it reads back as the same float), so equal digests mean equal inputs."""
    return hashlib.sha256(repr(value).encode()).digest()


_REPORTS = _Memo(REPORT_CACHE)
_FOLDS = _Memo(FOLD_CACHE)
_FITTED = _Memo(FITTED_CACHE)


def forget() -> None:
    """Empty the memos: the next fit computes everything afresh (what a new process does)."""
    _curves_of.cache_clear()
    _REPORTS.kept.clear()
    _FOLDS.kept.clear()
    _FITTED.kept.clear()


def _pooled_sigmas(own: list) -> list[dict[str, tuple[float | None, int]]]:
    """Each series' residual SD of each curve pooled with the report's other series (the
    parameters' 95 % intervals; with three sizes a series alone has one degree of freedom)."""
    rss = {m: sum(fits[m].rss for fits, _ in own) for m in MODELS}
    df = {m: sum(fits[m].df for fits, _ in own) for m in MODELS}
    return [{m: pooled_sigma(fits[m].rss, fits[m].df, rss[m] - fits[m].rss, df[m] - fits[m].df)
             for m in MODELS} for fits, _ in own]


class _Typical:
    """How well the fits of a series' other sizes usually fit them: per test and slot, the
    residual SDs of the same fits of the test's series (its full fits for a point whose size
    has no usable point), and the report's median over its full fits."""

    def __init__(self, series: list, own: list):
        self.tests = [s.key["scenario"] for s in series]
        self.runs: dict[str, list[int]] = defaultdict(list)  # test -> its series
        for j, test in enumerate(self.tests):
            self.runs[test].append(j)
        self.by_slot = [{(lo.size, lo.position): lo.fit.own_sigma for lo in loso[BASE]} for _fits, loso in own]
        self.full = [fits[BASE].own_sigma for fits, _loso in own]
        self.report = _median([v for v in self.full if v is not None])
        self._sorted: dict[tuple, list[float]] = {}  # (test, slot) -> its series' values, sorted

    def _value(self, j: int, slot: tuple | None) -> float | None:
        return self.full[j] if slot is None else self.by_slot[j].get(slot)

    def of(self, i: int, slot: tuple | None) -> float | None:
        """The typical residual SD the fit that predicts member ``i`` at ``slot`` (None: the
        full fit) is compared with: the median over the same test's other series, or the
        report's median where the test has no other such fit. (The test's values are sorted
        once and the member's own left out by position: a lab's file runs a test on
        thousands of series, and a list of the others per member made the fit quadratic.)"""
        key = (self.tests[i], slot)
        if key not in self._sorted:
            self._sorted[key] = sorted(v for j in self.runs[self.tests[i]]
                                       if (v := self._value(j, slot)) is not None)
        typical = _median_without(self._sorted[key], self._value(i, slot))
        return self.report if typical is None else typical


def _predict(model: ReportModel, i: int, size: float, fits: dict[str, Fit], loso: dict[str, list[LeftOut]],
             typical: _Typical) -> Prediction:
    left = {m: next((lo for lo in loso[m] if lo.size == size), None) for m in MODELS}
    if left[BASE] is not None:  # a usable size: the curves of the other sizes
        prediction = Prediction(size, left[BASE].predicted, left[POWER].predicted, left[BASE].fit)
        slot = (size, left[BASE].position)
        usual = typical.of(i, slot)
    else:  # only excluded points at this size: the curves of every usable size
        prediction = Prediction(size, float(fits[BASE].predict([size])[0]),
                                float(fits[POWER].predict([size])[0]), fits[BASE])
        slot = (size, position(size, fits[BASE].sizes))
        usual = typical.of(i, None)
    found = model.predict(i, size)
    if found is None:
        return prediction
    log_mean, prediction.model_variance = found
    prediction.departure = log_mean - math.log(prediction.base)
    prediction.variance = prediction.model_variance
    own = prediction.base_fit.own_sigma
    if own is not None and usual is not None and own > POOL_OUTLIER * usual:
        # the fit of the other sizes fits them far worse than the same fits of the test's other
        # series fit theirs (a slip among those sizes): the prediction is no surer than that
        # fit's own scatter, so the slip itself is flagged, not the sizes predicted from it
        prediction.variance = max(prediction.variance, own * own)
    return prediction


def _calibrate(series: list) -> None:
    """Each series' predictive distribution from the standardised errors of the report's series
    in the other folds (CALIBRATION_FOLDS: with as many series or fewer, every series is a fold
    of its own), and the intervals of its predictions."""
    scores = [_scores(s) for s in series]
    folds = min(len(series), CALIBRATION_FOLDS)
    by_fold = [_calibrated(np.array([z for j, zs in enumerate(scores) if j % folds != fold for z in zs],
                                    dtype=float)) for fold in range(folds)]
    for i, s in enumerate(series):
        s.result.predictive = by_fold[i % folds]
        for p in s.result.predictions.values():
            p.predictive = s.result.predictive
            if p.sd is None:
                continue
            for level in LEVELS:
                half = p.predictive.half_width(level, p.sd)
                half = min(half, 700.0)  # beyond, a float cannot hold the limit
                p.limits[level] = (p.predicted * math.exp(-half), p.predicted * math.exp(half))


def _calibrated(scores: np.ndarray) -> Predictive:
    """calibrate(scores), or the distribution calibrated before on the same scores."""
    return _FOLDS.get(hashlib.sha256(scores.tobytes()).digest(), lambda: calibrate(scores))


def _scores(s) -> list[float]:
    """log(observed / predicted) / model SD of each distinct usable point of the series."""
    out = []
    for lo in s.result.loso[BASE]:
        p = s.result.predictions[lo.size]
        if p.model_variance is None or p.model_variance <= 0:
            continue
        out.extend(math.log(obs / p.predicted) / math.sqrt(p.model_variance) for obs in lo.observed)
    return out


def _median(values):
    return statistics.median(values) if values else None


def _median_without(ordered: list[float], value: float | None) -> float | None:
    """The median of ``ordered`` (sorted) with one occurrence of ``value`` taken out (None:
    nothing taken out); None when nothing is left."""
    if value is None:
        return _median(ordered)
    gone = bisect.bisect_left(ordered, value)
    count = len(ordered) - 1
    if count == 0:
        return None
    at = lambda k: ordered[k if k < gone else k + 1]  # noqa: E731  (the k-th of the rest)
    middle = count // 2
    return at(middle) if count % 2 else (at(middle - 1) + at(middle)) / 2
