"""Statements of a report's prose beyond its numbers: what kinds there are, and the helpers the
family parsers share to read them.

The value claims ("approximately 2601 msgs/second") compare a number with a row. The other
kinds state something the tables confirm or refute without a number to compare: how many
platforms, scenarios, sizes or T-shirts there are, which test is faster than which, which
one is the best, how a rate moves with size, how long and on which day readings were
taken. A family parser finds each by its wording (a `Wording` of its own module) under the
heading it belongs to - never by its line number - and returns it as a `Claim` carrying the
sentence and its line. One rule per kind checks it against the report's own tables:

    kind    comparison          rule                     holds when
    value   approx, over, ...   claim_vs_table           the row it names prints that number
    count   exactly             claim_count              the tables hold that many `compared`
    order   higher, lower       claim_order              no pair of rows says the opposite
    best    highest, lowest     claim_best               no comparable row beats the subject
    trend   falls, rises        claim_trend              each step along `compared` goes that way
    window  approx              claim_window             each table of readings spans that long
    date    on                  claim_window             every reading is dated that day

Only unhedged statements are checked strictly; a hedged one ("Typically, ...") carries the
quantifier "most" and is refuted only when the tables go the other way at least as often
as they agree.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .records import Claim, Line, Quantity

# kind -> the comparisons it allows
CLAIM_KINDS: dict[str, tuple[str, ...]] = {
    "value": ("approx", "over", "under", "max_copies", "ratio_approx", "ratio_over", "overhead_pct",
              "gain_over", "reduction_approx", "reduction_at_most"),
    "count": ("exactly",),
    "order": ("higher", "lower"),
    "best": ("highest", "lowest"),
    "trend": ("falls", "rises"),
    "window": ("approx",),
    "date": ("on",),
}
# kind -> what its `compared` may name (schema/dictionary.yml explains each)
COMPARED: dict[str, tuple[str | None, ...]] = {
    "value": (None,),
    "count": ("platforms", "scenarios", "tables", "tshirts", "message_sizes",
              "concurrency_levels", "configurations", "cores"),
    "order": ("persistence", "scenarios", "configurations"),
    "best": ("scenarios", "configurations"),
    "trend": ("message_size", "concurrency"),
    "window": ("readings",),
    "date": ("readings",),
}
QUANTIFIERS = ("all", "most", "each")

NUMBER_WORDS = {"single": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                "twenty": 20, "one hundred": 100, "one thousand": 1000}
# A count as the prose writes it: digits or a number word.
COUNT = r"\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")


def number(text: str) -> int | None:
    """A count written in digits or words ("9", "nine", "One Hundred"); None if it is neither."""
    text = re.sub(r"\s+", " ", text.strip().lower())
    return int(text) if text.isdigit() else NUMBER_WORDS.get(text)


def sentences(text: str) -> list[str]:
    """A line of prose split into sentences (a full stop before a capital)."""
    return [s for s in re.split(r"(?<=[A-Za-z0-9%)])\. (?=[A-Z])", text) if s]


def iso_date(text: str) -> str | None:
    """"April 22, 2013" as 2013-04-22; None if it is not such a date."""
    match = re.fullmatch(r"(?P<month>[A-Za-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})", text.strip())
    if not match or match.group("month").lower() not in MONTHS:
        return None
    month = MONTHS.index(match.group("month").lower()) + 1
    return f"{match.group('year')}-{month:02d}-{int(match.group('day')):02d}"


def statement(line: Line, sentence: str, kind: str, comparison: str, phrase: str,
              value: Quantity | None = None, **fields) -> Claim:
    """A claim of ``kind`` read from ``sentence`` on ``line``; ``phrase`` is the wording that
    states it (the claim's printed value where it has no number)."""
    if comparison not in CLAIM_KINDS.get(kind, ()):
        raise ValueError(f"a {kind!r} claim cannot compare {comparison!r} "
                         f"(allowed: {CLAIM_KINDS.get(kind)})")
    if fields.get("compared") not in COMPARED[kind]:
        raise ValueError(f"a {kind!r} claim cannot be about {fields.get('compared')!r} "
                         f"(allowed: {COMPARED[kind]})")
    if fields.get("quantifier", "all") not in QUANTIFIERS:
        raise ValueError(f"unknown quantifier {fields['quantifier']!r}")
    fields.setdefault("metric", None)
    return Claim(line=line.number, text=sentence.strip(), value=value, kind=kind,
                 comparison=comparison, phrase=phrase.strip(), page=line.page, **fields)


def count_value(printed: str) -> Quantity:
    """A count the prose states ("nine"), as a quantity of kind count."""
    n = number(printed)
    if n is None:
        raise ValueError(f"{printed!r} is not a count")
    return Quantity(printed.strip(), str(n), "")


@dataclass(frozen=True)
class Wording:
    """How one kind of statement is worded in a family's prose.

    ``pattern`` is searched in each sentence; ``fields`` are the claim's fixed fields
    (compared, metric, quantifier, ...); ``derive`` turns the match into more fields (a
    scenario or platform it names, a comparison that depends on the verb). A group ``n`` is
    the count a count claim states; the phrase is group ``phrase`` if the pattern has one,
    else the whole match. The claim quotes the sentence, or with ``quote_match`` only the
    match (a statement that runs over two sentences of a longer paragraph)."""

    pattern: re.Pattern
    kind: str
    comparison: str
    fields: dict = field(default_factory=dict)
    derive: Callable[[re.Match], dict] | None = None
    quote_match: bool = False


def find(line: Line, sentence: str, wordings: Iterable[Wording], **context) -> list[Claim]:
    """The claims ``sentence`` states, one per wording that matches; ``context`` holds what
    the heading above tells (the scenario a section is about, its platform...)."""
    found = []
    for wording in wordings:
        match = wording.pattern.search(sentence)
        if not match:
            continue
        fields = {**context, **wording.fields, **(wording.derive(match) if wording.derive else {})}
        groups = match.groupdict()
        phrase = groups.get("phrase") or match.group(0)
        value = count_value(groups["n"]) if groups.get("n") else fields.pop("value", None)
        comparison = fields.pop("comparison", wording.comparison)
        quote = match.group(0) if wording.quote_match else sentence
        found.append(statement(line, quote, wording.kind, comparison, phrase, value=value,
                               **fields))
    return found


def hedged(match: re.Match) -> dict:
    """"Typically, ..." (a group ``hedge``): the statement holds for most rows, not all."""
    return {"quantifier": "most"} if match.groupdict().get("hedge") else {}
