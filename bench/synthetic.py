"""Physically consistent submissions in the CSV template: the one generator of the tests and
the benchmarks.

A submission is drawn as the lab would have measured it: machines (a platform name, its cores,
how fast its CPU is), products and versions, tests (a cost per message that is a fixed part
plus a part per KB), configurations of every concurrency kind of `ingest.vocabulary`
(flow instances and execution groups that each keep at most one core busy, Docker CPU limits,
T-shirts with replicas, flow copies that fill the machine, subscribers, fan-out,
destination lists, queue managers), persistence pairs, and sweeps of message size and of
capacity. The physics is the one the rules assume:

* the CPU cost per message grows with the size (fixed + per KB x size, a percent of noise
  shared by every configuration of the same size), persistent messages cost more, more
  concurrency costs a little more per message (contention);
* the rate is the CPU kept busy over the cost: a test is CPU bound (96-99 % of what the
  configuration may use) or held at a steady 60-78 % by something else (I/O), so the rate
  grows with the capacity and saturates where the configuration cannot use more;
* %CPU is of the whole server, and where it is printed the cost is printed from the printed
  rate and %CPU (cores x 10 x %CPU / rate), so the identity holds exactly at the printed
  precision, as the reports' own tables do.

Each lab (a product on a machine) prints in its own style - decimals, trailing zeros kept or
stripped, units (/s, ms, μs) - and every optional column (server cores, %CPU, CPU cost, size,
persistence, replicas, the concurrency kind) is present or blank by the shape. A submission
may carry oddities - a real result the rules should question, not a slip: an under-driven run,
a measurement off its curve - which the generator records (`Submission.oddities`): warnings
are expected on those rows and the rows they are compared with, nowhere else; errors nowhere.

The draws go through `Draw`: `RandomDraw` (a seeded `random.Random`) for the benchmarks, and
`tests/support/strategies.py` for Hypothesis, whose draws it shrinks. `rows`/`write` give the
large submissions of the check benchmarks: generated submissions one after another, with a
planted typo (a doubled digit in a rate) in one row of TYPO_EVERY.
"""
from __future__ import annotations

import csv
import math
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.submission import COLUMNS  # noqa: E402
from ingest.vocabulary import TSHIRTS  # noqa: E402

TYPO_EVERY = 5000
SIZES = (256, 1024, 2048, 4096, 10240, 20480, 65536, 102400, 204800, 1048576, 2097152)


# -- draws -------------------------------------------------------------------------------

class Draw(Protocol):
    """Where the generator's choices come from (a seeded random generator, or Hypothesis)."""

    def integer(self, low: int, high: int) -> int: ...
    def choice(self, options: Sequence) -> Any: ...
    def uniform(self, low: float, high: float) -> float: ...
    def chance(self, p: float) -> bool: ...
    def sample(self, options: Sequence, low: int, high: int) -> list: ...


class RandomDraw:
    """Draws from ``random.Random(seed)``: the same seed, the same submission."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, options: Sequence) -> Any:
        return options[self.rng.randrange(len(options))]

    def uniform(self, low: float, high: float) -> float:
        return self.rng.uniform(low, high)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def sample(self, options: Sequence, low: int, high: int) -> list:
        """Between ``low`` and ``high`` distinct options, in their order."""
        count = self.rng.randint(low, min(high, len(options)))
        picked = set(self.rng.sample(range(len(options)), count))
        return [o for i, o in enumerate(options) if i in picked]


# -- the lab ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Machine:
    platform: str
    cores: int              # the server's cores (also where the CSV leaves them blank)
    cores_printed: bool
    speed: float            # CPU cost multiplier: a slower CPU costs more per message


@dataclass(frozen=True)
class Product:
    name: str
    version: str
    fixed: float            # multiplier of a test's fixed cost per message
    per_kb: float           # multiplier of its cost per KB


@dataclass(frozen=True)
class Test:
    name: str
    fixed_ms: float         # CPU ms per message of no size, on a machine of speed 1
    per_kb_ms: float        # CPU ms per KB
    persistent_ratio: float  # persistent cost = (1 + ratio) x non-persistent + persistent_ms
    persistent_ms: float


@dataclass(frozen=True)
class Config:
    kind: str | None
    printed: str            # the concurrency cell
    replicas: int | None
    limit: float | None     # CPU the runtime may use (Docker cores, T-shirt CPU x replicas)
    threads: float | None   # most cores it can keep busy (a flow instance: one)
    cost_factor: float = 1.0  # per-message cost multiplier (contention, fan-out)
    level: float | None = None  # its place on a capacity sweep
    run: str | None = None  # configurations that are one run (the single copy) share its name


@dataclass(frozen=True)
class Style:
    """How a lab's tools print: decimals, trailing zeros, units."""
    rate_decimals: int
    pct_decimals: int
    cost_decimals: int
    strip_zeros: bool
    rate_unit: str          # "" or "/s"
    cost_unit: str          # "" (ms), " ms" or " μs"
    size_style: str         # bytes | k | KB


