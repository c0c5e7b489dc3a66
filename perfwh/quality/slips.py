"""Slips of the hand on a printed number: the one list of them, in both directions.

A printed cell ("1362.3", "476.71 μs", "1307.12/s", "460K") can go wrong by one slip while
it is typed: a digit doubled, a digit dropped, two neighbouring digits swapped, the decimal
point moved one place, an extra digit after the decimal point, or μs typed for ms (or the
reverse; in a column without a unit token, a cost in ms typed as μs, i.e. 1000 times).

`plant` makes a slip (the planted-slip benchmark, bench/bench_slips.py, and the tests);
the typo repair (`perfwh.quality.repair`) undoes one, trying the inverse of each kind in
UNDONE.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# The kinds of slip, as the benchmark plants and reports them.
KINDS = ("doubled", "dropped", "swapped", "decimal", "extra_decimal", "unit")
# The slips the typo repair undoes, most likely first (a doubled keystroke is the commonest
# typo): the same words, except that it undoes an extra digit wherever it was typed, of which
# an extra decimal digit is one case.
UNDONE = ("doubled", "swapped", "decimal", "unit", "extra_digit", "dropped")
CELL = re.compile(r"^(?P<pre>[^\d.]*)(?P<num>\d+(?:\.\d*)?|\.\d+)(?P<post>.*)$")
MICRO = ("μs", "µs", "us")


class NotApplicable(ValueError):
    """The slip cannot be made on this cell (a rate has no unit to confuse, an integer no
    decimal digits, a one-digit number nothing to swap...)."""


def split_cell(cell: str) -> tuple[str, str, str]:
    """(text before the number, the number, text after it: its unit)."""
    match = CELL.match(cell.strip())
    if not match:
        raise NotApplicable(f"{cell!r} holds no number")
    return match.group("pre"), match.group("num"), match.group("post")


def _digits(num: str) -> list[int]:
    return [i for i, ch in enumerate(num) if ch.isdigit()]


def _tidy(num: str) -> str:
    """The number as a person would type it: no leading zeros before a digit ("04.7" ->
    "4.7"), a zero before a leading point (".047" -> "0.047")."""
    whole, point, decimals = num.partition(".")
    whole = whole.lstrip("0") or "0"
    return whole + point + decimals


def plant(cell: str, kind: str, position: int = 0, digit: str = "0",
          unit_column: bool = False) -> str:
    """The cell as it reads after one slip of ``kind``. ``position`` picks the digit (or the
    direction of a moved point: even right, odd left), modulo the choices the cell offers;
    ``digit`` is the extra digit typed. ``unit_column``: the cell is a CPU cost (the only
    column where μs and ms can be confused). Raises NotApplicable."""
    pre, num, post = split_cell(cell)
    digits = _digits(num)
    if kind == "doubled":
        i = digits[position % len(digits)]
        new = num[:i] + num[i] + num[i:]
    elif kind == "dropped":
        if len(digits) < 2:
            raise NotApplicable(f"{cell!r}: one digit, nothing to drop")
        i = digits[position % len(digits)]
        new = num[:i] + num[i + 1:]
    elif kind == "swapped":
        pairs = [i for i in digits if i + 1 < len(num) and num[i + 1].isdigit() and num[i] != num[i + 1]]
        if not pairs:
            raise NotApplicable(f"{cell!r}: no two different neighbouring digits")
        i = pairs[position % len(pairs)]
        new = num[:i] + num[i + 1] + num[i] + num[i + 2:]
    elif kind == "decimal":
        bare = num.replace(".", "")
        point = num.index(".") if "." in num else len(num)
        point = point + 1 if position % 2 == 0 else point - 1
        if point < 0:
            raise NotApplicable(f"{cell!r}: the point cannot move that way")
        bare = bare.ljust(point, "0")  # an integer's point moved right: 97 -> 970
        new = bare[:point] + ("." + bare[point:] if point < len(bare) else "")
    elif kind == "extra_decimal":
        if "." not in num:
            raise NotApplicable(f"{cell!r}: no decimal digits")
        point = num.index(".")
        at = point + 1 + position % (len(num) - point)
        new = num[:at] + digit + num[at:]
    elif kind == "unit":
        if not unit_column:
            raise NotApplicable(f"{cell!r}: only a CPU cost has a unit to confuse")
        unit = post.strip()
        if unit in MICRO:
            post = post.replace(unit, "ms")
        elif unit == "ms":
            post = post.replace("ms", "μs")
        elif unit == "":  # a cost in ms typed as the same cost in μs
            num = format((Decimal(num) * 1000).normalize(), "f")
        else:
            raise NotApplicable(f"{cell!r}: unit {unit!r}")
        new = num
    else:
        raise ValueError(f"unknown slip {kind!r}, expected one of {', '.join(KINDS)}")
    new = _tidy(new)
    if new.endswith("."):
        new = new[:-1]
    planted = f"{pre}{new}{post}"
    if planted == cell.strip():
        raise NotApplicable(f"{cell!r}: the slip changes nothing")
    return planted


def number_of(cell: str, unit_column: bool = False) -> float:
    """The value of a cell in the column's base unit (a cost in ms; K and M multiplied), as
    far as a slip is concerned: used to measure how far a slip moved a number."""
    pre, num, post = split_cell(cell)
    try:
        value = Decimal(num)
    except InvalidOperation:
        raise NotApplicable(f"{cell!r} holds no number") from None
    unit = post.strip()
    scale = {"K": 1000, "M": 1_000_000}.get(unit, 1)
    if unit_column and unit in MICRO:
        scale = Decimal("0.001")
    return float(value * scale)
