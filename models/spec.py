"""What the models are, apart from their numerics: their names and the limits the library
shares. Kept free of numpy and scipy, so that a caller with nothing to fit (a check of a
submission too small to make a series) does not load them."""
from __future__ import annotations

LINEAR = "linear"
POWER = "power"
MODELS = (LINEAR, POWER)
MIN_SIZES = 3  # a series needs three sizes: two to fit each left-out one
# The wide prediction interval a point's own leave-one-size-out prediction is held to by the
# model residual rule (rules/model_residual.sql reads it from dq_predictions): outside it, the
# point is unlikely (1 in 100) to be a measurement of the same cost curve. model_predictions
# names its limits lower_99 and upper_99.
WIDE_LEVEL = 0.99
