"""The data-quality stage: the rule files, their runners (DuckDB, Great Expectations, Apache
Spark) and the typo repair."""

# The Spark cluster the Spark engine uses unless given another (`--spark-master URL`): Spark
# on this machine with two worker threads. Here, not in `spark`, so that the command line can
# show it without importing the engine.
DEFAULT_SPARK_MASTER = "local[2]"
