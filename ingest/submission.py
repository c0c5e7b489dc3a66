"""Submitted results in the CSV template (one row per measured configuration).

Columns (header on line 1, blank where not measured, extra columns allowed):

    product, product_version, platform, server_cores, scenario, message_size_bytes,
    persistent, concurrency_kind, concurrency, replicas, msg_rate, cpu_busy_pct,
    cpu_ms_per_msg

Units are the warehouse's: msgs/s, percent, CPU milliseconds per message, bytes. This
module is the template's one definition: `perfwh check` reads the same columns straight
into DuckDB (fast for a million rows), the build reads a filed submission through `parse`.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Sequence

from .records import Line, Observation, ParsedReport, ParseError, Quantity, Scenario, SourceTable
from .units import quantity

FAMILY = "submission"
DESCRIPTION = "a CSV in the perfwh submission template"
KEY_COLUMNS = ("product", "product_version", "platform", "server_cores", "scenario",
               "message_size_bytes", "persistent", "concurrency_kind", "concurrency", "replicas")
# metric column -> quantity kind; the printed cell is in the canonical unit already.
METRIC_COLUMNS = {"msg_rate": "rate", "cpu_busy_pct": "percent", "cpu_ms_per_msg": "cpu_cost"}
COLUMNS = KEY_COLUMNS + tuple(METRIC_COLUMNS)
METRIC_UNITS = {"rate": "", "percent": "", "cpu_cost": "ms"}
TRUE_WORDS = ("true", "yes", "y", "1", "persistent")
FALSE_WORDS = ("false", "no", "n", "0", "non-persistent", "non persistent")
TABLE_TITLE = "submission"
SIGNATURE = (r"^\ufeff?product,",)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def product_key(product: str, version: str) -> str:
    return slug(f"{product} {version}")


def persistent_value(cell: str, line: int) -> bool | None:
    text = cell.strip().lower()
    if text == "":
        return None
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ParseError(f"persistent is {cell!r}", line, expected="true/false, yes/no or blank")


def header_problem(header: Sequence[str]) -> str | None:
    missing = [c for c in COLUMNS if c not in [h.strip().lstrip("\ufeff") for h in header]]
    return f"missing columns {', '.join(missing)}" if missing else None


def parse(lines: Sequence[Line]) -> ParsedReport:
    """Rows of a filed CSV submission as observations (one per metric cell)."""
    if not lines or not lines[0].text.strip():
        raise ParseError("the file is empty", 1, expected=DESCRIPTION)
    reader = csv.reader([line.text for line in lines])
    header = [h.strip().lstrip("\ufeff") for h in next(reader)]
    problem = header_problem(header)
    if problem:
        raise ParseError(problem, lines[0].number, expected="the header " + ",".join(COLUMNS))
    report = ParsedReport(family=FAMILY)
    report.tables.append(SourceTable(TABLE_TITLE, "Submitted results", lines[0].number, "throughput"))
    scenarios: set[str] = set()
    for index, cells in enumerate(reader, start=1):
        line = lines[index] if index < len(lines) else lines[-1]
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(header):
            raise ParseError(f"row has {len(cells)} cells", line.number,
                             expected=f"{len(header)} cells as in the header")
        row = dict(zip(header, (c.strip() for c in cells)))
        for key in ("product", "product_version", "platform", "scenario"):
            if not row[key]:
                raise ParseError(f"{key} is blank", line.number, expected=f"a {key}")
        scenarios.add(row["scenario"])
        common = dict(
            table_key=TABLE_TITLE, row_line=line.number,
            product=product_key(row["product"], row["product_version"]),
            platform=slug(row["platform"]), scenario=row["scenario"],
            message_size=quantity(row["message_size_bytes"], "size", line=line.number)
            if row["message_size_bytes"] else None,
            persistent=persistent_value(row["persistent"], line.number),
            concurrency_kind=row["concurrency_kind"] or None,
            concurrency=Quantity(row["concurrency"], row["concurrency"], "")
            if row["concurrency"] else None,
            replicas=int(row["replicas"]) if row["replicas"].isdigit() else None)
        if row["concurrency"]:
            quantity(row["concurrency"], "count", line=line.number)  # a number, or an error
        for metric, kind in METRIC_COLUMNS.items():
            if row[metric]:
                report.observations.append(Observation(
                    metric=metric, value=quantity(row[metric], kind, METRIC_UNITS[kind],
                                                  line=line.number), **common))
    if not report.observations:
        raise ParseError("no measured values", lines[0].number,
                         expected="at least one row with msg_rate, cpu_busy_pct or cpu_ms_per_msg")
    report.scenarios.extend(Scenario(name, None, None, None, "Submitted results")
                            for name in sorted(scenarios))
    return report
