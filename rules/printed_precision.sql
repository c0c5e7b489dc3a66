-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: tight
-- summary: a cell printed with more decimals than the rest of its column or series, or fewer where the column pads with zeros
-- reason: A report prints a column to one precision (WBIMB's rates to two decimals, IIB's to
--   one). A cell with more decimals than most cells of its column (same table, metric and
--   unit token, product and machine) or of its series (the same test across message sizes) print - one of a few
--   such cells, at most STRAY (5 %) of them - was most likely typed with an extra digit
--   (1563.11 -> 1563.111); one with fewer, a dropped digit - but only where the column keeps
--   its trailing zeros (61.00, 1.70), since a report that strips them (ACE 11: 1.7 ms, 2 ms)
--   prints fewer decimals by design (and a series there, whose few cells may all happen to
--   end in a zero, says nothing about more). A column needs three other cells, a series two. A
--   column whose cells all print the same number of significant digits (0.0902, 0.0910, 0.104;
--   857.1 beside 1234; a whole number's trailing zeros may or may not count) is printed to
--   significant digits, as some labs' tools print: its decimals change with the magnitude by
--   design, and no cell of it is a stray. Nor is a cell whose magnitude explains its
--   decimals: more of them below every power of ten the column's usual printing reaches,
--   fewer above (a tool printing three decimals below 1 ms and two above: 0.597, 1.04, 52.20). A column in which more cells agree on a count of
--   significant digits than on a number of decimals is printed so but for its strays, held to
--   that count the same way (0.4414 typed 0.441 among 0.4082, 1.680 and 20.92: one digit
--   short; read by decimals instead, the correct 0.4082 and 20.92 would look the strays) -
--   where the column keeps its trailing zeros (stripping them, it prints fewer digits of
--   either kind by design). A column that strips them may be printed either way (%.4g prints
--   0.1190 as 0.119, 1.010 as 1.01; two decimals print 11.30 as 11.3), and a few cells cannot
--   tell which: there a cell with more decimals is a stray only if it also prints more
--   significant digits than most of the column (0.1123 beside 0.119 and 9.326 is not). The
--   typo repair suggests the printing that matches the rest when one slip explains it.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 0.05 AS stray),
cells AS (
    SELECT c.*,
           length(regexp_extract(c.printed, '[0-9][.]([0-9]+)', 1)) AS decimals,
           regexp_matches(c.printed, '[0-9][.][0-9]*0([^0-9]|$)') AS trailing_zero,
           trim(regexp_extract(c.printed, '^[^0-9.]*[0-9.]+(.*)$', 1)) AS unit,
           -- the significant digits it prints; a whole number's trailing zeros may or may not
           -- count (12780: 4 or 5)
           significant_digits_low(c.number) AS digits_low,
           significant_digits_high(c.number) AS digits_high
    FROM (SELECT u.*, printed_number(u.printed) AS number FROM (
        -- one row per printed cell: each row once per metric (an unpivot every engine reads)
        SELECT m.world, m.subject, m.row_id, m.source, m.source_line, m.table_title, m.product,
               m.product_version, m.platform, m.server_cores, m.scenario, m.persistent, m.config_key, x.metric,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate_printed
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct_printed ELSE m.cpu_ms_per_msg_printed END AS printed,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate_fact_id
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct_fact_id ELSE m.cpu_ms_per_msg_fact_id END AS fact_id,
               CASE x.metric WHEN 'msg_rate' THEN m.msg_rate
                    WHEN 'cpu_busy_pct' THEN m.cpu_busy_pct ELSE m.cpu_ms_per_msg END AS value
        FROM batch m
        CROSS JOIN (VALUES ('msg_rate'), ('cpu_busy_pct'), ('cpu_ms_per_msg')) AS x(metric)
    ) u) c
    WHERE c.printed IS NOT NULL
),
mixed_columns AS (
    -- the columns (table, metric, unit; one product on one machine: a table printing two
    -- products side by side prints a column for each, and a submission gathering several
    -- labs' results prints each lab's the way its tools do) whose cells print more than one
    -- number of decimals, not to one count of significant digits throughout:
    -- only in those can a cell, or a series, hold a stray; and how many of a column's cells
    -- keep a trailing zero (the padding evidence is always the column's)
    SELECT c.world, c.source, c.table_title, c.product, c.product_version, c.platform,
           c.server_cores, c.metric, c.unit, count_if(c.trailing_zero) AS column_zeros
    FROM cells c
    GROUP BY c.world, c.source, c.table_title, c.product, c.product_version, c.platform,
             c.server_cores, c.metric, c.unit
    HAVING min(c.decimals) < max(c.decimals)
       AND max(c.digits_low) > min(c.digits_high)  -- not one count of significant digits throughout
),
keyed AS (
    -- each cell of those columns with the keys of its two groups: its column and its series
    -- (the same test across sizes)
    SELECT c.*, z.column_zeros,
           concat_ws('|', c.world, c.source, c.table_title, c.product, c.product_version,
                     c.platform, c.server_cores, c.metric, c.unit) AS column_key,
           concat_ws('|', c.world, c.source, c.table_title, c.metric, c.unit, c.product,
                     c.product_version, c.platform, c.server_cores, c.scenario, CAST(c.persistent AS VARCHAR),
                     c.config_key) AS series_key
    FROM cells c
    JOIN mixed_columns z ON z.world = c.world AND z.source = c.source
                        AND z.table_title = c.table_title AND z.product = c.product
                        AND z.product_version = c.product_version AND z.platform = c.platform
                        AND z.server_cores IS NOT DISTINCT FROM c.server_cores
                        AND z.metric = c.metric AND z.unit = c.unit
),
digit_tallies AS (
    -- how many cells of each column print each count of significant digits (a whole number
    -- with trailing zeros counts for each count it may print)
    SELECT column_key, digits, count(*) AS alike
    FROM (SELECT column_key, unnest(range(digits_low, digits_high + 1)) AS digits FROM keyed)
    GROUP BY column_key, digits
),
decimal_tallies AS (
    SELECT column_key, decimals, count(*) AS alike, max(column_zeros) AS column_zeros
    FROM keyed GROUP BY column_key, decimals
),
significant_columns AS (
    -- the columns more of whose cells agree on a count of significant digits than on a number
    -- of decimals, with the count most agree on (on a tie, the more digits)
    SELECT u.column_key, u.digits AS usual, u.alike AS usual_cells, e.members
    FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY column_key ORDER BY alike DESC, digits DESC) AS rank
          FROM digit_tallies) u
    JOIN (SELECT column_key, max(alike) AS alike, sum(alike) AS members, max(column_zeros) AS zeros
          FROM decimal_tallies GROUP BY column_key) e ON e.column_key = u.column_key
    -- (a column that strips trailing zeros prints fewer digits of both kinds by design: 11.3
    -- beside 13.29 is 11.30; its decimals are what it keeps to)
    WHERE u.rank = 1 AND u.alike > e.alike AND e.zeros > 0
),
column_digits AS (
    -- the count of significant digits most cells of each column print (on a tie, the more)
    SELECT column_key, digits AS usual_digits
    FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY column_key ORDER BY alike DESC, digits DESC) AS rank
          FROM digit_tallies)
    WHERE rank = 1
),
decimal_columns AS (
    SELECT k.*, d.usual_digits, CASE WHEN k.value > 0 THEN floor(log10(k.value)) END AS decade
    FROM keyed k
    JOIN column_digits d ON d.column_key = k.column_key
    WHERE NOT EXISTS (SELECT 1 FROM significant_columns s WHERE s.column_key = k.column_key)
),
column_usual AS (
    -- the decimals most cells of each column print (on a tie, the more)
    SELECT column_key, decimals AS usual
    FROM (SELECT column_key, decimals, ROW_NUMBER() OVER (PARTITION BY column_key
                                                         ORDER BY count(*) DESC, decimals DESC) AS rank
          FROM decimal_columns GROUP BY column_key, decimals)
    WHERE rank = 1
),
usual_decades AS (
    -- the powers of ten of the cells printing the usual decimals or fewer, and of those
    -- printing the usual or more
    SELECT c.column_key, u.usual,
           min(CASE WHEN c.decimals <= u.usual THEN c.decade END) AS lowest_usual,
           max(CASE WHEN c.decimals >= u.usual THEN c.decade END) AS highest_usual
    FROM decimal_columns c JOIN column_usual u ON u.column_key = c.column_key
    GROUP BY c.column_key, u.usual
),
by_decimals AS (
    -- the cells whose decimals their magnitude does not explain: a lab's tool may print three
    -- decimals below 1 ms and two above (0.597, 1.04 ... 52.20), a decimal more below every
    -- power of ten the usual printing reaches and one fewer above; a digit typed in (3.351
    -- beside 1.60 and 7.90) or dropped lies among them
    SELECT c.* FROM decimal_columns c
    JOIN usual_decades u ON u.column_key = c.column_key
    WHERE NOT coalesce((c.decimals > u.usual AND c.decade < u.lowest_usual)
                       OR (c.decimals < u.usual AND c.decade > u.highest_usual), false)
),
tallies AS (
    -- how many cells of each group print each number of decimals (aggregated, not windowed
    -- over the cells: a column of ten million cells is one group)
    SELECT 'column' AS grouping, 3 AS min_others, column_key AS group_key, decimals,
           count(*) AS alike
    FROM by_decimals GROUP BY column_key, decimals
    UNION ALL
    SELECT 'series' AS grouping, 2 AS min_others, series_key AS group_key, decimals,
           count(*) AS alike
    FROM by_decimals GROUP BY series_key, decimals
),
ranked AS (
    SELECT t.*, ROW_NUMBER() OVER (PARTITION BY grouping, group_key
                                   ORDER BY alike DESC, decimals DESC) AS rank
    FROM tallies t
),
groups AS (
    -- per group: its cells, the decimals most of them print (on a tie, the more), and how
    -- many print more or fewer; only the groups with a stray cell go on
    SELECT r.grouping, r.group_key, r.min_others, sum(r.alike) AS members,
           max(CASE WHEN r.rank = 1 THEN r.decimals END) AS usual,
           max(CASE WHEN r.rank = 1 THEN r.alike END) AS usual_cells
    FROM ranked r
    GROUP BY r.grouping, r.group_key, r.min_others
    HAVING count(*) > 1
),
strays AS (
    SELECT g.*,
           sum(CASE WHEN t.decimals > g.usual THEN t.alike ELSE 0 END) AS above,
           sum(CASE WHEN t.decimals < g.usual THEN t.alike ELSE 0 END) AS below
    FROM groups g
    JOIN tallies t ON t.grouping = g.grouping AND t.group_key = g.group_key
    GROUP BY g.grouping, g.group_key, g.min_others, g.members, g.usual, g.usual_cells
),
placed AS (
    SELECT k.*, s.grouping, s.min_others, s.members, s.usual, s.usual_cells, s.above, s.below
    FROM by_decimals k JOIN strays s ON s.grouping = 'column' AND s.group_key = k.column_key
    UNION ALL
    SELECT k.*, s.grouping, s.min_others, s.members, s.usual, s.usual_cells, s.above, s.below
    FROM by_decimals k JOIN strays s ON s.grouping = 'series' AND s.group_key = k.series_key
),
odd AS (
    SELECT p.*, CASE WHEN decimals > usual THEN 'more' ELSE 'fewer' END AS how,
           ROW_NUMBER() OVER (PARTITION BY world, row_id, metric ORDER BY grouping) AS nth
    FROM placed p
    CROSS JOIN params
    WHERE members - 1 >= min_others
      AND ((decimals > usual AND above <= greatest(1, stray * members)
            -- where the column strips trailing zeros (1.7 for 1.70), a few cells of a series
            -- print fewer decimals by chance: only the column's own usual counts there; and
            -- its cells may as well be printed to significant digits (%.4g strips them too:
            -- 0.1123 beside 0.119 and 9.326), so a stray prints more of both kinds
            AND (column_zeros > 0 OR (grouping = 'column' AND digits_low > usual_digits)))
           OR (decimals < usual AND below <= greatest(1, stray * members)
               AND column_zeros - CASE WHEN trailing_zero THEN 1 ELSE 0 END > 0))
)
SELECT world, row_id, fact_id, source, source_line, table_title, metric, printed AS printed_value,
       printf('%s %s is printed with %d decimal%s, %s than the %d that %d of the other %d cells of '
              || 'its %s print%s', replace(metric, '_', ' '), printed, decimals,
              CASE WHEN decimals = 1 THEN '' ELSE 's' END, how, usual, usual_cells, members - 1,
              grouping,
              CASE WHEN how = 'fewer' THEN ', and the column keeps trailing zeros' ELSE '' END) AS message,
       NULL::INTEGER AS related_row_id
FROM odd
WHERE subject AND nth = 1
UNION ALL
SELECT k.world, k.row_id, k.fact_id, k.source, k.source_line, k.table_title, k.metric, k.printed,
       printf('%s %s is printed with %d significant digits, %s than the %d that %d of the other %d '
              || 'cells of its column print%s', replace(k.metric, '_', ' '), k.printed,
              CASE WHEN k.digits_low > s.usual THEN k.digits_low ELSE k.digits_high END,
              CASE WHEN k.digits_low > s.usual THEN 'more' ELSE 'fewer' END, s.usual, s.usual_cells,
              s.members - 1,
              CASE WHEN k.digits_low > s.usual THEN '' ELSE ', and the column keeps trailing zeros' END),
       NULL::INTEGER
FROM keyed k
JOIN significant_columns s ON s.column_key = k.column_key
CROSS JOIN params
WHERE k.subject AND NOT (s.usual BETWEEN k.digits_low AND k.digits_high)
  AND s.members - 1 >= 3
  AND s.members - s.usual_cells <= greatest(1, stray * s.members)
  AND (k.digits_low > s.usual
       OR k.column_zeros - CASE WHEN k.trailing_zero THEN 1 ELSE 0 END > 0)
