-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: trends the prose states ("declined with size", "rises with the number of subscribers") hold step by step
-- reason: The prose says how a metric moves as messages grow or subscribers are added ("The
--   message throughput rate declined with size", "the processing required ... rises with the
--   increasing number of subscribers"). Each series the sentence speaks of (one scenario,
--   persistence and configuration, ordered by size; or one size, ordered by the concurrency
--   count) is walked step by step, and a step goes against the statement when the next
--   number moves the other way beyond the precision both are printed to. A plain statement
--   is refuted by one such step; a hedged one ("Typically, as the message size increases")
--   only when the steps against it are at least as many as those for it. The message quotes
--   the sentence and names the lines of the steps that contradict it.
WITH batch AS (SELECT * FROM {batch}),
claims AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind = 'trend'
),
located AS (
    -- each row the sentence speaks of, with its series and its position along the series
    SELECT c.claim_id, c.world, c.comparison,
           concat_ws(' | ', v.product, v.platform, v.scenario,
                     CASE WHEN v.persistent THEN 'persistent'
                          WHEN NOT v.persistent THEN 'non-persistent' END,
                     CASE WHEN c.compared = 'message_size'
                          THEN concat_ws(' ', v.concurrency_kind, printf('%g', v.concurrency),
                                         CAST(v.replicas AS VARCHAR), v.tshirt)
                          ELSE printf('%d bytes', v.message_size_bytes) END) AS series,
           CASE WHEN c.compared = 'message_size' THEN CAST(v.message_size_bytes AS DOUBLE)
                ELSE v.concurrency END AS x,
           v.value, v.value_half_ulp, v.printed_value, v.source_line
    FROM claims c
    JOIN dq_claim_values v
      ON v.world = c.world AND v.source = c.source AND v.metric = c.metric
     AND (c.product IS NULL OR v.product = c.product)
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND (c.scenario IS NULL OR v.scenario = c.scenario)
     AND (c.persistent IS NULL OR v.persistent = c.persistent)
     AND (c.concurrency_kind IS NULL OR v.concurrency_kind = c.concurrency_kind)
     AND (c.concurrency IS NULL OR v.concurrency = c.concurrency)
    WHERE (c.compared = 'message_size' AND v.message_size_bytes IS NOT NULL)
       OR (c.compared = 'concurrency' AND v.concurrency IS NOT NULL)
),
points AS (
    -- a row printed in two tables is one point
    SELECT claim_id, world, comparison, series, x, value, value_half_ulp,
           min(printed_value) AS printed, min(source_line) AS line
    FROM located
    GROUP BY claim_id, world, comparison, series, x, value, value_half_ulp
),
steps AS (
    SELECT p.*,
           LAG(x) OVER w AS prev_x, LAG(value) OVER w AS prev_v,
           LAG(value_half_ulp) OVER w AS prev_u, LAG(printed) OVER w AS prev_printed,
           LAG(line) OVER w AS prev_line
    FROM points p
    WINDOW w AS (PARTITION BY claim_id, world, series ORDER BY x, value)
),
judged AS (
    SELECT s.*,
           CASE WHEN comparison = 'falls' THEN value - value_half_ulp > prev_v + prev_u
                ELSE value + value_half_ulp < prev_v - prev_u END AS against,
           CASE WHEN comparison = 'falls' THEN value + value_half_ulp < prev_v - prev_u
                ELSE value - value_half_ulp > prev_v + prev_u END AS for_it
    FROM steps s
    WHERE prev_x IS NOT NULL AND x > prev_x
),
tally AS (
    SELECT claim_id, world, count(*) AS n_steps,
           count(*) FILTER (WHERE against) AS n_against, count(*) FILTER (WHERE for_it) AS n_for
    FROM judged GROUP BY claim_id, world
),
listed AS (
    -- the first steps against it, in the order of the report
    SELECT claim_id, world,
           string_agg(printf('%s: %s (line %d) then %s (line %d)', series, prev_printed, prev_line,
                             printed, line), '; ' ORDER BY nth) AS steps_text
    FROM (SELECT j.*, ROW_NUMBER() OVER (PARTITION BY claim_id, world ORDER BY line, prev_line) AS nth
          FROM judged j WHERE against) numbered
    WHERE nth <= 4
    GROUP BY claim_id, world
),
failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           printf('%d of the %d steps %s the other way: %s%s', t.n_against, t.n_steps,
                  CASE WHEN t.n_against = 1 THEN 'goes' ELSE 'go' END, l.steps_text,
                  CASE WHEN t.n_against > 4 THEN printf('; and %d more', t.n_against - 4)
                       ELSE '' END) AS evidence
    FROM claims c
    JOIN tally t USING (claim_id, world)
    JOIN listed l USING (claim_id, world)
    WHERE refutes(c.quantifier, t.n_against, t.n_for)
    UNION ALL
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           'no series of the tables has two points to compare' AS evidence
    FROM claims c
    LEFT JOIN tally t ON t.claim_id = c.claim_id AND t.world = c.world
    WHERE t.claim_id IS NULL
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s); %s', claim_text, printed_value, evidence) AS message,
       NULL::INTEGER AS related_row_id
FROM failures
