"""`perfwh check PATH`: every rule on newly submitted results, before they enter the warehouse.

A submission is a CSV in the template (`ingest.submission`) or a report text or PDF of
a known family; a revised edition of a known report borrows that report's platform and
product facts from sources.yml. The check runs in an in-memory DuckDB: the submission's
rows are the subject, and warehouse rows of the same product, version, platform and
scenario are context (compared against, never reported; their source shows as
``warehouse:<file>``). The warehouse itself is opened read-only and never changed.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ingest import families
from ingest import submission as template
from ingest.reader import read_lines
from ingest.records import ParseError

from . import SOURCES_FILE, WAREHOUSE
from .dq import Rule, finding_id, load_rules, run_rules, sort_findings
from .sources import ReportSource, SourceError, load_manifest, sha256_of
from .warehouse import LoadedReport, run

CHECK_RELATION = "check_input"


class SubmissionError(RuntimeError):
    """The submission could not be read (exit status 2)."""


@dataclass
class CheckResult:
    path: Path
    kind: str  # csv | report
    family: str | None
    rows: int
    findings: list[dict] = field(default_factory=list)

    @property
    def errors(self) -> list[dict]:
        return [f for f in self.findings if f["severity"] == "error"]


def is_csv(path: Path) -> bool:
    if Path(path).suffix.lower() == ".csv":
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(200).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError:
        return False
    return head.split("\n", 1)[0].replace(" ", "").startswith("product,")


def check(path: Path, warehouse: Path | None = WAREHOUSE, sources_file: Path = SOURCES_FILE,
          rules: list[Rule] | None = None, repair: bool = True) -> CheckResult:
    path = Path(path)
    if not path.is_file():
        raise SubmissionError(f"{path}: no such file")
    rules = rules or load_rules()
    con = duckdb.connect()
    try:
        if is_csv(path):
            result = _load_csv(con, path)
        else:
            result = _load_report(con, path, sources_file)
        _add_context(con, warehouse)
        findings = run_rules(con, rules, {"dq_input": CHECK_RELATION})
        if repair:
            from .repair import suggest

            findings = suggest(con, findings, rules, CHECK_RELATION)
    finally:
        con.close()
    result.findings = [f for f in sort_findings(findings) if f["world"] == 0]
    for f in result.findings:
        f.setdefault("suggested_value", None)
    return result


def _empty_warehouse(con: duckdb.DuckDBPyConnection) -> None:
    from .build import create_warehouse

    create_warehouse(con, [])


def _load_report(con, path: Path, sources_file: Path) -> CheckResult:
    from .build import create_warehouse

    try:
        lines = read_lines(path)
        family = families.detect(lines, str(path))
        parsed = families.parse(family, lines, str(path))
    except ParseError as err:
        raise SubmissionError(str(err.located(str(path)) if err.source is None else err)) from None
    try:
        known = [s for s in load_manifest(sources_file) if s.family == family]
    except SourceError as err:
        raise SubmissionError(str(err)) from None
    if not known:
        raise SubmissionError(f"{path}: a {family} report, but sources.yml has no {family} report "
                              "whose platform and product facts a revision could borrow")
    borrowed = known[0]
    source = ReportSource(str(path), family, sha256_of(path), dict(borrowed.entry, file=str(path)))
    try:
        create_warehouse(con, [LoadedReport(source, parsed, len(lines))])
    except Exception as err:  # keys the borrowed entry lacks, and the like
        raise SubmissionError(f"{path}: {err}") from None
    run(con, f"CREATE TEMP TABLE {CHECK_RELATION} AS SELECT * FROM dq_input")
    rows = run(con, f"SELECT count(*) FROM {CHECK_RELATION}")[0][0]
    return CheckResult(path, "report", family, rows)


def _csv_lines(path: Path) -> list[int] | None:
    """Line numbers of the data rows when a quoted field may span lines; None when no
    field is quoted (then data row n is on line n + 1)."""
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        text = handle.read()
    if '"' not in text:
        return None
    reader = csv.reader(io.StringIO(text))
    next(reader, None)
    starts, line = [], reader.line_num
    for cells in reader:
        if any(c.strip() for c in cells):
            starts.append(line + 1)
        line = reader.line_num
    return starts


def _load_csv(con, path: Path) -> CheckResult:
    """The CSV straight into DuckDB as the check relation (the shape of dq_input)."""
    _empty_warehouse(con)
    literal = str(path).replace("'", "''")
    try:
        run(con, f"""CREATE TEMP TABLE submission_raw AS
                     SELECT *, row_number() OVER () AS n
                     FROM read_csv('{literal}', header = true, all_varchar = true,
                                   delim = ',', quote = '"', escape = '"', strict_mode = false)""")
    except duckdb.Error as err:
        raise SubmissionError(f"{path}: cannot be read as CSV: {str(err).splitlines()[0]}") from None
    header = [c for c in con.sql("SELECT * FROM submission_raw LIMIT 0").columns if c != "n"]
    problem = template.header_problem(header)
    if problem:
        raise SubmissionError(f"{path}:1: {problem} (expected the submission template header: "
                              + ",".join(template.COLUMNS) + ")")
    rows = run(con, "SELECT count(*) FROM submission_raw")[0][0]
    if rows == 0:
        raise SubmissionError(f"{path}: no data rows below the header")
    lines = _csv_lines(path)
    if lines is not None:
        con.register("_lines", __import__("pyarrow").table({"n": list(range(1, len(lines) + 1)),
                                                           "line": lines}))
        line_of = "(SELECT line FROM _lines WHERE _lines.n = s.n)"
    else:
        line_of = "s.n + 1"
    source = str(path).replace("'", "''")
    persistent = ("CASE WHEN lower(trim(s.persistent)) IN ({t}) THEN TRUE "
                  "WHEN lower(trim(s.persistent)) IN ({f}) THEN FALSE END").format(
        t=", ".join(f"'{w}'" for w in template.TRUE_WORDS),
        f=", ".join(f"'{w}'" for w in template.FALSE_WORDS))
    metrics = []
    for metric in template.METRIC_COLUMNS:
        metrics.append(f"""
            TRY_CAST(nullif(trim(s.{metric}), '') AS DOUBLE) AS {metric},
            nullif(trim(s.{metric}), '') AS {metric}_printed,
            0.5 * POWER(10, -length(split_part(trim(s.{metric}), '.', 2))) AS {metric}_half_ulp,
            NULL::INTEGER AS {metric}_fact_id""")
    run(con, f"""
        CREATE TEMP TABLE {CHECK_RELATION} AS
        SELECT
            0 AS world, TRUE AS subject, CAST({line_of} AS INTEGER) AS row_id,
            '{source}' AS source, CAST({line_of} AS INTEGER) AS source_line,
            '{template.TABLE_TITLE}' AS table_title,
            nullif(trim(s.product), '') AS product, nullif(trim(s.product_version), '') AS product_version,
            nullif(trim(s.platform), '') AS platform,
            TRY_CAST(nullif(trim(s.server_cores), '') AS INTEGER) AS server_cores,
            nullif(trim(s.scenario), '') AS scenario,
            TRY_CAST(nullif(trim(s.message_size_bytes), '') AS BIGINT) AS message_size_bytes,
            {persistent} AS persistent,
            nullif(trim(s.concurrency_kind), '') AS concurrency_kind,
            TRY_CAST(nullif(trim(s.concurrency), '') AS DOUBLE) AS concurrency,
            TRY_CAST(nullif(trim(s.replicas), '') AS INTEGER) AS replicas,
            NULL::VARCHAR AS tshirt,
            CASE WHEN trim(s.concurrency_kind) IN ('docker_cores', 'tshirt')
                 THEN TRY_CAST(nullif(trim(s.concurrency), '') AS DOUBLE) END AS cpu_limit_cores,
            config_key(nullif(trim(s.concurrency_kind), ''),
                       TRY_CAST(nullif(trim(s.concurrency), '') AS DOUBLE),
                       TRY_CAST(nullif(trim(s.replicas), '') AS INTEGER), NULL) AS config_key,
            {','.join(metrics)}
        FROM submission_raw s
        WHERE coalesce(s.product, s.scenario, s.msg_rate, s.cpu_busy_pct, s.cpu_ms_per_msg) IS NOT NULL""")
    return CheckResult(path, "csv", None, rows)


def _add_context(con, warehouse: Path | None) -> None:
    """Warehouse rows of the submission's products and scenarios, as context."""
    if warehouse is None or not Path(warehouse).is_file():
        return
    literal = str(warehouse).replace("'", "''")
    run(con, f"ATTACH '{literal}' AS wh (READ_ONLY)")
    columns = ", ".join(c for c in con.sql(f"SELECT * FROM {CHECK_RELATION} LIMIT 0").columns)
    run(con, f"""
        INSERT INTO {CHECK_RELATION}
        SELECT {columns} FROM (
            SELECT w.* REPLACE (FALSE AS subject, 'warehouse:' || w.source AS source,
                                -w.row_id AS row_id)
            FROM wh.dq_input w
            SEMI JOIN (SELECT DISTINCT product, product_version, platform, scenario
                       FROM {CHECK_RELATION}) s
              ON s.product = w.product AND s.product_version = w.product_version
             AND s.platform = w.platform AND s.scenario = w.scenario)""")


def format_line(f: dict) -> str:
    text = f"{f['source']}:{f['source_line']}: {f['severity']} {f['rule']}: {f['message']}"
    if f.get("suggested_value"):
        text += f" (suggest {f['suggested_value']})"
    return text


def as_json(f: dict) -> dict:
    return {"file": f["source"], "line": f["source_line"],
            "severity": f["severity"], "rule": f["rule"], "metric": f["metric"],
            "printed_value": f["printed_value"], "message": f["message"],
            "suggested_value": f.get("suggested_value")}
