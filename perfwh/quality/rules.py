"""Data-quality rules: loading the rule files, running them, storing the findings.

A rule is one SQL file in rules/: a query returning the offending rows, with everything
else about the rule in the header comments:

    -- severity: error            (error or warning)
    -- relation: dq_input         (the interface relation it reads, see schema/50_dq.sql)
    -- compares: source           (what a row is compared with, see COMPARES)
    -- repair: tight              (how it takes part in the typo repair, see REPAIR_CLASSES)
    -- summary: what it checks, in one line (the README's table of rules)
    -- reason: why a row returned by this query is a problem ...

Adding a rule is adding its file: the build, `perfwh check`, Great Expectations, the typo
repair and `perfwh rules` (and the README's table, generated from it) all find it there.

The query reads its relation as ``{batch}`` (Great Expectations substitutes the batch
there; run directly, ``{batch}`` becomes the relation's name) and returns the columns
of FINDING_COLUMNS. The same files run in three ways: directly in DuckDB (this module), as
Great Expectations expectations (`perfwh.quality.gx`) and on Apache Spark over the Parquet
lake (`perfwh.quality.spark`); tests show all three report the same findings.

Findings are kept in DuckDB, not in Python: each rule's rows go straight into the temporary
table FOUND (`store_rules`), the typo repair reads from and writes to it, `write_findings`
copies it into dq_findings, and `perfwh check` streams it to its output. A submission with a
finding on every one of its million rows therefore needs no more memory than a clean one
(DuckDB spills what does not fit). `run_rules` returns Python dicts, for the small relations
the typo repair builds and for tests.
"""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest.printable import OneLineMessage
from ingest.vocabulary import SCENARIO_FOLD_SQL
from perfwh.core.interrupts import interrupted
from perfwh.core.paths import RULES_DIR
from perfwh.warehouse.db import insert_rows, out_of_memory, placeholders, run, single_threaded

SEVERITIES = ("error", "warning")
RELATIONS = ("dq_input", "dq_values", "dq_claims", "dq_rejects")
# The models stage's predictions (schema/50_dq.sql): a rule that reads them runs after the
# models are fitted (`perfwh.quality.evaluate`).
PREDICTIONS = "dq_predictions"
# What a rule compares a row with: what a check or an add must hand it besides the rows of the
# sources it files (`evaluate.scoped`), and what the findings of a new source's rows can depend on.
COMPARES = {
    "row": "the row alone (its own numbers, its prediction)",
    "source": "rows of its own source: its tables, its prose, its readings",
    "measurement_key": "besides its own source's rows, the rows of other sources that measure the "
                       "same thing (the same measurement_key)",
}
# How a rule's findings take part in the typo repair (`perfwh.quality.repair`):
REPAIR_CLASSES = {
    "tight": "an equation or an equality with another printed number: a single correction that "
             "makes it hold is strong evidence, so one finding is enough for a suggestion",
    "band": "a band or an inequality, which many edits satisfy: its finding gets a suggestion "
            "only when a tight finding, or a second band finding, is on the same row and one "
            "correction clears them",
    "none": "not repaired: it flags a whole series, a pair of rows or a statement, which no "
            "single slip explains",
}
# What every rule returns, in this order.
# related_row_id: the other row a comparison rule compared against (NULL for one-row rules);
# the typo repair tries corrections on both.
FINDING_COLUMNS = ("world", "row_id", "fact_id", "source", "source_line", "table_title",
                   "metric", "printed_value", "message", "related_row_id")
# A rule may also return suggested_value: the number the cell should print when the rule
# itself knows it (a resubmitted row against the filed one); the typo repair leaves it.
SUGGESTION = "suggested_value"
_HEADER = re.compile(r"^--\s*(?P<key>severity|relation|compares|repair|summary|reason):\s*(?P<value>.*)$")
HEADER_KEYS = ("severity", "relation", "compares", "repair", "summary", "reason")


class RuleError(OneLineMessage, ValueError):
    """A rule file that cannot be used; names the file."""


