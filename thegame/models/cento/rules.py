"""The parameters of Cento game 2 (rules Z1-Z6) and the digit arithmetic of its cards."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from ..errors import InvalidInputError

FREE = 0
"""Internal code of a free card (rule Z4); in JSON it is the string ``"free"``."""

HUNDRED = 100
MAX_NAMED = 99  # rule Z4: a free card is named 1..99


class HundredMode(StrEnum):
    """How the card 100 is used (rule Z5)."""

    TRICK_TREAT = "trick_treat"  # "Trick or Treat", never laid on the open card
    PLAIN = "plain"  # an ordinary card with the digits 0 and 1


class CentoStatus(StrEnum):
    """Where a Cento game stands (a record's ``status``)."""

    IN_PROGRESS = "in_progress"
    WON = "won"  # a player emptied their hand (rule Z1)
    BLOCKED = "blocked"  # every player passed in a row (rule Z1 Decision)


@dataclass(frozen=True)
class Rules:
    """Every Decision of rules Z1-Z6 as a parameter; the defaults are the printed game.

    ``low..high`` is the range of number cards (Z6; small ranges for tests and
    puzzles), ``hand_size`` the cards dealt to each player (Z1 Decision: 7),
    ``free_cards`` the free cards in the deck (Z4 Decision: 4), ``penalty`` the
    cards a Z2-bound player draws instead of a single-digit card, ``trick_draw``
    what every other player draws on a Trick (Z5), ``hundred`` whether the 100
    is Trick/Treat or a plain card (Z5), ``chain_all`` whether a repdigit's
    chain must shed every number card with its digit (Z3; default: the player
    may stop at any point).
    """

    low: int = 1
    high: int = 100
    hand_size: int = 7
    free_cards: int = 4
    penalty: int = 3
    trick_draw: int = 3
    hundred: HundredMode = HundredMode.TRICK_TREAT
    chain_all: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high <= HUNDRED:
            raise InvalidInputError(
                f"card range {self.low}..{self.high} is not within 1..100", "rules"
            )
        if not 1 <= self.hand_size <= 50:
            raise InvalidInputError(f"hand size {self.hand_size} is not within 1..50", "rules")
        if not 0 <= self.free_cards <= 20:
            raise InvalidInputError(f"free cards {self.free_cards} is not within 0..20", "rules")
        if not 0 <= self.penalty <= 10 or not 0 <= self.trick_draw <= 10:
            raise InvalidInputError("penalty and trick_draw must be within 0..10", "rules")

    @property
    def special_hundred(self) -> bool:
        """True when the deck holds a 100 that is Trick/Treat (rule Z5), not a number."""
        return self.high == HUNDRED and self.hundred == HundredMode.TRICK_TREAT

    def deck(self) -> list[int]:
        """The unshuffled deck (rule Z6): numbers ascending, then the free cards."""
        return list(range(self.low, self.high + 1)) + [FREE] * self.free_cards

    def is_number(self, card: int) -> bool:
        """A card laid on the open card by its own value (not free, not Trick/Treat)."""
        return card != FREE and not (card == HUNDRED and self.special_hundred)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hundred"] = str(self.hundred)
        return d

    @classmethod
    def from_dict(cls, data: Any, free: int | None = None) -> Rules:
        if not isinstance(data, dict):
            raise InvalidInputError("must be an object", "rules")
        known = {f for f in cls.__dataclass_fields__}
        extra = set(data) - known
        if extra:
            raise InvalidInputError(f"unknown field {sorted(extra)[0]!r}", "rules")
        kwargs: dict[str, Any] = {}
        for name in known:
            if name not in data:
                continue
            value = data[name]
            if name == "hundred":
                try:
                    kwargs[name] = HundredMode(value)
                except ValueError:
                    raise InvalidInputError(
                        f"hundred must be 'trick_treat' or 'plain', not {value!r}", "rules"
                    ) from None
            elif name == "chain_all":
                if not isinstance(value, bool):
                    raise InvalidInputError("chain_all must be true or false", "rules")
                kwargs[name] = value
            else:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise InvalidInputError(f"{name} must be an integer", "rules")
                kwargs[name] = value
        if free is not None:
            kwargs["free_cards"] = free
        return cls(**kwargs)


def digits(value: int) -> frozenset[int]:
    """The decimal digits printed on a value (100 -> {0, 1})."""
    return frozenset(int(ch) for ch in str(value))


def is_single(value: int) -> bool:
    """A single-digit value 1..9 (rule Z2)."""
    return 1 <= value <= 9


def repdigit(value: int) -> int | None:
    """The digit of a repdigit 11, 22, ... 99 (rule Z3), else None."""
    if 11 <= value <= 99 and value % 11 == 0:
        return value // 11
    return None


def fits(value: int, open_value: int) -> bool:
    """Rule Z1: shares a digit with the open card; rule Z2: any single-digit
    value fits a single-digit open card."""
    if is_single(value) and is_single(open_value):
        return True
    return not digits(value).isdisjoint(digits(open_value))


def card_text(card: int) -> str:
    return "free" if card == FREE else str(card)
