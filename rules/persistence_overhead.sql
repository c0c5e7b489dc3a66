-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: none
-- summary: persistent runs are not faster or cheaper than non-persistent ones
-- reason: Persistent messages are logged to disk, so a persistent run should be no faster
--   and no cheaper in CPU than the non-persistent run of the same test, size and
--   configuration. Flagged on the persistent row when it beats the non-persistent one by
--   more than TOLERANCE (5 %) beyond the printed precision. A persistent test with no
--   non-persistent twin (a score card lists each test once) is held to the fastest
--   non-persistent rate of the same source, product and platform at any message size: in
--   the five reports no persistent rate reaches even 53 % of it. Not where the persistent run
--   kept more of the CPU busy than that fastest one (both print %CPU): another configuration
--   (more flow instances, more clients) may be faster by working the machine harder, and a
--   run's rate at the CPU it used is its cost, which the twins compare. A row that leaves its server's
--   cores blank may be of the machine its twin names (the twin of the same cores, where there
--   is one, is the twin).
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS tolerance),
candidate_pairs AS (
    SELECT p.*, n.msg_rate AS np_rate, n.msg_rate_half_ulp AS np_rate_ulp,
           n.msg_rate_printed AS np_rate_printed, n.cpu_ms_per_msg AS np_cost,
           n.cpu_ms_per_msg_half_ulp AS np_cost_ulp, n.cpu_ms_per_msg_printed AS np_cost_printed,
           n.source_line AS np_line, n.row_id AS np_row,
           CASE WHEN n.server_cores IS NOT DISTINCT FROM p.server_cores THEN 1 ELSE 0 END AS same_cores
    FROM batch p
    JOIN batch n
      ON n.world = p.world AND n.source = p.source AND n.product = p.product
     AND n.product_version = p.product_version AND n.platform = p.platform
     AND (n.server_cores IS NOT DISTINCT FROM p.server_cores
          OR n.server_cores IS NULL OR p.server_cores IS NULL)
     AND n.scenario = p.scenario AND n.config_key = p.config_key
     AND n.message_size_bytes IS NOT DISTINCT FROM p.message_size_bytes
     AND n.persistent = FALSE AND p.persistent = TRUE
     AND n.table_title = p.table_title
),
ranked_pairs AS (
    SELECT c.*, max(c.same_cores) OVER (PARTITION BY c.world, c.row_id) AS best_match
    FROM candidate_pairs c
),
pairs AS (
    SELECT * EXCLUDE (same_cores, best_match) FROM ranked_pairs WHERE same_cores = best_match
),
fastest_rate AS (
    SELECT world, source, product, product_version, platform, server_cores, max(msg_rate) AS np_max
    FROM batch
    WHERE persistent = FALSE AND msg_rate IS NOT NULL
    GROUP BY world, source, product, product_version, platform, server_cores
),
fastest_non_persistent AS (
    -- the run that holds it: among equal rates the first row, so every engine names the same
    SELECT n.world, n.source, n.product, n.product_version, n.platform, n.server_cores,
           max(n.msg_rate + n.msg_rate_half_ulp) AS np_best,
           arg_min(n.msg_rate_printed, n.row_id) AS np_best_printed,
           arg_min(n.source_line, n.row_id) AS np_best_line,
           arg_min(n.cpu_busy_pct + n.cpu_busy_pct_half_ulp, n.row_id) AS np_best_pct,
           min(n.row_id) AS np_best_row
    FROM batch n
    JOIN fastest_rate f
      ON f.world = n.world AND f.source = n.source AND f.product = n.product
     AND f.product_version = n.product_version AND f.platform = n.platform
     AND f.server_cores IS NOT DISTINCT FROM n.server_cores
     AND n.msg_rate = f.np_max AND n.persistent = FALSE
    GROUP BY n.world, n.source, n.product, n.product_version, n.platform, n.server_cores
),
unpaired AS (
    SELECT p.*, b.np_best, b.np_best_printed, b.np_best_line, b.np_best_row, b.np_best_pct
    FROM batch p
    JOIN fastest_non_persistent b
      ON b.world = p.world AND b.source = p.source AND b.product = p.product
     AND b.product_version = p.product_version AND b.platform = p.platform
     AND b.server_cores IS NOT DISTINCT FROM p.server_cores
    WHERE p.persistent = TRUE AND p.msg_rate IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM pairs q WHERE q.world = p.world AND q.row_id = p.row_id)
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('persistent rate %s is above the non-persistent %s (line %d)',
              with_unit(msg_rate_printed, 'msgs/s'), with_unit(np_rate_printed, 'msgs/s'), np_line) AS message,
       np_row AS related_row_id
FROM pairs, params
WHERE subject AND msg_rate - msg_rate_half_ulp > (np_rate + np_rate_ulp) * (1 + tolerance)
UNION ALL
SELECT world, row_id, cpu_ms_per_msg_fact_id, source, source_line, table_title,
       'cpu_ms_per_msg', cpu_ms_per_msg_printed,
       printf('persistent CPU cost %s is below the non-persistent %s (line %d)',
              with_unit(cpu_ms_per_msg_printed, 'ms'), with_unit(np_cost_printed, 'ms'), np_line),
       np_row
FROM pairs, params
WHERE subject AND cpu_ms_per_msg + cpu_ms_per_msg_half_ulp < (np_cost - np_cost_ulp) * (1 - tolerance)
UNION ALL
SELECT world, row_id, msg_rate_fact_id, source, source_line, table_title,
       'msg_rate', msg_rate_printed,
       printf('persistent rate %s is above every non-persistent rate of this system (the '
              || 'fastest: %s, line %d)',
              with_unit(msg_rate_printed, 'msgs/s'), with_unit(np_best_printed, 'msgs/s'), np_best_line),
       np_best_row
FROM unpaired, params
WHERE subject AND msg_rate - msg_rate_half_ulp > np_best * (1 + tolerance)
  AND NOT coalesce(cpu_busy_pct - cpu_busy_pct_half_ulp > np_best_pct, FALSE)
