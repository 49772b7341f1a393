"""One level's deal: every player's hand, dealt from a seed or read from JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from ..jsonio import item, same_game
from ..seeds import SplitMix64
from ..words import plural
from .rules import HIGH, Rules

GAME = "the-mind"


@dataclass(frozen=True)
class Deal:
    """The hands of one level (rule M2: level n, n cards each); each hand sorted."""

    rules: Rules
    level: int
    hands: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return self.rules.players

    @classmethod
    def from_seed(cls, seed: int, players: int, level: int, high: int = HIGH) -> Deal:
        """The seeded deal: ``SplitMix64(seed).shuffle([1, 2, ..., high])``, then
        player 1 gets the first ``level`` cards, player 2 the next ``level``, and
        so on; the rest stay out of the game. Frozen forever (pinned in tests)."""
        rules = Rules(players, high)
        rules.check_level(level)
        deck = list(range(1, high + 1))
        SplitMix64(seed).shuffle(deck)
        hands = tuple(
            tuple(sorted(deck[i * level : (i + 1) * level])) for i in range(players)
        )
        return cls(rules, level, hands)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": GAME,
            "players": self.players,
            "level": self.level,
            "hands": [list(h) for h in self.hands],
        }
        if self.rules.high != HIGH:
            out["rules"] = {"high": self.rules.high}
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "deal") -> Deal:
        if not isinstance(data, dict):
            raise InvalidInputError("a deal must be a JSON object", where)
        unknown = sorted(set(data) - {"game", "players", "level", "hands", "rules"})
        if unknown:
            raise InvalidInputError(f"unknown key {unknown[0]!r}", where)
        same_game(data, GAME, where)
        for key in ("players", "level", "hands"):
            if key not in data:
                raise InvalidInputError(f'missing "{key}"', where)
        players = _int(data["players"], f"{where}.players")
        level = _int(data["level"], f"{where}.level")
        high = HIGH
        raw_rules = data.get("rules", {})
        if not isinstance(raw_rules, dict):
            raise InvalidInputError("rules must be an object", f"{where}.rules")
        extra = sorted(set(raw_rules) - {"high"})
        if extra:
            raise InvalidInputError(f"unknown rule {extra[0]!r}", f"{where}.rules")
        if "high" in raw_rules:
            high = _int(raw_rules["high"], f"{where}.rules.high")
        try:
            rules = Rules(players, high)
        except InvalidInputError as e:
            raise InvalidInputError(e.message, f"{where}.{e.where}") from None
        rules.check_level(level, f"{where}.level")
        raw_hands = data["hands"]
        if not isinstance(raw_hands, list) or len(raw_hands) != players:
            raise InvalidInputError(f"hands must be a list of {players} hands", f"{where}.hands")
        seen: set[int] = set()
        hands = []
        for i, hand in enumerate(raw_hands):
            at = item(f"{where}.hands", i)
            if not isinstance(hand, list):
                raise InvalidInputError(f"player {i + 1}'s hand must be a list of cards", at)
            if len(hand) != level:
                raise InvalidInputError(
                    f"player {i + 1} holds {plural(len(hand), 'card')}; "
                    f"level {level} deals {level} to each (rule M2)",
                    at,
                )
            cards = []
            for j, card in enumerate(hand):
                c = _int(card, item(at, j))
                if not 1 <= c <= high:
                    raise InvalidInputError(f"card {c} is not in 1..{high}", item(at, j))
                if c in seen:
                    raise InvalidInputError(f"card {c} is dealt twice", item(at, j))
                seen.add(c)
                cards.append(c)
            hands.append(tuple(sorted(cards)))
        return cls(rules, level, tuple(hands))


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"expected an integer, got {value!r}", where)
    return value
