"""Data-quality rules: loading the rule files, running them, storing the findings.

A rule is one SQL file in rules/: a query returning the offending rows, with its
severity, the relation it checks and its reason in the header comments:

    -- severity: error
    -- relation: dq_input
    -- reason: why a row returned by this query is a problem ...

The query reads its relation as ``{batch}`` (Great Expectations substitutes the batch
there; run directly, ``{batch}`` becomes the relation's name) and returns the columns
of FINDING_COLUMNS. The same files run in two ways: directly in DuckDB (this module)
and as Great Expectations expectations (`perfwh.gx`); a test shows both report the
same findings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from . import RULES_DIR
from .warehouse import run

SEVERITIES = ("error", "warning")
RELATIONS = ("dq_input", "dq_values", "dq_claims")
# What every rule returns, in this order.
# related_row_id: the other row a comparison rule compared against (NULL for one-row rules);
# the typo repair tries corrections on both.
FINDING_COLUMNS = ("world", "row_id", "fact_id", "source", "source_line", "table_title",
                   "metric", "printed_value", "message", "related_row_id")
_HEADER = re.compile(r"^--\s*(?P<key>severity|relation|reason):\s*(?P<value>.*)$")


class RuleError(ValueError):
    """A rule file that cannot be used; names the file."""


@dataclass(frozen=True)
class Rule:
    name: str
    severity: str
    relation: str
    reason: str
    sql: str
    path: Path

    def query(self, relation: str | None = None) -> str:
        """The rule's SQL with ``{batch}`` replaced by a relation name (default: its own)."""
        return self.sql.replace("{batch}", relation or self.relation)


def parse_rule(path: Path) -> Rule:
    text = Path(path).read_text(encoding="utf-8")
    header: dict[str, str] = {}
    key = None
    body_start = 0
    lines = text.splitlines()
    for number, line in enumerate(lines):
        match = _HEADER.match(line)
        if match:
            key = match.group("key")
            header[key] = match.group("value").strip()
        elif line.startswith("--") and key == "reason":
            header["reason"] += " " + line.lstrip("- ").strip()
        else:
            body_start = number
            break
    missing = [k for k in ("severity", "relation", "reason") if not header.get(k)]
    if missing:
        raise RuleError(f"{path}: header lacks {', '.join(missing)} "
                        "(expected '-- severity:', '-- relation:' and '-- reason:' lines)")
    if header["severity"] not in SEVERITIES:
        raise RuleError(f"{path}: severity {header['severity']!r}, expected one of {SEVERITIES}")
    if header["relation"] not in RELATIONS:
        raise RuleError(f"{path}: relation {header['relation']!r}, expected one of {RELATIONS}")
    sql = "\n".join(lines[body_start:]).strip().rstrip(";")
    if "{batch}" not in sql:
        raise RuleError(f"{path}: the query never reads {{batch}}")
    return Rule(Path(path).stem, header["severity"], header["relation"], header["reason"], sql,
                Path(path))


def load_rules(rules_dir: Path = RULES_DIR) -> list[Rule]:
    rules = [parse_rule(p) for p in sorted(Path(rules_dir).glob("*.sql"))]
    if not rules:
        raise RuleError(f"{rules_dir}: no rule files")
    return rules


def finding_rows(rule: Rule, rows: list[dict]) -> list[dict]:
    """Rows a rule returned, checked for shape and tagged with the rule."""
    out = []
    for row in rows:
        missing = [c for c in FINDING_COLUMNS if c not in row]
        if missing:
            raise RuleError(f"{rule.path}: the query does not return {', '.join(missing)}")
        finding = {c: row[c] for c in FINDING_COLUMNS}
        for column in ("world", "row_id", "fact_id", "source_line", "related_row_id"):
            if finding[column] is not None:
                finding[column] = int(finding[column])
        finding["rule"] = rule.name
        finding["severity"] = rule.severity
        out.append(finding)
    return out


