-- Dimensions. Ids are row numbers over each dimension's natural key, so the same
-- inputs always give the same ids.

CREATE TABLE dim_report AS
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY r.source) AS INTEGER)          AS report_id,
    r.source,
    r.family,
    r.filed_order,
    r.title,
    r.edition,
    r.published,
    TRY_CAST(r.published AS DATE)                                   AS published_date,
    -- the year, also where only a year is known ("2015")
    TRY_CAST(nullif(regexp_extract(r.published, '(\d{4})', 1), '') AS INTEGER) AS published_year,
    r.published_note,
    r.document_id,
    r.document_id_note,
    r.origin,
    r.retrieved,
    r.sha256,
    r.line_count,
    r.retired_by,
    r.retired_on
FROM raw_reports r;

CREATE TABLE dim_product AS
WITH products AS (
    -- one row per product and version; reports may spell the full name differently
    SELECT short AS product, min(name) AS product_name, version AS product_version, fix_pack
    FROM raw_products
    GROUP BY short, version, fix_pack
)
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY product, product_version, fix_pack NULLS FIRST) AS INTEGER)
                                                                    AS product_id,
    product, product_name, product_version, fix_pack
FROM products;

CREATE TABLE dim_platform AS
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY p.source, p.platform_key) AS INTEGER) AS platform_id,
    r.report_id,
    p.platform_key,
    p.label                                                         AS platform,
    p.os,
    p.hardware,
    p.cpu_model,
    p.cores,
    p.deployment,
    p.memory,
    p.note
FROM raw_platforms p
JOIN dim_report r USING (source);

-- A submission names its test without describing it. A submitted scenario takes the
-- transport, message domain and flow style the reports give a test of the same name, each only
-- where every report naming it gives the same one (WBIMB 5's and IIB 10's Aggregation differ
-- in flow style and domain, so a submitted Aggregation gets their common transport alone).
CREATE TABLE dim_scenario AS
WITH reported AS (
    SELECT s.name,
           CASE WHEN count(DISTINCT coalesce(s.transport, '')) = 1 THEN min(s.transport) END
               AS transport,
           CASE WHEN count(DISTINCT coalesce(s.message_domain, '')) = 1 THEN min(s.message_domain) END
               AS message_domain,
           CASE WHEN count(DISTINCT coalesce(s.flow_style, '')) = 1 THEN min(s.flow_style) END
               AS flow_style
    FROM raw_scenarios s
    JOIN raw_reports r USING (source)
    WHERE r.family <> 'submission'
    GROUP BY s.name
)
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY s.source, s.name) AS INTEGER)  AS scenario_id,
    r.report_id,
    s.name                                                          AS scenario,
    coalesce(s.transport, k.transport)                              AS transport,
    coalesce(s.message_domain, k.message_domain)                    AS message_domain,
    coalesce(s.flow_style, k.flow_style)                            AS flow_style,
    s.description
FROM raw_scenarios s
JOIN dim_report r USING (source)
LEFT JOIN reported k ON k.name = s.name AND r.family = 'submission'
ORDER BY scenario_id;

CREATE TABLE dim_message_size AS
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY message_size_bytes) AS INTEGER) AS message_size_id,
    message_size_bytes,
    ROUND(message_size_bytes / 1024.0, 3)                           AS message_size_kib
FROM (SELECT DISTINCT message_size_bytes FROM stg_observations
      WHERE message_size_bytes IS NOT NULL);

CREATE TABLE dim_configuration AS
WITH configurations AS (
    SELECT DISTINCT
        o.concurrency_kind,
        o.concurrency,
        o.replicas,
        o.persistent,
        o.tshirt,
        -- the CPU the runtime may use, where the configuration limits it
        CASE WHEN k.cpu_limit THEN coalesce(t.cpu_limit_cores, o.concurrency)
        END                                                         AS cpu_limit_cores,
        t.memory_limit_mib,
        o.component,
        -- how the messaging was deployed (the MQ Appliance reports; NULL elsewhere)
        o.topology,
        o.queue_managers,
        o.simulated_latency_ms
    FROM stg_observations o
    LEFT JOIN stg_tshirts t ON t.source = o.source AND t.tshirt = o.tshirt
    LEFT JOIN ref_concurrency_kinds k ON k.concurrency_kind = o.concurrency_kind
)
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY concurrency_kind NULLS FIRST, concurrency NULLS FIRST,
                                     replicas NULLS FIRST, persistent NULLS FIRST,
                                     tshirt NULLS FIRST, component NULLS FIRST,
                                     topology NULLS FIRST, queue_managers NULLS FIRST,
                                     simulated_latency_ms NULLS FIRST) AS INTEGER)
                                                                    AS configuration_id,
    *
FROM configurations;

CREATE TABLE dim_source_table AS
SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY t.source, t.heading_line, t.table_key) AS INTEGER)
                                                                    AS table_id,
    r.report_id,
    t.table_key,
    t.title                                                         AS table_title,
    t.kind                                                          AS table_kind,
    t.heading_line,
    t.page                                                          AS heading_page,
    t.note
FROM raw_tables t
JOIN dim_report r USING (source);
