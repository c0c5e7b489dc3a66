-- severity: error
-- relation: dq_values
-- compares: source
-- repair: none
-- summary: MessageSight msgs/W = PERSISTENT rate / (average watts of supply #1 + average watts of supply #2), in interval arithmetic on the printed precision
-- reason: The report defines its power efficiency (PERSISTENT.MPW) as "PERSISTENT test
--   result, divided by average Watts", the average power being "the sum of the average
--   consumption for power supply #1 and power supply #2" - the averages of the two supplies'
--   load readings (Load Group Watts). Each printed number stands for an interval (a rate of
--   460K for 459.5K to 460.5K, each reading of 135 W for 134.5 W to 135.5 W, so their average
--   for its average plus or minus half a watt); the printed msgs/W must lie within what the
--   printed rate and readings allow, else one of them is wrong.
WITH batch AS (SELECT * FROM {batch}),
power AS (
    SELECT world, source, component, avg(value) AS watts, max(value_half_ulp) AS watts_ulp,
           count(*) AS readings
    FROM batch
    WHERE metric = 'load_w'
    GROUP BY ALL
), supply AS (
    SELECT world, source, sum(watts) AS watts, sum(watts_ulp) AS watts_ulp,
           string_agg(printf('%s %.2f W over %d readings', component, watts, readings), ', '
                      ORDER BY component) AS detail
    FROM power GROUP BY ALL
), figures AS (
    SELECT m.world, m.subject, m.fact_id, m.source, m.source_line, m.table_title,
           m.printed_value, m.value, m.value_half_ulp,
           r.value AS rate, r.value_half_ulp AS rate_ulp, r.printed_value AS rate_printed,
           s.watts, s.watts_ulp, s.detail
    FROM batch m
    JOIN batch r ON r.world = m.world AND r.source = m.source AND r.scenario = m.scenario
                  AND r.metric = 'msg_rate' AND r.table_title = m.table_title
    JOIN supply s ON s.world = m.world AND s.source = m.source
    WHERE m.metric = 'msgs_per_watt'
), bounds AS (
    SELECT f.*, (rate - rate_ulp) / (watts + watts_ulp) AS low,
           (rate + rate_ulp) / (watts - watts_ulp) AS high
    FROM figures f
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title,
       'msgs_per_watt' AS metric, printed_value,
       printf('%s msgs/W printed, but %s / %.2f W (%s) = %.0f msgs/W (%.0f to %.0f at the '
              || 'printed precision)', printed_value, with_unit(rate_printed, 'msgs/s'), watts, detail, rate / watts,
              low, high) AS message,
       NULL::INTEGER AS related_row_id
FROM bounds
WHERE subject AND (value + value_half_ulp < low OR value - value_half_ulp > high)
