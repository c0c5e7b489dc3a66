"""`perfwh size`: cores needed for a message rate at a message size, with 90 % and 99 % intervals.

The answer comes from one fitted series (model_fits): its chosen model, refitted from the
series' usable points in model_predictions (the same points and the same code as
`perfwh models`), predicts the CPU ms per message at the size with a 90 % prediction
interval; cores = rate x ms / 1000 / utilisation, for each end of the interval too.

Matching (all case-insensitive): the scenario by exact name, or, when no name is equal, by
substring; product exactly; version by leading components ("11" matches 11.0.0.4, not 110);
platform, configuration and report by substring. More than one matching series is reported
with each one's answer, never resolved silently; no matching series is reported with the
series that exist but could not be fitted, and with similar scenario names.

Findings are respected: a series with error findings on its costs or rates (its points left
out of the fit), or measured on a platform whose costs carry error findings on more than a
quarter of its rows (a systematic problem, e.g. ACE 11's Windows CPU accounting), is refused
unless the question allows flagged series (--allow-flagged); the warning findings on the
series used are named in the answer's warnings.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

import duckdb

from ingest.printable import OneLineMessage
from ingest.vocabulary import size_label

from .tables import SERIES_KEYS, config_label, finding_text, findings_on_rows, has_table, query
from .spec import NARROW_LEVEL, UNCALIBRATED_TEXT, WIDE_LEVEL

LEVEL = NARROW_LEVEL  # the interval an answer leads with; the levels live in models.spec
DEFAULT_UTILISATION = 0.8
# A utilisation below this is more likely a slip (0.8% for 80 %) than a plan: the answer says so.
LOW_UTILISATION = 0.1
POOR_ACCURACY_PCT = 20.0
# A 90 % interval whose upper limit is more than this many times its lower one says nothing a
# planner can use (ACE 13's MQ Routing Cache, one T-shirt whose costs scatter, spans 12.5-fold
# at 2 KB; JSON Parse, whose 2 MB cost jumps 280-fold from 200 KB, spanned seven orders of
# magnitude there before its line shared its T-shirts' shape): the answer says so beside the numbers.
UNINFORMATIVE_RATIO = 10.0
# An answer of more than this many times the cores a series was measured on (its capacity, or
# where that is not printed the most its rate x CPU cost kept busy) rests on the linear-scaling
# assumption alone, far beyond anything the report measured: the answer says so.
BEYOND_MEASURED_SCALE = 10.0
# A platform of a report with error findings on the costs or rates of more than this share of
# its rows has a systematic problem: its series are refused even where their own points
# escaped the findings.
SYSTEMATIC_SHARE = 0.25


class SizingError(OneLineMessage, RuntimeError):
    """The question cannot be asked of this warehouse (bad size, no model tables ...).
    ``status``: 2 for bad input, 1 for a warehouse without models."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


@dataclass
class SizeQuery:
    scenario: str
    size: str
    rate: float
    product: str | None = None
    version: str | None = None
    platform: str | None = None
    config: str | None = None
    persistent: bool | None = None
    report: str | None = None
    cores: int | None = None
    utilisation: float = DEFAULT_UTILISATION
    allow_flagged: bool = False


def parse_size(text: str) -> int:
    """Message size in bytes through the project's unit table (1k = 1024)."""
    from ingest.records import ParseError
    from ingest.units import UNITS, quantity
    from ingest.vocabulary import MAX_MESSAGE_BYTES

    if text.strip().startswith("-"):
        raise SizingError(f"--size {text!r}: a message size is positive (from 1 byte to 1 GiB)")
    exponent = _EXPONENT.fullmatch(text)
    if exponent and Decimal(exponent["number"]).adjusted() > _MAX_DIGITS:
        raise SizingError(f"--size {text!r}: out of range: a message size is from 1 byte to "
                          f"{MAX_MESSAGE_BYTES // 1024 ** 2}MB (1 GiB)")
    # 1e5, 1e5B, 1.5e3 KB, 1e-3: a number as a calculator writes it
    plain = format(Decimal(exponent["number"]), "f") + exponent["unit"] if exponent else text
    try:
        q = quantity(plain, "size")
    except ParseError as err:
        units = ", ".join(t for t in UNITS["size"] if t)
        # a calculator's number is valid, so only its unit can fail: named as the user wrote it
        message = f"unknown unit {exponent['unit'].strip()!r} in {text.strip()!r}" if exponent else err.message
        raise SizingError(f"--size {text!r}: {message} (expected a number of bytes, or a number "
                          f"with a unit: {units}, e.g. 64KB or 2MB; 1k = 1024)") from None
    value = Decimal(q.number) * Decimal(UNITS["size"][q.unit][1])
    if not 1 <= value <= MAX_MESSAGE_BYTES:
        raise SizingError(f"--size {text!r}: {size_label(float(value))} is out of range: a "
                          f"message size is from 1 byte to {MAX_MESSAGE_BYTES // 1024 ** 2}MB (1 GiB)")
    if Decimal(UNITS["size"][q.unit][1]) == 1 and value != value.to_integral_value():
        raise SizingError(f"--size {text!r}: a message is a whole number of bytes (a size with a "
                          "unit may have decimals, e.g. 1.5KB)")
    return int(value.to_integral_value())


