-- severity: warning
-- relation: dq_values
-- reason: MessageSight's msgs/Watt is "PERSISTENT test result, divided by average Watts",
--   the average power being the sum of the two power supplies' average load readings. The
--   printed figure must lie within what the printed rate and readings allow.
WITH batch AS (SELECT * FROM {batch}),
power AS (
    SELECT world, source, component, avg(value) AS watts, max(value_half_ulp) AS watts_ulp,
           count(*) AS readings
    FROM batch
    WHERE metric = 'load_w'
    GROUP BY ALL
), supply AS (
    SELECT world, source, sum(watts) AS watts, sum(watts_ulp) AS watts_ulp,
           string_agg(printf('%s %.1f W over %d readings', component, watts, readings), ', '
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
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title,
       'msgs_per_watt' AS metric, printed_value,
       printf('%s msgs/W printed, but %s msgs/s / %.1f W (%s) = %.0f msgs/W', printed_value,
              rate_printed, watts, detail, rate / watts) AS message,
       NULL::INTEGER AS related_row_id
FROM figures
WHERE subject
  AND (value + value_half_ulp < (rate - rate_ulp) / (watts + watts_ulp)
       OR value - value_half_ulp > (rate + rate_ulp) / (watts - watts_ulp))
