"""The published Monte-Carlo agents of 6 nimmt!, implemented from their
descriptions (docs/nimmt-players.md gives the sources):

- :class:`MCS`: the weight-free "MCS" agent of rl-6-nimmt (Brehmer and
  Gutsche): for each card in hand, ``min(mc_max, 10 x n!)`` rollouts (n the
  cards in hand), each dealing the unseen cards at random to the other
  players and playing every player uniformly at random to the end of the
  round; the card with the fewest mean heads. Their game has no row choice:
  a card below every row takes the fewest-heads row, and so does this player.
- :class:`MCS100`: the Monte-Carlo search of ThingsAI's 6-nimmt-agent: 100
  such rollouts per card, and the row choice (rule S3) simulated as well:
  per row, its heads now plus the mean heads of 100 rollouts of the rest of
  the round from the rows it leaves.

Both run their rollouts with :mod:`playout` (random policy for everyone,
fewest-heads rows inside the rollouts). With a ``limit`` (a ``Limit``,
budget.py) a player ignores its published count and spends that budget
per decision instead, in batches over all candidates (the equal-time
benchmark).
"""

from __future__ import annotations

from math import factorial

from ...models.nimmt.rules import fewest_heads_row
from ...models.nimmt.state import View
from ...models.outcome import Limit
from ...models.seeds import SplitMix64
from ...solver.nimmt.problem import to_slots
from .budget import steps
from .playout import run
from .row_choice import after_own_trick, own_card
from .sampling import unseen

BATCH = 4  # rollouts per candidate between two looks at the clock


def _best(candidates: list[int], totals: list[float]) -> int:
    """The candidate with the lowest total; ties to the first (lowest card or row)."""
    return candidates[min(range(len(candidates)), key=lambda k: (totals[k], k))]


class MCS:
    """rl-6-nimmt's MCS (see the module docstring)."""

    def __init__(
        self, seed: int, mc_max: int = 200, per_card: int = 10, limit: Limit | None = None
    ) -> None:
        self.rng = SplitMix64(seed)
        self.mc_max = mc_max
        self.per_card = per_card
        self.limit = limit  # None: the published count
        self.last_rollouts = 0  # per card, in the last card decision (for tests and reports)

    def rollouts(self, cards: int) -> int:
        """The published count per card with ``cards`` cards in hand."""
        # n! grows past mc_max by n = 5; do not compute 10! for nothing.
        return self.mc_max if cards >= 8 else min(self.mc_max, self.per_card * factorial(cards))

    def choose_card(self, view: View) -> int:
        hand = list(view.hand)
        if len(hand) == 1:
            self.last_rollouts = 0
            return hand[0]
        slots, pool, others = to_slots(view.rows), unseen(view), view.players - 1
        if self.limit is None:
            n = self.rollouts(len(hand))
            totals, _ = run(self.rng, slots, hand, hand, pool, others, Limit(nodes=n))
            self.last_rollouts = n
            return _best(hand, [float(t) for t in totals])
        sums = [0] * len(hand)
        self.last_rollouts = 0
        for _ in steps(self.limit, BATCH):
            batch, done = run(self.rng, slots, hand, hand, pool, others, Limit(nodes=BATCH))
            sums = [a + b for a, b in zip(sums, batch, strict=True)]
            self.last_rollouts += done
        return _best(hand, [float(t) for t in sums])

    def choose_row(self, view: View) -> int:
        return fewest_heads_row(view.rows)


class MCS100:
    """ThingsAI's Monte-Carlo search (see the module docstring)."""

    def __init__(self, seed: int, sims: int = 100, limit: Limit | None = None) -> None:
        self.rng = SplitMix64(seed)
        self.sims = sims
        self.limit = limit  # None: the published count
        self.last_rollouts = 0

    def choose_card(self, view: View) -> int:
        hand = list(view.hand)
        if len(hand) == 1:
            self.last_rollouts = 0
            return hand[0]
        slots, pool, others = to_slots(view.rows), unseen(view), view.players - 1
        sums = [0] * len(hand)
        n = self.sims if self.limit is None else BATCH
        self.last_rollouts = 0
        for _ in steps(self.limit or Limit(nodes=n), n):
            batch, done = run(self.rng, slots, hand, hand, pool, others, Limit(nodes=n))
            sums = [a + b for a, b in zip(sums, batch, strict=True)]
            self.last_rollouts += done
        return _best(hand, [float(t) for t in sums])

    def row_means(self, view: View) -> list[float]:
        """Per row: its heads now plus the mean heads of the rollouts of the rest."""
        card = own_card(view)
        rest = [c for c in view.hand if c != card]
        afters = [after_own_trick(view, card, r) for r in range(4)]
        if not rest:
            return [float(h) for _, h in afters]
        pool, others = unseen(view), view.players - 1
        n = self.sims if self.limit is None else BATCH
        sums = [0] * 4
        count = 0
        for _ in steps(self.limit or Limit(nodes=n), n):
            for r, (rows, _) in enumerate(afters):
                totals, _ = run(self.rng, to_slots(rows), rest, [0], pool, others, Limit(nodes=n))
                sums[r] += totals[0]
            count += n
        return [h + s / count for (_, h), s in zip(afters, sums, strict=True)]

    def choose_row(self, view: View) -> int:
        means = self.row_means(view)
        return _best([0, 1, 2, 3], means)