_EXPONENT = re.compile(r"\s*(?P<number>\d+(?:\.\d+)?[eE][+-]?\d+)(?P<unit>\s*[A-Za-z]*)\s*")
# A calculator's number with more digits than this before its point is out of range whatever
# its unit (1e400 is not written out to 401 digits first).
_MAX_DIGITS = 30


def version_matches(version: str | None, wanted: str) -> bool:
    if version is None:
        return False
    have = version.lower().split(".")
    want = wanted.lower().strip().split(".")
    return have[:len(want)] == want


def _matches(row: dict, q: SizeQuery) -> bool:
    """Every filter but the scenario."""
    if q.product and row["product"].lower() != q.product.strip().lower():
        return False
    if q.version and not version_matches(row["product_version"], q.version):
        return False
    if q.platform and q.platform.strip().lower() not in row["platform"].lower():
        return False
    if q.config and q.config.strip().lower() not in config_label(row).lower():
        return False
    if q.persistent is not None and row["persistent"] is not q.persistent:
        return False
    if q.report and q.report.strip().lower() not in row["source"].lower():
        return False
    if q.cores is not None and row["server_cores"] != q.cores:
        return False
    return True


def _exactly_named_first(matched: list[dict], blocked: list[dict], q: SizeQuery) -> tuple[list, list]:
    """The series whose configuration and platform are the ones asked for, where some are:
    --config and --platform match a part of a name, so 'T-shirt Large (2 CPU)' matches its
    series of 2 replicas too ('T-shirt Large (2 CPU), 2 replicas'), and naming one in full
    must choose it."""
    for asked, name in ((q.config, config_label), (q.platform, lambda r: r["platform"])):
        wanted = asked.strip().lower() if asked else None
        if wanted and any(name(r).lower() == wanted for r in matched + blocked):
            matched = [r for r in matched if name(r).lower() == wanted]
            blocked = [r for r in blocked if name(r).lower() == wanted]
    return matched, blocked


def _scenario_names(all_names: set[str], wanted: str) -> set[str]:
    w = wanted.strip().lower()
    exact = {n.lower() for n in all_names if n.lower() == w}
    return exact or {n.lower() for n in all_names if w in n.lower()}


def _rows(con, sql: str, params=None) -> list[dict]:
    result = con.execute(sql, params) if params is not None else con.execute(sql)
    names = [d[0] for d in result.description]
    return [dict(zip(names, r)) for r in result.fetchall()]


def _series_summary(row: dict) -> dict:
    return {"series_id": row.get("series_id"), "series_label": row["series_label"],
            **{k: row[k] for k in SERIES_KEYS}}


def _hardware(con, source: str, platform: str, cores: int | None) -> str | None:
    """The hardware of the series' platform: of the report's platforms of that name, the one
    with the series' own server cores (a lab's file may name 8- and 16-core machines alike)."""
    found = query(con, """
        SELECT pl.hardware, pl.cpu_model, pl.cores, pl.deployment, pl.note
        FROM dim_platform pl JOIN dim_report r USING (report_id)
        WHERE r.source = ? AND pl.platform = ?
        ORDER BY pl.cores IS NOT DISTINCT FROM ? DESC, pl.platform_key""", [source, platform, cores])
    if not found:
        return None
    hardware, cpu, cores, deployment, note = found[0]
    text = ", ".join(x for x in (hardware, cpu, f"{cores} cores" if cores else None, deployment) if x)
    return text + (f" ({note})" if note else "")


def estimate(con, fit_row: dict, size_bytes: int, rate: float, utilisation: float) -> dict:
    """The answer of one series: its predictive curve at the size, converted to cores."""
    from .curves import SeriesCurve

    series = SeriesCurve(con, fit_row["series_id"], fit_row)
    centre, lower, upper = series.at([size_bytes], LEVEL)
    _c, lower_wide, upper_wide = series.at([size_bytes], WIDE_LEVEL)  # the headroom a planner adds
    ms = float(centre[0])
    lo = None if lower is None else float(lower[0])
    hi = None if upper is None else float(upper[0])
    lo_wide = None if lower_wide is None else float(lower_wide[0])
    hi_wide = None if upper_wide is None else float(upper_wide[0])

    def cores(v):
        return None if v is None else rate * v / 1000.0 / utilisation

    a, b = series.line.params
    formula = f"cpu_ms = {a:.4g} + {b:.4g} x KiB"
    return {"cores": cores(ms), "cores_low": cores(lo), "cores_high": cores(hi),
            "cores_low_99": cores(lo_wide), "cores_high_99": cores(hi_wide),
            "cores_busy": rate * ms / 1000.0, "cpu_ms_per_msg": ms, "cpu_ms_per_msg_low": lo,
            "cpu_ms_per_msg_high": hi, "cpu_ms_per_msg_low_99": lo_wide, "cpu_ms_per_msg_high_99": hi_wide, "model": series.row["model"], "model_formula": formula,
            "measured_sizes": [int(s) for s in series.line.sizes]}


