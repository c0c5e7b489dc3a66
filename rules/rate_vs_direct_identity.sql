-- severity: error
-- relation: dq_values
-- compares: source
-- repair: none
-- summary: a simulated-latency row's "vs Direct" = its rate / the rate with the appliances connected directly, in interval arithmetic on the printed precision
-- reason: The MQ Appliance reports' simulated-latency tables print, beside each peak rate
--   measured with a delay inserted between the replicating appliances, that rate in percent
--   of the same test's peak with the appliances connected directly ("vs Direct": 19,926 /
--   107,770 = 18.5 %). The direct rate is the row of the same report, appliance, MQ version,
--   test, size, persistence, topology and queue managers at 0 ms simulated latency, at any
--   requester load (each side is its own sweep's peak); where a report prints that row in
--   several tables, the first is taken (the consistency rule holds the others to it). Both
--   rates and the percentage are printed rounded, so the check is in interval arithmetic.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
percents AS (
    SELECT p.*, r.value AS rate, r.value_half_ulp AS rate_ulp, r.printed_value AS rate_printed
    FROM batch p
    JOIN batch r
      ON r.world = p.world AND r.source = p.source AND r.source_line = p.source_line
     AND r.platform = p.platform AND r.topology IS NOT DISTINCT FROM p.topology
     AND r.metric = 'msg_rate'
    WHERE p.metric = 'rate_vs_direct_pct'
),
direct AS (
    SELECT p.*, d.value AS direct, d.value_half_ulp AS direct_ulp, d.printed_value AS direct_printed,
           d.source_line AS direct_line,
           ROW_NUMBER() OVER (PARTITION BY p.world, p.fact_id ORDER BY d.source_line) AS nth
    FROM percents p
    JOIN batch d
      ON d.world = p.world AND d.source = p.source AND d.metric = 'msg_rate'
     AND d.product = p.product AND d.product_version = p.product_version
     AND d.platform = p.platform AND d.scenario = p.scenario
     AND d.message_size_bytes IS NOT DISTINCT FROM p.message_size_bytes
     AND d.persistent IS NOT DISTINCT FROM p.persistent
     AND d.topology = p.topology
     AND d.queue_managers IS NOT DISTINCT FROM p.queue_managers
     AND d.simulated_latency_ms = 0
    WHERE d.value > d.value_half_ulp
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title,
       'rate_vs_direct_pct' AS metric, printed_value,
       printf('vs Direct %s should be %s / %s (line %d) = %.3g %%', printed_value, rate_printed,
              direct_printed, direct_line, 100 * rate / direct) AS message,
       NULL::INTEGER AS related_row_id
FROM direct
WHERE subject AND nth = 1
  AND (value + value_half_ulp < 100 * (rate - rate_ulp) / (direct + direct_ulp)
       OR value - value_half_ulp > 100 * (rate + rate_ulp) / (direct - direct_ulp))
