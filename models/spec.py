"""What the models are, apart from their numerics: their names and the limits the library
shares. Kept free of numpy and scipy, so that a caller with nothing to fit (a check of a
submission too small to make a series) does not load them."""
from __future__ import annotations

LINEAR = "linear"
POWER = "power"
MODELS = (LINEAR, POWER)
# Every prediction starts from the series' own line (fixed cost plus cost per KB); the power
# law is fitted beside it for comparison only (README, "Models and sizing": it cannot bend from
# a flat fixed cost into a per-KB slope, so its own error is 45-82 %).
BASE = LINEAR
MIN_SIZES = 3  # a series needs three sizes: two to fit each left-out one
# How a messaging test was deployed (the MQ Appliance's standalone or HA group, its queue
# managers, a simulated network latency) is part of its configuration, as in the rules'
# config_key: each deployment is a series of its own, and a configuration of the report's.
DEPLOYMENT_KEYS = ("topology", "queue_managers", "simulated_latency_ms")
# The two levels of the prediction intervals. Both come from one predictive distribution (a
# Student t on the log scale), so the 90 % interval lies inside the 99 % one by construction.
# model_predictions names their limits lower_90/upper_90 and lower_99/upper_99; the model
# residual rule (rules/model_residual.sql, through dq_predictions) holds each point to the wide
# one: outside it, the point is unlikely (1 in 100) to be a measurement of the same cost curve.
NARROW_LEVEL = 0.90
WIDE_LEVEL = 0.99
LEVELS = (NARROW_LEVEL, WIDE_LEVEL)
# How many degrees of freedom a test's own scatter (and its bend) must outweigh before it counts
# more than the report's typical one (the prior of the empirical-Bayes shrinkage), and the
# predictive distribution's degrees of freedom where too few leave-one-size-out scores calibrate it.
PRIOR_DF = 4.0
# Fewer scores than this (points of the report's other series) do not calibrate a Student t:
# the predictive distribution is then the model's own, t with PRIOR_DF degrees of freedom.
MIN_CALIBRATION_SCORES = 30
# A fit of a series' other sizes whose own residual SD exceeds this many times its report's
# median is itself outlying (a slip among those sizes): its left-out point gets an interval no
# narrower than that fit's own prediction interval, so the slip is flagged, not its neighbours.
POOL_OUTLIER = 5.0
INTERVAL_METHOD = (
    "leave-one-size-out prediction by a mixed model of the report's log costs: each series' own line "
    "(fixed cost plus cost per KB) plus how the same test bends away from lines at that size (on other "
    "products, platforms, configurations, persistence) and how the same configuration bends (in other "
    "tests), each series' line fitted to its other sizes together with the others' bends and with the shape "
    "(cost per KB / fixed cost) the same test's other series of its product, version, persistence and "
    "platform share; the interval "
    "is a Student t on the log scale whose spread is the joint uncertainty of that line and those bends "
    "at the size plus the test's own scatter, shrunk towards the report's and estimated without the "
    "point, {calibration}; 90 % and 99 % come from the same distribution")
# The interval method's calibration clause (INTERVAL_METHOD.format(calibration=...)), as it was or
# was not done for a series' report.
CALIBRATED = ("calibrated on the leave-one-size-out errors of the report's other series (the degrees of "
              "freedom of their likeliest t, the scale that puts its 90 % interval at their 90 % quantile)")
UNCALIBRATED_TEXT = (f"not calibrated: the report's other series have fewer than {MIN_CALIBRATION_SCORES} "
                     f"leave-one-size-out errors, so the t is the model's own (scale 1, {PRIOR_DF:g} degrees "
                     "of freedom) and nothing has checked how often it holds a measurement")
