"""The models page: leave-one-size-out accuracy, the fits with their intervals, and sizing."""
from __future__ import annotations

from typing import Any

from ingest.vocabulary import KIB_NAME, size_label
from perfwh.publish.html import Html, chart, note, plain, table, tag

from .common import con, family_of, fitted_log_scale, has, query, source_link

MISSING = ("The model tables (model_fits, model_predictions) are not built in this warehouse: "
           "run `make` (or `perfwh models`) to fit them, then rebuild the site.")


def _pct(value: Any) -> str | None:
    """A percentage of model_accuracy as it keeps it, to the hundredth (rounding its 98.45 of
    98.4496 again would show 98.5)."""
    return None if value is None else f"{float(value):.2f} %"


def _num(value: Any) -> str | None:
    """A fitted parameter to four significant digits (a computed number, not a printed one)."""
    return None if value is None else f"{float(value):.4g}"


# A fitted value or limit smaller than this share of the largest magnitude among it and its
# interval's limits prints as 0: four significant digits of the largest resolve 1e-3 of it at
# best, so a smaller number is zero at the precision the cell shows (a fixed cost the fit drove
# to its bound of 0 comes out as 1.8e-23, beside an upper limit of 0.05).
ZERO_SHARE = 1e-4


def _interval(value: Any, low: Any, high: Any) -> str | None:
    """A fitted parameter and its interval, "value [low, high]", each to four significant digits
    and each 0 where it is zero at the interval's scale (ZERO_SHARE)."""
    if value is None:
        return None
    parts = [value] + ([low, high] if low is not None and high is not None else [])
    scale = max(abs(float(p)) for p in parts)

    def shown(x: Any) -> str:
        return "0" if abs(float(x)) < ZERO_SHARE * scale else _num(x)

    text = shown(value)
    if len(parts) == 3:
        text += f" [{shown(low)}, {shown(high)}]"
    return text


def _scope_link(scope: str) -> Html:
    if scope == "all":
        return Html("<strong>all reports</strong>")
    return source_link(scope, family_of().get(scope))


def summary() -> Html:
    """Leave-one-size-out accuracy per report (model_accuracy)."""
    if not has("model_accuracy"):
        return note(MISSING, "warning")
    rows = query("SELECT * FROM model_accuracy")
    chosen = sorted((r for r in rows if r["model"] == "chosen"), key=lambda r: (r["scope"] == "all", r["scope"]))
    body = [(_scope_link(r["scope"]), r["series"], r["points"], r["excluded_points"], _pct(r["mdape_pct"]),
             _pct(r["p90_ape_pct"]), _pct(r["interpolated_mdape_pct"]), _pct(r["extrapolated_mdape_pct"]),
             _pct(r["inside_90_pct"]), _pct(r.get("inside_99_pct")), _pct(r.get("width_90_pct")),
             _num(r.get("interval_score_90")), _num(r.get("interval_score_99"))) for r in chosen]
    out = [table(["Report", "Series", "Points", "Excluded", "Median abs. error", "90th pct. error",
                  "Median, inside the sizes", "Median, at the ends", "Inside 90 % interval",
                  "Inside 99 % interval", "Median 90 % width", "Interval score 90 %", "Interval score 99 %"], body,
                 numeric=[False] + [True] * 12,
                 caption="Leave-one-size-out accuracy of CPU ms per message: each point predicted by its "
                         "series' line of the other sizes, corrected by what the report's series of the same "
                         "test and configuration show at that size. Width: upper minus lower limit as a share "
                         "of the prediction; interval score (Gneiting & Raftery) on log cost, lower is better.")]
    by = {(r["scope"], r["model"]): r for r in rows}
    lin, pw = by.get(("all", "linear")), by.get(("all", "power"))
    if lin and pw and lin["mdape_pct"] is not None and pw["mdape_pct"] is not None:
        out.append(tag("p", f"Over all reports, each series' own line of its other sizes alone has a median "
                            f"error of {lin['mdape_pct']:.1f} % and its power law alone {pw['mdape_pct']:.1f} %: a "
                            "single power of size cannot bend from a flat fixed cost into a slope per "
                            f"{KIB_NAME}."))
    return Html("".join(out))


