-- severity: warning
-- relation: dq_input
-- reason: Within one series (same table, product, platform, scenario, persistence and
--   configuration) a bigger message should not go faster. A rate above the rate at the
--   next smaller size by more than TOLERANCE (5 %) beyond the printed precision is flagged
--   on the larger size's row; the message names both.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS tolerance),
series AS (
    SELECT m.*,
           LAG(m.message_size_bytes) OVER w AS prev_size,
           LAG(m.msg_rate) OVER w AS prev_rate,
           LAG(m.msg_rate_half_ulp) OVER w AS prev_half_ulp,
           LAG(m.msg_rate_printed) OVER w AS prev_printed,
           LAG(m.source_line) OVER w AS prev_line,
           LAG(m.row_id) OVER w AS prev_row
    FROM batch m
    WHERE m.msg_rate IS NOT NULL AND m.message_size_bytes IS NOT NULL
    WINDOW w AS (PARTITION BY m.world, m.source, m.table_title, m.product, m.product_version,
                              m.platform, m.scenario, m.persistent, m.config_key
                 ORDER BY m.message_size_bytes, m.source_line)
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('rate %s msgs/s at %d bytes is above %s msgs/s at %d bytes (line %d): a bigger '
              || 'message should not be faster', msg_rate_printed, message_size_bytes,
              prev_printed, prev_size, prev_line) AS message,
       prev_row AS related_row_id
FROM series, params
WHERE subject AND prev_rate IS NOT NULL AND message_size_bytes > prev_size
  AND msg_rate - msg_rate_half_ulp > (prev_rate + prev_half_ulp) * (1 + tolerance)
