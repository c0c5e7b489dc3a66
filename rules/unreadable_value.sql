-- severity: error
-- relation: dq_input
-- reason: A submitted cell that should hold a number (rate, %CPU, CPU cost, size, cores,
--   concurrency) but does not read as one cannot be checked or loaded. Reports are parsed
--   strictly, so in the warehouse this never fires; it guards CSV submissions.
WITH batch AS (SELECT * FROM {batch})
SELECT world, row_id, NULL::INTEGER AS fact_id, source, source_line, table_title, metric,
       printed_value,
       printf('%s %s is not a number', metric, printed_value) AS message,
       NULL::INTEGER AS related_row_id
FROM batch,
     LATERAL (VALUES ('msg_rate', msg_rate_printed, msg_rate),
                     ('cpu_busy_pct', cpu_busy_pct_printed, cpu_busy_pct),
                     ('cpu_ms_per_msg', cpu_ms_per_msg_printed, cpu_ms_per_msg)) AS x(metric, printed_value, value)
WHERE subject AND printed_value IS NOT NULL AND value IS NULL
