-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: band
-- summary: rate x CPU cost far below the capacity in a saturation test, below a bigger saturated capacity's share, or flat while the capacity grows
-- reason: Rate x CPU cost is the cores a run kept busy; cpu_capacity catches it above the
--   cores available. This rule catches it far below, where a table has no %CPU, in three ways.
--   (1) Flat while the capacity grows: the smallest capacity of a test - replicas, Docker
--   cores or a T-shirt's CPU - kept its cores busy (SATURATED, 80 % to 105 %), yet a run
--   with at least STEP (1.5) times the capacity keeps about as many cores busy: no more than
--   FLAT (1.2) times as many, nor fewer than LOW (half) as many. If the cost per message fell
--   meanwhile (by a sixth or more), it was most likely computed from one pod's CPU while
--   several ran (ACE 13's multi-replica tables: the cost falls about as 1/replicas);
--   otherwise the rate did not grow and the added capacity went unused: a bottleneck
--   outside the CPU limit. (2) Far too low in a saturation test: a row keeps less than LOW
--   of its capacity busy while its table's rows of the same scenario, product and version,
--   platform and cores, persistence and replicas (three or more) keep a median within
--   SATURATED. (3) Far less busy than a bigger
--   capacity of the same test (scenario, size, persistence, replicas) that is saturated: a
--   row keeps less than LOW of its capacity busy while a run with more capacity keeps its
--   own within SATURATED. Driven the same way, a smaller capacity saturates first, so the
--   smaller run was held back (under-driven) or its rate or cost is wrong.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 1.5 AS step, 1.2 AS flat, 0.5 AS low, 0.8 AS saturated, 1.05 AS over),
rows AS (
    SELECT m.*,
           COALESCE(m.cpu_limit_cores * COALESCE(m.replicas, 1), m.server_cores) AS capacity,
           m.msg_rate * m.cpu_ms_per_msg / 1000 AS busy,
           -- the most the busy cores can be within the printed precision
           (m.msg_rate + m.msg_rate_half_ulp) * (m.cpu_ms_per_msg + m.cpu_ms_per_msg_half_ulp) / 1000
               AS busy_high
    FROM batch m
    WHERE m.cpu_busy_pct IS NULL AND m.msg_rate > 0 AND m.cpu_ms_per_msg > 0
),
steps AS (
    -- the smallest capacity of the same test: along the replicas (same T-shirt) and along the
    -- CPU limit (same replicas)
    SELECT r.*, 'replicas' AS axis,
           FIRST_VALUE(r.row_id) OVER w AS prev_row, FIRST_VALUE(r.source_line) OVER w AS prev_line,
           FIRST_VALUE(r.capacity) OVER w AS prev_capacity, FIRST_VALUE(r.busy) OVER w AS prev_busy,
           FIRST_VALUE(r.msg_rate) OVER w AS prev_rate,
           FIRST_VALUE(r.cpu_ms_per_msg) OVER w AS prev_cost,
           FIRST_VALUE(r.replicas) OVER w AS prev_level, r.replicas AS level
    FROM rows r
    WHERE r.replicas IS NOT NULL AND r.capacity IS NOT NULL
    WINDOW w AS (PARTITION BY r.world, r.source, r.product, r.product_version, r.platform,
                              r.server_cores, r.scenario, r.message_size_bytes, r.persistent,
                              r.concurrency_kind, r.concurrency, r.tshirt
                 ORDER BY r.replicas, r.source_line)
    UNION ALL
    SELECT r.*, 'cpu_limit',
           FIRST_VALUE(r.row_id) OVER w, FIRST_VALUE(r.source_line) OVER w,
           FIRST_VALUE(r.capacity) OVER w, FIRST_VALUE(r.busy) OVER w,
           FIRST_VALUE(r.msg_rate) OVER w, FIRST_VALUE(r.cpu_ms_per_msg) OVER w,
           FIRST_VALUE(r.cpu_limit_cores) OVER w, r.cpu_limit_cores
    FROM rows r
    WHERE r.cpu_limit_cores IS NOT NULL
    WINDOW w AS (PARTITION BY r.world, r.source, r.product, r.product_version, r.platform,
                              r.server_cores, r.scenario, r.message_size_bytes, r.persistent,
                              r.concurrency_kind, r.replicas
                 ORDER BY r.cpu_limit_cores, r.source_line)
),
flat_steps AS (
    SELECT s.*
    FROM steps s, params
    WHERE s.capacity >= s.prev_capacity * step
      AND s.prev_busy BETWEEN s.prev_capacity * saturated AND s.prev_capacity * over
      AND s.busy_high <= s.prev_busy * flat AND s.busy_high >= s.prev_busy * low
),
table_level AS (
    SELECT r.*,
           median(r.busy / r.capacity) OVER w AS table_median, count(*) OVER w AS table_rows
    FROM rows r
    WHERE r.capacity > 0
    -- the scenario too (a submission's rows all sit in one table), each row's own product
    -- version, machine and persistence (one table of a submission may hold several), the
    -- replicas (a multi-replica run is no peer of the single-replica ones), and where the
    -- capacity is the server's, the configuration: one flow instance keeps about one of eight
    -- cores busy where eight instances fill them (a CPU limit makes every size of a container
    -- a peer)
    WINDOW w AS (PARTITION BY r.world, r.source, r.table_title, r.scenario, r.product,
                              r.product_version, r.platform, r.server_cores, r.persistent,
                              COALESCE(r.replicas, 1),
                              CASE WHEN r.cpu_limit_cores IS NULL THEN r.config_key END)
),
low_in_table AS (
    SELECT t.* FROM table_level t, params
    WHERE t.subject AND t.table_rows >= 3 AND t.table_median BETWEEN saturated AND over
      AND t.busy_high < low * t.capacity
),
below_bigger AS (
    -- (3): each row far below its capacity, against the smallest bigger capacity of the same
    -- test that is saturated
    SELECT r.*, o.row_id AS other_row, o.source_line AS other_line, o.capacity AS other_capacity,
           o.busy AS other_busy,
           ROW_NUMBER() OVER (PARTITION BY r.world, r.row_id ORDER BY o.capacity, o.source_line) AS nth
    FROM rows r
    CROSS JOIN params
    JOIN rows o ON o.world = r.world AND o.source = r.source AND o.product = r.product
               AND o.product_version = r.product_version AND o.platform = r.platform
               AND o.scenario = r.scenario
               AND o.message_size_bytes IS NOT DISTINCT FROM r.message_size_bytes
               AND o.persistent IS NOT DISTINCT FROM r.persistent
               AND COALESCE(o.replicas, 1) = COALESCE(r.replicas, 1)
               AND o.capacity > r.capacity
               AND o.busy BETWEEN o.capacity * saturated AND o.capacity * over
    WHERE r.subject AND r.capacity > 0 AND r.busy_high < low * r.capacity
)
SELECT world, row_id, cpu_ms_per_msg_fact_id AS fact_id, source, source_line, table_title,
       'cpu_ms_per_msg' AS metric, cpu_ms_per_msg_printed AS printed_value,
       CASE WHEN cpu_ms_per_msg * flat <= prev_cost
            THEN printf('rate x CPU cost stays at %.3g cores busy (%.3g at line %d) while the capacity '
                        || 'grows %.3g x (%s %g -> %g, %.3g -> %.3g cores) and the rate %.2f x: the '
                        || 'cost per message fell %.2f x, so it was most likely computed from one '
                        || 'pod''s CPU; with every pod busy it would be about %.3g x the printed one',
                        busy, prev_busy, prev_line, capacity / prev_capacity, replace(axis, '_', ' '),
                        prev_level, level, prev_capacity, capacity, msg_rate / prev_rate,
                        cpu_ms_per_msg / prev_cost, capacity * prev_busy / prev_capacity / busy)
            ELSE printf('rate x CPU cost stays at %.3g cores busy (%.3g at line %d) while the capacity '
                        || 'grows %.3g x (%s %g -> %g, %.3g -> %.3g cores) and the rate only %.2f x: '
                        || 'the added capacity went unused, a bottleneck outside the CPU limit',
                        busy, prev_busy, prev_line, capacity / prev_capacity, replace(axis, '_', ' '),
                        prev_level, level, prev_capacity, capacity, msg_rate / prev_rate) END AS message,
       prev_row AS related_row_id
FROM flat_steps, params
WHERE subject
UNION ALL
SELECT world, row_id, msg_rate_fact_id, source, source_line, table_title, 'msg_rate',
       msg_rate_printed,
       printf('rate %s x CPU cost %s keeps %.3g of %.3g cores busy (%.0f%%), while the other rows '
              || 'of this table keep a median of %.0f%% busy: in a test that saturates the CPU, '
              || 'this one was held back by something else (the backend, the client, I/O), or its '
              || 'rate or cost is wrong', with_unit(msg_rate_printed, 'msgs/s'),
              with_unit(cpu_ms_per_msg_printed, 'ms'), busy, capacity,
              100 * busy / capacity, 100 * table_median),
       NULL::INTEGER
FROM low_in_table t
-- a row that (1) explains is not reported twice
WHERE NOT EXISTS (SELECT 1 FROM flat_steps f WHERE f.world = t.world AND f.row_id = t.row_id)
UNION ALL
SELECT world, row_id, msg_rate_fact_id, source, source_line, table_title, 'msg_rate',
       msg_rate_printed,
       printf('rate %s x CPU cost %s keeps %.3g of %.3g cores busy (%.0f%%), while the same test '
              || 'with %.3g cores keeps %.0f%% busy (line %d): driven alike, a smaller capacity '
              || 'saturates first, so this run was held back (under-driven), or its rate or cost '
              || 'is wrong', with_unit(msg_rate_printed, 'msgs/s'), with_unit(cpu_ms_per_msg_printed, 'ms'),
              busy, capacity,
              100 * busy / capacity, other_capacity, 100 * other_busy / other_capacity, other_line),
       other_row
FROM below_bigger b
WHERE nth = 1
  -- reported once: (1) and (2) explain a row first
  AND NOT EXISTS (SELECT 1 FROM flat_steps f WHERE f.world = b.world AND f.row_id = b.row_id)
  AND NOT EXISTS (SELECT 1 FROM low_in_table t WHERE t.world = b.world AND t.row_id = b.row_id)
