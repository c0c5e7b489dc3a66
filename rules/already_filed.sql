-- severity: error
-- relation: dq_input
-- compares: measurement_key
-- repair: none
-- summary: a submitted row repeating a row filed by an earlier submission number for number (filed twice)
-- reason: A submission's row with the measurement_key of a row an earlier submission filed
--   (the same product, version, platform, server, scenario, size, persistence and
--   configuration) and every number the same is that row again: a file repeating earlier
--   filings (a cumulative export: last month's rows and this month's) would store each
--   measurement twice, and every later comparison, fit and sizing answer would see two
--   series where there is one. Left out of the file, the rest files; a file replacing the
--   earlier one is filed with --revision-of; a measurement really repeated with the same
--   numbers is waived as such. Rows that differ in a number are cross_table_consistency's.
--   A report's rows retyped are not flagged: they are how a transcription is checked
--   against the filed report (a copy of all of them is refused as a copy).
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
submitted AS (
    SELECT * FROM batch WHERE subject AND source_family = 'submission'
), repeats AS (
    SELECT b.world, b.row_id, b.source, b.source_line, b.table_title,
           COALESCE(b.msg_rate_fact_id, b.cpu_ms_per_msg_fact_id, b.cpu_busy_pct_fact_id) AS fact_id,
           CASE WHEN b.msg_rate IS NOT NULL THEN 'msg_rate'
                WHEN b.cpu_ms_per_msg IS NOT NULL THEN 'cpu_ms_per_msg' ELSE 'cpu_busy_pct' END AS metric,
           COALESCE(b.msg_rate_printed, b.cpu_ms_per_msg_printed, b.cpu_busy_pct_printed) AS printed_value,
           a.row_id AS other_row, a.source AS other_source, a.source_line AS other_line,
           ROW_NUMBER() OVER (PARTITION BY b.world, b.row_id
                              ORDER BY a.filed_order, a.source, a.source_line) AS nth
    FROM submitted b
    JOIN batch a
      ON a.world = b.world AND a.measurement_key = b.measurement_key AND a.source <> b.source
     AND a.source_family = 'submission' AND (NOT a.subject OR a.filed_order < b.filed_order)
    WHERE a.msg_rate IS NOT DISTINCT FROM b.msg_rate
      AND a.cpu_busy_pct IS NOT DISTINCT FROM b.cpu_busy_pct
      AND a.cpu_ms_per_msg IS NOT DISTINCT FROM b.cpu_ms_per_msg
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric, printed_value,
       printf('this row is %s:%d again, every number the same: that measurement is filed '
              'already (leave the row out of this file, or add the file with --revision-of %s '
              'if it replaces that one)', other_source, other_line,
              other_source) AS message,
       other_row AS related_row_id
FROM repeats
WHERE nth = 1
