-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: band
-- summary: tables without %CPU: cost per KB against the series' own shape and against the other product, platform or capacity
-- reason: Where a table has no %CPU (ACE 11, ACE 13) the CPU identity cannot check a cost,
--   so each cost is compared (a) with its own series: a fixed cost per message plus a cost
--   per KB means the cost per KB falls as messages grow, so a cost per KB more than FACTOR
--   (3) times the one at the next smaller size is flagged; and (b) with its peers: the same
--   scenario and size measured with the other product, on the other platform or with
--   another capacity (cores, T-shirt, replicas), each ratio taken against the usual ratio
--   between the two series (their median over all shared sizes); a cost more than FACTOR
--   off even its closest peer is flagged. FACTOR 3 lets real variation through and catches
--   a misplaced decimal point, a lost or extra digit, a us/ms mix-up.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 3.0 AS factor),
points AS (
    SELECT m.*, m.cpu_ms_per_msg AS y, m.cpu_ms_per_msg / (m.message_size_bytes / 1024.0) AS per_kb,
           concat_ws('|', m.world, m.source, m.table_title, m.product, m.product_version,
                     m.platform, m.scenario, m.persistent, m.config_key) AS series
    FROM batch m
    WHERE m.cpu_busy_pct IS NULL AND m.cpu_ms_per_msg > 0 AND m.message_size_bytes > 0
),
growth AS (
    SELECT p.*, LAG(per_kb) OVER w AS prev_per_kb, LAG(row_id) OVER w AS prev_row,
           LAG(source_line) OVER w AS prev_line, LAG(cpu_ms_per_msg_printed) OVER w AS prev_printed,
           LAG(message_size_bytes) OVER w AS prev_size
    FROM points p
    WINDOW w AS (PARTITION BY series ORDER BY message_size_bytes, source_line)
),
peers AS (
    SELECT a.world, a.row_id, b.row_id AS peer_row, b.source_line AS peer_line,
           b.cpu_ms_per_msg_printed AS peer_printed,
           concat_ws(' ', b.product, b.platform, replace(b.config_key, '|', ' ')) AS peer_label,
           abs(ln(a.y / b.y) - median(ln(a.y / b.y)) OVER (PARTITION BY a.series, b.series)) AS miss
    FROM points a
    JOIN points b
      ON b.world = a.world AND b.source = a.source AND b.scenario = a.scenario
     AND b.message_size_bytes = a.message_size_bytes
     AND b.persistent IS NOT DISTINCT FROM a.persistent AND b.series <> a.series
),
closest AS (
    SELECT * FROM (SELECT p.*, ROW_NUMBER() OVER (PARTITION BY world, row_id ORDER BY miss, peer_line) AS nth
                   FROM peers p) WHERE nth = 1
)
SELECT g.world, g.row_id, g.cpu_ms_per_msg_fact_id AS fact_id, g.source, g.source_line,
       g.table_title, 'cpu_ms_per_msg' AS metric, g.cpu_ms_per_msg_printed AS printed_value,
       CASE WHEN g.per_kb > g.prev_per_kb * factor
            THEN printf('CPU cost %s at %d bytes is %.1f x the cost per KB of %s at %d bytes '
                        || '(line %d): cost per KB should fall as messages grow',
                        g.cpu_ms_per_msg_printed, g.message_size_bytes, g.per_kb / g.prev_per_kb,
                        g.prev_printed, g.prev_size, g.prev_line)
            ELSE printf('CPU cost %s is %.1f x off its usual ratio to even its closest peer '
                        || '(%s: %s, line %d)', g.cpu_ms_per_msg_printed, exp(c.miss),
                        c.peer_label, c.peer_printed, c.peer_line) END AS message,
       CASE WHEN g.per_kb > g.prev_per_kb * factor THEN g.prev_row ELSE c.peer_row END
           AS related_row_id
FROM growth g
CROSS JOIN params
LEFT JOIN closest c ON c.world = g.world AND c.row_id = g.row_id
WHERE g.subject AND (g.per_kb > g.prev_per_kb * factor OR c.miss > ln(factor))
