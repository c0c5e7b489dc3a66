"""The one unit table and the one metric table of perfwh.

Every printed unit token the parsers accept is listed here, per quantity kind,
with its canonical unit and an exact decimal factor. The build loads both tables
into the warehouse (``ref_units``, ``ref_metrics``) and the ``stg_`` views convert
with them, so there is no second copy of a conversion anywhere.

Sizes use 1k = 1024 (the reports' own convention: WBIMB's 1KB message is 1024 bytes).
Counts use K = 1000 and M = 1 000 000 (MessageSight's "400K producers").
"""
from __future__ import annotations

import re
from .records import ParseError, Quantity

# quantity kind -> printed token -> (canonical unit, factor as an exact decimal string)
UNITS: dict[str, dict[str, tuple[str, str]]] = {
    "size": {
        "": ("bytes", "1"),
        "b": ("bytes", "1"),
        "B": ("bytes", "1"),
        "bytes": ("bytes", "1"),
        "k": ("bytes", "1024"),
        "K": ("bytes", "1024"),
        "kB": ("bytes", "1024"),
        "KB": ("bytes", "1024"),
        "kb": ("bytes", "1024"),  # b is bytes here, as alone ("1384b"), never bits
        "KiB": ("bytes", "1024"),
        "MB": ("bytes", "1048576"),
        "mb": ("bytes", "1048576"),
        "M": ("bytes", "1048576"),
        "MiB": ("bytes", "1048576"),
        "GB": ("bytes", "1073741824"),  # the largest size a submission may give, 1 GiB, in one unit
        "GiB": ("bytes", "1073741824"),
    },
    "rate": {
        "": ("msgs/s", "1"),
        "/s": ("msgs/s", "1"),
        "msgs/s": ("msgs/s", "1"),  # the unit written out, as a lab's tool may print it
        "msg/s": ("msgs/s", "1"),
        "/sec": ("msgs/s", "1"),
        "msgs/sec": ("msgs/s", "1"),
        "msg/sec": ("msgs/s", "1"),
        "msgs/second": ("msgs/s", "1"),
        "messages/s": ("msgs/s", "1"),
        "messages/sec": ("msgs/s", "1"),
        # requests per second, as ACE 13's tables title their rate ("Message rate (req/s)")
        "req/s": ("msgs/s", "1"),
        "requests/s": ("msgs/s", "1"),
        "requests/sec": ("msgs/s", "1"),
        # transactions per second, as load tools print a request-reply test's round trips
        "tps": ("msgs/s", "1"),
        "TPS": ("msgs/s", "1"),
        "k": ("msgs/s", "1000"),  # the SI prefix; K, as the reports print it
        "K": ("msgs/s", "1000"),
        "k/s": ("msgs/s", "1000"),
        "K/s": ("msgs/s", "1000"),
        "M": ("msgs/s", "1000000"),
        "M/s": ("msgs/s", "1000000"),
    },
    "count": {
        "": ("count", "1"),
        "k": ("count", "1000"),
        "K": ("count", "1000"),
        "M": ("count", "1000000"),
    },
    "cpu_cost": {
        "μs": ("ms", "0.001"),  # Greek small letter mu, as the ACE 11 report prints it
        "µs": ("ms", "0.001"),  # micro sign, the same unit typed differently
        "us": ("ms", "0.001"),
        "usec": ("ms", "0.001"),
        "ms": ("ms", "1"),
        "msec": ("ms", "1"),
        "s": ("ms", "1000"),
        # the same units per message, as a spreadsheet titles the column ("CPU (ms/msg)")
        "ms/msg": ("ms", "1"),
        "μs/msg": ("ms", "0.001"),
        "µs/msg": ("ms", "0.001"),
        "us/msg": ("ms", "0.001"),
    },
    "percent": {"": ("%", "1"), "%": ("%", "1")},
    "seconds": {"": ("s", "1"), "s": ("s", "1"), "sec": ("s", "1"), "min": ("s", "60")},
    "microseconds": {"": ("us", "1"), "us": ("us", "1"), "μs": ("us", "1"), "µs": ("us", "1")},
    "milliseconds": {"": ("ms", "1"), "ms": ("ms", "1")},
    "volts": {"": ("V", "1"), "V": ("V", "1")},
    "amps": {"": ("A", "1"), "A": ("A", "1")},
    "watts": {"": ("W", "1"), "W": ("W", "1")},
    "kwh": {"": ("kWh", "1")},
    "ratio": {"": ("ratio", "1"), "x": ("ratio", "1")},  # "2.5x the performance"
    "msgs_per_watt": {"": ("msgs/W", "1"), "K": ("msgs/W", "1000")},
    "rate_per_rack_unit": {"": ("msgs/s/U", "1"), "K": ("msgs/s/U", "1000")},
    "cores": {"": ("cores", "1"), "m": ("cores", "0.001")},
    "mebibytes": {"Mi": ("MiB", "1"), "Gi": ("MiB", "1024")},
}

