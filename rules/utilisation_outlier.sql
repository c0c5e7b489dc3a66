-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: band
-- summary: tables without %CPU: a row's implied utilisation against the other sizes of its configuration, beyond the test's own spread
-- reason: Where a table has no %CPU, rate x CPU cost / cores available is the utilisation a
--   row implies. The rows of one configuration (same table, scenario, product and version,
--   machine, persistence and capacity)
--   were driven alike - a saturation test drives every message size to the CPU limit - so
--   their utilisations agree, in ACE 11's Linux tables to a percent. A row whose utilisation
--   is off the median of its configuration by more than SPREAD (5) times the test's usual
--   deviation (the median deviation of all the test's rows on that platform) and by at least
--   FLOOR (4 %), beyond the printed precision of its rate and cost, points at a wrong rate
--   or cost: a slip of a few percent where the test is steady, a bigger one where it is not -
--   but never more than FACTOR (3) times off, where the test's spread is wild (ACE 11 on
--   Windows). The configuration needs three rows.
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 5.0 AS spread, 0.04 AS floor, 3.0 AS factor),
rows AS (
    SELECT m.*,
           m.msg_rate * m.cpu_ms_per_msg / 1000
               / COALESCE(m.cpu_limit_cores * COALESCE(m.replicas, 1), m.server_cores) AS utilisation,
           m.msg_rate_half_ulp / m.msg_rate + m.cpu_ms_per_msg_half_ulp / m.cpu_ms_per_msg AS precision
    FROM batch m
    WHERE m.cpu_busy_pct IS NULL AND m.msg_rate > 0 AND m.cpu_ms_per_msg > 0
      AND COALESCE(m.cpu_limit_cores, m.server_cores) IS NOT NULL
),
typical AS (
    -- the scenario too: a submission's rows all sit in one table
    SELECT r.*, median(r.utilisation) OVER w AS usual, count(*) OVER w AS peers
    FROM rows r
    WINDOW w AS (PARTITION BY r.world, r.source, r.table_title, r.scenario, r.product,
                              r.product_version, r.platform, r.server_cores, r.persistent,
                              r.config_key)
),
deviations AS (
    SELECT t.*, abs(ln(t.utilisation / t.usual)) AS deviation
    FROM typical t
    WHERE t.peers >= 3 AND t.usual > 0
),
spreads AS (
    SELECT d.*, median(d.deviation) OVER (PARTITION BY d.world, d.source, d.scenario, d.platform,
                                                      d.server_cores)
               AS usual_deviation
    FROM deviations d
)
SELECT world, row_id, msg_rate_fact_id AS fact_id, source, source_line, table_title,
       'msg_rate' AS metric, msg_rate_printed AS printed_value,
       printf('rate %s x cost %s implies %.0f%% of the available CPU, but the other sizes '
              || 'of this configuration imply a median of %.0f%% (%.0f%% off, where this test''s '
              || 'rows are usually %.1f%% off theirs)', with_unit(msg_rate_printed, 'msgs/s'),
              with_unit(cpu_ms_per_msg_printed, 'ms'),
              utilisation * 100, usual * 100, (exp(deviation) - 1) * 100,
              (exp(usual_deviation) - 1) * 100) AS message,
       NULL::INTEGER AS related_row_id
FROM spreads, params
WHERE subject AND deviation > least(greatest(floor, spread * usual_deviation), ln(factor)) + precision
