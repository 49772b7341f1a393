"""The record of a Cento game (the deal and every turn, as JSON) and its referee:
replay a record turn by turn and report the first illegal step."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from ..jsonio import load_json
from .deal import Deal, card_to_json
from .rules import CentoStatus
from .state import State, Turn, TurnError, apply_turn, initial_state


@dataclass(frozen=True)
class Record:
    deal: Deal
    turns: tuple[Turn, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.deal.to_dict(), "turns": [t.to_dict() for t in self.turns]}

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict) or "deal" not in data:
            raise InvalidInputError('a record must be an object with "deal" and "turns"', "record")
        deal = Deal.from_dict(data["deal"], "deal")
        turns_raw = data.get("turns", [])
        if not isinstance(turns_raw, list):
            raise InvalidInputError("turns must be a list", "turns")
        turns = tuple(Turn.from_dict(t, f"turns[{i}]") for i, t in enumerate(turns_raw))
        return cls(deal, turns)

    @classmethod
    def from_json(cls, text: str, where: str = "record") -> Record:
        return cls.from_dict(load_json(text, where))


@dataclass(frozen=True)
class CheckResult:
    """``turn``/``play`` (1-based) and ``rule`` locate the first illegal step;
    ``state`` is the position after the last legal turn."""

    legal: bool
    state: State
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


def check(record: Record) -> CheckResult:
    """Replay ``record``; legal, or the first illegal turn and play with the rule id."""
    state = initial_state(record.deal)
    for i, turn in enumerate(record.turns):
        try:
            state = apply_turn(record.deal, state, turn)
        except TurnError as e:
            left = len(record.deal.draw) - state.draw_pos
            return CheckResult(False, state, i, left, i + 1, e.play, e.rule, e.message)
    return CheckResult(True, state, len(record.turns), len(record.deal.draw) - state.draw_pos)
