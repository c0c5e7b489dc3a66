-- Staging: renames, casts and unit conversion only. Units come from ref_units, the
-- one unit table (loaded from ingest/units.py). Decimal arithmetic keeps conversions
-- exact (476.71 μs is 0.47671 ms, not 0.47671000000000003) before the cast to DOUBLE.

-- Half a unit in the last printed digit of a number as printed: a value printed 0.4 lies in
-- [0.35, 0.45]. The one definition of printed precision in SQL (ingest.units.decimals is
-- the same rule for Python).
CREATE MACRO printed_half_ulp(number) AS
    CAST('5e-' || CAST(1 + CASE WHEN contains(number, '.')
                                THEN length(split_part(number, '.', 2)) ELSE 0 END AS VARCHAR) AS DOUBLE);

-- The same in the unit of ``factor``, as the nearest DOUBLE (written out in decimal and read
-- once: 0.5 x 10^-4 x 0.001 computed in DOUBLE is 4.9999999999999996e-08, not 5e-08).
CREATE MACRO printed_half_ulp_in(number, factor) AS
    CAST(CAST(CAST(factor AS DECIMAL(38, 12)) * 5 AS VARCHAR) || 'e-'
         || CAST(1 + CASE WHEN contains(number, '.')
                          THEN length(split_part(number, '.', 2)) ELSE 0 END AS VARCHAR) AS DOUBLE);

-- A number as printed, in the unit of ``factor`` (its unit's factor), as the nearest DOUBLE:
-- through exact decimal arithmetic up to 12 decimals (476.71 us is 0.47671 ms, not
-- 0.47671000000000003); a number printed with more (a tool's repr of a double) straight to
-- DOUBLE, since DECIMAL(38, 12) would round it to 12 decimals, past its own precision.
CREATE MACRO printed_value_in(number, factor) AS
    CASE WHEN NOT contains(number, '.') OR length(split_part(number, '.', 2)) <= 12
         THEN CAST(CAST(number AS DECIMAL(38, 12)) * factor AS DOUBLE)
         ELSE CAST(number AS DOUBLE) * CAST(factor AS DOUBLE) END;

-- The id of a row of the dimensional model, from its natural key given as json_array(...):
-- the first 56 bits of the key's MD5, shifted into the 53 bits JavaScript holds exactly (MD5
-- is the same in every DuckDB version, unlike hash()). The same row has the same id in a
-- build from scratch and after any sequence of adds, whatever else is filed beside it.
-- `perfwh.warehouse.load.stable_id` is the same in Python.
CREATE MACRO stable_id(natural_key) AS
    CAST(('0x' || substr(md5(natural_key), 1, 14)) AS BIGINT) >> 3;

CREATE VIEW stg_observations AS
SELECT
    o.source,
    o.seq,
    o.table_key,
    o.row_line                                                      AS source_line,
    o.page,
    o.product_key,
    o.platform_key,
    o.scenario,
    o.metric,
    m.unit,
    printed_value_in(o.number, vu.factor)                            AS value,
    printed_half_ulp_in(o.number, vu.factor)                        AS value_half_ulp,
    o.printed_value,
    o.size_printed                                                  AS message_size_printed,
    CAST(ROUND(CAST(o.size_number AS DECIMAL(38, 12)) * su.factor) AS BIGINT)
                                                                    AS message_size_bytes,
    o.persistent,
    o.concurrency_kind,
    o.concurrency_printed,
    CAST(o.concurrency_number AS DOUBLE)                            AS concurrency,
    o.replicas,
    o.tshirt,
    o.component,
    CAST(o.observed_at AS TIMESTAMP)                                AS observed_at,
    o.topology,
    o.queue_managers,
    CAST(o.simulated_latency_ms AS DOUBLE)                          AS simulated_latency_ms
FROM raw_observations o
JOIN ref_metrics m ON m.metric = o.metric
JOIN ref_units vu ON vu.quantity = m.quantity AND vu.token = o.unit
LEFT JOIN ref_units su ON su.quantity = 'size' AND su.token = o.size_unit;

CREATE VIEW stg_tshirts AS
SELECT
    t.source,
    t.name                                                          AS tshirt,
    CAST(t.cpu_cores AS DOUBLE)                                     AS cpu_limit_cores,
    CAST(t.memory_mib AS INTEGER)                                   AS memory_limit_mib,
    t.line                                                          AS source_line
FROM raw_tshirts t;

CREATE VIEW stg_claims AS
SELECT
    c.source,
    c.seq,
    c.line                                                          AS source_line,
    c.page,
    c.claim_text,
    c.claim_kind,
    c.product_key,
    c.platform_key,
    c.scenario,
    c.metric,
    CASE WHEN c.number IS NULL THEN NULL ELSE vu.unit END           AS unit,
    c.comparison,
    c.compared,
    c.quantifier,
    c.scope,
    c.printed_value,
    printed_value_in(c.number, vu.factor)                            AS value,
    CAST(ROUND(CAST(c.size_number AS DECIMAL(38, 12)) * su.factor) AS BIGINT)
                                                                    AS message_size_bytes,
    c.persistent,
    c.concurrency_kind,
    CAST(c.concurrency_number AS DOUBLE)                            AS concurrency,
    c.relative_scenario,
    CAST(c.relative_concurrency AS DOUBLE)                          AS relative_concurrency,
    c.relative_persistent,
    c.relative_concurrency_kind,
    CAST(c.stated_date AS DATE)                                     AS stated_date,
    printed_half_ulp_in(c.number, vu.factor)                        AS value_half_ulp,
    c.topology,
    c.queue_managers,
    CAST(c.simulated_latency_ms AS DOUBLE)                          AS simulated_latency_ms,
    c.relative_platform_key,
    c.relative_topology,
    CAST(c.relative_simulated_latency_ms AS DOUBLE)                 AS relative_simulated_latency_ms
FROM raw_claims c
LEFT JOIN ref_metrics m ON m.metric = c.metric
-- Ratio and overhead claims are plain numbers (times, percent), counts are counts, windows
-- durations; other claims state their number in the metric's unit. A claim without a number
-- (an ordering, a date) has no unit: load.check_integrity refuses a number left unconverted.
LEFT JOIN ref_units vu ON vu.quantity = CASE WHEN c.claim_kind = 'count' THEN 'count'
                                             WHEN c.claim_kind = 'window' THEN 'seconds'
                                             WHEN c.comparison LIKE 'ratio%' THEN 'ratio'
                                             WHEN c.comparison = 'overhead_pct' THEN 'percent'
                                             WHEN c.comparison LIKE 'gain%'
                                               OR c.comparison LIKE 'reduction%' THEN 'percent'
                                             ELSE m.quantity END
                      AND vu.token = c.unit
LEFT JOIN ref_units su ON su.quantity = 'size' AND su.token = c.size_unit;