def _wide_interval(answer: dict, size_bytes: int) -> list[str]:
    """The warning for an interval too wide to plan with (UNINFORMATIVE_RATIO from its lower limit
    to its upper): the 90 % one, else the 99 % one - the headroom a planner would add."""
    why = {LEVEL: f"the series' other sizes do not tell its cost at {size_label(size_bytes)}",
           WIDE_LEVEL: "too wide to plan headroom by"}
    for level, suffix in ((LEVEL, ""), (WIDE_LEVEL, "_99")):
        low, high = answer[f"cpu_ms_per_msg_low{suffix}"], answer[f"cpu_ms_per_msg_high{suffix}"]
        if low and high and high > UNINFORMATIVE_RATIO * low:
            return [f"the {level * 100:.0f} % interval spans {high / low:.3g} times its lower limit "
                    f"({low:.3g} to {high:.3g} ms): {why[level]}; read the points it rests on, not the interval"]
    return []


def basis(con, fit_row: dict, size_bytes: int) -> dict:
    """What an answer rests on: the series' points (used and left out, with why), the model and
    the interval's method and calibration - for the answer's "basis" and its text."""
    from .spec import CALIBRATED, INTERVAL_METHOD

    points = _rows(con, """
        SELECT p.message_size_bytes AS size_bytes, p.observed_cpu_ms_per_msg AS cpu_ms_per_msg,
               m.cpu_ms_per_msg_printed AS printed, p.source, p.source_line,
               p.predicted_cpu_ms_per_msg AS predicted_without_its_size, p.lower_90, p.upper_90,
               p.excluded, p.excluded_reason
        FROM model_predictions p LEFT JOIN measurements m USING (measurement_id)
        WHERE p.series_id = ? ORDER BY p.message_size_bytes, p.source_line""", [fit_row["series_id"]])
    used = [p for p in points if not p["excluded"]]
    left_out = [{k: p[k] for k in ("size_bytes", "printed", "source", "source_line", "excluded_reason")}
                for p in points if p["excluded"]]
    sizes = sorted({p["size_bytes"] for p in used})
    where = ("at a measured size: the measurement there weighed against the prediction of that size by "
             "the series' other sizes (the posterior median: the prediction the prior, the measurement "
             "scattering by its test's spread), the interval at least as wide as that prediction's, "
             "wider where a rerun strays further"
             if size_bytes in sizes else
             "between measured sizes: the series' line, corrected as at the neighbouring measured sizes"
             if sizes[0] < size_bytes < sizes[-1] else
             "beyond the measured sizes: the series' line extended, times its correction at the nearest "
             "measured size (what the report's series of the same test and configuration share there), "
             "the interval widened by the line's own uncertainty, which in the log of the cost grows little "
             "where the cost per KB dominates: that the cost stays on that line beyond is not measured")
    return {
        "series_id": fit_row["series_id"], "series_label": fit_row["series_label"],
        "points": _distinct_points(used),
        "left_out": left_out,
        "model": ("the series' line (fixed cost + cost per KB) fitted to its usable points, corrected "
                  "by what the report's series of the same test and configuration share"),
        "prediction": where,
        "leave_one_size_out_median_error_pct": fit_row["loso_mdape_pct"],
        "interval_method": INTERVAL_METHOD.format(
            calibration=CALIBRATED if fit_row["calibration_scores"] else UNCALIBRATED_TEXT),
        "calibration": {"t_scale": fit_row["interval_scale"], "t_df": fit_row["interval_df"],
                        "scores": fit_row["calibration_scores"],
                        "test_spread_sd_log": fit_row["spread_sd_log"]},
    }


@dataclass
class Flags:
    """What the findings say about one series: errors (refusal) and warnings, one line each."""
    errors: list[str]
    warnings: list[str]


