"""The fixed policy of the benchmarks and puzzles: the turn the duel search
would try first (``first_guess``), and a duel played on by it on both
seats (``policy_duel``)."""

from __future__ import annotations

from ....models import InvalidInputError
from ....models.the_game import Deal, GameState, Play, Turn
from . import ccore
from .nodes import NO_TURN, WINS_NOW, undominated
from .position import DuelGame, Pos
from .search import DuelSearch


def check_duel(deal: Deal) -> DuelGame:
    """The deal's duel (``InvalidInputError`` if it is not one)."""
    try:
        return DuelGame.of(deal)
    except ValueError as err:
        raise InvalidInputError(str(err), "variant") from None


def first_guess(state: GameState) -> tuple[Play, ...] | None:
    """The turn the search would try first from ``state`` (its ordering, no
    proof): a turn that wins at once or leaves the opponent without a turn,
    else the undominated turn of the lowest score, the first in
    ``DuelGame.turns`` order among equals. The fixed policy of the
    benchmarks and puzzles, and a hint when the budget decided nothing.
    None: no legal turn."""
    game = check_duel(state.deal)
    pos = game.from_state(state)
    done, dumped = game.turn_under_way(state)
    if not done and not dumped:
        fast = _compiled_guess(game, pos)
        if fast is not None:
            return fast
    children = game.turns(pos, done, dumped)
    if not children:
        return None
    search = DuelSearch(game)
    for plays, after in children:
        if after is None or not game.has_turn(after):
            return tuple(Play(c, p) for c, p in plays)
    kept = undominated(game, pos, children)
    plays, _ = min(kept, key=lambda t: search.score(pos, t[0], t[1]))  # type: ignore[arg-type]
    return tuple(Play(c, p) for c, p in plays)


def _compiled_guess(game: DuelGame, pos: Pos) -> tuple[Play, ...] | None:
    """``first_guess`` at a turn start read from the compiled expansion (the
    same children, scores and order as the Python one, about ten times
    faster); None when it is not built or there is no legal turn (the
    Python path then says which)."""
    compiled = ccore.compiled(game)
    if compiled is None:
        return None
    status, kids = compiled.expand(pos)
    if status == NO_TURN:
        return None
    turns = game.turns(pos)
    if status == WINS_NOW or not all(moves for _a, _s, moves in kids):
        # The first turn in list order that ends the duel (D6), dominated or not.
        for plays, after in turns:
            if after is None or not compiled.has_turn(after):
                return tuple(Play(c, p) for c, p in plays)
    pick = min(kids, key=lambda k: k[1])[0]
    for plays, after in turns:
        if after == pick:
            return tuple(Play(c, p) for c, p in plays)
    raise RuntimeError("the compiled expansion gave a turn the turn list lacks")


def policy_duel(state: GameState) -> list[tuple[GameState, Turn]]:
    """The duel played on from ``state`` with ``first_guess`` on both seats to
    its end (rule D6): each turn start and the turn played from it. ``state``
    is left at the end."""
    played: list[tuple[GameState, Turn]] = []
    while not state.over:
        plays = first_guess(state)
        if plays is None:  # no legal turn: the rules engine has already ended the duel
            break
        played.append((state.copy(), Turn(state.current + 1, plays)))
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    return played