@dataclass
class Series:
    """One test of one product on one machine in one configuration, over its sizes."""
    machine: Machine
    product: Product
    test: Test
    persistent: bool | None
    config: Config
    sizes: list[int | None]
    util: tuple[float, float]   # the share of the capacity the runs keep busy
    with_pct: bool
    with_cost: bool
    persistent_printed: bool = True


@dataclass
class Oddity:
    """A real result the rules may question (not a slip): the CSV line of its row, and the
    lines of its series (whose curve, median and neighbours it bends)."""
    what: str
    lines: set[int]
    series: set[int]
    coincidence: bool = False  # runs that print the same numbers (a property of the whole file)


@dataclass
class Submission:
    shape: str
    rows: list[dict]                      # template column -> printed cell ("" blank)
    oddities: list[Oddity] = field(default_factory=list)
    runs: list = field(default_factory=list)  # each row's run: rows of one run share it

    @property
    def odd_lines(self) -> set[int]:
        """The lines of the odd rows."""
        return set().union(*(o.lines for o in self.oddities)) if self.oddities else set()

    @property
    def odd_series(self) -> set[int]:
        """The lines of every row of a series with an odd row."""
        return set().union(*(o.series for o in self.oddities)) if self.oddities else set()

    def unexplained(self, findings: list[dict]) -> list[dict]:
        """The findings of a check of this submission that its oddities do not explain: every
        error, and every warning neither on a row of an odd series nor naming one ("line 12":
        a comparison with the odd row)."""
        odd = self.odd_series
        return [f for f in findings if f["severity"] == "error" or not lines_named(f) & odd]

    def write(self, path: Path) -> Path:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n",
                                    extrasaction="ignore")
            writer.writeheader()
            writer.writerows(self.rows)
        return path


def lines_named(finding: dict) -> set[int]:
    """A finding's own line and the lines its message names ("line 12", "lines 3")."""
    return {finding["source_line"]} | {int(n) for n in re.findall(r"\blines? (\d+)\b", finding["message"])}


@dataclass
class _Row:
    series: Series
    size: int | None
    rate: float
    pct: float | None
    cost: float
    odd: str | None = None


# -- names -------------------------------------------------------------------------------

# Versions no report in data/raw measures, so that no generated row is a resubmission of one.
PRODUCTS = (("ACE", ("12.0.4.0", "12.0.9.0", "12.0.12.0", "14.0.0.1")),
            ("IIB", ("9.0.0.8", "10.0.0.15")),
            ("MQ", ("9.3.0.0", "9.4.0.5")),
            ("Acme Bus", ("2.1", "3.0")),
            ("Widget ESB", ("7.5.1", "8.0.0")))
TEST_NAMES = ("HTTP Echo", "SOAP Echo", "REST Mapper", "MQ Routing", "JSON Transformation",
              "XML Aggregation", "File Transfer", "Database Insert", "Request/Reply",
              "Large Message Filter", "CSV to XML", "Header Enrichment")
SERVER_CORES = (2, 4, 8, 12, 16, 24, 32, 64)
LAB_NAMES = ("lab-a", "lab-b", "perf box", "rack 3", "bench01", "xLinux lab", "AIX lab", "pSeries")
CONTAINER_PLATFORMS = ("OpenShift lab", "Kubernetes perf", "EKS test")
DOCKER_PLATFORMS = ("Docker on Linux", "Docker on Windows", "Podman host")


