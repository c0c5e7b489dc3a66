-- severity: warning
-- relation: dq_input
-- reason: Within one series a bigger message should not cost less CPU. A cost below the
--   cost at the next smaller size by more than TOLERANCE (5 %) beyond the printed precision
--   is flagged on the larger size's row.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS tolerance),
series AS (
    SELECT m.*,
           LAG(m.message_size_bytes) OVER w AS prev_size,
           LAG(m.cpu_ms_per_msg) OVER w AS prev_cost,
           LAG(m.cpu_ms_per_msg_half_ulp) OVER w AS prev_half_ulp,
           LAG(m.cpu_ms_per_msg_printed) OVER w AS prev_printed,
           LAG(m.source_line) OVER w AS prev_line,
           LAG(m.row_id) OVER w AS prev_row
    FROM batch m
    WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
    WINDOW w AS (PARTITION BY m.world, m.source, m.table_title, m.product, m.product_version,
                              m.platform, m.scenario, m.persistent, m.config_key
                 ORDER BY m.message_size_bytes, m.source_line)
)
SELECT world, row_id, cpu_ms_per_msg_fact_id AS fact_id, source, source_line, table_title,
       'cpu_ms_per_msg' AS metric, cpu_ms_per_msg_printed AS printed_value,
       printf('CPU cost %s at %d bytes is below %s at %d bytes (line %d): a bigger message '
              || 'should not cost less', cpu_ms_per_msg_printed, message_size_bytes,
              prev_printed, prev_size, prev_line) AS message,
       prev_row AS related_row_id
FROM series, params
WHERE subject AND prev_cost IS NOT NULL AND message_size_bytes > prev_size
  AND cpu_ms_per_msg + cpu_ms_per_msg_half_ulp < (prev_cost - prev_half_ulp) * (1 - tolerance)