@dataclass(frozen=True)
class Rule:
    name: str
    severity: str
    relation: str
    compares: str
    repair: str
    summary: str
    reason: str
    sql: str
    path: Path

    @property
    def reads_models(self) -> bool:
        """True for a rule that compares with the models stage's predictions."""
        return PREDICTIONS in self.sql

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
    missing = [k for k in HEADER_KEYS if not header.get(k)]
    if missing:
        raise RuleError(f"{path}: header lacks {', '.join(missing)} (expected the lines "
                        + ", ".join(f"'-- {k}:'" for k in HEADER_KEYS) + ")")
    if header["severity"] not in SEVERITIES:
        raise RuleError(f"{path}: severity {header['severity']!r}, expected one of {SEVERITIES}")
    if header["relation"] not in RELATIONS:
        raise RuleError(f"{path}: relation {header['relation']!r}, expected one of {RELATIONS}")
    if header["compares"] not in COMPARES:
        raise RuleError(f"{path}: compares {header['compares']!r}, expected one of {tuple(COMPARES)}")
    if header["repair"] not in REPAIR_CLASSES:
        raise RuleError(f"{path}: repair {header['repair']!r}, expected one of {tuple(REPAIR_CLASSES)}")
    sql = "\n".join(lines[body_start:]).strip().rstrip(";")
    if "{batch}" not in sql:
        raise RuleError(f"{path}: the query never reads {{batch}}")
    brace = next((n for n, line in enumerate(lines[body_start:], body_start + 1)
                  if "{" in line.replace("{batch}", "") or "}" in line.replace("{batch}", "")), None)
    if brace is not None:
        # Great Expectations reads the query as a format string, whose only field is {batch}
        raise RuleError(f"{path}:{brace}: a brace besides {{batch}}, which Great Expectations would "
                        "read as a placeholder of its own: write a struct as struct_pack(name := value) "
                        "and a list as list_value(...) or [...]")
    return Rule(Path(path).stem, header["severity"], header["relation"], header["compares"],
                header["repair"], header["summary"], header["reason"], sql, Path(path))


def load_rules(rules_dir: Path = RULES_DIR) -> list[Rule]:
    rules = [parse_rule(p) for p in sorted(Path(rules_dir).glob("*.sql"))]
    if not rules:
        raise RuleError(f"{rules_dir}: no rule files")
    return rules


# What identifies a finding (which rule flagged which row and number): enough for the typo
# repair, which compares candidate worlds by these alone and need not format any message.
KEY_COLUMNS = ("world", "row_id", "metric", "related_row_id")


def finding_rows(rule: Rule, rows: list[dict], columns: tuple[str, ...] = FINDING_COLUMNS) -> list[dict]:
    """Rows a rule returned, checked for shape and tagged with the rule."""
    out = []
    for row in rows:
        missing = [c for c in columns if c not in row]
        if missing:
            raise RuleError(f"{rule.path}: the query does not return {', '.join(missing)}")
        finding = {c: row[c] for c in columns}
        if row.get(SUGGESTION) is not None:
            finding[SUGGESTION] = str(row[SUGGESTION])
        for column in ("world", "row_id", "fact_id", "source_line", "related_row_id"):
            if finding.get(column) is not None:
                finding[column] = int(finding[column])
        finding["rule"] = rule.name
        finding["severity"] = rule.severity
        out.append(finding)
    return out


# The temporary table of findings (one row per finding, FINDING_COLUMNS then the rule's name
# and severity and what the typo repair adds).
FOUND = "dq_found"
FOUND_COLUMNS = {"world": "BIGINT", "row_id": "BIGINT", "fact_id": "BIGINT", "source": "VARCHAR",
                 "source_line": "BIGINT", "table_title": "VARCHAR", "metric": "VARCHAR",
                 "printed_value": "VARCHAR", "message": "VARCHAR", "related_row_id": "BIGINT",
                 "rule": "VARCHAR", "severity": "VARCHAR", "suggested_value": "VARCHAR",
                 "suggestion_kind": "VARCHAR"}
# The order of findings everywhere (dq_findings ids, `perfwh check` output): by place, then
# rule, metric, row and message; the last keys only make ties deterministic.
FINDING_ORDER = ("coalesce(source, ''), coalesce(source_line, 0), rule, coalesce(metric, ''), "
                 "coalesce(row_id, 0), coalesce(message, ''), coalesce(related_row_id, 0), "
                 "coalesce(fact_id, 0), coalesce(printed_value, ''), coalesce(table_title, '')")
