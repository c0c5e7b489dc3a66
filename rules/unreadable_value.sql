-- severity: error
-- relation: dq_rejects
-- compares: row
-- repair: none
-- summary: submitted cells that cannot be read: not a number, an unknown word, a value out of range
-- reason: A submitted cell that the template's vocabulary cannot read - a number that is not
--   a number as a report prints one (NaN, inf, 1e999, "fast"), a value outside its range (a
--   rate, size or cost that is not positive, %CPU above 100), a word that is not in the
--   vocabulary (persistence, concurrency kind, T-shirt) - cannot be checked or loaded. The
--   submission reader keeps such cells out of the warehouse and records them (raw_rejects);
--   reports are parsed strictly, so in the warehouse this fires only for waived submissions.
WITH batch AS (SELECT * FROM {batch})
SELECT world, NULL::INTEGER AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       table_title, column_name AS metric, printed_value,
       CASE WHEN printed_value IS NULL THEN printf('%s (expected %s)', problem, expected)
            ELSE printf('%s: %s (expected %s)', printed_value, problem, expected) END AS message,
       NULL::INTEGER AS related_row_id
FROM batch
WHERE subject AND kind = 'unreadable'