def series_flags(con: duckdb.DuckDBPyConnection, fits: list[dict]) -> dict[int, Flags]:
    """series_id -> the findings on its measurements, and a systematic problem of its
    platform in its report."""
    found = findings_on_rows(con)
    members: dict[int, list[int]] = {}
    for series_id, mid in query(con, "SELECT series_id, measurement_id FROM model_predictions "
                                     "ORDER BY series_id, message_size_bytes, source_line"):
        members.setdefault(series_id, []).append(mid)
    flagged_rows = {mid for mid, fs in found.items() if any(f["severity"] == "error" for f in fs)}
    share = {}
    for source, platform, rows, flagged in query(con, """
            SELECT source, platform, count(*), count(*) FILTER (WHERE list_contains(?, measurement_id))
            FROM measurements WHERE cpu_ms_per_msg IS NOT NULL GROUP BY ALL""", [sorted(flagged_rows)]):
        share[(source, platform)] = (flagged, rows)
    out = {}
    for row in fits:
        mine = [f for mid in members.get(row["series_id"], []) for f in found.get(mid, [])]
        errors = [f"line {f['source_line']}: {finding_text(f)}" for f in mine if f["severity"] == "error"]
        flagged, rows = share.get((row["source"], row["platform"]), (0, 0))
        if rows and flagged > SYSTEMATIC_SHARE * rows:
            errors.append(f"{flagged} of the {rows} rows measured on {row['platform']} in "
                          f"{row['source']} have error findings on their costs or rates: a "
                          "systematic problem of that platform's measurements")
        warnings = [f"line {f['source_line']}: {finding_text(f)}" for f in mine
                    if f["severity"] == "warning"]
        out[row["series_id"]] = Flags(errors, warnings)
    return out


# msgs/s: one message in 11.6 days. A smaller rate is no plan, and far below it the cores
# needed underflow to 0.
MIN_RATE = 1e-6


def _refuse_long_names(q: SizeQuery) -> None:
    """A name no series can have (the vocabulary's limit) is a mistyped argument, not a search."""
    from ingest.vocabulary import MAX_NAME_LENGTH

    for flag in ("scenario", "product", "version", "platform", "config", "report"):
        text = getattr(q, flag)
        if text is not None and len(text) > MAX_NAME_LENGTH:
            raise SizingError(f"--{flag} is {len(text)} characters long: no series has such a name "
                              f"(names are at most {MAX_NAME_LENGTH} characters)")


def percent(fraction: float) -> str:
    """A utilisation as a percentage to three significant digits (80%, 0.5%), never a bare 0%."""
    return f"{fraction * 100:.3g}%"


def empty_answer() -> dict:
    """The shape of every answer --json prints, and of every refusal: `error` and `status`
    (None and 0 for an answer; the reason and 1 where no series answers, 2 where the question
    cannot be asked), then the answer's keys - null, or an empty list where they list."""
    return {"error": None, "status": 0, "query": None, "utilisation": None, "interval": LEVEL,
            "cores": None, "cores_low": None, "cores_high": None, "cores_low_99": None, "cores_high_99": None,
            "cores_busy": None, "cpu_ms_per_msg": None, "cpu_ms_per_msg_low": None, "cpu_ms_per_msg_high": None,
            "cpu_ms_per_msg_low_99": None, "cpu_ms_per_msg_high_99": None,
            "series_id": None, "series_label": None, "series": None, "model": None,
            "model_formula": None, "measured_sizes": [], "hardware": None, "basis": None,
            "assumptions": [], "warnings": [], "candidates": [], "refused": []}


def size(con: duckdb.DuckDBPyConnection, q: SizeQuery) -> dict:
    """Answer a sizing question; the dict is what --json prints (`empty_answer`'s keys): with
    no series to answer from, status 1 and the first warning as its error."""
    answer = _answer(con, q)
    if answer["cores"] is None:
        answer["status"] = 1
        answer["error"] = "perfwh size: " + (answer["warnings"][0] if answer["warnings"] else "no answer")
    return answer


