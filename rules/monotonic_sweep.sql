-- severity: warning
-- relation: dq_input
-- repair: band
-- summary: within a series, bigger messages are not faster, nor cheaper (5 % tolerance)
-- reason: Within one series (same table, product, platform, scenario, persistence and
--   configuration) a bigger message should not go faster and should not cost less CPU. A
--   rate above the rate at the next smaller size, or a cost below the cost there, by more
--   than TOLERANCE (5 %) beyond the printed precision, is flagged on the larger size's row;
--   the message names both.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS tolerance),
metrics AS (
    -- one row per table row and metric (an unpivot written as UNION ALL, which every engine reads)
    SELECT m.world, m.subject, m.row_id, m.source, m.source_line, m.table_title, m.product,
           m.product_version, m.platform, m.scenario, m.persistent, m.config_key,
           m.message_size_bytes, 'msg_rate' AS metric, m.msg_rate AS value,
           m.msg_rate_half_ulp AS half_ulp, m.msg_rate_printed AS printed, m.msg_rate_fact_id AS fact_id
    FROM batch m WHERE m.msg_rate IS NOT NULL AND m.message_size_bytes IS NOT NULL
    UNION ALL
    SELECT m.world, m.subject, m.row_id, m.source, m.source_line, m.table_title, m.product,
           m.product_version, m.platform, m.scenario, m.persistent, m.config_key,
           m.message_size_bytes, 'cpu_ms_per_msg', m.cpu_ms_per_msg, m.cpu_ms_per_msg_half_ulp,
           m.cpu_ms_per_msg_printed, m.cpu_ms_per_msg_fact_id
    FROM batch m WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
),
steps AS (
    -- each number next to the same metric at the next smaller size
    SELECT x.world, x.subject, x.row_id, x.source, x.source_line, x.table_title,
           x.message_size_bytes, x.metric, x.value, x.half_ulp, x.printed, x.fact_id,
           LAG(x.message_size_bytes) OVER w AS prev_size, LAG(x.value) OVER w AS prev_value,
           LAG(x.half_ulp) OVER w AS prev_half_ulp, LAG(x.printed) OVER w AS prev_printed,
           LAG(x.source_line) OVER w AS prev_line, LAG(x.row_id) OVER w AS prev_row
    FROM metrics x
    WINDOW w AS (PARTITION BY x.world, x.source, x.table_title, x.product, x.product_version,
                              x.platform, x.scenario, x.persistent, x.config_key, x.metric
                 ORDER BY x.message_size_bytes, x.source_line)
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric, printed AS printed_value,
       CASE metric
           WHEN 'msg_rate' THEN printf('rate %s msgs/s at %d bytes is above %s msgs/s at %d bytes '
                                       || '(line %d): a bigger message should not be faster',
                                       printed, message_size_bytes, prev_printed, prev_size, prev_line)
           ELSE printf('CPU cost %s at %d bytes is below %s at %d bytes (line %d): a bigger '
                       || 'message should not cost less', printed, message_size_bytes,
                       prev_printed, prev_size, prev_line) END AS message,
       prev_row AS related_row_id
FROM steps, params
WHERE subject AND prev_value IS NOT NULL AND message_size_bytes > prev_size
  AND ((metric = 'msg_rate' AND value - half_ulp > (prev_value + prev_half_ulp) * (1 + tolerance))
       OR (metric = 'cpu_ms_per_msg'
           AND value + half_ulp < (prev_value - prev_half_ulp) * (1 - tolerance)))
