"""Cost-vs-size models (issue 4): the fitting library on synthetic data with known parameters,
the model tables on the real warehouse, and `perfwh size`."""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pytest

from models.fit import (LINEAR, POWER, FitError, cores_for_rate, distinct_points, fit,
                        fit_linear, fit_power, fit_series, full_fits, pooled_sigma,
                        rate_from_cost, t_quantile)
from models.sizing import SizeQuery, parse_size, version_matches
from models.tables import SERIES_KEYS
from perfwh.stages.models import build_models
from perfwh.warehouse.lake import read_manifest

PERFWH = [sys.executable, "-m", "perfwh.cli"]
SIZES = np.array([256, 2048, 20480, 204800, 2048000, 20480000], dtype=float)
KB = SIZES / 1024


def perfwh(*args) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + [str(a) for a in args], capture_output=True, text=True)


def linear_truth(a=0.4, b=0.02):
    return lambda kb: a + b * kb


def power_truth(c=0.5, e=0.7):
    return lambda kb: c * kb ** e


# -- the library on synthetic data ------------------------------------------------------------

def test_exact_data_gives_the_parameters_back():
    lin = fit_linear(SIZES, linear_truth()(KB))
    assert lin.params == pytest.approx((0.4, 0.02), rel=1e-6)
    assert lin.rss == pytest.approx(0.0, abs=1e-12)
    pw = fit_power(SIZES, power_truth()(KB))
    assert pw.params == pytest.approx((0.5, 0.7), rel=1e-9)
    assert pw.r2_log == pytest.approx(1.0)


@pytest.mark.parametrize("model,truth,params", [
    (LINEAR, linear_truth(0.4, 0.02), (0.4, 0.02)),
    (LINEAR, linear_truth(3.0, 0.3), (3.0, 0.3)),
    (POWER, power_truth(0.5, 0.7), (0.5, 0.7)),
    (POWER, power_truth(2.0, 0.35), (2.0, 0.35)),
])
def test_noisy_data_recovers_known_parameters_within_their_95_intervals(model, truth, params):
    rng = np.random.default_rng(20240)
    y = truth(KB) * np.exp(rng.normal(0.0, 0.08, len(KB)))
    f = fit(model, SIZES, y)
    for (estimate, lower, upper), true in zip(f.param_intervals(f.own_sigma, f.df, 0.95), params):
        assert lower <= true <= upper, (model, true, lower, estimate, upper)
        assert lower <= estimate <= upper


@pytest.mark.parametrize("model,truth,params", [
    (LINEAR, linear_truth(0.4, 0.02), (0.4, 0.02)),
    (POWER, power_truth(0.5, 0.7), (0.5, 0.7)),
])
def test_95_intervals_cover_the_truth_about_95_percent_of_the_time(model, truth, params):
    rng = np.random.default_rng(11)
    trials, covered = 400, [0, 0]
    for _ in range(trials):
        y = truth(KB) * np.exp(rng.normal(0.0, 0.1, len(KB)))
        f = fit(model, SIZES, y)
        for i, ((_, lower, upper), true) in enumerate(zip(f.param_intervals(f.own_sigma, f.df), params)):
            covered[i] += lower <= true <= upper
    for hits in covered:
        assert 0.90 <= hits / trials <= 0.99, covered


@pytest.mark.parametrize("model,truth", [(LINEAR, linear_truth()), (POWER, power_truth())])
def test_loso_90_intervals_cover_about_90_percent_of_held_out_points(model, truth):
    rng = np.random.default_rng(3)
    inside = total = 0
    for _ in range(150):
        y = truth(KB) * np.exp(rng.normal(0.0, 0.1, len(KB)))
        for p in fit_series(SIZES, y).loso[model]:
            inside += p.lower <= p.observed <= p.upper
            total += 1
    assert 0.84 <= inside / total <= 0.96


