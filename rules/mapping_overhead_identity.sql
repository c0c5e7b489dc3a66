-- severity: error
-- relation: dq_values
-- compares: row
-- repair: none
-- summary: WBIMB Table 1's overhead = (ESQL rate - Mapping rate) / Mapping rate
-- reason: WBIMB Table 1's overhead of the Mapping node is (rate with ESQL - rate with the
--   Mapping node) / rate with the Mapping node, in percent. The printed overhead must lie
--   within what the two printed rates allow.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
rows AS (
    SELECT o.world, o.subject, o.fact_id, o.source, o.source_line, o.table_title,
           o.printed_value, o.value, o.value_half_ulp,
           m.value AS mapped, m.value_half_ulp AS mapped_ulp, m.printed_value AS mapped_printed,
           e.value AS esql, e.value_half_ulp AS esql_ulp, e.printed_value AS esql_printed
    FROM batch o
    JOIN batch m ON m.world = o.world AND m.source = o.source AND m.source_line = o.source_line
                  AND m.scenario = o.scenario AND m.metric = 'msg_rate'
    JOIN batch e ON e.world = o.world AND e.source = o.source AND e.source_line = o.source_line
                  AND e.scenario <> o.scenario AND e.metric = 'msg_rate'
    WHERE o.metric = 'mapping_overhead_pct'
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title,
       'mapping_overhead_pct' AS metric, printed_value,
       printf('overhead %s%% printed, but (%s - %s) / %s = %.2f%%', printed_value, esql_printed,
              mapped_printed, mapped_printed, (esql - mapped) / mapped * 100) AS message,
       NULL::INTEGER AS related_row_id
FROM rows
WHERE subject
  AND (value + value_half_ulp < ((esql - esql_ulp) - (mapped + mapped_ulp)) / (mapped + mapped_ulp) * 100
       OR value - value_half_ulp > ((esql + esql_ulp) - (mapped - mapped_ulp)) / (mapped - mapped_ulp) * 100)
