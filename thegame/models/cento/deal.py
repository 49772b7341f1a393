"""A Cento deal (rule Z6): every hand, the open card and the draw pile, from a seed or JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInputError
from ..seeds import SplitMix64
from .rules import FREE, Rules, card_text

MAX_PLAYERS = 6


def card_to_json(card: int) -> int | str:
    return "free" if card == FREE else card


def card_from_json(value: Any, rules: Rules, where: str) -> int:
    """A card of a deal: an int ``low..high`` or the string ``"free"``."""
    if value == "free":
        return FREE
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInputError(f'a card must be an integer or "free", not {value!r}', where)
    if not rules.low <= value <= rules.high:
        raise InvalidInputError(f"card {value} is not within {rules.low}..{rules.high}", where)
    return value


def _sort_key(card: int) -> int:
    return 1000 if card == FREE else card


@dataclass(frozen=True)
class Deal:
    """Hands (player 1 first, each sorted, free cards last), the open card and
    the draw pile (top first)."""

    rules: Rules
    hands: tuple[tuple[int, ...], ...]
    open: int
    draw: tuple[int, ...]
    seed: int | None = field(default=None, compare=False)

    @property
    def players(self) -> int:
        return len(self.hands)

    @classmethod
    def from_seed(cls, seed: int, players: int = 1, rules: Rules | None = None) -> Deal:
        """The seeded deal (rule Z6).

        The deck ``rules.deck()`` (numbers ascending, then the free cards) is
        shuffled by ``SplitMix64(seed).shuffle``. Player 1 gets the first
        ``hand_size`` cards, player 2 the next, and so on. The first card not
        dealt that is a number card (not free, not a Trick/Treat 100) is the open
        card; free cards and the Trick/Treat 100 met before it go, in the order
        met, to the bottom of the draw pile. The draw pile is the rest, top first.
        """
        rules = rules or Rules()
        deck = rules.deck()
        SplitMix64(seed).shuffle(deck)
        return cls.from_deck(deck, players, rules, seed)

    @classmethod
    def from_deck(
        cls,
        deck: list[int],
        players: int = 1,
        rules: Rules | None = None,
        seed: int | None = None,
    ) -> Deal:
        """The deal of a deck in deal order (rule Z6), as ``from_seed`` deals
        its shuffled deck; ``deck`` must hold exactly the cards of ``rules.deck()``."""
        rules = rules or Rules()
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidInputError(f"players must be 1..{MAX_PLAYERS}, not {players}", "--players")
        if sorted(deck) != sorted(rules.deck()):
            raise InvalidInputError(
                f"the deck must hold the cards {rules.low}..{rules.high} once each and "
                f"{rules.free_cards} free cards (rule Z6)",
                "--deck",
            )
        h = rules.hand_size
        if players * h >= len(deck):
            raise InvalidInputError(
                f"{players} hands of {h} need more than the {len(deck)} cards of the deck", "deal"
            )
        hands = tuple(
            tuple(sorted(deck[i * h : (i + 1) * h], key=_sort_key)) for i in range(players)
        )
        rest = deck[players * h :]
        skipped: list[int] = []
        while rest and not rules.is_number(rest[0]):
            skipped.append(rest.pop(0))
        if not rest:
            raise InvalidInputError("no number card is left for the open card", "deal")
        open_card = rest.pop(0)
        return cls(rules, hands, open_card, tuple(rest + skipped), seed)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": "cento",
            "players": self.players,
            "hands": [[card_to_json(c) for c in hand] for hand in self.hands],
            "open": self.open,
            "draw": [card_to_json(c) for c in self.draw],
            "free": self.rules.free_cards,
            "rules": self.rules.to_dict(),
        }
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str = "deal") -> Deal:
        rules = _rules_of(data, where)
        hands_raw = data["hands"]
        if not isinstance(hands_raw, list) or not 1 <= len(hands_raw) <= MAX_PLAYERS:
            raise InvalidInputError(
                f"hands must be a list of 1..{MAX_PLAYERS} hands", f"{where}.hands"
            )
        if "players" in data and data["players"] != len(hands_raw):
            raise InvalidInputError(
                f"players is {data['players']!r} but there are {len(hands_raw)} hands", where
            )
        cards = _CardReader(rules)
        hands = tuple(
            cards.hand(hand, i, f"{where}.hands[{i}]") for i, hand in enumerate(hands_raw)
        )
        open_card = cards.take(data["open"], f"{where}.open")
        if not rules.is_number(open_card):
            raise InvalidInputError(
                f"the open card must be a number card, not {card_text(open_card)}", f"{where}.open"
            )
        draw_raw = data["draw"]
        if not isinstance(draw_raw, list):
            raise InvalidInputError("draw must be a list of cards", f"{where}.draw")
        draw = tuple(cards.take(v, f"{where}.draw[{j}]") for j, v in enumerate(draw_raw))
        if cards.free != rules.free_cards:
            raise InvalidInputError(
                f"the deal holds {cards.free} free cards but free is {rules.free_cards}", where
            )
        seed = data.get("seed")
        return cls(rules, hands, open_card, draw, seed if isinstance(seed, int) else None)


def _rules_of(data: Any, where: str) -> Rules:
    """The rules of a deal's JSON object, once the object has the fields of a Cento deal."""
    if not isinstance(data, dict):
        raise InvalidInputError("a deal must be a JSON object", where)
    if data.get("game", "cento") != "cento":
        raise InvalidInputError(f'game must be "cento", not {data.get("game")!r}', where)
    for key in ("hands", "open", "draw"):
        if key not in data:
            raise InvalidInputError(f"missing field {key!r}", where)
    free = data.get("free")
    if free is not None and (not isinstance(free, int) or isinstance(free, bool)):
        raise InvalidInputError("free must be an integer", f"{where}.free")
    return Rules.from_dict(data.get("rules", {}), free)


class _CardReader:
    """Reads a deal's cards in order: each number card at most once (rule Z6),
    the free cards counted."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seen: dict[int, str] = {}
        self.free = 0

    def take(self, value: Any, at: str) -> int:
        card = card_from_json(value, self.rules, at)
        if card == FREE:
            self.free += 1
        elif card in self.seen:
            raise InvalidInputError(f"card {card} appears twice (also at {self.seen[card]})", at)
        else:
            self.seen[card] = at
        return card

    def hand(self, hand: Any, i: int, at: str) -> tuple[int, ...]:
        """Player ``i + 1``'s hand, sorted (free cards last)."""
        if not isinstance(hand, list):
            raise InvalidInputError("a hand must be a list of cards", at)
        if len(hand) != self.rules.hand_size:
            raise InvalidInputError(
                f"player {i + 1} holds {len(hand)} cards, not {self.rules.hand_size}", at
            )
        cards = [self.take(v, f"{at}[{j}]") for j, v in enumerate(hand)]
        return tuple(sorted(cards, key=_sort_key))