def test_pooling_with_other_series_gives_three_size_series_calibrated_intervals():
    """With three sizes a series has no degree of freedom once a size is left out: the
    variance pooled over the other series of its report gives the interval."""
    rng = np.random.default_rng(5)
    sizes = np.array([2048.0, 20480.0, 204800.0])
    inside = total = 0
    for _ in range(60):
        ys = [linear_truth(0.4, 0.05)(sizes / 1024) * np.exp(rng.normal(0, 0.1, 3)) for _ in range(10)]
        fulls = [full_fits(sizes, y)[LINEAR] for y in ys]
        rss, df = sum(f.rss for f in fulls), sum(f.df for f in fulls)
        for f, y in zip(fulls, ys):
            alone = fit_series(sizes, y)
            assert all(p.lower is None for p in alone.loso[LINEAR])  # no df of its own
            pooled = fit_series(sizes, y, {LINEAR: (rss - f.rss, df - f.df), POWER: (0.0, 0)})
            for p in pooled.loso[LINEAR]:
                inside += p.lower <= p.observed <= p.upper
                total += 1
    assert 0.84 <= inside / total <= 0.96


def test_loso_leaves_out_every_point_of_a_size_and_predicts_from_the_rest():
    sizes = [1024, 4096, 4096, 16384, 65536]  # two measurements at 4 KB
    costs = [1.3, 1.75, 1.8, 3.5, 10.1]
    result = fit_series(sizes, costs)
    assert len(result.loso[LINEAR]) == 5
    for p in result.loso[LINEAR]:
        assert p.size not in p.fit_sizes
        keep = [i for i, s in enumerate(sizes) if s != p.size]
        manual = fit_linear([sizes[i] for i in keep], [costs[i] for i in keep])
        assert p.predicted == pytest.approx(float(manual.predict([p.size])[0]), rel=1e-9)
    assert [p.extrapolated for p in result.loso[LINEAR]] == [True, False, False, False, True]


def test_the_model_with_the_smaller_loso_error_is_chosen():
    assert fit_series(SIZES, linear_truth()(KB)).chosen == LINEAR
    assert fit_series(SIZES, power_truth()(KB)).chosen == POWER
    exact = fit_series(SIZES, linear_truth()(KB))
    assert exact.loso_mape(LINEAR) == pytest.approx(0.0, abs=1e-4)
    assert exact.loso_mape(POWER) > 10


def test_duplicate_points_count_once_and_bad_input_is_refused():
    x, y = distinct_points([2048, 2048, 4096], [1.0, 1.0, 2.0])
    assert list(x) == [2048, 4096] and list(y) == [1.0, 2.0]
    with pytest.raises(FitError):
        fit_series([2048, 2048, 4096], [1.0, 1.1, 2.0])  # two sizes
    with pytest.raises(FitError):
        fit_linear([1024, 2048], [1.0, 0.0])
    with pytest.raises(FitError):
        fit("cubic", [1, 2], [1, 2])


def test_pooled_sigma_and_t_quantiles():
    assert pooled_sigma(0.0, 0) == (None, 0)
    s, df = pooled_sigma(0.02, 1, 0.06, 3)
    assert (s, df) == (pytest.approx(math.sqrt(0.08 / 4)), 4)
    assert t_quantile(0, 0.9) is None
    assert t_quantile(1000000, 0.95) == pytest.approx(1.959964, rel=1e-4)
    assert t_quantile(1, 0.90) == pytest.approx(6.313752, rel=1e-5)


def test_rate_from_cost_and_cores_for_rate_are_inverse():
    # 8 cores at 94 % busy and 5.5 ms per message: the IIB ISO 8583 row, about 1367 msgs/s
    rate = rate_from_cost(8, 0.94, 5.5)
    assert rate == pytest.approx(1367.27, rel=1e-4)
    assert cores_for_rate(rate, 5.5, 0.94) == pytest.approx(8)


def test_sizes_parse_with_the_unit_table_and_versions_match_by_components():
    assert parse_size("50KB") == 51200
    assert parse_size("2k") == 2048
    assert parse_size("1384B") == 1384
    assert parse_size("2MB") == 2 * 1024 * 1024
    assert parse_size("50kb") == parse_size("50kB") == 51200  # b is bytes, as in "1384b"
    assert parse_size("2mb") == 2 * 1024 * 1024
    assert version_matches("11.0.0.4", "11")
    assert version_matches("10.0.0.16", "10.0")
    assert not version_matches("11.0.0.4", "1")
    assert not version_matches("110.0", "11")


