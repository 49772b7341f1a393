"""Two-player Cento with everything known: who wins with best play.

An AND-OR search over whole turns with values +1 (the player to move wins),
0 (a shared win after both players passed, rule Z1) and -1, in two phases:

1. iterative deepening on the number of turns (half the budget): a position
   is decided within a depth or left open; decided positions go to a table
   keyed from the mover's side (both seats share entries). A win found for
   the mover stops the search of a position (the OR cut); a loss or a shared
   win needs every outcome decided. This finds short forced wins early.
2. negamax with alpha-beta to the end of the game, with a transposition
   table of bounds, reusing every position decided in phase 1.

The game is finite (every turn plays or draws a card or passes; two passes
in a row end it), so phase 2 always ends with the exact value: the search is
complete. With a ``Limit`` it stops and says ``unknown``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from ...models import interrupt
from ...models.cento.deal import Deal
from ...models.cento.state import State, Turn, initial_state
from ...models.outcome import NO_LIMIT, Limit, OutOfBudget
from .budget import NodeCounter
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
    turns: tuple[Turn, ...]
    line_complete: bool
    nodes: int
    seconds: float

    @property
    def optimal(self) -> bool:
        """The value is proven (and ``turns`` keep it, best play from both sides)."""
        return self.value is not None

    @property
    def winner(self) -> int | None:
        return {1: 1, -1: 2}.get(self.value) if self.value is not None else None

    def to_dict(self) -> dict[str, Any]:
        verdict = {1: "win", -1: "loss", 0: "tie", None: "unknown"}[self.value]
        return {
            "winner": self.winner,
            "optimal": self.optimal,
            "tie": self.value == 0,
            "verdict": verdict,
            "turns": [t.to_dict() for t in self.turns],
            "line_complete": self.line_complete,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


def _cards(mask: int, free: int) -> int:
    return mask.bit_count() + free


class DuelSolver:
    def __init__(self, deal: Deal, limit: Limit = NO_LIMIT) -> None:
        if deal.players != 2:
            raise ValueError("the duel solver takes a two-player deal")
        self.deal = deal
        self.tab = tables(deal.rules)
        self.gen = TurnGen(self.tab, deal.draw)
        self.budget = NodeCounter(limit)
        self.tt: dict[Key, tuple[int, int]] = {}  # alpha-beta bounds
        self.exact: dict[Key, int] = {}  # proven values (iterative deepening)
        self.shallow: dict[Key, int] = {}  # depth searched without a decision

    def key_of(self, state: State) -> Key:
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
        known = self.exact.get(key)
        if known is not None:
            return known
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

    def portfolio(self, root: Key) -> int:
        """Half the budget (or 200,000 nodes without one) for iterative
        deepening, which finds short forced wins; then alpha-beta to the end
        of the game, which reuses every decided position."""
        full = self.budget.phase(0.5, 200_000)
        try:
            return self.deepen(root)
        except OutOfBudget:
            pass
        finally:
            self.budget.restore(full)
        value = self.negamax(root, -1, 1)
        self.exact[root] = value
        return value

    def deepen(self, root: Key) -> int:
        """Iterative deepening on turns: short forced wins are found before the
        search dives into long lines. Complete: the game is finite, so some
        depth decides every position (rule Z1's end by passes included)."""
        depth = 0
        while True:
            depth += 1
            value = self.bounded(root, depth)
            if value is not None:
                return value

    def bounded(self, key: Key, depth: int) -> int | None:
        """The value for the mover if it is decided within ``depth`` more
        turns, else None. Decided values are exact and kept for good."""
        known = self.exact.get(key)
        if known is not None:
            return known
        if depth <= 0 or self.shallow.get(key, 0) >= depth:
            return None
        self.budget.tick()
        best = -2
        open_end = False
        for _, child, terminal in self.children(key):
            v = terminal if child is None else self.bounded(child, depth - 1)
            if v is None:
                open_end = True
                continue
            if child is not None:
                v = -v
            if v == 1:  # a win for the mover ends the search here
                self.exact[key] = 1
                return 1
            best = max(best, v)
        if open_end:
            self.shallow[key] = depth
            return None
        self.exact[key] = best
        return best

    def known(self, key: Key) -> int | None:
        """The exact value of a position if the tables hold it."""
        known = self.exact.get(key)
        if known is not None:
            return known
        entry = self.tt.get(key)
        if entry is not None:
            value, flag = entry
            # A bound at the end of the scale is exact.
            if flag == EXACT or (flag == LOWER and value == 1) or (flag == UPPER and value == -1):
                return value
        return None

    def value_of(self, key: Key) -> int:
        """The exact value of a position, from the tables or by a search."""
        value = self.known(key)
        if value is None:
            value = self.negamax(key, -1, 1)
            self.exact[key] = value
        return value

    def line(self, key: Key, value: int, seat: int) -> tuple[list[Turn], bool]:
        """A principal line: at each turn a move that keeps the proven value
        (one whose value the tables hold first, else one found by a search).
        False when the budget ran out before the line reached the end."""
        turns: list[Turn] = []
        try:
            while True:
                options = self.children(key)
                pick = None
                for o, child, terminal in options:
                    v = terminal if child is None else self.known(child)
                    if v is not None and (v if child is None else -v) == value:
                        pick = (o, child)
                        break
                if pick is None:
                    for o, child, terminal in options:
                        v = terminal if child is None else -self.value_of(child)
                        if v == value:
                            pick = (o, child)
                            break
                if pick is None:  # cannot happen after a completed proof
                    return turns, False
                o, nxt = pick
                turns.append(to_turn(seat + 1, o))
                if nxt is None:
                    return turns, True
                key, value, seat = nxt, -value, 1 - seat
        except OutOfBudget:
            return turns, False

    def solve(self, state: State | None = None) -> DuelResult:
        """From the deal, or from a position of it; the value is for player 1."""
        state = initial_state(self.deal) if state is None else state
        if state.over:
            raise ValueError("the game is over")
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            root = self.key_of(state)
            try:
                value = self.portfolio(root)
            except OutOfBudget:
                return DuelResult(None, (), False, self.budget.nodes, self.budget.seconds)
            turns, complete = self.line(root, value, state.to_move)
            sign = 1 if state.to_move == 0 else -1
            return DuelResult(
                sign * value, tuple(turns), complete, self.budget.nodes, self.budget.seconds
            )
        finally:
            sys.setrecursionlimit(old)


@interrupt.polled
def solve_duel(deal: Deal, limit: Limit = NO_LIMIT, state: State | None = None) -> DuelResult:
    """Who wins the two-player deal with best play from both sides."""
    return DuelSolver(deal, limit).solve(state)
