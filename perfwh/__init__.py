"""perfwh: a performance-results data warehouse for IBM integration middleware reports.

The packages follow the pipeline, each importing only from those before it:
``perfwh.core`` (paths, files, shared helpers) -> ``perfwh.warehouse`` (sources, load,
schema, Parquet) -> ``perfwh.quality`` (rules, Great Expectations, typo repair) ->
``models`` (the fitting library) -> ``perfwh.stages`` (build, check, add, models stage)
-> ``perfwh.publish`` (notebooks, website) -> ``perfwh.cli`` (the command).
``ingest`` (the parsers) sits below all of them.
"""
