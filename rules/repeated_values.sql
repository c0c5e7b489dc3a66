-- severity: warning
-- relation: dq_input
-- compares: source
-- repair: none
-- summary: identical numbers under different labels (significance scaled to the number of row pairs)
-- reason: Two rows of a report with different labels (scenario, size, persistence,
--   configuration, product or platform) but every printed number identical are rarely two
--   measurements; more often a row copied under the wrong labels. Chance coincidences grow
--   with the number of pairs of rows, so the independent numbers of a row - rate and %CPU
--   where %CPU is printed (the cost then follows from them), else rate and cost - must carry
--   between them at least log10(pairs of rows in the report) + MARGIN (2) significant
--   digits: then fewer than one in a hundred such repeats is chance. Rows of one test that
--   differ only in the count of their flow instances or execution groups, both at least the
--   server's cores, are no such pair: each keeps at most one core busy, so past the cores
--   the sweep prints the same numbers again by nature. Flagged on each later row, naming the
--   earlier one.
WITH batch AS NOT MATERIALIZED (SELECT * FROM {batch}),  -- read where used, not copied first
params AS (SELECT 2 AS margin),
sized AS (
    SELECT world, source, count(*) AS report_rows FROM batch GROUP BY world, source
),
printed AS (
    SELECT m.*,
           concat_ws(' / ', msg_rate_printed, cpu_busy_pct_printed, cpu_ms_per_msg_printed) AS printed_tuple,
           measurement_key AS row_key
    FROM batch m
    WHERE (msg_rate_printed IS NOT NULL)::INT + (cpu_busy_pct_printed IS NOT NULL)::INT
          + (cpu_ms_per_msg_printed IS NOT NULL)::INT >= 2
),
repeats AS (
    -- numbers printed on more than one row of a report (a cheap count first: comparing the
    -- rows' keys is for the few tuples that repeat)
    SELECT world, source, printed_tuple
    FROM printed
    GROUP BY world, source, printed_tuple
    HAVING count(*) > 1
),
shared AS (
    -- ... under more than one key: only those rows can repeat (the significance of a tuple is
    -- the same wherever it is printed, so it is judged after)
    SELECT m.world, m.source, m.printed_tuple
    FROM printed m
    JOIN repeats r ON r.world = m.world AND r.source = m.source AND r.printed_tuple = m.printed_tuple
    GROUP BY m.world, m.source, m.printed_tuple
    HAVING min(m.row_key) < max(m.row_key)
),
tuples AS (
    SELECT m.*, s.report_rows
    FROM printed m
    JOIN shared x ON x.world = m.world AND x.source = m.source AND x.printed_tuple = m.printed_tuple
    JOIN sized s ON s.world = m.world AND s.source = m.source
    CROSS JOIN params
    WHERE COALESCE(length(trim(ltrim(regexp_replace(split_part(m.msg_rate_printed, ' ', 1), '[^0-9]', '', 'g'), '0'), '0')), 0)
          + COALESCE(length(trim(ltrim(regexp_replace(split_part(
                CASE WHEN m.cpu_busy_pct_printed IS NOT NULL THEN m.cpu_busy_pct_printed
                     ELSE m.cpu_ms_per_msg_printed END, ' ', 1), '[^0-9]', '', 'g'), '0'), '0')), 0)
          >= log10(greatest(s.report_rows * (s.report_rows - 1) / 2, 1)) + margin
), earlier AS (
    SELECT b.*, a.row_id AS earlier_row, a.source_line AS earlier_line, a.table_title AS earlier_table,
           a.scenario AS earlier_scenario, a.message_size_bytes AS earlier_size,
           a.config_key AS earlier_config, a.persistent AS earlier_persistent,
           a.product AS earlier_product, a.product_version AS earlier_version,
           a.platform AS earlier_platform, a.server_cores AS earlier_cores,
           ROW_NUMBER() OVER (PARTITION BY b.world, b.row_id ORDER BY a.source_line) AS nth
    FROM tuples b
    JOIN tuples a ON a.world = b.world AND a.source = b.source
                 AND a.printed_tuple = b.printed_tuple AND a.row_key <> b.row_key
                 AND NOT (a.concurrency_kind IN ('flow_instances', 'execution_groups')
                          AND b.concurrency_kind = a.concurrency_kind
                          AND least(a.concurrency, b.concurrency) >= a.server_cores
                          AND b.server_cores = a.server_cores AND b.product = a.product
                          AND b.product_version = a.product_version AND b.platform = a.platform
                          AND b.scenario = a.scenario AND b.replicas IS NOT DISTINCT FROM a.replicas
                          AND b.message_size_bytes IS NOT DISTINCT FROM a.message_size_bytes
                          AND b.persistent IS NOT DISTINCT FROM a.persistent)
                 AND (a.source_line < b.source_line
                      OR (a.source_line = b.source_line AND a.row_id < b.row_id))
)
SELECT world, row_id, COALESCE(msg_rate_fact_id, cpu_ms_per_msg_fact_id) AS fact_id, source,
       source_line, table_title,
       CASE WHEN msg_rate_fact_id IS NOT NULL THEN 'msg_rate' ELSE 'cpu_ms_per_msg' END AS metric,
       COALESCE(msg_rate_printed, cpu_ms_per_msg_printed) AS printed_value,
       printf('numbers %s are printed identically at line %d (%s) under different labels: %s',
              printed_tuple, earlier_line, earlier_table, concat_ws('; ',
                  label_change('scenario', earlier_scenario, scenario),
                  label_change('size', CAST(earlier_size AS VARCHAR) || ' bytes',
                               CAST(message_size_bytes AS VARCHAR) || ' bytes'),
                  label_change('persistent', CAST(earlier_persistent AS VARCHAR), CAST(persistent AS VARCHAR)),
                  label_change('configuration', replace(earlier_config, '|', ' '), replace(config_key, '|', ' ')),
                  label_change('product', earlier_product, product),
                  label_change('version', earlier_version, product_version),
                  label_change('platform', earlier_platform, platform),
                  label_change('cores', CAST(earlier_cores AS VARCHAR), CAST(server_cores AS VARCHAR)))) AS message,
       earlier_row AS related_row_id
FROM earlier
WHERE subject AND nth = 1
