"""The compiled node expansion of the duel search (the optional extension
``_cduel``), and when it is used.

``DuelNodes._open`` needs, at every node, the mover's turn results
(``DuelGame.turns``), the undominated ones (``search.undominated``), for
each of those whether the opponent has a turn (``DuelGame.has_turn``) and
its ordering score (``DuelNodes.score``). In Python that costs 0.3-1 ms a
node on the printed game, nearly all of the search; ``_cduel.Game.expand`` answers the same in
one call, the same children in the same order, so a search makes the same
decisions node for node (``tests/the_game/duel/test_cduel.py``). The Python pieces stay
the reference, and everything else (the table, the bounds, the lines) is
Python either way on the reference path; ``solver`` runs the whole
search compiled (``pns.ProofNumberSearch.native``).

Used when the extension is built, ``THEGAME_KERNEL=python`` does not turn
it off, and every card fits its 64-bit masks (cards up to 63: the printed
game's 2..59 and generalised duels that small).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ckernel import forced_python
from .position import DuelGame

if TYPE_CHECKING:
    from . import _cduel

try:
    from . import _cduel as _compiled

    BUILT = True
except ImportError:  # no compiler at install time: the reference only
    BUILT = False

MAX_CARD = 63  # the masks are 64 bits


def covers(game: DuelGame) -> bool:
    """Whether the compiled expansion holds this duel."""
    return (
        game.low >= 0
        and game.high <= MAX_CARD
        and all(0 <= c <= MAX_CARD for deck in game.decks for c in deck)
        and all(len(deck) <= MAX_CARD + 1 for deck in game.decks)
        and game.min_play >= 1
        and game.min_play_empty >= 1
        and game.step >= 1
    )


def compiled(game: DuelGame) -> _cduel.Game | None:
    """The compiled expansion of ``game``, or None when it is not to be used."""
    if not BUILT or forced_python() or not covers(game):
        return None
    return _compiled.Game(
        bytes(game.decks[0]),
        bytes(game.decks[1]),
        game.hand_size,
        game.min_play,
        game.min_play_empty,
        game.step,
        game.draw_own,
    )


def backend() -> str:
    """For ``thegame --version``: what the duel search expands nodes with."""
    if forced_python():
        return "python"
    return "c" if BUILT else "python"


def solver(
    game: _cduel.Game, table_limit: int, numbers_limit: int, weight: int, inf: int
) -> _cduel.Solver:
    """The whole proof search compiled (``_cduel.Solver``: the node of
    ``nodes.DuelNodes``, the depth-first search and df-pn, its own table of
    proven positions) over the compiled ``game``."""
    return _compiled.Solver(game, table_limit, numbers_limit, weight, inf)


def race(game: _cduel.Game, p: int, robust: bool) -> _cduel.Race:
    """The compiled race alone of player p (``race.RaceSolver``'s search)
    over the compiled ``game``."""
    return _compiled.Race(game, p, robust)
