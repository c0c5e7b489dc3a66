-- severity: warning
-- relation: dq_claims
-- compares: source
-- repair: none
-- summary: measurement windows and dates the prose states agree with the times of the readings
-- reason: The prose says how long readings were taken ("The power measurements were taken over
--   an 8 minute period") and when ("Test date: April 22, 2013"), and the report prints the time
--   of each reading. A window is compared with the span of each table of readings (first to
--   last), allowing one reading interval either way, since a reading may stand for the interval
--   before it; a date is compared with the day of every reading. The message quotes the
--   sentence and names the lines of the readings that disagree.
WITH batch AS (SELECT * FROM {batch}),
claims AS (
    SELECT c.* FROM batch c WHERE c.subject AND c.claim_kind IN ('window', 'date')
),
readings AS (
    -- one reading per table row (a row prints several metrics at one time)
    SELECT DISTINCT c.claim_id, c.world, v.table_title, v.observed_at, v.source_line
    FROM claims c
    JOIN dq_claim_values v
      ON v.world = c.world AND v.source = c.source AND v.observed_at IS NOT NULL
     AND (c.product IS NULL OR v.product = c.product)
     AND (c.platform IS NULL OR v.platform = c.platform)
     AND (c.scenario IS NULL OR v.scenario = c.scenario)
     AND (c.metric IS NULL OR v.metric = c.metric)
),
intervals AS (
    SELECT r.*,
           date_diff('second', LAG(r.observed_at) OVER (PARTITION BY r.claim_id, r.world,
                                                         r.table_title ORDER BY r.observed_at),
                     r.observed_at) AS gap_s
    FROM readings r
),
spans AS (
    SELECT claim_id, world, table_title, count(*) AS n_readings,
           min(observed_at) AS first_at, max(observed_at) AS last_at,
           min(source_line) AS first_line, max(source_line) AS last_line,
           date_diff('second', min(observed_at), max(observed_at)) AS span_s,
           COALESCE(max(gap_s), 0) AS max_gap_s
    FROM intervals GROUP BY claim_id, world, table_title
),
window_failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison,
           printf('%s: %d readings from %s to %s (lines %d-%d) span %.1f minutes, readings up to %d s apart',
                  s.table_title, s.n_readings, strftime(s.first_at, '%H:%M:%S'),
                  strftime(s.last_at, '%H:%M:%S'), s.first_line, s.last_line, s.span_s / 60.0,
                  s.max_gap_s) AS evidence
    FROM claims c JOIN spans s USING (claim_id, world)
    WHERE c.claim_kind = 'window'
      AND (s.span_s - s.max_gap_s > c.value + c.value_half_ulp
           OR s.span_s + s.max_gap_s < c.value - c.value_half_ulp)
),
days AS (
    SELECT claim_id, world, CAST(observed_at AS DATE) AS day, count(*) AS n_readings,
           min(source_line) AS first_line, max(source_line) AS last_line
    FROM readings GROUP BY claim_id, world, CAST(observed_at AS DATE)
),
date_failures AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison,
           printf('%d readings are dated %s (lines %d-%d)', d.n_readings,
                  strftime(d.day, '%Y-%m-%d'), d.first_line, d.last_line) AS evidence
    FROM claims c JOIN days d USING (claim_id, world)
    WHERE c.claim_kind = 'date' AND d.day <> c.stated_date
),
nothing AS (
    SELECT c.world, c.claim_id, c.source, c.source_line, c.metric, c.printed_value, c.claim_text,
           c.comparison, 'no reading in the tables has a time to check it against' AS evidence
    FROM claims c
    LEFT JOIN (SELECT DISTINCT claim_id, world FROM readings) r
           ON r.claim_id = c.claim_id AND r.world = c.world
    WHERE r.claim_id IS NULL
),
failures AS (
    SELECT * FROM window_failures
    UNION ALL SELECT * FROM date_failures
    UNION ALL SELECT * FROM nothing
)
SELECT world, claim_id AS row_id, NULL::INTEGER AS fact_id, source, source_line,
       'prose' AS table_title, metric, printed_value,
       printf('the text says "%s" (%s %s); %s', claim_text, comparison, printed_value,
              string_agg(evidence, '; ' ORDER BY evidence)) AS message,
       NULL::INTEGER AS related_row_id
FROM failures
GROUP BY world, claim_id, source, source_line, metric, printed_value, claim_text, comparison
