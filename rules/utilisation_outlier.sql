-- severity: warning
-- relation: dq_input
-- reason: Where a table has no %CPU, rate x CPU cost / available cores is the utilisation
--   a row implies. The rows of one configuration (same table, product and capacity) were
--   all driven to saturation, so their utilisations should be alike; a row more than FACTOR
--   (3) times off the median of its configuration points at a wrong rate (the cost outliers
--   have their own rule).
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 3.0 AS factor),
rows AS (
    SELECT m.*,
           m.msg_rate * m.cpu_ms_per_msg / 1000
               / COALESCE(m.cpu_limit_cores * COALESCE(m.replicas, 1), m.server_cores) AS utilisation
    FROM batch m
    WHERE m.cpu_busy_pct IS NULL AND m.msg_rate > 0 AND m.cpu_ms_per_msg > 0
      AND COALESCE(m.cpu_limit_cores, m.server_cores) IS NOT NULL
),
typical AS (
    SELECT r.*, median(r.utilisation) OVER (PARTITION BY r.world, r.source, r.table_title,
                                                         r.product, r.platform, r.config_key) AS usual,
           count(*) OVER (PARTITION BY r.world, r.source, r.table_title, r.product, r.platform,
                                       r.config_key) AS peers
    FROM rows r
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('rate %s x cost %.4g ms implies %.0f%% of the available CPU, but the other sizes '
              || 'of this configuration imply a median of %.0f%%', msg_rate_printed,
              cpu_ms_per_msg, utilisation * 100, usual * 100) AS message,
       NULL::INTEGER AS related_row_id
FROM typical, params
WHERE subject AND peers >= 3 AND usual > 0
  AND (utilisation / usual > factor OR utilisation / usual < 1 / factor)
