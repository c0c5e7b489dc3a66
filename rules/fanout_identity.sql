-- severity: error
-- relation: dq_values
-- compares: row
-- repair: none
-- summary: egress = ingress x fan-out ratio
-- reason: In a fan-out test every message in goes out once per subscriber, so the egress
--   rate is the ingress rate times the fan-out ratio (MessageSight 162K x 100 = 16.2M).
--   Checked within the printed precision of both rates.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
rates AS (
    SELECT i.world, i.subject, i.source, i.source_line, i.table_title, i.scenario, i.concurrency AS ratio,
           i.value AS ingress, i.value_half_ulp AS ingress_ulp, i.printed_value AS ingress_printed,
           e.value AS egress, e.value_half_ulp AS egress_ulp, e.printed_value AS egress_printed,
           e.fact_id
    FROM batch i
    JOIN batch e ON e.world = i.world AND e.source = i.source AND e.source_line = i.source_line
                  AND e.scenario = i.scenario AND e.metric = 'egress_msg_rate'
    WHERE i.metric = 'ingress_msg_rate' AND i.concurrency_kind = 'fanout_ratio'
)
SELECT world, fact_id AS row_id, fact_id, source, source_line, table_title,
       'egress_msg_rate' AS metric, egress_printed AS printed_value,
       printf('egress %s should be ingress %s x fan-out 1:%g = %.4g', egress_printed,
              ingress_printed, ratio, ingress * ratio) AS message,
       NULL::INTEGER AS related_row_id
FROM rates
WHERE subject
  AND (egress + egress_ulp < (ingress - ingress_ulp) * ratio
       OR egress - egress_ulp > (ingress + ingress_ulp) * ratio)