# -- the real warehouse -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def modelled(built_warehouse, tmp_path_factory) -> Path:
    """A copy of the session warehouse (rules run: dq_findings present) with the models."""
    db = tmp_path_factory.mktemp("models") / "warehouse.duckdb"
    shutil.copyfile(built_warehouse, db)
    build_models(db)
    return db


@pytest.fixture(scope="module")
def mcon(modelled):
    con = duckdb.connect(str(modelled), read_only=True)
    yield con
    con.close()


def rows(con, sql, params=None):
    return con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()


KEYS = ", ".join(SERIES_KEYS)
EXCLUDED_SQL = """
    SELECT DISTINCT m.measurement_id FROM measurements m JOIN dq_findings f
      ON f.severity = 'error' AND f.waiver IS NULL AND f.metric IN ('cpu_ms_per_msg', 'msg_rate')
     AND (f.fact_id IN (m.cpu_ms_per_msg_fact_id, m.msg_rate_fact_id)
          OR (f.fact_id IS NULL AND f.source = m.source AND f.source_line = m.source_line))"""


def test_every_eligible_series_has_a_fit(mcon):
    eligible = rows(mcon, f"""
        SELECT {KEYS} FROM measurements
        WHERE cpu_ms_per_msg > 0 AND message_size_bytes IS NOT NULL
          AND measurement_id NOT IN ({EXCLUDED_SQL})
        GROUP BY ALL HAVING count(DISTINCT message_size_bytes) >= 3 ORDER BY ALL""")
    fitted = rows(mcon, f"SELECT {KEYS} FROM model_fits ORDER BY ALL")
    assert len(eligible) > 100
    assert fitted == eligible
    from models.tables import SERIES_KEYS, series_id_of

    keyed = rows(mcon, f"SELECT series_id, {', '.join(SERIES_KEYS)} FROM model_fits")
    assert [r[0] for r in keyed] == [series_id_of(dict(zip(SERIES_KEYS, r[1:]))) for r in keyed]
    assert len({r[0] for r in keyed}) == len(keyed)  # an id names one series, from its key alone
    bad = rows(mcon, """SELECT series_id FROM model_fits WHERE model NOT IN ('linear', 'power')
                        OR sizes < 3 OR fixed_ms IS NULL OR exponent IS NULL OR sigma_log IS NULL
                        OR NOT (fixed_ms_lower_95 <= fixed_ms AND fixed_ms <= fixed_ms_upper_95)
                        OR NOT (exponent_lower_95 <= exponent AND exponent <= exponent_upper_95)""")
    assert bad == []


def test_every_point_of_a_fitted_series_has_a_prediction(mcon):
    missing = rows(mcon, f"""
        SELECT m.measurement_id FROM measurements m JOIN model_fits f USING ({KEYS})
        WHERE m.cpu_ms_per_msg IS NOT NULL AND m.message_size_bytes IS NOT NULL
        EXCEPT SELECT measurement_id FROM model_predictions""")
    assert missing == []
    nulls = rows(mcon, """SELECT count(*) FROM model_predictions WHERE predicted_cpu_ms_per_msg IS NULL
                          OR lower_90 IS NULL OR upper_90 IS NULL OR model IS NULL
                          OR NOT (lower_90 <= predicted_cpu_ms_per_msg AND predicted_cpu_ms_per_msg <= upper_90)""")
    assert nulls == [(0,)]
    # one row per measurement, in a deterministic order
    order = rows(mcon, "SELECT series_id, message_size_bytes, source_line FROM model_predictions")
    assert order == sorted(order)
    assert rows(mcon, "SELECT count(*) = count(DISTINCT measurement_id) FROM model_predictions") == [(True,)]


