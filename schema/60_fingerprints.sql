-- What a source holds, in a few numbers per metric: how many numbers, and the sum of the ids of
-- their fact keys (fact_key, schema/40_views.sql). Two sources with the same measurements - the
-- same keys and values, in any order - have the same sums, so `perfwh check` finds a copy of a
-- filed source by comparing sums rather than every number of the warehouse (and compares the
-- numbers themselves only where the sums agree). Rows of the sources being loaded (see
-- schema/20_dim.sql).

CREATE OR REPLACE TEMP VIEW load_dq_source_fingerprints AS
SELECT
    stable_id(json_array(source, metric))                           AS fingerprint_id,
    source,
    metric,
    count(*)                                                        AS numbers,
    sum(stable_id(fact_key(product, product_version, platform, scenario, message_size_bytes,
                           persistent, concurrency_kind, concurrency, replicas, tshirt, component,
                           metric, value)))                         AS keys_sum
FROM metric_values
WHERE source IN (SELECT source FROM loading)
GROUP BY source, metric;