# -- drawing the parts -------------------------------------------------------------------

def _machine(draw: Draw, platform: str, cores: int | None = None, printed: bool | None = None) -> Machine:
    return Machine(platform, cores or draw.choice(SERVER_CORES),
                   draw.chance(0.85) if printed is None else printed,
                   round(draw.uniform(0.5, 2.0), 3))


@dataclass
class Names:
    """The names of one submission's parts, and what each named part is. Written into one
    file, several submissions share the catalogue - a test or a product version has one cost
    wherever it runs - and keep their machines apart by ``tag``."""
    tag: str = ""
    tests: dict[str, Test] = field(default_factory=dict)
    products: dict[tuple[str, str], Product] = field(default_factory=dict)

    def platform(self, name: str) -> str:
        return f"{name}{self.tag}"

    def test(self, draw: Draw, name: str) -> Test:
        if name not in self.tests:
            self.tests[name] = Test(name, round(draw.uniform(0.15, 3.0), 4), round(draw.uniform(0.002, 0.05), 5),
                                    round(draw.uniform(0.15, 0.6), 3), round(draw.uniform(0.05, 0.5), 3))
        return self.tests[name]

    def product(self, name: str, version: str, fixed: float, per_kb: float) -> Product:
        return self.products.setdefault((name, version), Product(name, version, round(fixed, 3),
                                                                 round(per_kb, 3)))


def _products(draw: Draw, count: int, names: Names) -> list[Product]:
    return [names.product(name, draw.choice(versions), draw.uniform(0.7, 1.4), draw.uniform(0.8, 1.25))
            for name, versions in draw.sample(PRODUCTS, 1, count)]


def _versions(draw: Draw, count: int, names: Names) -> list[Product]:
    """One product in several versions (a regression series): each a little faster."""
    name, versions = draw.choice(PRODUCTS)
    picked = draw.sample(versions, 1, count) if len(versions) > 1 else list(versions)
    out, fixed = [], draw.uniform(0.9, 1.4)
    for version in picked:
        out.append(names.product(name, version, fixed, draw.uniform(0.85, 1.15)))
        fixed *= draw.uniform(0.8, 0.97)
    return out


def _tests(draw: Draw, low: int, high: int, names: Names) -> list[Test]:
    return [names.test(draw, n) for n in draw.sample(TEST_NAMES, low, high)]


def _sizes(draw: Draw, low: int = 3, high: int = 6) -> list[int | None]:
    count = draw.integer(low, high)
    start = draw.integer(0, len(SIZES) - count)
    step = draw.choice((1, 1, 2)) if start + 2 * (count - 1) < len(SIZES) else 1
    return [SIZES[start + i * step] for i in range(count)]


def _util(draw: Draw) -> tuple[float, float]:
    """A CPU-bound test (96-99 % of the capacity busy), or one held at a steady share of it."""
    if draw.chance(0.8):
        return (0.97, 0.99)
    held = round(draw.uniform(0.6, 0.77), 3)
    return (held, held + 0.01)


def _contention(level: float) -> float:
    return 1 + 0.005 * math.log2(max(level, 1))


# An execution group is a process of its own (its own memory, parsers and housekeeping
# threads): each doubling of them costs a share more per message than a doubling of the
# flow instances in one group. WBIMB's chapter 10 prints the two sweeps well apart (8
# execution groups 10.52 ms, 8 flow instances 13.50 ms); equal costs would print the same
# numbers under two labels, which no lab measures.
EXECUTION_GROUP_OVERHEAD = 0.02


def _threads(kind: str, count: int) -> Config:
    """Flow instances or execution groups: each keeps at most one core busy. One flow
    instance in one execution group is one run, however a table counts it."""
    factor = _contention(count)
    if kind == "execution_groups":
        factor *= 1 + EXECUTION_GROUP_OVERHEAD * math.log2(count)
    return Config(kind, str(count), None, None, float(count), factor, float(count),
                  "single copy" if count == 1 else None)