def test_points_with_error_findings_are_excluded_and_say_why(mcon):
    flagged = {r[0] for r in rows(mcon, EXCLUDED_SQL)}
    table = dict(rows(mcon, "SELECT measurement_id, excluded FROM model_predictions"))
    assert any(table.get(m) for m in flagged), "the real reports have excluded points in fitted series"
    for mid, excluded in table.items():
        assert excluded == (mid in flagged), mid
    reasons = rows(mcon, "SELECT excluded_reason FROM model_predictions WHERE excluded")
    assert all(r[0] and "error " in r[0] and "finding" in r[0] for r in reasons)
    assert rows(mcon, "SELECT count(*) FROM model_predictions WHERE NOT excluded AND excluded_reason IS NOT NULL") == [(0,)]
    # the JSON Parse rows that repeat other rows under the 2K label (ace13 lines 352-354) never enter a fit
    assert rows(mcon, """SELECT count(*) FROM model_predictions WHERE source = 'ace13-openshift-2025.txt'
                         AND source_line IN (352, 353, 354) AND NOT excluded""") == [(0,)]
    # series that exclusions left with fewer than three sizes are listed, with the reason
    for sizes, usable, reason in rows(mcon, "SELECT sizes, usable_sizes, reason FROM model_unfitted"):
        assert sizes >= 3 > usable and "error " in reason


def test_predictions_are_leave_one_size_out(mcon):
    """Refit a series without one size with the library: the table holds that prediction."""
    ids = [r[0] for r in rows(mcon, "SELECT series_id FROM model_fits ORDER BY series_label")]
    for series_id in (ids[0], ids[59], ids[99]):
        model = rows(mcon, "SELECT model FROM model_fits WHERE series_id = ?", [series_id])[0][0]
        pts = rows(mcon, """SELECT message_size_bytes, observed_cpu_ms_per_msg, predicted_cpu_ms_per_msg,
                                   fit_sizes FROM model_predictions WHERE series_id = ? AND NOT excluded""",
                   [series_id])
        sizes = sorted({p[0] for p in pts})
        for size, observed, predicted, fit_sizes in pts:
            rest = [(s, c) for s, c, _, _ in pts if s != size]
            manual = fit(model, [s for s, _ in rest], [c for _, c in rest])
            assert predicted == pytest.approx(float(manual.predict([size])[0]), rel=1e-6)
            assert fit_sizes == len(sizes) - 1


def test_accuracy_per_report_and_overall_is_in_the_warehouse(mcon):
    acc = {(r[0], r[1]): r[2:] for r in rows(
        mcon, "SELECT scope, model, points, mdape_pct, inside_90_pct FROM model_accuracy")}
    reports = [r[0] for r in rows(mcon, "SELECT DISTINCT source FROM model_fits ORDER BY 1")]
    assert {s for s, _ in acc} == set(reports) | {"all"}
    for scope in reports + ["all"]:
        where = "" if scope == "all" else "AND source = ?"
        apes = [r[0] for r in rows(mcon, f"SELECT ape_pct FROM model_predictions WHERE NOT excluded {where}",
                                   None if scope == "all" else [scope])]
        points, mdape, inside = acc[(scope, "chosen")]
        assert points == len(apes)
        assert float(mdape) == pytest.approx(statistics.median(apes), abs=0.005)  # DECIMAL(12, 2)
        assert 0 < mdape < 50 and 50 < inside <= 100
        assert acc[(scope, "linear")][1] is not None and acc[(scope, "power")][1] is not None


def test_rate_from_cost_agrees_with_the_measured_rates(mcon):
    """WBIMB and IIB print %CPU: cores x utilisation x 1000 / cost gives their rates back."""
    checked = rows(mcon, """
        SELECT source, count(*), median(abs(rate_from_observed_cost - observed_msg_rate) / observed_msg_rate),
               median(rate_ape_pct)
        FROM model_predictions WHERE NOT excluded AND rate_from_observed_cost IS NOT NULL
        GROUP BY source ORDER BY source""")
    assert [r[0] for r in checked] == ["iib10-xlinux.txt", "wbimb5-aix-2004.txt"]
    for source, n, identity_error, loso_rate_error in checked:
        assert n > 50
        assert identity_error < 0.01      # the identity holds to printing precision
        assert loso_rate_error < 15       # and the leave-one-size-out cost gives the rate back
    assert rows(mcon, """SELECT count(*) FROM model_predictions WHERE NOT excluded AND cpu_busy_pct IS NOT NULL
                         AND NOT (rate_lower_90 <= rate_from_predicted_cost
                                  AND rate_from_predicted_cost <= rate_upper_90)""") == [(0,)]