def fits() -> Html:
    if not has("model_fits"):
        return note("model_fits is not built in this warehouse.", "warning")
    rows = query("SELECT * FROM model_fits ORDER BY series_label, series_id")
    body = [(str(r["series_id"]), r["series_label"], r["model"], r["sizes"],
             f"{size_label(r['min_size_bytes'])} to {size_label(r['max_size_bytes'])}",
             _interval(r["fixed_ms"], r.get("fixed_ms_lower_95"), r.get("fixed_ms_upper_95")),
             _interval(r["ms_per_kb"], r.get("ms_per_kb_lower_95"), r.get("ms_per_kb_upper_95")),
             _interval(r["ms_at_1kb"], r.get("ms_at_1kb_lower_95"), r.get("ms_at_1kb_upper_95")),
             _interval(r["exponent"], r.get("exponent_lower_95"), r.get("exponent_upper_95")),
             _pct(r["loso_mdape_pct"]), r.get("excluded_points"))
            for r in rows]
    return table(["#", "Series", "Model", "Sizes", "Size range", "Linear: fixed ms [95 %]",
                  f"Linear: ms per {KIB_NAME} [95 %]", f"Power: ms at 1 {KIB_NAME} [95 %]", "Power: exponent [95 %]",
                  "LOSO median error", "Excluded points"],
                 body, numeric=[True, False, False, True, False, True, True, True, True, True, True],
                 class_="data fits", caption=f"{len(rows)} fitted series; every prediction starts from the "
                                             "line, the power law is shown for comparison.")


def unfitted() -> Html:
    if not has("model_unfitted"):
        return Html("")
    rows = query("SELECT * FROM model_unfitted ORDER BY series_label, reason")
    if not rows:
        return Html("")
    return Html(tag("p", f"{len(rows)} series with three or more sizes were not fitted: data-quality errors "
                         "left fewer than three usable sizes.")
                + table(["Series", "Sizes", "Usable sizes", "Why"],
                        [(r["series_label"], r["sizes"], r["usable_sizes"], r["reason"]) for r in rows],
                        numeric=[False, True, True, False], class_="data unfitted"))


# What the series drop-down adds to a series `perfwh size` refuses.
REFUSED_MARK = " (refused by perfwh size)"


def _refused_by_size(series_ids: set[int]) -> set[int]:
    """The series `perfwh size` refuses without --allow-flagged (models.sizing.series_flags)."""
    from models.sizing import series_flags

    fits = [r for r in query("SELECT * FROM model_fits ORDER BY series_id") if r["series_id"] in series_ids]
    return {series_id for series_id, flags in series_flags(con(), fits).items() if flags.errors}


def _predictions() -> list[dict]:
    return query("""
        SELECT p.series_id, p.source, p.source_line, p.message_size_bytes AS size, p.model,
               p.observed_cpu_ms_per_msg AS observed, m.cpu_ms_per_msg_printed AS observed_printed,
               p.predicted_cpu_ms_per_msg AS predicted, p.lower_90 AS lower, p.upper_90 AS upper,
               f.series_label AS label, p.excluded
        FROM model_predictions p
        LEFT JOIN model_fits f USING (series_id)
        LEFT JOIN measurements m USING (measurement_id)
        WHERE p.predicted_cpu_ms_per_msg > 0 AND p.observed_cpu_ms_per_msg > 0
        ORDER BY f.series_label, p.series_id, size, p.source_line, p.measurement_id""")


def _log_domain(values: list[float]) -> list[float]:
    lo, hi = min(values), max(values)
    return [lo / 1.5, hi * 1.5]


