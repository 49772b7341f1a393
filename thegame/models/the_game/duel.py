"""The Game: Face to Face (rules D1-D7): a duel, each player with their own
deck and piles; one card per turn may go onto the opponent's piles.

``DuelState`` is the classic engine with the duel rules added through its
hooks. Piles are named by owner (``A1``/``D1`` player 1's, ``A2``/``D2``
player 2's, see ``pile_name``).
"""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..outcome import Status
from ..words import plural
from . import placement
from .rules import TurnKind
from .state import GameState, is_ascending, pile_name, pile_owner


class DuelState(GameState):
    """A position of a Face to Face duel."""

    turn_kind = TurnKind.DUEL

    def _deal_hands(self) -> None:
        # D1: each player has their own deck and draw pile and draws 6.
        size = self.rules.hand_size(2)
        for deck in self.deal.decks:
            self.hands.append(set(deck[:size]))
            self.stocks.append(list(deck))
            self.stock_pos.append(size)

    def stock_of(self, player: int) -> int:
        return player

    def _on_opponent(self, pile: int) -> bool:
        return pile_owner(self.rules, pile) != self.current

    def _check_placement(self, card: int, pile: int) -> None:
        if not self._on_opponent(pile):
            super()._check_placement(card, pile)  # D3: own piles as in C5
            return
        if any(self._on_opponent(p.play.pile) for p in self.placed):
            raise IllegalMoveError("D2", "only one card per turn may go onto the opponent's piles")
        asc = is_ascending(self.rules, pile)
        top = self.tops[pile]
        if not placement.improves(asc, top, card):
            word = "lower" if asc else "higher"
            name = pile_name(self.rules, pile)
            raise IllegalMoveError(
                "D4", f"{card} on the opponent's {name} (top {top}) must be {word}"
            )

    def _minimum_rule(self) -> str:
        return "D2"

    def _after_play(self) -> None:
        # D6: whoever has played all their cards wins at once; a lone last
        # card cannot meet the minimum (D6 decision), so a win needs a turn
        # of at least the minimum.
        if (
            not self.hands[self.current]
            and self.stock_left() == 0
            and len(self.placed) >= self.turn_min
        ):
            self._finish(Status.WON, "D6", f"player {self.current + 1} played all their cards")
            self.winner = self.current + 1

    def _undo_after_play(self) -> None:
        if self.status == Status.WON:
            self.status, self.reason, self.winner = Status.IN_PROGRESS, None, None

    def _draw_count(self, hand: set[int]) -> int:
        # D5: a card on the opponent's pile lets you refill; else draw 2.
        if any(self._on_opponent(p.play.pile) for p in self.placed):
            return self.rules.hand_size(2) - len(hand)
        return 2

    def _clears(self, all_played: bool) -> bool:
        return False  # D6: the duel is won by one player, in ``_after_play``

    def _next_player(self) -> int:
        return (self.current + 1) % self.players  # no C7 skip in a duel

    def _no_turn(self) -> None:
        who = self.current + 1
        self._finish(Status.LOST, "D6", f"player {who} cannot play {plural(self.turn_min, 'card')}")
        self.winner = 2 - self.current

    def _turn_shape(self) -> tuple[object, ...]:
        # D2: whether the one card onto the opponent's piles is used up.
        return (len(self.placed), frozenset(p.play.pile for p in self.placed))
