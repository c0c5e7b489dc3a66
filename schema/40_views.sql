-- Views for people: the analyst contract. Other tools depend on these names.

-- A number and what it measures, as one text: two sources holding the same multiset of these
-- hold the same measurements (the vocabulary applied, however the files were laid out).
CREATE MACRO fact_key(product, product_version, platform, scenario, message_size_bytes, persistent,
                      concurrency_kind, concurrency, replicas, tshirt, component, metric, value) AS
    concat_ws('|', product, product_version, platform, scenario, message_size_bytes, persistent,
              concurrency_kind, concurrency, replicas, tshirt, component, metric, value);

-- The cores a row's CPU cost may keep busy: where the row prints %CPU, which is of the whole
-- server, its cost counts the server's CPU (the load driver and the system beside a
-- container), and the bound is the server's cores; otherwise the container's limit (Docker
-- cores, a T-shirt's CPU times its replicas), or else the server's cores. The cpu_capacity
-- rule holds rows to it; the models' capacity_cores is it.
CREATE MACRO cores_available(cpu_busy_pct, cpu_limit_cores, replicas, server_cores) AS
    CASE WHEN cpu_busy_pct IS NOT NULL THEN server_cores
         ELSE COALESCE(cpu_limit_cores * COALESCE(replicas, 1), server_cores) END;

CREATE VIEW metric_values AS
SELECT
    f.fact_id,
    r.source,
    f.source_line,
    f.page,
    r.title                 AS report_title,
    st.table_title          AS source_table,
    p.product,
    p.product_version,
    p.fix_pack,
    pl.platform,
    pl.os                   AS platform_os,
    pl.deployment,
    pl.cores                AS server_cores,
    s.scenario,
    s.transport,
    s.message_domain,
    s.flow_style,
    ms.message_size_bytes,
    f.message_size_printed,
    c.persistent,
    c.concurrency_kind,
    c.concurrency,
    f.concurrency_printed,
    c.replicas,
    c.tshirt,
    c.cpu_limit_cores,
    c.memory_limit_mib,
    c.component,
    c.topology,
    c.queue_managers,
    c.simulated_latency_ms,
    f.observed_at,
    f.metric,
    f.unit,
    f.value,
    f.printed_value,
    f.value_half_ulp
FROM fact_metric_value f
JOIN dim_report r USING (report_id)
JOIN dim_product p USING (product_id)
JOIN dim_platform pl USING (platform_id)
JOIN dim_scenario s USING (scenario_id)
JOIN dim_source_table st USING (table_id)
JOIN dim_configuration c USING (configuration_id)
LEFT JOIN dim_message_size ms USING (message_size_id);

CREATE VIEW measurements AS
SELECT
    MIN(fact_id)                                                    AS measurement_id,
    source,
    source_line,
    page,
    source_table,
    product,
    product_version,
    fix_pack,
    platform,
    server_cores,
    scenario,
    message_size_bytes,
    persistent,
    concurrency_kind,
    concurrency,
    replicas,
    tshirt,
    cpu_limit_cores,
    topology,
    queue_managers,
    simulated_latency_ms,
    MAX(value) FILTER (WHERE metric = 'msg_rate')                   AS msg_rate,
    MAX(value) FILTER (WHERE metric = 'cpu_busy_pct')               AS cpu_busy_pct,
    MAX(value) FILTER (WHERE metric = 'cpu_ms_per_msg')             AS cpu_ms_per_msg,
    MAX(printed_value) FILTER (WHERE metric = 'msg_rate')           AS msg_rate_printed,
    MAX(printed_value) FILTER (WHERE metric = 'cpu_busy_pct')       AS cpu_busy_pct_printed,
    MAX(printed_value) FILTER (WHERE metric = 'cpu_ms_per_msg')     AS cpu_ms_per_msg_printed,
    MAX(value_half_ulp) FILTER (WHERE metric = 'msg_rate')          AS msg_rate_half_ulp,
    MAX(value_half_ulp) FILTER (WHERE metric = 'cpu_busy_pct')      AS cpu_busy_pct_half_ulp,
    MAX(value_half_ulp) FILTER (WHERE metric = 'cpu_ms_per_msg')    AS cpu_ms_per_msg_half_ulp,
    MAX(fact_id) FILTER (WHERE metric = 'msg_rate')                 AS msg_rate_fact_id,
    MAX(fact_id) FILTER (WHERE metric = 'cpu_busy_pct')             AS cpu_busy_pct_fact_id,
    MAX(fact_id) FILTER (WHERE metric = 'cpu_ms_per_msg')           AS cpu_ms_per_msg_fact_id
FROM metric_values
WHERE metric IN ('msg_rate', 'cpu_busy_pct', 'cpu_ms_per_msg')
GROUP BY ALL;
