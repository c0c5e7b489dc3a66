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
--   another capacity (cores, T-shirt, replicas): each series' log costs are taken against
--   the scenario's median log cost at each size, less the series' own usual offset (its
--   median over its sizes), and a cost whose residual is more than ln FACTOR from even its
--   closest peer's at that size is flagged. The closest peer is the neighbour in the order of
--   the residuals, so a scenario measured as thousands of series is compared in one sort, not
--   pair by pair. FACTOR 3 lets real variation through and catches a misplaced decimal point,
--   a lost or extra digit, a us/ms mix-up.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 3.0 AS factor),
points AS (
    SELECT m.*, m.cpu_ms_per_msg AS y, m.cpu_ms_per_msg / (m.message_size_bytes / 1024.0) AS per_kb,
           concat_ws('|', m.world, m.source, m.table_title, m.product, m.product_version,
                     m.platform, m.server_cores, m.scenario, m.persistent, m.config_key) AS series
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
centre AS (
    -- the scenario's typical log cost at each size, over its series
    SELECT world, source, scenario, persistent, message_size_bytes, median(ln(y)) AS centre
    FROM points GROUP BY world, source, scenario, persistent, message_size_bytes
),
placed AS (
    SELECT p.*, ln(p.y) - c.centre AS off
    FROM points p
    JOIN centre c ON c.world = p.world AND c.source = p.source AND c.scenario = p.scenario
                 AND c.persistent IS NOT DISTINCT FROM p.persistent
                 AND c.message_size_bytes = p.message_size_bytes
),
residuals AS (
    -- less the series' usual offset (a median: one slipped size does not move it)
    SELECT p.*, p.off - median(p.off) OVER (PARTITION BY p.series) AS residual,
           concat_ws(' ', p.product, p.platform, replace(p.config_key, '|', ' ')) AS label
    FROM placed p
),
neighbours AS (
    SELECT r.world, r.row_id, r.residual,
           LAG(r.residual) OVER w AS below, LAG(r.series) OVER w AS below_series,
           LAG(r.row_id) OVER w AS below_row, LAG(r.source_line) OVER w AS below_line,
           LAG(r.cpu_ms_per_msg_printed) OVER w AS below_printed, LAG(r.label) OVER w AS below_label,
           LEAD(r.residual) OVER w AS above, LEAD(r.series) OVER w AS above_series,
           LEAD(r.row_id) OVER w AS above_row, LEAD(r.source_line) OVER w AS above_line,
           LEAD(r.cpu_ms_per_msg_printed) OVER w AS above_printed, LEAD(r.label) OVER w AS above_label,
           r.series
    FROM residuals r
    WINDOW w AS (PARTITION BY r.world, r.source, r.scenario, r.persistent, r.message_size_bytes
                 ORDER BY r.residual, r.series, r.row_id)
),
closest AS (
    -- the nearer neighbour of another series (a series printed twice at one size is its own
    -- neighbour: no evidence either way)
    SELECT n.world, n.row_id,
           CASE WHEN n.above IS NULL OR (n.below IS NOT NULL AND n.residual - n.below <= n.above - n.residual)
                THEN n.below_row ELSE n.above_row END AS peer_row,
           CASE WHEN n.above IS NULL OR (n.below IS NOT NULL AND n.residual - n.below <= n.above - n.residual)
                THEN n.below_line ELSE n.above_line END AS peer_line,
           CASE WHEN n.above IS NULL OR (n.below IS NOT NULL AND n.residual - n.below <= n.above - n.residual)
                THEN n.below_printed ELSE n.above_printed END AS peer_printed,
           CASE WHEN n.above IS NULL OR (n.below IS NOT NULL AND n.residual - n.below <= n.above - n.residual)
                THEN n.below_label ELSE n.above_label END AS peer_label,
           least(coalesce(n.residual - n.below, 'inf'::DOUBLE), coalesce(n.above - n.residual, 'inf'::DOUBLE))
               AS miss
    FROM neighbours n
    WHERE (n.below IS NOT NULL OR n.above IS NOT NULL)
      AND coalesce(n.below_series, '') <> n.series AND coalesce(n.above_series, '') <> n.series
)
SELECT g.world, g.row_id, g.cpu_ms_per_msg_fact_id AS fact_id, g.source, g.source_line,
       g.table_title, 'cpu_ms_per_msg' AS metric, g.cpu_ms_per_msg_printed AS printed_value,
       CASE WHEN g.per_kb > g.prev_per_kb * factor
            THEN printf('CPU cost %s at %d bytes is %.1f x as much per KB as %s at %d bytes '
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
