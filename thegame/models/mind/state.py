"""The referee of one level: plays, collisions (rule M3) and stars (rule M4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..errors import IllegalMoveError
from .deal import Deal


class LevelStatus(StrEnum):
    """Where a level stands: every card is gone, or some are still in hand."""

    CLEARED = "cleared"
    IN_PROGRESS = "in_progress"


@dataclass(frozen=True)
class Collision:
    """A card played while lower cards were held (rule M3)."""

    player: int  # who played it (from 1)
    played: int
    discarded: tuple[tuple[int, int], ...]  # (holder from 1, card), lowest first


@dataclass
class State:
    """The hands as a level goes on, and what was lost.

    ``discarded`` holds every card put face up by rule M3 or M4, in order.
    Lives are counted here as ``lives_lost``; whether the team had that many
    is the campaign's business (``Campaign``).
    """

    deal: Deal
    hands: list[list[int]] = field(init=False)
    pile: list[int] = field(default_factory=list)
    lives_lost: int = 0
    stars_used: int = 0
    discarded: list[int] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hands = [sorted(h) for h in self.deal.hands]

    @property
    def status(self) -> LevelStatus:
        return LevelStatus.IN_PROGRESS if any(self.hands) else LevelStatus.CLEARED

    @property
    def reason(self) -> str | None:
        """None: a level ends by its cards alone (the lives are the campaign's)."""
        return None

    @property
    def winner(self) -> int | None:
        """None: the team plays together."""
        return None

    def cards_left(self) -> int:
        """Cards still in hand."""
        return sum(len(h) for h in self.hands)

    def check_fields(self) -> dict[str, Any]:
        """The fields of ``thegame mind check --json`` after the status."""
        return {
            "lives_lost": self.lives_lost,
            "discarded": list(self.discarded),
            "stars_used": self.stars_used,
        }

    def lowest(self) -> int | None:
        return min((h[0] for h in self.hands if h), default=None)

    def play(self, player: int, card: int) -> Collision | None:
        """Player ``player`` (from 1) puts ``card`` on the pile.

        Any card the player holds may be played (rule M2 has no turns); one
        played while anyone, the player included, holds a lower card costs a
        life and discards every lower card (rule M3).
        """
        if self.status is LevelStatus.CLEARED:
            raise IllegalMoveError("M2", "the level is cleared: no card is left to play")
        hand = self.hands[player - 1]
        if card not in hand:
            raise IllegalMoveError("M2", f"player {player} does not hold {card}")
        lower = sorted(
            (c, p + 1) for p, h in enumerate(self.hands) for c in h if c < card
        )
        hand.remove(card)
        collision = None
        if lower:
            # rule M3: every lower card in any hand goes face up, one life is lost
            for c, p in lower:
                self.hands[p - 1].remove(c)
                self.discarded.append(c)
            self.lives_lost += 1
            collision = Collision(player, card, tuple((p, c) for c, p in lower))
            self.collisions.append(collision)
        self.pile.append(card)
        return collision

    def star(self) -> list[tuple[int, int]]:
        """Rule M4: each player with cards discards their lowest; (player, card) pairs."""
        if self.status is LevelStatus.CLEARED:
            raise IllegalMoveError("M4", "the level is cleared: a star has nothing to discard")
        thrown = [(p + 1, h.pop(0)) for p, h in enumerate(self.hands) if h]
        self.discarded.extend(sorted(c for _, c in thrown))
        self.stars_used += 1
        return thrown
