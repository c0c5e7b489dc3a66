-- Dimensions, as the rows to (re)write for the sources being loaded: every source in a
-- build, the new one in an add (`perfwh.warehouse.load`, which makes each
-- load_<table> view's rows the table's rows for those ids). Each is the one definition of its
-- table for both.
--
-- Ids come from each row's natural key alone (stable_id): the same row has the same id in a
-- build from scratch and after any sequence of adds, whatever else is filed beside it
-- (stable_id, schema/10_stg.sql).

CREATE OR REPLACE TEMP VIEW load_dim_report AS
SELECT
    stable_id(json_array(r.source))                                 AS report_id,
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
FROM raw_reports r
WHERE r.source IN (SELECT source FROM loading);

-- Shared by reports: a loaded source's products, each rewritten from every source naming it.
CREATE OR REPLACE TEMP VIEW load_dim_product AS
WITH products AS (
    -- one row per product and version; reports may spell the full name differently
    SELECT stable_id(json_array(short, version, fix_pack)) AS product_id,
           short AS product, min(name) AS product_name, version AS product_version, fix_pack
    FROM raw_products
    GROUP BY short, version, fix_pack
)
SELECT product_id, product, product_name, product_version, fix_pack
FROM products
WHERE product_id IN (SELECT stable_id(json_array(short, version, fix_pack)) FROM raw_products
                     WHERE source IN (SELECT source FROM loading));

CREATE OR REPLACE TEMP VIEW load_dim_platform AS
SELECT
    stable_id(json_array(p.source, p.platform_key))                 AS platform_id,
    stable_id(json_array(p.source))                                 AS report_id,
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
WHERE p.source IN (SELECT source FROM loading);

-- A submission names its test without describing it. A submitted scenario takes the
-- transport, message domain and flow style the reports give a test of the same name, each only
-- where every report naming it gives the same one (WBIMB 5's and IIB 10's Aggregation differ
-- in flow style and domain, so a submitted Aggregation gets their common transport alone).
-- A loaded report can describe a test a filed submission named: the submissions' scenarios of
-- the names a loaded report gives are rewritten too.
CREATE OR REPLACE TEMP VIEW load_dim_scenario AS
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
), loaded_names AS (
    SELECT DISTINCT s.name FROM raw_scenarios s JOIN raw_reports r USING (source)
    WHERE r.family <> 'submission' AND s.source IN (SELECT source FROM loading)
)
SELECT
    stable_id(json_array(s.source, s.name))                         AS scenario_id,
    stable_id(json_array(s.source))                                 AS report_id,
    s.name                                                          AS scenario,
    coalesce(s.transport, k.transport)                              AS transport,
    coalesce(s.message_domain, k.message_domain)                    AS message_domain,
    coalesce(s.flow_style, k.flow_style)                            AS flow_style,
    s.description
FROM raw_scenarios s
JOIN raw_reports r USING (source)
LEFT JOIN reported k ON k.name = s.name AND r.family = 'submission'
WHERE s.source IN (SELECT source FROM loading)
   OR (r.family = 'submission' AND s.name IN (SELECT name FROM loaded_names));

-- Shared: the sizes and configurations of the loaded sources' numbers (a row is its own key).
CREATE OR REPLACE TEMP VIEW load_dim_message_size AS
SELECT
    stable_id(json_array(message_size_bytes))                       AS message_size_id,
    message_size_bytes,
    ROUND(message_size_bytes / 1024.0, 3)                           AS message_size_kib
FROM (SELECT DISTINCT message_size_bytes FROM stg_observations
      WHERE message_size_bytes IS NOT NULL AND source IN (SELECT source FROM loading));

CREATE OR REPLACE TEMP VIEW load_dim_configuration AS
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
    WHERE o.source IN (SELECT source FROM loading)
)
SELECT
    stable_id(json_array(concurrency_kind, concurrency, replicas, persistent, tshirt,
                         cpu_limit_cores, memory_limit_mib, component, topology,
                         queue_managers, simulated_latency_ms)) AS configuration_id,
    *
FROM configurations;

CREATE OR REPLACE TEMP VIEW load_dim_source_table AS
SELECT
    stable_id(json_array(t.source, t.table_key))                    AS table_id,
    stable_id(json_array(t.source))                                 AS report_id,
    t.table_key,
    t.title                                                         AS table_title,
    t.kind                                                          AS table_kind,
    t.heading_line,
    t.page                                                          AS heading_page,
    t.note
FROM raw_tables t
WHERE t.source IN (SELECT source FROM loading);
