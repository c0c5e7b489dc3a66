"""Cost-vs-size models and sizing (issue 4).

- `models.fit`: the two models (fixed cost plus cost per KB; power law), their intervals,
  leave-one-size-out; pure numerics (numpy, scipy).
- `models.tables`: `perfwh models` - series from the warehouse, exclusions from dq_findings,
  the tables model_fits, model_predictions, model_accuracy, model_unfitted.
- `models.curves`: a fitted series back from the warehouse, its curve and prediction band.
- `models.sizing`: `perfwh size` - cores for a rate at a size, with a 90 % interval.
- `models.notebooks`: `perfwh notebooks` - execute notebooks/*.ipynb headless.
- `models.cli`: registers the subcommands; imports nothing heavy.
"""
