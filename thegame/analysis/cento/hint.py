"""``hint``: replay a Cento record and find the best next turn with the exact solvers.

Alone: the next turn of a fewest-turns line from the position reached (and
how many turns are left). Two players: the next turn of a principal line
and who wins from here with best play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models.cento.record import Record, check
from ...models.cento.state import Turn
from ...models.errors import IllegalMoveError, InvalidInputError
from ...models.outcome import NO_LIMIT, Limit
from ...solver.cento.duel import solve_duel
from ...solver.cento.solo import solve_solo
from ...solver.cento.table import TableVerdict, solve_table


@dataclass(frozen=True)
class Hint:
    """``hint`` is None when no turn is proven best (budget ran out, or a
    solo hand that cannot be emptied)."""

    player: int
    turn: int
    hint: Turn | None
    result: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "turn": self.turn,
            "hint": self.hint.to_dict() if self.hint else None,
            **self.result,
        }


def hint_for(record: Record, limit: Limit = NO_LIMIT) -> Hint:
    """The best next turn after the record's turns."""
    replay = check(record)
    if replay.error is not None:
        e = replay.error
        raise IllegalMoveError(
            e["rule"], f"turn {e['turn']}: {e['message']} (fix the record first)"
        )
    state = replay.state
    if state.over:
        raise InvalidInputError("the game is over: there is no next turn", "record")
    deal = record.deal
    if deal.players == 1:
        solo = solve_solo(deal, limit, state)
        first = solo.turns[0] if solo.turns else None
        return Hint(1, len(record.turns) + 1, first, solo.to_dict())
    if deal.players == 2:
        duel = solve_duel(deal, limit, state)
        first = duel.turns[0] if duel.optimal and duel.turns else None
        return Hint(state.to_move + 1, len(record.turns) + 1, first, duel.to_dict())
    # 3-6 players: the first turn of a forced win against the others together.
    table = solve_table(deal, state.to_move + 1, limit, state)
    first = table.turns[0] if table.verdict == TableVerdict.WIN and table.turns else None
    return Hint(state.to_move + 1, len(record.turns) + 1, first, table.to_dict())
