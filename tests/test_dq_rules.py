"""The data-quality rules on the real warehouse: what they find, and what they must not."""
from __future__ import annotations

import re

import pytest

from perfwh.core.paths import RULES_DIR
from perfwh.quality import repair
from perfwh.quality.repair import candidates, suggest
from perfwh.quality.rules import FINDING_COLUMNS, RuleError, finding_id, load_rules, parse_rule, run_rules
from perfwh.stages.check import checked
from support.expected import claims
from support.strategies import synthetic


def scalar(wh, sql: str, params=None):
    return wh.sql(sql, params=params).fetchall()[0][0]


def findings(wh, where: str = "TRUE", params=None) -> list[dict]:
    result = wh.sql(f"SELECT * FROM dq_findings WHERE {where} ORDER BY finding_id", params=params)
    return [dict(zip(result.columns, row)) for row in result.fetchall()]


def test_every_rule_file_has_severity_relation_and_reason():
    rules = load_rules()
    assert len(rules) >= 16
    for rule in rules:
        assert rule.severity in ("error", "warning")
        assert rule.relation in ("dq_input", "dq_values", "dq_claims", "dq_rejects")
        assert len(rule.reason) > 60, rule.name
        assert "{batch}" in rule.sql
        assert rule.path.name == f"{rule.name}.sql"


def test_a_rule_over_an_empty_batch_finds_nothing(wh):
    """Every finding is about a row of its rule's batch, whatever the other relations hold: the
    runner skips a rule whose relation is empty (`rules.with_rows`), which is sound only so."""
    for rule in load_rules():
        wh.execute(f"CREATE OR REPLACE TEMP TABLE empty_batch AS SELECT * FROM {rule.relation} LIMIT 0")
        assert wh.sql(rule.query("empty_batch")).fetchall() == [], rule.name
    wh.execute("DROP TABLE empty_batch")


def test_rule_catalogue_in_the_warehouse(wh):
    rows = wh.sql("SELECT rule, severity, relation, reason, file, findings FROM dq_rules").fetchall()
    assert {r[0] for r in rows} == {r.name for r in load_rules()}
    counts = dict(wh.sql("SELECT rule, count(*) FROM dq_findings GROUP BY 1").fetchall())
    assert {r[0]: r[5] for r in rows if r[5]} == counts


def test_messages_give_each_number_its_unit_once(wh):
    """A number printed with its unit keeps it ("1998.06/s", "260.74 μs"); a bare one gets it."""
    shown = [scalar(wh, "SELECT with_unit(?, ?)", [printed, unit]) for printed, unit in
             [("1998.06/s", "msgs/s"), ("460K", "msgs/s"), ("1362.3", "msgs/s"), ("2.95 ms", "ms"),
              ("260.74 μs", "ms"), ("0.45", "ms")]]
    assert shown == ["1998.06/s", "460K msgs/s", "1362.3 msgs/s", "2.95 ms", "260.74 μs", "0.45 ms"]
    assert scalar(wh, "SELECT with_unit(NULL, 'ms')") is None
    doubled = findings(wh, "regexp_matches(message, '(/s|msgs/s) msgs/s|(ms|μs) ms\\b')")
    assert not doubled, doubled[0]["message"]
    ace13 = findings(wh, "rule = 'capacity_underused' AND source LIKE 'ace13%' AND message LIKE 'rate %' AND message NOT LIKE 'rate x %'")
    assert ace13 and all(" msgs/s x CPU cost " in f["message"] and " ms keeps " in f["message"]
                         for f in ace13)



def test_a_claim_refuted_by_one_comparison_says_it_goes_the_other_way(wh):
    """"1 of the 30 pairs ... goes the other way"; "3 of the 30 ... go"."""
    claims = findings(wh, "rule IN ('claim_order', 'claim_trend') AND message LIKE '%the other way%'")
    counted = [re.search(r"; (\d+) of the \d+ (?:pairs of rows it compares|steps) (goes|go) the other way",
                         f["message"]) for f in claims]
    assert claims and all(counted), [f["message"] for f, c in zip(claims, counted) if not c][:1]
    assert any(c.group(1) == "1" for c in counted)
    assert all((c.group(2) == "goes") == (c.group(1) == "1") for c in counted)

