-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: superlatives in the prose ("the best possible", "the maximum ... with 1:10") are not beaten in the tables
-- reason: The prose calls a test the best possible ("the best possible message throughput
--   that will be achieved with a message flow") or a configuration the one that gave the
--   maximum ("the maximum message rate was achieved with a fanout ratio of 1:10"). Every row
--   of the tables that competes with it - another scenario at the same configuration, or
--   another configuration of the same scenario, at the same message size and persistence - is
--   compared with the subject's row, and beats it when it is higher (or lower) beyond the
--   precision both are printed to. A superlative beaten by a single row is not true as
--   printed; the message quotes the sentence and names the rows that beat it, with their lines.
WITH batch AS (SELECT * FROM {batch}),
claims AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind = 'best'
),
subjects AS (
    SELECT c.claim_id, c.world, c.comparison, c.compared, v.source, v.product, v.platform,
           v.scenario, v.metric, v.message_size_bytes, v.persistent, v.replicas, v.tshirt,
           v.config_key, v.value, v.value_half_ulp, v.printed_value, v.source_line
    FROM claims c
    JOIN dq_claim_values v
      ON v.world = c.world AND v.source = c.source AND v.metric = c.metric
     AND (c.product IS NULL OR v.product = c.product)
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND v.scenario = c.scenario
     AND (c.message_size_bytes IS NULL OR v.message_size_bytes = c.message_size_bytes)
     AND (c.persistent IS NULL OR v.persistent = c.persistent)
     AND (c.concurrency_kind IS NULL
          OR v.config_key = config_key(c.concurrency_kind, c.concurrency, v.replicas, v.tshirt,
                                       v.topology, v.queue_managers, v.simulated_latency_ms))
),
rivals AS (
    -- rows that compete with a subject row: same size and persistence, and either another
    -- scenario at the same configuration or another configuration of the same scenario
    SELECT s.claim_id, s.world, s.comparison, s.scenario AS s_scenario, s.config_key AS s_config,
           s.message_size_bytes AS size, s.persistent,
           s.value AS s_v, s.value_half_ulp AS s_u, s.printed_value AS s_printed,
           s.source_line AS s_line,
           r.scenario AS r_scenario, r.config_key AS r_config,
           concat_ws(' ', r.concurrency_kind, printf('%g', r.concurrency)) AS r_conf, r.value AS r_v,
           r.value_half_ulp AS r_u, r.printed_value AS r_printed, r.source_line AS r_line
    FROM subjects s
    JOIN dq_claim_values r
      ON r.world = s.world AND r.source = s.source AND r.metric = s.metric
     AND r.product = s.product AND r.platform = s.platform
     AND r.message_size_bytes IS NOT DISTINCT FROM s.message_size_bytes
     AND r.persistent IS NOT DISTINCT FROM s.persistent
    WHERE (s.compared = 'scenarios' AND r.scenario <> s.scenario AND r.config_key = s.config_key)
       OR (s.compared = 'configurations' AND r.scenario = s.scenario
           AND r.config_key <> s.config_key)
),
tally AS (
    SELECT claim_id, world, count(*) AS n_rivals FROM rivals GROUP BY claim_id, world
),
beating AS (
    SELECT r.*,
           -- by how much it is beaten, relatively; each size and persistence it is beaten at first
           ROW_NUMBER() OVER (PARTITION BY r.claim_id, r.world, r.size, r.persistent
                              ORDER BY abs(r.r_v - r.s_v) / r.s_v DESC, r.r_line, r.s_line) AS in_key
    FROM rivals r
    WHERE (r.comparison = 'highest' AND r.r_v - r.r_u > r.s_v + r.s_u)
       OR (r.comparison = 'lowest' AND r.r_v + r.r_u < r.s_v - r.s_u)
),
ranked AS (
    SELECT b.*,
           ROW_NUMBER() OVER (PARTITION BY b.claim_id, b.world
                              ORDER BY b.in_key, abs(b.r_v - b.s_v) / b.s_v DESC, b.r_line,
                                       b.s_line) AS nth
    FROM beating b
),
beaten AS (
    -- the rows that beat it by most first
    SELECT claim_id, world, count(*) AS n_beating,
           string_agg(CASE WHEN nth <= 5 THEN
                          printf('%s%s%s: %s (line %d) %s %s (line %d)',
                                 CASE WHEN size IS NULL THEN '' ELSE printf('at %d bytes', size) END,
                                 CASE WHEN persistent THEN ', persistent'
                                      WHEN NOT persistent THEN ', non-persistent' ELSE '' END,
                                 CASE WHEN size IS NULL AND persistent IS NULL THEN '' ELSE ', ' END
                                 || r_scenario || CASE WHEN r_config <> s_config
                                                       THEN ' (' || r_conf || ')' ELSE '' END,
                                 r_printed, r_line,
                                 CASE WHEN comparison = 'highest' THEN 'above' ELSE 'below' END,
                                 s_printed, s_line)
                      END, '; ' ORDER BY nth) AS listed
    FROM ranked GROUP BY claim_id, world
),
failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           printf('%d of the %d rows it competes with beat it: %s%s', b.n_beating, t.n_rivals,
                  b.listed, CASE WHEN b.n_beating > 5 THEN printf('; and %d more', b.n_beating - 5)
                                 ELSE '' END) AS evidence
    FROM claims c
    JOIN beaten b USING (claim_id, world)
    JOIN tally t USING (claim_id, world)
    UNION ALL
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           'no table row is about what it calls the best' AS evidence
    FROM claims c
    LEFT JOIN (SELECT DISTINCT claim_id, world FROM subjects) s
           ON s.claim_id = c.claim_id AND s.world = c.world
    WHERE s.claim_id IS NULL
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s); %s', claim_text, printed_value, evidence) AS message,
       NULL::INTEGER AS related_row_id
FROM failures
