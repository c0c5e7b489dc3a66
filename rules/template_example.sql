-- severity: error
-- relation: dq_rejects
-- compares: row
-- repair: none
-- summary: submitted rows left as the template's examples
-- reason: `perfwh template` prints one example row per concurrency kind, to show the columns
--   filled in. Such a row left in a submission unchanged is not a measurement: filed, its
--   invented numbers (a "lab box" running ACE 13) would stand beside real ones. The
--   submission reader keeps it out (raw_rejects); change any cell and it is a row like any
--   other. Reports never contain one.
WITH batch AS (SELECT * FROM {batch})
SELECT world, NULL::INTEGER AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       table_title, column_name AS metric, printed_value,
       printf('%s (expected %s)', problem, expected) AS message,
       NULL::INTEGER AS related_row_id
FROM batch
WHERE subject AND kind = 'example'
