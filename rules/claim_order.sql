-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: orderings the prose states between named tests, persistence or configurations hold in the tables
-- reason: The prose says one test is faster or dearer than another ("greater message
--   throughput using topic based routing when compared with content based routing",
--   "persistent messages ... cause a reduction in message rate", "greater message throughput
--   was possible with multiple execution groups"). Each such ordering is checked on every
--   pair of rows the tables print for both sides at the same message size (and the same
--   persistence and configuration, unless the sentence compares those): a pair contradicts it
--   when the other side wins beyond the precision both numbers are printed to. A statement of
--   what holds everywhere is refuted by one such pair; a hedged one ("typically") only when
--   the pairs against it are at least as many as those for it. The message quotes the
--   sentence and names the lines of the pairs that contradict it.
WITH batch AS (SELECT * FROM {batch}),
claims AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind = 'order'
),
subjects AS (
    -- the rows the sentence is about
    SELECT c.claim_id, c.world, v.source, v.product, v.platform, v.scenario, v.metric,
           v.message_size_bytes, v.persistent, v.concurrency_kind, v.concurrency, v.replicas,
           v.tshirt, v.config_key, v.value, v.value_half_ulp, v.printed_value, v.source_line
    FROM claims c
    JOIN dq_claim_values v
      ON v.world = c.world AND v.source = c.source AND v.metric = c.metric
     AND (c.product IS NULL OR v.product = c.product)
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND (c.scenario IS NULL OR v.scenario = c.scenario)
     AND (c.message_size_bytes IS NULL OR v.message_size_bytes = c.message_size_bytes)
     AND (c.persistent IS NULL OR v.persistent = c.persistent)
     AND (c.concurrency_kind IS NULL OR v.concurrency_kind = c.concurrency_kind)
     AND (c.concurrency IS NULL OR v.concurrency = c.concurrency)
),
pairs AS (
    -- each subject row against the rows of the other side: what the sentence names for the
    -- other side, the subject row's own keys for the rest
    SELECT s.claim_id, s.world, c.comparison,
           s.scenario AS s_scenario, s.persistent AS s_persistent, s.config_key AS s_config,
           concat_ws(' ', s.concurrency_kind, printf('%g', s.concurrency)) AS s_conf,
           s.message_size_bytes AS size, s.value AS s_v, s.value_half_ulp AS s_u,
           s.printed_value AS s_printed, s.source_line AS s_line,
           r.scenario AS r_scenario, r.persistent AS r_persistent, r.config_key AS r_config,
           concat_ws(' ', r.concurrency_kind, printf('%g', r.concurrency)) AS r_conf,
           r.value AS r_v, r.value_half_ulp AS r_u, r.printed_value AS r_printed,
           r.source_line AS r_line
    FROM subjects s
    JOIN claims c ON c.claim_id = s.claim_id AND c.world = s.world
    JOIN dq_claim_values r
      ON r.world = s.world AND r.source = s.source AND r.metric = s.metric
     AND r.product = s.product AND r.platform = s.platform
     AND r.scenario = COALESCE(c.relative_scenario, s.scenario)
     AND r.message_size_bytes IS NOT DISTINCT FROM s.message_size_bytes
     AND r.persistent IS NOT DISTINCT FROM COALESCE(c.relative_persistent, s.persistent)
     AND r.concurrency_kind IS NOT DISTINCT FROM COALESCE(c.relative_concurrency_kind, s.concurrency_kind)
     AND r.concurrency IS NOT DISTINCT FROM COALESCE(c.relative_concurrency, s.concurrency)
     AND r.replicas IS NOT DISTINCT FROM s.replicas
     AND r.tshirt IS NOT DISTINCT FROM s.tshirt
    -- one flow instance in one execution group is the same run however a table counts it
    WHERE NOT (r.scenario = s.scenario AND r.config_key = s.config_key
               AND r.persistent IS NOT DISTINCT FROM s.persistent)
),
judged AS (
    SELECT p.*,
           CASE WHEN comparison = 'higher' THEN s_v + s_u < r_v - r_u
                ELSE s_v - s_u > r_v + r_u END AS against,
           CASE WHEN comparison = 'higher' THEN s_v - s_u > r_v + r_u
                ELSE s_v + s_u < r_v - r_u END AS for_it
    FROM pairs p
),
tally AS (
    SELECT claim_id, world, count(*) AS n_pairs,
           count(*) FILTER (WHERE against) AS n_against,
           count(*) FILTER (WHERE for_it) AS n_for
    FROM judged GROUP BY claim_id, world
),
contradicting AS (
    SELECT j.claim_id, j.world, j.comparison, j.s_printed, j.s_line, j.r_printed, j.r_line,
           CASE WHEN j.size IS NULL THEN '' ELSE printf('at %d bytes: ', j.size) END AS at_size,
           concat_ws(', ', j.s_scenario,
                     CASE WHEN j.s_persistent THEN 'persistent'
                          WHEN NOT j.s_persistent THEN 'non-persistent' END,
                     CASE WHEN j.s_config <> j.r_config THEN j.s_conf END) AS s_label,
           concat_ws(', ', j.r_scenario,
                     CASE WHEN j.r_persistent THEN 'persistent'
                          WHEN NOT j.r_persistent THEN 'non-persistent' END,
                     CASE WHEN j.s_config <> j.r_config THEN j.r_conf END) AS r_label,
           ROW_NUMBER() OVER (PARTITION BY j.claim_id, j.world
                              ORDER BY j.s_line, j.r_line) AS nth
    FROM judged j WHERE j.against
),
listed AS (
    -- the first pairs against it, in the order of the report
    SELECT claim_id, world,
           string_agg(printf('%s%s: %s (line %d) %s %s: %s (line %d)', at_size, s_label, s_printed,
                             s_line, CASE WHEN comparison = 'higher' THEN 'below' ELSE 'above' END,
                             r_label, r_printed, r_line), '; ' ORDER BY nth) AS pairs_text
    FROM contradicting WHERE nth <= 4
    GROUP BY claim_id, world
),
failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           printf('%d of the %d pairs of rows it compares %s the other way: %s%s', t.n_against,
                  t.n_pairs, CASE WHEN t.n_against = 1 THEN 'goes' ELSE 'go' END, l.pairs_text,
                  CASE WHEN t.n_against > 4 THEN printf('; and %d more', t.n_against - 4)
                       ELSE '' END) AS evidence
    FROM claims c
    JOIN tally t USING (claim_id, world)
    JOIN listed l USING (claim_id, world)
    WHERE refutes(c.quantifier, t.n_against, t.n_for)
    UNION ALL
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           'no pair of table rows compares what it compares' AS evidence
    FROM claims c
    LEFT JOIN tally t ON t.claim_id = c.claim_id AND t.world = c.world
    WHERE t.claim_id IS NULL
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s); %s', claim_text, printed_value, evidence) AS message,
       NULL::INTEGER AS related_row_id
FROM failures
