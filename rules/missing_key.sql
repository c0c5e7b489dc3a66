-- severity: error
-- relation: dq_input
-- reason: A measurement needs to say what was measured: product, version, platform and
--   scenario, and at least one of rate, %CPU and CPU cost. A row without them cannot be
--   compared with anything or filed. Reports always name them; this guards submissions.
WITH batch AS (SELECT * FROM {batch})
SELECT world, row_id, NULL::INTEGER AS fact_id, source, source_line, table_title,
       NULL::VARCHAR AS metric, NULL::VARCHAR AS printed_value,
       printf('the row lacks %s', concat_ws(', ',
           CASE WHEN product IS NULL THEN 'product' END,
           CASE WHEN product_version IS NULL THEN 'product_version' END,
           CASE WHEN platform IS NULL THEN 'platform' END,
           CASE WHEN scenario IS NULL THEN 'scenario' END,
           CASE WHEN coalesce(msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed) IS NULL
                THEN 'any measured value' END)) AS message,
       NULL::INTEGER AS related_row_id
FROM batch
WHERE subject AND (product IS NULL OR product_version IS NULL OR platform IS NULL
                   OR scenario IS NULL
                   OR coalesce(msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed) IS NULL)