# Interface relations computed once into a temporary table of the same name before the rules
# run (`materialised`), in this order (dq_claim_values reads dq_values and dq_claims): dq_input
# pivots every number back into its table row, which ten rules and the typo repair read;
# recomputing it for each costs more than all the rules together on a large submission. The
# others are cheap to compute, but read through views a check's rules would each pick the
# subjects' rows out of the whole warehouse again: a one-row check against the reports spent
# a sixth of its time so (1.45 s against 1.20 s), and a 25,000-row one costs the same either way.
MATERIALISED = ("dq_input", "dq_values", "dq_rejects", "dq_claims", "dq_claim_values")


def create_found(con: duckdb.DuckDBPyConnection, table: str = FOUND) -> None:
    columns = ", ".join(f"{name} {kind}" for name, kind in FOUND_COLUMNS.items())
    run(con, f"CREATE OR REPLACE TEMP TABLE {table} ({columns})")


def store_rule(con: duckdb.DuckDBPyConnection, rule: Rule, relation: str | None = None,
               table: str = FOUND) -> None:
    """Insert the rule's findings into ``table`` inside DuckDB (nothing passes through Python)."""
    columns = ", ".join(f"found.{c}" for c in FINDING_COLUMNS)
    try:
        query = rule.query(relation)
        # the rule's own suggestion where it returns one (binding the query runs nothing, but
        # costs a tenth of a one-row check over all rules: only a rule that names it is bound)
        returns_suggestion = SUGGESTION in query and SUGGESTION in con.sql(query).columns
        suggestion = f"CAST(found.{SUGGESTION} AS VARCHAR)" if returns_suggestion else "NULL"
        run(con, f"INSERT INTO {table} SELECT {columns}, ?, ?, {suggestion}, NULL FROM (\n"
                 f"{query}\n) AS found", [rule.name, rule.severity])
    except duckdb.Error as err:
        if interrupted(err):
            raise
        if out_of_memory(err):  # not a fault of the rule: the caller knows the limit and what to advise
            raise duckdb.OutOfMemoryException(f"{rule.path}: {str(err).splitlines()[0]}") from None
        raise RuleError(f"{rule.path}: {str(err).splitlines()[0]}") from None


def store_rules(con: duckdb.DuckDBPyConnection, rules: list[Rule], table: str = FOUND) -> None:
    """Every rule run directly in DuckDB, its findings stored in ``table`` (created here)."""
    create_found(con, table)
    for rule in with_rows(con, rules):
        store_rule(con, rule, table=table)


def with_rows(con: duckdb.DuckDBPyConnection, rules: list[Rule]) -> list[Rule]:
    """The rules whose relation holds a row. A finding is about a row of its rule's batch (the
    test of the rule files holds each to it), so a rule over an empty relation - the prose's
    statements of a CSV submission, the readings of a report without them - finds nothing,
    and is not planned: planning, not running, is most of a rule's time on a small check."""
    filled = {name: run(con, f"SELECT EXISTS (SELECT 1 FROM {name})")[0][0]
              for name in sorted({rule.relation for rule in rules})}
    return [rule for rule in rules if filled[rule.relation]]


def store_findings(con: duckdb.DuckDBPyConnection, findings: list[dict], table: str = FOUND) -> None:
    """Findings computed elsewhere (Great Expectations, a list) appended to ``table``."""
    insert_rows(con, table, findings)


def stored_findings(con: duckdb.DuckDBPyConnection, where: str = "TRUE", params: list | None = None,
                    table: str = FOUND, batch: int = 10_000, order: str = FINDING_ORDER) -> Iterator[dict]:
    """The stored findings matching ``where``, in ``order`` (FINDING_ORDER), fetched a batch at
    a time."""
    result = con.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", params or [])
    columns = [d[0] for d in result.description]
    while True:
        rows = result.fetchmany(batch)
        if not rows:
            return
        for values in rows:
            yield dict(zip(columns, values))


