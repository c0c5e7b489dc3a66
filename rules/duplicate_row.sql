-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: none
-- summary: a row printed again in its table number for number (a copied line, or one measurement printed twice)
-- reason: Within one table each key (measurement_key: product, version, platform, cores,
--   scenario, message size, persistence, configuration) is measured once. A row repeating an
--   earlier row of its table - the same key, and every number printed alike - is either a
--   line copied by mistake (filed, every count, sum and mean of the warehouse would weigh the
--   measurement twice) or a measurement a report prints in several tables, transcribed into
--   one file (the template has no table column): the models count it once either way, but
--   only the submitter can tell which, so it is a warning on each later copy, naming the
--   first. The same key with other numbers is conflicting_key's error, the same row in an
--   earlier submission already_filed's.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
twice AS (
    -- the keys printed more than once in a table: only their rows can repeat (grouping first
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
copies AS (
    SELECT m.*,
           FIRST_VALUE(m.source_line) OVER w AS first_line,
           FIRST_VALUE(m.row_id) OVER w AS first_row
    FROM candidates m
    -- a blank number is alike only to a blank one
    WINDOW w AS (PARTITION BY m.world, m.source, m.table_title, m.measurement_key,
                              m.msg_rate_printed, m.cpu_busy_pct_printed, m.cpu_ms_per_msg_printed
                 ORDER BY m.source_line)
)
SELECT world, row_id, COALESCE(msg_rate_fact_id, cpu_ms_per_msg_fact_id, cpu_busy_pct_fact_id) AS fact_id,
       source, source_line, table_title,
       CASE WHEN msg_rate_fact_id IS NOT NULL THEN 'msg_rate'
            WHEN cpu_ms_per_msg_fact_id IS NOT NULL THEN 'cpu_ms_per_msg' ELSE 'cpu_busy_pct' END AS metric,
       COALESCE(msg_rate_printed, cpu_ms_per_msg_printed, cpu_busy_pct_printed) AS printed_value,
       printf('this row repeats line %d number for number (%s, %s bytes, %s: %s): a copied line '
              || 'would count twice in every sum - delete it; one measurement printed in two tables '
              || 'of a report is one point to the models', first_line, scenario,
              COALESCE(CAST(message_size_bytes AS VARCHAR), 'no size'),
              COALESCE(nullif(replace(config_key, '|', ' '), ''), 'no configuration'),
              concat_ws(' / ', msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed)) AS message,
       first_row AS related_row_id
FROM copies
WHERE subject AND source_line > first_line
