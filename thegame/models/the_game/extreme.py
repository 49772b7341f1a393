"""The Game: Extreme (rules X1-X5): command cards bind the turn or the table.

``ExtremeState`` is the classic engine with the command rules added through
its hooks; a deal says which card carries which command (``Deal.command``).
"""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..outcome import Status
from .state import GameState, pile_name


class ExtremeState(GameState):
    """A position of an Extreme game."""

    turn_kind = "extreme"

    def _showing(self, kind: str) -> bool:
        """Rule X4: an infinity command holds while its card is on top."""
        return any(self.deal.command(t) == kind for t in self.tops)

    def _played_command(self, kind: str) -> bool:
        """Rule X3: a lightning command binds for the rest of the turn."""
        return any(self.deal.command(p.play.card) == kind for p in self.placed)

    def _check_turn_rules(self, card: int, pile: int) -> None:
        n_played = len(self.placed)
        if self._played_command("stop"):
            raise IllegalMoveError("X3a", "a stop card ended this turn")
        three = self._played_command("three") or self.deal.command(card) == "three"
        if three and n_played >= 3:
            raise IllegalMoveError("X3c", "a three card allows exactly 3 cards this turn")
        if self.deal.command(card) == "stop" and three and n_played != 2:
            raise IllegalMoveError("X3c", "with a three card, stop may only be the third card")
        if self._showing("one-pile") and any(p.play.pile != pile for p in self.placed):
            raise IllegalMoveError(
                "X4b", "a one-pile card is showing: this turn's cards go onto one pile"
            )

    def _check_trick(self, card: int, pile: int) -> None:
        if self._showing("no-trick"):
            name = pile_name(self.rules, pile)
            raise IllegalMoveError(
                "X4a", f"{card} on {name} would be a backward trick; no-trick is showing"
            )

    def _check_turn_end(self) -> bool:
        n = len(self.placed)
        if self._played_command("three") and n != 3:
            raise IllegalMoveError("X3c", f"a three card needs exactly 3 cards, played {n}")
        for top in self.tops:
            if self.deal.command(top) == "skull" and any(p.play.card == top for p in self.placed):
                raise IllegalMoveError("X3b", f"the skull card {top} must be covered this turn")
        # X3a: a stop ends the turn legally, even as the first card.
        return self._played_command("stop")

    def _draw_count(self, hand: set[int]) -> int:
        # X4c: draw one card while a draw-one card shows, else refill (C6).
        if self._showing("draw-one"):
            return 1
        return super()._draw_count(hand)

    def _no_turn(self) -> None:
        # X5: a hand shrunk by draw-one that cannot meet m loses.
        who = self.current + 1
        self._finish(Status.LOST, "X5", f"player {who} cannot play {self.turn_min} cards")

    def _turn_shape(self) -> tuple[object, ...]:
        # One-pile (X4b) depends on the piles played, X3 on the commands played.
        return (
            len(self.placed),
            frozenset(p.play.pile for p in self.placed),
            frozenset(self.deal.command(p.play.card) for p in self.placed),
        )

