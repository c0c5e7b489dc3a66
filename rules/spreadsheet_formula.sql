-- severity: warning
-- relation: dq_input
-- compares: row
-- repair: none
-- summary: submitted names a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return)
-- reason: A spreadsheet that opens a CSV runs a text cell beginning with = + - @ (or a tab or
--   carriage return) as a formula: a scenario "=HYPERLINK(...)" or "=cmd|' /C calc'!A0" in
--   an export would run on the reader's machine. Every CSV perfwh writes puts an apostrophe
--   before such a cell (ingest/spreadsheet.py), but the name was most likely pasted from a
--   spreadsheet by mistake, and other tools may export it without one. A number ("-5") is
--   not a formula. Reports name nothing so.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),
named AS (
    SELECT world, row_id, source, source_line, table_title, 'product' AS field, product AS name FROM batch WHERE subject
    UNION ALL
    SELECT world, row_id, source, source_line, table_title, 'product_version', product_version FROM batch WHERE subject
    UNION ALL
    SELECT world, row_id, source, source_line, table_title, 'platform', platform FROM batch WHERE subject
    UNION ALL
    SELECT world, row_id, source, source_line, table_title, 'scenario', scenario FROM batch WHERE subject
)
SELECT world, row_id, NULL::INTEGER AS fact_id, source, source_line, table_title,
       field AS metric, name AS printed_value,
       printf('%s begins with %s: a spreadsheet opening an export runs it as a formula (perfwh''s CSVs write it after an apostrophe, other tools may not)',
              field, CASE left(name, 1) WHEN chr(9) THEN 'a tab' WHEN chr(13) THEN 'a carriage return'
                                        ELSE '''' || left(name, 1) || '''' END) AS message,
       NULL::INTEGER AS related_row_id
FROM named
WHERE left(name, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) AND TRY_CAST(name AS DOUBLE) IS NULL
