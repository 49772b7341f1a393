"""The engine-only reference: is a perfect clear reachable from a position?

``Brute`` uses nothing but the rules engine (``GameState``): every legal
play and, where legal, the end of the turn, memoised on the engine's exact
key, with none of the solver's shortcuts, bounds or kernels. It is the
independent check the solvers are tested against, and what confirms a loss
proof where a deal is small enough (the hunt for an unwinnable deal).
"""

from __future__ import annotations

from thegame.models.outcome import Status
from thegame.models.the_game import GameState, Play, Turn


class Brute:
    """Decides whether a perfect clear (status 'won') is reachable.

    Every legal play (``legal_plays``) and, when legal, the end of the turn
    are tried from every position; positions are memoised on the engine's
    exact ``key()``. The game graph is acyclic (every turn plays a card), so
    the memo holds final answers only. One instance per deal: the memo is
    shared between the calls.
    """

    def __init__(self) -> None:
        self.memo: dict[tuple[object, ...], bool] = {}

    def wins_from(self, state: GameState) -> bool:
        return self._search(state.copy())

    def _search(self, s: GameState) -> bool:
        if s.status == Status.WON:
            return True
        if s.status != Status.IN_PROGRESS:
            return False
        key = s.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        result = False
        for play in s.legal_plays():
            s.play(play.card, play.pile)
            result = self._search(s)
            s.undo_play()
            if result:
                break
        if not result and s.can_end_turn():
            after = s.copy()
            after.end_turn()
            result = self._search(after)
        self.memo[key] = result
        return result

    def line_from(self, state: GameState) -> list[Turn] | None:
        """A winning line from a position at the start of a turn, or None."""
        s = state.copy()
        if not self._search(s):
            return None
        turns: list[Turn] = []
        plays: list[Play] = []
        while s.status != Status.WON:
            for play in s.legal_plays():
                s.play(play.card, play.pile)
                if self._search(s):
                    plays.append(play)
                    break
                s.undo_play()
            else:
                player = s.current + 1
                s.end_turn()  # the only winning continuation left
                turns.append(Turn(player, tuple(plays)))
                plays = []
        return turns
