-- severity: error
-- relation: dq_input
-- compares: row
-- repair: band
-- summary: rate x CPU cost does not exceed the cores available (Docker limit, T-shirt CPU x replicas, server)
-- reason: A server cannot use more CPU than it has. Rate x CPU cost is the CPU busy per
--   second; at its lowest reading within the printed precision it must not exceed the
--   cores available - the container limit (Docker cores, T-shirt CPU x replicas) or the
--   server's cores - by more than TOLERANCE (5 %, for accounting jitter). Where the row prints
--   %CPU, which is of the whole server, its cost counts the server's CPU (the load driver and
--   the system beside the container): the bound is then the server's cores.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS tolerance),
rows AS (
    SELECT m.*,
           cores_available(m.cpu_busy_pct, m.cpu_limit_cores, m.replicas, m.server_cores) AS capacity,
           (m.msg_rate - m.msg_rate_half_ulp) * (m.cpu_ms_per_msg - m.cpu_ms_per_msg_half_ulp) / 1000
               AS busy_low,
           m.msg_rate * m.cpu_ms_per_msg / 1000 AS busy
    FROM batch m
    WHERE m.msg_rate IS NOT NULL AND m.cpu_ms_per_msg IS NOT NULL
)
SELECT world, row_id, cpu_ms_per_msg_fact_id AS fact_id, source, source_line, table_title,
       'cpu_ms_per_msg' AS metric, cpu_ms_per_msg_printed AS printed_value,
       printf('%s x %s per message keeps %.3g cores busy, more than the %.3g cores '
              || 'available (%s)', with_unit(msg_rate_printed, 'msgs/s'), with_unit(cpu_ms_per_msg_printed, 'ms'),
              busy, capacity,
              CASE WHEN cpu_busy_pct IS NOT NULL THEN 'server cores: its %CPU is of the whole server'
                   WHEN cpu_limit_cores IS NOT NULL AND replicas > 1
                       THEN printf('%g x %d replicas', cpu_limit_cores, replicas)
                   WHEN cpu_limit_cores IS NOT NULL THEN 'container CPU limit'
                   ELSE 'server cores' END) AS message,
       NULL::INTEGER AS related_row_id
FROM rows, params
WHERE subject AND capacity IS NOT NULL AND busy_low > capacity * (1 + tolerance)