def test_a_rule_file_without_a_header_is_refused(tmp_path):
    bad = tmp_path / "no_header.sql"
    bad.write_text("SELECT * FROM {batch}\n")
    with pytest.raises(RuleError, match="no_header.sql: header lacks severity"):
        parse_rule(bad)
    bad.write_text("-- severity: fatal\n-- relation: dq_input\n-- compares: row\n-- repair: none\n-- summary: s\n"
                   "-- reason: x\nSELECT 1 FROM {batch}")
    with pytest.raises(RuleError, match="severity 'fatal'"):
        parse_rule(bad)
    bad.write_text("-- severity: error\n-- relation: dq_input\n-- compares: row\n-- repair: maybe\n-- summary: s\n"
                   "-- reason: x\nSELECT 1 FROM {batch}")
    with pytest.raises(RuleError, match="repair 'maybe'"):
        parse_rule(bad)
    bad.write_text("-- severity: error\n-- relation: dq_input\n-- compares: everything\n-- repair: none\n"
                   "-- summary: s\n-- reason: x\nSELECT 1 FROM {batch}")
    with pytest.raises(RuleError, match="compares 'everything'"):
        parse_rule(bad)
    # every engine runs the one file: a brace that only Great Expectations would misread is
    # refused when the rule is read, for all of them
    bad.write_text("-- severity: error\n-- relation: dq_input\n-- compares: row\n-- repair: none\n"
                   "-- summary: s\n-- reason: x\nSELECT min({'a': row_id}) AS first\nFROM {batch}")
    with pytest.raises(RuleError, match=r"no_header.sql:7: a brace besides \{batch\}"):
        parse_rule(bad)


def test_findings_have_the_contract_columns(wh):
    columns = [c for c in wh.sql("SELECT * FROM dq_findings LIMIT 0").columns]
    for name in ("rule", "severity", "source", "source_line", "metric", "printed_value",
                 "message", "suggested_value"):
        assert name in columns


def test_clean_rows_of_tables_with_cpu_are_not_flagged(wh):
    """WBIMB and IIB print rate, %CPU and cost: every row satisfies the identity and the
    capacity except the two IIB rows that really do not (lines 105 and 135)."""
    flagged = wh.sql("""
        SELECT DISTINCT source, source_line FROM dq_findings
        WHERE rule IN ('cpu_identity', 'cpu_capacity', 'conflicting_key', 'cross_table_consistency')
          AND (source LIKE 'wbimb%' OR source LIKE 'iib10%') ORDER BY ALL""").fetchall()
    assert flagged == [("iib10-xlinux.txt", 105), ("iib10-xlinux.txt", 135)]
    # rows with the CPU identity (rate, %CPU and cost), not merely a %CPU (the MQ Appliance
    # tables print rate and %CPU but no cost)
    rows_with_identity = scalar(wh, """
        SELECT count(*) FROM dq_input
        WHERE cpu_busy_pct IS NOT NULL AND cpu_ms_per_msg IS NOT NULL AND msg_rate IS NOT NULL
          AND (source LIKE 'wbimb%' OR source LIKE 'iib10%')""")
    assert rows_with_identity == 206 + 87  # WBIMB chapter 10 rows, IIB rows and halves


def test_iib_iso8583_134b_identity_and_its_suggestion(wh):
    [f] = findings(wh, "rule = 'cpu_identity' AND source_line = 135")
    assert f["severity"] == "error"
    assert "2139.0" in f["message"] and "3.549" in f["message"]
    # rate, %CPU and cost agree if two digits of the rate were swapped
    assert (f["metric"], f["printed_value"], f["suggested_value"]) == ("msg_rate", "2139.0", "2319.0")


def test_ace13_designer_json_parse_multi_replica_table_repeats_other_labels(wh):
    lines = {(f["rule"], f["source_line"]) for f in findings(wh, "source LIKE 'ace13%'")}
    for line in (352, 353, 354):
        assert ("cross_table_consistency", line) in lines
        assert ("repeated_values", line) in lines
    assert ("conflicting_key", 353) in lines and ("conflicting_key", 354) in lines
    [f] = findings(wh, "rule = 'repeated_values' AND source_line = 352")
    assert "95.11 / 5.08" in f["message"] and "line 335" in f["message"]


