-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: counts the prose states (platforms, scenarios, tables, T-shirts, sizes, CPUs) match the tables
-- reason: The prose says how many platforms, test scenarios, tables, T-shirt sizes, message
--   sizes or concurrency levels there are ("the nine test scenarios on Linux", "in three
--   different pre-defined capacity configurations"), or how many CPUs the server has. Each
--   count is compared with what the report's own tables hold: distinct values of the thing
--   counted among the rows the sentence speaks of (its platform, scenario, metric or section),
--   and for "each test" in every scenario that has such values at all. A count of CPUs is
--   compared with the cores the rows imply (rate x CPU cost / %CPU, in printed precision); it
--   is refuted only when most rows exclude it, since a single row off is cpu_identity's
--   finding. The message quotes the sentence and names the lines of what the tables hold.
WITH batch AS (SELECT * FROM {batch}),
counts AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind = 'count'
),
counted_rows AS (
    -- read once for both kinds of count below (twice inlined, it costs a second scan)
    SELECT * FROM dq_claim_values
),
claims AS (
    SELECT c.* FROM counts c WHERE c.compared <> 'cores'
),
items AS (
    -- what each claim counts, per row it speaks of; "each" claims count per scenario
    SELECT c.claim_id, c.world,
           CASE WHEN c.quantifier = 'each'
                THEN concat_ws(' ', v.scenario, '(' || concat_ws(', ', v.product, v.platform) || ')')
                ELSE '' END                                             AS grp,
           CASE c.compared
                WHEN 'platforms' THEN v.platform
                WHEN 'scenarios' THEN v.scenario
                WHEN 'tables' THEN v.table_title
                WHEN 'tshirts' THEN v.tshirt
                WHEN 'message_sizes' THEN CAST(v.message_size_bytes AS VARCHAR) || ' bytes'
                WHEN 'concurrency_levels' THEN concat_ws(' ', v.concurrency_kind,
                                                         CAST(v.concurrency AS VARCHAR))
                WHEN 'configurations' THEN concat_ws(' ', CAST(v.message_size_bytes AS VARCHAR) || ' bytes',
                                                     v.config_key)
           END                                                          AS item,
           v.source_line
    FROM claims c
    JOIN counted_rows v
      ON v.world = c.world AND v.source = c.source
     AND (c.product IS NULL OR v.product = c.product)
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND (c.scenario IS NULL OR v.scenario = c.scenario)
     AND (c.metric IS NULL OR v.metric = c.metric)
     AND (c.scope IS NULL OR v.table_title LIKE c.scope || '%')
),
per_item AS (
    SELECT claim_id, world, grp, item, min(source_line) AS first_line
    FROM items WHERE item IS NOT NULL
    GROUP BY claim_id, world, grp, item
),
per_group AS (
    SELECT claim_id, world, grp, count(*) AS n,
           string_agg(printf('%s (line %d)', item, first_line), ', ' ORDER BY first_line, item) AS listed
    FROM per_item GROUP BY claim_id, world, grp
),
count_failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison,
           CASE WHEN g.grp = '' THEN printf('the tables show %d: %s', g.n, g.listed)
                ELSE printf('%s shows %d: %s', g.grp, g.n, g.listed) END AS evidence
    FROM claims c JOIN per_group g USING (claim_id, world)
    WHERE g.n <> c.value
),
core_claims AS (
    SELECT c.* FROM counts c WHERE c.compared = 'cores'
),
measured AS (
    -- the table rows of the claim's report with rate, %CPU and CPU cost, one per measurement
    SELECT c.claim_id, c.world, c.value AS stated, v.source_line,
           max(v.value) FILTER (WHERE v.metric = 'msg_rate') AS rate,
           max(v.value_half_ulp) FILTER (WHERE v.metric = 'msg_rate') AS rate_u,
           max(v.printed_value) FILTER (WHERE v.metric = 'msg_rate') AS rate_printed,
           max(v.value) FILTER (WHERE v.metric = 'cpu_busy_pct') AS pct,
           max(v.value_half_ulp) FILTER (WHERE v.metric = 'cpu_busy_pct') AS pct_u,
           max(v.printed_value) FILTER (WHERE v.metric = 'cpu_busy_pct') AS pct_printed,
           max(v.value) FILTER (WHERE v.metric = 'cpu_ms_per_msg') AS cost,
           max(v.value_half_ulp) FILTER (WHERE v.metric = 'cpu_ms_per_msg') AS cost_u,
           max(v.printed_value) FILTER (WHERE v.metric = 'cpu_ms_per_msg') AS cost_printed
    FROM core_claims c
    JOIN counted_rows v
      ON v.world = c.world AND v.source = c.source
     AND v.metric IN ('msg_rate', 'cpu_busy_pct', 'cpu_ms_per_msg')
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND (c.product IS NULL OR v.product = c.product)
    GROUP BY c.claim_id, c.world, c.value, v.source_line, v.product, v.scenario,
             v.message_size_bytes, v.persistent, v.config_key, v.table_title
),
implied AS (
    -- cores = rate x CPU ms per message / (10 x %CPU), with the interval the printed digits allow
    SELECT claim_id, world, stated, source_line, rate_printed, cost_printed, pct_printed,
           rate * cost / (10 * pct) AS cores,
           (rate - rate_u) * (cost - cost_u) / (10 * (pct + pct_u)) AS cores_low,
           (rate + rate_u) * (cost + cost_u) / (10 * (pct - pct_u)) AS cores_high
    FROM measured
    WHERE rate > 0 AND cost > 0 AND pct > pct_u
),
implied_summary AS (
    SELECT claim_id, world, count(*) AS n_rows,
           count(*) FILTER (WHERE stated < cores_low OR stated > cores_high) AS n_excluding,
           median(cores) AS median_cores,
           min(source_line) AS first_line
    FROM implied GROUP BY claim_id, world
),
core_failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison,
           printf('%d of the %d table rows with rate, %%CPU and CPU cost exclude %s cores; they imply %.1f (median of rate x CPU ms / (10 x %%CPU)), e.g. line %d: %s x %s / (10 x %s %%) = %.2f',
                  s.n_excluding, s.n_rows, c.printed_value, s.median_cores, e.source_line,
                  with_unit(e.rate_printed, 'msgs/s'), with_unit(e.cost_printed, 'ms'), e.pct_printed, e.cores) AS evidence
    FROM core_claims c
    JOIN implied_summary s USING (claim_id, world)
    JOIN implied e ON e.claim_id = s.claim_id AND e.world = s.world AND e.source_line = s.first_line
    WHERE 2 * s.n_excluding > s.n_rows
),
nothing AS (
    -- a count of things no row shows: a scenario, platform or section the tables lack
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison, 'no table row shows what it counts' AS evidence
    FROM counts c
    LEFT JOIN per_group g ON g.claim_id = c.claim_id AND g.world = c.world
    LEFT JOIN implied_summary s ON s.claim_id = c.claim_id AND s.world = c.world
    WHERE g.claim_id IS NULL AND s.claim_id IS NULL
),
failures AS (
    SELECT * FROM count_failures
    UNION ALL SELECT * FROM nothing
    UNION ALL SELECT * FROM core_failures
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s %s); %s', claim_text, comparison, printed_value,
              string_agg(evidence, '; ' ORDER BY evidence)) AS message,
       NULL::INTEGER AS related_row_id
FROM failures
GROUP BY world, claim_id, source, source_line, metric, printed_value, claim_text, comparison
