"""Players for whole games (rule S5) that see only what a player sees (a ``View``).

Every player is seeded (``SplitMix64``) so a benchmark replays exactly.
Unless a player says otherwise, a card below every row takes the row with
the fewest heads, ties to the lowest row number (a decision of ours: docs/games/nimmt.md).
"""

from __future__ import annotations

from collections.abc import Callable

from ...models.errors import InvalidInputError
from ...models.nimmt.rules import fewest_heads_row
from ...models.nimmt.state import Player, View
from ...models.outcome import Limit
from ...models.seeds import SplitMix64
from ...solver.nimmt.problem import Problem, Slots, Trick, to_slots
from ...solver.nimmt.search import Searcher
from .budget import steps
from .row_choice import after_own_trick, own_card
from .sampling import Sequences, sample_sequences, unseen
from .strong import StrongPlayer


class RandomPlayer:
    """A uniformly random card; the fewest-heads row."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose_card(self, view: View) -> int:
        return view.hand[self.rng.below(len(view.hand))]

    def choose_row(self, view: View) -> int:
        return fewest_heads_row(view.rows)


class LowestPlayer:
    """The lowest card first; the fewest-heads row."""

    def choose_card(self, view: View) -> int:
        return view.hand[0]

    def choose_row(self, view: View) -> int:
        return fewest_heads_row(view.rows)


def _fewest(slots: Slots) -> int:
    return min(range(4), key=lambda i: (slots[i][2], i))


def _trick(slots: Slots, others: tuple[tuple[int, int], ...]) -> Trick:
    ranked = sorted((c, p) for p, c in others)
    return Trick(slots, [c for c, _ in ranked], [p for _, p in ranked], {})


def rollout(slots: Slots, order: list[int], sequences: Sequences) -> int:
    """The heads this player takes playing ``order`` against ``sequences``;
    every card below every row takes the fewest-heads row."""
    total = 0
    for card, others in zip(order, sequences, strict=True):
        tr = _trick(slots, others)
        row = _fewest(slots) if tr.below_all(card) else 0
        total += tr.heads(card, row)
        slots = tr.after(card, row)
    return total


class FlatMonteCarlo:
    """Flat Monte Carlo: every candidate gets the same number of random
    playouts (unseen cards dealt at random, everyone then plays random cards),
    and the candidate with the fewest mean heads is chosen; ``playouts`` per
    decision in all, split evenly over the candidates."""

    def __init__(self, seed: int, playouts: int = 200) -> None:
        self.rng = SplitMix64(seed)
        self.playouts = playouts

    def _mean(self, view: View, slots: Slots, hand: list[int], n: int) -> float:
        pool = unseen(view)
        total = 0
        for _ in range(n):
            seqs = sample_sequences(self.rng, view, len(hand), pool)
            order = list(hand)
            self.rng.shuffle(order)
            total += rollout(slots, order, seqs)
        return total / n

    def choose_card(self, view: View) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        n = max(1, self.playouts // len(view.hand))
        pool = unseen(view)
        slots = to_slots(view.rows)
        best, best_card = float("inf"), view.hand[0]
        for card in view.hand:
            rest = [c for c in view.hand if c != card]
            total = 0
            for _ in range(n):
                seqs = sample_sequences(self.rng, view, len(view.hand), pool)
                tail = list(rest)
                self.rng.shuffle(tail)
                total += rollout(slots, [card, *tail], seqs)
            if total / n < best:
                best, best_card = total / n, card
        return best_card

    def choose_row(self, view: View) -> int:
        card = own_card(view)
        rest = [c for c in view.hand if c != card]
        n = max(1, self.playouts // 4)
        best, best_row = float("inf"), 0
        for row in range(4):
            rows, h = after_own_trick(view, card, row)
            mean = self._mean(view, to_slots(rows), rest, n) if rest else 0.0
            if h + mean < best:
                best, best_row = h + mean, row
        return best_row


class BlindPlayer:
    """Sampling with the exact best response inside each sample: ``samples``
    times, deal the unseen cards at random into the others' hands in a random
    order; score each candidate card in that sample by

    * its exact heads with the best continuation (``Searcher.root_values``,
      perfect-information Monte Carlo: clairvoyant, so optimistic), plus
    * ``weight`` times the mean heads of ``playouts`` random playouts of the
      same sample starting with that card (blind afterwards, so pessimistic);

    and play the card with the lowest mean score (ties: the lower card).
    The clairvoyant value alone ties most cards at 0 heads in mid-round,
    and the playouts rank those ties by how awkward the rest of the hand is.
    The exact term is used only while at most ``exact_cards`` cards are in
    hand: it is cheap there and the clairvoyance costs least, and the time
    saved early buys more samples.
    """

    def __init__(
        self,
        seed: int,
        samples: int = 10,
        playouts: int = 2,
        weight: float = 1.0,
        exact_cards: int = 10,
    ) -> None:
        self.rng = SplitMix64(seed)
        self.samples = samples
        self.playouts = playouts
        self.weight = weight
        self.exact_cards = exact_cards

    def _playouts(self, slots: Slots, first: list[int], rest: list[int], seqs: Sequences) -> float:
        """``weight`` times the mean heads of playing ``first`` then ``rest``
        in a random order against ``seqs``."""
        if not self.playouts or not self.weight:
            return 0.0
        total = 0
        for _ in range(self.playouts):
            order = list(rest)
            self.rng.shuffle(order)
            total += rollout(slots, first + order, seqs)
        return self.weight * total / self.playouts

    def card_means(self, view: View) -> dict[int, float]:
        """Each card's mean score over the samples (best row when it must choose)."""
        pool = unseen(view)
        slots = to_slots(view.rows)
        totals = dict.fromkeys(view.hand, 0.0)
        for _ in range(self.samples):
            seqs = sample_sequences(self.rng, view, len(view.hand), pool)
            problem = Problem(view.rows, view.hand, seqs, tuple({} for _ in seqs), view.player)
            best = dict.fromkeys(view.hand, 0)
            if len(view.hand) <= self.exact_cards:
                best = {}
                for move, value in Searcher(problem).root_values():
                    best[move.card] = min(value, best.get(move.card, value))
            for card, value in best.items():
                rest = [c for c in view.hand if c != card]
                totals[card] += value + self._playouts(slots, [card], rest, seqs)
        return {c: t / self.samples for c, t in totals.items()}

    def choose_card(self, view: View) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        means = self.card_means(view)
        return min(view.hand, key=lambda c: (means[c], c))

    def choose_row(self, view: View) -> int:
        """The row whose mean score (its heads now plus the same sampled
        evaluation of the rest of the hand) is lowest."""
        card = own_card(view)
        if len(view.hand) == 1:
            return fewest_heads_row(view.rows)
        totals = self.row_totals(view, card)
        return min(range(4), key=lambda r: (totals[r], r))

    def row_totals(self, view: View, card: int) -> list[float]:
        """Per row, the sum over ``samples`` samples of its score."""
        rest = tuple(c for c in view.hand if c != card)
        pool = unseen(view)
        totals = [0.0] * 4
        afters = [after_own_trick(view, card, r) for r in range(4)]
        for _ in range(self.samples):
            seqs = sample_sequences(self.rng, view, len(rest), pool)
            for r, (rows, h) in enumerate(afters):
                problem = Problem(rows, rest, seqs, tuple({} for _ in seqs), view.player)
                later = self._playouts(to_slots(rows), [], list(rest), seqs)
                exact = Searcher(problem).best() if len(rest) <= self.exact_cards else 0
                totals[r] += h + exact + later
        return totals


