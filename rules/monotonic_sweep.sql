-- severity: warning
-- relation: dq_input
-- reason: Within one series (same table, product, platform, scenario, persistence and
--   configuration) a bigger message should not go faster and should not cost less CPU. A
--   rate above the rate at the next smaller size, or a cost below the cost there, by more
--   than TOLERANCE (5 %) beyond the printed precision, is flagged on the larger size's row;
--   the message names both.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS tolerance),
steps AS (
    -- one row per table row and metric, next to the same metric at the next smaller size
    SELECT m.world, m.subject, m.row_id, m.source, m.source_line, m.table_title,
           m.message_size_bytes, x.metric, x.value, x.half_ulp, x.printed, x.fact_id,
           LAG(m.message_size_bytes) OVER w AS prev_size, LAG(x.value) OVER w AS prev_value,
           LAG(x.half_ulp) OVER w AS prev_half_ulp, LAG(x.printed) OVER w AS prev_printed,
           LAG(m.source_line) OVER w AS prev_line, LAG(m.row_id) OVER w AS prev_row
    FROM batch m,
         LATERAL (VALUES ('msg_rate', m.msg_rate, m.msg_rate_half_ulp, m.msg_rate_printed, m.msg_rate_fact_id),
                         ('cpu_ms_per_msg', m.cpu_ms_per_msg, m.cpu_ms_per_msg_half_ulp,
                          m.cpu_ms_per_msg_printed, m.cpu_ms_per_msg_fact_id))
             AS x(metric, value, half_ulp, printed, fact_id)
    WHERE x.value IS NOT NULL AND m.message_size_bytes IS NOT NULL
    WINDOW w AS (PARTITION BY m.world, m.source, m.table_title, m.product, m.product_version,
                              m.platform, m.scenario, m.persistent, m.config_key, x.metric
                 ORDER BY m.message_size_bytes, m.source_line)
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