# metric -> (quantity kind, description). The canonical unit is the quantity's.
METRICS: dict[str, tuple[str, str]] = {
    "msg_rate": ("rate", "Message rate: round trips or flow invocations per second"),
    "cpu_busy_pct": ("percent", "Server CPU busy, percent of all the server's processors"),
    "cpu_ms_per_msg": ("cpu_cost", "CPU milliseconds consumed per message"),
    "startup_s": ("seconds", "Integration Runtime pod startup time"),
    "ingress_msg_rate": ("rate", "Messages per second into the appliance"),
    "egress_msg_rate": ("rate", "Messages per second out of the appliance"),
    "connections": ("count", "Concurrent MQTT producer connections sustained"),
    "connection_burst_s": ("seconds", "Time to process a burst of connections"),
    "latency_avg_us": ("microseconds", "Application-to-application latency, average"),
    "latency_p50_us": ("microseconds", "Application-to-application latency, 50th percentile"),
    "latency_p99_us": ("microseconds", "Application-to-application latency, 99th percentile"),
    "latency_max_us": ("microseconds", "Application-to-application latency, maximum"),
    "latency_stdev_us": ("microseconds", "Application-to-application latency, standard deviation"),
    "msgs_per_watt": ("msgs_per_watt", "Persistent message rate divided by appliance power draw"),
    "msgs_per_s_per_rack_unit": ("rate_per_rack_unit", "Persistent message rate per rack unit"),
    "mapping_overhead_pct": ("percent", "Rate lost by a Mapping node against the same ESQL conversion"),
    "supply_voltage_v": ("volts", "Power-supply outlet voltage reading"),
    "supply_current_a": ("amps", "Power-supply outlet current reading"),
    "power_factor": ("ratio", "Power-supply outlet power factor reading"),
    "load_w": ("watts", "Power-supply load group watts reading"),
    "cumulative_kwh": ("kwh", "Power-supply cumulative kilowatt hours reading"),
    "latency_rtt_ms": ("milliseconds", "Round-trip latency of a single requester thread"),
    "rate_vs_direct_pct": ("percent", "Peak rate with a simulated network latency between the "
                                      "replicating appliances, in percent of the rate with them "
                                      "connected directly"),
    "topic_count": ("count", "Topics in the test configuration"),
    "consumer_count": ("count", "Consumers in the test configuration"),
    "producer_count": ("count", "Producers in the test configuration"),
}

# A report prints no zero before a digit ("050", "007", "00.5"; "0" and "0.5" are numbers): a
# cell so written is no number as printed - in a CSV, often the digits after an unquoted
# thousands comma ("2,050" read as the two cells 2 and 050). At the start of a cell.
LEADING_ZERO_PATTERN = r"0[0-9]"
# A comma groups thousands only after one to three digits, the first of them not a zero
# ("2,300", "12,345,678"): "0,489" and "1234,5" are decimal commas, never 489 and 12345. The
# whole part is 0 or begins with 1 to 9 (LEADING_ZERO_PATTERN).
NUMBER_PATTERN = r"(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|0|[1-9][0-9]*)(?:\.[0-9]+)?|\.[0-9]+"  # ASCII digits only
# A number written with a decimal comma, as spreadsheets in many locales export it ("93,2",
# "1.234,5", "0,489"): never a report's printing, and not a thousands grouping (a comma after
# one to three digits and before exactly three reads as one, so "2,300" is 2300).
DECIMAL_COMMA_PATTERN = r"\d+,(?:\d{1,2}|\d{4,})|0,\d+|\d{4,},\d+|\d{1,3}(?:\.\d{3})+,\d+"
_QUANTITY = re.compile(rf"^\s*(?P<number>{NUMBER_PATTERN})\s*(?P<unit>[^\d\s.,][^\s]*)?\s*$")


def metric_quantity(metric: str) -> str:
    try:
        return METRICS[metric][0]
    except KeyError:
        raise ParseError(f"unknown metric {metric!r}", expected="one of " + ", ".join(METRICS))


def canonical_unit(quantity: str) -> str:
    return next(iter(UNITS[quantity].values()))[0]


def quantity(printed: str, kind: str, default_unit: str = "", line: int | None = None) -> Quantity:
    """Split a printed cell such as ``476.71 μs`` or ``2kB`` into number and unit.

    ``default_unit`` is the unit the column heading implies when the cell has none.
    Raises ParseError for anything that is not one number with a known unit of ``kind``.
    """
    match = _QUANTITY.match(printed)
    if not match:
        raise ParseError(f"{printed.strip()!r} is not a number", line,
                         expected=f"a {kind} value such as 12.5")
    unit = match.group("unit") or default_unit
    if unit not in UNITS[kind]:
        known = ", ".join(repr(u) for u in UNITS[kind] if u)
        raise ParseError(f"unknown unit {unit!r} in {printed.strip()!r}", line,
                         expected=f"a {kind} unit ({known})")
    return Quantity(printed=printed.strip(), number=match.group("number").replace(",", ""), unit=unit)


def decimals(number: str) -> int:
    """Digits after the decimal point as printed: the precision of a reading."""
    return len(number.split(".", 1)[1]) if "." in number else 0


def half_ulp(number: str) -> float:
    """Half a unit in the last printed digit (0.4 -> 0.05): how far the true value may lie
    from a number as printed. schema/10_stg.sql's printed_half_ulp is the same rule in SQL."""
    return 0.5 * 10 ** -decimals(number)
