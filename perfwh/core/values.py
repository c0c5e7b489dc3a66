"""Values as JSON holds them: the one conversion every JSON output of perfwh goes through
(`perfwh sql --json`, `check --json`, `size --json`, chart data on the site)."""
from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from typing import Any


def json_value(value: Any, decimals=float) -> Any:
    """Decimals as numbers (``decimals`` converts them: a float for a chart's data), dates as
    ISO text, NaN and infinities as null (JSON has neither), bytes as hex; lists, tuples and
    dicts converted throughout."""
    if isinstance(value, decimal.Decimal):
        return decimals(value) if value.is_finite() else None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [json_value(v, decimals) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v, decimals) for k, v in value.items()}
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    """Valid JSON, always (never NaN or Infinity), laid out as json.dumps lays it out; a
    decimal (a DECIMAL column of a query) as its exact digits, which a float would round past
    its 17th significant digit."""
    return _encoded(json_value(value, decimal.Decimal), indent, 0)


def _encoded(value: Any, indent: int | None, depth: int) -> str:
    if isinstance(value, decimal.Decimal):
        return exact_number(value)
    if isinstance(value, dict):
        items = [f"{_scalar(key)}: {_encoded(item, indent, depth + 1)}" for key, item in value.items()]
        return _laid_out("{", items, "}", indent, depth)
    if isinstance(value, list):
        return _laid_out("[", [_encoded(item, indent, depth + 1) for item in value], "]", indent, depth)
    return _scalar(value)


def _scalar(value: Any) -> str:
    """As json.dumps writes it (a finite float, json_value saw to that), without its per-call cost."""
    if isinstance(value, str):
        return _STRING(value)
    if value is None or value is True or value is False:
        return _CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value)
    return json.dumps(value, allow_nan=False, ensure_ascii=False)


_STRING = json.encoder.encode_basestring  # the standard library's own (C) quoting, not ASCII-only
_CONSTANTS = {None: "null", True: "true", False: "false"}


def _laid_out(opening: str, items: list[str], closing: str, indent: int | None, depth: int) -> str:
    if not items:
        return opening + closing
    if indent is None:
        return opening + ", ".join(items) + closing
    inner, outer = "\n" + " " * (indent * (depth + 1)), "\n" + " " * (indent * depth)
    return opening + inner + ("," + inner).join(items) + outer + closing


def exact_number(value: decimal.Decimal) -> str:
    """A finite decimal as a JSON number with every digit it holds: 1362.3000000000 (a
    DECIMAL(38, 10)) as 1362.3, 5.000 as 5.0 (a float prints so too), never an exponent."""
    text = format(value, "f")
    if "." not in text:
        return text + ".0"
    whole, fraction = text.split(".")
    return f"{whole}.{fraction.rstrip('0') or '0'}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """"1 row", "2 rows", "0 errors": a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
