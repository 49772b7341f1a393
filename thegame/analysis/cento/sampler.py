"""The searching Cento seat engine: determinized Monte-Carlo search over
what its seat cannot see.

A decision deals the unseen cards (the other hands and the draw pile, as
``engine.sight`` gives them) at random into a *world* of the right hand
sizes, each other hand within what its draws told (``hand_slots``), plays
every candidate turn of the seat in it and finishes the game by greedy
play in compiled code (``_ctable.Search.sample``); over many worlds each
candidate's share of wins is counted, and the best share is played. A
candidate is what the seat decides before it sees a drawn card; in a world
a draw is used as greedy play would use the card it brings. Once a drawn
card is seen, each real turn is judged over worlds whose pile starts where
the seat has looked.

The other hands are dealt card by card, the most constrained card first
whichever hand it is in (a hand dealt before another could otherwise take
the few cards a constrained card of the other may be).

The opponents the benchmark meets play greedily, so greedy playouts model
them. The seat's own next turn in a playout looks ahead (``LOOKAHEAD``):
each of its turns is finished by a few greedy playouts in that world and
the one that wins most is taken; its later turns are greedy (a lower bound
on its own play). Where the compiled search is not built, the earlier
engine (``engine.SeatEngine``) decides.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...models.cento.deal import Deal
from ...models.cento.state import State, Turn, apply_turn
from ...models.outcome import Limit
from ...solver.cento import ctable
from ...solver.cento.moves import Outcome
from ...solver.cento.solo import to_turn
from ...solver.cento.table import Key, TableSolver
from .engine import Choice, Option, Rating, SeatEngine, shrewd_score, sight
from .inference import Check, observe

if TYPE_CHECKING:
    from ...solver.cento._ctable import Search

Candidate = tuple[int, int, int, int, int, int, int]
DEFAULT_SECONDS = 1.0  # a decision's thinking time in play
MIN_WORLDS = 8  # worlds sampled even when the time is up at once
BATCH = 32  # worlds a compiled call (the time is checked between calls)

# In a playout the seat's next turn is chosen by 3 greedy playouts of each
# of its turns in that world (the others and its later turns play greedily)
LOOKAHEAD = (1, 3)
TRIES = 100  # deals a world may take to make the others' turns greedy in it
STEPS = 40  # swaps of unseen cards from one world to the next (0: each dealt afresh)


def hand_slots(deal: Deal, history: Sequence[Turn], seat: int) -> dict[int, list[int]]:
    """Per other seat, one mask a card held of the cards it cannot be
    (``inference.observe``)."""
    return observe(deal, history, seat).slots


def _candidate(o: Outcome, drawn_seen: bool = False) -> Candidate:
    """What the seat decides: a draw (its card's use left to the world),
    or, when the drawn card is seen (``drawn_seen``), the turn in full."""
    if o.drew and not drawn_seen:
        return (1, int(o.trick), int(o.immune), 0, 0, 0, 0)
    return (2 if o.drew else 0, int(o.trick), int(o.immune), o.free, o.open, int(o.obliged), o.mask)


class SampleEngine:
    """Determinized search with compiled greedy playouts, for any seat."""

    def __init__(
        self,
        deal: Deal,
        seed: int = 0,
        lookahead: tuple[int, int] | None = None,
        tries: int = TRIES,
        whole: bool = True,
        steps: int = STEPS,
    ) -> None:
        self.deal = deal
        self.lookahead = LOOKAHEAD if lookahead is None else lookahead
        self.tries = tries
        self.whole = whole
        self.steps = steps
        self.greedy = tries > 1 or steps > 0
        self.rng = random.Random(seed)
        self.cores: dict[int, Search] = {}
        self.fallback = SeatEngine(deal, seed)
        self.compiled = ctable.usable(deal)
        self.slots: dict[int, list[int]] | None = None
        self.checks: tuple[Check, ...] = ()

    @classmethod
    def blind(cls, deal: Deal, seed: int = 0) -> SampleEngine:
        """The engine without reading the others as greedy players: each
        world dealt once within what any legal play tells."""
        return cls(deal, seed, tries=1, steps=0)

    def _core(self, seat: int) -> Search:
        core = self.cores.get(seat)
        if core is None:
            core = self.cores[seat] = ctable._core(TableSolver(self.deal, seat), None)
        return core

    def choose(self, state: State, limit: Limit, history: Sequence[Turn] | None = None) -> Choice:
        """The turn for ``state.to_move``; ``limit``: seconds, or worlds as
        nodes; ``history``: the turns that led to ``state`` (what they tell
        of the other hands shapes the worlds). The true hands of others and
        the pile are used only to know which cards are unseen, never where
        they are."""
        if not self.compiled:
            return self.fallback.choose(state, limit)
        seat = state.to_move
        self._observe(history, seat)
        truth = TableSolver(self.deal, seat)
        key = truth.key_of(state)
        options = truth.expand(key)
        if len(options) == 1:
            return Choice(to_turn(seat + 1, options[0][0]), 0, None)
        for t in options:
            if t[1] is None and t[2]:  # a turn that ends the game won
                return Choice(to_turn(seat + 1, t[0]), 0, 1.0)
        groups: dict[Candidate, list[Option]] = {}
        for t in options:
            groups.setdefault(_candidate(t[0]), []).append(t)
        if len(groups) == 1:  # the draw is forced and its card seen
            return self._after_draw(state, truth, key, options, limit)
        names = list(groups)
        score = self._estimate(state, key, names, (), limit)
        prior = [min(shrewd_score(truth, key, t[0]) for t in groups[n]) for n in names]
        best = _pick(score, prior)
        chosen = groups[names[best]]
        worlds, share = score[best][1], score[best][0] / max(1, score[best][1])
        if len(chosen) == 1:
            return Choice(to_turn(seat + 1, chosen[0][0]), worlds, share)
        later = self._after_draw(state, truth, key, chosen, limit)
        return Choice(later.turn, worlds + later.worlds, share)

    def _observe(self, history: Sequence[Turn] | None, seat: int) -> None:
        """What the turns so far tell ``seat`` of the other hands."""
        seen = (
            None if history is None else observe(self.deal, history, seat, self.whole, self.greedy)
        )
        self.slots = None if seen is None else seen.slots
        self.checks = () if seen is None else seen.checks

    def rate(
        self, state: State, played: Turn, limit: Limit, history: Sequence[Turn] | None = None
    ) -> Rating | None:
        """The estimated share of wins of the turn played against the best
        candidate's, over the same worlds of what the seat saw (``history``:
        the turns before ``state``); None when the seat had one choice."""
        if not self.compiled:
            return self.fallback.rate(state, played, limit)
        seat = state.to_move
        self._observe(history, seat)
        truth = TableSolver(self.deal, seat)
        key = truth.key_of(state)
        after = truth.key_of(apply_turn(self.deal, state, played))
        groups: dict[Candidate, list[Option]] = {}
        mine: Candidate | None = None
        for t in truth.expand(key):
            name = _candidate(t[0])
            groups.setdefault(name, []).append(t)
            if t[1] == after or (
                t[1] is None and played.to_dict() == to_turn(seat + 1, t[0]).to_dict()
            ):
                mine = name
        if len(groups) < 2 or mine is None:
            return None
        names = list(groups)
        score = self._estimate(state, key, names, (), limit)
        shares = [w / n if n else 0.0 for w, n in score]
        best = max(range(len(names)), key=shares.__getitem__)
        worlds = min(n for _, n in score)
        return Rating(shares[names.index(mine)], shares[best], groups[names[best]][0][0], worlds)

    def _after_draw(
        self, state: State, truth: TableSolver, key: Key, options: list[Option], limit: Limit
    ) -> Choice:
        """Choose among turns that drew a card the seat has now seen."""
        seat = state.to_move
        if any(t[0].trick for t in options) or state.draw_pos >= len(self.deal.draw):
            # After a Trick the others drew first: the seat's card is further
            # down a pile it has not seen. Rare; the shrewd turn decides.
            best_o = min(options, key=lambda t: shrewd_score(truth, key, t[0]))
            return Choice(to_turn(seat + 1, best_o[0]), 0, None)
        names = [_candidate(t[0], drawn_seen=True) for t in options]
        head = (self.deal.draw[state.draw_pos],)
        score = self._estimate(state, key, names, head, limit)
        prior = [shrewd_score(truth, key, t[0]) for t in options]
        best = _pick(score, prior)
        return Choice(
            to_turn(seat + 1, options[best][0]),
            score[best][1],
            score[best][0] / max(1, score[best][1]),
        )

    def _estimate(
        self,
        state: State,
        key: Key,
        names: list[Candidate],
        head: tuple[int, ...],
        limit: Limit,
    ) -> list[list[int]]:
        """Wins and worlds per candidate, over worlds until the limit."""
        seat = state.to_move
        core = self._core(seat)
        view = sight(self.deal, key, state.draw_pos, seat)
        unseen = list(view.unseen)
        for c in head:
            unseen.remove(c)
        if self.slots is None:
            slots = tuple(() if i == seat else (0,) * n for i, n in enumerate(view.sizes))
        else:
            # in seat order: the checks name slots by their place here
            slots = tuple(() if i == seat else tuple(self.slots[i]) for i in range(len(view.sizes)))
        args = (view.small, view.own, bytes(unseen), bytes(head), slots, tuple(names))
        score = [[0, 0] for _ in names]
        start = time.monotonic()
        left = limit.nodes or 10**9
        done = 0
        while left > 0 and (
            done < MIN_WORLDS or limit.time is None or time.monotonic() - start < limit.time
        ):
            batch = min(left, BATCH)
            got = core.sample(
                *args,
                self.rng.getrandbits(64),
                batch,
                *self.lookahead,
                self.checks,
                self.tries,
                self.steps,
            )
            for i, (wins, worlds) in enumerate(got):
                score[i][0] += wins
                score[i][1] += worlds
            left -= batch
            done += batch
        return score


# strong: the searching engine reading the others as greedy players; normal:
# the same search within what any legal play tells (the engine before that
# reading); easy: the earlier one-turn engine (``engine.SeatEngine``)
STRENGTHS = ("strong", "normal", "easy")


def engine_choice(
    deal: Deal,
    state: State,
    turns: Sequence[Turn],
    limit: Limit,
    strength: str = "strong",
    seed: int = 0,
) -> Choice:
    """The turn of the seat to move from what it sees, by the engine of
    ``strength``; ``turns``: the game's turns so far (they lead to ``state``)."""
    if strength == "easy":
        return SeatEngine(deal, seed).choose(state, limit)
    engine = SampleEngine(deal, seed) if strength == "strong" else SampleEngine.blind(deal, seed)
    return engine.choose(state, limit, turns)


def _pick(score: list[list[int]], prior: list[tuple[float, int]]) -> int:
    """The best share of wins; the shrewd score breaks ties."""

    def rank(i: int) -> tuple[float, tuple[float, int]]:
        wins, worlds = score[i]
        share = wins / worlds if worlds else -1.0
        return share, (-prior[i][0], -prior[i][1])

    return max(range(len(score)), key=rank)


__all__ = ["DEFAULT_SECONDS", "STRENGTHS", "SampleEngine", "engine_choice", "hand_slots", "observe"]