def test_claims_against_tables(wh):
    by_line = {(f["source"], f["source_line"]): f for f in findings(wh, "rule = 'claim_vs_table'")}
    ms = "messagesight1-2013.txt"
    assert "1523" in by_line[(ms, 13)]["message"]  # "over 1550 messages per Watt"
    assert "65" in by_line[(ms, 14)]["message"]  # "in less than 60 seconds"
    wbimb = "wbimb5-aix-2004.txt"
    assert "760.33 at 4096 bytes" in by_line[(wbimb, 204)]["message"]
    assert "273.67 at 4096 bytes" in by_line[(wbimb, 359)]["message"]
    assert "219.67 at 4096 bytes" in by_line[(wbimb, 361)]["message"]
    assert "4.22 % overhead" in by_line[(wbimb, 460)]["message"]
    # the claims that hold are not reported (2601, 699, "over 400K", "over 15M", ...)
    assert (wbimb, 251) not in by_line and (ms, 16) not in by_line and (ms, 18) not in by_line
    assert dict(wh.sql("SELECT source_file, count(*) FROM fact_claim WHERE claim_kind = 'value' "
                       "GROUP BY 1").fetchall()) == claims("value")


def test_cross_table_repeats_in_wbimb_agree(wh):
    """10.3.4 = 10.11.1.1 = 10.11.2.1 and Tables 1 and 2 repeat chapter 10 exactly."""
    assert not findings(wh, "rule = 'cross_table_consistency' AND source LIKE 'wbimb%'")
    pairs = scalar(wh, """
        SELECT count(*) FROM dq_input a JOIN dq_input b
          ON a.scenario = b.scenario AND a.message_size_bytes = b.message_size_bytes
         AND a.persistent = b.persistent AND a.config_key = b.config_key
         AND a.source = b.source AND a.table_title < b.table_title
        WHERE a.source LIKE 'wbimb%'""")
    assert pairs >= 4 * 3 + 3 * 2 + 16  # 10.3.4 triplets, Table 1 pairs, Table 2 cells


def test_windows_cpu_accounting_is_flagged_without_suggestions(wh):
    windows = findings(wh, "rule = 'cpu_capacity' AND table_title LIKE '%(Windows)'")
    assert len(windows) > 50
    assert all(f["suggested_value"] is None for f in windows)


def test_candidates_undo_each_kind_of_slip():
    def fixes(printed, value, metric="msg_rate"):
        return {(c.printed, c.kind) for c in candidates(printed, value, metric)}

    assert ("1362.3", "doubled") in fixes("13662.3", 13662.3)
    assert ("1362.3", "swapped") in fixes("1632.3", 1632.3)
    assert ("1362.3", "decimal") in fixes("13623", 13623.0)
    assert ("1362.3", "decimal") in fixes("136.23", 136.23)
    assert ("1362.3", "extra_digit") in fixes("13672.3", 13672.3)
    assert ("1362.3", "dropped") in fixes("162.3", 162.3)
    assert ("476.71 μs", "unit") in fixes("476.71 ms", 476.71, "cpu_ms_per_msg")
    assert ("0.00105", "unit") in fixes("1.05", 1.05, "cpu_ms_per_msg")



def test_the_repair_suggests_the_same_whatever_order_its_rules_run_in(tmp_path, built_warehouse,
                                                                     monkeypatch):
    """The typo repair runs the rules one rule at a time over the candidate worlds still alive
    and drops a world as soon as one rule rules its correction out; the order only changes the
    work. Any order, and every rule on every world with nothing dropped, give the same
    suggestions (a generated lab's file with a slip in one row of 25; nothing fitted, which the
    order does not touch)."""
    import random

    path = synthetic.write(tmp_path / "lab.csv", 300, typo_every=25)
    rules = load_rules()
    with checked(path, warehouse=built_warehouse, fit_limit=0) as (_result, con):
        found = [f for f in run_rules(con, [r for r in rules if r.relation == "dq_input"])
                 if f["source"] == path.name]

        def suggestions() -> list[tuple]:
            return sorted((f["rule"], f["row_id"], str(f["related_row_id"]), str(f["metric"]),
                           str(f["suggested_value"]), f["message"])
                          for f in suggest(con, [dict(f) for f in found], rules))

        reference = suggestions()
        assert sum(1 for s in reference if s[4] != "None") >= 5, reference
        for seed in range(2):
            monkeypatch.setattr(repair._RuleCosts, "order",
                                lambda self, some, seed=seed: random.Random(seed).sample(some, len(some)))
            assert suggestions() == reference, f"rules shuffled with seed {seed}"
        monkeypatch.setattr(repair, "_spoilt", lambda *_args: set())
        monkeypatch.setattr(repair, "_keeps_every_target", lambda *_args: False)
        assert suggestions() == reference, "every rule on every world"


