"""Monte Carlo estimate of a level's odds under rule M6, to cross-check the count."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .gap import gap_lives
from .odds import check_sizes


@dataclass(frozen=True)
class SampledOdds:
    """How many of ``samples`` random deals cost 0, 1, 2, ... lives."""

    counts: tuple[int, ...]
    samples: int

    def floats(self) -> list[float]:
        return [c / self.samples for c in self.counts]

    def interval(self, k: int) -> tuple[float, float]:
        """The 95% Wilson interval of P(k lives lost)."""
        n = self.samples
        p = (self.counts[k] if k < len(self.counts) else 0) / n
        z = 1.959963984540054
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lives_lost": self.floats(),
            "exact": False,
            "samples": self.samples,
            "interval95": [list(self.interval(k)) for k in range(len(self.counts))],
        }


def sample_level(
    players: int,
    cards_each: int,
    tolerance: int,
    samples: int,
    *,
    high: int = 100,
    star: bool = False,
    seed: int = 0,
    tick: Callable[[int], None] | None = None,
) -> SampledOdds:
    """Deal ``samples`` random levels (Python's ``random.Random(seed)``) and play
    each under rule M6; with ``star`` each player's lowest card goes first (M4)."""
    check_sizes(players, cards_each, high, tolerance)
    rng = random.Random(seed)
    m = players * cards_each
    counts: dict[int, int] = {}
    deck = range(1, high + 1)
    for i in range(samples):
        cards = rng.sample(deck, m)
        hands = [sorted(cards[p * cards_each : (p + 1) * cards_each]) for p in range(players)]
        if star:
            for h in hands:
                h.pop(0)
        lost = gap_lives(hands, tolerance)
        counts[lost] = counts.get(lost, 0) + 1
        if tick is not None and i % 10000 == 0:
            tick(i)
    top = max(counts)
    return SampledOdds(tuple(counts.get(k, 0) for k in range(top + 1)), samples)
