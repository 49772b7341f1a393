"""One notation for plays, read and printed everywhere: ``37 A1``.

A play is the card, a space, the pile's name (``pile_name``); the plays of a
turn are joined by ``, `` and the turns of a line by `` | ``:
``37 A1, 40 A1 | 90 D1`` (``line_text``). The end of a turn is ``end``.
Piles are named ``A1``, ``D1`` on screen and ``up``/``down`` in words. Turns
count from 1, on screen (``turn_label``) and in JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..errors import InvalidInputError
from ..words import plural
from .record import Turn
from .rules import Rules
from .state import Play, is_ascending, pile_index, pile_name

__all__ = [
    "action_text",
    "direction_word",
    "line_text",
    "parse_play",
    "play_text",
    "plays_text",
    "plural",
    "turn_label",
]

CardText = Callable[[int], str]  # how a card is written (marks for fire and commands)

END_WORD = "end"
_PLAY = re.compile(r"\s*(\d+)\s*(?:on\s*)?([A-Za-z]\d+)?\s*")


def play_text(rules: Rules, card: int, pile: int, card_text: CardText = str) -> str:
    """``37 A1``; ``card_text`` may mark the card (``55* A1``)."""
    return f"{card_text(card)} {pile_name(rules, pile)}"


def plays_text(rules: Rules, plays: Iterable[Play], card_text: CardText = str) -> str:
    """``7 A1, 94 D1``."""
    return ", ".join(play_text(rules, p.card, p.pile, card_text) for p in plays)


def line_text(rules: Rules, turns: Iterable[Turn], card_text: CardText = str) -> str:
    """A line, turn after turn: ``37 A1, 40 A1 | 90 D1``. Every line shown
    on screen is written by this function."""
    return " | ".join(plays_text(rules, t.plays, card_text) for t in turns)


def direction_word(rules: Rules, pile: int) -> str:
    """``up`` or ``down``: the one word for a pile's direction."""
    return "up" if is_ascending(rules, pile) else "down"


def action_text(rules: Rules, action: tuple[int, int]) -> str:
    """A kernel action: ``37 A1``, or ``end`` for the end of a turn."""
    card, pile = action
    return END_WORD if card < 0 else play_text(rules, card, pile)


def turn_label(index: int) -> str:
    """A 0-based turn index as shown on screen: ``turn 1`` for index 0."""
    return f"turn {index + 1}"


def parse_play(rules: Rules, text: str) -> tuple[int, int | None]:
    """``'37 A1'`` (also ``37A1``, ``37 on a1``) to (card, pile); ``'37'`` to
    (card, None). A line that is no play raises InvalidInputError."""
    m = _PLAY.fullmatch(text)
    if m is None:
        raise InvalidInputError(f"{text.strip()!r} is not a play (write it like '37 A1')")
    card = int(m.group(1))
    pile = None if m.group(2) is None else pile_index(rules, m.group(2))
    return card, pile