def _docker(cores: int) -> Config:
    return Config("docker_cores", str(cores), None, float(cores), None, _contention(cores), float(cores))


def _tshirt(name: str, replicas: int | None) -> Config:
    cpu = float(TSHIRTS[name].cpu_cores)
    return Config("tshirt", name, replicas, cpu * (replicas or 1), None, _contention(cpu), cpu)


def _fill(kind: str | None = None, printed: str = "", factor: float = 1.0) -> Config:
    """A configuration that fills the machine (flow copies; none stated; a messaging count)."""
    return Config(kind, printed, None, None, None, factor)


def _style(draw: Draw) -> Style:
    return Style(draw.integer(1, 2), draw.integer(1, 2), draw.integer(1, 3), draw.chance(0.3),
                 draw.choice(("", "", "/s")), draw.choice(("", "", " ms", " μs")),
                 draw.choice(("bytes", "bytes", "k", "KB")))


# -- the shapes ----------------------------------------------------------------------------

def _paired(draw: Draw, p_pair: float = 0.5) -> list[bool | None]:
    return [False, True] if draw.chance(p_pair) else [False]


def _series(draw: Draw, machine: Machine, product: Product, test: Test, configs: list[Config],
            persistence: list[bool | None], sizes: list[int | None], with_pct: bool,
            with_cost: bool = True) -> list[Series]:
    out = []
    util = _util(draw)  # persistent runs in the regime of the non-persistent ones (a held test
    for persistent in persistence:  # is no less held with persistence)
        for config in configs:
            out.append(Series(machine, product, test, persistent, config, sizes, util, with_pct, with_cost))
    return out


def shape_lab_servers(draw: Draw, names: Names) -> list[Series]:
    """Servers with %CPU, flow-instance sweeps, persistence pairs (IIB's tables)."""
    # two servers, two names: machines that share a name are told apart by their cores
    machines = [_machine(draw, names.platform(name)) for name in draw.sample(LAB_NAMES, 1, 2)]
    out = []
    for machine in machines:
        counts = draw.sample((1, 2, 4, 8), 1, 3)
        for product in _products(draw, 2, names):
            for test in _tests(draw, 1, 3, names):
                out += _series(draw, machine, product, test, [_threads("flow_instances", n) for n in counts],
                               _paired(draw), _sizes(draw), with_pct=True)
    return out


def shape_execution_groups(draw: Draw, names: Names) -> list[Series]:
    """Flow instances against execution groups on one server with %CPU (WBIMB's chapter 10)."""
    machine = _machine(draw, names.platform(draw.choice(LAB_NAMES)), cores=draw.choice((4, 8, 16)), printed=True)
    product = _products(draw, 1, names)[0]
    counts = draw.sample((1, 2, 4, 8), 2, 4)
    out = []
    for test in _tests(draw, 1, 3, names):
        configs = [_threads(kind, n) for kind in ("flow_instances", "execution_groups") for n in counts]
        out += _series(draw, machine, product, test, configs, _paired(draw, 0.4),
                       _sizes(draw, 2, 4), with_pct=True)
    return out


def shape_docker(draw: Draw, names: Names) -> list[Series]:
    """Docker CPU limits on two hosts, two products side by side, no %CPU (ACE 11 vs IIB 10)."""
    cores = draw.choice((8, 12, 16))
    platforms = draw.sample(DOCKER_PLATFORMS, 1, 2)
    limits = draw.sample((1, 2, 4), 2, 3)
    with_pct = draw.chance(0.25)
    out = []
    for platform in platforms:
        machine = _machine(draw, names.platform(platform), cores=cores)
        for product in _products(draw, 2, names):
            for test in _tests(draw, 2, 4, names):
                out += _series(draw, machine, product, test, [_docker(n) for n in limits], [False],
                               _sizes(draw, 3, 3), with_pct)
    return out


