-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: numbers stated in the prose agree with the tables
-- reason: The prose states numbers ("approximately 2601 msgs/second", "over 400K messages
--   per second", "around 3.6 times the throughput", "more than 60% performance improvement",
--   "only 15% less than ... non HA"). Each claim is checked against the rows of its own
--   report it speaks of - a ratio against the row of the other scenario, configuration,
--   platform or deployment it names - within the precision of both (a claim of 274 allows
--   273.5 to 274.5). A claim that disagrees, or that matches a row of another message size
--   than the one it names, is a text error or a table error; the message says which row.
WITH batch AS (SELECT * FROM {batch}),
claims AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind = 'value'
),
candidates AS (
    -- the rows a claim speaks of; a NULL in the claim's key means "every such row"
    SELECT c.claim_id, c.world, v.value AS v, v.value_half_ulp AS vu, v.printed_value AS vp,
           v.source_line AS v_line, v.message_size_bytes AS v_size, v.persistent AS v_persistent,
           v.concurrency AS v_concurrency, v.config_key AS v_config, v.platform AS v_platform,
           v.topology AS v_topology, v.queue_managers AS v_queue_managers,
           v.simulated_latency_ms AS v_latency
    FROM claims c
    JOIN dq_values v
      ON v.world = c.world AND v.source = c.source AND v.scenario = c.scenario
     AND v.metric = c.metric
     AND (c.platform IS NULL OR v.platform = c.platform)
     -- a statement about one table (the table below it) speaks of that table's rows only
     AND (c.scope IS NULL OR v.table_title LIKE c.scope || '%')
     AND (c.message_size_bytes IS NULL OR v.message_size_bytes = c.message_size_bytes)
     AND (c.persistent IS NULL OR v.persistent = c.persistent)
     AND (c.topology IS NULL OR v.topology = c.topology)
     AND (c.queue_managers IS NULL OR v.queue_managers = c.queue_managers)
     AND (c.simulated_latency_ms IS NULL OR v.simulated_latency_ms = c.simulated_latency_ms)
     AND (c.concurrency_kind IS NULL
          OR v.config_key = config_key(c.concurrency_kind, c.concurrency, v.replicas, v.tshirt,
                                       v.topology, v.queue_managers, v.simulated_latency_ms))
),
value_failures AS (
    SELECT c.*, printf('the table prints %s (line %d%s)', k.vp, k.v_line,
                       CASE WHEN c.message_size_bytes IS NULL AND k.v_size IS NOT NULL
                            THEN printf(', %d bytes', k.v_size) ELSE '' END) AS evidence
    FROM claims c JOIN candidates k USING (claim_id, world)
    WHERE (c.comparison = 'approx' AND abs(k.v - c.value) > k.vu + c.value_half_ulp)
       OR (c.comparison = 'over' AND k.v + k.vu <= c.value)
       OR (c.comparison = 'under' AND k.v - k.vu >= c.value)
),
max_failures AS (
    -- enough copies to fill the machine cannot be slower than one copy
    SELECT c.*, printf('a single configuration already reaches %s (line %d)', k.vp, k.v_line) AS evidence
    FROM claims c
    JOIN (SELECT *, ROW_NUMBER() OVER (PARTITION BY claim_id, world ORDER BY v DESC, v_line) AS nth
          FROM candidates) k USING (claim_id, world)
    WHERE c.comparison = 'max_copies' AND k.nth = 1 AND c.value + c.value_half_ulp < k.v - k.vu
),
relatives AS (
    -- the other side of a ratio: the claim's relative scenario, platform, topology and
    -- simulated latency where it names them, else the numerator row's (a topology that does
    -- not replicate has no replication link, so no simulated latency)
    SELECT k.*, c.comparison,
           COALESCE(c.relative_scenario, c.scenario) AS d_scenario,
           COALESCE(c.relative_platform, k.v_platform) AS d_platform,
           COALESCE(c.relative_topology, k.v_topology) AS d_topology,
           CASE WHEN COALESCE(c.relative_topology, k.v_topology) = 'standalone' THEN NULL
                ELSE COALESCE(c.relative_simulated_latency_ms, k.v_latency) END AS d_latency
    FROM claims c
    JOIN candidates k USING (claim_id, world)
    WHERE c.comparison IN ('ratio_approx', 'ratio_over', 'overhead_pct', 'gain_over',
                           'reduction_approx', 'reduction_at_most')
),
ratios AS (
    SELECT c.*, k.vp AS num_printed, k.v_line AS num_line, d.printed_value AS den_printed,
           d.source_line AS den_line, k.v_size,
           (k.v - k.vu) / (d.value + d.value_half_ulp) AS r_low,
           CASE WHEN d.value > d.value_half_ulp THEN (k.v + k.vu) / (d.value - d.value_half_ulp) END AS r_high,
           k.v / d.value AS r,
           -- the same row may be printed in several tables; one denominator is enough: the
           -- one in the table the claim speaks of, if it prints one
           ROW_NUMBER() OVER (PARTITION BY c.claim_id, c.world, k.v_line
                              ORDER BY CASE WHEN d.table_title LIKE c.scope || '%' THEN 0 ELSE 1 END,
                                       d.source_line) AS nth
    FROM claims c
    JOIN relatives k USING (claim_id, world)
    JOIN dq_values d
      ON d.world = c.world AND d.source = c.source AND d.metric = c.metric
     AND d.scenario = k.d_scenario
     AND d.platform = k.d_platform
     AND d.message_size_bytes IS NOT DISTINCT FROM k.v_size
     AND d.persistent IS NOT DISTINCT FROM k.v_persistent
     -- requester clients are where each side peaked, not a setting both share: any load
     AND d.config_key = config_key(COALESCE(c.concurrency_kind, d.concurrency_kind),
                                   CASE WHEN d.concurrency_kind = 'requester_clients'
                                        THEN d.concurrency
                                        ELSE COALESCE(c.relative_concurrency, k.v_concurrency) END,
                                   d.replicas, d.tshirt, k.d_topology, k.v_queue_managers,
                                   k.d_latency)
    WHERE d.value > 0
),
ratio_failures AS (
    SELECT r.* EXCLUDE (num_printed, num_line, den_printed, den_line, v_size, r_low, r_high, r, nth),
           printf('the tables give %s / %s = %.3g%s (lines %d and %d%s)', num_printed, den_printed,
                  CASE WHEN comparison = 'overhead_pct' THEN (1 / r - 1) * 100
                       WHEN comparison = 'gain_over' THEN (r - 1) * 100
                       WHEN comparison LIKE 'reduction%' THEN (1 - r) * 100 ELSE r END,
                  CASE WHEN comparison = 'overhead_pct' THEN ' % overhead'
                       WHEN comparison = 'gain_over' THEN ' % more'
                       WHEN comparison LIKE 'reduction%' THEN ' % less' ELSE ' times' END,
                  num_line, den_line,
                  CASE WHEN v_size IS NOT NULL THEN printf(', %d bytes', v_size) ELSE '' END) AS evidence
    FROM ratios r
    WHERE nth = 1 AND ((comparison = 'ratio_approx'
           AND (r_high < value - value_half_ulp OR r_low > value + value_half_ulp))
       OR (comparison = 'ratio_over' AND COALESCE(r_high, 'inf'::DOUBLE) <= value)
       OR (comparison = 'overhead_pct'
           AND ((1 / COALESCE(r_high, 'inf'::DOUBLE) - 1) * 100 > value + value_half_ulp
                OR (1 / r_low - 1) * 100 < value - value_half_ulp))
       -- "more than 60% improvement": this row more than 1.6 times the relative row
       OR (comparison = 'gain_over' AND (COALESCE(r_high, 'inf'::DOUBLE) - 1) * 100 <= value)
       -- "a ~80% reduction", "only 15% less": this row that much below the relative row
       OR (comparison = 'reduction_approx'
           AND ((1 - r_low) * 100 < value - value_half_ulp
                OR (1 - COALESCE(r_high, 'inf'::DOUBLE)) * 100 > value + value_half_ulp))
       -- "reduced by up to 25%", "within 10% of": no more than that below it
       OR (comparison = 'reduction_at_most'
           AND (1 - COALESCE(r_high, 'inf'::DOUBLE)) * 100 > value + value_half_ulp))
),
unmatched AS (
    -- no row at the claim's key: is the number printed at another message size?
    SELECT c.*, COALESCE(
               (SELECT printf('no row at %d bytes; the number matches %s at %d bytes (line %d)',
                              c.message_size_bytes, v.printed_value, v.message_size_bytes, v.source_line)
                FROM dq_values v
                WHERE v.world = c.world AND v.source = c.source AND v.scenario = c.scenario
                  AND v.metric = c.metric AND v.message_size_bytes <> c.message_size_bytes
                  AND (c.persistent IS NULL OR v.persistent = c.persistent)
                  AND abs(v.value - c.value) <= v.value_half_ulp + c.value_half_ulp
                ORDER BY v.source_line LIMIT 1),
               'no table row matches what the claim is about') AS evidence
    FROM claims c
    WHERE c.comparison NOT IN ('ratio_approx', 'ratio_over', 'overhead_pct', 'gain_over',
                               'reduction_approx', 'reduction_at_most')
      AND NOT EXISTS (SELECT 1 FROM candidates k WHERE k.claim_id = c.claim_id AND k.world = c.world)
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s %s); %s', claim_text,
              replace(comparison, '_', ' '), printed_value,
              string_agg(DISTINCT evidence, '; ' ORDER BY evidence)) AS message,
       NULL::INTEGER AS related_row_id
FROM (SELECT world, claim_id, source, source_line, metric, printed_value, claim_text, comparison,
             evidence FROM value_failures
      UNION ALL
      SELECT world, claim_id, source, source_line, metric, printed_value, claim_text, comparison,
             evidence FROM max_failures
      UNION ALL
      SELECT world, claim_id, source, source_line, metric, printed_value, claim_text, comparison,
             evidence FROM ratio_failures
      UNION ALL
      SELECT world, claim_id, source, source_line, metric, printed_value, claim_text, comparison,
             evidence FROM unmatched)
GROUP BY world, claim_id, source, source_line, metric, printed_value, claim_text, comparison