def test_model_tables_are_documented_and_exported(mcon, modelled):
    undocumented = rows(mcon, """
        SELECT table_name || '.' || column_name FROM duckdb_columns()
        WHERE table_name LIKE 'model_%' AND (comment IS NULL OR comment = '')""")
    assert undocumented == []
    relations = read_manifest(modelled.parent / "lake")["relations"]
    for table in ("model_fits", "model_predictions", "model_accuracy", "model_unfitted"):
        assert relations[table]["rows"] == rows(mcon, f"SELECT count(*) FROM {table}")[0][0]


def test_models_are_deterministic(modelled, tmp_path):
    again = tmp_path / "again.duckdb"
    shutil.copyfile(modelled, again)
    build_models(again, parquet=False)
    a = duckdb.connect(str(modelled), read_only=True)
    b = duckdb.connect(str(again), read_only=True)
    try:
        for table in ("model_fits", "model_predictions", "model_accuracy", "model_unfitted"):
            assert a.execute(f"SELECT * FROM {table}").fetchall() == b.execute(f"SELECT * FROM {table}").fetchall()
    finally:
        a.close()
        b.close()


def test_models_without_findings_and_a_failed_run_changes_nothing(tmp_path, monkeypatch):
    from perfwh.core.paths import RAW_DIR, SOURCES_FILE
    from perfwh.stages.build import build

    db = tmp_path / "plain.duckdb"
    build(out=db, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="none", parquet=False, progress=False)
    done = perfwh("models", "--db", db, "--no-parquet")
    assert done.returncode == 0, done.stderr
    assert "no dq_findings" in done.stdout
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM model_predictions WHERE excluded").fetchone() == (0,)
    con.close()

    import perfwh.stages.models as stage

    before = hashlib.sha256(db.read_bytes()).hexdigest()

    def boom(con):
        raise RuntimeError("fitting failed")
    monkeypatch.setattr(stage, "fit_warehouse", boom)
    with pytest.raises(RuntimeError):
        stage.build_models(db, parquet=False)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not list(tmp_path.glob(".plain.duckdb.tmp-*"))


def test_models_cli_needs_a_warehouse(tmp_path):
    done = perfwh("models", "--db", tmp_path / "none.duckdb")
    assert done.returncode == 2
    assert "no warehouse there" in done.stderr and "Traceback" not in done.stderr


# -- perfwh size ------------------------------------------------------------------------------

ESQL = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--product", "ACE", "--version", "11",
        "--platform", "linux"]


def test_size_json_answers_with_an_interval(modelled, mcon):
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "50KB", "--rate", "500",
                  "--utilisation", "0.8", "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["cores_low"] < answer["cores"] < answer["cores_high"]
    assert answer["cores"] == pytest.approx(500 * answer["cpu_ms_per_msg"] / 1000 / 0.8)
    assert answer["cores_busy"] == pytest.approx(answer["cores"] * 0.8)
    assert not [w for w in answer["warnings"] if "outside" in w or "ambiguous" in w or "no fitted" in w]
    assert answer["utilisation"] == 0.8
    label, = mcon.execute("SELECT series_label FROM model_fits WHERE series_id = ?",
                          [answer["series_id"]]).fetchone()
    assert answer["series_label"] == label and "Docker cores 2" in label and "ACE 11.0.0.4" in label
    assert answer["query"]["size_bytes"] == 51200
    # the refit in `perfwh size` is the fit in model_fits
    fixed, per_kb = mcon.execute("SELECT fixed_ms, ms_per_kb FROM model_fits WHERE series_id = ?",
                                 [answer["series_id"]]).fetchone()
    if answer["model"] == "linear":
        assert answer["cpu_ms_per_msg"] == pytest.approx(fixed + per_kb * 50, rel=1e-6)


