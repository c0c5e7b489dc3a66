-- The data-quality interface: the three relations every rule in rules/ reads.
-- In the warehouse they are views over the contract views, with one "world" (0: the
-- numbers as printed) and every row a subject of the check. `perfwh check` builds tables
-- of the same shape from a submission (subject) plus warehouse rows of the same product
-- and scenario (context, never reported), and the typo repair adds worlds in which one
-- number is replaced by a candidate correction.

-- One definition of "the same configuration": one flow instance in one execution group is
-- one copy however a table counts it (WBIMB 10.3.4 = 10.11.1.1 = 10.11.2.1), one replica is
-- one replica whether the row says 1 or leaves replicas blank ("blank if one"); the deployment
-- (topology, queue managers, simulated latency: the MQ Appliance reports) is part of it.
CREATE MACRO config_key(kind, value, replicas, tshirt, topology, queue_managers, latency_ms) AS
    concat_ws('|',
        CASE WHEN kind IN ('flow_instances', 'execution_groups') AND value = 1
             THEN 'single_copy' ELSE kind END,
        -- a count as a count (4, not the DOUBLE's 4.0: the key is also what messages print)
        CASE WHEN kind IN ('flow_instances', 'execution_groups') AND value = 1 THEN NULL
             WHEN value = CAST(value AS BIGINT) THEN CAST(CAST(value AS BIGINT) AS VARCHAR)
             ELSE CAST(value AS VARCHAR) END,
        CASE WHEN replicas <> 1 THEN CAST(replicas AS VARCHAR) END, tshirt, topology,
        CASE WHEN queue_managers IS NOT NULL THEN CAST(queue_managers AS VARCHAR) || ' QM' END,
        CASE WHEN latency_ms = CAST(latency_ms AS BIGINT) THEN CAST(CAST(latency_ms AS BIGINT) AS VARCHAR) || ' ms'
             WHEN latency_ms IS NOT NULL THEN CAST(latency_ms AS VARCHAR) || ' ms' END);

-- When the tables refute a statement about many rows or pairs (the claim rules): a plain
-- statement by one case against it; a hedged one ("Typically, ...", quantifier 'most') only
-- when the cases against it are at least as many as those for it.
CREATE MACRO refutes(quantifier, against, agreeing) AS
    against > 0 AND (quantifier <> 'most' OR against >= agreeing);

-- A name with its spacing folded: any run of spaces of any kind (a no-break space, an em
-- space) as one space, none at its ends, and its accented letters composed (an e and an
-- accent typed apart are the é typed as one) - ingest.vocabulary's SCENARIO_SPACES_SQL.
CREATE MACRO name_spaces(name) AS
    trim(regexp_replace(nfc_normalize(name), '\p{Zs}+', ' ', 'g'));

-- One definition of "the same measurement" (a row printed twice, a resubmission): the same
-- product, version, platform and scenario - compared without regard to case and spacing, as
-- a submission may type them - server cores (one platform name with two core counts is two
-- machines), message size, persistence and configuration.
CREATE MACRO measurement_key(product, product_version, platform, cores, scenario, size, persistent, config) AS
    concat_ws('|', lower(name_spaces(product)), lower(name_spaces(product_version)),
              lower(name_spaces(platform)), COALESCE(CAST(cores AS VARCHAR), '-'),
              lower(name_spaces(scenario)),
              COALESCE(CAST(size AS VARCHAR), '-'), COALESCE(CAST(persistent AS VARCHAR), '-'),
              config);

-- A whole number's digits as printed (12,780 -> 12780), NULL for a number printed with a
-- decimal point (whose last digit says its precision).
CREATE MACRO whole_digits(printed) AS
    CASE WHEN contains(regexp_extract(printed, '[0-9][0-9,]*[.]?', 0), '.') THEN NULL
         ELSE regexp_replace(regexp_extract(printed, '[0-9][0-9,]*', 0), ',', '', 'g') END;

-- The first number a printed cell shows, as printed ('1,234.5 ms' -> '1,234.5'): what the
-- significant digits below are counted in (a rule computes it once for a cell and hands it to
-- both, each a few string operations instead of the several regular expressions each needed).
CREATE MACRO printed_number(printed) AS
    regexp_extract(printed, '[0-9][0-9,]*([.][0-9]*)?', 0);

-- How many significant digits a printed number (`printed_number`) shows: from its first non-zero
-- digit to its last (0.0902: 3; 857.1: 4); at least one. A whole number's trailing zeros may or
-- may not be among them (12,780: 4 or 5): significant_digits_low leaves them out,
-- significant_digits_high counts them.
CREATE MACRO significant_digits_high(number) AS
    GREATEST(length(regexp_replace(replace(replace(number, ',', ''), '.', ''), '^0+', '')), 1);
CREATE MACRO significant_digits_low(number) AS
    GREATEST(significant_digits_high(number) - CASE WHEN contains(number, '.') THEN 0
        ELSE length(replace(number, ',', '')) - length(regexp_replace(replace(number, ',', ''), '0+$', '')) END, 1);

-- The widest half unit a printed number may stand for: a whole number's trailing zeros need
-- not be significant - 12780 may be 12776 rounded to four significant digits (12780 +- 5), as
-- a lab's tool that prints significant digits prints it - down to its third significant digit
-- (1000 is 1000 +- 5 at most, 230000 is 230000 +- 500); ``half_ulp``: the number's own half unit
-- in the last printed digit (printed_half_ulp, in the value's unit). A rule that calls a
-- mismatch an error allows this reading: an error must hold however the number was rounded.
CREATE MACRO rounded_half_ulp(printed, half_ulp) AS
    COALESCE(half_ulp * POWER(10, LEAST(
        length(whole_digits(printed)) - length(regexp_replace(whole_digits(printed), '0+$', '')),
        GREATEST(length(regexp_replace(whole_digits(printed), '^0+', '')) - 3, 0))), half_ulp);

-- A printed number as messages show it: with its unit, unless it was printed with one
-- ("1998.06/s", "2.95 ms"); a bare number or one with a multiplier ("460K") gets ``unit``.
CREATE MACRO with_unit(printed, unit) AS
    CASE WHEN regexp_matches(printed, '[0-9][KMG]?$') THEN printed || ' ' || unit ELSE printed END;

-- How a label of a row differs from another row's, as a message names it ("size 2048 bytes
-- there, 20480 bytes here"), or NULL where it does not (concat_ws then leaves it out).
CREATE MACRO label_change(label, there, here) AS
    CASE WHEN there IS DISTINCT FROM here
         THEN label || ' ' || COALESCE(there, 'blank') || ' there, ' || COALESCE(here, 'blank') || ' here' END;

CREATE VIEW dq_input AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    measurement_id                      AS row_id,
    source_table                        AS table_title,
    config_key(concurrency_kind, concurrency, replicas, tshirt, topology, queue_managers,
               simulated_latency_ms) AS config_key,
    measurement_key(product, product_version, platform, server_cores, scenario, message_size_bytes,
                    persistent, config_key(concurrency_kind, concurrency, replicas, tshirt, topology,
                                           queue_managers, simulated_latency_ms)) AS measurement_key,
    r.filed_order,
    r.family                            AS source_family,
    m.* EXCLUDE (measurement_id, source_table, page, fix_pack)
FROM measurements m
JOIN dim_report r USING (source);

CREATE VIEW dq_values AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    source_table                        AS table_title,
    config_key(concurrency_kind, concurrency, replicas, tshirt, topology, queue_managers,
               simulated_latency_ms) AS config_key,
    r.filed_order,
    fact_id, source, source_line, product, product_version, platform, scenario,
    message_size_bytes, persistent, concurrency_kind, concurrency, replicas, tshirt,
    component, topology, queue_managers, simulated_latency_ms, observed_at, metric, unit, value,
    printed_value, value_half_ulp
FROM metric_values
JOIN dim_report r USING (source);

-- Cells of submissions that could not be read (raw_rejects), for the rules that report them.
CREATE VIEW dq_rejects AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    x.source,
    x.line                              AS source_line,
    t.title                             AS table_title,
    x.column_name,
    x.printed_value,
    x.problem,
    x.expected,
    x.kind
FROM raw_rejects x
LEFT JOIN raw_tables t ON t.source = x.source AND t.table_key = 'submission';

CREATE VIEW dq_claims AS
SELECT
    0                                   AS world,
    TRUE                                AS subject,
    c.claim_id,
    c.source_file                       AS source,
    c.source_line,
    c.claim_text,
    c.claim_kind,
    c.product,
    c.product_version,
    c.platform,
    c.scenario,
    c.metric,
    c.comparison,
    c.compared,
    c.quantifier,
    c.scope,
    c.value,
    c.printed_value,
    c.value_half_ulp,
    c.message_size_bytes,
    c.persistent,
    c.concurrency_kind,
    c.concurrency,
    c.relative_scenario,
    c.relative_concurrency,
    c.relative_persistent,
    c.relative_concurrency_kind,
    c.stated_date,
    c.topology,
    c.queue_managers,
    c.simulated_latency_ms,
    c.relative_platform,
    c.relative_topology,
    c.relative_simulated_latency_ms
FROM fact_claim c;

-- The numbers the claim rules check statements against: dq_values of the sources whose prose
-- states claims, with the configuration key made on those rows only. (Read through dq_values,
-- the key would be built for every row of a large submission before the claims' sources are
-- picked out.)
CREATE VIEW dq_claim_values AS
SELECT
    v.world, v.subject, v.table_title, v.filed_order, v.fact_id, v.source, v.source_line,
    v.product, v.product_version, v.platform, v.scenario, v.message_size_bytes, v.persistent,
    v.concurrency_kind, v.concurrency, v.replicas, v.tshirt, v.component, v.topology,
    v.queue_managers, v.simulated_latency_ms, v.observed_at,
    v.metric, v.unit, v.value, v.printed_value, v.value_half_ulp,
    config_key(v.concurrency_kind, v.concurrency, v.replicas, v.tshirt, v.topology,
               v.queue_managers, v.simulated_latency_ms) AS config_key
FROM dq_values v
JOIN (SELECT DISTINCT world, source FROM dq_claims) k ON k.world = v.world AND k.source = v.source;

-- The models stage's leave-one-size-out prediction of each measurement's CPU cost, with the
-- wide (99 %) interval the model residual rule holds it to. Empty until the models stage has
-- run: it replaces this view by one over model_predictions (models/tables.py,
-- PREDICTIONS_VIEW_SQL, the same columns). The quality stage reads it and never imports the
-- models package (DEVELOPING.md, "Findings and models").
CREATE VIEW dq_predictions AS
SELECT CAST(NULL AS BIGINT) AS row_id, CAST(NULL AS BIGINT) AS series_id,
       CAST(NULL AS VARCHAR) AS model, CAST(NULL AS DOUBLE) AS predicted,
       CAST(NULL AS DOUBLE) AS lower, CAST(NULL AS DOUBLE) AS upper,
       CAST(NULL AS INTEGER) AS fit_sizes, CAST(NULL AS BOOLEAN) AS extrapolated,
       CAST(NULL AS DOUBLE) AS extrapolation_spans,
       CAST(NULL AS BOOLEAN) AS excluded, CAST(NULL AS BOOLEAN) AS excluded_for_errors
WHERE FALSE;