def accuracy_chart() -> Html:
    import altair as alt

    if not has("model_predictions"):
        return note(MISSING, "warning")
    rows = [r for r in _predictions() if not r["excluded"]]
    if not rows:
        return note("model_predictions holds no prediction.", "warning")
    data = [{"label": r["label"], "report": family_of().get(r["source"], r["source"]),
             "model": r["model"], "size": size_label(r["size"]), "observed": plain(r["observed"]),
             "observed_printed": r["observed_printed"], "predicted": plain(r["predicted"]),
             "lower": plain(r["lower"]), "upper": plain(r["upper"]),
             "where": f"{r['source']}:{r['source_line']}"} for r in rows]
    # the axes span the observed and predicted costs; an interval reaching beyond is clipped
    domain = _log_domain([d["observed"] for d in data] + [d["predicted"] for d in data])
    scale = alt.Scale(type="log", domain=domain, nice=False)
    base = alt.Chart(alt.Data(values=data))
    bars = (base.transform_filter("isValid(datum.lower) && isValid(datum.upper) && datum.lower > 0")
            .mark_rule(opacity=0.35, clip=True)
            .encode(x=alt.X("observed:Q", scale=scale), y=alt.Y("lower:Q", scale=scale), y2="upper:Q",
                    color=alt.Color("report:N", title="Report")))
    points = base.mark_point(filled=True, size=40, clip=True).encode(
        x=alt.X("observed:Q", scale=scale, title="Observed CPU ms per message (log)"),
        y=alt.Y("predicted:Q", scale=scale, title="Predicted without this size (log)"),
        color=alt.Color("report:N", title="Report"),
        tooltip=[alt.Tooltip("label:N", title="series"), "size:N",
                 alt.Tooltip("observed_printed:N", title="observed (printed)"),
                 alt.Tooltip("predicted:Q", format=".4g"),
                 alt.Tooltip("lower:Q", format=".4g", title="90 % low"),
                 alt.Tooltip("upper:Q", format=".4g", title="90 % high"), alt.Tooltip("where:N", title="source line")])
    diag = alt.Chart(alt.Data(values=[{"v": domain[0]}, {"v": domain[1]}])).mark_line(
        color="#888", strokeDash=[4, 3]).encode(x=alt.X("v:Q", scale=scale), y=alt.Y("v:Q", scale=scale))
    return chart(alt.layer(diag, bars, points).properties(width="container", height=420), "model-accuracy",
                 "Each point is predicted without its size - its series' line of the other sizes, corrected by "
                 "what the report's series of the same test and configuration show there; vertical bars are the "
                 "90 % intervals; dashed: a perfect prediction.")


# A band or bar reaching further than this factor beyond a series' measured costs is cut there:
# the chart's axis follows its data, and one wide interval would squash every other series.
CLAMP = 3.0


def _fit_curves(labels: dict[int, str], steps: int = 24) -> list[dict]:
    """Each series' predictive curve (models.curves, what `perfwh size` answers) between its
    smallest and largest measured size, with its 90 % band cut to the chart (CLAMP)."""
    from models.curves import curve

    observed = {}
    for r in _predictions():
        lo, hi = observed.get(r["series_id"], (r["observed"], r["observed"]))
        observed[r["series_id"]] = (min(lo, r["observed"]), max(hi, r["observed"]))
    out = []
    for f in query("SELECT series_id FROM model_fits ORDER BY series_label, series_id"):
        sid = f["series_id"]
        if sid not in labels or sid not in observed:
            continue
        floor, ceiling = observed[sid][0] / CLAMP, observed[sid][1] * CLAMP
        for p in curve(con(), sid, points=steps + 1):
            out.append({"series": labels[sid], "size": plain(p["message_size_bytes"]),
                        "cost": plain(p["predicted_cpu_ms_per_msg"]),
                        "low": None if p["lower"] is None else plain(max(p["lower"], floor)),
                        "high": None if p["upper"] is None else plain(min(p["upper"], ceiling))})
    return out


