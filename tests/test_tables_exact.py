"""Per-table exactness: every results table of the five text reports, checked against the reports
(the MQ Appliance reports' tables are their expected values, tests/expected_values/).

The expectations below are literals copied from the raw text in data/raw/reports/ (line
numbers, cells as printed, and each value converted by hand to the canonical unit), not
produced by the parsers. For every table: its row count and value count, and the first and
last rows cell by cell; for a set of whole tables (IIB ISO 8583, WBIMB 10.1 and Tables 1
and 2, ACE 11 Linux HTTP BLOB Echo and Windows HTTP XMLNSC Echo, ACE 13 startup table 1 and
message-rate tables 7 and 13, the MessageSight score card, FANOUT.SEC and both power
tables, ...) every number. A number that is wrong in the warehouse is a parser bug.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

import pytest

from support import expected

WB = "wbimb5-aix-2004.txt"
IIB = "iib10-xlinux.txt"
ACE11 = "ace11-vs-iib10-docker-2019.txt"
ACE13 = "ace13-openshift-2025.txt"
MS = "messagesight1-2013.txt"

# ACE 13 T-shirt sizes, report lines 82-84: "Small - CPU 0.5 cores, Memory 512Mi" ...
TSHIRTS = {"Small": (0.5, 512), "Medium": (1.0, 716), "Large": (2.0, 1024)}

# Values per report and tables per report, counted in the raw text.
VALUES = {WB: 643, IIB: 261, ACE11: 432, ACE13: 262, MS: 142}
TABLES = {WB: 50, IIB: 11, ACE11: 12, ACE13: 25, MS: 4}


# Keys of a table row, per family (columns of metric_values).
def W(size, persistent, kind, count):
    """WBIMB: Msg Size in bytes as printed, Persist yes/no, the configuration the heading names."""
    return dict(message_size_bytes=size, persistent=persistent, concurrency_kind=kind,
                concurrency=float(count), product_version="5.0", platform="AIX")


def I(size):
    """IIB 10: message size; the persistence half is per cell (NP / FP)."""
    return dict(message_size_bytes=size, concurrency_kind="flow_copies", concurrency=None,
                product_version="10.0.0.2", platform="xLinux")


def A(size, cores):
    """ACE 11 / IIB 10 in Docker: message size (inherited by the rows below it), cores."""
    return dict(message_size_bytes=size, persistent=False, concurrency_kind="docker_cores",
                concurrency=float(cores), cpu_limit_cores=float(cores))


def S(tshirt):
    """ACE 13 startup row: a T-shirt size, one replica, no message size."""
    cpu, mem = TSHIRTS[tshirt]
    return dict(tshirt=tshirt, concurrency_kind="tshirt", concurrency=cpu, cpu_limit_cores=cpu,
                memory_limit_mib=mem, replicas=1, message_size_bytes=None,
                product_version="13.0.1.0")


def R(tshirt, size, replicas):
    """ACE 13 message-rate row: T-shirt size, message size (None if the table has none), replicas."""
    cpu, mem = TSHIRTS[tshirt]
    return dict(tshirt=tshirt, concurrency_kind="tshirt", concurrency=cpu, cpu_limit_cores=cpu,
                memory_limit_mib=mem, replicas=replicas, message_size_bytes=size,
                persistent=False, product_version="13.0.1.0")


def M(scenario, size, persistent, kind=None, count=None):
    """MessageSight score-card row: the test, its message size and QoS from the description."""
    return dict(scenario=scenario, message_size_bytes=size, persistent=persistent,
                concurrency_kind=kind, concurrency=None if count is None else float(count))


def F(ratio):
    """FANOUT.SEC row: fan-out ratio 1:N, 32-byte messages (the FANOUT.SEC description)."""
    return dict(message_size_bytes=32, persistent=False, concurrency_kind="fanout_ratio",
                concurrency=float(ratio))


def P(component, at):
    """Power-supply reading: the supply and the logged date and time."""
    return dict(component=component, observed_at=dt.datetime.fromisoformat(at), persistent=True,
                message_size_bytes=None)


NP = {"persistent": False}  # IIB "Non Persistent" half
FP = {"persistent": True}   # IIB "Full Persistance" half


def SC(scenario):
    """A cell whose scenario differs from its neighbours' (WBIMB Tables 1 and 2)."""
    return {"scenario": scenario}


@dataclass
class T:
    source: str
    title: str  # metric_values.source_table
    rows: int
    values: int
    full: bool  # cells list every number of the table
    scenario: str | None = None
    keys: dict[int, dict] = field(default_factory=dict)  # source_line -> expected keys
    cells: list[tuple] = field(default_factory=list)  # (line, product, metric, printed, value[, extra])