def run_rule(con: duckdb.DuckDBPyConnection, rule: Rule, relation: str | None = None) -> list[dict]:
    try:
        result = con.sql(rule.query(relation))
        columns = result.columns
        rows = [dict(zip(columns, values)) for values in result.fetchall()]
    except duckdb.Error as err:
        raise RuleError(f"{rule.path}: {err}") from None
    return finding_rows(rule, rows)


def run_rules(con: duckdb.DuckDBPyConnection, rules: list[Rule] | None = None,
              relations: dict[str, str] | None = None) -> list[dict]:
    """Every rule run directly in DuckDB; ``relations`` maps a rule relation to another
    relation name (the typo repair runs the dq_input rules on its candidate worlds)."""
    findings = []
    for rule in rules if rules is not None else load_rules():
        findings.extend(run_rule(con, rule, (relations or {}).get(rule.relation)))
    return sort_findings(findings)


def finding_id(f: dict) -> str:
    """A stable name for a finding, used to waive it: rule@line:metric."""
    return f"{f['rule']}@{f['source_line']}:{f['metric']}"


def finding_key(f: dict) -> tuple:
    return (f["source"] or "", f["source_line"] or 0, f["rule"], f["metric"] or "",
            f["row_id"] or 0, f["message"] or "")


def sort_findings(findings: list[dict]) -> list[dict]:
    return sorted(findings, key=lambda f: (f["world"],) + finding_key(f))


DQ_FINDINGS_DDL = """
CREATE OR REPLACE TABLE dq_findings (
    finding_id      INTEGER PRIMARY KEY,
    rule            VARCHAR NOT NULL,
    severity        VARCHAR NOT NULL,
    source          VARCHAR,
    source_line     INTEGER,
    table_title     VARCHAR,
    metric          VARCHAR,
    printed_value   VARCHAR,
    message         VARCHAR NOT NULL,
    suggested_value VARCHAR,
    fact_id         INTEGER,
    row_id          INTEGER,
    finding_key     VARCHAR NOT NULL,
    waiver          VARCHAR
);
CREATE OR REPLACE TABLE dq_rules (
    rule            VARCHAR PRIMARY KEY,
    severity        VARCHAR NOT NULL,
    relation        VARCHAR NOT NULL,
    reason          VARCHAR NOT NULL,
    file            VARCHAR NOT NULL,
    findings        INTEGER NOT NULL
);
"""


def write_findings(con: duckdb.DuckDBPyConnection, findings: list[dict], rules: list[Rule],
                   waivers: dict[tuple[str, str], str] | None = None) -> int:
    """Replace dq_findings and dq_rules; ids follow the sorted order (deterministic).
    ``waivers`` maps (source file, finding id) to the reason it was waived."""
    import pyarrow as pa

    run(con, DQ_FINDINGS_DDL)
    ordered = sorted((f for f in findings if f["world"] == 0), key=finding_key)
    if ordered:
        columns = ("rule", "severity", "source", "source_line", "table_title", "metric",
                   "printed_value", "message", "suggested_value", "fact_id", "row_id")
        data = {c: [f.get(c) for f in ordered] for c in columns}
        data["finding_id"] = list(range(1, len(ordered) + 1))
        data["finding_key"] = [finding_id(f) for f in ordered]
        data["waiver"] = [(waivers or {}).get((f["source"], finding_id(f))) for f in ordered]
        con.register("_findings", pa.Table.from_pydict(data))
        try:
            run(con, "INSERT INTO dq_findings SELECT finding_id, rule, severity, source, "
                     "source_line, table_title, metric, printed_value, message, suggested_value, "
                     "fact_id, row_id, finding_key, waiver FROM _findings")
        finally:
            con.unregister("_findings")
    counts: dict[str, int] = {}
    for f in ordered:
        counts[f["rule"]] = counts.get(f["rule"], 0) + 1
    for rule in rules:
        run(con, "INSERT INTO dq_rules VALUES (?, ?, ?, ?, ?, ?)",
            [rule.name, rule.severity, rule.relation, rule.reason,
             f"rules/{rule.path.name}", counts.get(rule.name, 0)])
    return len(ordered)
