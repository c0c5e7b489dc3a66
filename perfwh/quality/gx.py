"""The rule files run as Great Expectations 1.x expectations on the DuckDB warehouse.

One UnexpectedRowsExpectation per rule, on a table asset for the rule's relation
(dq_input, dq_values or dq_claims), validated through a Checkpoint; the offending rows
come back in the results and become the same findings `perfwh.dq.run_rules` returns.
Results (JSON) and Data Docs are written under ``out_dir`` (data/curated/gx/). GX runs
offline with its usage statistics off.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .rules import FINDING_COLUMNS, Rule, RuleError, finding_rows, sort_findings

PAGE = 200  # GX returns at most this many unexpected rows per expectation (MAX_RESULT_RECORDS)


class _PersistedDuckDB(str):
    """A dialect entry GX compares by string and by ``.value``."""

    value = "duckdb"


def _keep_duckdb_connection() -> None:
    """Work around GX issues #10738 / #11579: GX opens a connection per query and closes it
    before reading the rows, and duckdb-engine loses them (every expectation comes back
    empty or raises IndexError). GX keeps one persisted connection for sqlite; registering
    duckdb the same way fixes it. The one place perfwh patches GX; tests/test_gx.py covers it.
    """
    from great_expectations.execution_engine import sqlalchemy_execution_engine as engine

    if "duckdb" not in engine._PERSISTED_CONNECTION_DIALECTS:
        engine._PERSISTED_CONNECTION_DIALECTS = (
            engine._PERSISTED_CONNECTION_DIALECTS + (_PersistedDuckDB("duckdb"),))


def hide_pyspark() -> None:
    """Make `import pyspark` fail in this process, before great_expectations is imported.

    GX imports PySpark whenever it is installed (for its Spark data sources, which perfwh does
    not use), and PySpark's Spark Connect module then ends any process started with
    `python -c` (it takes it for a doctest run and calls sys.exit(0)) and warns about pandas
    3. perfwh runs GX on DuckDB only, in a child process of its own, so GX never needs PySpark.
    """
    import sys

    if "great_expectations" not in sys.modules:
        sys.modules.setdefault("pyspark", None)


def _paged(rule: Rule, offset: int) -> str:
    """The rule's query, one page of its rows in a fixed order."""
    order = ", ".join(FINDING_COLUMNS)
    return (f"SELECT * FROM (\n{rule.sql}\n) AS page ORDER BY {order} "
            f"LIMIT {PAGE} OFFSET {offset}")


def run_rules_with_gx(warehouse: Path, rules: list[Rule], out_dir: Path | None = None) -> list[dict]:
    """Validate the warehouse file with every rule; return the findings.

    The warehouse must not be open in this process with another configuration (DuckDB
    allows one configuration per file per process)."""
    os.environ["GX_ANALYTICS_ENABLED"] = "false"
    hide_pyspark()
    import great_expectations as gx
    from great_expectations import expectations as gxe

    _keep_duckdb_connection()
    project = Path(tempfile.mkdtemp(prefix="perfwh-gx-"))
    try:
        context = gx.get_context(mode="file", project_root_dir=str(project))
        context.enable_analytics(False)
        context.variables.progress_bars = {"globally": False}
        source = context.data_sources.add_sql(
            name="warehouse", connection_string=f"duckdb:///{Path(warehouse).resolve()}")
        findings: list[dict] = []
        results_json = []
        pending = [(rule, None) for rule in rules]
        while pending:
            batch, pending = pending, []
            for relation in sorted({rule.relation for rule, _ in batch}):
                chosen = [(r, o) for r, o in batch if r.relation == relation]
                result = _validate(context, source, relation, chosen, gx, gxe)
                results_json.append(result.describe_dict() if hasattr(result, "describe_dict")
                                    else json.loads(json.dumps(result.to_json_dict(), default=str)))
                for (rule, offset), outcome in zip(chosen, _outcomes(result, chosen)):
                    count, rows = outcome
                    findings.extend(finding_rows(rule, rows))
                    if offset is None and count > PAGE:
                        pending.extend((rule, o) for o in range(PAGE, count, PAGE))
        if out_dir is not None:
            _write_outputs(context, project, Path(out_dir), results_json)
        return sort_findings(findings)
    finally:
        shutil.rmtree(project, ignore_errors=True)


