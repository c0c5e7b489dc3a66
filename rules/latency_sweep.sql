-- severity: warning
-- relation: dq_values
-- compares: source
-- repair: none
-- summary: the round-trip latency does not fall with a bigger message or a longer simulated delay, nor the peak rate rise with the delay (5 %)
-- reason: A single requester's round trip carries the message twice and, with replication,
--   waits for the replicating appliance: a bigger message, or a longer delay inserted between
--   the appliances (the MQ Appliance reports' simulated latency, 0 ms for appliances connected
--   directly), should not shorten it; and a longer delay should not raise the peak rate. Each
--   step is compared with the next smaller size (within one table, the same test and
--   deployment) or the next shorter delay (within one report: the delays are printed in
--   tables of their own; each test's first row at each delay), and flagged beyond TOLERANCE
--   (5 %) and the printed precision on the larger step's row.
-- the few rows it reads, picked out once: read where used, DuckDB's plan for the two windows
-- over a large submission's dq_values ran out of a small memory limit
WITH batch AS MATERIALIZED (
    SELECT * FROM {batch}
    WHERE metric = 'latency_rtt_ms' OR (metric = 'msg_rate' AND simulated_latency_ms IS NOT NULL)
),
params AS (SELECT 0.05 AS tolerance),
sized AS (
    SELECT x.world, x.subject, x.fact_id, x.source, x.source_line, x.table_title, x.metric,
           x.value, x.value_half_ulp, x.printed_value, 'size' AS axis,
           x.message_size_bytes AS level,
           LAG(x.message_size_bytes) OVER w AS prev_level, LAG(x.value) OVER w AS prev_value,
           LAG(x.value_half_ulp) OVER w AS prev_ulp, LAG(x.printed_value) OVER w AS prev_printed,
           LAG(x.source_line) OVER w AS prev_line
    FROM batch x
    WHERE x.metric = 'latency_rtt_ms' AND x.message_size_bytes IS NOT NULL
    WINDOW w AS (PARTITION BY x.world, x.source, x.table_title, x.product, x.product_version,
                              x.platform, x.scenario, x.persistent, x.topology, x.queue_managers,
                              x.simulated_latency_ms
                 ORDER BY x.message_size_bytes, x.source_line)
),
delays AS (
    -- each test's first row at each simulated delay (tables that repeat a row agree, or the
    -- consistency rule says so)
    SELECT * FROM (
        SELECT x.*, ROW_NUMBER() OVER (
                   PARTITION BY x.world, x.source, x.product, x.product_version, x.platform,
                                x.scenario, x.message_size_bytes, x.persistent, x.topology,
                                x.queue_managers, x.simulated_latency_ms, x.metric
                   ORDER BY x.source_line) AS nth
        FROM batch x
        WHERE x.metric IN ('msg_rate', 'latency_rtt_ms') AND x.simulated_latency_ms IS NOT NULL
    ) WHERE nth = 1
),
delayed AS (
    SELECT d.world, d.subject, d.fact_id, d.source, d.source_line, d.table_title, d.metric,
           d.value, d.value_half_ulp, d.printed_value, 'simulated latency' AS axis,
           d.simulated_latency_ms AS level,
           LAG(d.simulated_latency_ms) OVER w AS prev_level, LAG(d.value) OVER w AS prev_value,
           LAG(d.value_half_ulp) OVER w AS prev_ulp, LAG(d.printed_value) OVER w AS prev_printed,
           LAG(d.source_line) OVER w AS prev_line
    FROM delays d
    WINDOW w AS (PARTITION BY d.world, d.source, d.product, d.product_version, d.platform,
                              d.scenario, d.message_size_bytes, d.persistent, d.topology,
                              d.queue_managers, d.metric
                 ORDER BY d.simulated_latency_ms)
),
steps AS (
    SELECT * FROM sized UNION ALL SELECT * FROM delayed
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title, metric, printed_value,
       CASE WHEN metric = 'msg_rate'
            THEN printf('rate %s with %g ms simulated latency is above %s with %g ms (line %d): '
                        || 'a longer delay should not be faster', with_unit(printed_value, 'msgs/s'),
                        level, with_unit(prev_printed, 'msgs/s'), prev_level, prev_line)
            WHEN axis = 'size'
            THEN printf('round-trip latency %s at %d bytes is below %s at %d bytes (line %d): a '
                        || 'bigger message should not be quicker', with_unit(printed_value, 'ms'),
                        CAST(level AS BIGINT), with_unit(prev_printed, 'ms'),
                        CAST(prev_level AS BIGINT), prev_line)
            ELSE printf('round-trip latency %s with %g ms simulated latency is below %s with %g ms '
                        || '(line %d): a longer delay should not be quicker',
                        with_unit(printed_value, 'ms'), level, with_unit(prev_printed, 'ms'),
                        prev_level, prev_line) END AS message,
       NULL::INTEGER AS related_row_id
FROM steps, params
WHERE subject AND prev_value IS NOT NULL AND level > prev_level
  AND ((metric = 'msg_rate' AND value - value_half_ulp > (prev_value + prev_ulp) * (1 + tolerance))
       OR (metric = 'latency_rtt_ms'
           AND value + value_half_ulp < (prev_value - prev_ulp) * (1 - tolerance)))