# The temporary table of the sources whose rows are the subjects of a scoped run.
SUBJECTS = "dq_subject_sources"


@contextlib.contextmanager
def materialised(con: duckdb.DuckDBPyConnection, relations: tuple[str, ...] = MATERIALISED,
                 subjects: list[str] | None = None, context: bool = False):
    """For the block, each interface view in ``relations`` computed once into a temporary table
    of the same name, which DuckDB resolves before the view (temporary objects come first in its
    search path): every rule file and the typo repair read it unchanged, and DuckDB can spill
    it. The tables are dropped afterwards, so what is committed holds only the views.

    ``subjects``: the interface holds the rows of those sources only, the rules' subjects (a
    check or an add: the other sources' findings stay as they were), and with ``context`` also
    the rows of other sources that measure what a subject row measures (the same
    measurement_key, not subjects) - what a rule that ``compares: measurement_key`` needs."""
    catalog = run(con, "SELECT current_database()")[0][0]
    scoped = [] if subjects is None else [r for r in RELATIONS if r not in relations]
    try:
        if subjects is not None:
            run(con, f"CREATE OR REPLACE TEMP TABLE {SUBJECTS} AS SELECT UNNEST(?::VARCHAR[]) AS source",
                [sorted(set(subjects))])
        for name in relations:
            own, params = f'SELECT * FROM "{catalog}".main.{name}', None
            if subjects is not None:
                # the subjects as parameters, not a subquery: DuckDB pushes a list of constants
                # down through the view's regrouping to the sources' own numbers, a subquery
                # only after every source's rows are regrouped (an add grew with the warehouse)
                params = sorted(set(subjects))
                own += f" WHERE source IN ({placeholders(params)})" if params else " WHERE FALSE"
            _compute_once(con, f"CREATE OR REPLACE TEMP TABLE {name} AS {own}", params)
            if subjects is not None and context and name == "dq_input":
                _add_context(con, catalog)
        for name in scoped:
            run(con, f'CREATE OR REPLACE TEMP VIEW {name} AS SELECT * FROM "{catalog}".main.{name} '
                     f"WHERE source IN (SELECT source FROM {SUBJECTS})")
        yield
    finally:
        for name in relations:
            run(con, f"DROP TABLE IF EXISTS temp.main.{name}")
        for name in scoped:
            run(con, f"DROP VIEW IF EXISTS temp.main.{name}")
        run(con, f"DROP TABLE IF EXISTS temp.main.{SUBJECTS}")


def _add_context(con: duckdb.DuckDBPyConnection, catalog: str) -> None:
    """The rows of other sources with a subject row's measurement_key, as context (not
    subjects), appended to the temporary dq_input. Looked for among the rows of the subjects'
    scenarios and platforms only (the key holds both), given as constants, which DuckDB applies
    before it regroups the numbers into rows: a subquery or the key itself are applied after,
    to every source's rows of the scenario (an add grew with the warehouse)."""
    scenario = SCENARIO_FOLD_SQL.format("scenario")  # as measurement_key spells it
    scenarios = [v for (v,) in run(con, f"SELECT DISTINCT {scenario} FROM temp.main.dq_input "
                                        "WHERE scenario IS NOT NULL ORDER BY 1")]
    spelt = [v for (v,) in run(con, "SELECT DISTINCT lower(trim(platform)) FROM temp.main.dq_input")]
    platforms = sorted(p for p in spelt if p is not None)
    if not scenarios:
        return  # a row without a scenario is no measurement another source repeats
    # a key leaves out a missing platform (concat_ws): a subject without one matches others without
    conditions = ([f"lower(trim(platform)) IN ({placeholders(platforms)})"] if platforms else []) \
        + (["platform IS NULL"] if None in spelt else [])
    platform = "(" + " OR ".join(conditions) + ")"
    # the subjects as constants too: as a subquery, the subjects' own rows were regrouped
    # again before being left out (8 s of a million-row check)
    subjects = [s for (s,) in run(con, f"SELECT source FROM {SUBJECTS} ORDER BY 1")]
    run(con, f"""
        INSERT INTO temp.main.dq_input
        SELECT * REPLACE (FALSE AS subject) FROM "{catalog}".main.dq_input
        WHERE {scenario} IN ({placeholders(scenarios)})
          AND {platform}
          AND source NOT IN ({placeholders(subjects)})
          AND measurement_key IN (SELECT measurement_key FROM temp.main.dq_input)""",
        scenarios + platforms + subjects)