class TimedBlindPlayer(BlindPlayer):
    """``BlindPlayer`` that draws samples until its ``Limit`` is spent (at
    least one; budget.py), for benchmarks at equal time per decision."""

    def __init__(
        self,
        seed: int,
        limit: Limit,
        playouts: int = 2,
        weight: float = 1.0,
        exact_cards: int = 6,
    ) -> None:
        super().__init__(seed, 1, playouts, weight, exact_cards)
        self.limit = limit

    def card_means(self, view: View) -> dict[int, float]:
        totals = dict.fromkeys(view.hand, 0.0)
        done = 0
        for _ in steps(self.limit):
            done += 1
            for card, mean in super().card_means(view).items():  # one sample
                totals[card] += mean
        return {c: t / done for c, t in totals.items()}

    def row_totals(self, view: View, card: int) -> list[float]:
        totals = [0.0] * 4
        for _ in steps(self.limit):
            totals = [a + b for a, b in zip(totals, super().row_totals(view, card), strict=True)]
        return totals


LEVELS: dict[str, Callable[[int], Player]] = {
    "easy": RandomPlayer,
    "normal": BlindPlayer,
    "strong": StrongPlayer,  # 0.3 s of CPU time per decision by default
}
"""The opponents' strength levels: named factories taking a seed."""


def by_level(name: str, seed: int) -> Player:
    """A seeded player of the named level (``LEVELS``: easy, normal, strong)."""
    try:
        factory = LEVELS[name]
    except KeyError:
        names = ", ".join(LEVELS)
        raise InvalidInputError(f"no level {name!r}; the levels are {names}", "--level") from None
    return factory(seed)
