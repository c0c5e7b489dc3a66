-- severity: warning
-- relation: dq_input
-- repair: none
-- summary: persistent runs are not faster or cheaper than non-persistent ones
-- reason: Persistent messages are logged to disk, so a persistent run should be no faster
--   and no cheaper in CPU than the non-persistent run of the same test, size and
--   configuration. Flagged on the persistent row when it beats the non-persistent one by
--   more than TOLERANCE (5 %) beyond the printed precision.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS tolerance),
pairs AS (
    SELECT p.*, n.msg_rate AS np_rate, n.msg_rate_half_ulp AS np_rate_ulp,
           n.msg_rate_printed AS np_rate_printed, n.cpu_ms_per_msg AS np_cost,
           n.cpu_ms_per_msg_half_ulp AS np_cost_ulp, n.cpu_ms_per_msg_printed AS np_cost_printed,
           n.source_line AS np_line, n.row_id AS np_row
    FROM batch p
    JOIN batch n
      ON n.world = p.world AND n.source = p.source AND n.product = p.product
     AND n.product_version = p.product_version AND n.platform = p.platform
     AND n.scenario = p.scenario AND n.config_key = p.config_key
     AND n.message_size_bytes IS NOT DISTINCT FROM p.message_size_bytes
     AND n.persistent = FALSE AND p.persistent = TRUE
     AND n.table_title = p.table_title
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('persistent rate %s is above the non-persistent %s (line %d)',
              with_unit(msg_rate_printed, 'msgs/s'), with_unit(np_rate_printed, 'msgs/s'), np_line) AS message,
       np_row AS related_row_id
FROM pairs, params
WHERE subject AND msg_rate - msg_rate_half_ulp > (np_rate + np_rate_ulp) * (1 + tolerance)
UNION ALL
SELECT world, row_id, cpu_ms_per_msg_fact_id, source, source_line, table_title,
       'cpu_ms_per_msg', cpu_ms_per_msg_printed,
       printf('persistent CPU cost %s is below the non-persistent %s (line %d)',
              with_unit(cpu_ms_per_msg_printed, 'ms'), with_unit(np_cost_printed, 'ms'), np_line),
       np_row
FROM pairs, params
WHERE subject AND cpu_ms_per_msg + cpu_ms_per_msg_half_ulp < (np_cost - np_cost_ulp) * (1 - tolerance)
