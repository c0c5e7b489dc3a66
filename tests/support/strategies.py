"""Hypothesis strategies for physically consistent submissions: the benchmarks' generator
(bench/synthetic.py, the one generator of submissions) with Hypothesis making its draws, so
that a failing submission shrinks to a small one."""
from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from perfwh.core.paths import PROJECT_ROOT

sys.path.insert(0, str(PROJECT_ROOT / "bench"))
import synthetic  # noqa: E402  (the generator of submissions)

SHAPES = tuple(synthetic.SHAPES)


class HypothesisDraw:
    """`synthetic.Draw` over a Hypothesis ``draw``."""

    def __init__(self, draw):
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def choice(self, options: Sequence) -> Any:
        return self.draw(st.sampled_from(list(options)))

    def uniform(self, low: float, high: float) -> float:
        return self.draw(st.floats(low, high, allow_nan=False, allow_infinity=False))

    def chance(self, p: float) -> bool:
        return self.draw(st.floats(0, 1, exclude_max=True)) < p

    def sample(self, options: Sequence, low: int, high: int) -> list:
        picked = self.draw(st.lists(st.integers(0, len(options) - 1), min_size=low,
                                    max_size=min(high, len(options)), unique=True))
        return [o for i, o in enumerate(options) if i in set(picked)]


@st.composite
def submissions(draw, shapes: Sequence[str] = SHAPES, most: int = 3,
                oddity_rate: float = 0.0) -> synthetic.Submission:
    """A submission of one to ``most`` of ``shapes`` (several machines in one file), its
    series made odd with ``oddity_rate``; `synthetic.Submission` records the oddities."""
    chosen = draw(st.lists(st.sampled_from(list(shapes)), min_size=1, max_size=most))
    return synthetic.combined(HypothesisDraw(draw), chosen, oddity_rate)
