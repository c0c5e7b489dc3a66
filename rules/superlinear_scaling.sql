-- severity: warning
-- relation: dq_input
-- reason: Doubling the capacity (instances, execution groups, Docker cores, T-shirt CPU,
--   replicas) can at best double the rate of a CPU-bound test. A gain more than TOLERANCE
--   (10 %) above proportional, beyond the printed precision, points at a measurement
--   artefact (an under-loaded smaller configuration) or a typo.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.10 AS tolerance),
levels AS (
    SELECT * FROM (
        SELECT m.*, ROW_NUMBER() OVER (
                   PARTITION BY m.world, m.source, m.product, m.product_version, m.platform,
                                m.scenario, m.persistent, m.message_size_bytes,
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
           LAG(l.source_line) OVER w AS prev_line, LAG(l.row_id) OVER w AS prev_row
    FROM levels l
    WINDOW w AS (PARTITION BY l.world, l.source, l.product, l.product_version, l.platform,
                              l.scenario, l.persistent, l.message_size_bytes,
                              l.concurrency_kind, l.replicas ORDER BY l.concurrency)
    UNION ALL
    SELECT l.*, 'replicas', l.replicas,
           LAG(l.replicas) OVER w, LAG(l.msg_rate) OVER w, LAG(l.msg_rate_half_ulp) OVER w,
           LAG(l.msg_rate_printed) OVER w, LAG(l.source_line) OVER w, LAG(l.row_id) OVER w
    FROM levels l
    WHERE l.replicas IS NOT NULL
    WINDOW w AS (PARTITION BY l.world, l.source, l.product, l.product_version, l.platform,
                              l.scenario, l.persistent, l.message_size_bytes,
                              l.concurrency_kind, l.concurrency ORDER BY l.replicas)
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('%s x the capacity (%s %g -> %g) gave %.2f x the rate (%s -> %s msgs/s, line %d '
              || '-> %d): super-linear scaling', printf('%.3g', level / prev_level),
              CASE axis WHEN 'replicas' THEN 'replicas' ELSE concurrency_kind END,
              prev_level, level, msg_rate / prev_rate, prev_printed, msg_rate_printed,
              prev_line, source_line) AS message,
       prev_row AS related_row_id
FROM steps, params
WHERE subject AND prev_rate > 0 AND level > prev_level AND prev_rate > prev_ulp
  AND (msg_rate - msg_rate_half_ulp) / (prev_rate + prev_ulp) > (level / prev_level) * (1 + tolerance)
