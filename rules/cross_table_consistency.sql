-- severity: error
-- relation: dq_input
-- compares: measurement_key
-- repair: tight
-- summary: a measurement repeated in another table, or resubmitted, prints the same numbers (the filed number is the suggestion)
-- reason: A measurement repeated in another table (WBIMB 10.3.4 = 10.11.1.1 = 10.11.2.1,
--   Tables 1 and 2 against chapter 10, a multi-replica table repeating its single-replica
--   row) or resubmitted (a submission's row with the measurement_key of a filed row: the same
--   product, version, platform, scenario, size, persistence and configuration, case and
--   spacing aside) must print the same numbers, within the printed precision - rate-only
--   rows too. Flagged on the later (or submitted) row, per metric. Against a source filed
--   earlier, the filed number is the suggestion; within one report the typo repair decides.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
twice AS (
    -- keys printed more than once (a cheap count first: comparing their tables is for the
    -- few keys that repeat)
    SELECT world, measurement_key
    FROM batch
    GROUP BY world, measurement_key
    HAVING count(*) > 1
), repeated AS (
    -- ... in more than one table or source: only their rows can disagree (the others never
    -- meet a partner below, and leaving them out keeps the join small)
    SELECT m.world, m.measurement_key
    FROM batch m
    JOIN twice t ON t.world = m.world AND t.measurement_key = m.measurement_key
    GROUP BY m.world, m.measurement_key
    HAVING min(m.source) <> max(m.source) OR min(m.table_title) <> max(m.table_title)
), candidates AS (
    SELECT m.* FROM batch m
    JOIN repeated r ON r.world = m.world AND r.measurement_key = m.measurement_key
), metrics AS (
    -- one row per printed number: each row once per metric, keeping the metric's columns (an
    -- unpivot every engine reads)
    SELECT * FROM (
        SELECT m.world, m.subject, m.row_id, m.filed_order, m.source, m.source_line, m.table_title,
               m.source_family, m.measurement_key, x.metric,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct
                    ELSE m.cpu_ms_per_msg END AS value,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate_half_ulp
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct_half_ulp ELSE m.cpu_ms_per_msg_half_ulp END AS half_ulp,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate_printed
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct_printed ELSE m.cpu_ms_per_msg_printed END AS printed,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate_fact_id
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct_fact_id ELSE m.cpu_ms_per_msg_fact_id END AS fact_id
        FROM candidates m
        CROSS JOIN (VALUES ('msg_rate'), ('cpu_busy_pct'), ('cpu_ms_per_msg')) AS x(metric)
    ) WHERE value IS NOT NULL
), pairs AS (
    SELECT b.*, a.row_id AS other_row, a.printed AS other_printed, a.source AS other_source, a.source_line AS other_line,
           a.table_title AS other_table, a.source_family AS other_family,
           ROW_NUMBER() OVER (PARTITION BY b.world, b.row_id, b.metric
                              ORDER BY a.filed_order, a.source, a.source_line) AS nth
    FROM metrics b
    JOIN metrics a
      ON a.world = b.world AND a.metric = b.metric AND a.measurement_key = b.measurement_key
     AND (a.source <> b.source OR a.table_title <> b.table_title)
     AND (NOT a.subject OR a.filed_order < b.filed_order
          OR (a.source = b.source AND a.source_line < b.source_line))
    WHERE abs(a.value - b.value) > a.half_ulp + b.half_ulp
), agreement AS (
    -- how many of the numbers two printings of a key share agree: a transcription with a slip
    -- agrees in all but the slipped one; a row differing in every one of two or more numbers
    -- is a run of its own (a lab re-measuring a published test on a machine of the same name),
    -- which the filed numbers cannot correct
    SELECT b.world, b.row_id, a.row_id AS other_row, count(*) AS shared,
           count(*) FILTER (WHERE abs(a.value - b.value) <= a.half_ulp + b.half_ulp) AS agreeing
    FROM metrics b
    JOIN metrics a ON a.world = b.world AND a.metric = b.metric AND a.measurement_key = b.measurement_key
                  AND a.row_id <> b.row_id
    WHERE b.row_id IN (SELECT row_id FROM pairs WHERE nth = 1)
    GROUP BY ALL
), judged AS (
    SELECT p.*, coalesce(g.shared >= 2 AND g.agreeing = 0, false) AS another_run
    FROM pairs p
    LEFT JOIN agreement g ON g.world = p.world AND g.row_id = p.row_id AND g.other_row = p.other_row
    WHERE p.subject AND p.nth = 1
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric,
       printed AS printed_value,
       printf('%s is %s here but %s for the same test and configuration in %s (%s:%d)',
              metric, printed, other_printed, other_table, other_source, other_line)
       -- a lab's run of a test it filed before, not a transcription of it
       || CASE WHEN source_family = 'submission' AND other_family = 'submission' AND other_source <> source
               THEN '; measured again? waive it as such, or file this run with --revision-of '
                    || other_source || ' if it replaces that one'
               -- a run of a report's test on a machine the submission names as the report does
               WHEN another_run AND other_source <> source
               THEN '; every number differs, so this is another run, not a copy: name the '
                    || 'platform as your own machine (not as ' || other_source || ' does), or waive '
                    || 'it as measured again' ELSE '' END AS message,
       other_row AS related_row_id,
       CASE WHEN other_source <> source AND NOT another_run THEN other_printed END AS suggested_value
FROM judged