def test_a_rule_runs_on_a_candidate_that_does_not_need_it_only_where_it_pays_as_a_filter():
    """The repair runs a rule that raised none of a candidate's row's targets on that
    candidate only if, as measured, what it costs is less than what it saves: the share of
    candidates it drops times what the rules the candidate still needs cost. Unmeasured, only
    a rule comparing a row with itself runs (cheap whatever it drops)."""
    rules = {r.name: r for r in load_rules()}
    costs = repair._RuleCosts()
    row_rule, band_rule, needed = rules["cpu_capacity"], rules["capacity_underused"], "monotonic_sweep"
    assert row_rule.compares == "row" and band_rule.compares != "row"
    assert costs.worth_running(band_rule, {"capacity_underused"})  # needed: always
    assert costs.worth_running(row_rule, {needed}) and not costs.worth_running(band_rule, {needed})
    costs.record(rules[needed], seconds=1.0, worlds=1000, dropped=10)      # 1 ms a candidate
    costs.record(row_rule, seconds=0.1, worlds=1000, dropped=500)          # 0.1 ms, drops half
    costs.record(band_rule, seconds=0.9, worlds=1000, dropped=500)         # 0.9 ms, drops half
    assert costs.worth_running(row_rule, {needed})       # 0.1 < 0.5 x 1
    assert not costs.worth_running(band_rule, {needed})  # 0.9 > 0.5 x 1
    assert not costs.worth_running(row_rule, set())      # nothing left to save


def test_finding_columns_are_what_rules_return():
    assert FINDING_COLUMNS[:2] == ("world", "row_id")
    assert (RULES_DIR / "cpu_identity.sql").is_file()


def test_readme_rule_table_is_the_generated_one():
    """The README's table of rules is `perfwh rules --markdown`: adding a rule file is all it takes."""
    from perfwh.core.paths import PROJECT_ROOT
    from perfwh.quality.rules import rules_markdown

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert rules_markdown(load_rules()) in readme


def test_every_rule_declares_its_repair_class():
    from perfwh.quality.rules import REPAIR_CLASSES

    rules = load_rules()
    assert {r.repair for r in rules} <= set(REPAIR_CLASSES)
    assert {r.name for r in rules if r.repair == "tight"} >= {"cpu_identity", "cross_table_consistency"}


def test_finding_ids_are_the_same_in_python_and_in_the_warehouse(wh):
    """The id --waive takes: rule@line:metric, and rule@line for a finding without a metric."""
    stored = wh.sql("SELECT rule, source_line, metric, finding_key FROM dq_findings").fetchall()
    assert stored and any(metric is None for _, _, metric, _ in stored)
    for rule, line, metric, key in stored:
        assert finding_id({"rule": rule, "source_line": line, "metric": metric}) == key
        assert "None" not in key
    assert finding_id({"rule": "claim_count", "source_line": 168, "metric": None}) == "claim_count@168"


def test_a_rule_out_of_memory_stays_an_out_of_memory_error_naming_the_rule(tmp_path):
    """Running out of memory is not a fault of the rule: callers advise --memory-limit."""
    import duckdb

    from perfwh.quality.rules import create_found, store_rule

    path = tmp_path / "huge_sort.sql"
    path.write_text("-- severity: error\n-- relation: dq_input\n-- compares: row\n-- repair: none\n"
                    "-- summary: sorts more than fits\n-- reason: a rule that needs more memory "
                    "than the limit allows, with spilling to disk turned off for the test\n"
                    "SELECT 0 AS world, NULL::INTEGER AS row_id, NULL::INTEGER AS fact_id, "
                    "NULL AS source, NULL::INTEGER AS source_line, NULL AS table_title, NULL AS metric, "
                    "NULL AS printed_value, string_agg(CAST(range AS VARCHAR) || repeat('x', 50), ',' "
                    "ORDER BY random()) AS message, NULL::INTEGER AS related_row_id "
                    "FROM range(3000000), (SELECT count(*) FROM {batch})\n", encoding="utf-8")
    rule = parse_rule(path)
    con = duckdb.connect(config={"memory_limit": "32MB", "temp_directory": ""})
    con.sql("CREATE TABLE dq_input AS SELECT 1 AS x")
    create_found(con)
    with pytest.raises(duckdb.OutOfMemoryException, match="huge_sort.sql: Out of Memory"):
        store_rule(con, rule, "dq_input")
