"""Cost-vs-size models and sizing: a library. It reads the warehouse through the DuckDB
connection it is handed and imports nothing of perfwh (only `ingest` for units and
vocabulary); `perfwh.stages.models` writes its tables, `perfwh.cli` prints its answers.

- `models.spec`: the models' names and shared limits, without numerics.
- `models.fit`: the two models (fixed cost plus cost per KB; power law), their intervals,
  leave-one-size-out; pure numerics (numpy, scipy).
- `models.tables`: series from the warehouse, exclusions from dq_findings, and the rows of
  model_fits, model_predictions, model_unfitted (model_accuracy is SQL over them).
- `models.curves`: a fitted series back from the warehouse, its curve and prediction band.
- `models.sizing`: cores for a rate at a size, with a 90 % interval (`perfwh size`).
"""