def shape_openshift(draw: Draw, names: Names) -> list[Series]:
    """T-shirts with replicas on a container platform: no server cores, no %CPU (ACE 13)."""
    machine = _machine(draw, names.platform(draw.choice(CONTAINER_PLATFORMS)), cores=64, printed=False)
    product = _products(draw, 1, names)[0]
    shirts = draw.sample(tuple(TSHIRTS), 2, 3)
    out = []
    for test in _tests(draw, 2, 4, names):
        replicas = [1] + (draw.sample((2, 3), 1, 2) if draw.chance(0.4) else [])
        configs = [_tshirt(s, r if len(replicas) > 1 or draw.chance(0.5) else None)
                   for s in shirts for r in replicas]
        out += _series(draw, machine, product, test, configs, [False], _sizes(draw, 3, 4), False)
    return out


def shape_shared_platform(draw: Draw, names: Names) -> list[Series]:
    """One platform name over servers of several core counts, each row giving its own (the
    2-core and 8-core lab box of one file), flow copies filling each machine."""
    name = names.platform(draw.choice(LAB_NAMES))
    counts = draw.sample(SERVER_CORES[:6], 2, 4)
    product = _products(draw, 1, names)[0]
    tests = _tests(draw, 1, 3, names)
    with_pct = draw.chance(0.7)
    out = []
    for cores in counts:
        machine = Machine(name, cores, True, round(draw.uniform(0.6, 1.6), 3))
        for test in draw.sample(tests, 1, len(tests)):
            out += _series(draw, machine, product, test, [_fill("flow_copies")], _paired(draw, 0.3),
                           _sizes(draw), with_pct)
    return out


def shape_messaging(draw: Draw, names: Names) -> list[Series]:
    """Publish/subscribe and routing counts: subscribers, fan-out, destination lists, queue
    managers; a cost with or without %CPU, or rates alone."""
    machine = _machine(draw, names.platform(draw.choice(LAB_NAMES)))
    product = _products(draw, 1, names)[0]
    with_pct, with_cost = draw.chance(0.5), draw.chance(0.7)
    out = []
    kinds = draw.sample(("subscribers", "fanout_ratio", "destination_list_entries", "wmq_queue_managers"), 1, 3)
    for kind, test in zip(kinds, _tests(draw, len(kinds), len(kinds), names)):
        counts = {"subscribers": (1, 10, 100, 1000), "fanout_ratio": (1, 10, 100),
                  "destination_list_entries": (1, 10, 100), "wmq_queue_managers": (1, 2, 4)}[kind]
        configs = []
        for n in draw.sample(counts, 1, 3):
            factor = {"subscribers": 1 + 0.05 * (n - 1) ** 0.5, "fanout_ratio": 1 + 0.2 * (n - 1),
                      "destination_list_entries": 1 + 0.6 * (n - 1), "wmq_queue_managers": 1.0}[kind]
            configs.append(_fill(kind, str(n), factor))
        out += _series(draw, machine, product, test, configs, _paired(draw, 0.3), _sizes(draw, 1, 3),
                       with_pct, with_cost)
    return out


def shape_rates_only(draw: Draw, names: Names) -> list[Series]:
    """A score card: rates alone, one per test, no size (MessageSight's), persistence pairs."""
    machine = _machine(draw, names.platform(draw.choice(LAB_NAMES)), printed=draw.chance(0.5))
    product = _products(draw, 1, names)[0]
    out = []
    for test in _tests(draw, 3, 8, names):
        sizes = [None] if draw.chance(0.7) else _sizes(draw, 2, 3)
        out += _series(draw, machine, product, test, [_fill()], _paired(draw, 0.4), sizes, False, False)
    return out


def shape_versions(draw: Draw, names: Names) -> list[Series]:
    """One product in several versions on one machine (a regression series), %CPU printed."""
    machine = _machine(draw, names.platform(draw.choice(LAB_NAMES)))
    sizes = _sizes(draw)
    out = []
    tests = _tests(draw, 1, 3, names)
    kind = draw.choice(("flow_copies", None))
    for product in _versions(draw, 3, names):
        for test in tests:
            out += _series(draw, machine, product, test, [_fill(kind)], [False], sizes, with_pct=True)
    return out


