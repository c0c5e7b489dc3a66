-- severity: error
-- relation: dq_rejects
-- compares: row
-- repair: none
-- summary: submitted rows that do not say what they measured
-- reason: A measurement needs to say what was measured: product, version, platform and
--   scenario, and at least one of rate, %CPU and CPU cost. A row without them cannot be
--   compared with anything or filed, so the submission reader keeps it out (raw_rejects).
--   Reports always name them; this guards submissions.
WITH batch AS (SELECT * FROM {batch})
SELECT world, NULL::INTEGER AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       table_title, column_name AS metric, printed_value,
       printf('%s (expected %s)', problem, expected) AS message,
       NULL::INTEGER AS related_row_id
FROM batch
WHERE subject AND kind = 'missing'
