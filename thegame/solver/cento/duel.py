"""Two-player Cento with everything known: who wins with best play.

Negamax with alpha-beta over whole turns, values +1 (the player to move
wins), 0 (a shared win after every player passed, rule Z1), -1, and a
transposition table keyed from the mover's side (so both seats share
entries). The game is finite (every turn plays or draws a card, or is a
pass; two passes in a row end it), so the search is complete; with a
``Limit`` it stops and says ``unknown``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from ...models.cento.deal import CentoDeal
from ...models.cento.engine import CentoState, initial_state
from ...models.cento.record import CentoTurn
from ...models.outcome import NO_LIMIT, Limit
from .budget import Budget, OutOfBudget
from .moves import Outcome, TurnGen, add_cards
from .solo import to_turn
from .tables import tables

# (my mask, my free, their mask, their free, open, pos, I am bound, my immunity,
#  their immunity, passes in a row)
Key = tuple[int, int, int, int, int, int, bool, bool, bool, int]
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class DuelResult:
    """``value`` is for player 1: +1 wins, -1 loses, 0 shared; None when unknown."""

    value: int | None
    turns: tuple[CentoTurn, ...]
    line_complete: bool
    nodes: int
    seconds: float

    @property
    def proven(self) -> bool:
        return self.value is not None

    @property
    def winner(self) -> int | None:
        return {1: 1, -1: 2}.get(self.value) if self.value is not None else None

    def to_dict(self) -> dict[str, Any]:
        verdict = {1: "win", -1: "loss", 0: "tie", None: "unknown"}[self.value]
        return {
            "winner": self.winner,
            "proven": self.proven,
            "tie": self.value == 0,
            "verdict": verdict,
            "turns": [t.to_dict() for t in self.turns],
            "line_complete": self.line_complete,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def _cards(mask: int, free: int) -> int:
    return mask.bit_count() + free


class DuelSolver:
    def __init__(self, deal: CentoDeal, limit: Limit = NO_LIMIT) -> None:
        if deal.players != 2:
            raise ValueError("the duel solver takes a two-player deal")
        self.deal = deal
        self.tab = tables(deal.rules)
        self.gen = TurnGen(self.tab, deal.draw)
        self.budget = Budget(limit)
        self.tt: dict[Key, tuple[int, int]] = {}

    def key_of(self, state: CentoState) -> Key:
        """The solver's key of an engine position, from the mover's side."""
        me, op = state.to_move, 1 - state.to_move
        me_m, me_f = add_cards(0, 0, state.hands[me])
        op_m, op_f = add_cards(0, 0, state.hands[op])
        return (
            me_m,
            me_f,
            op_m,
            op_f,
            self.tab.canon[state.open],
            state.draw_pos,
            state.obliged,
            state.immune[me],
            state.immune[op],
            state.passes,
        )

    def children(self, key: Key) -> list[tuple[Outcome, Key | None, int | None]]:
        """Each distinct outcome with the child key, or None and the value for
        the mover when the turn ends the game."""
        me_m, me_f, op_m, op_f, open_c, pos, bound, me_imm, op_imm, passes = key
        seen: set[Key] = set()
        out: list[tuple[Outcome, Key | None, int | None]] = []
        for o in self.gen.outcomes(me_m, me_f, open_c, pos, bound and not me_imm, me_imm, 1):
            if o.won:
                return [(o, None, 1)]
            om, of = op_m, op_f
            if o.trick:  # rule Z5: the other player drew for the Trick
                om, of = add_cards(om, of, self.deal.draw[pos : o.trick_pos])
            p2 = passes + 1 if o.passed else 0
            if p2 >= 2:  # rule Z1: both passed in a row; fewer cards wins
                mine, theirs = _cards(o.mask, o.free), _cards(om, of)
                out.append((o, None, (mine < theirs) - (mine > theirs)))
                continue
            child: Key = (om, of, o.mask, o.free, o.open, o.pos, o.obliged, op_imm, o.immune, p2)
            if child not in seen:
                seen.add(child)
                out.append((o, child, None))
        # Most cards shed first, so wins are found early.
        out.sort(key=lambda t: _cards(t[0].mask, t[0].free))
        return out

    def negamax(self, key: Key, alpha: int, beta: int) -> int:
        self.budget.tick()
        entry = self.tt.get(key)
        if entry is not None:
            value, flag = entry
            if flag == EXACT:
                return value
            if flag == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        alpha0 = alpha
        best = -2
        for _, child, terminal in self.children(key):
            v = terminal if child is None else -self.negamax(child, -beta, -alpha)
            assert v is not None
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (best, flag)
        return best

    def line(self, key: Key, value: int, seat: int) -> tuple[list[CentoTurn], bool]:
        """A principal line: at each turn a move that keeps the proven value."""
        turns: list[CentoTurn] = []
        try:
            while True:
                for o, child, terminal in self.children(key):
                    v = terminal if child is None else -self.negamax(child, -1, 1)
                    if v == value:
                        turns.append(to_turn(seat + 1, o))
                        break
                else:  # cannot happen after a completed proof
                    return turns, False
                if child is None:
                    return turns, True
                key, value, seat = child, -value, 1 - seat
        except OutOfBudget:
            return turns, False

    def solve(self, state: CentoState | None = None) -> DuelResult:
        """From the deal, or from a position of it; the value is for player 1."""
        state = initial_state(self.deal) if state is None else state
        if state.over:
            raise ValueError("the game is over")
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            root = self.key_of(state)
            try:
                value = self.negamax(root, -1, 1)
            except OutOfBudget:
                return DuelResult(None, (), False, self.budget.nodes, self.budget.seconds)
            turns, complete = self.line(root, value, state.to_move)
            sign = 1 if state.to_move == 0 else -1
            return DuelResult(
                sign * value, tuple(turns), complete, self.budget.nodes, self.budget.seconds
            )
        finally:
            sys.setrecursionlimit(old)


def solve_duel(
    deal: CentoDeal, limit: Limit = NO_LIMIT, state: CentoState | None = None
) -> DuelResult:
    """Who wins the two-player deal with best play from both sides."""
    return DuelSolver(deal, limit).solve(state)
