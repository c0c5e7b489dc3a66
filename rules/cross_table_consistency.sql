-- severity: error
-- relation: dq_input
-- reason: A measurement repeated in another table (WBIMB 10.3.4 = 10.11.1.1 = 10.11.2.1,
--   Tables 1 and 2 against chapter 10, a multi-replica table repeating its single-replica
--   row, a resubmitted report against the warehouse) must print the same numbers, within
--   the printed precision. Flagged on the later (or submitted) row, per metric.
WITH batch AS (SELECT * FROM {batch}),
metrics AS (
    SELECT m.world, m.subject, m.row_id, m.source, m.source_line, m.table_title, m.product,
           m.product_version, m.platform, m.scenario, m.message_size_bytes, m.persistent,
           m.config_key, x.metric, x.value, x.half_ulp, x.printed, x.fact_id
    FROM batch m,
         LATERAL (VALUES ('msg_rate', m.msg_rate, m.msg_rate_half_ulp, m.msg_rate_printed, m.msg_rate_fact_id),
                         ('cpu_busy_pct', m.cpu_busy_pct, m.cpu_busy_pct_half_ulp, m.cpu_busy_pct_printed, m.cpu_busy_pct_fact_id),
                         ('cpu_ms_per_msg', m.cpu_ms_per_msg, m.cpu_ms_per_msg_half_ulp, m.cpu_ms_per_msg_printed, m.cpu_ms_per_msg_fact_id))
             AS x(metric, value, half_ulp, printed, fact_id)
    WHERE x.value IS NOT NULL
), pairs AS (
    SELECT b.*, a.row_id AS other_row, a.printed AS other_printed, a.source AS other_source, a.source_line AS other_line,
           a.table_title AS other_table,
           ROW_NUMBER() OVER (PARTITION BY b.world, b.row_id, b.metric
                              ORDER BY a.source, a.source_line) AS nth
    FROM metrics b
    JOIN metrics a
      ON a.world = b.world AND a.metric = b.metric AND a.product = b.product
     AND a.product_version = b.product_version AND a.platform = b.platform
     AND a.scenario = b.scenario AND a.message_size_bytes IS NOT DISTINCT FROM b.message_size_bytes
     AND a.persistent IS NOT DISTINCT FROM b.persistent AND a.config_key = b.config_key
     AND (a.source <> b.source OR a.table_title <> b.table_title)
     AND (NOT a.subject OR a.source < b.source
          OR (a.source = b.source AND a.source_line < b.source_line))
    WHERE abs(a.value - b.value) > a.half_ulp + b.half_ulp
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric,
       printed AS printed_value,
       printf('%s is %s here but %s for the same test and configuration in %s (%s:%d)',
              metric, printed, other_printed, other_table, other_source, other_line) AS message,
       other_row AS related_row_id
FROM pairs
WHERE subject AND nth = 1
