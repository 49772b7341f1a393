"""One level played under the gap model (rule M6) by the referee itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models.errors import InvalidInputError
from ...models.mind import Collision, Deal, Event, Play, Star, State


@dataclass(frozen=True)
class GapResult:
    """The level as the gap model plays it: its events replay through ``check``."""

    tolerance: int
    star: bool
    lives_lost: int
    collisions: tuple[Collision, ...]
    events: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "tolerance": self.tolerance,
            "star": self.star,
            "lives_lost": self.lives_lost,
            "collisions": [
                {
                    "player": c.player,
                    "played": c.played,
                    "discarded": [card for _, card in c.discarded],
                    "holders": [p for p, _ in c.discarded],
                }
                for c in self.collisions
            ],
            "events": [e.to_dict() for e in self.events],
        }


def check_tolerance(tolerance: int) -> None:
    if tolerance < 1:
        raise InvalidInputError(f"the tolerance d must be at least 1, not {tolerance}",
                                "tolerance")


def next_gap_play(hands: list[list[int]], tolerance: int) -> tuple[int, int]:
    """Rule M6: (player from 1, card) of the next card played.

    c is the lowest card in any hand, c' the lowest held by any other player;
    if c' - c < d the holder of c' plays first, else c is played.
    """
    holder, c = min(((p, h[0]) for p, h in enumerate(hands) if h), key=lambda x: x[1])
    others = [(p, h[0]) for p, h in enumerate(hands) if h and p != holder]
    if others:
        p2, c2 = min(others, key=lambda x: x[1])
        if c2 - c < tolerance:
            return p2 + 1, c2
    return holder + 1, c


def play_gap(deal: Deal, tolerance: int, star: bool = False) -> GapResult:
    """Play the level under rule M6, after one star at the start if ``star`` (rule M4)."""
    check_tolerance(tolerance)
    state = State(deal)
    events: list[Event] = []
    if star:
        state.star()
        events.append(Star())
    while any(state.hands):
        player, card = next_gap_play(state.hands, tolerance)
        state.play(player, card)
        events.append(Play(player, card))
    return GapResult(tolerance, star, state.lives_lost, tuple(state.collisions), tuple(events))


def gap_lives(hands: list[list[int]], tolerance: int) -> int:
    """Lives lost under rule M6, fast, for sampling: ``hands`` are sorted and consumed."""
    lost = 0
    while True:
        live = [h for h in hands if h]
        if not live:
            return lost
        low = min(live, key=lambda h: h[0])
        c = low[0]
        rest = [h for h in live if h is not low]
        if rest:
            high = min(rest, key=lambda h: h[0])
            c2 = high[0]
            if c2 - c < tolerance:
                # rule M3: every card below c' is in the lowest hand; discard them
                while low and low[0] < c2:
                    low.pop(0)
                high.pop(0)
                lost += 1
                continue
        low.pop(0)
