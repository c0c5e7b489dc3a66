-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: band
-- summary: within a series, bigger messages are not faster, nor cheaper (5 % tolerance)
-- reason: Within one series (same table, product, platform, scenario, persistence and
--   configuration) a bigger message should not go faster and should not cost less CPU. A
--   rate above the rate at the next smaller size, or a cost below the cost there, by more
--   than TOLERANCE (5 %) beyond the printed precision, is flagged on the larger size's row;
--   the message names both. Where both rows print a CPU at least SATURATED (80 %) busy, the
--   CPU sets the pace, and a rate moves with how busy each run kept it (86.8 % at one size,
--   95.4 % at the next): there a rate is flagged only if it is higher per %CPU too. A rate
--   at a CPU far from busy is set by something else (a simulated latency, a client), which a
--   bigger message should not speed up either: compared as printed.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS tolerance, 80.0 AS saturated),
metrics AS (
    -- one row per table row and metric, with only what the comparison needs (an unpivot
    -- written as UNION ALL, which every engine reads); the printed numbers and the lines join
    -- back for the few rows flagged
    SELECT m.world, m.subject, m.row_id, m.source, m.table_title, m.product, m.product_version,
           m.platform, m.server_cores, m.scenario, m.persistent, m.config_key, m.message_size_bytes, m.source_line,
           'msg_rate' AS metric, m.msg_rate AS value, m.msg_rate_half_ulp AS half_ulp,
           m.cpu_busy_pct AS busy, m.cpu_busy_pct_half_ulp AS busy_half_ulp
    FROM batch m WHERE m.msg_rate IS NOT NULL AND m.message_size_bytes IS NOT NULL
    UNION ALL
    SELECT m.world, m.subject, m.row_id, m.source, m.table_title, m.product, m.product_version,
           m.platform, m.server_cores, m.scenario, m.persistent, m.config_key, m.message_size_bytes, m.source_line,
           'cpu_ms_per_msg', m.cpu_ms_per_msg, m.cpu_ms_per_msg_half_ulp, NULL, NULL
    FROM batch m WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
),
steps AS (
    -- each number next to the same metric at the next smaller size
    SELECT x.world, x.subject, x.row_id, x.message_size_bytes, x.metric, x.value, x.half_ulp,
           LAG(x.message_size_bytes) OVER w AS prev_size, LAG(x.value) OVER w AS prev_value,
           LAG(x.half_ulp) OVER w AS prev_half_ulp, LAG(x.row_id) OVER w AS prev_row,
           x.busy, x.busy_half_ulp, LAG(x.busy) OVER w AS prev_busy,
           LAG(x.busy_half_ulp) OVER w AS prev_busy_half_ulp
    FROM metrics x
    WINDOW w AS (PARTITION BY x.world, x.source, x.table_title, x.product, x.product_version,
                              x.platform, x.server_cores, x.scenario, x.persistent, x.config_key, x.metric
                 ORDER BY x.message_size_bytes, x.source_line)
),
flagged AS (
    SELECT s.*
    FROM steps s, params
    WHERE s.subject AND s.prev_value IS NOT NULL AND s.message_size_bytes > s.prev_size
      AND ((s.metric = 'msg_rate'
            AND s.value - s.half_ulp > (s.prev_value + s.prev_half_ulp) * (1 + tolerance)
            -- both saturated: higher per %CPU too, at the printed precisions' least
            AND (s.busy IS NULL OR s.prev_busy IS NULL OR s.busy < saturated OR s.prev_busy < saturated
                 OR (s.value - s.half_ulp) / (s.busy + s.busy_half_ulp)
                    > (s.prev_value + s.prev_half_ulp) / (s.prev_busy - s.prev_busy_half_ulp) * (1 + tolerance)))
           OR (s.metric = 'cpu_ms_per_msg'
               AND s.value + s.half_ulp < (s.prev_value - s.prev_half_ulp) * (1 - tolerance)))
),
described AS (
    SELECT f.world, f.row_id, f.metric, f.message_size_bytes, f.prev_size, f.prev_row,
           m.source, m.source_line, m.table_title, p.source_line AS prev_line,
           CASE f.metric WHEN 'msg_rate' THEN m.msg_rate_printed ELSE m.cpu_ms_per_msg_printed END AS printed,
           CASE f.metric WHEN 'msg_rate' THEN p.msg_rate_printed ELSE p.cpu_ms_per_msg_printed END AS prev_printed,
           CASE f.metric WHEN 'msg_rate' THEN m.msg_rate_fact_id ELSE m.cpu_ms_per_msg_fact_id END AS fact_id,
           CASE WHEN f.metric = 'msg_rate' AND f.busy >= saturated AND f.prev_busy >= saturated
                THEN printf(' at %s CPU against %s', with_unit(m.cpu_busy_pct_printed, '%'),
                            with_unit(p.cpu_busy_pct_printed, '%'))
                ELSE '' END AS busier
    FROM flagged f
    CROSS JOIN params
    JOIN batch m ON m.world = f.world AND m.row_id = f.row_id
    JOIN batch p ON p.world = f.world AND p.row_id = f.prev_row
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric, printed AS printed_value,
       CASE metric
           WHEN 'msg_rate' THEN printf('rate %s at %d bytes is above %s at %d bytes '
                                       || '(line %d)%s: a bigger message should not be faster',
                                       with_unit(printed, 'msgs/s'), message_size_bytes,
                                       with_unit(prev_printed, 'msgs/s'), prev_size, prev_line, busier)
           ELSE printf('CPU cost %s at %d bytes is below %s at %d bytes (line %d): a bigger '
                       || 'message should not cost less', with_unit(printed, 'ms'), message_size_bytes,
                       with_unit(prev_printed, 'ms'), prev_size, prev_line) END AS message,
       prev_row AS related_row_id
FROM described