def test_size_text_states_the_utilisation_and_the_series(modelled):
    done = perfwh("size", *ESQL, "--config", "cores 4", "--size", "20k", "--rate", "100",
                  "--utilisation", "70%", "--db", modelled)
    assert done.returncode == 0, done.stderr
    assert "at 70% utilisation" in done.stdout
    assert "Docker cores 4" in done.stdout and "90 % interval" in done.stdout
    assert "hardware: IBM System x3650 M3" in done.stdout


def test_size_warns_outside_the_measured_sizes(modelled):
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "2MB", "--rate", "10",
                  "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["cores"] is not None
    assert any("outside the measured sizes" in w and "extrapolation" in w for w in answer["warnings"])
    done = perfwh("size", *ESQL, "--config", "docker cores 2", "--size", "100", "--rate", "10",
                  "--db", modelled)
    assert "warning:" in done.stdout and "outside the measured sizes" in done.stdout


def test_size_reports_no_matching_series(modelled):
    done = perfwh("size", "--scenario", "Quantum Teleport", "--size", "1k", "--rate", "10", "--json",
                  "--db", modelled)
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["cores"] is None and answer["series_id"] is None
    assert any("no scenario matches" in w for w in answer["warnings"])
    done = perfwh("size", *ESQL, "--product", "WBIMB", "--size", "1k", "--rate", "10", "--db", modelled)
    assert done.returncode == 1
    assert "warning: no fitted series matches" in done.stdout


def test_size_picks_the_capacity_nearest_the_answer_and_lists_the_others(modelled):
    """Series that differ only in the capacity they were measured with (1, 2, 4 Docker
    cores) answer from the one nearest the cores needed, and name the others."""
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "500", "--json", "--db", modelled)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert len(answer["candidates"]) == 3
    assert answer["series"]["concurrency"] == 4  # 4.8 cores needed: the 4-core series
    assert answer["cores_low"] < answer["cores"] < answer["cores_high"]
    assert any(w.startswith("3 series match, measured with different capacity") for w in answer["warnings"])
    assert all(c["cores_low"] < c["cores"] < c["cores_high"] for c in answer["candidates"])


def test_size_reports_real_ambiguity_with_each_candidate(modelled):
    """Series of two products are not interchangeable: no answer, every candidate shown."""
    args = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--platform", "linux"]  # ACE and IIB
    done = perfwh("size", *args, "--size", "50KB", "--rate", "500", "--json", "--db", modelled)
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["cores"] is None and len(answer["candidates"]) == 6
    assert any(w.startswith("ambiguous: 6 series match") and "product" in w for w in answer["warnings"])
    assert not any("outside the measured sizes" in w for w in answer["warnings"])  # 50KB is inside


