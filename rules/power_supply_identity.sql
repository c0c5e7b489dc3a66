-- severity: warning
-- relation: dq_values
-- compares: source
-- repair: none
-- summary: a power-supply reading's volts x amps x power factor against its watts, each at its own printed precision
-- reason: A power factor is by definition real power over apparent power, so a reading of
--   one outlet taken at one moment has watts = volts x amps x power factor. Each printed
--   reading stands for an interval (203.18 V for 203.175 to 203.185, 1.169 A to the half
--   milliamp, a power factor of 0.58 for 0.575 to 0.585, 135 W for 134.5 to 135.5); a reading
--   whose product interval misses its watts interval does not tie together. The message gives
--   the supply's averages over its readings beside it: MessageSight's PDU log ties together
--   only on average (its watts are the load group's steady figure, its volts, amps and power
--   factor instantaneous samples), which is why this is a warning and not an error; the
--   msgs/W figure uses the watts (msgs_per_watt_identity).
WITH batch AS (SELECT * FROM {batch}),
readings AS (
    SELECT world, subject, source, source_line, table_title, component, observed_at,
           max(value) FILTER (WHERE metric = 'supply_voltage_v') AS volts,
           max(value_half_ulp) FILTER (WHERE metric = 'supply_voltage_v') AS volts_ulp,
           max(printed_value) FILTER (WHERE metric = 'supply_voltage_v') AS volts_printed,
           max(value) FILTER (WHERE metric = 'supply_current_a') AS amps,
           max(value_half_ulp) FILTER (WHERE metric = 'supply_current_a') AS amps_ulp,
           max(printed_value) FILTER (WHERE metric = 'supply_current_a') AS amps_printed,
           max(value) FILTER (WHERE metric = 'power_factor') AS pf,
           max(value_half_ulp) FILTER (WHERE metric = 'power_factor') AS pf_ulp,
           max(printed_value) FILTER (WHERE metric = 'power_factor') AS pf_printed,
           max(value) FILTER (WHERE metric = 'load_w') AS watts,
           max(value_half_ulp) FILTER (WHERE metric = 'load_w') AS watts_ulp,
           max(printed_value) FILTER (WHERE metric = 'load_w') AS watts_printed,
           max(fact_id) FILTER (WHERE metric = 'load_w') AS watts_fact
    FROM batch
    WHERE metric IN ('supply_voltage_v', 'supply_current_a', 'power_factor', 'load_w')
    GROUP BY world, subject, source, source_line, table_title, component, observed_at
),
tied AS (
    SELECT r.*, volts * amps * pf AS product,
           (volts - volts_ulp) * (amps - amps_ulp) * (pf - pf_ulp) AS product_low,
           (volts + volts_ulp) * (amps + amps_ulp) * (pf + pf_ulp) AS product_high,
           avg(volts * amps * pf) OVER supply AS mean_product, avg(watts) OVER supply AS mean_watts,
           count(*) OVER supply AS supply_readings
    FROM readings r
    WHERE volts IS NOT NULL AND amps IS NOT NULL AND pf IS NOT NULL AND watts IS NOT NULL
    WINDOW supply AS (PARTITION BY world, source, component)
)
SELECT world, watts_fact AS row_id, watts_fact AS fact_id, source, source_line, table_title,
       'load_w' AS metric, watts_printed AS printed_value,
       printf('%s V x %s A x power factor %s = %.1f W (%.1f to %.1f at the printed precision), '
              || 'but the load reads %s W; over the %d readings of %s the product averages %.1f W '
              || 'and the load %.1f W', volts_printed, amps_printed, pf_printed, product,
              product_low, product_high, watts_printed, supply_readings, component, mean_product,
              mean_watts) AS message,
       NULL::INTEGER AS related_row_id
FROM tied
WHERE subject AND (product_high < watts - watts_ulp OR product_low > watts + watts_ulp)
