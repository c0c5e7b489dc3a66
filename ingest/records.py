"""The records every report parser returns, and the one error type they raise.

A parser is a pure function ``parse(lines) -> ParsedReport``. It never reads files
and never touches the warehouse: `ingest.reader` turns a file into `Line`s and
`perfwh.warehouse` loads the records.

Numbers are carried as printed: ``printed_value`` is the cell exactly as it
appears, ``number`` its numeric part and ``unit`` the unit token found next to
it (or implied by the column heading). Conversion to canonical units happens in
the warehouse's ``stg_`` layer, from the one unit table in `ingest.units`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .printable import OneLineMessage


@dataclass(frozen=True)
class Line:
    """One line of a report: 1-based line number, PDF page (None for text), text."""

    number: int
    text: str
    page: int | None = None


class ParseError(OneLineMessage, ValueError):
    """A report could not be read as its family. Names file, line and what was expected."""

    def __init__(self, message: str, line: int | None = None, source: str | None = None,
                 expected: str | None = None):
        self.message = message
        self.line = line
        self.source = source
        self.expected = expected
        super().__init__(str(self))

    def located(self, source: str) -> "ParseError":
        return ParseError(self.message, self.line, source, self.expected)

    def __str__(self) -> str:
        where = self.source or "<report>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        text = f"{where}: {self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text


@dataclass(frozen=True)
class Quantity:
    """A printed quantity split into its numeric part and unit token.

    ``unit`` is a token of `ingest.units.UNITS` for the quantity kind the column holds.
    """

    printed: str
    number: str
    unit: str


@dataclass(frozen=True)
class SourceTable:
    """A results table as found in the report: where it starts and what it is called."""

    table_key: str
    title: str
    heading_line: int
    kind: str  # throughput | startup | summary | scorecard | power | fanout
    page: int | None = None
    note: str | None = None


# How a flow is built (Scenario.flow_style), spelt one way whichever report says it: ACE 13
# writes "Toolkit flows" where IIB 10 and ACE 11 write message flows built in the Toolkit.
TOOLKIT_FLOW = "Toolkit message flow"
DESIGNER_FLOW = "Designer flow"
REST_API = "REST API"
FLOW_STYLES = {"Toolkit": TOOLKIT_FLOW, "Designer": DESIGNER_FLOW}


@dataclass(frozen=True)
class Scenario:
    name: str
    transport: str | None = None
    message_domain: str | None = None
    flow_style: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Observation:
    """One number of one row of one results table, with every key that row carries."""

    table_key: str
    row_line: int
    product: str  # product key of sources.yml
    platform: str  # platform key of sources.yml
    scenario: str
    metric: str  # a metric of `ingest.units.METRICS`
    value: Quantity
    message_size: Quantity | None = None
    persistent: bool | None = None
    concurrency_kind: str | None = None
    concurrency: Quantity | None = None
    replicas: int | None = None
    tshirt: str | None = None  # T-shirt size name; its CPU and memory come from the report
    component: str | None = None  # what was measured when not the whole server
    observed_at: str | None = None  # ISO timestamp of a reading (power tables)
    page: int | None = None
    # How the messaging was deployed, where the report says (the MQ Appliance reports): a
    # topology of `ingest.vocabulary.TOPOLOGIES`, the queue managers the test's queues are
    # spread over, and the round-trip delay inserted into the network between replicating
    # appliances (a number of ms as printed; "0" for appliances connected directly).
    topology: str | None = None
    queue_managers: int | None = None
    simulated_latency_ms: str | None = None


@dataclass(frozen=True)
class Claim:
    """A statement of the report's prose, to be checked against its tables.

    ``kind`` says what sort of statement it is (`ingest.prose.CLAIM_KINDS`): a number
    about a row ("value", the original claims), or a statement without a number to
    compare - a count of what the tables hold, an ordering between named tests, a
    superlative, a trend, a measurement window or a date.
    """

    line: int
    text: str  # the sentence (or for value claims the fragment) that states it
    metric: str | None  # what is compared; None for counts, windows and dates of no one metric
    value: Quantity | None  # the number stated; None where the statement has none
    scenario: str | None = None
    platform: str | None = None
    product: str | None = None
    message_size: Quantity | None = None
    persistent: bool | None = None
    concurrency_kind: str | None = None
    concurrency: Quantity | None = None
    # approx: about the value; over / under: more / less than it; max_copies: the rate with
    # enough copies to fill the machine (at least any single table row); ratio_approx /
    # ratio_over: this row's value divided by the relative row's; overhead_pct: how much
    # faster the relative row is, in percent of this row. Other kinds: `ingest.prose`.
    comparison: str = "approx"
    relative_scenario: str | None = None  # the row compared against, where it differs
    relative_concurrency: Quantity | None = None
    page: int | None = None
    kind: str = "value"
    compared: str | None = None  # what is counted, ranked or varied (`ingest.prose.COMPARED`)
    quantifier: str = "all"  # all | most (a hedged "typically") | each (every scenario)
    scope: str | None = None  # counts of tables: the table-title prefix counted under
    relative_persistent: bool | None = None  # orderings: the other side's persistence
    relative_concurrency_kind: str | None = None  # orderings: the other side's concurrency kind
    stated_date: str | None = None  # dates: ISO yyyy-mm-dd
    phrase: str | None = None  # the words that state a claim without a number (its printed value)
    # The deployment the claim speaks of (`Observation`'s fields), and for ratio claims the
    # other side's platform, topology and simulated latency where they differ from this side's
    # ("3 times the throughput of the M2002B", "15% less than ... non HA Queue Managers").
    topology: str | None = None
    queue_managers: int | None = None
    simulated_latency_ms: str | None = None
    relative_platform: str | None = None
    relative_topology: str | None = None
    relative_simulated_latency_ms: str | None = None


@dataclass(frozen=True)
class TShirt:
    name: str
    cpu_cores: str  # as printed, e.g. "0.5"
    memory_mib: str
    line: int


@dataclass
class ParsedReport:
    family: str
    tables: list[SourceTable] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    tshirts: list[TShirt] = field(default_factory=list)
    header_variants: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, printed header, canonical header) for each header that matched an alias."""
    facts: dict = field(default_factory=dict)
    """What the report says about itself, in sources.yml's terms (title, edition, published,
    products, platforms), for a family whose editions each name their own: a further edition
    filed with `perfwh add` takes the products and platforms its rows name from here where
    the family's filed entry lacks them. sources.yml stays the one record of every fact."""