def test_size_warns_outside_the_measured_sizes_even_when_ambiguous(modelled):
    args = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--platform", "linux"]  # ACE and IIB
    done = perfwh("size", *args, "--size", "5MB", "--rate", "500", "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert "5 MB lies outside the measured sizes of 6 of the 6 matching series (2 KB to 200 KB)" in \
        " ".join(answer["warnings"])


def test_size_names_series_that_exclusions_left_unfitted(modelled, mcon):
    keys = "scenario, product, product_version, platform, source"
    fitted = set(mcon.execute(f"SELECT {keys} FROM model_fits").fetchall())
    candidates = [r for r in mcon.execute(f"SELECT series_label, {keys} FROM model_unfitted ORDER BY 1").fetchall()
                  if r[1:] not in fitted]
    assert candidates, "the real reports have series that exclusions leave unfitted"
    label, scenario, product, version, platform, source = candidates[0]
    done = perfwh("size", "--scenario", scenario, "--product", product, "--version", version,
                  "--platform", platform, "--report", source, "--size", "2k", "--rate", "10",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert any("was not fitted" in w and label in w for w in answer["warnings"])


def test_size_rejects_bad_input(modelled, tmp_path):
    done = perfwh("size", *ESQL, "--size", "50 parsecs", "--rate", "500", "--db", modelled)
    assert done.returncode == 2 and "unknown unit" in done.stderr
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "-5", "--db", modelled)
    assert done.returncode == 2
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--utilisation", "1.5", "--db", modelled)
    assert done.returncode == 2
    done = perfwh("size", *ESQL, "--size", "50KB", "--rate", "5", "--json", "--db", tmp_path / "x.duckdb")
    answer = json.loads(done.stdout)  # a missing warehouse is still answered in the answer's JSON shape
    assert done.returncode == 2 and "no warehouse there" in answer["error"] and answer["cores"] is None
    assert answer["status"] == 2  # the same key as every command's JSON error


def test_size_on_a_warehouse_without_models(tmp_path):
    from models.sizing import SizingError, size_in
    from perfwh.core.paths import RAW_DIR, SOURCES_FILE
    from perfwh.stages.build import build

    db = tmp_path / "plain.duckdb"  # built without rules: no findings, no models
    build(out=db, raw_dir=RAW_DIR, sources_file=SOURCES_FILE, rules="none", parquet=False, progress=False)
    with pytest.raises(SizingError, match="perfwh models"):
        size_in(db, SizeQuery(scenario="Aggregation", size="2k", rate=10.0))


WINDOWS_ESQL = ["--scenario", "HTTP XMLNSC ESQL Transformation", "--product", "ACE", "--version", "11",
                "--platform", "windows", "--size", "50KB", "--rate", "500", "--json"]


def test_size_refuses_series_whose_costs_carry_error_findings(modelled):
    """ACE 11's Windows costs are systematically flagged (README, Data quality): even the
    1-core series, whose own points escaped the errors, is refused."""
    done = perfwh("size", *WINDOWS_ESQL, "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["cores"] is None
    assert [r["concurrency"] for r in answer["refused"]] == [1.0]
    assert any(w.startswith("every matching series has error findings on its costs")
               for w in answer["warnings"])
    assert any("a systematic problem of that platform's measurements" in w for w in answer["warnings"])
    # a fitted series with error findings on its own points (3 of JSON Parse Small's are excluded)
    done = perfwh("size", "--scenario", "JSON Parse", "--config", "Small", "--size", "20k", "--rate", "10",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["refused"]
    assert any("error cross_table_consistency" in w or "error conflicting_key" in w
               for w in answer["warnings"])


def test_size_allow_flagged_answers_and_names_the_findings(modelled):
    done = perfwh("size", *WINDOWS_ESQL, "--allow-flagged", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["cores"] is not None and not answer["refused"]
    assert any(w.startswith("answered despite error findings") for w in answer["warnings"])
    assert any(w.startswith("warning findings on this series' points") and "utilisation_outlier" in w
               for w in answer["warnings"])


def test_size_names_the_warning_findings_of_a_clean_series(modelled):
    """ACE 11 Linux HTTP BLOB Echo at 4 cores: its 200K run was not CPU-bound (a warning)."""
    done = perfwh("size", "--scenario", "HTTP BLOB Echo", "--product", "ACE", "--version", "11",
                  "--platform", "linux", "--config", "docker cores 4", "--size", "50KB", "--rate", "500",
                  "--json", "--db", modelled)
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["cores"] is not None
    assert any("warning utilisation_outlier" in w and "line 191" in w for w in answer["warnings"])


def test_refitted_series_match_model_fits_and_curves_span_the_measured_sizes(mcon):
    from models.curves import curve, refit

    ids = [r[0] for r in rows(mcon, "SELECT series_id FROM model_fits ORDER BY series_label")]
    power = rows(mcon, "SELECT series_id FROM model_fits WHERE model = 'power' ORDER BY series_label")[0][0]
    for series_id in (ids[0], ids[49], power, ids[109]):
        model, row = refit(mcon, series_id)
        if row["model"] == "linear":
            assert model.params == pytest.approx((row["fixed_ms"], row["ms_per_kb"]), rel=1e-6, abs=1e-12)
        else:
            assert model.params == pytest.approx((row["ms_at_1kb"], row["exponent"]), rel=1e-6)
        points = curve(mcon, series_id, points=10)
        assert len(points) == 10
        assert points[0]["message_size_bytes"] == pytest.approx(row["min_size_bytes"])
        assert points[-1]["message_size_bytes"] == pytest.approx(row["max_size_bytes"])
        assert all(p["lower"] < p["predicted_cpu_ms_per_msg"] < p["upper"] for p in points)