def _answer(con: duckdb.DuckDBPyConnection, q: SizeQuery) -> dict:
    if not q.scenario.strip():
        raise SizingError("--scenario '': give a scenario's name (or part of it), e.g. 'JSON Parse'")
    _refuse_long_names(q)
    if not q.rate >= MIN_RATE:
        raise SizingError(f"--rate {q.rate:g}: the message rate must be at least {MIN_RATE:g} msgs/s")
    if not 0 < q.utilisation <= 1:
        raise SizingError(f"--utilisation {q.utilisation}: give a fraction in (0, 1], e.g. 0.8")
    size_bytes = parse_size(q.size)
    if not has_table(con, "model_fits"):
        raise SizingError("this warehouse has no model_fits table: run `perfwh models` "
                          "(or `make models`) first", status=1)
    fits = _rows(con, "SELECT * FROM model_fits ORDER BY series_id")
    unfitted = (_rows(con, "SELECT * FROM model_unfitted ORDER BY series_label")
                if has_table(con, "model_unfitted") else [])
    all_names = {r["scenario"] for r in fits + unfitted}
    pool = [r for r in fits + unfitted if _matches(r, q)]
    # exact scenario names first, among the series the other filters leave
    names = _scenario_names({r["scenario"] for r in pool}, q.scenario)
    matched = [r for r in fits if r["scenario"].lower() in names and _matches(r, q)]
    blocked = [r for r in unfitted if r["scenario"].lower() in names and _matches(r, q)]
    matched, blocked = _exactly_named_first(matched, blocked, q)
    answer = empty_answer() | {
        "query": {"scenario": q.scenario, "size": q.size, "size_bytes": size_bytes, "rate": q.rate,
                  "product": q.product, "version": q.version, "platform": q.platform,
                  "config": q.config, "persistent": q.persistent, "report": q.report,
                  "cores": q.cores},
        "utilisation": q.utilisation,
        "assumptions": [
            f"the cores run at {percent(q.utilisation)} utilisation (--utilisation); cores_busy is the CPU time at 100 %",
            "CPU cost per message stays as measured when cores are added (linear scaling)",
            "cores are cores of the measured platform (see hardware)"],
    }
    warnings = answer["warnings"]
    for r in blocked:
        warnings.append(f"a matching series was not fitted: {r['series_label']}: {r['reason']}")
    flags = series_flags(con, matched)
    refused = [] if q.allow_flagged else [r for r in matched if flags[r["series_id"]].errors]
    for r in refused:
        warnings.append(f"refused series {r['series_id']} ({r['series_label']}): error findings on "
                        "its costs (pass --allow-flagged to answer from its usable points): "
                        + " | ".join(flags[r["series_id"]].errors))
    matched = [r for r in matched if r not in refused]
    answer["refused"] = [_series_summary(r) for r in refused]
    if not matched and refused:
        warnings.insert(0, f"every matching series has error findings on its costs ({len(refused)} "
                        "refused): no answer without --allow-flagged")
        return answer
    if not matched:
        if not _scenario_names(all_names, q.scenario):
            warnings.insert(0, _no_scenario(con, q.scenario, all_names))
        else:
            given = [_asked_text(option, getattr(q, field_name)) for option, _column, field_name in _FILTERS
                     if getattr(q, field_name) is not None]
            # a series that matches every option but was not fitted says why below; the options
            # are then not what is wrong
            why = (f"; {len(blocked)} series match{'es' if len(blocked) == 1 else ''} them all but "
                   f"{'was' if len(blocked) == 1 else 'were'} not fitted (below)" if blocked else
                   _why_none(fits + unfitted, _scenario_names(all_names, q.scenario), q))
            warnings.insert(0, "no fitted series matches the scenario "
                            f"{q.scenario!r} with {' '.join(given) or 'no other option'}: no answer"
                            + why)
        return answer
    for row in matched:
        candidate = {**_series_summary(row), "model": row["model"],
                     "min_size_bytes": row["min_size_bytes"], "max_size_bytes": row["max_size_bytes"]}
        candidate.update({k: v for k, v in estimate(con, row, size_bytes, q.rate, q.utilisation).items()
                          if k in ("cores", "cores_low", "cores_high", "cpu_ms_per_msg")})
        answer["candidates"].append(candidate)
    if len(matched) > 1:
        differ = [k for k in SERIES_KEYS if len({repr(r[k]) for r in matched}) > 1]
        workloads = _workloads_differ(matched, differ)
        if not set(differ) <= CAPACITY_KEYS or workloads:
            labels = ", ".join(sorted({config_label(r) for r in matched}))
            what = (f"measured with different work per message - {labels} - not capacities of one workload"
                    if workloads else f"they differ in {', '.join(differ)}")
            warnings.insert(0, f"ambiguous: {len(matched)} series match ({what}); each one's answer is "
                            "under candidates - narrow the question with --product, --version, --platform, "
                            "--cores, --config, --persistent/--non-persistent or --report")
            outside = [c for c in answer["candidates"] if _outside(size_bytes, c)]
            if outside:
                ranges = sorted({(c["min_size_bytes"], c["max_size_bytes"]) for c in outside})
                warnings.append(f"{size_label(size_bytes)} lies outside the measured sizes of "
                                f"{len(outside)} of the {len(matched)} matching series ("
                                + "; ".join(f"{size_label(lo)} to {size_label(hi)}" for lo, hi in ranges)
                                + "): their answers are extrapolations")
            return answer
        # The series differ only in the capacity they were measured with (cores, T-shirt,
        # instances, replicas): the one measured nearest the capacity the answer needs is the
        # most representative; the others stay under candidates.
        row = min(matched, key=lambda r: _capacity_distance(r, answer["candidates"], matched))
        # each capacity has a cost a message of its own (a bigger container may spend less), so
        # the cores needed can step down where a higher rate chooses a bigger one: the others'
        # answers are named, not only listed under candidates
        others = "; ".join(f"{config_label(r)}: {_fmt(c['cores'])} cores ({_fmt(c['cores_low'])} to "
                           f"{_fmt(c['cores_high'])})" for r, c in zip(matched, answer["candidates"])
                           if r is not row)
        warnings.insert(0, f"{len(matched)} series match, measured with different capacity "
                        f"({', '.join(differ)}); used the one nearest the cores needed "
                        f"({row['series_label']}); the others answer {others} (under candidates) - "
                        f"choose one with {' and '.join(sorted({CAPACITY_OPTION[k] for k in differ}))}")
    else:
        row = matched[0]
    answer.update(estimate(con, row, size_bytes, q.rate, q.utilisation))
    used = flags[row["series_id"]]
    if used.errors:
        warnings.append("answered despite error findings on this series' costs (--allow-flagged): "
                        + " | ".join(used.errors))
    if used.warnings:
        warnings.append("warning findings on this series' points: " + " | ".join(used.warnings))
    answer.update({"series_id": row["series_id"], "series_label": row["series_label"],
                   "series": _series_summary(row),
                   "hardware": _hardware(con, row["source"], row["platform"], row["server_cores"]),
                   "basis": basis(con, row, size_bytes)})
    lo, hi = row["min_size_bytes"], row["max_size_bytes"]
    if _outside(size_bytes, row):
        warnings.append(f"{size_label(size_bytes)} lies outside the measured sizes of this series "
                        f"({size_label(lo)} to {size_label(hi)}): extrapolation - the interval assumes "
                        f"the {row['model']} model holds beyond the data")
    if answer["cores_low"] is None:
        warnings.append("no interval: the series is the only one of its report, and nothing but its own "
                        "values could say how far a new measurement of it scatters")
    elif not row["calibration_scores"]:
        warnings.append(f"the interval is {UNCALIBRATED_TEXT}")
    warnings.extend(_wide_interval(answer, size_bytes))
    if row["loso_mdape_pct"] is not None and row["loso_mdape_pct"] > POOR_ACCURACY_PCT:
        warnings.append(f"the model predicts this series' own sizes poorly: leave-one-size-out median "
                        f"error {row['loso_mdape_pct']:.0f} %")
    util = answer["utilisation"]
    if util < LOW_UTILISATION:  # 0.8% for 80 %, 0.01 for 1.0
        warnings.append(f"--utilisation {percent(util)} plans for cores {percent(util)} busy: {1 / util:.3g} x the "
                        "CPU time the rate needs (for 80 % write 0.8 or 80%)")
    cap, implied = row["capacity_cores"], row["implied_cores_max"]
    measured = cap if cap is not None else implied
    if measured and answer["cores_busy"] > BEYOND_MEASURED_SCALE * measured:
        what = "the server or container had" if cap is not None else "the report's rate x CPU cost kept busy"
        warnings.append(f"the answer needs {answer['cores_busy']:.3g} cores of CPU time, "
                        f"{answer['cores_busy'] / measured:.3g} x the {measured:.3g} cores {what} in this series: "
                        "that the CPU cost a message stays as measured at this scale rests on the "
                        "linear-scaling assumption alone")
    if cap is not None and implied is not None and implied > cap * 1.05:
        warnings.append(f"in this series the report's rate x CPU cost keeps up to {implied:.3g} cores busy, "
                        f"more than the {cap:g} cores the server had: the report's CPU cost does not convert "
                        "to cores one to one, so treat the core count as an upper estimate")
    return answer


