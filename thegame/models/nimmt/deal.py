"""One round's deal (rule S6): four row starters and a hand per player, seeded or from JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from ..jsonio import item, same_game
from ..seeds import SplitMix64
from ..words import plural
from .rules import HAND, HIGH, LOW, MAX_PLAYERS, MIN_PLAYERS, ROWS

GAME_NAME = "6-nimmt"


def check_players(players: int, where: str = "--players") -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInputError(
            f"{plural(players, 'player')}; 6 nimmt! is for {MIN_PLAYERS} to {MAX_PLAYERS} "
            "(rule S1)",
            where,
        )


def deal_from_deck(
    deck: list[int], players: int
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Rows and hands from a shuffled deck: row r starts with ``deck[r-1]``
    (r = 1..4), player p holds ``deck[4 + 10(p-1) : 4 + 10p]`` (sorted)."""
    rows = tuple(deck[:ROWS])
    hands = tuple(
        tuple(sorted(deck[ROWS + HAND * p : ROWS + HAND * (p + 1)])) for p in range(players)
    )
    return rows, hands


def shuffled_deck(rng: SplitMix64) -> list[int]:
    deck = list(range(LOW, HIGH + 1))
    rng.shuffle(deck)
    return deck


@dataclass(frozen=True)
class Deal:
    """Row starters (row 1 first) and one 10-card hand per player (player 1 first)."""

    rows: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return len(self.hands)

    @classmethod
    def from_seed(cls, seed: int, players: int) -> Deal:
        """``SplitMix64(seed).shuffle([1..104])``, then ``deal_from_deck``."""
        check_players(players)
        rows, hands = deal_from_deck(shuffled_deck(SplitMix64(seed)), players)
        return cls(rows, hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "players": self.players,
            "rows": list(self.rows),
            "hands": [list(h) for h in self.hands],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "deal") -> Deal:
        if not isinstance(data, dict):
            raise InvalidInputError("expected an object", where)
        same_game(data, GAME_NAME, where)
        rows = card_list(data.get("rows"), f"{where}.rows")
        if len(rows) != ROWS:
            raise InvalidInputError(
                f"{len(rows)} row starters; there are {ROWS} rows (rule S1)", f"{where}.rows"
            )
        hands_data = data.get("hands")
        if not isinstance(hands_data, list):
            raise InvalidInputError("expected a list of hands", f"{where}.hands")
        check_players(len(hands_data), f"{where}.hands")
        if "players" in data and data["players"] != len(hands_data):
            raise InvalidInputError(
                f"players is {data['players']!r} but there are {len(hands_data)} hands",
                f"{where}.players",
            )
        hands = []
        for p, h in enumerate(hands_data):
            hand = card_list(h, item(f"{where}.hands", p))
            if len(hand) != HAND:
                raise InvalidInputError(
                    f"a hand of {len(hand)} cards; each player holds {HAND} (rule S1)",
                    item(f"{where}.hands", p),
                )
            hands.append(tuple(sorted(hand)))
        seen: set[int] = set()
        for card in [*rows, *(c for h in hands for c in h)]:
            if card in seen:
                raise InvalidInputError(f"card {card} appears twice (rule S1)", where)
            seen.add(card)
        return cls(tuple(rows), tuple(hands))


def card(value: Any, where: str) -> int:
    """One card 1..104 from JSON (a bool is not a card)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{value!r} is not a card number", where)
    if not LOW <= value <= HIGH:
        raise InvalidInputError(f"card {value} is not in {LOW}..{HIGH} (rule S1)", where)
    return value


def card_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidInputError("expected a list of cards", where)
    return [card(v, item(where, i)) for i, v in enumerate(value)]
