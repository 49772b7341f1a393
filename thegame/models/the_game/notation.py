"""One notation for plays, read and printed everywhere: ``37 A1``.

A play is the card, a space, the pile's name (``pile_name``); the end of a
turn is ``end``. Turns on screen count from 1 (``turn_label``); JSON keeps
its documented 0-based indices.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import InvalidInputError
from ..words import plural
from .rules import Rules
from .state import Play, pile_index, pile_name

__all__ = ["action_text", "parse_play", "play_text", "plays_text", "plural", "turn_label"]

END_WORD = "end"
_PLAY = re.compile(r"\s*(\d+)\s*(?:on\s*)?([A-Za-z]\d+)?\s*")


def play_text(rules: Rules, card: int, pile: int) -> str:
    """``37 A1``."""
    return f"{card} {pile_name(rules, pile)}"


def plays_text(rules: Rules, plays: Iterable[Play]) -> str:
    """``7 A1, 94 D1``."""
    return ", ".join(play_text(rules, p.card, p.pile) for p in plays)


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
