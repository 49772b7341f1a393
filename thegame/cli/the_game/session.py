"""A game in progress in ``thegame play``: its actions with undo, the
record they make, ``--save``, and the warnings before a move that loses."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import TYPE_CHECKING

from rich.console import RenderableType

from ...models import InvalidInputError
from ...models.outcome import Status
from ...models.the_game import Deal, GameState, Play, Record, Turn, pile_name
from ...puzzles.the_game.files import Puzzle
from ...solver.the_game.kernel import END, Action
from ..common import tell, write_atomic

if TYPE_CHECKING:
    from ...solver.the_game.duel.pns import ProofNumberSearch


class Ending(StrEnum):
    """How a game in ``thegame play`` ended: by the rules, or the player quit."""

    WON = Status.WON.value
    LOST = Status.LOST.value
    QUIT = "quit"


@dataclasses.dataclass
class Session:
    """An interactive game from a position (a puzzle's, or a deal's start).

    ``opening``: the turns before ``start`` (a puzzle's position), kept for the
    record. ``hidden``: a real game; the draw pile is face down, and undo stays
    inside the current turn (taking back a turn end would put drawn cards,
    now seen, back into the hidden pile).
    """

    deal: Deal
    opening: tuple[Turn, ...]
    start: GameState
    hidden: bool = False
    actions: list[Action] = dataclasses.field(default_factory=list)
    title: RenderableType = ""  # what the game is, shown first
    # A duel's search, kept across hint and solve: what it proved stays
    # proven for the rest of the game (``duel.api.session``).
    duel_search: ProofNumberSearch | None = None
    # ``--vs engine``: the engine's seat (1-based); no hot seat then.
    engine_seat: int | None = None

    @property
    def state(self) -> GameState:
        return self._state

    def __post_init__(self) -> None:
        self._state = self.start.copy()

    def duel_searcher(self) -> ProofNumberSearch:
        """The duel's search, made at the first question and kept."""
        from ...solver.the_game.duel.api import session as search_session

        if self.duel_search is None:
            self.duel_search = search_session(self.deal)
        return self.duel_search

    def rebuild(self) -> None:
        state = self.start.copy()
        for a in self.actions:
            if a == END:
                state.end_turn()
            else:
                state.play(*a)
        self._state = state

    def play(self, card: int, pile: int) -> None:
        self._state.play(card, pile)  # IllegalMoveError: nothing changed
        self.actions.append((card, pile))

    def end_turn(self) -> list[int]:
        """End the turn; the cards drawn."""
        player = self._state.current
        before = set(self._state.hands[player])
        self._state.end_turn()
        self.actions.append(END)
        return sorted(self._state.hands[player] - before)

    def in_this_turn(self) -> int:
        """How many actions of the turn in progress there are."""
        n = 0
        for a in reversed(self.actions):
            if a == END:
                break
            n += 1
        return n

    def can_undo(self) -> bool:
        return self.in_this_turn() > 0 if self.hidden else bool(self.actions)

    def undo(self) -> Action | None:
        if not self.can_undo():
            return None
        last = self.actions.pop()
        self.rebuild()
        return last

    def turns(self) -> list[Turn]:
        """The player's turns: every completed one, and the last one when the
        game ended inside it (a duel won at once, D6; a broken command, X2).
        A turn still in progress is left out: a record holds whole turns."""
        turns: list[Turn] = []
        state = self.start.copy()
        plays: list[Play] = []
        for a in self.actions:
            if a == END:
                turns.append(Turn(state.current + 1, tuple(plays)))
                state.end_turn()
                plays = []
            else:
                state.play(*a)
                plays.append(Play(*a))
        if plays and state.over:
            turns.append(Turn(state.current + 1, tuple(plays)))
        return turns

    def record(self) -> Record:
        # A real game keeps the draw pile face down; a puzzle shows it.
        return Record(self.deal, self.opening + tuple(self.turns()), full_view=not self.hidden)


def puzzle_session(puzzle: Puzzle) -> Session:
    return Session(puzzle.deal, puzzle.position, puzzle.start())


class Saver:
    """``--save FILE``: the record so far, written whole (``write_atomic``)
    after every turn and when the game stops, however it stops."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def save(self, session: Session, strict: bool = False) -> None:
        """Write the record. A failure is one line: with ``strict`` (the
        first write, before the game) an error, exit 2; later a warning, so
        that a full disk does not end the game in progress."""
        if self.path is None:
            return
        try:
            write_atomic(self.path, session.record().to_json() + "\n")
        except InvalidInputError as e:
            if strict:
                raise
            tell(f"warning: {e}")


def losing_play(state: GameState, card: int, pile: int) -> str | None:
    """Why this accepted play loses the game at once (a command broken,
    X2), from what the player can see; None when it does not."""
    rule = state.loses(card, pile)
    if rule is None:
        return None
    probe = state.copy()
    probe.play(card, pile)
    return probe.reason or f"it breaks a command (rule {rule})"


def losing_end(state: GameState) -> str | None:
    """Why ending the turn now loses the game, from public facts only: a
    command broken (X3b, X3c) or a fire card not covered in time (F2). A
    loss that the draw would reveal (the next player stuck, C8) is not
    foretold: the cards drawn are hidden."""
    rule = state.end_loses()
    if rule is not None:
        probe = state.copy()
        probe.end_turn()
        return probe.reason or f"it breaks a command (rule {rule})"
    rules = state.rules
    if not rules.fire_cards or not state.can_end_turn():
        return None
    if state.cards_left() == 0 and rules.fire_safe_at_clear:
        return None
    for pile, top in enumerate(state.tops):
        if top in rules.fire_cards and state.top_turn[pile] < state.turn:
            return (
                f"fire card {top} on {pile_name(rules, pile)} is not covered "
                "and this turn is its last (rule F2)"
            )
    return None


def wins_by_ending(state: GameState) -> bool:
    """Every card is down and ending the turn clears the game (rule C7)."""
    if state.over or state.cards_left() != 0 or not state.can_end_turn():
        return False
    probe = state.copy()
    probe.end_turn()
    return probe.status == Status.WON
