"""Two-player Cento with everything known: who wins with best play.

The table search (``table``) answers for player 1: first whether player 1
can at least share the win, then, if so, whether player 1 wins alone. The
value is +1 (player 1 wins), 0 (a shared win after both players passed,
rule Z1) or -1 (player 2 wins), with a line that keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models import interrupt
from ...models.cento.deal import Deal
from ...models.cento.state import State, Turn
from ...models.outcome import NO_LIMIT, Limit
from .table import solve_table


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


@interrupt.polled
def solve_duel(deal: Deal, limit: Limit = NO_LIMIT, state: State | None = None) -> DuelResult:
    """Who wins the two-player deal with best play from both sides."""
    if deal.players != 2:
        raise ValueError(f"the two-player answer takes a two-player deal, not {deal.players}")
    r = solve_table(deal, 1, limit, state)
    return DuelResult(r.value, r.turns, r.line_complete, r.nodes, r.seconds)
