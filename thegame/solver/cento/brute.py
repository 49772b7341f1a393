"""Engine-only brute force for small decks: every legal turn from the rules
engine (``legal_turns``), a plain memo on the exact engine state, no bounds,
no canonical classes. The reference the fast solvers are tested against."""

from __future__ import annotations

import sys
from functools import cache

from ...models.cento.deal import Deal
from ...models.cento.rules import CentoStatus
from ...models.cento.state import State, initial_state, legal_turns

INF = 1 << 30


def brute_solo_turns(deal: Deal, start: State | None = None) -> int | None:
    """The fewest turns to empty the single hand, None if it cannot be done:
    breadth-first over exact engine states, one level per turn."""
    level = {initial_state(deal) if start is None else start}
    seen = set(level)
    turns = 0
    while level:
        if any(s.status == CentoStatus.WON for s in level):
            return turns
        nxt: set[State] = set()
        for state in level:
            if state.over:
                continue
            for _, child in legal_turns(deal, state):
                if child not in seen:
                    seen.add(child)
                    nxt.add(child)
        level = nxt
        turns += 1
    return None


def brute_duel_value(deal: Deal, start: State | None = None) -> int:
    """+1 if player 1 wins with best play, -1 if player 2 does, 0 for a shared win."""

    @cache
    def value(state: State) -> int:
        if state.over:
            if len(state.winners) != 1:
                return 0
            return 1 if state.winners[0] == 0 else -1
        vals = [value(nxt) for _, nxt in legal_turns(deal, state)]
        return max(vals) if state.to_move == 0 else min(vals)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10000))
    try:
        return value(initial_state(deal) if start is None else start)
    finally:
        sys.setrecursionlimit(old)


def brute_table_win(deal: Deal, player: int, start: State | None = None) -> bool:
    """Whether seat ``player`` (from 1) can force being among the winners
    whatever every other player does together: an OR over the seat's own
    turns, an AND over everybody else's."""
    k = player - 1

    @cache
    def wins(state: State) -> bool:
        if state.over:
            return k in state.winners
        outcomes = (wins(nxt) for _, nxt in legal_turns(deal, state))
        return any(outcomes) if state.to_move == k else all(outcomes)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10000))
    try:
        return wins(initial_state(deal) if start is None else start)
    finally:
        sys.setrecursionlimit(old)
