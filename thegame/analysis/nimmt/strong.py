"""The strong player: determinized search over the card and the row choice.

Every decision is scored over many determinizations (the unseen cards dealt
at random to the other players):

- **Mid-round** (more than ``endgame`` cards in hand): each determinization
  is played out to the end of the round once per candidate card, all
  candidates from the same seed (common random numbers, so the comparison
  between cards is not drowned in the noise of the deals), ``batch`` at a
  time, by the compiled playouts of :mod:`playout`: this player's later
  turns follow the safe policy (a random card among those that take the
  fewest heads now), the others the ranked one (a card weighted by where it
  ranks in the hand, the top fifth three times the bottom fifth: the
  opponent model fitted to the Monte-Carlo agents' choices, which measured
  best; docs/nimmt-players.md). Successive halving drops the worse half of
  the cards still in the running after each of ``phases`` parts of the
  budget (``phases=0``: none, every card gets the whole budget).
- **Endgame** (at most ``endgame`` cards): each determinization also fixes
  the order in which the others play their cards, and the exact best
  response (``Searcher``, the solver of a known deal) prices every first
  move; the card with the lowest mean is played.
- **Row choice** (rule S3, which the published agents do not use): each row
  is priced by its heads now plus the same evaluation of the rest of the
  round from the rows it leaves (the same determinizations for every row).

The player sees only its ``View``. Its budget a decision is a ``Limit``
(budget.py): ``Limit(time=s)`` spends ``s`` CPU seconds, ``Limit(nodes=n)``
plays out ``n`` determinizations (mid-round, rounded up to whole batches) or
solves ``n`` (endgame), and then a game replays.
"""

from __future__ import annotations

from ...models.nimmt.state import View
from ...models.outcome import Limit
from ...models.seeds import SplitMix64
from ...solver.nimmt.problem import Problem, Slots, to_slots
from ...solver.nimmt.search import Searcher
from .budget import steps
from .playout import Objective, Policy, run
from .row_choice import own_card, trick_outcome
from .sampling import sample_sequences, unseen

BATCH = 8  # determinizations per call into the playouts
DEFAULT = Limit(time=0.3)  # CPU seconds a decision


class StrongPlayer:
    """Determinized search with C playouts, an exact endgame and the row choice."""

    def __init__(
        self,
        seed: int,
        limit: Limit = DEFAULT,
        endgame: int = 2,
        me: Policy = Policy.SAFE,
        them: Policy = Policy.RANKED,
        phases: int = 4,
        objective: Objective = Objective.OWN,
        batch: int = BATCH,
    ) -> None:
        self.rng = SplitMix64(seed)
        self.limit = limit
        self.endgame = endgame
        self.me = me
        self.them = them
        self.phases = phases
        self.objective = objective
        self.batch = batch

    def _playout_means(self, view: View, slots: Slots, hand: list[int]) -> list[float]:
        """Per card, its mean heads over the playouts; ``inf`` for a card
        dropped by the successive halving (see the class docstring)."""
        pool, others = unseen(view), view.players - 1
        sums = [0] * len(hand)
        counts = [0] * len(hand)
        alive = list(range(len(hand)))
        halvings = 0
        for used in steps(self.limit, self.batch):
            due = self.phases and counts[alive[0]]
            while due and len(alive) > 2 and used * self.phases >= halvings + 1:
                alive.sort(key=lambda k: (sums[k] / counts[k], k))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
                halvings += 1
            cards = [hand[k] for k in alive]
            totals, done = run(
                self.rng,
                slots,
                hand,
                cards,
                pool,
                others,
                Limit(nodes=self.batch),
                self.me,
                self.them,
                True,
                self.objective,
            )
            for k, total in zip(alive, totals, strict=True):
                sums[k] += total
                counts[k] += done
        return [sums[k] / counts[k] if k in alive else float("inf") for k in range(len(hand))]

    def _exact_means(self, view: View) -> list[float]:
        """Per card: the mean over determinizations of its exact heads with
        the best continuation (best row when it must choose)."""
        hand = list(view.hand)
        pool = unseen(view)
        sums = [0] * len(hand)
        done = 0
        for _ in steps(self.limit):
            done += 1
            seqs = sample_sequences(self.rng, view, len(hand), pool)
            problem = Problem(view.rows, view.hand, seqs, tuple({} for _ in seqs), view.player)
            best: dict[int, int] = {}
            for move, value in Searcher(problem).root_values():
                best[move.card] = min(value, best.get(move.card, value))
            for k, card in enumerate(hand):
                sums[k] += best[card]
        return [s / done for s in sums]

    def card_means(self, view: View) -> list[float]:
        """The score of each card of ``view.hand`` (mean heads; lower is better)."""
        hand = list(view.hand)
        if len(hand) <= self.endgame:
            return self._exact_means(view)
        return self._playout_means(view, to_slots(view.rows), hand)

    def choose_card(self, view: View) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        means = self.card_means(view)
        return view.hand[min(range(len(means)), key=lambda k: (means[k], k))]

    def row_means(self, view: View) -> list[float]:
        """Per row: the heads it takes now plus the mean heads of the rest of
        the round from the rows it leaves."""
        card = own_card(view)
        rest = tuple(c for c in view.hand if c != card)
        outcomes = [trick_outcome(view, card, r) for r in range(4)]
        pool, others = unseen(view), view.players - 1
        exact = not rest or len(rest) <= self.endgame
        # The heads now, in the playouts' unit: the exact endgame prices own
        # heads only, the margin objective ``others`` x own minus the others'.
        margin = self.objective == Objective.MARGIN and not exact
        afters = [(rows, others * h - t if margin else h) for rows, h, t in outcomes]
        if not rest:
            return [float(h) for _, h in afters]
        sums = [0] * 4
        count = 0
        for _ in steps(self.limit, 1 if exact else self.batch):
            if exact:
                seqs = sample_sequences(self.rng, view, len(rest), pool)
                for r, (rows, _) in enumerate(afters):
                    problem = Problem(rows, rest, seqs, tuple({} for _ in seqs), view.player)
                    sums[r] += Searcher(problem).best()
                count += 1
                continue
            seed = self.rng.next()
            for r, (rows, _) in enumerate(afters):
                sums[r] += run(
                    SplitMix64(seed),
                    to_slots(rows),
                    rest,
                    [0],
                    pool,
                    others,
                    Limit(nodes=self.batch),
                    self.me,
                    self.them,
                    objective=self.objective,
                )[0][0]
            count += self.batch
        return [h + s / count for (_, h), s in zip(afters, sums, strict=True)]

    def choose_row(self, view: View) -> int:
        means = self.row_means(view)
        return min(range(4), key=lambda r: (means[r], r))