SPECS = [
    T(WB, 'Table 1: Comparison of Message Conversion Costs using ESQL and the Mapping Node', rows=3, values=9, full=True,
      keys={481: W(4096, False, 'flow_instances', 1),
            482: W(4096, False, 'flow_instances', 1),
            483: W(4096, False, 'flow_instances', 1)},
      cells=[
        (481, 'WBIMB', 'msg_rate', '142.00', 142.0, SC('MRM CWF to MRM TDS')),
        (481, 'WBIMB', 'msg_rate', '139.67', 139.67, SC('MRM CWF Copy Mapped to MRM TDS')),
        (481, 'WBIMB', 'mapping_overhead_pct', '1.67', 1.67, SC('MRM CWF Copy Mapped to MRM TDS')),
        (482, 'WBIMB', 'msg_rate', '131.33', 131.33, SC('MRM XML to MRM CWF')),
        (482, 'WBIMB', 'msg_rate', '128.00', 128.0, SC('MRM XML Copy Mapped to MRM CWF')),
        (482, 'WBIMB', 'mapping_overhead_pct', '2.60', 2.6, SC('MRM XML Copy Mapped to MRM CWF')),
        (483, 'WBIMB', 'msg_rate', '77.00', 77.0, SC('MRM TDS to Generic XML')),
        (483, 'WBIMB', 'msg_rate', '76.00', 76.0, SC('MRM TDS Copy Mapped to Generic XML')),
        (483, 'WBIMB', 'mapping_overhead_pct', '1.32', 1.32, SC('MRM TDS Copy Mapped to Generic XML')),
    ]),
    T(WB, 'Table 2: Message Rates in messages per second, When Converting between Different Formats', rows=4, values=16, full=True,
      keys={502: W(4096, False, 'flow_instances', 1),
            503: W(4096, False, 'flow_instances', 1),
            504: W(4096, False, 'flow_instances', 1),
            505: W(4096, False, 'flow_instances', 1)},
      cells=[
        (502, 'WBIMB', 'msg_rate', '336.00', 336.0, SC('Generic XML to Generic XML')),
        (502, 'WBIMB', 'msg_rate', '180.67', 180.67, SC('Generic XML to MRM CWF')),
        (502, 'WBIMB', 'msg_rate', '126.00', 126.0, SC('Generic XML to MRM XML')),
        (502, 'WBIMB', 'msg_rate', '137.00', 137.0, SC('Generic XML to MRM TDS')),
        (503, 'WBIMB', 'msg_rate', '239.67', 239.67, SC('MRM CWF to Generic XML')),
        (503, 'WBIMB', 'msg_rate', '190.00', 190.0, SC('MRM CWF to MRM CWF')),
        (503, 'WBIMB', 'msg_rate', '151.00', 151.0, SC('MRM CWF to MRM XML')),
        (503, 'WBIMB', 'msg_rate', '142.00', 142.0, SC('MRM CWF to MRM TDS')),
        (504, 'WBIMB', 'msg_rate', '158.00', 158.0, SC('MRM XML to Generic XML')),
        (504, 'WBIMB', 'msg_rate', '131.33', 131.33, SC('MRM XML to MRM CWF')),
        (504, 'WBIMB', 'msg_rate', '112.33', 112.33, SC('MRM XML to MRM XML')),
        (504, 'WBIMB', 'msg_rate', '108.00', 108.0, SC('MRM XML to MRM TDS')),
        (505, 'WBIMB', 'msg_rate', '77.00', 77.0, SC('MRM TDS to Generic XML')),
        (505, 'WBIMB', 'msg_rate', '70.00', 70.0, SC('MRM TDS to MRM CWF')),
        (505, 'WBIMB', 'msg_rate', '65.00', 65.0, SC('MRM TDS to MRM XML')),
        (505, 'WBIMB', 'msg_rate', '63.00', 63.0, SC('MRM TDS to MRM TDS')),
    ]),
    T(WB, '10.1 A Trivial MQInput/MQOutput Message Flow Results', rows=5, values=15, full=True,
      keys={907: W(1024, False, 'flow_instances', 1),
            908: W(4096, False, 'flow_instances', 1),
            909: W(16384, False, 'flow_instances', 1),
            910: W(65536, False, 'flow_instances', 1),
            911: W(1024, True, 'flow_instances', 1)},
      cells=[
        (907, 'WBIMB', 'msg_rate', '2601.00', 2601.0),
        (907, 'WBIMB', 'cpu_busy_pct', '34.00', 34.0),
        (907, 'WBIMB', 'cpu_ms_per_msg', '1.05', 1.05),
        (908, 'WBIMB', 'msg_rate', '2127.00', 2127.0),
        (908, 'WBIMB', 'cpu_busy_pct', '38.67', 38.67),
        (908, 'WBIMB', 'cpu_ms_per_msg', '1.45', 1.45),
        (909, 'WBIMB', 'msg_rate', '656.67', 656.67),
        (909, 'WBIMB', 'cpu_busy_pct', '24.00', 24.0),
        (909, 'WBIMB', 'cpu_ms_per_msg', '2.92', 2.92),
        (910, 'WBIMB', 'msg_rate', '138.33', 138.33),
        (910, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (910, 'WBIMB', 'cpu_ms_per_msg', '9.25', 9.25),
        (911, 'WBIMB', 'msg_rate', '698.67', 698.67),
        (911, 'WBIMB', 'cpu_busy_pct', '22.00', 22.0),
        (911, 'WBIMB', 'cpu_ms_per_msg', '2.52', 2.52),
    ]),
    T(WB, '10.2 Aggregation Node Results', rows=5, values=15, full=False,
      keys={916: W(1024, False, 'flow_instances', 1),
            920: W(1024, True, 'flow_instances', 1)},
      cells=[
        (916, 'WBIMB', 'msg_rate', '61.67', 61.67),
        (916, 'WBIMB', 'cpu_busy_pct', '24.33', 24.33),
        (916, 'WBIMB', 'cpu_ms_per_msg', '31.57', 31.57),
        (920, 'WBIMB', 'msg_rate', '55.00', 55.0),
        (920, 'WBIMB', 'cpu_busy_pct', '24.67', 24.67),
        (920, 'WBIMB', 'cpu_ms_per_msg', '35.88', 35.88),
    ]),
    T(WB, '10.3.1 Simple Compute Results', rows=5, values=15, full=False,
      keys={929: W(1024, False, 'flow_instances', 1),
            933: W(1024, True, 'flow_instances', 1)},
      cells=[
        (929, 'WBIMB', 'msg_rate', '1038.00', 1038.0),
        (929, 'WBIMB', 'cpu_busy_pct', '22.00', 22.0),
        (929, 'WBIMB', 'cpu_ms_per_msg', '1.70', 1.7),
        (933, 'WBIMB', 'msg_rate', '449.00', 449.0),
        (933, 'WBIMB', 'cpu_busy_pct', '18.33', 18.33),
        (933, 'WBIMB', 'cpu_ms_per_msg', '3.27', 3.27),
    ]),
    T(WB, '10.3.2 Complex Compute Results', rows=4, values=12, full=False,
      keys={938: W(4096, False, 'flow_instances', 1),
            941: W(4096, True, 'flow_instances', 1)},
      cells=[
        (938, 'WBIMB', 'msg_rate', '209.67', 209.67),
        (938, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (938, 'WBIMB', 'cpu_ms_per_msg', '6.10', 6.1),
        (941, 'WBIMB', 'msg_rate', '171.00', 171.0),
        (941, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (941, 'WBIMB', 'cpu_ms_per_msg', '7.49', 7.49),
    ]),
    T(WB, '10.3.3 Multiple Complex Compute Results', rows=4, values=12, full=False,
      keys={946: W(4096, False, 'flow_instances', 1),
            949: W(4096, True, 'flow_instances', 1)},
      cells=[
        (946, 'WBIMB', 'msg_rate', '70.00', 70.0),
        (946, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (946, 'WBIMB', 'cpu_ms_per_msg', '16.00', 16.0),
        (949, 'WBIMB', 'msg_rate', '65.00', 65.0),
        (949, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (949, 'WBIMB', 'cpu_ms_per_msg', '17.23', 17.23),
    ]),
    T(WB, '10.3.4 Very Complex Compute Results', rows=4, values=12, full=False,
      keys={954: W(4096, False, 'flow_instances', 1),
            957: W(4096, True, 'flow_instances', 1)},
      cells=[
        (954, 'WBIMB', 'msg_rate', '92.00', 92.0),
        (954, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (954, 'WBIMB', 'cpu_ms_per_msg', '13.04', 13.04),
        (957, 'WBIMB', 'msg_rate', '84.00', 84.0),
        (957, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (957, 'WBIMB', 'cpu_ms_per_msg', '13.33', 13.33),
    ]),
    T(WB, '10.3.5 Nested SELECT FROM Compute Results', rows=4, values=12, full=False,
      keys={962: W(4096, False, 'flow_instances', 1),
            965: W(4096, True, 'flow_instances', 1)},
      cells=[
        (962, 'WBIMB', 'msg_rate', '273.67', 273.67),
        (962, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (962, 'WBIMB', 'cpu_ms_per_msg', '4.68', 4.68),
        (965, 'WBIMB', 'msg_rate', '219.67', 219.67),
        (965, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (965, 'WBIMB', 'cpu_ms_per_msg', '6.19', 6.19),
    ]),
    T(WB, '10.4.1 Database Insert/Delete Results', rows=5, values=15, full=False,
      keys={974: W(1024, False, 'flow_instances', 1),
            978: W(1024, True, 'flow_instances', 1)},
      cells=[
        (974, 'WBIMB', 'msg_rate', '296.67', 296.67),
        (974, 'WBIMB', 'cpu_busy_pct', '11.00', 11.0),
        (974, 'WBIMB', 'cpu_ms_per_msg', '2.97', 2.97),
        (978, 'WBIMB', 'msg_rate', '248.67', 248.67),
        (978, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (978, 'WBIMB', 'cpu_ms_per_msg', '4.83', 4.83),
    ]),
    T(WB, '10.4.2 Database Update Results', rows=5, values=15, full=False,
      keys={983: W(1024, False, 'flow_instances', 1),
            987: W(1024, True, 'flow_instances', 1)},
      cells=[
        (983, 'WBIMB', 'msg_rate', '327.67', 327.67),
        (983, 'WBIMB', 'cpu_busy_pct', '12.00', 12.0),
        (983, 'WBIMB', 'cpu_ms_per_msg', '2.93', 2.93),
        (987, 'WBIMB', 'msg_rate', '262.67', 262.67),
        (987, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (987, 'WBIMB', 'cpu_ms_per_msg', '4.26', 4.26),
    ]),
    T(WB, '10.4.3 Database Read Results', rows=5, values=15, full=False,
      keys={992: W(1024, False, 'flow_instances', 1),
            996: W(1024, True, 'flow_instances', 1)},
      cells=[
        (992, 'WBIMB', 'msg_rate', '905.33', 905.33),
        (992, 'WBIMB', 'cpu_busy_pct', '21.00', 21.0),
        (992, 'WBIMB', 'cpu_ms_per_msg', '1.86', 1.86),
        (996, 'WBIMB', 'msg_rate', '435.33', 435.33),
        (996, 'WBIMB', 'cpu_busy_pct', '19.00', 19.0),
        (996, 'WBIMB', 'cpu_ms_per_msg', '3.49', 3.49),
    ]),
    T(WB, '10.5 Filter Node Results', rows=5, values=15, full=False,
      keys={1001: W(1024, False, 'flow_instances', 1),
            1005: W(1024, True, 'flow_instances', 1)},
      cells=[
        (1001, 'WBIMB', 'msg_rate', '1576.67', 1576.67),
        (1001, 'WBIMB', 'cpu_busy_pct', '25.00', 25.0),
        (1001, 'WBIMB', 'cpu_ms_per_msg', '1.27', 1.27),
        (1005, 'WBIMB', 'msg_rate', '563.00', 563.0),
        (1005, 'WBIMB', 'cpu_busy_pct', '20.00', 20.0),
        (1005, 'WBIMB', 'cpu_ms_per_msg', '2.84', 2.84),
    ]),
    T(WB, '10.6.1 FlowOrder Node First Test Results', rows=5, values=15, full=False,
      keys={1016: W(1024, False, 'flow_instances', 1),
            1020: W(1024, True, 'flow_instances', 1)},
      cells=[
        (1016, 'WBIMB', 'msg_rate', '873.67', 873.67),
        (1016, 'WBIMB', 'cpu_busy_pct', '18.00', 18.0),
        (1016, 'WBIMB', 'cpu_ms_per_msg', '1.65', 1.65),
        (1020, 'WBIMB', 'msg_rate', '448.33', 448.33),
        (1020, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1020, 'WBIMB', 'cpu_ms_per_msg', '3.03', 3.03),
    ]),
    T(WB, '10.6.2 FlowOrder Node Second Test Results', rows=5, values=15, full=False,
      keys={1027: W(1024, False, 'flow_instances', 1),
            1031: W(1024, True, 'flow_instances', 1)},
      cells=[
        (1027, 'WBIMB', 'msg_rate', '838.33', 838.33),
        (1027, 'WBIMB', 'cpu_busy_pct', '18.33', 18.33),
        (1027, 'WBIMB', 'cpu_ms_per_msg', '1.75', 1.75),
        (1031, 'WBIMB', 'msg_rate', '448.00', 448.0),
        (1031, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1031, 'WBIMB', 'cpu_ms_per_msg', '3.04', 3.04),
    ]),
    T(WB, '10.7.1 MRM CWF Copy Mapped to MRM TDS', rows=4, values=12, full=False,
      keys={1040: W(4096, False, 'flow_instances', 1),
            1043: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1040, 'WBIMB', 'msg_rate', '139.67', 139.67),
        (1040, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1040, 'WBIMB', 'cpu_ms_per_msg', '8.59', 8.59),
        (1043, 'WBIMB', 'msg_rate', '122.33', 122.33),
        (1043, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1043, 'WBIMB', 'cpu_ms_per_msg', '9.81', 9.81),
    ]),
    T(WB, '10.7.2 MRM XML Copy Mapped to MRM CWF', rows=4, values=12, full=False,
      keys={1048: W(4096, False, 'flow_instances', 1),
            1051: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1048, 'WBIMB', 'msg_rate', '128.00', 128.0),
        (1048, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1048, 'WBIMB', 'cpu_ms_per_msg', '9.38', 9.38),
        (1051, 'WBIMB', 'msg_rate', '115.00', 115.0),
        (1051, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1051, 'WBIMB', 'cpu_ms_per_msg', '10.43', 10.43),
    ]),
    T(WB, '10.7.3 MRM TDS Copy Mapped to Generic XML', rows=4, values=12, full=False,
      keys={1056: W(4096, False, 'flow_instances', 1),
            1059: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1056, 'WBIMB', 'msg_rate', '76.00', 76.0),
        (1056, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1056, 'WBIMB', 'cpu_ms_per_msg', '14.74', 14.74),
        (1059, 'WBIMB', 'msg_rate', '71.00', 71.0),
        (1059, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1059, 'WBIMB', 'cpu_ms_per_msg', '15.77', 15.77),
    ]),
    T(WB, '10.8.1.1 Generic XML to Generic XML', rows=4, values=12, full=False,
      keys={1072: W(4096, False, 'flow_instances', 1),
            1075: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1072, 'WBIMB', 'msg_rate', '336.00', 336.0),
        (1072, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1072, 'WBIMB', 'cpu_ms_per_msg', '4.05', 4.05),
        (1075, 'WBIMB', 'msg_rate', '231.00', 231.0),
        (1075, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1075, 'WBIMB', 'cpu_ms_per_msg', '5.89', 5.89),
    ]),
    T(WB, '10.8.1.2 Generic XML to MRM CWF', rows=4, values=12, full=False,
      keys={1080: W(4096, False, 'flow_instances', 1),
            1083: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1080, 'WBIMB', 'msg_rate', '180.67', 180.67),
        (1080, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1080, 'WBIMB', 'cpu_ms_per_msg', '6.64', 6.64),
        (1083, 'WBIMB', 'msg_rate', '152.00', 152.0),
        (1083, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (1083, 'WBIMB', 'cpu_ms_per_msg', '8.42', 8.42),
    ]),
    T(WB, '10.8.1.3 Generic XML to MRM XML', rows=4, values=12, full=False,
      keys={1088: W(4096, False, 'flow_instances', 1),
            1091: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1088, 'WBIMB', 'msg_rate', '126.00', 126.0),
        (1088, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1088, 'WBIMB', 'cpu_ms_per_msg', '9.52', 9.52),
        (1091, 'WBIMB', 'msg_rate', '111.33', 111.33),
        (1091, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1091, 'WBIMB', 'cpu_ms_per_msg', '10.78', 10.78),
    ]),
    T(WB, '10.8.1.4 Generic XML to MRM TDS', rows=4, values=12, full=False,
      keys={1096: W(4096, False, 'flow_instances', 1),
            1099: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1096, 'WBIMB', 'msg_rate', '137.00', 137.0),
        (1096, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1096, 'WBIMB', 'cpu_ms_per_msg', '8.76', 8.76),
        (1099, 'WBIMB', 'msg_rate', '119.67', 119.67),
        (1099, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1099, 'WBIMB', 'cpu_ms_per_msg', '10.03', 10.03),
    ]),
    T(WB, '10.8.2.1 MRM CWF to Generic XML', rows=4, values=12, full=False,
      keys={1108: W(4096, False, 'flow_instances', 1),
            1111: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1108, 'WBIMB', 'msg_rate', '239.67', 239.67),
        (1108, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (1108, 'WBIMB', 'cpu_ms_per_msg', '5.34', 5.34),
        (1111, 'WBIMB', 'msg_rate', '191.00', 191.0),
        (1111, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1111, 'WBIMB', 'cpu_ms_per_msg', '7.12', 7.12),
    ]),
    T(WB, '10.8.2.2 MRM CWF to MRM CWF', rows=4, values=12, full=False,
      keys={1116: W(4096, False, 'flow_instances', 1),
            1119: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1116, 'WBIMB', 'msg_rate', '190.00', 190.0),
        (1116, 'WBIMB', 'cpu_busy_pct', '15.67', 15.67),
        (1116, 'WBIMB', 'cpu_ms_per_msg', '6.60', 6.6),
        (1119, 'WBIMB', 'msg_rate', '158.67', 158.67),
        (1119, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (1119, 'WBIMB', 'cpu_ms_per_msg', '8.07', 8.07),
    ]),
    T(WB, '10.8.2.3 MRM CWF to MRM XML', rows=4, values=12, full=False,
      keys={1124: W(4096, False, 'flow_instances', 1),
            1127: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1124, 'WBIMB', 'msg_rate', '151.00', 151.0),
        (1124, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1124, 'WBIMB', 'cpu_ms_per_msg', '7.95', 7.95),
        (1127, 'WBIMB', 'msg_rate', '129.67', 129.67),
        (1127, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1127, 'WBIMB', 'cpu_ms_per_msg', '9.25', 9.25),
    ]),
    T(WB, '10.8.2.4 MRM CWF to MRM TDS', rows=4, values=12, full=False,
      keys={1132: W(4096, False, 'flow_instances', 1),
            1135: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1132, 'WBIMB', 'msg_rate', '142.00', 142.0),
        (1132, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1132, 'WBIMB', 'cpu_ms_per_msg', '8.45', 8.45),
        (1135, 'WBIMB', 'msg_rate', '123.67', 123.67),
        (1135, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1135, 'WBIMB', 'cpu_ms_per_msg', '9.70', 9.7),
    ]),
    T(WB, '10.8.3.1 MRM XML to Generic XML', rows=4, values=12, full=False,
      keys={1144: W(4096, False, 'flow_instances', 1),
            1147: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1144, 'WBIMB', 'msg_rate', '158.00', 158.0),
        (1144, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1144, 'WBIMB', 'cpu_ms_per_msg', '7.59', 7.59),
        (1147, 'WBIMB', 'msg_rate', '135.00', 135.0),
        (1147, 'WBIMB', 'cpu_busy_pct', '15.67', 15.67),
        (1147, 'WBIMB', 'cpu_ms_per_msg', '9.28', 9.28),
    ]),
    T(WB, '10.8.3.2 MRM XML to MRM CWF', rows=4, values=12, full=False,
      keys={1152: W(4096, False, 'flow_instances', 1),
            1155: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1152, 'WBIMB', 'msg_rate', '131.33', 131.33),
        (1152, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1152, 'WBIMB', 'cpu_ms_per_msg', '9.14', 9.14),
        (1155, 'WBIMB', 'msg_rate', '116.00', 116.0),
        (1155, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1155, 'WBIMB', 'cpu_ms_per_msg', '10.34', 10.34),
    ]),
    T(WB, '10.8.3.3 MRM XML to MRM XML', rows=4, values=12, full=False,
      keys={1160: W(4096, False, 'flow_instances', 1),
            1163: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1160, 'WBIMB', 'msg_rate', '112.33', 112.33),
        (1160, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1160, 'WBIMB', 'cpu_ms_per_msg', '10.68', 10.68),
        (1163, 'WBIMB', 'msg_rate', '100.00', 100.0),
        (1163, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1163, 'WBIMB', 'cpu_ms_per_msg', '12.00', 12.0),
    ]),
    T(WB, '10.8.3.4 MRM XML to MRM TDS', rows=4, values=12, full=False,
      keys={1168: W(4096, False, 'flow_instances', 1),
            1171: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1168, 'WBIMB', 'msg_rate', '108.00', 108.0),
        (1168, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1168, 'WBIMB', 'cpu_ms_per_msg', '11.11', 11.11),
        (1171, 'WBIMB', 'msg_rate', '96.00', 96.0),
        (1171, 'WBIMB', 'cpu_busy_pct', '15.67', 15.67),
        (1171, 'WBIMB', 'cpu_ms_per_msg', '13.06', 13.06),
    ]),
    T(WB, '10.8.4.1 MRM TDS to Generic XML', rows=4, values=12, full=False,
      keys={1180: W(4096, False, 'flow_instances', 1),
            1183: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1180, 'WBIMB', 'msg_rate', '77.00', 77.0),
        (1180, 'WBIMB', 'cpu_busy_pct', '14.33', 14.33),
        (1180, 'WBIMB', 'cpu_ms_per_msg', '14.89', 14.89),
        (1183, 'WBIMB', 'msg_rate', '72.00', 72.0),
        (1183, 'WBIMB', 'cpu_busy_pct', '14.33', 14.33),
        (1183, 'WBIMB', 'cpu_ms_per_msg', '15.93', 15.93),
    ]),
    T(WB, '10.8.4.2 MRM TDS to MRM CWF', rows=4, values=12, full=False,
      keys={1188: W(4096, False, 'flow_instances', 1),
            1191: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1188, 'WBIMB', 'msg_rate', '70.00', 70.0),
        (1188, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1188, 'WBIMB', 'cpu_ms_per_msg', '16.00', 16.0),
        (1191, 'WBIMB', 'msg_rate', '66.00', 66.0),
        (1191, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1191, 'WBIMB', 'cpu_ms_per_msg', '16.97', 16.97),
    ]),
    T(WB, '10.8.4.3 MRM TDS to MRM XML', rows=4, values=12, full=False,
      keys={1196: W(4096, False, 'flow_instances', 1),
            1199: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1196, 'WBIMB', 'msg_rate', '65.00', 65.0),
        (1196, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1196, 'WBIMB', 'cpu_ms_per_msg', '17.23', 17.23),
        (1199, 'WBIMB', 'msg_rate', '61.00', 61.0),
        (1199, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1199, 'WBIMB', 'cpu_ms_per_msg', '18.36', 18.36),
    ]),
    T(WB, '10.8.4.4 MRM TDS to MRM TDS', rows=4, values=12, full=False,
      keys={1204: W(4096, False, 'flow_instances', 1),
            1207: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1204, 'WBIMB', 'msg_rate', '63.00', 63.0),
        (1204, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1204, 'WBIMB', 'cpu_ms_per_msg', '17.78', 17.78),
        (1207, 'WBIMB', 'msg_rate', '60.00', 60.0),
        (1207, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1207, 'WBIMB', 'cpu_ms_per_msg', '20.00', 20.0),
    ]),
    T(WB, '10.8.5 SWIFT MT543', rows=2, values=6, full=False,
      keys={1212: W(6449, False, 'flow_instances', 1),
            1213: W(6449, True, 'flow_instances', 1)},
      cells=[
        (1212, 'WBIMB', 'msg_rate', '3.55', 3.55),
        (1212, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1212, 'WBIMB', 'cpu_ms_per_msg', '315.49', 315.49),
        (1213, 'WBIMB', 'msg_rate', '3.53', 3.53),
        (1213, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1213, 'WBIMB', 'cpu_ms_per_msg', '317.28', 317.28),
    ]),
    T(WB, '10.9.1.1 One Subscriber Results', rows=5, values=15, full=False,
      keys={1226: W(1024, False, 'subscribers', 1),
            1230: W(1024, True, 'subscribers', 1)},
      cells=[
        (1226, 'WBIMB', 'msg_rate', '1232.00', 1232.0),
        (1226, 'WBIMB', 'cpu_busy_pct', '23.00', 23.0),
        (1226, 'WBIMB', 'cpu_ms_per_msg', '1.49', 1.49),
        (1230, 'WBIMB', 'msg_rate', '476.33', 476.33),
        (1230, 'WBIMB', 'cpu_busy_pct', '18.33', 18.33),
        (1230, 'WBIMB', 'cpu_ms_per_msg', '3.08', 3.08),
    ]),
    T(WB, '10.9.1.2 Ten Subscribers Results', rows=5, values=15, full=False,
      keys={1235: W(1024, False, 'subscribers', 10),
            1239: W(1024, True, 'subscribers', 10)},
      cells=[
        (1235, 'WBIMB', 'msg_rate', '389.00', 389.0),
        (1235, 'WBIMB', 'cpu_busy_pct', '28.00', 28.0),
        (1235, 'WBIMB', 'cpu_ms_per_msg', '5.76', 5.76),
        (1239, 'WBIMB', 'msg_rate', '181.00', 181.0),
        (1239, 'WBIMB', 'cpu_busy_pct', '28.00', 28.0),
        (1239, 'WBIMB', 'cpu_ms_per_msg', '12.38', 12.38),
    ]),
    T(WB, '10.9.1.3 One Hundred Subscribers Results', rows=5, values=15, full=False,
      keys={1244: W(1024, False, 'subscribers', 100),
            1248: W(1024, True, 'subscribers', 100)},
      cells=[
        (1244, 'WBIMB', 'msg_rate', '50.67', 50.67),
        (1244, 'WBIMB', 'cpu_busy_pct', '30.00', 30.0),
        (1244, 'WBIMB', 'cpu_ms_per_msg', '47.37', 47.37),
        (1248, 'WBIMB', 'msg_rate', '31.97', 31.97),
        (1248, 'WBIMB', 'cpu_busy_pct', '39.67', 39.67),
        (1248, 'WBIMB', 'cpu_ms_per_msg', '99.27', 99.27),
    ]),
    T(WB, '10.9.1.4 One Thousand Subscribers Results', rows=5, values=15, full=True,
      keys={1253: W(1024, False, 'subscribers', 1000),
            1254: W(4096, False, 'subscribers', 1000),
            1255: W(16384, False, 'subscribers', 1000),
            1256: W(65536, False, 'subscribers', 1000),
            1257: W(1024, True, 'subscribers', 1000)},
      cells=[
        (1253, 'WBIMB', 'msg_rate', '2.40', 2.4),
        (1253, 'WBIMB', 'cpu_busy_pct', '22.00', 22.0),
        (1253, 'WBIMB', 'cpu_ms_per_msg', '732.32', 732.32),
        (1254, 'WBIMB', 'msg_rate', '2.27', 2.27),
        (1254, 'WBIMB', 'cpu_busy_pct', '23.00', 23.0),
        (1254, 'WBIMB', 'cpu_ms_per_msg', '810.57', 810.57),
        (1255, 'WBIMB', 'msg_rate', '1.82', 1.82),
        (1255, 'WBIMB', 'cpu_busy_pct', '23.00', 23.0),
        (1255, 'WBIMB', 'cpu_ms_per_msg', '1010.99', 1010.99),
        (1256, 'WBIMB', 'msg_rate', '1.06', 1.06),
        (1256, 'WBIMB', 'cpu_busy_pct', '24.00', 24.0),
        (1256, 'WBIMB', 'cpu_ms_per_msg', '1805.64', 1805.64),
        (1257, 'WBIMB', 'msg_rate', '1.67', 1.67),
        (1257, 'WBIMB', 'cpu_busy_pct', '27.00', 27.0),
        (1257, 'WBIMB', 'cpu_ms_per_msg', '1293.41', 1293.41),
    ]),
    T(WB, '10.9.2 Content Based Routing', rows=5, values=15, full=False,
      keys={1262: W(1024, False, 'subscribers', 1),
            1266: W(1024, True, 'subscribers', 1)},
      cells=[
        (1262, 'WBIMB', 'msg_rate', '435.67', 435.67),
        (1262, 'WBIMB', 'cpu_busy_pct', '17.00', 17.0),
        (1262, 'WBIMB', 'cpu_ms_per_msg', '3.12', 3.12),
        (1266, 'WBIMB', 'msg_rate', '304.00', 304.0),
        (1266, 'WBIMB', 'cpu_busy_pct', '17.33', 17.33),
        (1266, 'WBIMB', 'cpu_ms_per_msg', '4.56', 4.56),
    ]),
    T(WB, '10.10.1 RouteToLabel with One Entry in the Destination List', rows=5, values=15, full=False,
      keys={1275: W(1024, False, 'destination_list_entries', 1),
            1279: W(1024, True, 'destination_list_entries', 1)},
      cells=[
        (1275, 'WBIMB', 'msg_rate', '1386.33', 1386.33),
        (1275, 'WBIMB', 'cpu_busy_pct', '25.33', 25.33),
        (1275, 'WBIMB', 'cpu_ms_per_msg', '1.46', 1.46),
        (1279, 'WBIMB', 'msg_rate', '550.33', 550.33),
        (1279, 'WBIMB', 'cpu_busy_pct', '20.00', 20.0),
        (1279, 'WBIMB', 'cpu_ms_per_msg', '2.91', 2.91),
    ]),
    T(WB, '10.10.2 RouteToLabel with One Hundred Entries in the Destination List', rows=5, values=15, full=False,
      keys={1284: W(1024, False, 'destination_list_entries', 100),
            1288: W(1024, True, 'destination_list_entries', 100)},
      cells=[
        (1284, 'WBIMB', 'msg_rate', '368.00', 368.0),
        (1284, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (1284, 'WBIMB', 'cpu_ms_per_msg', '3.48', 3.48),
        (1288, 'WBIMB', 'msg_rate', '265.00', 265.0),
        (1288, 'WBIMB', 'cpu_busy_pct', '16.00', 16.0),
        (1288, 'WBIMB', 'cpu_ms_per_msg', '4.83', 4.83),
    ]),
    T(WB, '10.11.1.1 Message Throughput with One Instance', rows=4, values=12, full=False,
      keys={1299: W(4096, False, 'flow_instances', 1),
            1302: W(4096, True, 'flow_instances', 1)},
      cells=[
        (1299, 'WBIMB', 'msg_rate', '92.00', 92.0),
        (1299, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1299, 'WBIMB', 'cpu_ms_per_msg', '13.04', 13.04),
        (1302, 'WBIMB', 'msg_rate', '84.00', 84.0),
        (1302, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1302, 'WBIMB', 'cpu_ms_per_msg', '13.33', 13.33),
    ]),
    T(WB, '10.11.1.2 Message Throughput with Two Instances', rows=4, values=12, full=False,
      keys={1307: W(4096, False, 'flow_instances', 2),
            1310: W(4096, True, 'flow_instances', 2)},
      cells=[
        (1307, 'WBIMB', 'msg_rate', '204.33', 204.33),
        (1307, 'WBIMB', 'cpu_busy_pct', '29.00', 29.0),
        (1307, 'WBIMB', 'cpu_ms_per_msg', '11.35', 11.35),
        (1310, 'WBIMB', 'msg_rate', '183.00', 183.0),
        (1310, 'WBIMB', 'cpu_busy_pct', '29.00', 29.0),
        (1310, 'WBIMB', 'cpu_ms_per_msg', '12.68', 12.68),
    ]),
    T(WB, '10.11.1.3 Message Throughput with Four Instances', rows=4, values=12, full=False,
      keys={1315: W(4096, False, 'flow_instances', 4),
            1318: W(4096, True, 'flow_instances', 4)},
      cells=[
        (1315, 'WBIMB', 'msg_rate', '332.00', 332.0),
        (1315, 'WBIMB', 'cpu_busy_pct', '55.00', 55.0),
        (1315, 'WBIMB', 'cpu_ms_per_msg', '13.25', 13.25),
        (1318, 'WBIMB', 'msg_rate', '293.67', 293.67),
        (1318, 'WBIMB', 'cpu_busy_pct', '55.33', 55.33),
        (1318, 'WBIMB', 'cpu_ms_per_msg', '15.07', 15.07),
    ]),
    T(WB, '10.11.1.4 Message Throughput with Eight Instances', rows=4, values=12, full=True,
      keys={1323: W(4096, False, 'flow_instances', 8),
            1324: W(16384, False, 'flow_instances', 8),
            1325: W(65536, False, 'flow_instances', 8),
            1326: W(4096, True, 'flow_instances', 8)},
      cells=[
        (1323, 'WBIMB', 'msg_rate', '592.67', 592.67),
        (1323, 'WBIMB', 'cpu_busy_pct', '100.00', 100.0),
        (1323, 'WBIMB', 'cpu_ms_per_msg', '13.50', 13.5),
        (1324, 'WBIMB', 'msg_rate', '470.00', 470.0),
        (1324, 'WBIMB', 'cpu_busy_pct', '100.00', 100.0),
        (1324, 'WBIMB', 'cpu_ms_per_msg', '17.02', 17.02),
        (1325, 'WBIMB', 'msg_rate', '142.00', 142.0),
        (1325, 'WBIMB', 'cpu_busy_pct', '60.00', 60.0),
        (1325, 'WBIMB', 'cpu_ms_per_msg', '33.80', 33.8),
        (1326, 'WBIMB', 'msg_rate', '488.33', 488.33),
        (1326, 'WBIMB', 'cpu_busy_pct', '94.33', 94.33),
        (1326, 'WBIMB', 'cpu_ms_per_msg', '15.45', 15.45),
    ]),
    T(WB, '10.11.2.1 Message Throughput with One Execution Group', rows=4, values=12, full=False,
      keys={1333: W(4096, False, 'execution_groups', 1),
            1336: W(4096, True, 'execution_groups', 1)},
      cells=[
        (1333, 'WBIMB', 'msg_rate', '92.00', 92.0),
        (1333, 'WBIMB', 'cpu_busy_pct', '15.00', 15.0),
        (1333, 'WBIMB', 'cpu_ms_per_msg', '13.04', 13.04),
        (1336, 'WBIMB', 'msg_rate', '84.00', 84.0),
        (1336, 'WBIMB', 'cpu_busy_pct', '14.00', 14.0),
        (1336, 'WBIMB', 'cpu_ms_per_msg', '13.33', 13.33),
    ]),
    T(WB, '10.11.2.2 Message Throughput with Two Execution Groups', rows=4, values=12, full=False,
      keys={1341: W(4096, False, 'execution_groups', 2),
            1344: W(4096, True, 'execution_groups', 2)},
      cells=[
        (1341, 'WBIMB', 'msg_rate', '212.00', 212.0),
        (1341, 'WBIMB', 'cpu_busy_pct', '29.00', 29.0),
        (1341, 'WBIMB', 'cpu_ms_per_msg', '10.94', 10.94),
        (1344, 'WBIMB', 'msg_rate', '187.00', 187.0),
        (1344, 'WBIMB', 'cpu_busy_pct', '29.00', 29.0),
        (1344, 'WBIMB', 'cpu_ms_per_msg', '12.41', 12.41),
    ]),
    T(WB, '10.11.2.3 Message Throughput with Four Execution Groups', rows=4, values=12, full=False,
      keys={1349: W(4096, False, 'execution_groups', 4),
            1352: W(4096, True, 'execution_groups', 4)},
      cells=[
        (1349, 'WBIMB', 'msg_rate', '411.33', 411.33),
        (1349, 'WBIMB', 'cpu_busy_pct', '56.00', 56.0),
        (1349, 'WBIMB', 'cpu_ms_per_msg', '10.89', 10.89),
        (1352, 'WBIMB', 'msg_rate', '346.00', 346.0),
        (1352, 'WBIMB', 'cpu_busy_pct', '56.00', 56.0),
        (1352, 'WBIMB', 'cpu_ms_per_msg', '12.95', 12.95),
    ]),
    T(WB, '10.11.2.4 Message Throughput with Eight Execution Groups', rows=4, values=12, full=False,
      keys={1357: W(4096, False, 'execution_groups', 8),
            1360: W(4096, True, 'execution_groups', 8)},
      cells=[
        (1357, 'WBIMB', 'msg_rate', '760.33', 760.33),
        (1357, 'WBIMB', 'cpu_busy_pct', '100.00', 100.0),
        (1357, 'WBIMB', 'cpu_ms_per_msg', '10.52', 10.52),
        (1360, 'WBIMB', 'msg_rate', '561.67', 561.67),
        (1360, 'WBIMB', 'cpu_busy_pct', '91.00', 91.0),
        (1360, 'WBIMB', 'cpu_ms_per_msg', '12.96', 12.96),
    ]),
    T(IIB, 'Aggregation', rows=6, values=36, full=True, scenario='Aggregation',
      keys={46: I(256),
            47: I(2048),
            48: I(20480),
            49: I(204800),
            50: I(2048000),
            51: I(20480000)},
      cells=[
        (46, 'IIB', 'msg_rate', '1191.6', 1191.6, NP),
        (46, 'IIB', 'cpu_busy_pct', '98.7', 98.7, NP),
        (46, 'IIB', 'cpu_ms_per_msg', '6.6', 6.6, NP),
        (46, 'IIB', 'msg_rate', '895.3', 895.3, FP),
        (46, 'IIB', 'cpu_busy_pct', '95.7', 95.7, FP),
        (46, 'IIB', 'cpu_ms_per_msg', '8.6', 8.6, FP),
        (47, 'IIB', 'msg_rate', '1136.9', 1136.9, NP),
        (47, 'IIB', 'cpu_busy_pct', '98.5', 98.5, NP),
        (47, 'IIB', 'cpu_ms_per_msg', '6.9', 6.9, NP),
        (47, 'IIB', 'msg_rate', '872.4', 872.4, FP),
        (47, 'IIB', 'cpu_busy_pct', '95.8', 95.8, FP),
        (47, 'IIB', 'cpu_ms_per_msg', '8.8', 8.8, FP),
        (48, 'IIB', 'msg_rate', '783.5', 783.5, NP),
        (48, 'IIB', 'cpu_busy_pct', '97.1', 97.1, NP),
        (48, 'IIB', 'cpu_ms_per_msg', '9.9', 9.9, NP),
        (48, 'IIB', 'msg_rate', '635.4', 635.4, FP),
        (48, 'IIB', 'cpu_busy_pct', '95.3', 95.3, FP),
        (48, 'IIB', 'cpu_ms_per_msg', '12.0', 12.0, FP),
        (49, 'IIB', 'msg_rate', '182.3', 182.3, NP),
        (49, 'IIB', 'cpu_busy_pct', '95.3', 95.3, NP),
        (49, 'IIB', 'cpu_ms_per_msg', '41.8', 41.8, NP),
        (49, 'IIB', 'msg_rate', '170.1', 170.1, FP),
        (49, 'IIB', 'cpu_busy_pct', '96.5', 96.5, FP),
        (49, 'IIB', 'cpu_ms_per_msg', '45.4', 45.4, FP),
        (50, 'IIB', 'msg_rate', '19.3', 19.3, NP),
        (50, 'IIB', 'cpu_busy_pct', '98.6', 98.6, NP),
        (50, 'IIB', 'cpu_ms_per_msg', '407.7', 407.7, NP),
        (50, 'IIB', 'msg_rate', '18.3', 18.3, FP),
        (50, 'IIB', 'cpu_busy_pct', '98.1', 98.1, FP),
        (50, 'IIB', 'cpu_ms_per_msg', '427.9', 427.9, FP),
        (51, 'IIB', 'msg_rate', '1.0', 1.0, NP),
        (51, 'IIB', 'cpu_busy_pct', '97.5', 97.5, NP),
        (51, 'IIB', 'cpu_ms_per_msg', '8125.0', 8125.0, NP),
        (51, 'IIB', 'msg_rate', '0.9', 0.9, FP),
        (51, 'IIB', 'cpu_busy_pct', '97.5', 97.5, FP),
        (51, 'IIB', 'cpu_ms_per_msg', '8573.2', 8573.2, FP),
    ]),
    T(IIB, 'Coordinated Request/Reply', rows=6, values=36, full=False, scenario='Coordinated Request/Reply',
      keys={57: I(256),
            62: I(20480000)},
      cells=[
        (57, 'IIB', 'msg_rate', '1334.9', 1334.9, NP),
        (57, 'IIB', 'cpu_busy_pct', '89.0', 89.0, NP),
        (57, 'IIB', 'cpu_ms_per_msg', '5.3', 5.3, NP),
        (57, 'IIB', 'msg_rate', '1103.7', 1103.7, FP),
        (57, 'IIB', 'cpu_busy_pct', '85.8', 85.8, FP),
        (57, 'IIB', 'cpu_ms_per_msg', '6.2', 6.2, FP),
        (62, 'IIB', 'msg_rate', '0.4', 0.4, NP),
        (62, 'IIB', 'cpu_busy_pct', '95.0', 95.0, NP),
        (62, 'IIB', 'cpu_ms_per_msg', '17278.2', 17278.2, NP),
        (62, 'IIB', 'msg_rate', '0.5', 0.5, FP),
        (62, 'IIB', 'cpu_busy_pct', '95.6', 95.6, FP),
        (62, 'IIB', 'cpu_ms_per_msg', '15600.0', 15600.0, FP),
    ]),
    T(IIB, 'Large Messaging', rows=6, values=36, full=False, scenario='Large Messaging',
      keys={68: I(256),
            73: I(20480000)},
      cells=[
        (68, 'IIB', 'msg_rate', '7380.0', 7380.0, NP),
        (68, 'IIB', 'cpu_busy_pct', '95.1', 95.1, NP),
        (68, 'IIB', 'cpu_ms_per_msg', '1.0', 1.0, NP),
        (68, 'IIB', 'msg_rate', '4520.8', 4520.8, FP),
        (68, 'IIB', 'cpu_busy_pct', '90.3', 90.3, FP),
        (68, 'IIB', 'cpu_ms_per_msg', '1.6', 1.6, FP),
        (73, 'IIB', 'msg_rate', '0.9', 0.9, NP),
        (73, 'IIB', 'cpu_busy_pct', '95.1', 95.1, NP),
        (73, 'IIB', 'cpu_ms_per_msg', '8272.2', 8272.2, NP),
        (73, 'IIB', 'msg_rate', '0.7', 0.7, FP),
        (73, 'IIB', 'cpu_busy_pct', '91.2', 91.2, FP),
        (73, 'IIB', 'cpu_ms_per_msg', '10422.9', 10422.9, FP),
    ]),
    T(IIB, 'Message Routing', rows=6, values=36, full=False, scenario='Message Routing',
      keys={79: I(256),
            84: I(20480000)},
      cells=[
        (79, 'IIB', 'msg_rate', '16021.2', 16021.2, NP),
        (79, 'IIB', 'cpu_busy_pct', '94.9', 94.9, NP),
        (79, 'IIB', 'cpu_ms_per_msg', '0.5', 0.5, NP),
        (79, 'IIB', 'msg_rate', '8363.2', 8363.2, FP),
        (79, 'IIB', 'cpu_busy_pct', '87.7', 87.7, FP),
        (79, 'IIB', 'cpu_ms_per_msg', '0.8', 0.8, FP),
        (84, 'IIB', 'msg_rate', '21.0', 21.0, NP),
        (84, 'IIB', 'cpu_busy_pct', '49.9', 49.9, NP),
        (84, 'IIB', 'cpu_ms_per_msg', '190.2', 190.2, NP),
        (84, 'IIB', 'msg_rate', '15.7', 15.7, FP),
        (84, 'IIB', 'cpu_busy_pct', '59.9', 59.9, FP),
        (84, 'IIB', 'cpu_ms_per_msg', '305.9', 305.9, FP),
    ]),
    T(IIB, 'Transforming a message', rows=6, values=36, full=False, scenario='Transforming a message',
      keys={90: I(256),
            95: I(20480000)},
      cells=[
        (90, 'IIB', 'msg_rate', '13156.7', 13156.7, NP),
        (90, 'IIB', 'cpu_busy_pct', '95.5', 95.5, NP),
        (90, 'IIB', 'cpu_ms_per_msg', '0.6', 0.6, NP),
        (90, 'IIB', 'msg_rate', '7234.1', 7234.1, FP),
        (90, 'IIB', 'cpu_busy_pct', '87.3', 87.3, FP),
        (90, 'IIB', 'cpu_ms_per_msg', '1.0', 1.0, FP),
        (95, 'IIB', 'msg_rate', '1.8', 1.8, NP),
        (95, 'IIB', 'cpu_busy_pct', '99.4', 99.4, NP),
        (95, 'IIB', 'cpu_ms_per_msg', '4391.2', 4391.2, NP),
        (95, 'IIB', 'msg_rate', '1.7', 1.7, FP),
        (95, 'IIB', 'cpu_busy_pct', '99.0', 99.0, FP),
        (95, 'IIB', 'cpu_ms_per_msg', '4588.7', 4588.7, FP),
    ]),
    T(IIB, 'File out and file in', rows=6, values=18, full=False, scenario='File out and file in',
      keys={101: I(256),
            106: I(20480000)},
      cells=[
        (101, 'IIB', 'msg_rate', '4570.2', 4570.2, NP),
        (101, 'IIB', 'cpu_busy_pct', '96.6', 96.6, NP),
        (101, 'IIB', 'cpu_ms_per_msg', '1.7', 1.7, NP),
        (106, 'IIB', 'msg_rate', '10.7', 10.7, NP),
        (106, 'IIB', 'cpu_busy_pct', '93.1', 93.1, NP),
        (106, 'IIB', 'cpu_ms_per_msg', '697.7', 697.7, NP),
    ]),
    T(IIB, 'SOAP Consumer', rows=6, values=18, full=False, scenario='SOAP Consumer',
      keys={112: I(256),
            117: I(20480000)},
      cells=[
        (112, 'IIB', 'msg_rate', '3212.1', 3212.1, NP),
        (112, 'IIB', 'cpu_busy_pct', '91.4', 91.4, NP),
        (112, 'IIB', 'cpu_ms_per_msg', '2.3', 2.3, NP),
        (117, 'IIB', 'msg_rate', '1.7', 1.7, NP),
        (117, 'IIB', 'cpu_busy_pct', '96.7', 96.7, NP),
        (117, 'IIB', 'cpu_ms_per_msg', '4550.6', 4550.6, NP),
    ]),
    T(IIB, 'SOAP Provider', rows=6, values=18, full=False, scenario='SOAP Provider',
      keys={123: I(256),
            128: I(20480000)},
      cells=[
        (123, 'IIB', 'msg_rate', '7496.5', 7496.5, NP),
        (123, 'IIB', 'cpu_busy_pct', '98.1', 98.1, NP),
        (123, 'IIB', 'cpu_ms_per_msg', '1.0', 1.0, NP),
        (128, 'IIB', 'msg_rate', '3.3', 3.3, NP),
        (128, 'IIB', 'cpu_busy_pct', '96.1', 96.1, NP),
        (128, 'IIB', 'cpu_ms_per_msg', '2344.9', 2344.9, NP),
    ]),
    T(IIB, 'ISO 8583 Transformation', rows=3, values=9, full=True, scenario='ISO 8583 Transformation',
      keys={134: I(120),
            135: I(134),
            136: I(1384)},
      cells=[
        (134, 'IIB', 'msg_rate', '2864.4', 2864.4, NP),
        (134, 'IIB', 'cpu_busy_pct', '95.4', 95.4, NP),
        (134, 'IIB', 'cpu_ms_per_msg', '2.7', 2.7, NP),
        (135, 'IIB', 'msg_rate', '2139.0', 2139.0, NP),
        (135, 'IIB', 'cpu_busy_pct', '94.9', 94.9, NP),
        (135, 'IIB', 'cpu_ms_per_msg', '3.3', 3.3, NP),
        (136, 'IIB', 'msg_rate', '1362.3', 1362.3, NP),
        (136, 'IIB', 'cpu_busy_pct', '94.0', 94.0, NP),
        (136, 'IIB', 'cpu_ms_per_msg', '5.5', 5.5, NP),
    ]),
    T(IIB, 'RESTful API – Post', rows=3, values=9, full=False, scenario='RESTful API – Post',
      keys={142: I(256),
            144: I(20480)},
      cells=[
        (142, 'IIB', 'msg_rate', '3533.0', 3533.0, NP),
        (142, 'IIB', 'cpu_busy_pct', '95.6', 95.6, NP),
        (142, 'IIB', 'cpu_ms_per_msg', '2.2', 2.2, NP),
        (144, 'IIB', 'msg_rate', '511.4', 511.4, NP),
        (144, 'IIB', 'cpu_busy_pct', '96.2', 96.2, NP),
        (144, 'IIB', 'cpu_ms_per_msg', '15.1', 15.1, NP),
    ]),
    T(IIB, 'RESTful API – Get', rows=3, values=9, full=False, scenario='RESTful API – Get',
      keys={150: I(256),
            152: I(20480)},
      cells=[
        (150, 'IIB', 'msg_rate', '3996.0', 3996.0, NP),
        (150, 'IIB', 'cpu_busy_pct', '95.3', 95.3, NP),
        (150, 'IIB', 'cpu_ms_per_msg', '1.9', 1.9, NP),
        (152, 'IIB', 'msg_rate', '829.2', 829.2, NP),
        (152, 'IIB', 'cpu_busy_pct', '97.9', 97.9, NP),
        (152, 'IIB', 'cpu_ms_per_msg', '9.4', 9.4, NP),
    ]),
    T(ACE11, 'HTTP BLOB Echo (Linux)', rows=9, values=36, full=True, scenario='HTTP BLOB Echo',
      keys={183: A(2048, 1),
            184: A(2048, 2),
            185: A(2048, 4),
            186: A(20480, 1),
            187: A(20480, 2),
            188: A(20480, 4),
            189: A(204800, 1),
            190: A(204800, 2),
            191: A(204800, 4)},
      cells=[
        (183, 'IIB', 'msg_rate', '1998.06/s', 1998.06),
        (183, 'IIB', 'cpu_ms_per_msg', '476.71 μs', 0.47671),
        (183, 'ACE', 'msg_rate', '2761.20/s', 2761.2),
        (183, 'ACE', 'cpu_ms_per_msg', '363.13 μs', 0.36313),
        (184, 'IIB', 'msg_rate', '5088.72/s', 5088.72),
        (184, 'IIB', 'cpu_ms_per_msg', '382.01 μs', 0.38201),
        (184, 'ACE', 'msg_rate', '6040.22/s', 6040.22),
        (184, 'ACE', 'cpu_ms_per_msg', '331.64 μs', 0.33164),
        (185, 'IIB', 'msg_rate', '11386.17/s', 11386.17),
        (185, 'IIB', 'cpu_ms_per_msg', '346.02 μs', 0.34602),
        (185, 'ACE', 'msg_rate', '12557.68/s', 12557.68),
        (185, 'ACE', 'cpu_ms_per_msg', '318.56 μs', 0.31856),
        (186, 'IIB', 'msg_rate', '1446.23/s', 1446.23),
        (186, 'IIB', 'cpu_ms_per_msg', '657.77 μs', 0.65777),
        (186, 'ACE', 'msg_rate', '2198.93/s', 2198.93),
        (186, 'ACE', 'cpu_ms_per_msg', '455.97 μs', 0.45597),
        (187, 'IIB', 'msg_rate', '3663.90/s', 3663.9),
        (187, 'IIB', 'cpu_ms_per_msg', '531.19 μs', 0.53119),
        (187, 'ACE', 'msg_rate', '4924.27/s', 4924.27),
        (187, 'ACE', 'cpu_ms_per_msg', '406.86 μs', 0.40686),
        (188, 'IIB', 'msg_rate', '8304.51/s', 8304.51),
        (188, 'IIB', 'cpu_ms_per_msg', '474.78 μs', 0.47478),
        (188, 'ACE', 'msg_rate', '9974.12/s', 9974.12),
        (188, 'ACE', 'cpu_ms_per_msg', '400.84 μs', 0.40084),
        (189, 'IIB', 'msg_rate', '519.41/s', 519.41),
        (189, 'IIB', 'cpu_ms_per_msg', '1.83 ms', 1.83),
        (189, 'ACE', 'msg_rate', '787.66/s', 787.66),
        (189, 'ACE', 'cpu_ms_per_msg', '1.27 ms', 1.27),
        (190, 'IIB', 'msg_rate', '984.30/s', 984.3),
        (190, 'IIB', 'cpu_ms_per_msg', '1.95 ms', 1.95),
        (190, 'ACE', 'msg_rate', '1603.88/s', 1603.88),
        (190, 'ACE', 'cpu_ms_per_msg', '1.25 ms', 1.25),
        (191, 'IIB', 'msg_rate', '1875.44/s', 1875.44),
        (191, 'IIB', 'cpu_ms_per_msg', '2.1 ms', 2.1),
        (191, 'ACE', 'msg_rate', '2516.69/s', 2516.69),
        (191, 'ACE', 'cpu_ms_per_msg', '1.32 ms', 1.32),
    ]),
    T(ACE11, 'HTTP XMLNSC Echo (Linux)', rows=9, values=36, full=False, scenario='HTTP XMLNSC Echo',
      keys={202: A(2048, 1),
            210: A(204800, 4)},
      cells=[
        (202, 'IIB', 'msg_rate', '1652.62/s', 1652.62),
        (202, 'IIB', 'cpu_ms_per_msg', '575.71 μs', 0.57571),
        (202, 'ACE', 'msg_rate', '2254.32/s', 2254.32),
        (202, 'ACE', 'cpu_ms_per_msg', '444.85 μs', 0.44485),
        (210, 'IIB', 'msg_rate', '400.71/s', 400.71),
        (210, 'IIB', 'cpu_ms_per_msg', '9.86 ms', 9.86),
        (210, 'ACE', 'msg_rate', '458.96/s', 458.96),
        (210, 'ACE', 'cpu_ms_per_msg', '8.73 ms', 8.73),
    ]),
    T(ACE11, 'HTTP XMLNSC ESQL Transformation (Linux)', rows=9, values=36, full=False, scenario='HTTP XMLNSC ESQL Transformation',
      keys={221: A(2048, 1),
            229: A(204800, 4)},
      cells=[
        (221, 'IIB', 'msg_rate', '1069.32/s', 1069.32),
        (221, 'IIB', 'cpu_ms_per_msg', '888.59 μs', 0.88859),
        (221, 'ACE', 'msg_rate', '1353.83/s', 1353.83),
        (221, 'ACE', 'cpu_ms_per_msg', '740.61 μs', 0.74061),
        (229, 'IIB', 'msg_rate', '121.70/s', 121.7),
        (229, 'IIB', 'cpu_ms_per_msg', '32.39 ms', 32.39),
        (229, 'ACE', 'msg_rate', '131.76/s', 131.76),
        (229, 'ACE', 'cpu_ms_per_msg', '30.44 ms', 30.44),
    ]),
    T(ACE11, 'HTTP XMLNSC Mapper Transformation (Linux)', rows=9, values=36, full=False, scenario='HTTP XMLNSC Mapper Transformation',
      keys={240: A(2048, 1),
            248: A(204800, 4)},
      cells=[
        (240, 'IIB', 'msg_rate', '523.68/s', 523.68),
        (240, 'IIB', 'cpu_ms_per_msg', '1.86 ms', 1.86),
        (240, 'ACE', 'msg_rate', '589.88/s', 589.88),
        (240, 'ACE', 'cpu_ms_per_msg', '1.7 ms', 1.7),
        (248, 'IIB', 'msg_rate', '14.07/s', 14.07),
        (248, 'IIB', 'cpu_ms_per_msg', '92.73 ms', 92.73),
        (248, 'ACE', 'msg_rate', '13.78/s', 13.78),
        (248, 'ACE', 'cpu_ms_per_msg', '93.54 ms', 93.54),
    ]),
    T(ACE11, 'REST Echo (Linux)', rows=9, values=36, full=False, scenario='REST Echo',
      keys={259: A(2048, 1),
            267: A(204800, 4)},
      cells=[
        (259, 'IIB', 'msg_rate', '1239.60/s', 1239.6),
        (259, 'IIB', 'cpu_ms_per_msg', '767.52 μs', 0.76752),
        (259, 'ACE', 'msg_rate', '1732.24/s', 1732.24),
        (259, 'ACE', 'cpu_ms_per_msg', '578.94 μs', 0.57894),
        (267, 'IIB', 'msg_rate', '415.11/s', 415.11),
        (267, 'IIB', 'cpu_ms_per_msg', '9.51 ms', 9.51),
        (267, 'ACE', 'msg_rate', '449.70/s', 449.7),
        (267, 'ACE', 'cpu_ms_per_msg', '8.91 ms', 8.91),
    ]),
    T(ACE11, 'SOAP Echo (Linux)', rows=9, values=36, full=False, scenario='SOAP Echo',
      keys={278: A(2048, 1),
            286: A(204800, 4)},
      cells=[
        (278, 'IIB', 'msg_rate', '773.83/s', 773.83),
        (278, 'IIB', 'cpu_ms_per_msg', '1.23 ms', 1.23),
        (278, 'ACE', 'msg_rate', '787.50/s', 787.5),
        (278, 'ACE', 'cpu_ms_per_msg', '1.27 ms', 1.27),
        (286, 'IIB', 'msg_rate', '140.75/s', 140.75),
        (286, 'IIB', 'cpu_ms_per_msg', '28.02 ms', 28.02),
        (286, 'ACE', 'msg_rate', '145.72/s', 145.72),
        (286, 'ACE', 'cpu_ms_per_msg', '27.49 ms', 27.49),
    ]),
    T(ACE11, 'HTTP BLOB Echo (Windows)', rows=9, values=36, full=False, scenario='HTTP BLOB Echo',
      keys={301: A(2048, 1),
            309: A(204800, 4)},
      cells=[
        (301, 'IIB', 'msg_rate', '1387.45/s', 1387.45),
        (301, 'IIB', 'cpu_ms_per_msg', '315.59 μs', 0.31559),
        (301, 'ACE', 'msg_rate', '1307.12/s', 1307.12),
        (301, 'ACE', 'cpu_ms_per_msg', '260.74 μs', 0.26074),
        (309, 'IIB', 'msg_rate', '1320.14/s', 1320.14),
        (309, 'IIB', 'cpu_ms_per_msg', '13.49 ms', 13.49),
        (309, 'ACE', 'msg_rate', '1856.17/s', 1856.17),
        (309, 'ACE', 'cpu_ms_per_msg', '12.61 ms', 12.61),
    ]),
    T(ACE11, 'HTTP XMLNSC Echo (Windows)', rows=9, values=36, full=True, scenario='HTTP XMLNSC Echo',
      keys={321: A(2048, 1),
            322: A(2048, 2),
            323: A(2048, 4),
            324: A(20480, 1),
            325: A(20480, 2),
            326: A(20480, 4),
            327: A(204800, 1),
            328: A(204800, 2),
            329: A(204800, 4)},
      cells=[
        (321, 'IIB', 'msg_rate', '720.65/s', 720.65),
        (321, 'IIB', 'cpu_ms_per_msg', '290.56 μs', 0.29056),
        (321, 'ACE', 'msg_rate', '724.39/s', 724.39),
        (321, 'ACE', 'cpu_ms_per_msg', '232.2 μs', 0.2322),
        (322, 'IIB', 'msg_rate', '3267.69/s', 3267.69),
        (322, 'IIB', 'cpu_ms_per_msg', '591.25 μs', 0.59125),
        (322, 'ACE', 'msg_rate', '3275.30/s', 3275.3),
        (322, 'ACE', 'cpu_ms_per_msg', '517.88 μs', 0.51788),
        (323, 'IIB', 'msg_rate', '7977.81/s', 7977.81),
        (323, 'IIB', 'cpu_ms_per_msg', '932.37 μs', 0.93237),
        (323, 'ACE', 'msg_rate', '9365.84/s', 9365.84),
        (323, 'ACE', 'cpu_ms_per_msg', '1.01 ms', 1.01),
        (324, 'IIB', 'msg_rate', '656.65/s', 656.65),
        (324, 'IIB', 'cpu_ms_per_msg', '2.17 ms', 2.17),
        (324, 'ACE', 'msg_rate', '470.87/s', 470.87),
        (324, 'ACE', 'cpu_ms_per_msg', '689.89 μs', 0.68989),
        (325, 'IIB', 'msg_rate', '1413.46/s', 1413.46),
        (325, 'IIB', 'cpu_ms_per_msg', '2.48 ms', 2.48),
        (325, 'ACE', 'msg_rate', '1736.20/s', 1736.2),
        (325, 'ACE', 'cpu_ms_per_msg', '1.86 ms', 1.86),
        (326, 'IIB', 'msg_rate', '2934.51/s', 2934.51),
        (326, 'IIB', 'cpu_ms_per_msg', '2.65 ms', 2.65),
        (326, 'ACE', 'msg_rate', '3457.92/s', 3457.92),
        (326, 'ACE', 'cpu_ms_per_msg', '2.53 ms', 2.53),
        (327, 'IIB', 'msg_rate', '89.14/s', 89.14),
        (327, 'IIB', 'cpu_ms_per_msg', '14.21 ms', 14.21),
        (327, 'ACE', 'msg_rate', '120.67/s', 120.67),
        (327, 'ACE', 'cpu_ms_per_msg', '11.3 ms', 11.3),
        (328, 'IIB', 'msg_rate', '178.84/s', 178.84),
        (328, 'IIB', 'cpu_ms_per_msg', '16.96 ms', 16.96),
        (328, 'ACE', 'msg_rate', '233.41/s', 233.41),
        (328, 'ACE', 'cpu_ms_per_msg', '13.29 ms', 13.29),
        (329, 'IIB', 'msg_rate', '359.22/s', 359.22),
        (329, 'IIB', 'cpu_ms_per_msg', '19.14 ms', 19.14),
        (329, 'ACE', 'msg_rate', '425.49/s', 425.49),
        (329, 'ACE', 'cpu_ms_per_msg', '17.4 ms', 17.4),
    ]),
    T(ACE11, 'HTTP XMLNSC ESQL Transformation (Windows)', rows=9, values=36, full=False, scenario='HTTP XMLNSC ESQL Transformation',
      keys={341: A(2048, 1),
            349: A(204800, 4)},
      cells=[
        (341, 'IIB', 'msg_rate', '556.25/s', 556.25),
        (341, 'IIB', 'cpu_ms_per_msg', '359.22 μs', 0.35922),
        (341, 'ACE', 'msg_rate', '602.69/s', 602.69),
        (341, 'ACE', 'cpu_ms_per_msg', '299.5 μs', 0.2995),
        (349, 'IIB', 'msg_rate', '114.51/s', 114.51),
        (349, 'IIB', 'cpu_ms_per_msg', '40.31 ms', 40.31),
        (349, 'ACE', 'msg_rate', '125.29/s', 125.29),
        (349, 'ACE', 'cpu_ms_per_msg', '37.94 ms', 37.94),
    ]),
    T(ACE11, 'HTTP XMLNSC Mapper Transformation (Windows)', rows=9, values=36, full=False, scenario='HTTP XMLNSC Mapper Transformation',
      keys={361: A(2048, 1),
            369: A(204800, 4)},
      cells=[
        (361, 'IIB', 'msg_rate', '388.13/s', 388.13),
        (361, 'IIB', 'cpu_ms_per_msg', '1.65 ms', 1.65),
        (361, 'ACE', 'msg_rate', '383.03/s', 383.03),
        (361, 'ACE', 'cpu_ms_per_msg', '1.88 ms', 1.88),
        (369, 'IIB', 'msg_rate', '13.09/s', 13.09),
        (369, 'IIB', 'cpu_ms_per_msg', '101.06 ms', 101.06),
        (369, 'ACE', 'msg_rate', '12.91/s', 12.91),
        (369, 'ACE', 'cpu_ms_per_msg', '99.03 ms', 99.03),
    ]),
    T(ACE11, 'REST Echo (Windows)', rows=9, values=36, full=False, scenario='REST Echo',
      keys={381: A(2048, 1),
            389: A(204800, 4)},
      cells=[
        (381, 'IIB', 'msg_rate', '623.56/s', 623.56),
        (381, 'IIB', 'cpu_ms_per_msg', '335.17 μs', 0.33517),
        (381, 'ACE', 'msg_rate', '659.82/s', 659.82),
        (381, 'ACE', 'cpu_ms_per_msg', '188.34 μs', 0.18834),
        (389, 'IIB', 'msg_rate', '324.50/s', 324.5),
        (389, 'IIB', 'cpu_ms_per_msg', '17.38 ms', 17.38),
        (389, 'ACE', 'msg_rate', '379.70/s', 379.7),
        (389, 'ACE', 'cpu_ms_per_msg', '15.71 ms', 15.71),
    ]),
    T(ACE11, 'SOAP Echo (Windows)', rows=9, values=36, full=False, scenario='SOAP Echo',
      keys={401: A(2048, 1),
            409: A(204800, 4)},
      cells=[
        (401, 'IIB', 'msg_rate', '539.57/s', 539.57),
        (401, 'IIB', 'cpu_ms_per_msg', '728.29 μs', 0.72829),
        (401, 'ACE', 'msg_rate', '529.87/s', 529.87),
        (401, 'ACE', 'cpu_ms_per_msg', '826.54 μs', 0.82654),
        (409, 'IIB', 'msg_rate', '134.15/s', 134.15),
        (409, 'IIB', 'cpu_ms_per_msg', '36.23 ms', 36.23),
        (409, 'ACE', 'msg_rate', '137.77/s', 137.77),
        (409, 'ACE', 'cpu_ms_per_msg', '36.99 ms', 36.99),
    ]),
    T(ACE13, 'Startup, 1 BAR (Toolkit)', rows=3, values=3, full=True, scenario='Startup, 1 BAR (Toolkit)',
      keys={157: S('Small'),
            158: S('Medium'),
            159: S('Large')},
      cells=[
        (157, 'ACE', 'startup_s', '18.45', 18.45),
        (158, 'ACE', 'startup_s', '17.45', 17.45),
        (159, 'ACE', 'startup_s', '17.46', 17.46),
    ]),
    T(ACE13, 'Startup, 5 BARs (Toolkit)', rows=3, values=3, full=False, scenario='Startup, 5 BARs (Toolkit)',
      keys={163: S('Small'),
            165: S('Large')},
      cells=[
        (163, 'ACE', 'startup_s', '19.04', 19.04),
        (165, 'ACE', 'startup_s', '18.00', 18.0),
    ]),
    T(ACE13, 'Startup, 20 BARs (Toolkit)', rows=3, values=3, full=False, scenario='Startup, 20 BARs (Toolkit)',
      keys={168: S('Small'),
            170: S('Large')},
      cells=[
        (168, 'ACE', 'startup_s', '20.68', 20.68),
        (170, 'ACE', 'startup_s', '19.55', 19.55),
    ]),
    T(ACE13, 'Startup, 1 BAR with a Java Compute node (Toolkit)', rows=3, values=3, full=False, scenario='Startup, 1 BAR with a Java Compute node (Toolkit)',
      keys={174: S('Small'),
            176: S('Large')},
      cells=[
        (174, 'ACE', 'startup_s', '19.83', 19.83),
        (176, 'ACE', 'startup_s', '17.91', 17.91),
    ]),
    T(ACE13, 'Startup, 1 BAR holding a REST API (Toolkit)', rows=3, values=3, full=False, scenario='Startup, 1 BAR holding a REST API (Toolkit)',
      keys={180: S('Small'),
            182: S('Large')},
      cells=[
        (180, 'ACE', 'startup_s', '31.60', 31.6),
        (182, 'ACE', 'startup_s', '14.86', 14.86),
    ]),
    T(ACE13, 'Startup, 1 BAR (Designer)', rows=3, values=3, full=False, scenario='Startup, 1 BAR (Designer)',
      keys={186: S('Small'),
            188: S('Large')},
      cells=[
        (186, 'ACE', 'startup_s', '20.66', 20.66),
        (188, 'ACE', 'startup_s', '14.77', 14.77),
    ]),
    T(ACE13, 'Startup, 5 BARs (Designer)', rows=3, values=3, full=False, scenario='Startup, 5 BARs (Designer)',
      keys={192: S('Small'),
            194: S('Large')},
      cells=[
        (192, 'ACE', 'startup_s', '21.87', 21.87),
        (194, 'ACE', 'startup_s', '15.72', 15.72),
    ]),
    T(ACE13, 'Startup, 20 BARs (Designer)', rows=3, values=3, full=False, scenario='Startup, 20 BARs (Designer)',
      keys={198: S('Small'),
            200: S('Large')},
      cells=[
        (198, 'ACE', 'startup_s', '27.53', 27.53),
        (200, 'ACE', 'startup_s', '18.74', 18.74),
    ]),
    T(ACE13, 'HTTP XMLNSC ESQL Transformation', rows=12, values=24, full=False, scenario='HTTP XMLNSC ESQL Transformation',
      keys={204: R('Small', 2048, 1),
            215: R('Large', 2097152, 1)},
      cells=[
        (204, 'ACE', 'msg_rate', '1011.38', 1011.38),
        (204, 'ACE', 'cpu_ms_per_msg', '0.47', 0.47),
        (215, 'ACE', 'msg_rate', '15.17', 15.17),
        (215, 'ACE', 'cpu_ms_per_msg', '127.03', 127.03),
    ]),
    T(ACE13, 'HTTP JSON ESQL Transformation', rows=12, values=24, full=False, scenario='HTTP JSON ESQL Transformation',
      keys={220: R('Small', 2048, 1),
            231: R('Large', 2097152, 1)},
      cells=[
        (220, 'ACE', 'msg_rate', '1018.04', 1018.04),
        (220, 'ACE', 'cpu_ms_per_msg', '0.45', 0.45),
        (231, 'ACE', 'msg_rate', '14.61', 14.61),
        (231, 'ACE', 'cpu_ms_per_msg', '127.43', 127.43),
    ]),
    T(ACE13, 'MQ Aggregation', rows=12, values=24, full=False, scenario='MQ Aggregation',
      keys={236: R('Small', 2048, 1),
            247: R('Large', 2097152, 1)},
      cells=[
        (236, 'ACE', 'msg_rate', '75.13', 75.13),
        (236, 'ACE', 'cpu_ms_per_msg', '4.74', 4.74),
        (247, 'ACE', 'msg_rate', '18.31', 18.31),
        (247, 'ACE', 'cpu_ms_per_msg', '106.86', 106.86),
    ]),
    T(ACE13, 'MQ Coordinated Request-Reply', rows=11, values=22, full=False, scenario='MQ Coordinated Request-Reply',
      keys={252: R('Small', 2048, 1),
            262: R('Large', 2097152, 1)},
      cells=[
        (252, 'ACE', 'msg_rate', '166.43', 166.43),
        (252, 'ACE', 'cpu_ms_per_msg', '2.97', 2.97),
        (262, 'ACE', 'msg_rate', '3.15', 3.15),
        (262, 'ACE', 'cpu_ms_per_msg', '601.86', 601.86),
    ]),
    T(ACE13, 'MQ Large Messaging', rows=12, values=24, full=False, scenario='MQ Large Messaging',
      keys={267: R('Small', 2048, 1),
            278: R('Large', 2097152, 1)},
      cells=[
        (267, 'ACE', 'msg_rate', '532.86', 532.86),
        (267, 'ACE', 'cpu_ms_per_msg', '0.91', 0.91),
        (278, 'ACE', 'msg_rate', '2.85', 2.85),
        (278, 'ACE', 'cpu_ms_per_msg', '499.03', 499.03),
    ]),
    T(ACE13, 'MQ Routing Cache', rows=12, values=24, full=False, scenario='MQ Routing Cache',
      keys={283: R('Small', 2048, 1),
            294: R('Large', 2097152, 1)},
      cells=[
        (283, 'ACE', 'msg_rate', '1272.19', 1272.19),
        (283, 'ACE', 'cpu_ms_per_msg', '0.39', 0.39),
        (294, 'ACE', 'msg_rate', '32.04', 32.04),
        (294, 'ACE', 'cpu_ms_per_msg', '61.33', 61.33),
    ]),
    T(ACE13, 'TCPIP ISO8583 XML Transformation', rows=2, values=4, full=True, scenario='TCPIP ISO8583 XML Transformation',
      keys={299: R('Medium', 2048, 1),
            300: R('Large', 2048, 1)},
      cells=[
        (299, 'ACE', 'msg_rate', '352.92', 352.92),
        (299, 'ACE', 'cpu_ms_per_msg', '4.78', 4.78),
        (300, 'ACE', 'msg_rate', '606.34', 606.34),
        (300, 'ACE', 'cpu_ms_per_msg', '2.93', 2.93),
    ]),
    T(ACE13, 'Process Jira Issues (Toolkit)', rows=3, values=6, full=False, scenario='Process Jira Issues (Toolkit)',
      keys={305: R('Small', None, 1),
            307: R('Large', None, 1)},
      cells=[
        (305, 'ACE', 'msg_rate', '5.11', 5.11),
        (305, 'ACE', 'cpu_ms_per_msg', '93.93', 93.93),
        (307, 'ACE', 'msg_rate', '12.65', 12.65),
        (307, 'ACE', 'cpu_ms_per_msg', '85.65', 85.65),
    ]),
    T(ACE13, 'Process Jira Issues (Toolkit) (Multi replica)', rows=3, values=6, full=False, scenario='Process Jira Issues (Toolkit)',
      keys={311: R('Medium', None, 1),
            313: R('Medium', None, 3)},
      cells=[
        (311, 'ACE', 'msg_rate', '11.29', 11.29),
        (311, 'ACE', 'cpu_ms_per_msg', '85.46', 85.46),
        (313, 'ACE', 'msg_rate', '29.58', 29.58),
        (313, 'ACE', 'cpu_ms_per_msg', '30.23', 30.23),
    ]),
    T(ACE13, 'Create ServiceNow Incidents (Toolkit)', rows=3, values=6, full=False, scenario='Create ServiceNow Incidents (Toolkit)',
      keys={318: R('Small', None, 1),
            320: R('Large', None, 1)},
      cells=[
        (318, 'ACE', 'msg_rate', '1.46', 1.46),
        (318, 'ACE', 'cpu_ms_per_msg', '330.20', 330.2),
        (320, 'ACE', 'msg_rate', '3.72', 3.72),
        (320, 'ACE', 'cpu_ms_per_msg', '290.78', 290.78),
    ]),
    T(ACE13, 'Create ServiceNow Incidents (Toolkit) (Multi replica)', rows=3, values=6, full=False, scenario='Create ServiceNow Incidents (Toolkit)',
      keys={325: R('Medium', None, 1),
            327: R('Medium', None, 3)},
      cells=[
        (325, 'ACE', 'msg_rate', '2.98', 2.98),
        (325, 'ACE', 'cpu_ms_per_msg', '304.37', 304.37),
        (327, 'ACE', 'msg_rate', '6.63', 6.63),
        (327, 'ACE', 'cpu_ms_per_msg', '109.06', 109.06),
    ]),
    T(ACE13, 'JSON Parse', rows=16, values=32, full=False, scenario='JSON Parse',
      keys={332: R('Small', 2048, 1),
            347: R('Large', 2097152, 1)},
      cells=[
        (332, 'ACE', 'msg_rate', '132.42', 132.42),
        (332, 'ACE', 'cpu_ms_per_msg', '3.61', 3.61),
        (347, 'ACE', 'msg_rate', '0.17', 0.17),
        (347, 'ACE', 'cpu_ms_per_msg', '5737.62', 5737.62),
    ]),
    T(ACE13, 'JSON Parse (Multi replica)', rows=6, values=12, full=True, scenario='JSON Parse',
      keys={352: R('Small', 2048, 1),
            353: R('Small', 2048, 1),
            354: R('Small', 2048, 1),
            355: R('Medium', 20480, 1),
            356: R('Medium', 20480, 2),
            357: R('Medium', 20480, 3)},
      cells=[
        (352, 'ACE', 'msg_rate', '95.11', 95.11),
        (352, 'ACE', 'cpu_ms_per_msg', '5.08', 5.08),
        (353, 'ACE', 'msg_rate', '172.83', 172.83),
        (353, 'ACE', 'cpu_ms_per_msg', '2.73', 2.73),
        (354, 'ACE', 'msg_rate', '254.98', 254.98),
        (354, 'ACE', 'cpu_ms_per_msg', '1.76', 1.76),
        (355, 'ACE', 'msg_rate', '194.92', 194.92),
        (355, 'ACE', 'cpu_ms_per_msg', '4.99', 4.99),
        (356, 'ACE', 'msg_rate', '362.71', 362.71),
        (356, 'ACE', 'cpu_ms_per_msg', '2.55', 2.55),
        (357, 'ACE', 'msg_rate', '530.46', 530.46),
        (357, 'ACE', 'cpu_ms_per_msg', '1.69', 1.69),
    ]),
    T(ACE13, 'Process Jira Issues (Designer)', rows=3, values=6, full=False, scenario='Process Jira Issues (Designer)',
      keys={362: R('Small', None, 1),
            364: R('Large', None, 1)},
      cells=[
        (362, 'ACE', 'msg_rate', '12.20', 12.2),
        (362, 'ACE', 'cpu_ms_per_msg', '62.17', 62.17),
        (364, 'ACE', 'msg_rate', '9.95', 9.95),
        (364, 'ACE', 'cpu_ms_per_msg', '121.42', 121.42),
    ]),
    T(ACE13, 'Process Jira Issues (Designer) (Multi replica)', rows=3, values=6, full=False, scenario='Process Jira Issues (Designer)',
      keys={369: R('Medium', None, 1),
            371: R('Medium', None, 3)},
      cells=[
        (369, 'ACE', 'msg_rate', '12.27', 12.27),
        (369, 'ACE', 'cpu_ms_per_msg', '79.36', 79.36),
        (371, 'ACE', 'msg_rate', '24.66', 24.66),
        (371, 'ACE', 'cpu_ms_per_msg', '37.40', 37.4),
    ]),
    T(ACE13, 'Create ServiceNow Incidents (Designer)', rows=3, values=6, full=False, scenario='Create ServiceNow Incidents (Designer)',
      keys={376: R('Small', None, 1),
            378: R('Large', None, 1)},
      cells=[
        (376, 'ACE', 'msg_rate', '1.46', 1.46),
        (376, 'ACE', 'cpu_ms_per_msg', '329.35', 329.35),
        (378, 'ACE', 'msg_rate', '3.92', 3.92),
        (378, 'ACE', 'cpu_ms_per_msg', '291.38', 291.38),
    ]),
    T(ACE13, 'Create ServiceNow Incidents (Designer) (Multi replica)', rows=3, values=6, full=False, scenario='Create ServiceNow Incidents (Designer)',
      keys={383: R('Medium', None, 1),
            385: R('Medium', None, 3)},
      cells=[
        (383, 'ACE', 'msg_rate', '3.05', 3.05),
        (383, 'ACE', 'cpu_ms_per_msg', '305.36', 305.36),
        (385, 'ACE', 'msg_rate', '6.78', 6.78),
        (385, 'ACE', 'cpu_ms_per_msg', '108.12', 108.12),
    ]),
    T(MS, 'Score card', rows=15, values=22, full=True,
      keys={420: M('FANIN', 32, False),
            421: M('FANOUT', 32, False, 'fanout_ratio', 100),
            422: M('PERSISTENT', 32, True),
            423: M('JMSPUBSUB', 32, False),
            424: M('JMSQUEUE', 32, None),
            425: M('JMSPERSISTENT', 100, True),
            426: M('JMSFANOUT', 100, False, 'fanout_ratio', 30),
            427: M('WMQPUBSUB', 32, False),
            428: M('WMQDURABLE', 32, True, 'wmq_queue_managers', 4),
            429: M('FANIN.SEC', 32, False),
            430: M('FANOUT.SEC', 32, False, 'fanout_ratio', 10),
            431: M('LATENCY', 32, False),  # QoS 0, from the test's own description
            432: M('CONNBURST', None, None),
            438: M('PERSISTENT', 32, True),
            439: M('PERSISTENT', 32, True)},
      cells=[
        (420, 'MessageSight', 'connections', '400K', 400000.0),
        (421, 'MessageSight', 'ingress_msg_rate', '162K', 162000.0),
        (421, 'MessageSight', 'egress_msg_rate', '16.2M', 16200000.0),
        (422, 'MessageSight', 'msg_rate', '460K', 460000.0),
        (423, 'MessageSight', 'msg_rate', '1.4M', 1400000.0),
        (424, 'MessageSight', 'msg_rate', '800K', 800000.0),
        (425, 'MessageSight', 'msg_rate', '350K', 350000.0),
        (426, 'MessageSight', 'ingress_msg_rate', '210K', 210000.0),
        (426, 'MessageSight', 'egress_msg_rate', '6.3M', 6300000.0),
        (427, 'MessageSight', 'msg_rate', '230K', 230000.0),
        (428, 'MessageSight', 'msg_rate', '92K', 92000.0),
        (429, 'MessageSight', 'connections', '400K', 400000.0),
        (430, 'MessageSight', 'ingress_msg_rate', '330K', 330000.0),
        (430, 'MessageSight', 'egress_msg_rate', '3.3M', 3300000.0),
        (431, 'MessageSight', 'latency_avg_us', '84', 84.0),
        (431, 'MessageSight', 'latency_p50_us', '83', 83.0),
        (431, 'MessageSight', 'latency_p99_us', '144', 144.0),
        (431, 'MessageSight', 'latency_max_us', '427', 427.0),
        (431, 'MessageSight', 'latency_stdev_us', '25', 25.0),
        (432, 'MessageSight', 'connection_burst_s', '65', 65.0),
        # set in bold ("<b>1523</b>", "<b>230K</b>"): printed_value is the cell a reader sees
        (438, 'MessageSight', 'msgs_per_watt', '1523', 1523.0),
        (439, 'MessageSight', 'msgs_per_s_per_rack_unit', '230K', 230000.0),
    ]),
    T(MS, 'FANOUT.SEC: rates by fan-out ratio', rows=3, values=15, full=True, scenario='FANOUT.SEC',
      keys={516: F(1),
            517: F(10),
            518: F(100)},
      cells=[
        (516, 'MessageSight', 'topic_count', '10', 10.0),
        (516, 'MessageSight', 'consumer_count', '10', 10.0),
        (516, 'MessageSight', 'producer_count', '10', 10.0),
        (516, 'MessageSight', 'ingress_msg_rate', '2.5M', 2500000.0),
        (516, 'MessageSight', 'egress_msg_rate', '2.5M', 2500000.0),
        (517, 'MessageSight', 'topic_count', '10', 10.0),
        (517, 'MessageSight', 'consumer_count', '100', 100.0),
        (517, 'MessageSight', 'producer_count', '10', 10.0),
        (517, 'MessageSight', 'ingress_msg_rate', '330K', 330000.0),
        (517, 'MessageSight', 'egress_msg_rate', '3.3M', 3300000.0),
        (518, 'MessageSight', 'topic_count', '10', 10.0),
        (518, 'MessageSight', 'consumer_count', '1000', 1000.0),
        (518, 'MessageSight', 'producer_count', '10', 10.0),
        (518, 'MessageSight', 'ingress_msg_rate', '20K', 20000.0),
        (518, 'MessageSight', 'egress_msg_rate', '2M', 2000000.0),
    ]),
    T(MS, 'Power Supply #1 readings during the PERSISTENT test', rows=9, values=45, full=True, scenario='PERSISTENT',
      keys={550: P('Power Supply #1', '2013-04-26 10:04:05'),
            551: P('Power Supply #1', '2013-04-26 10:05:05'),
            552: P('Power Supply #1', '2013-04-26 10:06:05'),
            553: P('Power Supply #1', '2013-04-26 10:07:06'),
            554: P('Power Supply #1', '2013-04-26 10:08:05'),
            555: P('Power Supply #1', '2013-04-26 10:09:06'),
            556: P('Power Supply #1', '2013-04-26 10:10:05'),
            557: P('Power Supply #1', '2013-04-26 10:11:06'),
            558: P('Power Supply #1', '2013-04-26 10:12:05')},
      cells=[
        (550, 'MessageSight', 'supply_voltage_v', '203.18', 203.18),
        (550, 'MessageSight', 'supply_current_a', '1.169', 1.169),
        (550, 'MessageSight', 'power_factor', '0.58', 0.58),
        (550, 'MessageSight', 'load_w', '135', 135.0),
        (550, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (551, 'MessageSight', 'supply_voltage_v', '203.55', 203.55),
        (551, 'MessageSight', 'supply_current_a', '0.987', 0.987),
        (551, 'MessageSight', 'power_factor', '0.69', 0.69),
        (551, 'MessageSight', 'load_w', '139', 139.0),
        (551, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (552, 'MessageSight', 'supply_voltage_v', '203.14', 203.14),
        (552, 'MessageSight', 'supply_current_a', '1.150', 1.15),
        (552, 'MessageSight', 'power_factor', '0.60', 0.6),
        (552, 'MessageSight', 'load_w', '137', 137.0),
        (552, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (553, 'MessageSight', 'supply_voltage_v', '202.85', 202.85),
        (553, 'MessageSight', 'supply_current_a', '0.890', 0.89),
        (553, 'MessageSight', 'power_factor', '0.49', 0.49),
        (553, 'MessageSight', 'load_w', '136', 136.0),
        (553, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (554, 'MessageSight', 'supply_voltage_v', '203.05', 203.05),
        (554, 'MessageSight', 'supply_current_a', '1.501', 1.501),
        (554, 'MessageSight', 'power_factor', '0.50', 0.5),
        (554, 'MessageSight', 'load_w', '136', 136.0),
        (554, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (555, 'MessageSight', 'supply_voltage_v', '202.63', 202.63),
        (555, 'MessageSight', 'supply_current_a', '1.033', 1.033),
        (555, 'MessageSight', 'power_factor', '0.67', 0.67),
        (555, 'MessageSight', 'load_w', '138', 138.0),
        (555, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (556, 'MessageSight', 'supply_voltage_v', '203.46', 203.46),
        (556, 'MessageSight', 'supply_current_a', '1.444', 1.444),
        (556, 'MessageSight', 'power_factor', '0.49', 0.49),
        (556, 'MessageSight', 'load_w', '135', 135.0),
        (556, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (557, 'MessageSight', 'supply_voltage_v', '202.28', 202.28),
        (557, 'MessageSight', 'supply_current_a', '1.202', 1.202),
        (557, 'MessageSight', 'power_factor', '0.56', 0.56),
        (557, 'MessageSight', 'load_w', '137', 137.0),
        (557, 'MessageSight', 'cumulative_kwh', '182', 182.0),
        (558, 'MessageSight', 'supply_voltage_v', '203.71', 203.71),
        (558, 'MessageSight', 'supply_current_a', '0.884', 0.884),
        (558, 'MessageSight', 'power_factor', '0.77', 0.77),
        (558, 'MessageSight', 'load_w', '136', 136.0),
        (558, 'MessageSight', 'cumulative_kwh', '182', 182.0),
    ]),
    T(MS, 'Power Supply #2 readings during the PERSISTENT test', rows=12, values=60, full=True, scenario='PERSISTENT',
      keys={566: P('Power Supply #2', '2013-04-26 10:00:04'),
            567: P('Power Supply #2', '2013-04-26 10:01:06'),
            568: P('Power Supply #2', '2013-04-26 10:02:05'),
            569: P('Power Supply #2', '2013-04-26 10:03:05'),
            570: P('Power Supply #2', '2013-04-26 10:04:05'),
            571: P('Power Supply #2', '2013-04-26 10:05:06'),
            572: P('Power Supply #2', '2013-04-26 10:06:05'),
            573: P('Power Supply #2', '2013-04-26 10:07:04'),
            574: P('Power Supply #2', '2013-04-26 10:08:06'),
            575: P('Power Supply #2', '2013-04-26 10:09:05'),
            576: P('Power Supply #2', '2013-04-26 10:10:06'),
            577: P('Power Supply #2', '2013-04-26 10:11:05')},
      cells=[
        (566, 'MessageSight', 'supply_voltage_v', '202.25', 202.25),
        (566, 'MessageSight', 'supply_current_a', '1.207', 1.207),
        (566, 'MessageSight', 'power_factor', '0.67', 0.67),
        (566, 'MessageSight', 'load_w', '167', 167.0),
        (566, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (567, 'MessageSight', 'supply_voltage_v', '202.90', 202.9),
        (567, 'MessageSight', 'supply_current_a', '1.058', 1.058),
        (567, 'MessageSight', 'power_factor', '0.78', 0.78),
        (567, 'MessageSight', 'load_w', '167', 167.0),
        (567, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (568, 'MessageSight', 'supply_voltage_v', '202.34', 202.34),
        (568, 'MessageSight', 'supply_current_a', '1.204', 1.204),
        (568, 'MessageSight', 'power_factor', '0.74', 0.74),
        (568, 'MessageSight', 'load_w', '165', 165.0),
        (568, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (569, 'MessageSight', 'supply_voltage_v', '202.34', 202.34),
        (569, 'MessageSight', 'supply_current_a', '1.122', 1.122),
        (569, 'MessageSight', 'power_factor', '0.72', 0.72),
        (569, 'MessageSight', 'load_w', '164', 164.0),
        (569, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (570, 'MessageSight', 'supply_voltage_v', '202.13', 202.13),
        (570, 'MessageSight', 'supply_current_a', '1.053', 1.053),
        (570, 'MessageSight', 'power_factor', '0.78', 0.78),
        (570, 'MessageSight', 'load_w', '164', 164.0),
        (570, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (571, 'MessageSight', 'supply_voltage_v', '202.55', 202.55),
        (571, 'MessageSight', 'supply_current_a', '1.017', 1.017),
        (571, 'MessageSight', 'power_factor', '0.82', 0.82),
        (571, 'MessageSight', 'load_w', '162', 162.0),
        (571, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (572, 'MessageSight', 'supply_voltage_v', '202.30', 202.3),
        (572, 'MessageSight', 'supply_current_a', '1.239', 1.239),
        (572, 'MessageSight', 'power_factor', '0.66', 0.66),
        (572, 'MessageSight', 'load_w', '166', 166.0),
        (572, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (573, 'MessageSight', 'supply_voltage_v', '202.65', 202.65),
        (573, 'MessageSight', 'supply_current_a', '1.148', 1.148),
        (573, 'MessageSight', 'power_factor', '0.70', 0.7),
        (573, 'MessageSight', 'load_w', '171', 171.0),
        (573, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (574, 'MessageSight', 'supply_voltage_v', '202.61', 202.61),
        (574, 'MessageSight', 'supply_current_a', '1.081', 1.081),
        (574, 'MessageSight', 'power_factor', '0.76', 0.76),
        (574, 'MessageSight', 'load_w', '167', 167.0),
        (574, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (575, 'MessageSight', 'supply_voltage_v', '202.12', 202.12),
        (575, 'MessageSight', 'supply_current_a', '1.441', 1.441),
        (575, 'MessageSight', 'power_factor', '0.55', 0.55),
        (575, 'MessageSight', 'load_w', '166', 166.0),
        (575, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (576, 'MessageSight', 'supply_voltage_v', '203.13', 203.13),
        (576, 'MessageSight', 'supply_current_a', '1.007', 1.007),
        (576, 'MessageSight', 'power_factor', '0.80', 0.8),
        (576, 'MessageSight', 'load_w', '167', 167.0),
        (576, 'MessageSight', 'cumulative_kwh', '276', 276.0),
        (577, 'MessageSight', 'supply_voltage_v', '202.82', 202.82),
        (577, 'MessageSight', 'supply_current_a', '1.116', 1.116),
        (577, 'MessageSight', 'power_factor', '0.62', 0.62),
        (577, 'MessageSight', 'load_w', '167', 167.0),
        (577, 'MessageSight', 'cumulative_kwh', '276', 276.0),
    ]),

]

COLUMNS = ("source_line", "product", "metric", "scenario", "printed_value", "value",
           "message_size_bytes", "persistent", "concurrency_kind", "concurrency",
           "cpu_limit_cores", "memory_limit_mib", "replicas", "tshirt", "component",
           "observed_at", "product_version", "platform", "page")


def facts(wh, source: str, title: str) -> list[dict]:
    result = wh.sql(f"SELECT {', '.join(COLUMNS)} FROM metric_values "
                    "WHERE source = $source AND source_table = $title ORDER BY fact_id",
                    params={"source": source, "title": title})
    return [dict(zip(COLUMNS, row)) for row in result.fetchall()]


def spec_id(spec: T) -> str:
    return f"{spec.source.split('-')[0]}:{spec.title[:48]}"


def test_every_table_is_specified(wh):
    """The specs name exactly the 102 source tables of the reports they cover: none missing,
    none extra; every other report's tables are its family's expected values (those
    tests/test_expected_values.py checks)."""
    tables = wh.sql("SELECT r.source, t.table_title FROM dim_source_table t "
                    "JOIN dim_report r USING (report_id)").fetchall()
    mine = [t for t in tables if t[0] in TABLES]
    assert len(mine) == 102
    assert sorted(mine) == sorted((s.source, s.title) for s in SPECS)
    assert Counter(s.source for s in SPECS) == Counter(TABLES)
    assert Counter(source for source, _ in mine) == Counter(TABLES)
    others = {source for source, _ in tables} - set(TABLES)
    assert all({"tables", "numbers"} & set(expected.expectations().get(source, {})) for source in others), others


def test_totals(wh):
    per_source = dict(wh.sql("SELECT source, count(*) FROM metric_values GROUP BY 1").fetchall())
    assert {s: n for s, n in per_source.items() if s in VALUES} == VALUES
    total = sum(VALUES.values())  # 1740
    assert sum(per_source[s] for s in VALUES) == total
    assert sum(s.values for s in SPECS) == total
    for source, count in VALUES.items():
        assert sum(s.values for s in SPECS if s.source == source) == count, source


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_table(wh, spec: T):
    got = facts(wh, spec.source, spec.title)
    assert len(got) == spec.values, "values in the table"
    assert len({f["source_line"] for f in got}) == spec.rows, "rows in the table"
    lines = sorted({f["source_line"] for f in got})
    assert min(spec.keys) == lines[0] and max(spec.keys) == lines[-1], "first and last row"
    assert all(f["page"] is None for f in got), "a text report has no pages"
    matched = []
    for cell in spec.cells:
        line, product, metric, printed, value = cell[:5]
        extra = cell[5] if len(cell) > 5 else {}
        candidates = [f for f in got if f["source_line"] == line and f["product"] == product
                      and f["metric"] == metric
                      and all(f[k] == v for k, v in extra.items() if k == "scenario")
                      and all(f[k] == v for k, v in extra.items() if k == "persistent")]
        assert len(candidates) == 1, f"line {line} {product} {metric} {extra}: {candidates}"
        fact = candidates[0]
        assert fact["printed_value"] == printed, f"line {line} {metric}"
        assert fact["value"] == value, f"line {line} {metric}: {fact['value']!r} != {value!r}"
        assert isinstance(fact["value"], float)
        assert fact["scenario"] == extra.get("scenario", spec.scenario or fact["scenario"])
        if spec.scenario and "scenario" not in extra:
            assert fact["scenario"] == spec.scenario
        matched.append(fact)
        for key, expected in {**spec.keys[line], **extra}.items():
            assert fact[key] == expected, f"line {line} {metric}: {key} {fact[key]!r} != {expected!r}"
    assert len({id(f) for f in matched}) == len(matched)
    if spec.full:
        assert len(matched) == len(got) == len(spec.cells), "every number of the table is listed"
        assert sorted(spec.keys) == lines
    else:
        covered = {c[0] for c in spec.cells}
        assert covered == {lines[0], lines[-1]}


# The unit conversions the issue names, each on a real cell.
@pytest.mark.parametrize("source, line, column, printed, expected", [
    (ACE11, 183, "value", "476.71 μs", 0.47671),          # μs -> ms
    (ACE11, 191, "value", "2.1 ms", 2.1),                 # ms stays ms
    (ACE11, 306, "value", "2 ms", 2.0),                   # whole ms
    (ACE11, 183, "value", "1998.06/s", 1998.06),          # rate with "/s"
    (IIB, 51, "message_size_bytes", "20000kB", 20480000),  # 1k = 1024
    (IIB, 46, "message_size_bytes", "256b", 256),
    (IIB, 47, "message_size_bytes", "2kB", 2048),
    (IIB, 136, "message_size_bytes", "1384B", 1384),
    (ACE13, 213, "message_size_bytes", "2MB", 2097152),
    (ACE13, 204, "message_size_bytes", "2K", 2048),
    (ACE11, 189, "message_size_bytes", "200k", 204800),
    (WB, 907, "message_size_bytes", "1024", 1024),
    (MS, 420, "value", "400K", 400000.0),                 # counts: K = 1000
    (MS, 421, "value", "16.2M", 16200000.0),              # M = 1 000 000
    (MS, 423, "value", "1.4M", 1400000.0),
])
def test_unit_conversion(wh, source, line, column, printed, expected):
    size_column = column == "message_size_bytes"
    rows = wh.sql(f"SELECT {column}, message_size_printed, printed_value FROM metric_values "
                  "WHERE source = $s AND source_line = $l",
                  params={"s": source, "l": line}).fetchall()
    assert rows
    if size_column:
        assert {r[1] for r in rows} == {printed}
        assert {r[0] for r in rows} == {expected}
        assert all(isinstance(r[0], int) for r in rows)
    else:
        hits = [r for r in rows if r[2] == printed]
        assert len(hits) >= 1
        assert all(r[0] == expected for r in hits)


def test_tshirt_sizes(wh):
    """ACE 13 "Small" is 0.5 cores and 512 MiB: the T-shirt definitions, carried to every row."""
    got = wh.sql("SELECT DISTINCT tshirt, cpu_limit_cores, memory_limit_mib FROM metric_values "
                 "WHERE source = $s ORDER BY 2", params={"s": ACE13}).fetchall()
    assert got == [("Small", 0.5, 512), ("Medium", 1.0, 716), ("Large", 2.0, 1024)]
    assert wh.sql("SELECT tshirt, cpu_limit_cores, memory_limit_mib, source_line FROM stg_tshirts "
                  "ORDER BY source_line").fetchall() == [("Small", 0.5, 512, 82),
                                                         ("Medium", 1.0, 716, 83),
                                                         ("Large", 2.0, 1024, 84)]


def test_ace11_rows_carry_both_products(wh):
    """Every ACE 11 row holds IIB 10.0.0.16 and ACE 11.0.0.4 + LAD76278 side by side."""
    got = wh.sql("SELECT product, product_version, fix_pack, count(*) FROM metric_values "
                 "WHERE source = $s GROUP BY ALL ORDER BY 1", params={"s": ACE11}).fetchall()
    assert got == [("ACE", "11.0.0.4", "LAD76278", 216), ("IIB", "10.0.0.16", None, 216)]


def test_iib_persistence_halves(wh):
    """Five IIB tables have both halves (Non Persistent, Full Persistance), six only the first."""
    got = wh.sql("SELECT source_table, persistent, count(*) FROM metric_values WHERE source = $s "
                 "GROUP BY ALL", params={"s": IIB}).fetchall()
    both = {"Aggregation", "Coordinated Request/Reply", "Large Messaging", "Message Routing",
            "Transforming a message"}
    assert {(t, p): n for t, p, n in got} == {
        **{(t, False): 18 for t in both}, **{(t, True): 18 for t in both},
        **{(t, False): 18 for t in ("File out and file in", "SOAP Consumer", "SOAP Provider")},
        **{(t, False): 9 for t in ("ISO 8583 Transformation", "RESTful API – Post",
                                   "RESTful API – Get")}}


def test_value_half_ulp_follows_printed_precision(wh):
    """The precision of a value is that of its printed digits, in the canonical unit."""
    got = dict(wh.sql("SELECT printed_value, value_half_ulp FROM metric_values "
                      "WHERE source = $s AND source_line = 183", params={"s": ACE11}).fetchall())
    assert got["1998.06/s"] == pytest.approx(0.005)
    assert got["476.71 μs"] == pytest.approx(0.000005)
    half = wh.sql("SELECT value_half_ulp FROM metric_values WHERE source = $s AND source_line = 420",
                  params={"s": MS}).fetchall()
    assert half == [(500.0,)]  # "400K": half of one printed unit of 1000


# Markup a report's text may wrap around a cell (MessageSight sets two score-card values in
# <b>), which a reader never sees: an HTML tag, an entity, Markdown emphasis.
MARKUP = r"<[^>]*>|&[A-Za-z]+;|&#[0-9]+;|\*\*|__"


def test_no_printed_number_carries_markup(wh):
    """Every printed string of the warehouse - the facts, claims, findings, the raw and
    staging layers and the views - is the text a reader sees: no tag, entity or emphasis
    around the digits, and no space at either end."""
    columns = wh.sql("""SELECT table_name, column_name FROM information_schema.columns
                        WHERE table_schema = 'main' AND data_type = 'VARCHAR'
                          AND column_name LIKE '%printed%' ORDER BY ALL""").fetchall()
    assert ("metric_values", "printed_value") in columns and len(columns) >= 20
    for table, column in columns:
        bad = wh.sql(f'SELECT DISTINCT "{column}" FROM "{table}" WHERE regexp_matches("{column}", $markup) '
                     f'OR "{column}" <> trim("{column}")', params={"markup": MARKUP}).fetchall()
        assert not bad, f"{table}.{column}: {bad[:5]}"

