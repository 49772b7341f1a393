"""The strong player's endgame: the exact win chance when few cards are hidden.

Alone at the table with a small draw pile, an expectimax over the sets of
hidden cards the draws can take, choosing among the turns the blind policy
weighs; it reads the hidden cards as a set, never their order, and gives up
past a limit of positions. In full: the docs page games/the-game.md ("The
blind player and the review, in full").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations

from ...models.outcome import Status
from ...models.the_game import GameState, Play
from .blind import BlindPolicy, clear_line, deal_hidden
from .rollout import hidden_cards

# Draw piles larger than this are left to the playouts: up to two cards,
# every turn (it plays at least two) empties the pile, so each candidate
# costs one search for a line that plays the rest; from three on, the turns
# after the next need the policy's enumeration, which can take seconds.
MAX_HIDDEN = 2


class _OverBudget(Exception):
    """The search weighed more positions than it may."""


def covers(state: GameState) -> bool:
    """Whether the exact endgame applies: one player, the classic turn
    cycle without fire cards, and a draw pile of 1 to ``MAX_HIDDEN`` cards."""
    rules = state.rules
    pile = len(state.draw_pile())
    return (
        type(state) is GameState
        and state.players == 1
        and not rules.fire_cards
        and len(state.stocks) == 1
        and 0 < pile <= MAX_HIDDEN
    )


class ExactEndgame:
    """Win chances of candidate turns by expectimax over the draws (see the
    module notes), within ``limit`` positions weighed."""

    def __init__(self, policy: BlindPolicy, limit: int, deadline: float | None = None) -> None:
        self.policy = policy
        self.limit = limit
        self.deadline = deadline  # time.monotonic() past which it gives up
        self.nodes = 0
        self._memo: dict[tuple[tuple[int, ...], frozenset[int], tuple[int, ...]], float] = {}

    def chances(self, state: GameState, cands: Sequence[Sequence[Play]]) -> list[float] | None:
        """Each candidate turn's exact win chance from ``state`` (inside its
        turn), or None when the limit ran out first."""
        try:
            return [self._after_turn(_after(state, c)) for c in cands]
        except _OverBudget:
            return None

    def first_win(
        self, state: GameState, cands: Sequence[Sequence[Play]]
    ) -> tuple[int | None, bool]:
        """The first candidate (in the given order) whose turn wins for
        certain, and whether every candidate was weighed: (None, True) says
        no candidate wins for certain, (None, False) that the limit ran out."""
        try:
            for k, c in enumerate(cands):
                if self._after_turn(_after(state, c)) >= 1.0:
                    return k, True
        except _OverBudget:
            return None, False
        return None, True

    def _count(self) -> None:
        self.nodes += 1
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if self.nodes > self.limit or late:
            raise _OverBudget

    def _after_turn(self, after: GameState) -> float:
        """The chance to win once the turn that led to ``after`` ends: the
        mean, over the sets the draw can take, of the best next turn."""
        if after.over:
            return 1.0 if after.status == Status.WON else 0.0
        hidden = hidden_cards(after)
        want = after.rules.hand_size(1) - len(after.hands[after.current])
        take = max(0, min(want, len(hidden)))
        total = 0.0
        count = 0
        for drawn in combinations(hidden, take):
            rest = [c for c in hidden if c not in drawn]
            nxt = deal_hidden(after, [*drawn, *rest])
            nxt.end_turn()
            total += self._turn_start(nxt)
            count += 1
        return total / count

    def _turn_start(self, state: GameState) -> float:
        """The best chance from the start of a turn (the draw done)."""
        if state.over:
            return 1.0 if state.status == Status.WON else 0.0
        key = (
            tuple(state.tops),
            frozenset(state.hands[state.current]),
            tuple(hidden_cards(state)),
        )
        known = self._memo.get(key)
        if known is not None:
            return known
        self._count()
        if not key[2]:
            # Nothing hidden, no fire: won exactly when the hand goes down
            # in one turn (more turns without a draw add nothing).
            best = 1.0 if clear_line(state) is not None else 0.0
            self._memo[key] = best
            return best
        best = 0.0
        for _, plays in self.policy.turn_options(state):
            best = max(best, self._after_turn(_after(state, plays)))
            if best >= 1.0:
                break
        self._memo[key] = best
        return best


def _after(state: GameState, plays: Sequence[Play]) -> GameState:
    st = state.copy()
    for p in plays:
        st.play(p.card, p.pile)
    return st