# The keys of series measured with different capacity (the server's cores, a container's
# limit, a T-shirt, instances, replicas), and the option that chooses among them.
CAPACITY_OPTION = {"server_cores": "--cores", "concurrency_kind": "--config", "concurrency": "--config",
                   "replicas": "--config", "tshirt": "--config", "cpu_limit_cores": "--config"}
CAPACITY_KEYS = set(CAPACITY_OPTION)


# The filters of a sizing question beside the scenario: the option, the series' column it
# reads and the query's field, for saying which of them leaves no series.
_FILTERS = (("--product", "product", "product"), ("--version", "product_version", "version"),
            ("--platform", "platform", "platform"), ("--config", None, "config"),
            ("--persistent/--non-persistent", "persistent", "persistent"), ("--report", "source", "report"),
            ("--cores", "server_cores", "cores"))


def _why_none(rows: list[dict], names: set[str], q: SizeQuery) -> str:
    """Which given filters leave none of the scenario's series, each with the values its series
    have there ("; --product 'ACEE': its series have product ACE, IIB"), or ''."""
    of_scenario = [r for r in rows if r["scenario"].lower() in names]
    asked = [(option, column, f) for option, column, f in _FILTERS if getattr(q, f) is not None]
    unfiltered = SizeQuery(q.scenario, q.size, q.rate)
    said = []
    for option, column, field_name in asked:
        if any(_matches(r, replace(unfiltered, **{field_name: getattr(q, field_name)})) for r in of_scenario):
            continue  # this one alone leaves some: it is the combination
        values = sorted({_filter_value(r, column) for r in of_scenario}, key=_natural)
        shown = ", ".join(values[:8]) + (f" and {len(values) - 8} more" if len(values) > 8 else "")
        said.append(f"{_asked_text(option, getattr(q, field_name))} matches none of its series, "
                    f"which have {shown}" + _CORES_HINT.get(option, ""))
    if not said and len(asked) > 1:
        said.append("each of " + ", ".join(o for o, _c, _f in asked) + " matches some of its series, "
                    "but none matches them all")
    return "; " + "; ".join(said) if said else ""


