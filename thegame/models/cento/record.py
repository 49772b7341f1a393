"""The record of a Cento game: the deal and every turn, as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from ..jsonio import load_json
from .deal import CentoDeal
from .rules import FREE, HUNDRED


@dataclass(frozen=True)
class CentoPlay:
    """One card laid on the open card; ``named`` is the value a free card is
    given (rule Z4), None for a number card."""

    card: int
    named: int | None = None

    @property
    def value(self) -> int:
        """The value the open card takes."""
        return self.named if self.named is not None else self.card

    def to_dict(self) -> dict[str, Any]:
        if self.card == FREE:
            return {"card": "free", "as": self.named}
        return {"card": self.card}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> CentoPlay:
        if not isinstance(data, dict) or "card" not in data:
            raise InvalidInputError('a play must be an object with "card"', where)
        extra = set(data) - {"card", "as"}
        if extra:
            raise InvalidInputError(f"unknown field {sorted(extra)[0]!r}", where)
        card = data["card"]
        if card == "free":
            named = data.get("as")
            if not isinstance(named, int) or isinstance(named, bool):
                raise InvalidInputError('a free card needs "as": the value it is named', where)
            return cls(FREE, named)
        if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= HUNDRED:
            raise InvalidInputError(f'card must be 1..100 or "free", not {card!r}', where)
        if "as" in data:
            raise InvalidInputError('only a free card is named with "as"', where)
        return cls(card)


@dataclass(frozen=True)
class CentoTurn:
    """One turn: the player (from 1), whether the 100 was shown as Trick
    first or laid out as Treat (rule Z5), the cards drawn, then the plays."""

    player: int
    plays: tuple[CentoPlay, ...] = ()
    draw: int = 0
    trick: bool = False
    treat: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"player": self.player}
        if self.trick:
            d["trick"] = True
        if self.treat:
            d["treat"] = True
        d["plays"] = [p.to_dict() for p in self.plays]
        d["draw"] = self.draw
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str) -> CentoTurn:
        if not isinstance(data, dict):
            raise InvalidInputError("a turn must be a JSON object", where)
        extra = set(data) - {"player", "plays", "draw", "trick", "treat"}
        if extra:
            raise InvalidInputError(f"unknown field {sorted(extra)[0]!r}", where)
        player = data.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or player < 1:
            raise InvalidInputError("player must be an integer from 1", f"{where}.player")
        plays_raw = data.get("plays", [])
        if not isinstance(plays_raw, list):
            raise InvalidInputError("plays must be a list", f"{where}.plays")
        plays = tuple(
            CentoPlay.from_dict(p, f"{where}.plays[{i}]") for i, p in enumerate(plays_raw)
        )
        draw = data.get("draw", 0)
        if not isinstance(draw, int) or isinstance(draw, bool) or draw < 0:
            raise InvalidInputError("draw must be an integer >= 0", f"{where}.draw")
        flags = {}
        for key in ("trick", "treat"):
            value = data.get(key, False)
            if not isinstance(value, bool):
                raise InvalidInputError(f"{key} must be true or false", f"{where}.{key}")
            flags[key] = value
        return cls(player, plays, draw, flags["trick"], flags["treat"])


@dataclass(frozen=True)
class CentoRecord:
    deal: CentoDeal
    turns: tuple[CentoTurn, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.deal.to_dict(), "turns": [t.to_dict() for t in self.turns]}

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> CentoRecord:
        if not isinstance(data, dict) or "deal" not in data:
            raise InvalidInputError('a record must be an object with "deal" and "turns"', "record")
        deal = CentoDeal.from_dict(data["deal"], "deal")
        turns_raw = data.get("turns", [])
        if not isinstance(turns_raw, list):
            raise InvalidInputError("turns must be a list", "turns")
        turns = tuple(CentoTurn.from_dict(t, f"turns[{i}]") for i, t in enumerate(turns_raw))
        return cls(deal, turns)

    @classmethod
    def from_json(cls, text: str, where: str = "record") -> CentoRecord:
        return cls.from_dict(load_json(text, where))
