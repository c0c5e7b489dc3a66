-- severity: warning
-- relation: dq_values
-- compares: source
-- repair: none
-- summary: a queue manager replicated to another appliance (HA, DR, both) is not faster, nor quicker per round trip, than the same test standalone (5 %)
-- reason: An HA group copies every persistent message to its partner synchronously and a DR
--   pair sends it to a recovery appliance asynchronously: work a standalone queue manager does
--   not do. The MQ Appliance reports measure each replicated test beside the standalone one,
--   so a replicated test's peak rate should not be above the standalone peak of the same
--   report, appliance, MQ version, test, size, persistence and queue managers (the best the
--   report prints for it, at any requester load), nor its single-thread round-trip latency
--   below the standalone one. Flagged beyond TOLERANCE (5 %) and the printed precision: the
--   reports themselves say that at larger sizes "there is even less impact on the maximum
--   message rate" (more requesters reach the same peak). Only directly connected appliances
--   are compared; a simulated delay is judged against them (latency_sweep).
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS tolerance),
replicated AS (
    SELECT * FROM batch
    WHERE metric IN ('msg_rate', 'latency_rtt_ms') AND topology IS NOT NULL
      AND topology <> 'standalone' AND simulated_latency_ms = 0
),
standalone AS (
    -- per test, the standalone rows the replicated one must not beat: the fastest peak, the
    -- shortest round trip (every printing of it: a report prints a result in several tables)
    SELECT * FROM (
        SELECT s.*, RANK() OVER (
                   PARTITION BY s.world, s.source, s.product, s.product_version, s.platform,
                                s.scenario, s.message_size_bytes, s.persistent, s.queue_managers,
                                s.metric
                   ORDER BY CASE WHEN s.metric = 'msg_rate' THEN -s.value ELSE s.value END) AS nth
        FROM batch s
        WHERE s.metric IN ('msg_rate', 'latency_rtt_ms') AND s.topology = 'standalone'
    ) WHERE nth = 1
),
pairs AS (
    -- the standalone printing a message cites: the one in the replicated row's own table if
    -- it prints one, else the first printed
    SELECT * FROM (
        SELECT r.*, s.value AS s_value, s.value_half_ulp AS s_ulp, s.printed_value AS s_printed,
               s.source_line AS s_line, s.fact_id AS s_fact,
               ROW_NUMBER() OVER (PARTITION BY r.world, r.fact_id
                                  ORDER BY s.table_title IS NOT DISTINCT FROM r.table_title DESC,
                                           s.source_line) AS cited
        FROM replicated r
        JOIN standalone s
          ON s.world = r.world AND s.source = r.source AND s.product = r.product
         AND s.product_version = r.product_version AND s.platform = r.platform
         AND s.scenario = r.scenario AND s.metric = r.metric
         AND s.message_size_bytes IS NOT DISTINCT FROM r.message_size_bytes
         AND s.persistent IS NOT DISTINCT FROM r.persistent
         AND s.queue_managers IS NOT DISTINCT FROM r.queue_managers
    ) WHERE cited = 1
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title, metric, printed_value,
       CASE WHEN metric = 'msg_rate'
            THEN printf('%s rate %s is %.1f %% above the standalone %s (line %d): replication '
                        || 'should not be faster', replace(topology, '_', ' '),
                        with_unit(printed_value, 'msgs/s'), 100 * (value / s_value - 1),
                        with_unit(s_printed, 'msgs/s'), s_line)
            ELSE printf('%s round-trip latency %s is below the standalone %s (line %d): '
                        || 'replication should not be quicker', replace(topology, '_', ' '),
                        with_unit(printed_value, 'ms'), with_unit(s_printed, 'ms'), s_line) END
           AS message,
       NULL::INTEGER AS related_row_id
FROM pairs, params
WHERE subject
  AND ((metric = 'msg_rate' AND value - value_half_ulp > (s_value + s_ulp) * (1 + tolerance))
       OR (metric = 'latency_rtt_ms'
           AND value + value_half_ulp < (s_value - s_ulp) * (1 - tolerance)))
