-- severity: warning
-- relation: dq_input
-- reason: More capacity - flow instances, execution groups, Docker cores, a bigger T-shirt,
--   more replicas - should not lower the message rate of the same test, size and
--   persistence. Flagged on the bigger configuration's row when its rate is below the next
--   smaller configuration's by more than TOLERANCE (5 %) beyond the printed precision.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.05 AS tolerance),
levels AS (
    -- one row per series and level: the first printed (tables that repeat a row agree or
    -- are caught by the consistency rules)
    SELECT * FROM (
        SELECT m.*, ROW_NUMBER() OVER (
                   PARTITION BY m.world, m.source, m.product, m.product_version, m.platform,
                                m.scenario, m.persistent, m.message_size_bytes,
                                m.concurrency_kind, m.concurrency, m.replicas
                   ORDER BY m.source_line) AS nth
        FROM batch m
        WHERE m.msg_rate IS NOT NULL
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
       printf('rate %s msgs/s with %s %s is below %s msgs/s with %s (line %d): more capacity '
              || 'should not be slower', msg_rate_printed,
              CASE axis WHEN 'replicas' THEN 'replicas' ELSE concurrency_kind END,
              printf('%g', level), prev_printed, printf('%g', prev_level), prev_line) AS message,
       prev_row AS related_row_id
FROM steps, params
WHERE subject AND prev_rate IS NOT NULL AND level > prev_level
  AND msg_rate + msg_rate_half_ulp < (prev_rate - prev_ulp) * (1 - tolerance)