def shape_sparse(draw: Draw, names: Names) -> list[Series]:
    """Optional columns left blank: cores not given beside %CPU, persistence not stated, no
    concurrency kind, sizes missing for some tests."""
    machine = _machine(draw, names.platform(draw.choice(LAB_NAMES)), printed=False)
    product = _products(draw, 1, names)[0]
    out = []
    for test in _tests(draw, 2, 4, names):
        sizes = _sizes(draw, 2, 5) if draw.chance(0.7) else [None]
        for s in _series(draw, machine, product, test, [_fill()], [None], sizes, with_pct=draw.chance(0.6)):
            s.persistent_printed = False
            out.append(s)
    return out


def shape_capacity_sweep(draw: Draw, names: Names) -> list[Series]:
    """One test on servers of 2 to 32 cores (a platform each), the rate growing and saturating
    with the cores (contention raises the cost per message)."""
    counts = draw.sample((2, 4, 8, 16, 32), 3, 5)
    product = _products(draw, 1, names)[0]
    test = _tests(draw, 1, 1, names)[0]
    sizes = _sizes(draw, 2, 4)
    with_pct = draw.chance(0.5)
    out = []
    for cores in counts:
        machine = Machine(names.platform(f"server-{cores}c"), cores, True, 1.0)
        config = _fill("flow_copies", "", 1 + 0.02 * (cores - 1) ** 0.5)
        out += _series(draw, machine, product, test, [config], [False], sizes, with_pct)
    return out


SHAPES: dict[str, Callable[[Draw, Names], list[Series]]] = {
    "lab_servers": shape_lab_servers, "execution_groups": shape_execution_groups,
    "docker": shape_docker, "openshift": shape_openshift, "shared_platform": shape_shared_platform,
    "messaging": shape_messaging, "rates_only": shape_rates_only, "versions": shape_versions,
    "sparse": shape_sparse, "capacity_sweep": shape_capacity_sweep,
}


# -- the physics ---------------------------------------------------------------------------

def _capacity(series: Series) -> float:
    """The cores the configuration may keep busy."""
    config, cores = series.config, series.machine.cores
    if config.limit is not None:
        return config.limit
    if config.threads is not None:
        return min(config.threads, cores)
    return float(cores)


def _measure(draw: Draw, series: Series, runs: dict) -> list[_Row]:
    """Each size of the series as run: its cost (with 0.75 % of noise of its own) and the
    share of the capacity kept busy."""
    rows = []
    s, t, p = series, series.test, series.product
    for size in s.sizes:
        run = _run(s, size)
        if run is not None and run in runs:  # printed again, as measured once
            rows.append(_Row(s, size, *runs[run]))
            continue
        kb = (size or 1024) / 1024
        cost = (t.fixed_ms * p.fixed + t.per_kb_ms * p.per_kb * kb) * s.machine.speed
        if s.persistent:
            cost = cost * (1 + t.persistent_ratio) + t.persistent_ms * s.machine.speed
        cost *= s.config.cost_factor * draw.uniform(0.9925, 1.0075)
        busy = _capacity(s) * draw.uniform(*s.util)
        measured = (busy * 1000 / cost, 100 * busy / s.machine.cores, cost)
        if run is not None:
            runs[run] = measured
        rows.append(_Row(s, size, *measured))
    return rows


def _odd(draw: Draw, rows: list[_Row]) -> None:
    """Make one row of a series a real oddity: a run held back (under-driven), or a
    measurement off its curve (the cost 30 % above, the rate as the CPU allowed)."""
    row = draw.choice(rows)
    if draw.chance(0.5):
        share = draw.uniform(0.25, 0.4)
        row.rate *= share
        row.pct *= share
        row.odd = f"under-driven: {share:.0%} of the usual rate"
    else:
        row.cost *= 1.3
        row.rate /= 1.3
        row.odd = "a cost 30 % above its curve"


# -- printing ------------------------------------------------------------------------------

def _decimals(style_decimals: int, smallest: float) -> int:
    """The lab's decimals, or more where its smallest value would keep fewer than three
    significant digits (a tool prints 0.352 msgs/s, not 0.4)."""
    return min(6, max(style_decimals, 2 - math.floor(math.log10(smallest))))


