-- severity: error
-- relation: dq_input
-- compares: source
-- repair: tight
-- summary: one key printed twice in a table with different numbers
-- reason: Within one table each key (measurement_key: product, version, platform, scenario,
--   message size, persistence, configuration) is measured once. The same key printed again with different numbers
--   means the labels or the numbers of a row are wrong. Flagged on each later row. Only the
--   numbers both rows print are compared: a rate-only row (WBIMB's Tables 1 and 2 style)
--   and a full row of the same key agree when their rates do.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
twice AS (
    -- the keys printed more than once in a table: only their rows can conflict (grouping first
    -- keeps the window below to those rows)
    SELECT world, source, table_title, measurement_key
    FROM batch
    GROUP BY world, source, table_title, measurement_key
    HAVING count(*) > 1
),
candidates AS (
    SELECT m.* FROM batch m
    JOIN twice t ON t.world = m.world AND t.source = m.source AND t.table_title = m.table_title
                AND t.measurement_key = m.measurement_key
),
keyed AS (
    SELECT m.*,
           concat_ws(' / ', msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed) AS printed_tuple,
           FIRST_VALUE(m.source_line) OVER w AS first_line,
           FIRST_VALUE(m.row_id) OVER w AS first_row,
           FIRST_VALUE(concat_ws(' / ', msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed))
               OVER w AS first_tuple,
           FIRST_VALUE(msg_rate_printed) OVER w AS first_rate,
           FIRST_VALUE(cpu_busy_pct_printed) OVER w AS first_busy,
           FIRST_VALUE(cpu_ms_per_msg_printed) OVER w AS first_cost
    FROM candidates m
    WINDOW w AS (PARTITION BY m.world, m.source, m.table_title, m.measurement_key
                 ORDER BY m.source_line)
)
SELECT world, row_id, COALESCE(msg_rate_fact_id, cpu_ms_per_msg_fact_id) AS fact_id, source,
       source_line, table_title,
       CASE WHEN msg_rate_fact_id IS NOT NULL THEN 'msg_rate' ELSE 'cpu_ms_per_msg' END AS metric,
       COALESCE(msg_rate_printed, cpu_ms_per_msg_printed) AS printed_value,
       printf('the same key (%s, %s bytes, %s) is printed at line %d with %s and here with %s',
              scenario, COALESCE(CAST(message_size_bytes AS VARCHAR), 'no size'),
              COALESCE(nullif(replace(config_key, '|', ' '), ''), 'no configuration'),
              first_line, first_tuple, printed_tuple)
       -- a lab's export of every run repeats each key
       || CASE WHEN source_family = 'submission'
               THEN '; repeated runs? a key is one measurement: file one row for it (the runs'' '
                    || 'mean, say), or waive the later ones as measured again' ELSE '' END AS message,
       first_row AS related_row_id
FROM keyed
WHERE subject AND source_line > first_line
  AND (msg_rate_printed <> first_rate OR cpu_busy_pct_printed <> first_busy
       OR cpu_ms_per_msg_printed <> first_cost)
