"""A level record (a deal and its events) and its replay through the referee."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..check import CheckResult
from ..errors import IllegalMoveError, InvalidInputError
from ..jsonio import item, same_game
from .deal import GAME, Deal
from .state import State


@dataclass(frozen=True)
class Play:
    """Player ``player`` (from 1) puts ``card`` on the pile."""

    player: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card}


@dataclass(frozen=True)
class Star:
    """The team throws a star (rule M4)."""

    def to_dict(self) -> dict[str, Any]:
        return {"star": True}


Event = Play | Star


@dataclass(frozen=True)
class Record:
    deal: Deal
    events: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.deal.to_dict(), "events": [e.to_dict() for e in self.events]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> Record:
        if not isinstance(data, dict):
            raise InvalidInputError("a record must be a JSON object", where)
        same_game(data, GAME, where)
        unknown = sorted(set(data) - {"deal", "events"})
        if unknown:
            raise InvalidInputError(f"unknown key {unknown[0]!r}", where)
        if "deal" not in data:
            raise InvalidInputError('missing "deal"', where)
        deal = Deal.from_dict(data["deal"], f"{where}.deal")
        raw = data.get("events", [])
        if not isinstance(raw, list):
            raise InvalidInputError("events must be a list", f"{where}.events")
        events = tuple(
            event_from_dict(deal, e, item(f"{where}.events", i)) for i, e in enumerate(raw)
        )
        return cls(deal, events)


def event_from_dict(deal: Deal, data: Any, where: str) -> Event:
    """An event: ``{"player": p, "card": c}`` or ``{"star": true}``."""
    if not isinstance(data, dict):
        raise InvalidInputError("an event must be a JSON object", where)
    if set(data) == {"star"}:
        if data["star"] is not True:
            raise InvalidInputError('a star event is {"star": true}', where)
        return Star()
    if set(data) != {"player", "card"}:
        raise InvalidInputError('an event is {"player": p, "card": c} or {"star": true}', where)
    player, card = data["player"], data["card"]
    for name, value in (("player", player), ("card", card)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInputError(f"expected an integer, got {value!r}", f"{where}.{name}")
    if not 1 <= player <= deal.players:
        raise InvalidInputError(
            f"player must be 1..{deal.players}, not {player}", f"{where}.player"
        )
    if not 1 <= card <= deal.rules.high:
        raise InvalidInputError(f"card {card} is not in 1..{deal.rules.high}", f"{where}.card")
    return Play(player, card)


def apply(state: State, event: Event) -> None:
    if isinstance(event, Star):
        state.star()
    else:
        state.play(event.player, event.card)


def check(record: Record) -> CheckResult[State]:
    """Replay every event; stop at the first illegal one (``error`` is
    ``{"event", "rule", "message"}``, events counted from 1 as on screen)."""
    state = State(record.deal)
    for i, event in enumerate(record.events):
        try:
            apply(state, event)
        except IllegalMoveError as e:
            error = {"event": i + 1, "rule": e.rule, "message": e.message}
            return CheckResult(False, state, error, steps_ok=i)
    return CheckResult(True, state, None, steps_ok=len(record.events))