def _printed(value: Decimal | float, decimals: int, strip: bool) -> str:
    text = f"{Decimal(str(value)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_EVEN):f}"
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _size(size: int | None, style: str) -> str:
    if size is None:
        return ""
    if style == "bytes" or size % 1024:
        return str(size)
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)}MB"
    return f"{size // 1024}{'k' if style == 'k' else 'KB'}"


def _print_rows(draw: Draw, measured: list[_Row]) -> list[dict]:
    """Every row printed in its lab's style (a lab: a product on a machine), the decimals of
    each column chosen over the lab's rows."""
    labs: dict[tuple, list[_Row]] = {}
    for r in measured:
        labs.setdefault((r.series.product, r.series.machine), []).append(r)
    size_style = draw.choice(("bytes", "bytes", "k", "KB"))
    printing = {}
    for lab, rows in labs.items():
        style = _style(draw)
        scale = 1000 if style.cost_unit == " μs" else 1
        printing[lab] = (style, _decimals(style.rate_decimals, min(r.rate for r in rows)),
                         _decimals(style.pct_decimals, min(r.pct for r in rows)),
                         _decimals(style.cost_decimals, min(r.cost * scale for r in rows)))
    return [_cells(r, *printing[(r.series.product, r.series.machine)], size_style) for r in measured]


def _cells(r: _Row, style: Style, d_rate: int, d_pct: int, d_cost: int, size_style: str) -> dict:
    s, m = r.series, r.series.machine
    rate = _printed(r.rate, d_rate, style.strip_zeros)
    pct = _printed(r.pct, d_pct, style.strip_zeros) if s.with_pct else ""
    cost = ""
    if s.with_cost:
        if s.with_pct:  # printed from the printed rate and %CPU, as the reports compute it
            value = Decimal(m.cores) * 10 * Decimal(pct) / Decimal(rate)
        else:
            value = Decimal(str(r.cost))
        if style.cost_unit == " μs":
            value *= 1000
        cost = _printed(value, d_cost, style.strip_zeros) + style.cost_unit
    config = s.config
    return {"product": s.product.name, "product_version": s.product.version, "platform": m.platform,
            "server_cores": str(m.cores) if m.cores_printed else "", "scenario": s.test.name,
            "message_size_bytes": _size(r.size, size_style),
            "persistent": "" if s.persistent is None or not s.persistent_printed else str(s.persistent).lower(),
            "concurrency_kind": config.kind or "", "concurrency": config.printed,
            "replicas": "" if config.replicas is None else str(config.replicas),
            "msg_rate": rate + style.rate_unit, "cpu_busy_pct": pct, "cpu_ms_per_msg": cost}


# -- submissions ---------------------------------------------------------------------------

def generate(draw: Draw, shape: str | None = None, oddity_rate: float = 0.0,
             names: Names | None = None) -> Submission:
    """A submission of ``shape`` (default: drawn), each series made odd with ``oddity_rate``.
    ``names``: the catalogue of tests and products and the tag of the machines, shared by the
    submissions written into one file."""
    shape = shape or draw.choice(tuple(SHAPES))
    series = SHAPES[shape](draw, names or Names())
    runs: dict = {}
    measured: list[_Row] = []
    odd_series = []
    for s in series:
        rows = _measure(draw, s, runs)
        # a run printed twice (the single copy) stays as measured: both its rows would differ
        if oddity_rate and len(rows) >= 3 and s.config.run is None and draw.chance(oddity_rate):
            _odd(draw, rows)
            odd_series.append(rows)
        measured += rows
    printed = _print_rows(draw, measured)
    submission = Submission(shape, printed, runs=_runs(measured))
    line_of = {id(r): i + 2 for i, r in enumerate(measured)}
    for rows in odd_series:
        odd = next(r for r in rows if r.odd)
        submission.oddities.append(Oddity(f"{odd.series.test.name}: {odd.odd}", {line_of[id(odd)]},
                                          {line_of[id(r)] for r in rows}))
    submission.oddities += printed_alike(submission.rows, submission.runs)
    return submission


def _run(series: Series, size: int | None) -> tuple | None:
    """The run a size of a series shares with the configurations that are one run with its
    own (the single copy, however a table counts it); None for a run of its own."""
    if series.config.run is None:
        return None
    return (series.machine, series.product, series.test, series.persistent, size, series.config.run)