# --cores is easily taken for a container's CPU limit, which --config chooses.
_CORES_HINT = {"--cores": " (--cores is the machine's cores; a container's CPU limit or T-shirt is "
                          "chosen with --config, e.g. --config 'Docker cores 2')"}


def _filter_value(row: dict, column: str | None) -> str:
    """A series' value of a filter as the option takes it ('not stated' where the report
    does not print it)."""
    if column is None:
        return config_label(row)
    if column == "persistent":
        return "persistent" if row["persistent"] else "non-persistent"
    return "not stated" if row[column] is None else str(row[column])


def _natural(text: str) -> tuple:
    """Sort key: numbers by value (2 before 12), words after them."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def _asked_text(option: str, value) -> str:
    if option.startswith("--persistent"):
        return "--persistent" if value else "--non-persistent"
    return f"{option} {value!r}"


def _no_scenario(con: duckdb.DuckDBPyConnection, wanted: str, modelled: set[str]) -> str:
    """Why a scenario no model knows has no answer: measured without a CPU cost per message
    (nothing to model), or unknown - then the names it may have meant."""
    try:
        measured = {r["scenario"]: r for r in _rows(con, """
            SELECT scenario, string_agg(DISTINCT source, ', ' ORDER BY source) AS sources,
                   count(*) FILTER (WHERE metric = 'cpu_ms_per_msg') AS costs,
                   count(DISTINCT message_size_bytes) FILTER (WHERE metric = 'cpu_ms_per_msg') AS sizes,
                   string_agg(DISTINCT metric, ', ' ORDER BY metric) AS metrics
            FROM metric_values WHERE scenario IS NOT NULL GROUP BY scenario""")}
    except duckdb.CatalogException:  # a warehouse of model tables alone
        measured = {}
    known = _scenario_names(set(measured), wanted)
    if known:
        facts = [measured[n] for n in sorted(measured) if n.lower() in known]
        why = "; ".join(f"{r['scenario']} ({r['sources']}): "
                        + (f"no CPU cost per message is printed for it (only {r['metrics']})" if not r["costs"] else
                           f"{r['costs']} CPU cost(s) at {r['sizes']} message size(s), too few to fit a "
                           "series") for r in facts[:5])
        return f"no model for {wanted!r}: measured, but {why}"
    close = difflib.get_close_matches(wanted, sorted(modelled), n=5, cutoff=0.4)
    return (f"no scenario matches {wanted!r}"
            + (f"; similar: {', '.join(close)}" if close else
               f"; scenarios with models: {', '.join(sorted(modelled))}"))


def _outside(size_bytes: int, series: dict) -> bool:
    """True when the size lies outside the sizes the series was measured at."""
    return not series["min_size_bytes"] <= size_bytes <= series["max_size_bytes"]


def _workloads_differ(matched: list[dict], differ: list[str]) -> bool:
    """True when the series' counts are of work per message (subscribers, destination-list
    entries, fan-out): 1 subscriber and 100 are two workloads, not two capacities of one, and
    no answer is nearer the truth than another."""
    from ingest.vocabulary import CONCURRENCY_KINDS

    kinds = {CONCURRENCY_KINDS.get(r["concurrency_kind"]) for r in matched}
    return ("concurrency" in differ or "concurrency_kind" in differ) and any(
        kind is not None and kind.per_message for kind in kinds)


def _capacity_distance(row: dict, candidates: list[dict], matched: list[dict]) -> tuple:
    """How far a series' measured capacity - the cores it could use: its limit, its server's
    cores, or as many as its flow's threads - is from the cores its own answer needs (log
    ratio); where the capacity is not known, more copies first (closer to saturation)."""
    from ingest.vocabulary import CONCURRENCY_KINDS

    needed = candidates[matched.index(row)].get("cores")
    capacity = row.get("capacity_cores")
    kind = CONCURRENCY_KINDS.get(row.get("concurrency_kind"))
    if kind is not None and kind.threads and row.get("concurrency"):
        # 1, 2, 4 and 8 flow instances on one 8-core server use 1, 2, 4 and 8 cores at most
        capacity = min(capacity or math.inf, row["concurrency"])
    if needed and capacity:
        return (0, abs(math.log(capacity / needed)), row["series_id"])
    return (1, -(row.get("concurrency") or 0), row["series_id"])


def _fmt(v, digits=3) -> str:
    return "n/a" if v is None else f"{v:.{digits}g}"


def render_text(answer: dict) -> str:
    q = answer["query"]
    byte = "byte" if q["size_bytes"] == 1 else "bytes"
    lines = [f"perfwh size: {q['rate']:g} msgs/s of {q['size']} ({q['size_bytes']} {byte}), "
             f"scenario {q['scenario']!r}"]
    if answer["cores"] is not None:
        util = answer["utilisation"]
        lines += [
            f"series {answer['series_id']}: {answer['series_label']}",
            f"model: {answer['model']}, {answer['model_formula']}; fitted on sizes "
            + ", ".join(size_label(s) for s in answer["measured_sizes"]),
            f"CPU cost: {_fmt(answer['cpu_ms_per_msg'])} ms/msg "
            f"(90 % interval {_fmt(answer['cpu_ms_per_msg_low'])} to {_fmt(answer['cpu_ms_per_msg_high'])})",
            f"cores needed: {_fmt(answer['cores'])} (90 % interval {_fmt(answer['cores_low'])} to "
            f"{_fmt(answer['cores_high'])}; 99 % {_fmt(answer['cores_low_99'])} to "
            f"{_fmt(answer['cores_high_99'])}) at {percent(util)} utilisation (--utilisation); "
            f"{_fmt(answer['cores_busy'])} cores of CPU time at 100 %",
            f"hardware: {answer['hardware'] or 'not recorded'}",
        ]
        lines += _basis_lines(answer["basis"])
    for c in answer["candidates"] if answer["cores"] is None else []:
        lines.append(f"  candidate series {c['series_id']}: {c['series_label']}: "
                     f"{_fmt(c['cores'])} cores ({_fmt(c['cores_low'])} to {_fmt(c['cores_high'])})")
    lines += [f"assumes: {a}" for a in answer["assumptions"]] if answer["cores"] is not None else []
    lines += [f"warning: {w}" for w in answer["warnings"]]
    return "\n".join(lines)


def _cost_text(point: dict) -> str:
    """A point's cost as printed, where the print carries its unit (698.06 μs, 3.15 ms); a bare
    number printed in ms gets the unit, in another unit (its table's header) the value in ms
    beside it; the value alone where nothing was printed."""
    printed, ms = point["printed"], point["cpu_ms_per_msg"]
    if not printed:
        return f"{_fmt(ms, 6)} ms"
    if re.search(r"[^\d.,\s+-]", printed):
        return printed
    try:
        same = float(printed.replace(",", "")) == ms
    except ValueError:
        same = False
    return f"{printed} ms" if same else f"{printed} ({_fmt(ms, 6)} ms)"


def _distinct_points(used: list[dict]) -> list[dict]:
    """The series' usable points, one per size and cost, each with every (source, line) printing
    it: a report prints one measurement in several tables (WBIMB 5's Very Complex Compute at one
    instance, in its own table and in the instances table), and the fit counts it once. A point
    keeps its first printing's source and line, and lists all of them under "printings"."""
    out: dict[tuple, dict] = {}
    for p in used:
        point = out.setdefault((p["size_bytes"], p["cpu_ms_per_msg"]), {
            **{k: p[k] for k in ("size_bytes", "printed", "cpu_ms_per_msg", "source", "source_line",
                                 "predicted_without_its_size", "lower_90", "upper_90")},
            "printings": []})
        point["printings"].append({"source": p["source"], "source_line": p["source_line"]})
    return list(out.values())


def _lines_text(printings: list[dict]) -> str:
    lines = [str(p["source_line"]) for p in printings]
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(lines)


def _basis_lines(b: dict | None) -> list[str]:
    """What the answer rests on, in a few lines (the answer's "basis" holds it all)."""
    if not b:
        return []
    points = b["points"]
    used = ", ".join(f"{size_label(p['size_bytes'])} {_cost_text(p)} ({_lines_text(p['printings'])})"
                     for p in points)
    printings = sum(len(p["printings"]) for p in points)
    again = (f" ({printings} printings: the same numbers printed in several tables count once)"
             if len(points) < printings else "")
    lines = [f"rests on: the series' {len(points)} usable points{again}: {used}"]
    lines += [f"left out: {size_label(p['size_bytes'])} {p['printed'] or ''} (line {p['source_line']}): "
              f"{p['excluded_reason']}" for p in b["left_out"]]
    cal = b["calibration"]
    error = b["leave_one_size_out_median_error_pct"]
    lines.append(f"prediction: {b['prediction']}; leave-one-size-out median error of the series "
                 + ("n/a" if error is None else f"{error:.2g} %"))
    calibrated = (f"calibrated on {cal['scores']} leave-one-size-out errors of the report's other series"
                  if cal["scores"] else "not calibrated")
    lines.append(f"interval: Student t on the log scale, scale {_fmt(cal['t_scale'])}, "
                 f"{_fmt(cal['t_df'])} degrees of freedom, {calibrated}; its test's spread "
                 f"{_fmt(cal['test_spread_sd_log'])} (log SD); method: {b['interval_method']}")
    return lines


def size_in(db: Path, q: SizeQuery) -> dict:
    if not Path(db).is_file():
        raise SizingError(f"{db}: no warehouse; run `perfwh build` and `perfwh models` (or `make models`)",
                          status=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        return size(con, q)
    finally:
        con.close()