def sizing_chart() -> Html:
    """Cores needed for a target rate against message size, for one series at a time."""
    import altair as alt

    if not has("model_predictions") or not has("model_fits"):
        return note(MISSING, "warning")
    rows = [r for r in _predictions() if r["size"] is not None]
    if not rows:
        return note("model_predictions holds no prediction.", "warning")
    refused = _refused_by_size({r["series_id"] for r in rows})
    labels = {r["series_id"]: r["label"] + (REFUSED_MARK if r["series_id"] in refused else "") for r in rows}
    span = {}
    for r in rows:
        lo, hi = span.get(r["series_id"], (r["observed"], r["observed"]))
        span[r["series_id"]] = (min(lo, r["observed"]), max(hi, r["observed"]))

    def clamp(value, series_id, bound):
        if value is None:
            return None
        lo, hi = span[series_id]
        return plain(max(value, lo / CLAMP) if bound == "low" else min(value, hi * CLAMP))

    points = [{"series": labels[r["series_id"]], "size": plain(r["size"]), "size_label": size_label(r["size"]),
               "observed": plain(r["observed"]), "observed_printed": r["observed_printed"],
               "predicted": plain(r["predicted"]), "lower": clamp(r["lower"], r["series_id"], "low"),
               "upper": clamp(r["upper"], r["series_id"], "high"),
               "point": "excluded (data-quality error)" if r["excluded"] else "measured",
               "where": f"{r['source']}:{r['source_line']}"} for r in rows]
    curves = _fit_curves(labels)
    series = sorted(set(labels.values()))
    p_series = alt.param(name="s_series", value=series[0], bind=alt.binding_select(options=series, name="Series "))
    p_rate = alt.param(name="s_rate", value=500, bind=alt.binding_range(min=10, max=20000, step=10,
                                                                         name="Target msgs/s "))
    p_util = alt.param(name="s_util", value=0.8, bind=alt.binding_range(min=0.3, max=1.0, step=0.05,
                                                                         name="CPU utilisation "))
    x = alt.X("size:Q", scale=fitted_log_scale(), title="Message size (bytes, log)", axis=alt.Axis(format="~s"))
    y_title = "Cores needed"
    pts = (alt.Chart(alt.Data(values=points)).transform_filter("datum.series == s_series")
           .transform_calculate(cores="s_rate * datum.observed / 1000 / s_util",
                                cores_pred="s_rate * datum.predicted / 1000 / s_util",
                                cores_low="s_rate * datum.lower / 1000 / s_util",
                                cores_high="s_rate * datum.upper / 1000 / s_util"))
    interval = pts.mark_rule(strokeWidth=3, opacity=0.35, color="#0f62fe").encode(
        x=x, y=alt.Y("cores_low:Q", title=y_title), y2="cores_high:Q")
    observed = pts.mark_point(filled=True, size=70).encode(
        x=x, y=alt.Y("cores:Q", title=y_title),
        shape=alt.Shape("point:N", title=None, scale=alt.Scale(domain=["measured", "excluded (data-quality error)"],
                                                               range=["circle", "cross"])),
        color=alt.value("#161b26"),
        tooltip=[alt.Tooltip("size_label:N", title="size"),
                 alt.Tooltip("observed_printed:N", title="CPU ms/msg (printed)"),
                 alt.Tooltip("cores:Q", format=".2f", title="cores (measured cost)"),
                 alt.Tooltip("cores_pred:Q", format=".2f", title="cores (predicted without this size)"),
                 alt.Tooltip("cores_low:Q", format=".2f", title="90 % low"),
                 alt.Tooltip("cores_high:Q", format=".2f", title="90 % high"),
                 alt.Tooltip("point:N"), alt.Tooltip("where:N", title="source line")])
    layers = [interval, observed]
    if curves:
        along = (alt.Chart(alt.Data(values=curves)).transform_filter("datum.series == s_series")
                 .transform_calculate(cores="s_rate * datum.cost / 1000 / s_util",
                                      cores_low="s_rate * datum.low / 1000 / s_util",
                                      cores_high="s_rate * datum.high / 1000 / s_util"))
        band = along.transform_filter("isValid(datum.low) && isValid(datum.high)").mark_area(
            opacity=0.15, color="#0f62fe").encode(x=x, y=alt.Y("cores_low:Q", title=y_title), y2="cores_high:Q")
        line = along.mark_line(color="#0f62fe").encode(x=x, y=alt.Y("cores:Q", title=y_title))
        layers[:0] = [band, line]
    return chart(alt.layer(*layers).add_params(p_series, p_rate, p_util).properties(width="container", height=340),
                 "sizing", "Cores = target rate x CPU ms per message / 1000 / utilisation. Line and band: what "
                           "`perfwh size` answers over the measured sizes, with its 90 % interval; dots: the measured "
                           "costs; bars: the 90 % interval of each leave-one-size-out prediction (bands and bars are "
                           "cut at three times beyond the series' measured costs)."
                 + (f" A series marked “{REFUSED_MARK.strip()}” has error findings on its costs or rates, or on "
                    "its platform's in its report: `perfwh size` refuses it without --allow-flagged, and its "
                    "line here rests on the points left after those findings' points were left out "
                    f"({len(refused)} of {len(series)} series)." if refused else ""))
