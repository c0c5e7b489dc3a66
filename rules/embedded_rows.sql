-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: none
-- summary: a row of a configuration foreign to its table whose numbers are printed again in another table
-- reason: A table measures one configuration or sweeps one: its rows share their replicas
--   (or their concurrency), or spread them evenly. A row whose replicas or concurrency is
--   held by fewer than MINORITY (a quarter) of its table's rows while one other value is held
--   by DOMINANT (three quarters) or more, and whose numbers (at least two) are printed again
--   in another table of the report, belongs to that other table: a row of a multi-replica
--   test embedded in a single-replica table, repeated where it belongs. Both lines are named;
--   which table is right is for the reader (no correction is suggested).
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.25 AS minority, 0.75 AS dominant),
dims AS (
    -- each row once per dimension, with its level there (an unpivot every engine reads)
    SELECT m.world, m.subject, m.row_id, m.source, m.table_title, d.dimension,
           CASE d.dimension WHEN 'replicas' THEN CAST(COALESCE(m.replicas, 1) AS VARCHAR)
                ELSE COALESCE(concat_ws(' ', m.concurrency_kind, CAST(m.concurrency AS VARCHAR)), '')
           END AS level
    FROM batch m
    CROSS JOIN (VALUES ('replicas'), ('concurrency')) AS d(dimension)
),
shares AS (
    -- how many rows of each table hold each level (aggregated: a table of ten million rows
    -- is a few groups, not a window over its rows)
    SELECT world, source, table_title, dimension, level, count(*) AS holders
    FROM dims GROUP BY world, source, table_title, dimension, level
),
tables AS (
    SELECT world, source, table_title, dimension, sum(holders) AS table_rows,
           max(holders) AS top, arg_max(level, holders) AS top_level
    FROM shares GROUP BY world, source, table_title, dimension
),
foreign_levels AS (
    SELECT s.*, t.table_rows, t.top, t.top_level
    FROM shares s
    JOIN tables t ON t.world = s.world AND t.source = s.source AND t.table_title = s.table_title
                 AND t.dimension = s.dimension
    CROSS JOIN params
    WHERE t.table_rows >= 4 AND s.holders < minority * t.table_rows AND t.top >= dominant * t.table_rows
),
foreign_rows AS (
    SELECT m.*, f.dimension, f.level, f.holders, f.table_rows, f.top, f.top_level,
           concat_ws(' / ', m.msg_rate_printed, m.cpu_busy_pct_printed, m.cpu_ms_per_msg_printed)
               AS printed_tuple
    FROM dims d
    JOIN foreign_levels f ON f.world = d.world AND f.source = d.source
                         AND f.table_title = d.table_title AND f.dimension = d.dimension
                         AND f.level = d.level
    JOIN batch m ON m.world = d.world AND m.row_id = d.row_id
    WHERE d.subject
      AND (m.msg_rate_printed IS NOT NULL)::INT + (m.cpu_busy_pct_printed IS NOT NULL)::INT
          + (m.cpu_ms_per_msg_printed IS NOT NULL)::INT >= 2
),
repeats AS (
    SELECT f.*, o.source_line AS other_line, o.table_title AS other_table, o.row_id AS other_row,
           o.scenario AS other_scenario, o.message_size_bytes AS other_size,
           o.config_key AS other_config,
           ROW_NUMBER() OVER (PARTITION BY f.world, f.row_id ORDER BY f.dimension, o.source_line) AS nth
    FROM foreign_rows f
    JOIN batch o ON o.world = f.world AND o.source = f.source AND o.table_title <> f.table_title
                AND concat_ws(' / ', o.msg_rate_printed, o.cpu_busy_pct_printed, o.cpu_ms_per_msg_printed)
                    = f.printed_tuple
)
SELECT world, row_id, COALESCE(msg_rate_fact_id, cpu_ms_per_msg_fact_id) AS fact_id, source,
       source_line, table_title,
       CASE WHEN msg_rate_fact_id IS NOT NULL THEN 'msg_rate' ELSE 'cpu_ms_per_msg' END AS metric,
       COALESCE(msg_rate_printed, cpu_ms_per_msg_printed) AS printed_value,
       printf('a row with %s %s in a table whose rows have %s %s (%d of its %d rows; %d with %s '
              || '%s): its numbers %s are printed again at line %d (%s: %s, %s bytes, %s), in the '
              || 'table it belongs to', dimension, level, dimension, top_level, top, table_rows,
              holders, dimension, level, printed_tuple, other_line, other_table, other_scenario,
              COALESCE(CAST(other_size AS VARCHAR), 'no size'), replace(other_config, '|', ' '))
           AS message,
       other_row AS related_row_id
FROM repeats
WHERE nth = 1
