"""Cost-vs-size models and sizing: a library. It reads the warehouse through the DuckDB
connection it is handed and imports nothing of perfwh (only `ingest` for units and
vocabulary); `perfwh.stages.models` writes its tables, `perfwh.cli` prints its answers.

- `models.spec`: the models' names and shared limits, without numerics.
- `models.fit`: the two curves (fixed cost plus cost per KB; power law), their parameter
  intervals, leave-one-size-out; pure numerics (numpy, scipy).
- `models.hierarchy`: what a report's series share - a mixed model of their log costs (each
  series' line, each test's and configuration's bends at each size, each test's scatter) - and
  each point's prediction from everything but its size.
- `models.calibration`: the predictive distribution, a Student t calibrated on the other series'
  leave-one-size-out errors.
- `models.predict`: every point predicted without its size, with its 90 % and 99 % intervals.
- `models.tables`: series from the warehouse, exclusions from dq_findings, and the rows of
  model_fits, model_predictions, model_unfitted (model_accuracy is SQL over them).
- `models.curves`: a fitted series back from the warehouse, its predictive curve at any size.
- `models.sizing`: cores for a rate at a size, with a 90 % interval and what it rests on
  (`perfwh size`).
"""
