"""Cento at a table of 2 to 6 players with everything known: the answer for
one seat (``solve_table``) with its line, from the df-pn of ``tablesearch``
(compiled where built: ``ctable``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...models import interrupt
from ...models.cento.deal import Deal
from ...models.cento.state import State, Turn, initial_state
from ...models.outcome import NO_LIMIT, Limit, OutOfBudget, Verdict
from .budget import NodeCounter
from .ctable import new_solver
from .moves import Outcome
from .solo import to_turn
from .tablesearch import (
    FREE_SHIFT,
    INF,
    NUMBERS,
    Goal,
    Key,
    Progress,
    TableSolver,
    TableVerdict,
    _cards,
)


@dataclass(frozen=True)
class TableResult:
    """The answer for seat ``player`` (from 1) at a table of ``players``:
    ``verdict`` with a line (K's proven turns against the coalition's replies
    for a win, the coalition's for a loss), the search's figures and, when
    undecided, how far it got."""

    players: int
    player: int
    verdict: TableVerdict
    turns: tuple[Turn, ...]
    line_complete: bool
    nodes: int
    seconds: float
    progress: Progress = field(compare=False)
    start_turn: int = 0

    @property
    def optimal(self) -> bool:
        return self.verdict != TableVerdict.UNKNOWN

    @property
    def value(self) -> int | None:
        """For the seat asked about: +1 wins, 0 shares (two players), -1 loses."""
        return {
            TableVerdict.WIN: 1,
            TableVerdict.TIE: 0,
            TableVerdict.LOSS: -1,
            TableVerdict.UNKNOWN: None,
        }[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "players": self.players,
            "player": self.player,
            "question": question(self.players, self.player),
            "verdict": str(self.verdict),
            "optimal": self.optimal,
            "turns": [t.to_dict() for t in self.turns],
            "line_complete": self.line_complete,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }
        if not self.optimal:
            d["progress"] = self.progress.to_dict()
        return d


def question(players: int, player: int) -> str:
    if players == 2:
        return f"does player {player} win with best play from both sides"
    return f"can player {player} force a win (shared wins count) whatever the others do together"


def _line(
    solvers: list[TableSolver], root: Key, want: bool, budget: NodeCounter
) -> tuple[list[Turn], bool]:
    """The line of a decided root. ``want``: K wins. With two solvers (two
    players' shared win) K's turns come from the first (K shares) and the
    others' from the second (K does not win alone)."""
    turns: list[Turn] = []
    key = root
    k = solvers[0].k
    try:
        while True:
            mover = key[0] & 7
            s = solvers[0] if mover == k or len(solvers) == 1 else solvers[1]
            goal_met = want if s is solvers[0] else False
            options = s.expand(key)
            pick: tuple[Outcome, Key | None] | None = None
            fallback: tuple[Outcome, Key | None] | None = None
            for o, child, won in options:
                v = won if child is None else s.value(child)
                if v is None and child is not None and (mover == k) == goal_met:
                    continue
                if v == goal_met:
                    if child is None:  # an end that keeps the verdict ends the line soonest
                        pick = (o, child)
                        break
                    if pick is None or _resists(s, child, pick[1], mover == k):
                        pick = (o, child)
                elif fallback is None and v is None:
                    fallback = (o, child)
            if pick is None:
                if fallback is None:
                    return turns, False
                # Every reply of the losing side loses; a reply the table has
                # not seen needs its own proof.
                o, child = fallback
                assert child is not None
                if s.prove(child) is not goal_met:
                    return turns, False
                pick = fallback
            o, nxt = pick
            turns.append(to_turn(mover + 1, o))
            if nxt is None:
                return turns, True
            key = nxt
    except OutOfBudget:
        return turns, False


def _resists(s: TableSolver, child: Key, other: Key | None, k_moves: bool) -> bool:
    """Among turns that keep the verdict, the side to move takes the one that
    leaves it the fewest cards (K's own, or the coalition's nearest to empty)."""
    if other is None:
        return False
    me = [_cards(h) for h in child[1:]]
    them = [_cards(h) for h in other[1:]]
    k = s.k
    if k_moves:
        return me[k] < them[k]
    return min(c for i, c in enumerate(me) if i != k) < min(c for i, c in enumerate(them) if i != k)


@interrupt.polled
def solve_table(
    deal: Deal, player: int = 1, limit: Limit = NO_LIMIT, state: State | None = None
) -> TableResult:
    """Seat ``player`` (from 1) against the coalition of every other player.
    Two players: win, tie (a shared win) or loss with best play from both
    sides; 3 to 6: win (among the winners) or loss."""
    state = initial_state(deal) if state is None else state
    if state.over:
        raise ValueError("the game is over")
    budget = NodeCounter(limit)
    k = player - 1
    share = new_solver(deal, k, Goal.SHARE, budget)
    root = share.key_of(state)
    got = share.prove(root)
    solvers = [share]
    verdict = TableVerdict.UNKNOWN
    if got is False:
        verdict = TableVerdict.LOSS
    elif got and deal.players > 2:
        verdict = TableVerdict.WIN
    elif got:
        alone = new_solver(deal, k, Goal.ALONE, budget, share)
        more = alone.prove(root)
        if more:
            verdict, solvers = TableVerdict.WIN, [alone]
        elif more is False:
            verdict, solvers = TableVerdict.TIE, [share, alone]
        else:
            alone.progress.nearest = share.progress.nearest
            share = alone
    turns: list[Turn] = []
    complete = False
    if verdict != TableVerdict.UNKNOWN:
        want = verdict != TableVerdict.LOSS
        turns, complete = _line(solvers, root, want, budget)
    return TableResult(
        deal.players,
        player,
        verdict,
        tuple(turns),
        complete,
        budget.nodes,
        budget.seconds,
        share.progress,
    )


def greedy_turn(deal: Deal, state: State) -> Turn:
    """The turn that leaves the mover the fewest cards (the first such turn
    the generator makes): the fallback when no proven turn is known."""
    solver = TableSolver(deal, state.to_move)
    options = solver.expand(solver.key_of(state))
    best = min(options, key=lambda t: _cards(t[0].mask | t[0].free << FREE_SHIFT))
    return to_turn(state.to_move + 1, best[0])


__all__ = [
    "FREE_SHIFT",
    "INF",
    "NUMBERS",
    "Goal",
    "Key",
    "Progress",
    "TableResult",
    "TableSolver",
    "TableVerdict",
    "Verdict",
    "solve_table",
]
