"""The vocabulary of the warehouse and of the submission template, declared once.

Concurrency kinds (what a table's configuration column counts), the T-shirt sizes of a
containerised runtime with their CPU and memory, the spellings of persistence, the columns of
the submission template with their units and allowed ranges, and the labels people read.
The parsers, the submission reader, the warehouse (``ref_`` tables), the rules' messages, the
site, the notebooks and the README all take them from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .units import UNITS


@dataclass(frozen=True)
class ConcurrencyKind:
    name: str
    label: str          # for people: "Docker cores 2"
    meaning: str
    value: str = "number"   # "number", or "tshirt" (the value is a T-shirt name)
    cpu_limit: bool = False  # the value is the CPU cores the runtime may use
    # other words submitters commonly write for it, read as it with a note saying so
    synonyms: tuple[str, ...] = ()
    # the value is the load at which each row's peak was measured: it differs from row to row
    # of one series (one test and deployment across sizes) rather than defining the series
    peak_load: bool = False
    # the value is work each message makes (copies delivered, destinations written), not
    # capacity serving the load: series differing in it measure different workloads
    per_message: bool = False
    # the value counts threads of the flow (an instance, an execution group's one instance),
    # each keeping at most one core busy: the capacity it uses is that many cores at most
    threads: bool = False


CONCURRENCY_KINDS: dict[str, ConcurrencyKind] = {k.name: k for k in (
    # "cores" (or CPUs, vCPUs): the cores the runtime was given - a container's limit, a VM's
    # vCPUs, a taskset - which is what docker_cores counts; a sweep of whole servers written
    # so gives each row the server's cores as its limit, which reads the same
    ConcurrencyKind("docker_cores", "Docker cores", "CPU cores the container may use", cpu_limit=True,
                    synonyms=("cores", "cpus", "cpu", "vcpus", "vcpu", "cpu limit")),
    ConcurrencyKind("tshirt", "T-shirt", "a named capacity (CPU and memory limits) of a "
                    "containerised runtime, with replicas", value="tshirt", cpu_limit=True,
                    synonyms=("t-shirt size", "tshirt size")),
    ConcurrencyKind("flow_instances", "flow instances", "instances of the message flow in one "
                    "execution group", threads=True, synonyms=("instances", "additional instances", "flow instance")),
    # App Connect Enterprise renamed execution groups integration servers
    ConcurrencyKind("execution_groups", "execution groups", "execution groups, one flow "
                    "instance each", threads=True, synonyms=("integration servers", "integration server", "egs",
                                               "execution group")),
    ConcurrencyKind("flow_copies", "flow copies", "copies of the flow (the report gives no "
                    "count: enough to fill the machine)", synonyms=("copies",)),
    ConcurrencyKind("subscribers", "subscribers", "subscribers to the published topic",
                    per_message=True, synonyms=("subscriptions",)),
    ConcurrencyKind("destination_list_entries", "destination-list entries", "entries of the "
                    "destination list a message is sent to", per_message=True,
                    synonyms=("destinations", "destination list")),
    ConcurrencyKind("fanout_ratio", "fan-out", "messages out per message in (1:N)", per_message=True),
    ConcurrencyKind("wmq_queue_managers", "WMQ queue managers", "queue managers the load is "
                    "spread over", synonyms=("queue managers", "qmgrs")),
    ConcurrencyKind("requester_clients", "requester clients", "requester applications driving "
                    "a request-responder test; the MQ Appliance tables print the number at which "
                    "the peak rate was measured", peak_load=True, synonyms=("requesters", "clients")),
)}

# concurrency_kind words that say no concurrency is counted: read as a blank cell, with a note
NO_KIND_WORDS = ("none", "n/a", "-")


def folded(word: str) -> str:
    """A word as the vocabulary compares it: lower case, letters and digits only ("Docker
    cores", "docker_cores" and "DOCKER-CORES" are one word). FOLD_SQL is the same in SQL."""
    return "".join(c for c in word.lower() if c.isalnum())


FOLD_SQL = "regexp_replace(lower({}), '[^a-z0-9]', '', 'g')"
# A scenario's name with case and runs of spaces folded, as schema/50_dq.sql's name_spaces and
# measurement_key fold it: two names equal so folded are one scenario ("REST Echo", "REST  echo",
# "REST\u00a0Echo" with a no-break space a web page lent it; "Café" with its é typed as one
# character or as e and an accent).
SCENARIO_SPACES_SQL = "trim(regexp_replace(nfc_normalize({}), '\\p{{Zs}}+', ' ', 'g'))"
SCENARIO_FOLD_SQL = "lower(" + SCENARIO_SPACES_SQL + ")"


@dataclass(frozen=True)
class Topology:
    name: str
    label: str          # for people: "HA group"
    meaning: str
    replicated: bool    # the queue manager's data is copied to another appliance


# How a messaging test was deployed (the MQ Appliance reports): on one appliance, or with its
# queue managers' data replicated to a second appliance (an HA group, synchronously), to a
# remote recovery appliance (DR, asynchronously), or both.
TOPOLOGIES: dict[str, Topology] = {t.name: t for t in (
    Topology("standalone", "standalone", "queue managers on one appliance, not replicated", False),
    Topology("ha_group", "HA group", "queue managers of a high-availability group of two "
             "appliances, their data replicated synchronously", True),
    Topology("dr_pair", "DR pair", "queue managers replicated asynchronously to a disaster-"
             "recovery appliance", True),
    Topology("ha_dr", "HA group with DR", "queue managers of an HA group, also replicated "
             "asynchronously to a disaster-recovery appliance", True),
)}


def topology_spellings() -> dict[str, str]:
    """Every spelling of a topology read as it, folded (`folded`) -> its name: the name and
    the label people read ("HA group", "ha_group", "HAgroup"), as `kind_spellings`."""
    spellings: dict[str, str] = {}
    for topology in TOPOLOGIES.values():
        for word in (topology.name, topology.label):
            spellings.setdefault(folded(word), topology.name)
    return spellings


def kind_spellings() -> dict[str, str]:
    """Every spelling of a concurrency kind read as it without a note, folded (`folded`) ->
    its name: the name and the label people read ("T-shirt", "Docker cores")."""
    spellings: dict[str, str] = {}
    for kind in CONCURRENCY_KINDS.values():
        for word in (kind.name, kind.label):
            spellings.setdefault(folded(word), kind.name)
    return spellings


def kind_synonyms() -> dict[str, str]:
    """Every synonym of a concurrency kind, folded -> its name (read with a note), less those
    that fold to a name or label ("fan-out ratio" is fanout_ratio itself)."""
    spellings = kind_spellings()
    return {folded(w): k.name for k in CONCURRENCY_KINDS.values() for w in k.synonyms
            if folded(w) not in spellings}


@dataclass(frozen=True)
class TShirt:
    name: str
    cpu_cores: str    # as the ACE 13 report prints them ("0.5")
    memory_mib: str
    synonyms: tuple[str, ...]


# App Connect's T-shirt sizes (the ACE 13 report, section "Test environment"); a test checks
# them against the report's own table.
TSHIRTS: dict[str, TShirt] = {t.name: t for t in (
    TShirt("Small", "0.5", "512", ("small", "s")),
    TShirt("Medium", "1", "716", ("medium", "m")),
    TShirt("Large", "2", "1024", ("large", "l")),
)}

PERSISTENT_WORDS = ("true", "yes", "y", "1", "persistent")
NON_PERSISTENT_WORDS = ("false", "no", "n", "0", "non-persistent", "non persistent", "nonpersistent")


# The ranges every command accepts - the submission reader, `perfwh size` - beyond which a
# value is a slip or mischief, not a measurement (the reports stay far inside them: names of
# at most 38 characters, 20 MB messages, 1.4M msgs/s, 17278.2 ms, 1000 subscribers).
MAX_NAME_LENGTH = 200                # characters of a product, version, platform or scenario
MAX_MESSAGE_BYTES = 1024 ** 3        # 1 GiB
MAX_COUNT = 1_000_000                # server cores, replicas, a concurrency count
MAX_RATE = 1e9                       # msgs/s: no integration server handles a billion a second
MAX_CPU_MS = 1e7                     # ms of CPU per message (close to three hours)
NAME_COLUMNS = ("product", "product_version", "platform", "scenario")


@dataclass(frozen=True)
class MetricColumn:
    """A metric column of the submission template: its unit and the values it may hold."""
    name: str
    quantity: str       # a quantity kind of `ingest.units.UNITS`
    unit: str           # the unit the cell is in (no unit token is written in the cell)
    token: str          # that unit's token in `ingest.units.UNITS[quantity]`
    low: float          # exclusive lower bound
    high: float | None  # inclusive upper bound (None: none)
    meaning: str

    @property
    def allowed(self) -> str:
        high = (f" and at most {int(self.high):,}" if self.high is not None and self.high == int(self.high)
                else f" and at most {self.high:g}" if self.high is not None else "")
        return f"a number of {self.unit} greater than {self.low:g}{high}"


METRIC_COLUMNS: dict[str, MetricColumn] = {m.name: m for m in (
    MetricColumn("msg_rate", "rate", "msgs/s", "", 0, MAX_RATE, "messages (round trips) per second"),
    MetricColumn("cpu_busy_pct", "percent", "%", "", 0, 100,
                 "CPU busy in percent of the whole server (all its cores), as the reports print it"),
    MetricColumn("cpu_ms_per_msg", "cpu_cost", "ms", "ms", 0, MAX_CPU_MS, "CPU milliseconds per message"),
)}

# The submission template's columns, in order: keys first, then the metrics, then the deployment
# of a messaging test. The deployment came after the first template: it is last, and a header
# may leave it out (blank in every row), so that files written for the first stay readable,
# their columns where they were.
KEY_COLUMNS = ("product", "product_version", "platform", "server_cores", "scenario",
               "message_size_bytes", "persistent", "concurrency_kind", "concurrency", "replicas")
DEPLOYMENT_COLUMNS = ("topology", "queue_managers", "simulated_latency_ms")
REQUIRED_COLUMNS = ("product", "product_version", "platform", "scenario")
OPTIONAL_COLUMNS = DEPLOYMENT_COLUMNS
TEMPLATE_COLUMNS = KEY_COLUMNS + tuple(METRIC_COLUMNS) + DEPLOYMENT_COLUMNS

# What each key column holds, for messages and the README.
_NAME = f"at most {MAX_NAME_LENGTH} characters"
_COUNT = f"from 1 to {MAX_COUNT:,}"
KEY_MEANINGS = {
    "product": f"product name, e.g. ACE, IIB, WBIMB ({_NAME})",
    "product_version": f"product version, e.g. 13.0.1.0 ({_NAME})",
    "platform": f"where it ran, e.g. OpenShift, xLinux, a lab machine's name ({_NAME})",
    "server_cores": f"cores of the server (a whole number {_COUNT}), blank if not known",
    "scenario": f"the test scenario's name ({_NAME})",
    "message_size_bytes": "message size in bytes (a whole number), or a number with a unit "
                          f"{', '.join(t for t in UNITS['size'] if t)} (1k = 1024), from 1 byte to 1 GiB; "
                          "blank if none",
    "persistent": "true or false (also yes/no, persistent/non-persistent), blank if not known",
    "concurrency_kind": "what the concurrency column counts: " + ", ".join(CONCURRENCY_KINDS)
                        + " (in any case, with or without spaces, hyphens and underscores; the "
                          "labels, such as T-shirt or Docker cores, are read too, and the "
                          "synonyms below with a note); blank where nothing is counted ("
                        + ", ".join(NO_KIND_WORDS) + " are read as blank, with a note)",
    "concurrency": f"the count (a number greater than 0 and at most {MAX_COUNT:,}), or for tshirt "
                   "a T-shirt name: " + ", ".join(TSHIRTS),
    "replicas": f"replicas of the runtime (a whole number {_COUNT}), blank if one",
    "topology": "how the queue managers were deployed: " + ", ".join(TOPOLOGIES)
                + " (in any case; the labels, such as HA group, are read too); blank if none",
    "queue_managers": f"queue managers the test's queues are spread over (a whole number {_COUNT}), "
                      "blank if not stated",
    "simulated_latency_ms": "round-trip delay in ms inserted between replicating appliances (0 "
                            "if connected directly), blank for a standalone test",
}


def persistence_value(text: str) -> bool | None:
    """True, False, or None for blank; ValueError for any other spelling."""
    word = text.strip().lower()
    if word == "":
        return None
    if word in PERSISTENT_WORDS:
        return True
    if word in NON_PERSISTENT_WORDS:
        return False
    raise ValueError(text)


def tshirt_named(text: str) -> TShirt | None:
    """The T-shirt a name or synonym means (case-insensitive), or None."""
    word = text.strip().lower()
    return next((t for t in TSHIRTS.values() if word == t.name.lower() or word in t.synonyms), None)


def allowed_tshirts() -> str:
    return ", ".join(f"{t.name} ({'/'.join(t.synonyms)})" for t in TSHIRTS.values())


# -- labels for people -------------------------------------------------------------------

def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def kind_label(kind: str | None) -> str:
    if kind is None:
        return "configuration"
    known = CONCURRENCY_KINDS.get(kind)
    return known.label if known else kind.replace("_", " ")


def persistence_label(value: bool | None) -> str | None:
    return None if value is None else ("persistent" if value else "non-persistent")


def config_label(kind: str | None, concurrency: Any = None, replicas: Any = None,
                 tshirt: Any = None, printed: Any = None) -> str:
    """A configuration for people: 'Docker cores 2', 'T-shirt Small (0.5 CPU), 2 replicas'."""
    if kind is None:
        text = "as printed"
    elif kind == "tshirt":
        text = f"T-shirt {tshirt or printed or ''}".strip()
        if concurrency is not None:
            text += f" ({_number(concurrency)} CPU)"
    else:
        value = (printed if printed not in (None, "")
                 else _number(concurrency) if concurrency is not None else "not stated")
        text = f"{kind_label(kind)} {value}"
    if replicas not in (None, 1):
        text += f", {_number(replicas)} replicas"
    return text


def platform_label(platform: str, cores: Any = None, with_cores: bool = False) -> str:
    """A platform for people: its name, and ``with_cores`` (where one source names machines of
    several core counts alike: a lab's 8-core and 16-core "lab box") its cores, without which
    rows of the two machines would read as one's."""
    if not with_cores:
        return platform
    return f"{platform} ({_number(cores)} cores)" if cores is not None else f"{platform} (cores not given)"


def topology_label(topology: str | None, queue_managers: Any = None,
                   simulated_latency_ms: Any = None) -> str | None:
    """A deployment for people: 'HA group, 10 queue managers, 2 ms simulated latency'."""
    parts = []
    if topology is not None:
        known = TOPOLOGIES.get(topology)
        parts.append(known.label if known else topology.replace("_", " "))
    if queue_managers is not None:
        parts.append(f"{_number(queue_managers)} queue manager"
                     + ("" if float(queue_managers) == 1 else "s"))
    if simulated_latency_ms not in (None, 0, 0.0, "0"):
        parts.append(f"{_number(simulated_latency_ms)} ms simulated latency")
    return ", ".join(parts) or None


# The unit of every cost per size (models.fit's ms per KiB) and of the sizes printed for people:
# 1024 bytes, the reports' "1KB" (ingest.units), named by its unambiguous name KiB so that a
# label never says KB (1000 bytes to a reader) of a number computed per 1024 bytes.
KIB = 1024
KIB_NAME = "KiB"


def size_label(n: Any) -> str:
    """A message size for people, exact: 2048 -> '2 KiB', 100 -> '100 B', 1536 -> '1.5 KiB';
    in the largest unit that holds it in at most two decimals (2,048,000 -> '2000 KiB', as the
    report prints "2000kB", not '1.95 MiB'; 1384 -> '1384 B'). 1 KiB = 1024 bytes."""
    if n is None:
        return "no size"
    exact = Fraction(Decimal(str(n)))
    for unit, size in (("MiB", KIB ** 2), (KIB_NAME, KIB)):
        q = exact / size
        if q >= 1 and (q * 100).denominator == 1:
            return f"{_decimal_text(q)} {unit}"
    return f"{_decimal_text(exact)} B"


def _decimal_text(q: Fraction) -> str:
    """A fraction of at most a few decimals, written without trailing zeros (1.5, 2000, 0.25)."""
    if q.denominator == 1:
        return str(q.numerator)
    return format(Decimal(q.numerator) / Decimal(q.denominator), "f").rstrip("0").rstrip(".")


def template_markdown() -> str:
    """The submission template's columns, units and allowed values as the README shows them
    (`perfwh template --markdown`; a test keeps the README equal to it)."""
    lines = ["| column | what it holds |", "|---|---|"]
    for column in KEY_COLUMNS:
        lines.append(f"| `{column}` | {KEY_MEANINGS[column]} |")
    for metric in METRIC_COLUMNS.values():
        tokens = ", ".join(t for t in UNITS[metric.quantity] if t)
        lines.append(f"| `{metric.name}` | {metric.meaning}: {metric.allowed} (a unit may follow: "
                     f"{tokens}) |")
    for column in DEPLOYMENT_COLUMNS:
        lines.append(f"| `{column}` | {KEY_MEANINGS[column]} (a column a file may leave out) |")
    lines += ["", "| concurrency_kind | counts | label | also read (with a note) |", "|---|---|---|---|"]
    for kind in CONCURRENCY_KINDS.values():
        lines.append(f"| `{kind.name}` | {kind.meaning} | {kind.label} | {', '.join(kind.synonyms)} |")
    lines += ["", "| topology | meaning | label |", "|---|---|---|"]
    for topology in TOPOLOGIES.values():
        lines.append(f"| `{topology.name}` | {topology.meaning} | {topology.label} |")
    lines += ["", "| T-shirt | also written | CPU (cores) | memory (MiB) |", "|---|---|---|---|"]
    for shirt in TSHIRTS.values():
        lines.append(f"| {shirt.name} | {', '.join(shirt.synonyms)} (any case) | {shirt.cpu_cores} "
                     f"| {shirt.memory_mib} |")
    lines += ["", f"persistent: {', '.join(PERSISTENT_WORDS)} (persistent); "
                  f"{', '.join(NON_PERSISTENT_WORDS)} (non-persistent); any case; blank if not known."]
    return "\n".join(lines) + "\n"
