"""The referee: replay a record turn by turn and report the first illegal step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deal import card_to_json
from .engine import CentoState, TurnError, apply_turn, initial_state
from .record import CentoRecord
from .rules import CentoStatus


@dataclass(frozen=True)
class CheckResult:
    """``turn``/``play`` (1-based) and ``rule`` locate the first illegal step;
    ``state`` is the position after the last legal turn."""

    legal: bool
    state: CentoState
    turns_played: int
    draw_left: int
    turn: int | None = None
    play: int | None = None
    rule: str | None = None
    message: str | None = None

    @property
    def status(self) -> CentoStatus:
        return self.state.status

    @property
    def winner(self) -> int | None:
        """The single winner (1-based), None while in progress or on a shared win."""
        w = self.state.winners
        return w[0] + 1 if len(w) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        error = None
        if not self.legal:
            error = {
                "turn": self.turn,
                "play": self.play,
                "rule": self.rule,
                "message": self.message,
            }
        return {
            "legal": self.legal,
            "error": error,
            "turns_played": self.turns_played,
            "status": str(self.status),
            "winner": self.winner,
            "winners": [w + 1 for w in self.state.winners],
            "cards_left": [len(h) for h in self.state.hands],
            "hands": [[card_to_json(c) for c in h] for h in self.state.hands],
            "open": self.state.open,
            "draw_left": self.draw_left,
        }


def check(record: CentoRecord) -> CheckResult:
    """Replay ``record``; legal, or the first illegal turn and play with the rule id."""
    state = initial_state(record.deal)
    for i, turn in enumerate(record.turns):
        try:
            state = apply_turn(record.deal, state, turn)
        except TurnError as e:
            left = len(record.deal.draw) - state.draw_pos
            return CheckResult(False, state, i, left, i + 1, e.play, e.rule, e.message)
    return CheckResult(True, state, len(record.turns), len(record.deal.draw) - state.draw_pos)
