"""Generated submissions: physically consistent CSVs of every shape (bench/synthetic.py, drawn
by Hypothesis through tests/support/strategies.py) get no error, and warnings only where the
generator made an oddity; each row is read by its own machine."""
from __future__ import annotations

import tempfile
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from ingest.units import UNITS, half_ulp
from perfwh.stages.check import check
from support.strategies import SHAPES, submissions, synthetic

# A check costs about two seconds: a few examples of several shapes each, and one
# deterministic submission of every shape.
CHECKED = settings(max_examples=4, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def checked_findings(submission: synthetic.Submission, warehouse: Path) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="perfwh-generated-") as folder:
        path = submission.write(Path(folder) / "generated.csv")
        return check(path, warehouse=warehouse).findings


def number(cell: str, quantity: str) -> tuple[Decimal, Decimal]:
    """(value, half a unit of its last printed digit) of a printed cell, in the column's unit."""
    text = cell.strip()
    for token in sorted(UNITS[quantity], key=len, reverse=True):
        if token and text.endswith(token):
            factor = Decimal(UNITS[quantity][token][1])
            digits = text[: -len(token)].strip()
            break
    else:
        factor, digits = Decimal(1), text
    return Decimal(digits) * factor, Decimal(str(half_ulp(digits))) * factor


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(submissions(oddity_rate=0.2))
def test_generated_numbers_hold_together_at_their_printed_precision(submission):
    """cores x 10 x %CPU / rate = CPU cost within the printed precision wherever the three are
    printed with the cores; every number positive, %CPU at most 100, rate x cost within the
    server's cores: what the rules assume, in every shape, oddities included."""
    assert submission.rows
    for row in submission.rows:
        rate, rate_ulp = number(row["msg_rate"], "rate")
        assert rate > 0
        if row["cpu_busy_pct"]:
            pct, pct_ulp = number(row["cpu_busy_pct"], "percent")
            assert 0 < pct <= 100
        if row["cpu_ms_per_msg"]:
            cost, cost_ulp = number(row["cpu_ms_per_msg"], "cpu_cost")
            assert cost > 0
            if row["server_cores"]:
                assert (rate - rate_ulp) * (cost - cost_ulp) / 1000 <= int(row["server_cores"])
        if row["cpu_busy_pct"] and row["cpu_ms_per_msg"] and row["server_cores"]:
            k = Decimal(row["server_cores"]) * 10
            low = k * (pct - pct_ulp) / (rate + rate_ulp)
            high = k * (pct + pct_ulp) / (rate - rate_ulp)
            assert low <= cost + cost_ulp and cost - cost_ulp <= high, row


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(submissions())
def test_numbers_printed_on_two_rows_are_one_run_or_a_recorded_coincidence(submission):
    """Two rows of other labels with the same printed numbers look like a row copied under the
    wrong labels (the repeated-values rule asks): the generator prints a run twice only where
    it is one run under two names (the single copy), and records any other repeat - two runs
    whose costs differ by less than the printed digits resolve - as an oddity."""
    recorded = {line for oddity in submission.oddities for line in oddity.lines}
    by_numbers: dict[tuple, list[int]] = {}
    for line, row in enumerate(submission.rows, start=2):
        numbers = (row["msg_rate"], row["cpu_busy_pct"], row["cpu_ms_per_msg"])
        if sum(bool(v) for v in numbers) >= 2:
            by_numbers.setdefault(numbers, []).append(line)
    for numbers, lines in by_numbers.items():
        rows = [submission.rows[n - 2] for n in lines]
        one_run = all(r["concurrency"] == "1" and r["concurrency_kind"] in ("flow_instances", "execution_groups")
                      for r in rows) and len({(r["scenario"], r["message_size_bytes"], r["persistent"],
                                               r["platform"], r["product"]) for r in rows}) == 1
        assert len(lines) == 1 or one_run or set(lines) <= recorded, (numbers, lines)


def test_execution_groups_and_flow_instances_cost_apart():
    """n execution groups are n processes, n flow instances n threads in one: their costs
    differ (WBIMB's chapter 10), so a sweep of each does not print the other's numbers."""
    for n in (2, 4, 8):
        groups, instances = synthetic._threads("execution_groups", n), synthetic._threads("flow_instances", n)
        assert groups.cost_factor > instances.cost_factor * 1.01
        assert groups.run is None and instances.run is None
    one_group, one_instance = synthetic._threads("execution_groups", 1), synthetic._threads("flow_instances", 1)
    assert one_group.cost_factor == one_instance.cost_factor  # the single copy: one run
    assert one_group.run == one_instance.run is not None


@CHECKED
@given(submissions(oddity_rate=0.1))
def test_a_generated_submission_gets_no_error_and_warnings_only_at_its_oddities(built_warehouse, submission):
    findings = checked_findings(submission, built_warehouse)
    assert submission.unexplained(findings) == []


def test_every_shape_in_one_file_is_read_without_a_false_alarm(built_warehouse):
    """One submission of every shape in one file (machines apart, tests and product versions
    shared, as a lab's results of several machines): no error, warnings only at oddities."""
    submission = synthetic.combined(synthetic.RandomDraw(23), SHAPES, oddity_rate=0.05)
    assert len(submission.rows) > 200 and submission.oddities
    findings = checked_findings(submission, built_warehouse)
    assert submission.unexplained(findings) == []
    # the oddities are questioned, not passed over
    assert any(f["severity"] == "warning" for f in findings)


TWO_MACHINES = """product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg
ACME,1.0,lab,2,Echo A,1024,false,flow_instances,1,,1000.00,50.0,1.000
ACME,1.0,lab,2,Echo A,10240,false,flow_instances,1,,500.00,50.0,2.000
ACME,1.0,lab,2,Echo A,102400,false,flow_instances,1,,100.00,50.0,10.000
ACME,1.0,lab,8,Echo B,1024,false,flow_instances,1,,4000.00,50.0,1.000
ACME,1.0,lab,8,Echo B,10240,false,flow_instances,1,,2000.00,50.0,2.000
ACME,1.0,lab,8,Echo B,102400,false,flow_instances,1,,400.00,50.0,{cost}
"""


def test_each_row_is_read_by_its_own_servers_cores(tmp_path, built_warehouse):
    """A 2-core and an 8-core server of one platform name in one file, every row exact (rate x
    CPU cost = cores x %CPU): no finding. A cost typed wrong on the 8-core server is measured
    against its own 8 cores, not a count implied by the table."""
    clean = tmp_path / "two-machines.csv"
    clean.write_text(TWO_MACHINES.format(cost="10.000"))
    result = check(clean, warehouse=built_warehouse)
    assert result.findings == []
    slipped = tmp_path / "two-machines-slip.csv"
    slipped.write_text(TWO_MACHINES.format(cost="100.000"))
    errors = check(slipped, warehouse=built_warehouse).errors
    identity = [f for f in errors if f["rule"] == "cpu_identity"]
    assert [f["source_line"] for f in identity] == [7]
    assert "but 8 cores x 50.0% CPU / 400.00 msgs/s gives 10 ms" in identity[0]["message"]
