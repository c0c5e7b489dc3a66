-- severity: error
-- relation: dq_input
-- compares: source
-- repair: tight
-- summary: CPU ms/msg = cores x 1000 x %CPU/100 / rate, in interval arithmetic on the printed precision
-- reason: The reports define CPU ms/msg = cores x 1000 x (%CPU / 100) / message rate. Each
--   printed number stands for an interval (a rate printed 0.4 lies in [0.35, 0.45]), so the
--   cost the other two imply is an interval too; a printed cost outside it means one of the
--   three numbers is wrong, never rounding. Cores come from the platform; where the platform
--   does not say, the median count the table's own rows imply stands in (one row implying 80
--   cores among rows implying 8 is the typo).
WITH batch AS (SELECT * FROM {batch}),
rows AS (
    SELECT m.*,
           median(m.cpu_ms_per_msg * m.msg_rate / (10 * m.cpu_busy_pct))
               OVER (PARTITION BY m.world, m.source, m.table_title) AS table_cores
    FROM batch m
    WHERE m.msg_rate > 0 AND m.cpu_busy_pct > 0 AND m.cpu_ms_per_msg IS NOT NULL
), bounds AS (
    SELECT r.*,
           COALESCE(r.server_cores, r.table_cores) AS cores,
           10 * COALESCE(r.server_cores, r.table_cores) AS k
    FROM rows r
), implied AS (
    SELECT b.*,
           b.k * (b.cpu_busy_pct - b.cpu_busy_pct_half_ulp) / (b.msg_rate + b.msg_rate_half_ulp) AS low,
           CASE WHEN b.msg_rate > b.msg_rate_half_ulp
                THEN b.k * (b.cpu_busy_pct + b.cpu_busy_pct_half_ulp) / (b.msg_rate - b.msg_rate_half_ulp)
           END AS high,
           b.k * b.cpu_busy_pct / b.msg_rate AS point
    FROM bounds b
)
SELECT world, row_id, cpu_ms_per_msg_fact_id AS fact_id, source, source_line, table_title,
       'cpu_ms_per_msg' AS metric, cpu_ms_per_msg_printed AS printed_value,
       printf('CPU ms/msg printed %s, but %s cores x %s%% CPU / %s gives %.4g ms '
              || '(%.4g to %.4g at the printed precision)',
              cpu_ms_per_msg_printed,
              CASE WHEN server_cores IS NULL THEN printf('%.3g (implied by the table)', cores)
                   ELSE CAST(server_cores AS VARCHAR) END,
              cpu_busy_pct_printed, with_unit(msg_rate_printed, 'msgs/s'), point, low, COALESCE(high, 'inf'::DOUBLE))
           AS message,
       NULL::INTEGER AS related_row_id
FROM implied
WHERE subject
  AND (cpu_ms_per_msg + cpu_ms_per_msg_half_ulp < low
       OR (high IS NOT NULL AND cpu_ms_per_msg - cpu_ms_per_msg_half_ulp > high))
