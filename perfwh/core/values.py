"""Values as JSON holds them: the one conversion every JSON output of perfwh goes through
(`perfwh sql --json`, `check --json`, `size --json`, chart data on the site)."""
from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from typing import Any


def json_value(value: Any) -> Any:
    """Decimals as numbers, dates as ISO text, NaN and infinities as null (JSON has neither),
    bytes as hex; lists, tuples and dicts converted throughout."""
    if isinstance(value, decimal.Decimal):
        value = float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    return value


def dumps(value: Any, **kwargs) -> str:
    """Valid JSON, always (never NaN or Infinity)."""
    return json.dumps(json_value(value), allow_nan=False, ensure_ascii=False, **kwargs)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """"1 row", "2 rows", "0 errors": a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
