"""The warehouse stage: the sources manifest, loading parsed reports and submissions into the
raw layer, the schema above it (stg_, dim_, fact_, views, data dictionary) and the Parquet
export. Functions take an open DuckDB connection; file names and atomic replacement are the
stages' business (`perfwh.stages`)."""
