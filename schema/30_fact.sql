-- Facts: one row per number of a results table, keyed to every dimension; as the rows of the
-- sources being loaded (see schema/20_dim.sql). A number's id comes from its source and its
-- place there (seq), a claim's likewise.

CREATE OR REPLACE TEMP VIEW load_fact_metric_value AS
SELECT
    stable_id(json_array(o.source, o.seq))                          AS fact_id,
    r.report_id,
    pr.product_id,
    pl.platform_id,
    sc.scenario_id,
    ms.message_size_id,
    c.configuration_id,
    st.table_id,
    o.metric,
    o.unit,
    o.value,
    o.value_half_ulp,
    o.printed_value,
    o.message_size_printed,
    o.concurrency_printed,
    o.observed_at,
    o.source                                                        AS source_file,
    o.page,
    o.source_line
FROM stg_observations o
JOIN dim_report r ON r.source = o.source
JOIN raw_products rp ON rp.source = o.source AND rp.product_key = o.product_key
JOIN dim_product pr ON pr.product = rp.short AND pr.product_version = rp.version
                   AND pr.fix_pack IS NOT DISTINCT FROM rp.fix_pack
JOIN dim_platform pl ON pl.report_id = r.report_id AND pl.platform_key = o.platform_key
JOIN dim_scenario sc ON sc.report_id = r.report_id AND sc.scenario = o.scenario
JOIN dim_source_table st ON st.report_id = r.report_id AND st.table_key = o.table_key
LEFT JOIN dim_message_size ms ON ms.message_size_bytes = o.message_size_bytes
LEFT JOIN stg_tshirts t ON t.source = o.source AND t.tshirt = o.tshirt
JOIN dim_configuration c
  ON  c.concurrency_kind IS NOT DISTINCT FROM o.concurrency_kind
  AND c.concurrency      IS NOT DISTINCT FROM o.concurrency
  AND c.replicas         IS NOT DISTINCT FROM o.replicas
  AND c.persistent       IS NOT DISTINCT FROM o.persistent
  AND c.tshirt           IS NOT DISTINCT FROM o.tshirt
  AND c.component        IS NOT DISTINCT FROM o.component
  AND c.memory_limit_mib IS NOT DISTINCT FROM t.memory_limit_mib
  AND c.topology         IS NOT DISTINCT FROM o.topology
  AND c.queue_managers   IS NOT DISTINCT FROM o.queue_managers
  AND c.simulated_latency_ms IS NOT DISTINCT FROM o.simulated_latency_ms
WHERE o.source IN (SELECT source FROM loading);

CREATE OR REPLACE TEMP VIEW load_fact_claim AS
SELECT
    stable_id(json_array(c.source, c.seq))                          AS claim_id,
    r.report_id,
    c.claim_text,
    c.claim_kind,
    rp.short                                                        AS product,
    rp.version                                                      AS product_version,
    pl.label                                                        AS platform,
    c.scenario,
    c.metric,
    c.unit,
    c.comparison,
    c.compared,
    c.quantifier,
    c.scope,
    c.value,
    c.printed_value,
    c.message_size_bytes,
    c.persistent,
    c.concurrency_kind,
    c.concurrency,
    c.relative_scenario,
    c.relative_concurrency,
    c.relative_persistent,
    c.relative_concurrency_kind,
    c.stated_date,
    c.value_half_ulp,
    c.topology,
    c.queue_managers,
    c.simulated_latency_ms,
    rpl.label                                                       AS relative_platform,
    c.relative_topology,
    c.relative_simulated_latency_ms,
    c.source                                                        AS source_file,
    c.page,
    c.source_line
FROM stg_claims c
JOIN dim_report r ON r.source = c.source
LEFT JOIN raw_products rp ON rp.source = c.source AND rp.product_key = c.product_key
LEFT JOIN raw_platforms pl ON pl.source = c.source AND pl.platform_key = c.platform_key
LEFT JOIN raw_platforms rpl ON rpl.source = c.source AND rpl.platform_key = c.relative_platform_key
WHERE c.source IN (SELECT source FROM loading);
