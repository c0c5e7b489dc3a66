-- The data-quality interface: the three relations every rule in rules/ reads.
-- In the warehouse they are views over the contract views, with one "world" (0: the
-- numbers as printed) and every row a subject of the check. `perfwh check` builds tables
-- of the same shape from a submission (subject) plus warehouse rows of the same product
-- and scenario (context, never reported), and the typo repair adds worlds in which one
-- number is replaced by a candidate correction.

-- One definition of "the same configuration": one flow instance in one execution group is
-- one copy however a table counts it (WBIMB 10.3.4 = 10.11.1.1 = 10.11.2.1).
CREATE MACRO config_key(kind, value, replicas, tshirt) AS
    concat_ws('|',
        CASE WHEN kind IN ('flow_instances', 'execution_groups') AND value = 1
             THEN 'single_copy' ELSE kind END,
        CASE WHEN kind IN ('flow_instances', 'execution_groups') AND value = 1
             THEN NULL ELSE CAST(value AS VARCHAR) END,
        CAST(replicas AS VARCHAR), tshirt);

CREATE VIEW dq_input AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    measurement_id                      AS row_id,
    source_table                        AS table_title,
    config_key(concurrency_kind, concurrency, replicas, tshirt) AS config_key,
    * EXCLUDE (measurement_id, source_table, page, fix_pack)
FROM measurements;

CREATE VIEW dq_values AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    source_table                        AS table_title,
    config_key(concurrency_kind, concurrency, replicas, tshirt) AS config_key,
    fact_id, source, source_line, product, product_version, platform, scenario,
    message_size_bytes, persistent, concurrency_kind, concurrency, replicas, tshirt,
    component, observed_at, metric, unit, value, printed_value, value_half_ulp
FROM metric_values;

CREATE VIEW dq_claims AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    c.claim_id,
    c.source_file                       AS source,
    c.source_line,
    c.claim_text,
    c.product,
    c.product_version,
    c.platform,
    c.scenario,
    c.metric,
    c.comparison,
    c.value,
    c.printed_value,
    c.value_half_ulp,
    c.message_size_bytes,
    c.persistent,
    c.concurrency_kind,
    c.concurrency,
    c.relative_scenario,
    c.relative_concurrency
FROM fact_claim c;
