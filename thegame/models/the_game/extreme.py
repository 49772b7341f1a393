"""The Game: Extreme (rules X1-X6): command cards bind the turn or the table.

``ExtremeState`` is the classic engine with the command rules added through
its hooks; a deal says which card carries which command (``Deal.command``).

Rule X2: breaking a command is a move a player can make, and it loses at
once. So a play that C5 accepts but that breaks a command is played and
ends the game as lost (``_breaks``), and so does ending a turn that breaks
one (``_end_breaks``): the record stays legal, its status is ``lost`` and
the reason names the command's rule id, as for an uncovered fire card (F2).
``legal_plays`` and ``can_end_turn`` list only the moves that keep the game
going (what a solver makes); ``losing_plays`` and ``end_loses`` name the
others. A player with no turn that keeps every command loses at once (X5).
"""

from __future__ import annotations

from ..outcome import Status
from ..words import plural
from . import placement
from .rules import Command, TurnKind
from .state import GameState, is_ascending, pile_name


class ExtremeState(GameState):
    """A position of an Extreme game."""

    turn_kind = TurnKind.EXTREME

    def _showing(self, kind: Command) -> bool:
        """Rule X4: an infinity command holds while its card is on top."""
        return any(self.deal.command(t) == kind for t in self.tops)

    def _played_command(self, kind: Command) -> bool:
        """Rule X3: a lightning command binds for the rest of the turn."""
        return any(self.deal.command(p.play.card) == kind for p in self.placed)

    def _context(self) -> tuple[set[Command | None], set[Command | None]]:
        """(commands showing on the tops, X4; commands played this turn, X3)."""
        command = self.deal.command
        return {command(t) for t in self.tops}, {command(p.play.card) for p in self.placed}

    def _breaks(self, card: int, pile: int) -> tuple[str, str] | None:
        # Called after C5 accepted the play: which command would it break?
        showing, played = self._context()
        n_played = len(self.placed)
        kind = self.deal.command(card)
        if Command.STOP in played:
            return ("X3a", f"{card} played after a stop card had ended the turn")
        three = Command.THREE in played or kind is Command.THREE
        if three and n_played >= 3:
            return ("X3c", f"{card} would be card {n_played + 1} of a three turn (exactly 3)")
        if kind is Command.STOP and three and n_played != 2:
            return ("X3c", f"stop card {card} as card {n_played + 1} of a three turn (only 3rd)")
        if Command.ONE_PILE in showing and any(p.play.pile != pile for p in self.placed):
            return (
                "X4b",
                f"{card} on {pile_name(self.rules, pile)}: a one-pile card is showing "
                "and this turn's cards went onto another pile",
            )
        if Command.NO_TRICK in showing:
            asc = is_ascending(self.rules, pile)
            if placement.is_trick(asc, self.tops[pile], card, self.rules.step):
                name = pile_name(self.rules, pile)
                return ("X4a", f"{card} on {name} is a backward trick while no-trick is showing")
        return None

    def _undo_after_play(self) -> None:
        # In Extreme a play ends the game only by breaking a command (the
        # win comes with the end of the turn): taking it back resumes.
        if self.status == Status.LOST:
            self.status, self.reason = Status.IN_PROGRESS, None

    def _check_turn_end(self) -> bool:
        # X3a: a stop ends the turn legally, even as the first card. X3c: a
        # three card fixes the turn at exactly 3 cards in place of the
        # minimum, so a shorter three turn is not a C4 error but the X3c
        # loss (``_end_breaks``).
        return self._played_command(Command.STOP) or self._played_command(Command.THREE)

    def _end_breaks(self) -> tuple[str, str] | None:
        n = len(self.placed)
        if self._played_command(Command.THREE) and n != 3:
            return ("X3c", f"a three card needs exactly 3 cards, the turn ended with {n}")
        for pile, top in enumerate(self.tops):
            mine = any(p.play.card == top for p in self.placed)
            if self.deal.command(top) is Command.SKULL and mine:
                # X3b: also after the last card of the game.
                name = pile_name(self.rules, pile)
                return ("X3b", f"the skull card {top} on {name} was left uncovered this turn")
        return None

    def _turn_blocked(self) -> bool:
        # X3b: a skull on top, laid this turn, that no card in hand is
        # accepted on (C5) stays on top: the pile changes only by a card
        # played onto it, and the hand only shrinks. X3c: a three turn
        # without enough cards in hand to reach 3.
        hand = self.hands[self.current]
        step = self.rules.step
        mine = {p.play.card for p in self.placed}
        for pile, top in enumerate(self.tops):
            if top in mine and self.deal.command(top) is Command.SKULL:
                asc = is_ascending(self.rules, pile)
                if not any(placement.accepts(asc, top, c, step) for c in hand):
                    return True
        if any(self.deal.command(c) is Command.THREE for c in mine):
            return len(self.placed) + len(hand) < 3
        return False

    def _draw_count(self, hand: set[int]) -> int:
        # X4c: draw one card while a draw-one card shows, else refill (C6).
        if self._showing(Command.DRAW_ONE):
            return 1
        return super()._draw_count(hand)

    def _no_turn(self) -> None:
        # X5: no turn that keeps every command (a hand shrunk by draw-one,
        # a three that cannot reach 3, ...): the game is lost.
        who = self.current + 1
        self._finish(Status.LOST, "X5", f"player {who} cannot play {plural(self.turn_min, 'card')}")

    def _turn_shape(self) -> tuple[object, ...]:
        # One-pile (X4b) depends on the piles played, X3 on the commands played.
        return (
            len(self.placed),
            frozenset(p.play.pile for p in self.placed),
            frozenset(self.deal.command(p.play.card) for p in self.placed),
        )