def _compute_once(con: duckdb.DuckDBPyConnection, statement: str, params: list | None = None) -> None:
    """dq_input regroups every number into its row, on all threads (twice as fast on two);
    on ten million rows, beside the raw layer's primary-key indexes that DuckDB keeps in
    memory, the parallel grouping can need more memory per thread than the limit leaves (it
    fails instead of spilling): then one thread groups within it."""
    try:
        run(con, statement, params)
    except duckdb.Error as err:
        if not out_of_memory(err):
            raise
        with single_threaded(con):
            run(con, statement, params)


def run_rule(con: duckdb.DuckDBPyConnection, rule: Rule, relation: str | None = None,
             columns: tuple[str, ...] = FINDING_COLUMNS) -> list[dict]:
    """The rule's findings as dicts of ``columns`` (only those are computed: DuckDB leaves
    out, for instance, the formatting of messages nobody reads)."""
    query = rule.query(relation)
    if columns != FINDING_COLUMNS:
        query = f"SELECT {', '.join(f'found.{c}' for c in columns)} FROM (\n{query}\n) AS found"
    try:
        result = con.sql(query)
        names = result.columns
        rows = [dict(zip(names, values)) for values in result.fetchall()]
    except duckdb.Error as err:
        if interrupted(err):
            raise
        raise RuleError(f"{rule.path}: {err}") from None
    return finding_rows(rule, rows, columns)


def run_rules(con: duckdb.DuckDBPyConnection, rules: list[Rule] | None = None,
              relations: dict[str, str] | None = None,
              columns: tuple[str, ...] = FINDING_COLUMNS) -> list[dict]:
    """Every rule run directly in DuckDB; ``relations`` maps a rule relation to another
    relation name (the typo repair runs the dq_input rules on its candidate worlds)."""
    findings = []
    for rule in rules if rules is not None else load_rules():
        findings.extend(run_rule(con, rule, (relations or {}).get(rule.relation), columns))
    return findings if columns != FINDING_COLUMNS else sort_findings(findings)


def finding_id(f: dict) -> str:
    """A stable name for a finding, used to waive it: rule@line:metric, or rule@line for a finding
    on a whole row or statement (FINDING_ID_SQL in SQL)."""
    line = "" if f["source_line"] is None else f"@{f['source_line']}"
    metric = "" if f["metric"] is None else f":{f['metric']}"
    return f"{f['rule']}{line}{metric}"


# finding_id in SQL, over a stored finding (a missing line or metric leaves its part out)
FINDING_ID_SQL = ("rule || coalesce('@' || CAST(source_line AS VARCHAR), '') "
                  "|| coalesce(':' || metric, '')")


def finding_key(f: dict) -> tuple:
    return (f["source"] or "", f["source_line"] or 0, f["rule"], f["metric"] or "",
            f["row_id"] or 0, f["message"] or "")


def sort_findings(findings: list[dict]) -> list[dict]:
    return sorted(findings, key=lambda f: (f["world"],) + finding_key(f))


DQ_FINDINGS_DDL = """
CREATE OR REPLACE TABLE dq_findings (
    finding_id      BIGINT PRIMARY KEY,
    rule            VARCHAR NOT NULL,
    severity        VARCHAR NOT NULL,
    source          VARCHAR,
    source_line     INTEGER,
    table_title     VARCHAR,
    metric          VARCHAR,
    printed_value   VARCHAR,
    message         VARCHAR NOT NULL,
    suggested_value VARCHAR,
    fact_id         BIGINT,
    row_id          BIGINT,
    finding_key     VARCHAR NOT NULL,
    waiver          VARCHAR
)
"""
DQ_RULES_DDL = """
CREATE OR REPLACE TABLE dq_rules (
    rule            VARCHAR PRIMARY KEY,
    severity        VARCHAR NOT NULL,
    relation        VARCHAR NOT NULL,
    compares        VARCHAR NOT NULL,
    repair          VARCHAR NOT NULL,
    summary         VARCHAR NOT NULL,
    reason          VARCHAR NOT NULL,
    file            VARCHAR NOT NULL,
    findings        INTEGER NOT NULL
)
"""
# A finding's id, from what it says alone (the FINDING_ORDER columns, and its place among
# findings that say exactly the same): the same finding has the same id after a build from
# scratch and after any sequence of adds (schema/10_stg.sql's stable_id).
FINDING_ID_OF = (f"stable_id(json_array({FINDING_ORDER}, "
                 f"row_number() OVER (PARTITION BY {FINDING_ORDER})))")


