"""What a solve returns: a deal's ``Solution``, one position's
``PositionResult``, and the names of the engines that produce them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...models import Verdict
from ...models.the_game import Deal, Record, Turn
from ...models.the_game.record import turn_to_dict
from .arguments import LossBound
from .budget import SearchStats
from .kernel import END, Action


class EngineName(StrEnum):
    """An exact engine (``--engine``, a solution's ``engine``)."""

    DFS = "dfs"  # the search: beams, discrepancy search, branch and bound
    CPSAT = "cpsat"  # the CP-SAT model
    AUTO = "auto"  # the portfolio: the search, then CP-SAT with the time left


class SolverBug(RuntimeError):
    """A line the search reported did not replay: never reported as a verdict."""


@dataclass
class Solution:
    verdict: Verdict
    deal: Deal
    first: int  # 1-based starting player of ``turns``
    turns: list[Turn]
    cards_left: int
    proof: str | None
    nodes: int = 0
    seconds: float = 0.0
    engine: EngineName = EngineName.DFS
    # ``cards_left`` is the fewest possible (always so for a win)
    optimal: bool = True
    lower_bound: int = 0  # proven: no line ends with fewer cards left
    details: dict[str, Any] = field(default_factory=dict)

    def record(self) -> Record:
        return Record(self.deal.with_first(self.first), tuple(self.turns), full_view=True)

    def actions(self) -> list[Action]:
        """The line as kernel actions (END after each turn), e.g. a hint."""
        out: list[Action] = []
        for turn in self.turns:
            out.extend((p.card, p.pile) for p in turn.plays)
            out.append(END)
        return out

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        return {
            "verdict": self.verdict,
            "first": self.first,
            "cards_left": self.cards_left,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            # The first turn the search played, counted from 1 like every
            # turn: a record's own turns come before it, kept as played.
            "from_turn": int(self.details.get("from_turn", 0)) + 1,
            "proof": self.proof,
            "engine": self.engine,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        } | self._loss_fields()

    def _loss_fields(self) -> dict[str, Any]:
        """A proven loss names how it was proven and the bound that closed it."""
        if self.verdict != Verdict.LOSS or "proof_kind" not in self.details:
            return {}
        return {
            "proof_kind": self.details["proof_kind"],
            "closing_bound": self.details.get("closing_bound"),
        }


@dataclass
class PositionResult:
    """What the search found from one position (possibly mid-turn).

    ``actions`` continue the game from the position to its end (END marks
    the end of each turn; a first END may close the turn in progress).
    """

    verdict: Verdict  # win: a perfect clear is possible; loss: proven not
    actions: list[Action]
    cards_left: int  # at the end of ``actions``
    optimal: bool  # no game from the position ends with fewer cards left
    lower_bound: int  # proven lower bound on the cards left
    stats: SearchStats
    opt_nodes: int = 0  # nodes of the branch and bound, 0 if it did not run
    floor: int = 0  # the graph bounds' or the loss arguments' lower bound at the position
    argument: LossBound | None = None  # the loss argument that gave ``floor``, if one did