def _runs(measured: list[_Row]) -> list:
    """Each row's run: the rows of one run printed under two names (the single copy) share
    it, every other row is a run of its own."""
    return [_run(r.series, r.size) or ("row", n) for n, r in enumerate(measured)]


def printed_alike(rows: list[dict], runs: list) -> list[Oddity]:
    """Runs whose numbers happen to print identically (two sizes or configurations whose
    costs differ by less than the printed digits resolve): a real coincidence, which looks
    like a row copied under another label, and which the repeated-values rule is right to
    question. The rows of one run (``runs``) are one measurement, not a coincidence."""
    runs_of: dict[tuple, dict] = {}  # printed numbers -> run -> its CSV lines
    for n, (cells, run) in enumerate(zip(rows, runs)):
        numbers = tuple(cells[c] for c in ("msg_rate", "cpu_busy_pct", "cpu_ms_per_msg"))
        if sum(bool(v) for v in numbers) >= 2:
            runs_of.setdefault(numbers, {}).setdefault(run, set()).add(n + 2)
    alike = []
    for numbers, lines_of_run in runs_of.items():
        if len(lines_of_run) > 1:
            lines = set().union(*lines_of_run.values())
            alike.append(Oddity(f"{' / '.join(v for v in numbers if v)} printed by {len(lines_of_run)} runs",
                                lines, lines, coincidence=True))
    return alike


def combined(draw: Draw, shapes: Sequence[str], oddity_rate: float = 0.0) -> Submission:
    """One submission of several shapes, as a lab files its results of several machines in one
    file: the tests and product versions shared, each shape's machines its own."""
    names = Names()
    rows: list[dict] = []
    runs: list = []
    oddities: list[Oddity] = []
    for part, shape in enumerate(shapes, 1):
        names.tag = f" {part}" if len(shapes) > 1 else ""
        one = generate(draw, shape, oddity_rate, names)
        shift = len(rows)
        oddities += [Oddity(o.what, {n + shift for n in o.lines}, {n + shift for n in o.series})
                     for o in one.oddities if not o.coincidence]  # found again over the file below
        rows += one.rows
        runs += [(part, run) for run in one.runs]
    return Submission("+".join(shapes), rows, oddities + printed_alike(rows, runs), runs)


def submissions(seed: int, count: int, oddity_rate: float = 0.0) -> Iterator[Submission]:
    """``count`` submissions, every shape in turn, each from its own seed."""
    names = tuple(SHAPES)
    for i in range(count):
        yield generate(RandomDraw(seed * 1_000_003 + i), names[i % len(names)], oddity_rate)


def rows(count: int, seed: int = 20261122, oddity_rate: float = 0.05, typo_every: int = TYPO_EVERY,
         tag: str = "") -> Iterator[dict]:
    """``count`` rows of generated submissions one after another (every shape), as a lab's
    results of many machines in one file: the tests and product versions are shared (one
    cost each, wherever they run), each part's machines are its own (named with ``tag`` and
    the part's number). Many series and many findings: the oddities, and a typo (a doubled
    digit in a rate) in one row of ``typo_every`` (0: none)."""
    n = 0
    shapes = tuple(SHAPES)
    draw = RandomDraw(seed)
    names = Names()
    part = 0
    while True:
        part += 1
        names.tag = f"{tag} {part}"
        for row in generate(draw, shapes[part % len(shapes)], oddity_rate, names).rows:
            if n >= count:
                return
            n += 1
            if typo_every and n % typo_every == 0:
                row = dict(row, msg_rate=row["msg_rate"][0] + row["msg_rate"])
            yield row


def write(path: Path, count: int, seed: int = 20261122, oddity_rate: float = 0.05,
          typo_every: int = TYPO_EVERY, tag: str = "") -> Path:
    """``rows`` written as a CSV in the submission template."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows(count, seed, oddity_rate, typo_every, tag))
    return path


if __name__ == "__main__":
    write(Path(sys.argv[1]), int(sys.argv[2]))
