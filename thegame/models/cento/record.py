"""The record of a Cento game (the deal and every turn, as JSON) and its referee:
replay a record turn by turn and report the first illegal step."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..check import CheckResult
from ..errors import InvalidInputError
from ..jsonio import load_json
from .deal import Deal
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


def check(record: Record) -> CheckResult[State]:
    """Replay ``record``; legal, or the first illegal turn and play with the
    rule id (``error`` is ``{"turn", "play", "rule", "message"}``, counted
    from 1 as on screen; ``state`` is the position after the last legal turn)."""
    state = initial_state(record.deal)
    for i, turn in enumerate(record.turns):
        try:
            state = apply_turn(record.deal, state, turn)
        except TurnError as e:
            error = {"turn": i + 1, "play": e.play, "rule": e.rule, "message": e.message}
            return CheckResult(False, state, error, i, _facts(record.deal, state, i))
    played = len(record.turns)
    return CheckResult(True, state, None, played, _facts(record.deal, state, played))


def _facts(deal: Deal, state: State, played: int) -> dict[str, int]:
    return {"turns_played": played, "draw_left": len(deal.draw) - state.draw_pos}
