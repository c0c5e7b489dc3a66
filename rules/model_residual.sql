-- severity: warning
-- relation: dq_input
-- compares: row
-- repair: band
-- summary: a CPU cost outside the 99 % interval that its series' cost model predicts from the other sizes
-- reason: The models stage fits CPU cost against message size for every series with three or
--   more sizes and predicts each point from the other sizes only (leave-one-size-out), with a
--   99 % prediction interval (dq_predictions). A printed cost outside that interval, beyond
--   its own printed precision, does not lie on the cost curve of the rest of its series: a
--   slip of the hand, or a measurement unlike its neighbours. The typo repair looks for the
--   single slip that brings the cost back inside (the interval does not depend on the point's
--   own value). The rule runs after the models are fitted, on the points the error findings
--   leave in the fits, and on those several band rules' warnings left out of them (their
--   prediction never read them: the interval is that of the other sizes). A cost within FLOOR (1 %) beyond the interval is not told from the
--   curve: with three or four sizes the interval rests on a few residuals, and run-to-run
--   noise of a percent lands just outside it about as often as the interval's 1 % (a slip
--   of the hand - a digit doubled, dropped or swapped, a moved point - moves a cost by 5 %
--   or more, or by less than 1 %, which no band sees). A size more than MAX_SPANS (25) spans
--   of the fit's sizes beyond them is not held to the curve either (1 MB predicted from 256
--   and 512 bytes lies 4,095 spans beyond): the line's cost per KB is then the difference of
--   two close costs, which the scatter of a few tests (estimated from a file's few, often half
--   its true size) carries thousands of times over, so that the interval's edges are guesses.
--   A sweep of the reports or of a lab reaches 10 spans at most (2K and 20K to 200K).
WITH batch AS (SELECT * FROM {batch}),
params AS (SELECT 0.01 AS floor, 25 AS max_spans)
SELECT m.world, m.row_id, m.cpu_ms_per_msg_fact_id AS fact_id, m.source, m.source_line,
       m.table_title, 'cpu_ms_per_msg' AS metric, m.cpu_ms_per_msg_printed AS printed_value,
       printf('CPU cost %s lies %s the 99 %% interval %.4g to %.4g ms that the %s model of its '
              || 'series predicts (%.4g ms) from %d other message sizes', m.cpu_ms_per_msg_printed,
              CASE WHEN m.cpu_ms_per_msg < p.lower THEN 'below' ELSE 'above' END, p.lower,
              p.upper, p.model, p.predicted, p.fit_sizes) AS message,
       NULL::INTEGER AS related_row_id
FROM batch m
CROSS JOIN params
JOIN dq_predictions p ON p.row_id = m.row_id
WHERE m.subject AND p.lower IS NOT NULL AND NOT p.excluded_for_errors
  AND coalesce(p.extrapolation_spans, 0) <= max_spans
  AND (m.cpu_ms_per_msg + m.cpu_ms_per_msg_half_ulp < p.lower * (1 - floor)
       OR m.cpu_ms_per_msg - m.cpu_ms_per_msg_half_ulp > p.upper * (1 + floor))
