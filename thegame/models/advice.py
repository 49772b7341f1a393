"""The answer of every ``hint``: one shape for every game, each game's own
move inside it.

``Advice.to_dict`` is the JSON of ``thegame hint --json``, ``thegame nimmt
hint --json`` (and of any game's hint that adopts it)::

    {"player": 1, "turn": 6, "move": {...}, "verdict": "win", ..., "text": "..."}

- ``player``, ``turn``: who moves and in which turn, both counted from 1;
- ``move``: the game's own move, as its records write it: The Game
  ``{"plays": [{"card", "pile"}], "end_turn"}`` (one play, or ``plays`` empty
  and ``end_turn`` true; a duel's whole turn), 6 nimmt! ``{"card"}``,
  Cento ``{"plays", "draw"}``;
- ``verdict``: ``win``, ``loss`` or ``unknown``, as a solver says it for the
  position with the move played: ``unknown`` for advice that rests on
  samples rather than a proof;
- the game's own figures after it (``cards_left``, ``optimal``, ``turns``,
  ``estimate``, ``cards``, ``samples``...), then ``text``, the advice in
  words as the screen shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .outcome import Verdict


@dataclass(frozen=True)
class Advice:
    """A hint: who moves, the move, what it keeps possible, in words."""

    player: int  # from 1
    turn: int  # from 1
    move: Mapping[str, Any]
    verdict: Verdict
    text: str
    figures: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "turn": self.turn,
            "move": dict(self.move),
            "verdict": self.verdict,
            **self.figures,
            "text": self.text,
        }
