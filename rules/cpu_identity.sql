-- severity: error
-- relation: dq_input
-- compares: source
-- repair: tight
-- summary: CPU ms/msg = cores x 1000 x %CPU/100 / rate, in interval arithmetic on the printed precision
-- reason: The reports define CPU ms/msg = cores x 1000 x (%CPU / 100) / message rate. Each
--   printed number stands for an interval (a rate printed 0.4 lies in [0.35, 0.45]; one printed
--   12780, whose trailing zero need not be significant, in [12775, 12785]: rounded_half_ulp),
--   so the cost the other two imply is an interval too; a printed cost outside it means one of
--   the three numbers is wrong, never rounding. Cores are the row's own (its platform's, which a
--   submission gives per row); only where the row does not say, the median count that the
--   table's rows of the same platform imply stands in, rounded to a whole number of cores
--   when it is within 5 % of one (one row implying 80 cores among rows implying 8 is the
--   typo) - all its rows where those that give their cores give one count, the rows leaving
--   them blank where they give several (an 8-core and a 16-core machine of one name: which
--   one ran the row is not known).
WITH batch AS (SELECT * FROM {batch}),
-- the rule's own binary floating point: its few operations may err by a few units in the last
-- place of a DOUBLE, which a tool printing a double's every digit (0.5035686300638474) reaches
params AS (SELECT 1e-14 AS double_rounding),
implying AS (
    SELECT m.*, m.cpu_ms_per_msg * m.msg_rate / (10 * m.cpu_busy_pct) AS implied_cores
    FROM batch m
    WHERE m.msg_rate > 0 AND m.cpu_busy_pct > 0 AND m.cpu_ms_per_msg IS NOT NULL
),
counts AS (
    -- the core counts the platform's rows give (at most one: min = max, or none), and the
    -- cores their rate x cost x %CPU imply - what a row without its own server_cores reads,
    -- so computed only for the tables and platforms that have such a row
    SELECT i.world, i.source, i.table_title, i.platform,
           min(i.server_cores) IS NOT DISTINCT FROM max(i.server_cores) AS one_machine,
           median(i.implied_cores) AS platform_cores
    FROM implying i
    JOIN (SELECT DISTINCT world, source, table_title, platform FROM implying
          WHERE server_cores IS NULL) n
      ON n.world = i.world AND n.source = i.source
     AND n.table_title IS NOT DISTINCT FROM i.table_title AND n.platform = i.platform
    GROUP BY i.world, i.source, i.table_title, i.platform
),
machine_counts AS (
    SELECT world, source, table_title, platform, median(implied_cores) AS machine_cores
    FROM implying
    WHERE server_cores IS NULL
    GROUP BY world, source, table_title, platform
),
rows AS (
    SELECT i.*, CASE WHEN c.one_machine THEN c.platform_cores ELSE m.machine_cores END AS table_cores
    FROM implying i
    LEFT JOIN counts c ON i.server_cores IS NULL AND c.world = i.world AND c.source = i.source
                      AND c.table_title IS NOT DISTINCT FROM i.table_title AND c.platform = i.platform
    LEFT JOIN machine_counts m ON i.server_cores IS NULL AND m.world = i.world AND m.source = i.source
                              AND m.table_title IS NOT DISTINCT FROM i.table_title
                              AND m.platform = i.platform
), whole AS (
    -- a server has a whole number of cores: an implied count within 5 % of one is that count,
    -- free of the rounding of the costs that implied it
    SELECT r.*,
           COALESCE(r.server_cores,
                    CASE WHEN round(r.table_cores) >= 1
                              AND abs(r.table_cores - round(r.table_cores)) <= 0.05 * r.table_cores
                         THEN round(r.table_cores) ELSE r.table_cores END) AS cores
    FROM rows r
), bounds AS (
    SELECT w.*, 10 * w.cores AS k,
           rounded_half_ulp(w.msg_rate_printed, w.msg_rate_half_ulp) AS rate_h,
           rounded_half_ulp(w.cpu_busy_pct_printed, w.cpu_busy_pct_half_ulp) AS pct_h,
           rounded_half_ulp(w.cpu_ms_per_msg_printed, w.cpu_ms_per_msg_half_ulp) AS cost_h
    FROM whole w
), implied AS (
    SELECT b.*,
           b.k * (b.cpu_busy_pct - b.pct_h) / (b.msg_rate + b.rate_h) AS low,
           CASE WHEN b.msg_rate > b.rate_h
                THEN b.k * (b.cpu_busy_pct + b.pct_h) / (b.msg_rate - b.rate_h)
           END AS high,
           b.k * b.cpu_busy_pct / b.msg_rate AS point
    FROM bounds b
)
SELECT world, row_id, cpu_ms_per_msg_fact_id AS fact_id, source, source_line, table_title,
       'cpu_ms_per_msg' AS metric, cpu_ms_per_msg_printed AS printed_value,
       printf('CPU ms/msg printed %s, but %s cores x %s%% CPU / %s gives %.4g ms '
              || '(%.6g to %.6g at the printed precision)',
              cpu_ms_per_msg_printed,
              CASE WHEN server_cores IS NULL THEN printf('%.3g (implied by the table''s rows of this platform)', cores)
                   ELSE CAST(server_cores AS VARCHAR) END,
              cpu_busy_pct_printed, with_unit(msg_rate_printed, 'msgs/s'), point, low, COALESCE(high, 'inf'::DOUBLE))
           AS message,
       NULL::INTEGER AS related_row_id
FROM implied
CROSS JOIN params
WHERE subject
  AND (cpu_ms_per_msg + cost_h < low * (1 - double_rounding)
       OR (high IS NOT NULL AND cpu_ms_per_msg - cost_h > high * (1 + double_rounding)))
