"""Fitting every series of the warehouse: the series, their fits, and the model tables.

A *series* is the measurements of one report, product (and version, fix pack), platform,
scenario, persistence and configuration (concurrency kind and value, replicas, T-shirt, CPU
limit) across message sizes: every key of the view ``measurements`` but the size. Series
with at least three usable sizes are fitted (models/fit.py). A measurement is *usable* unless
an error-severity finding of ``dq_findings`` (not waived) is about its cpu_ms_per_msg or
msg_rate, warnings of several band rules (the caller names them) are about its cpu_ms_per_msg,
or its cost is not positive. Excluded points are not fitted but still predicted,
and say why they were left out.

Tables written (documented in schema/dictionary.yml):
- ``model_fits``: one row per fitted series, both curves' parameters with 95 % intervals,
  fit quality, the calibration of its predictive distribution;
- ``model_predictions``: one row per measurement of a fitted series, the leave-one-size-out
  prediction (models.predict) with its 90 % and 99 % intervals, and the rate it implies where
  %CPU is known;
- ``model_accuracy``: errors, coverage, widths and interval scores per report and overall;
- ``model_unfitted``: series with three or more measured sizes that could not be fitted
  because excluded points left fewer than three.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field

import duckdb

from ingest import vocabulary

from .spec import DEPLOYMENT_KEYS, LINEAR, MIN_SIZES, NARROW_LEVEL, POWER, WIDE_LEVEL


def query(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[tuple]:
    """Rows of a query, fetched at once (DuckDB 2.0 keeps no result pending)."""
    return con.sql(sql, params=params).fetchall()


SERIES_KEYS = ("source", "product", "product_version", "fix_pack", "platform", "server_cores",
               "scenario", "persistent", "concurrency_kind", "concurrency", "replicas", "tshirt",
               "cpu_limit_cores") + DEPLOYMENT_KEYS
# A row's series, as SQL groups it and load_series keys it: one replica whether the row says 1
# or leaves replicas blank, as the rules' config_key reads it (the template's "blank if one"); a
# series of both says 1.
SERIES_GROUP_SQL = ", ".join("coalesce(replicas, 1)" if k == "replicas" else k for k in SERIES_KEYS)
_REPLICAS = SERIES_KEYS.index("replicas")
EXCLUDING_METRICS = ("cpu_ms_per_msg", "msg_rate")
TABLES = ("model_fits", "model_predictions", "model_accuracy", "model_unfitted")


@dataclass
class Point:
    measurement_id: int
    source_line: int
    page: int | None
    source_table: str
    size: float
    cost: float
    msg_rate: float | None
    cpu_busy_pct: float | None
    capacity: float | None  # the cores its cost may keep busy (the schema's cores_available)
    excluded_reason: str | None = None

    @property
    def excluded(self) -> bool:
        return self.excluded_reason is not None


@dataclass
class Series:
    key: dict
    points: list[Point] = field(default_factory=list)
    series_id: int | None = None
    result: object = None  # models.predict.SeriesResult once fitted
    # its platform name stands for machines of several core counts in its source (a lab's
    # 2-core and 8-core "lab box"): the label names the cores, or two series would read alike
    names_cores: bool = False

    @property
    def usable(self) -> list[Point]:
        return [p for p in self.points if not p.excluded]

    @property
    def sizes(self) -> list[float]:
        return sorted({p.size for p in self.points})

    @property
    def usable_sizes(self) -> list[float]:
        return sorted({p.size for p in self.usable})

    @property
    def label(self) -> str:
        return series_label(self.key, with_cores=self.names_cores)


def config_label(key: dict) -> str:
    """The series' configuration in the vocabulary's words ('Docker cores 2'; 'requester
    clients 300, HA group, 1 queue manager' where the test's deployment is given)."""
    label = vocabulary.config_label(key.get("concurrency_kind"), key.get("cpu_limit_cores")
                                    if key.get("concurrency_kind") == "tshirt" else key.get("concurrency"),
                                    key.get("replicas"), key.get("tshirt"))
    deployment = vocabulary.topology_label(*(key.get(k) for k in DEPLOYMENT_KEYS))
    return f"{label}, {deployment}" if deployment else label


def persistence_label(persistent) -> str:
    return vocabulary.persistence_label(persistent) or "persistence n/a"


def series_label(key: dict, with_cores: bool = False) -> str:
    version = key["product_version"] + (f" + {key['fix_pack']}" if key.get("fix_pack") else "")
    platform = vocabulary.platform_label(key["platform"], key.get("server_cores"), with_cores)
    return (f"{key['product']} {version} on {platform} | {key['scenario']} | "
            f"{persistence_label(key.get('persistent'))} | {config_label(key)} | {key['source']}")


def series_id_of(key: dict) -> int:
    """A series' id, from its natural key alone (SERIES_KEYS): the same series keeps its id
    whatever is filed beside it, and the same key gives the same id in every warehouse. The
    first 48 bits of the key's SHA-256 - exact in JavaScript too (the site's charts); two of a
    million series would share one with a chance of about 2e-3 %, and `fit_all` refuses it."""
    # the deployment's keys join the text only where set, by name: the series of every report
    # and submission without a deployment keep the ids they had before it was part of the key
    natural = [key.get(k) for k in SERIES_KEYS if k not in DEPLOYMENT_KEYS]
    deployed = [[k, key[k]] for k in DEPLOYMENT_KEYS if key.get(k) is not None]
    text = json.dumps(natural + deployed, ensure_ascii=False, default=str)
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:12], 16)


def _sort_key(key: dict) -> tuple:
    return tuple((0, "") if key[k] is None else (1, key[k]) for k in SERIES_KEYS)


def has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(query(con, "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() "
                         "AND schema_name = 'main' AND table_name = ?", [name]))


def _columns(con, table: str) -> set[str]:
    return {r[0] for r in query(con, "SELECT column_name FROM duckdb_columns() WHERE "
                                   "database_name = current_database() AND table_name = ?", [table])}


def findings_on_rows(con: duckdb.DuckDBPyConnection, severity: str | None = None,
                     sources: list[str] | None = None) -> dict[int, list[dict]]:
    """measurement_id -> the unwaived findings (of ``severity``, default any) about its
    cpu_ms_per_msg or msg_rate, in finding order; of the rows of ``sources`` only, if given. A
    finding names its number by fact_id; one without a fact_id is about every row printed on
    its source line. Empty without dq_findings (a warehouse built with --rules none)."""
    if not has_table(con, "dq_findings"):
        return {}
    cols = _columns(con, "dq_findings")
    waived = "AND f.waiver IS NULL" if "waiver" in cols else ""
    by_fact = ("f.fact_id IN (m.cpu_ms_per_msg_fact_id, m.msg_rate_fact_id) OR "
               "(f.fact_id IS NULL AND " if "fact_id" in cols else "(")
    result = con.sql(f"""
        SELECT m.measurement_id, f.finding_id, f.rule, f.severity, f.metric, f.printed_value,
               f.message, f.source_line
        FROM measurements m
        JOIN dq_findings f
          ON (? IS NULL OR f.severity = ?) {waived}
         AND f.metric IN ('cpu_ms_per_msg', 'msg_rate')
         AND ({by_fact} f.source = m.source AND f.source_line = m.source_line))
        WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL {of_sources(sources)}
        ORDER BY m.measurement_id, f.source_line, f.rule, f.metric, f.message, f.finding_id""",
        params=[severity, severity] + (sources or []))
    out: dict[int, list[dict]] = defaultdict(list)
    for row in result.fetchall():
        out[row[0]].append(dict(zip(result.columns[1:], row[1:])))
    return dict(out)


def finding_text(f: dict) -> str:
    """One finding in one line, as model_predictions.excluded_reason and `perfwh size` name it."""
    return (f"{f['severity']} {f['rule']} (finding {f['finding_id']}) on {f['metric']} "
            f"{f['printed_value'] or ''}: {f['message']}")


def exclusion_reasons(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None,
                      evidence_rules: tuple[str, ...] = (), evidence: int = 0) -> dict[int, str]:
    """measurement_id -> why it is left out: the error findings (not waived) on its
    cpu_ms_per_msg or msg_rate, or warnings of ``evidence`` or more of ``evidence_rules`` on
    its cpu_ms_per_msg (several rules finding the cost off: likely a slip, which fitted would
    bend its series' predictions of its correct neighbours); of the rows of ``sources``, if
    given."""
    out = {}
    for mid, found in findings_on_rows(con, None, sources).items():
        errors = [f for f in found if f["severity"] == "error"]
        banded = [f for f in found if f["severity"] == "warning" and f["metric"] == "cpu_ms_per_msg"
                  and f["rule"] in evidence_rules]
        if errors:
            out[mid] = "; ".join(finding_text(f) for f in errors)
        elif evidence and len({f["rule"] for f in banded}) >= evidence:
            out[mid] = "; ".join(finding_text(f) for f in banded)
    return out


def of_sources(sources: list[str] | None, alias: str = "m") -> str:
    """The condition 'AND the row is of ``sources``' (nothing for None), to be given the
    sources as parameters: a list of constants, which DuckDB applies before it regroups the
    numbers into rows (a subquery or a list parameter are applied after, to every source's)."""
    if sources is None:
        return ""
    return f"AND {alias}.source IN ({', '.join('?' * len(sources))})" if sources else "AND FALSE"


def count_series(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None,
                 min_sizes: int = 1) -> int:
    """How many series load_series would load (of ``sources`` only), counting those with at
    least ``min_sizes`` distinct message sizes, without loading them."""
    return query(con, f"""
        SELECT count(*) FROM (
            SELECT 1 FROM measurements m
            WHERE cpu_ms_per_msg IS NOT NULL AND message_size_bytes IS NOT NULL {of_sources(sources)}
            GROUP BY {SERIES_GROUP_SQL}
            HAVING count(DISTINCT message_size_bytes) >= ?)""", [*(sources or []), min_sizes])[0][0]


def load_series(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None,
                evidence_rules: tuple[str, ...] = (), evidence: int = 0) -> list[Series]:
    """Every series of measurements with a CPU cost and a size, in key order, with its
    exclusions marked (`exclusion_reasons`); ``sources``: only the series of these sources (a
    series and the residual variance it is pooled with belong to one source, so their fits
    are the same)."""
    reasons = exclusion_reasons(con, sources, evidence_rules, evidence)
    rows = query(con, f"""
        SELECT {', '.join(SERIES_KEYS)}, measurement_id, source_line, page, source_table,
               message_size_bytes, cpu_ms_per_msg, msg_rate, cpu_busy_pct,
               cores_available(cpu_busy_pct, cpu_limit_cores, replicas, server_cores)
        FROM measurements m
        WHERE cpu_ms_per_msg IS NOT NULL AND message_size_bytes IS NOT NULL {of_sources(sources)}
        ORDER BY measurement_id""", sources or [])
    groups: dict[tuple, Series] = {}
    n = len(SERIES_KEYS)
    for row in rows:
        key = dict(zip(SERIES_KEYS, row[:n]))
        mid, line, page, table, size, cost, rate, busy, capacity = row[n:]
        reason = reasons.get(mid)
        if reason is None and not cost > 0:
            reason = f"cpu_ms_per_msg {cost} is not positive"
        grouped = row[:_REPLICAS] + (row[_REPLICAS] or 1,) + row[_REPLICAS + 1:n]
        series = groups.setdefault(grouped, Series(key))
        if series.key["replicas"] is None:
            series.key["replicas"] = key["replicas"]
        series.points.append(Point(mid, line, page, table, float(size), float(cost),
                                   rate, busy, capacity, reason))
    out = sorted(groups.values(), key=lambda s: _sort_key(s.key))
    cores: dict[tuple, set] = defaultdict(set)
    for s in out:
        s.points.sort(key=lambda p: (p.size, p.source_line, p.measurement_id))
        cores[s.key["source"], s.key["platform"]].add(s.key["server_cores"])
    for s in out:
        s.names_cores = len(cores[s.key["source"], s.key["platform"]]) > 1
    return out


@dataclass
class ModelRun:
    fitted: list[Series]
    unfitted: list[Series]  # >= 3 measured sizes, < 3 usable


def fit_all(series: list[Series]) -> ModelRun:
    """Fit every series with enough usable sizes and predict every point of it without its
    size (models.predict); the series of a report share what they can."""
    fitted = [s for s in series if len(s.usable_sizes) >= MIN_SIZES]
    unfitted = [s for s in series if len(s.sizes) >= MIN_SIZES and len(s.usable_sizes) < MIN_SIZES]
    for s in fitted:
        s.series_id = series_id_of(s.key)
    if len({s.series_id for s in fitted}) < len(fitted):
        raise ValueError("two series have the same series_id (the first 48 bits of their key's "
                         "SHA-256): widen series_id_of")
    if fitted:  # the numerics (numpy, scipy) are loaded only when there is something to fit
        from threadpoolctl import threadpool_limits

        from .predict import fit_reports

        # One BLAS thread: the fits are many small matrices, where a second thread only
        # waits and spins (a 10,000-row add: 47 s either way on an idle machine, but 72 s
        # of CPU instead of 47; with the other core busy 55 s, where two threads took 546 s).
        with threadpool_limits(limits=1, user_api="blas"):
            fit_reports(fitted)
    return ModelRun(fitted, unfitted)


# -- rows of the tables ---------------------------------------------------------------------

def _f(value):
    """A float for the warehouse: None for None, NaN or infinities."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def fit_rows(run_: ModelRun) -> list[dict]:
    rows = []
    for s in run_.fitted:
        r = s.result
        lin, pwr = r.fits[LINEAR], r.fits[POWER]
        (a, a_lo, a_hi), (b, b_lo, b_hi) = lin.param_intervals(*r.sigma[LINEAR])
        (c, c_lo, c_hi), (e, e_lo, e_hi) = pwr.param_intervals(*r.sigma[POWER])
        apes = [ape for _p, _pr, ape in _usable(s)]
        implied = [p.msg_rate * p.cost / 1000.0 for p in s.usable if p.msg_rate is not None]
        capacities = [p.capacity for p in s.points if p.capacity is not None]
        capacity = max(capacities) if capacities else None
        rows.append({
            "series_id": s.series_id, "series_label": s.label, **s.key,
            "model": r.chosen,
            "points": len(s.usable), "distinct_points": r.fit.n, "sizes": len(s.usable_sizes),
            "excluded_points": len(s.points) - len(s.usable),
            "min_size_bytes": int(s.usable_sizes[0]), "max_size_bytes": int(s.usable_sizes[-1]),
            "fixed_ms": _f(a), "fixed_ms_lower_95": _f(a_lo), "fixed_ms_upper_95": _f(a_hi),
            "ms_per_kb": _f(b), "ms_per_kb_lower_95": _f(b_lo), "ms_per_kb_upper_95": _f(b_hi),
            "ms_at_1kb": _f(c), "ms_at_1kb_lower_95": _f(c_lo), "ms_at_1kb_upper_95": _f(c_hi),
            "exponent": _f(e), "exponent_lower_95": _f(e_lo), "exponent_upper_95": _f(e_hi),
            "linear_r2_log": _f(lin.r2_log), "power_r2_log": _f(pwr.r2_log),
            "linear_loso_mape_pct": _f(r.loso_mape(LINEAR)), "power_loso_mape_pct": _f(r.loso_mape(POWER)),
            "loso_mdape_pct": _f(_median(apes)), "loso_max_ape_pct": _f(max(apes)),
            "residual_sd_log": _f(lin.own_sigma), "residual_df": lin.df,
            "sigma_log": _f(r.sigma[LINEAR][0]), "sigma_df": r.sigma[LINEAR][1],
            "spread_sd_log": _f(None if r.spread is None else math.sqrt(r.spread)),
            "interval_scale": _f(r.predictive.scale), "interval_df": _f(r.predictive.df),
            "calibration_scores": r.predictive.scores,
            "capacity_cores": _f(capacity),
            "implied_cores_max": _f(max(implied)) if implied else None,
        })
    return rows


def _median(values):
    import statistics
    return statistics.median(values) if values else None


def _usable(s: Series):
    """(point, its prediction, absolute percentage error) of each usable point."""
    out = []
    for p in s.usable:
        pr = s.result.predictions[p.size]
        out.append((p, pr, abs(pr.predicted - p.cost) / p.cost * 100.0))
    return out


def _inside(cost: float, limits: tuple) -> bool | None:
    lower, upper = limits
    return None if lower is None else bool(lower <= cost <= upper)


def prediction_rows(run_: ModelRun) -> list[dict]:
    rows = []
    for s in run_.fitted:
        for p in s.points:
            pr = s.result.predictions[p.size]
            (lo90, hi90), (lo99, hi99) = pr.interval(NARROW_LEVEL), pr.interval(WIDE_LEVEL)
            cores = s.key["server_cores"]
            rate_ok = cores is not None and p.cpu_busy_pct is not None
            util = p.cpu_busy_pct / 100.0 if rate_ok else None
            rate_pred = cores * util * 1000.0 / pr.predicted if rate_ok else None
            rows.append({
                "series_id": s.series_id, "measurement_id": p.measurement_id,
                "source": s.key["source"], "source_line": p.source_line, "page": p.page,
                "source_table": p.source_table, "product": s.key["product"],
                "product_version": s.key["product_version"], "platform": s.key["platform"],
                "scenario": s.key["scenario"], "persistent": s.key["persistent"],
                "concurrency_kind": s.key["concurrency_kind"], "concurrency": s.key["concurrency"],
                "replicas": s.key["replicas"], "tshirt": s.key["tshirt"],
                **{k: s.key[k] for k in DEPLOYMENT_KEYS},
                "message_size_bytes": int(p.size),
                "observed_cpu_ms_per_msg": p.cost, "predicted_cpu_ms_per_msg": _f(pr.predicted),
                "lower_90": _f(lo90), "upper_90": _f(hi90),
                "lower_99": _f(lo99), "upper_99": _f(hi99), "model": s.result.chosen,
                "ape_pct": _f(abs(pr.predicted - p.cost) / p.cost * 100.0),
                "inside_90": _inside(p.cost, (lo90, hi90)), "inside_99": _inside(p.cost, (lo99, hi99)),
                "departure_log": _f(pr.departure), "sd_log": _f(pr.sd),
                "excluded": p.excluded, "excluded_reason": p.excluded_reason,
                "fit_sizes": len(pr.fit_sizes), "extrapolated": pr.extrapolated,
                "extrapolation_spans": _f(pr.extrapolation_spans),
                "predicted_linear_cpu_ms_per_msg": _f(pr.base),
                "predicted_power_cpu_ms_per_msg": _f(pr.power),
                "server_cores": cores, "cpu_busy_pct": p.cpu_busy_pct, "observed_msg_rate": p.msg_rate,
                "rate_from_observed_cost": _f(cores * util * 1000.0 / p.cost) if rate_ok else None,
                "rate_from_predicted_cost": _f(rate_pred),
                "rate_lower_90": _f(cores * util * 1000.0 / hi90) if rate_ok and hi90 else None,
                "rate_upper_90": _f(cores * util * 1000.0 / lo90) if rate_ok and lo90 else None,
                "rate_ape_pct": (_f(abs(rate_pred - p.msg_rate) / p.msg_rate * 100.0)
                                 if rate_ok and p.msg_rate else None),
            })
    return rows


def unfitted_rows(run_: ModelRun) -> list[dict]:
    rows = []
    for s in run_.unfitted:
        excluded = [p for p in s.points if p.excluded]
        rows.append({
            "series_label": s.label, **s.key,
            "sizes": len(s.sizes), "usable_sizes": len(s.usable_sizes), "points": len(s.points),
            "excluded_points": len(excluded),
            "reason": (f"{len(excluded)} of {len(s.points)} points excluded, leaving "
                       f"{len(s.usable_sizes)} of {len(s.sizes)} sizes (three needed): "
                       + " | ".join(f"line {p.source_line}: {p.excluded_reason}" for p in excluded)),
        })
    return rows


# -- writing --------------------------------------------------------------------------------

FIT_COLUMNS = {
    "series_id": "BIGINT", "series_label": "VARCHAR", "source": "VARCHAR", "product": "VARCHAR",
    "product_version": "VARCHAR", "fix_pack": "VARCHAR", "platform": "VARCHAR",
    "server_cores": "INTEGER", "scenario": "VARCHAR", "persistent": "BOOLEAN",
    "concurrency_kind": "VARCHAR", "concurrency": "DOUBLE", "replicas": "INTEGER",
    "tshirt": "VARCHAR", "cpu_limit_cores": "DOUBLE", "topology": "VARCHAR", "queue_managers": "INTEGER",
    "simulated_latency_ms": "DOUBLE", "model": "VARCHAR", "points": "INTEGER",
    "distinct_points": "INTEGER", "sizes": "INTEGER", "excluded_points": "INTEGER",
    "min_size_bytes": "BIGINT", "max_size_bytes": "BIGINT",
    "fixed_ms": "DOUBLE", "fixed_ms_lower_95": "DOUBLE", "fixed_ms_upper_95": "DOUBLE",
    "ms_per_kb": "DOUBLE", "ms_per_kb_lower_95": "DOUBLE", "ms_per_kb_upper_95": "DOUBLE",
    "ms_at_1kb": "DOUBLE", "ms_at_1kb_lower_95": "DOUBLE", "ms_at_1kb_upper_95": "DOUBLE",
    "exponent": "DOUBLE", "exponent_lower_95": "DOUBLE", "exponent_upper_95": "DOUBLE",
    "linear_r2_log": "DOUBLE", "power_r2_log": "DOUBLE",
    "linear_loso_mape_pct": "DOUBLE", "power_loso_mape_pct": "DOUBLE",
    "loso_mdape_pct": "DOUBLE", "loso_max_ape_pct": "DOUBLE",
    "residual_sd_log": "DOUBLE", "residual_df": "INTEGER", "sigma_log": "DOUBLE", "sigma_df": "INTEGER",
    "spread_sd_log": "DOUBLE", "interval_scale": "DOUBLE", "interval_df": "DOUBLE",
    "calibration_scores": "INTEGER", "capacity_cores": "DOUBLE", "implied_cores_max": "DOUBLE",
}
PREDICTION_COLUMNS = {
    "series_id": "BIGINT", "measurement_id": "BIGINT", "source": "VARCHAR", "source_line": "INTEGER",
    "page": "INTEGER", "source_table": "VARCHAR", "product": "VARCHAR", "product_version": "VARCHAR",
    "platform": "VARCHAR", "scenario": "VARCHAR", "persistent": "BOOLEAN",
    "concurrency_kind": "VARCHAR", "concurrency": "DOUBLE", "replicas": "INTEGER", "tshirt": "VARCHAR",
    "topology": "VARCHAR", "queue_managers": "INTEGER", "simulated_latency_ms": "DOUBLE",
    "message_size_bytes": "BIGINT", "observed_cpu_ms_per_msg": "DOUBLE",
    "predicted_cpu_ms_per_msg": "DOUBLE", "lower_90": "DOUBLE", "upper_90": "DOUBLE",
    "lower_99": "DOUBLE", "upper_99": "DOUBLE", "model": "VARCHAR",
    "ape_pct": "DOUBLE", "inside_90": "BOOLEAN", "inside_99": "BOOLEAN", "departure_log": "DOUBLE",
    "sd_log": "DOUBLE", "excluded": "BOOLEAN", "excluded_reason": "VARCHAR",
    "fit_sizes": "INTEGER", "extrapolated": "BOOLEAN", "extrapolation_spans": "DOUBLE",
    "predicted_linear_cpu_ms_per_msg": "DOUBLE", "predicted_power_cpu_ms_per_msg": "DOUBLE",
    "server_cores": "INTEGER", "cpu_busy_pct": "DOUBLE", "observed_msg_rate": "DOUBLE",
    "rate_from_observed_cost": "DOUBLE", "rate_from_predicted_cost": "DOUBLE",
    "rate_lower_90": "DOUBLE", "rate_upper_90": "DOUBLE", "rate_ape_pct": "DOUBLE",
}
UNFITTED_COLUMNS = {
    "series_label": "VARCHAR", **{k: FIT_COLUMNS[k] for k in SERIES_KEYS},
    "sizes": "INTEGER", "usable_sizes": "INTEGER", "points": "INTEGER", "excluded_points": "INTEGER",
    "reason": "VARCHAR",
}

# One row per scope (each report, then 'all') and model ('chosen': what model_predictions predicts;
# 'linear' and 'power': each series' own curve of its other sizes alone), computed from
# model_predictions so that every figure can be re-derived with SQL. The percentages are
# DECIMAL(12, 2): computed here, not printed by a report, they are kept to the hundredth that
# is their worth, and print as 7.30, not as the binary double 7.300000000000184. The interval
# score is Gneiting & Raftery's (2007, eq. 43): width + 2/alpha x how far the observation lies
# outside, alpha = 1 - level, taken on the natural log of the cost (the scale the models
# predict on, so that series of 0.3 ms and of 3000 ms weigh alike); lower is better.
PCT_MACRO = "CREATE OR REPLACE TEMP MACRO pct(x) AS CAST(round(x, 2) AS DECIMAL(12, 2))"
# {only}: a condition on the reports whose own rows are computed (the overall rows always are)
ACCURACY_QUERY = """WITH p AS NOT MATERIALIZED (
    SELECT source, series_id, measurement_id, excluded, extrapolated, inside_90, inside_99, rate_ape_pct,
           observed_msg_rate, rate_from_observed_cost, observed_cpu_ms_per_msg AS obs,
           predicted_cpu_ms_per_msg AS chosen, predicted_linear_cpu_ms_per_msg AS linear,
           predicted_power_cpu_ms_per_msg AS power, lower_90, upper_90, lower_99, upper_99
    FROM model_predictions),
scoped AS (
    SELECT source AS scope, 1 AS scope_ord, * FROM p WHERE TRUE {only}
    UNION ALL
    SELECT 'all' AS scope, 2 AS scope_ord, * FROM p),
-- what every model has, each point once per model
errors AS (
    SELECT scope, scope_ord, m.model, m.ord, excluded, extrapolated,
           abs(CASE m.model WHEN 'chosen' THEN chosen WHEN 'linear' THEN linear ELSE power END - obs)
               / obs * 100 AS ape
    FROM scoped CROSS JOIN (VALUES ('chosen', 1), ('linear', 2), ('power', 3)) m(model, ord)),
by_model AS (
    SELECT scope, scope_ord, model, ord,
           count(*) FILTER (WHERE NOT excluded)::INTEGER                           AS points,
           count(*) FILTER (WHERE excluded)::INTEGER                               AS excluded_points,
           pct(median(ape) FILTER (WHERE NOT excluded))                            AS mdape_pct,
           pct(avg(ape) FILTER (WHERE NOT excluded))                               AS mape_pct,
           pct(quantile_cont(ape, 0.9) FILTER (WHERE NOT excluded))                AS p90_ape_pct,
           pct(median(ape) FILTER (WHERE NOT excluded AND NOT extrapolated))       AS interpolated_mdape_pct,
           pct(median(ape) FILTER (WHERE NOT excluded AND extrapolated))           AS extrapolated_mdape_pct
    FROM errors
    GROUP BY scope, scope_ord, model, ord),
-- what only the chosen predictions have (their intervals, the rates), each point once
e AS (
    SELECT *,
           ln(upper_90 / lower_90) + 2 / 0.10 * (greatest(ln(lower_90 / obs), 0)
                                                  + greatest(ln(obs / upper_90), 0)) AS score_90,
           ln(upper_99 / lower_99) + 2 / 0.01 * (greatest(ln(lower_99 / obs), 0)
                                                  + greatest(ln(obs / upper_99), 0)) AS score_99
    FROM scoped),
by_scope AS (
    SELECT
        scope,
        count(DISTINCT series_id)::INTEGER                                          AS series,
        pct(100.0 * avg(CASE WHEN inside_90 THEN 1 ELSE 0 END)
                FILTER (WHERE NOT excluded AND inside_90 IS NOT NULL))              AS inside_90_pct,
        pct(100.0 * avg(CASE WHEN inside_99 THEN 1 ELSE 0 END)
                FILTER (WHERE NOT excluded AND inside_99 IS NOT NULL))              AS inside_99_pct,
        pct(median((upper_90 - lower_90) / chosen * 100) FILTER (WHERE NOT excluded)) AS width_90_pct,
        pct(median((upper_99 - lower_99) / chosen * 100) FILTER (WHERE NOT excluded)) AS width_99_pct,
        -- summed exactly, as decimals (16 places): a sum of doubles depends on its order, and
        -- the parallel order of a plain avg changed the last digits between a build and the
        -- same rows filed one by one (sorting them first cost an add a tenth of a second per
        -- 300,000 predictions)
        avg(score_90::DECIMAL(38, 16)) FILTER (WHERE NOT excluded)                  AS interval_score_90,
        avg(score_99::DECIMAL(38, 16)) FILTER (WHERE NOT excluded)                  AS interval_score_99,
        count(*) FILTER (WHERE NOT excluded AND (lower_90 < lower_99 OR upper_90 > upper_99))::INTEGER
                                                                                    AS wider_90_than_99,
        count(rate_ape_pct) FILTER (WHERE NOT excluded)::INTEGER                    AS rate_points,
        pct(median(rate_ape_pct) FILTER (WHERE NOT excluded))                       AS rate_mdape_pct,
        pct(median(abs(rate_from_observed_cost - observed_msg_rate) / observed_msg_rate * 100)
            FILTER (WHERE NOT excluded))                                            AS identity_rate_mdape_pct
    FROM e
    GROUP BY scope)
SELECT m.scope, m.model, s.series, m.points, m.excluded_points, m.mdape_pct, m.mape_pct, m.p90_ape_pct,
       m.interpolated_mdape_pct, m.extrapolated_mdape_pct,
       CASE WHEN m.model = 'chosen' THEN s.inside_90_pct END AS inside_90_pct,
       CASE WHEN m.model = 'chosen' THEN s.inside_99_pct END AS inside_99_pct,
       CASE WHEN m.model = 'chosen' THEN s.width_90_pct END AS width_90_pct,
       CASE WHEN m.model = 'chosen' THEN s.width_99_pct END AS width_99_pct,
       CASE WHEN m.model = 'chosen' THEN s.interval_score_90 END AS interval_score_90,
       CASE WHEN m.model = 'chosen' THEN s.interval_score_99 END AS interval_score_99,
       CASE WHEN m.model = 'chosen' THEN s.wider_90_than_99 END AS wider_90_than_99,
       CASE WHEN m.model = 'chosen' THEN s.rate_points END AS rate_points,
       CASE WHEN m.model = 'chosen' THEN s.rate_mdape_pct END AS rate_mdape_pct,
       CASE WHEN m.model = 'chosen' THEN s.identity_rate_mdape_pct END AS identity_rate_mdape_pct
FROM by_model m JOIN by_scope s USING (scope)
ORDER BY m.scope_ord, m.scope, m.ord
"""
ACCURACY_SQL = f"{PCT_MACRO};\nCREATE TABLE model_accuracy AS {ACCURACY_QUERY.format(only='')}"


# The models stage's interface to the data-quality rules (schema/50_dq.sql declares the same
# columns, empty, for a warehouse the models stage has not run on): each measurement's
# prediction by a fit that did not use it, with the wide (99 %) interval the model residual
# rule holds it to. The rule reads this view, never the models package: no import cycle, and
# the typo repair's candidate worlds compare their corrected cost with the same interval (a
# point's leave-one-size-out interval does not depend on its own value).
PREDICTIONS_VIEW_SQL = """
CREATE OR REPLACE VIEW dq_predictions AS
SELECT measurement_id AS row_id, series_id, model, predicted_cpu_ms_per_msg AS predicted,
       lower_99 AS lower, upper_99 AS upper, fit_sizes, extrapolated, extrapolation_spans, excluded,
       -- left out for anything but band rules' warnings (finding_text begins with the severity)
       excluded AND NOT coalesce(excluded_reason LIKE 'warning %', false) AS excluded_for_errors
FROM model_predictions
"""


def model_tables(run_: ModelRun) -> list[tuple[str, dict[str, str], list[dict]]]:
    """The model tables as (name, column types, rows), in the order they are written; the
    stage that writes them creates model_accuracy afterwards with ACCURACY_SQL."""
    predictions = sorted(prediction_rows(run_),
                         key=lambda r: (r["series_id"], r["message_size_bytes"], r["source_line"]))
    return [("model_fits", FIT_COLUMNS, fit_rows(run_)),
            ("model_predictions", PREDICTION_COLUMNS, predictions),
            ("model_unfitted", UNFITTED_COLUMNS, unfitted_rows(run_))]
