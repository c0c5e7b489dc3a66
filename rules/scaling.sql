-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: none
-- summary: more capacity does not lower the rate (5 %), nor raise it more than proportionally (+10 %)
-- reason: More capacity - flow instances, execution groups, Docker cores, a bigger T-shirt,
--   more replicas - should neither lower the message rate of the same test, size and
--   persistence, nor raise it more than in proportion (doubling the CPU can at best double
--   the rate of a CPU-bound test). Each configuration is compared with the next smaller one:
--   a rate lower by more than DROP_TOLERANCE (5 %), or a gain more than GAIN_TOLERANCE
--   (10 %) above proportional, beyond the printed precision, is flagged on the bigger
--   configuration's row. A super-linear gain usually means the smaller configuration was
--   under-driven (a measurement artefact); a drop, a bottleneck elsewhere or a typo. Where
--   both rows print a CPU cost the message says which the gain is made of: a cost that fell
--   (the bigger configuration spends less CPU a message - contention on the smaller one, as
--   the file prints it) or one that did not (the smaller one was left partly idle).
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS drop_tolerance, 0.10 AS gain_tolerance),
levels AS (
    -- one row per series and level: the first printed (tables that repeat a row agree or
    -- are caught by the consistency rules)
    SELECT * FROM (
        SELECT m.*, ROW_NUMBER() OVER (
                   PARTITION BY m.world, m.source, m.product, m.product_version, m.platform,
                                m.server_cores, m.scenario, m.persistent, m.message_size_bytes,
                                m.concurrency_kind, m.concurrency, m.replicas
                   ORDER BY m.source_line) AS nth
        FROM batch m
        WHERE m.msg_rate > 0
          AND m.concurrency_kind IN ('flow_instances', 'execution_groups', 'docker_cores', 'tshirt')
    ) WHERE nth = 1
),
steps AS (
    SELECT l.*, 'concurrency' AS axis, l.concurrency AS level,
           LAG(l.concurrency) OVER w AS prev_level, LAG(l.msg_rate) OVER w AS prev_rate,
           LAG(l.msg_rate_half_ulp) OVER w AS prev_ulp, LAG(l.msg_rate_printed) OVER w AS prev_printed,
           LAG(l.source_line) OVER w AS prev_line, LAG(l.row_id) OVER w AS prev_row,
           LAG(l.cpu_ms_per_msg) OVER w AS prev_cost, LAG(l.cpu_ms_per_msg_half_ulp) OVER w AS prev_cost_ulp,
           LAG(l.cpu_ms_per_msg_printed) OVER w AS prev_cost_printed
    FROM levels l
    WINDOW w AS (PARTITION BY l.world, l.source, l.product, l.product_version, l.platform,
                              l.server_cores, l.scenario, l.persistent, l.message_size_bytes,
                              l.concurrency_kind, l.replicas ORDER BY l.concurrency)
    UNION ALL
    SELECT l.*, 'replicas', l.replicas,
           LAG(l.replicas) OVER w, LAG(l.msg_rate) OVER w, LAG(l.msg_rate_half_ulp) OVER w,
           LAG(l.msg_rate_printed) OVER w, LAG(l.source_line) OVER w, LAG(l.row_id) OVER w,
           LAG(l.cpu_ms_per_msg) OVER w, LAG(l.cpu_ms_per_msg_half_ulp) OVER w,
           LAG(l.cpu_ms_per_msg_printed) OVER w
    FROM levels l
    WHERE l.replicas IS NOT NULL
    WINDOW w AS (PARTITION BY l.world, l.source, l.product, l.product_version, l.platform,
                              l.server_cores, l.scenario, l.persistent, l.message_size_bytes,
                              l.concurrency_kind, l.concurrency ORDER BY l.replicas)
),
judged AS (
    SELECT s.*, CASE axis WHEN 'replicas' THEN 'replicas' ELSE concurrency_kind END AS what,
           msg_rate + msg_rate_half_ulp < (prev_rate - prev_ulp) * (1 - drop_tolerance) AS dropped,
           prev_rate > prev_ulp
           AND (msg_rate - msg_rate_half_ulp) / (prev_rate + prev_ulp)
               > (level / prev_level) * (1 + gain_tolerance) AS superlinear,
           -- where both rows print a cost, whether its fall accounts for the gain (rate x cost
           -- = CPU used: a gain beyond proportional is less CPU a message, or more of the CPU
           -- used than the smaller configuration used - one left partly idle)
           CASE WHEN cpu_ms_per_msg > 0 AND prev_cost > 0 AND prev_rate > 0
                THEN (msg_rate / prev_rate) / (level / prev_level) <= (prev_cost / cpu_ms_per_msg) * (1 + gain_tolerance)
                END AS cost_explains
    FROM steps s, params
    WHERE s.subject AND s.prev_rate IS NOT NULL AND s.level > s.prev_level
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       CASE WHEN dropped
            THEN printf('rate %s with %s %g is below %s with %g (line %d): more '
                        || 'capacity should not be slower', with_unit(msg_rate_printed, 'msgs/s'), what, level,
                        with_unit(prev_printed, 'msgs/s'), prev_level, prev_line)
            ELSE printf('%.3g x the capacity (%s %g -> %g) gave %.2f x the rate (%s -> %s, '
                        || 'line %d -> %d): super-linear scaling', level / prev_level, what,
                        prev_level, level, msg_rate / prev_rate, with_unit(prev_printed, 'msgs/s'),
                        with_unit(msg_rate_printed, 'msgs/s'),
                        prev_line, source_line)
                 || CASE WHEN cost_explains
                         THEN printf('; its CPU cost fell from %s to %s a message, which accounts for the '
                                     || 'gain: the bigger configuration spends less CPU a message, as printed',
                                     with_unit(prev_cost_printed, 'ms'), with_unit(cpu_ms_per_msg_printed, 'ms'))
                         WHEN NOT cost_explains
                         THEN printf('; its CPU cost a message (%s -> %s) accounts for %.2f x of the %.2f x '
                                     || 'beyond proportional: the smaller configuration was likely not driven '
                                     || 'to its capacity', with_unit(prev_cost_printed, 'ms'),
                                     with_unit(cpu_ms_per_msg_printed, 'ms'), prev_cost / cpu_ms_per_msg,
                                     (msg_rate / prev_rate) / (level / prev_level))
                         ELSE '' END END AS message,
       prev_row AS related_row_id
FROM judged
WHERE dropped OR superlinear