def write_findings(con: duckdb.DuckDBPyConnection, rules: list[Rule], table: str = FOUND,
                   sources: list[str] | None = None) -> int:
    """Write the stored findings of world 0 into dq_findings - all of them, replacing the
    table (``sources`` None), or those of ``sources``, replacing theirs (an add: the findings
    of the sources it leaves untouched stay as they are) - and dq_rules' counts. A finding
    accepted when its source was filed (raw_waivers) carries the reason as its waiver. Runs
    inside DuckDB, however many findings there are."""
    exists = bool(run(con, "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() "
                           "AND schema_name = 'main' AND table_name = 'dq_findings'"))
    where = "world = 0"
    params: list = []
    if sources is None or not exists:
        run(con, DQ_FINDINGS_DDL)
    else:
        run(con, "DELETE FROM dq_findings WHERE source IN (SELECT UNNEST(?::VARCHAR[]))", [sources])
        where += " AND source IN (SELECT UNNEST(?::VARCHAR[]))"
        params = [sources]
    run(con, f"""
        INSERT INTO dq_findings
        WITH ordered AS (
            SELECT f.*, {FINDING_ID_OF} AS finding_id, {FINDING_ID_SQL} AS finding_key,
                   row_number() OVER (ORDER BY {FINDING_ORDER}) AS ordinal
            FROM {table} f WHERE {where})
        SELECT o.finding_id, o.rule, o.severity, o.source, o.source_line, o.table_title, o.metric,
               o.printed_value, o.message, o.suggested_value, o.fact_id, o.row_id, o.finding_key,
               w.reason
        FROM ordered o
        LEFT JOIN raw_waivers w ON w.source = o.source AND w.finding_key = o.finding_key
        ORDER BY o.ordinal""", params)
    run(con, DQ_RULES_DDL)
    counts = dict(run(con, "SELECT rule, count(*) FROM dq_findings GROUP BY rule"))
    insert_rows(con, "dq_rules", [  # one statement: one plan and one commit, not thirty
        {"rule": rule.name, "severity": rule.severity, "relation": rule.relation, "compares": rule.compares,
         "repair": rule.repair, "summary": rule.summary, "reason": rule.reason,
         "file": f"rules/{rule.path.name}", "findings": counts.get(rule.name, 0)} for rule in rules])
    return run(con, "SELECT count(*) FROM dq_findings")[0][0]


# A band rule's finding alone may be the sweep's own oddity; two band rules finding the same
# number off is evidence that the number is wrong: the typo repair looks for its slip, and the
# fit leaves it out (a wrong point would bend its series' predictions of its neighbours).
BAND_EVIDENCE = 2


def slip_evidence_rules(rules: list[Rule]) -> list[str]:
    """The band rules whose findings on one number count towards BAND_EVIDENCE before the fit:
    those that do not read the models' predictions (they run after it)."""
    return sorted(r.name for r in rules if r.repair == "band" and not r.reads_models)


def rules_markdown(rules: list[Rule]) -> str:
    """The README's table of rules (`perfwh rules --markdown`): one row per rule file."""
    lines = ["| rule | severity | repair | what it checks |", "|---|---|---|---|"]
    for rule in sorted(rules, key=lambda r: (SEVERITIES.index(r.severity), r.name)):
        lines.append(f"| `{rule.name}` | {rule.severity} | {rule.repair} | {rule.summary} |")
    return "\n".join(lines) + "\n"