def _validate(context, source, relation, chosen, gx, gxe):
    name = f"{relation}-{len(context.suites.all())}"
    asset = (source.get_asset(relation) if relation in {a.name for a in source.assets}
             else source.add_table_asset(name=relation, table_name=relation))
    batch_definition = asset.add_batch_definition_whole_table(name)
    suite = context.suites.add(gx.ExpectationSuite(name=name))
    for rule, offset in chosen:
        query = rule.sql if offset is None else _paged(rule, offset)
        suite.add_expectation(gxe.UnexpectedRowsExpectation(
            unexpected_rows_query=query, description=f"{rule.name}: {rule.reason}",
            meta={"rule": rule.name, "severity": rule.severity, "offset": offset}))
    validation = context.validation_definitions.add(
        gx.ValidationDefinition(name=name, data=batch_definition, suite=suite))
    checkpoint = context.checkpoints.add(gx.Checkpoint(
        name=name, validation_definitions=[validation],
        result_format={"result_format": "COMPLETE"}))
    return checkpoint.run()


def _outcomes(result, chosen) -> list[tuple[int, list[dict]]]:
    """(unexpected row count, rows) per expectation, in the order of ``chosen``."""
    validation = next(iter(result.run_results.values()))
    by_rule: dict[tuple, tuple[int, list[dict]]] = {}
    for item in validation.results:
        meta = item.expectation_config.meta or {}
        for info in _exceptions(item.exception_info):
            raise RuleError(f"rules/{meta.get('rule')}.sql under Great Expectations: "
                            f"{info.get('exception_message')}")
        details = (item.result or {}).get("details") or {}
        rows = [dict(row) for row in details.get("unexpected_rows") or []]
        by_rule[(meta.get("rule"), meta.get("offset"))] = (
            int((item.result or {}).get("observed_value") or 0), rows)
    missing = [rule.name for rule, offset in chosen if (rule.name, offset) not in by_rule]
    if missing:
        raise RuleError("Great Expectations returned no result for " + ", ".join(missing))
    return [by_rule[(rule.name, offset)] for rule, offset in chosen]


def _exceptions(info) -> list[dict]:
    """Raised exceptions of a result, whose exception_info is either one record or a dict
    of records keyed by metric."""
    if not info:
        return []
    records = [info] if "raised_exception" in info else list(info.values())
    return [r for r in records if isinstance(r, dict) and r.get("raised_exception")]


def _write_outputs(context, project: Path, out_dir: Path, results_json: list) -> None:
    """Validation results as JSON and the Data Docs site (a by-product: its pages load
    bootstrap and vega from CDNs, so offline they render unstyled)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "validation_results.json").write_text(
        json.dumps(results_json, indent=1, default=str, sort_keys=True), encoding="utf-8")
    context.build_data_docs()
    docs = next(project.rglob("data_docs/local_site"), None)
    if docs is not None:
        target = out_dir / "data_docs"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(docs, target)


def findings_in_subprocess(warehouse: Path, out_dir: Path | None) -> list[dict]:
    """Run the rules through GX in a child process: GX holds the DuckDB file open with its
    own configuration, which would block this process from reopening it, and its import
    costs seconds that `perfwh check` must not pay."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory(prefix="perfwh-gx-") as tmp:
        result_file = Path(tmp) / "findings.json"
        command = [sys.executable, "-m", "perfwh.quality.gx", str(warehouse), str(result_file)]
        if out_dir is not None:
            command.append(str(out_dir))
        env = dict(os.environ, GX_ANALYTICS_ENABLED="false", TQDM_DISABLE="1")
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            said = without_leak_report(done.stderr).strip() or done.stdout.strip()
            raise RuleError("Great Expectations run failed: " + said[-2000:])
        return json.loads(result_file.read_text(encoding="utf-8"))


def without_leak_report(stderr: str) -> str:
    """A child's error output without the report nanobind (DuckDB's bindings) prints as the
    interpreter exits ("nanobind: leaked 15 instances!" and a line per object): printed after
    the traceback, it filled the 2,000 characters an error quotes and hid the error itself."""
    lines = stderr.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("nanobind: leaked")), len(lines))
    return "\n".join(lines[:start])


def main(argv: list[str] | None = None) -> int:
    import sys

    from .rules import load_rules

    args = argv if argv is not None else sys.argv[1:]
    warehouse, result_file = Path(args[0]), Path(args[1])
    out_dir = Path(args[2]) if len(args) > 2 else None
    findings = run_rules_with_gx(warehouse, load_rules(), out_dir)
    result_file.write_text(json.dumps(findings), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
