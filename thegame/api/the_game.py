"""The Game family (classic, Profi, On Fire, Extreme, Face to Face) for programs.

    >>> import thegame
    >>> deal = thegame.Deal.from_seed(1)
    >>> sol = thegame.solve(deal, thegame.Limit(time=10))
    >>> sol.verdict, sol.cards_left
    (<Verdict.WIN: 'win'>, 0)

Thin wrappers: each verb calls the function the command of the same name
calls, and returns that function's result.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from ..models import NO_LIMIT, IllegalMoveError, InvalidInputError, Limit, Status, Verdict
from ..models.the_game import Deal as _Deal
from ..models.the_game import GameState, Rules, get_rules, variants
from ..models.the_game import Record as _Record

if TYPE_CHECKING:
    from ..analysis.the_game.annotate import Review
    from ..analysis.the_game.duel import DuelAnalysis
    from ..analysis.the_game.explain import TurnExplanation
    from ..analysis.the_game.review import Hint
    from ..models.the_game import CheckResult
    from ..puzzles.the_game.files import Puzzle
    from ..solver.the_game.api import Solution
    from ..solver.the_game.duel.api import DuelSolution

__all__ = [
    "NO_LIMIT",
    "Deal",
    "IllegalMoveError",
    "InvalidInputError",
    "Limit",
    "Record",
    "Status",
    "Verdict",
    "analyze",
    "analyze_duel",
    "check",
    "daily",
    "explain",
    "hint",
    "load",
    "solve",
    "solve_duel",
]

SOLVE_LIMIT = Limit(time=60.0)  # what ``thegame solve`` gives by default
HINDSIGHT_LIMIT = Limit(time=1.0)  # ``thegame analyze``: per searched position
DUEL_LIMIT = Limit(time=2.0)  # ``thegame analyze`` of a duel: per turn start
HINT_LIMIT = Limit(time=5.0)


def _same_fields(a: object, b: object, base: type) -> bool:
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(base) if f.compare)


class Deal(_Deal):
    """A deal of The Game family whose card order is known (rules C2, D1, X1).

    The engine's deal, with a friendlier ``from_seed``: ``Deal.from_seed(1)``
    is the solo classic deal of seed 1, and
    ``Deal.from_seed(7, variant="profi", players=3)`` a Profi deal for three.
    It equals the engine's deal with the same cards.
    """

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Deal):
            return NotImplemented
        return _same_fields(self, other, _Deal)

    __hash__ = _Deal.__hash__

    @classmethod
    def from_seed(
        cls,
        seed: int,
        rules: Rules | None = None,
        players: int | None = None,
        first: int | None = None,
        *,
        variant: str | None = None,
    ) -> Deal:
        """The deal of ``seed``, the same on every machine and in every version.

        Args:
            seed: 0 to 2**64 - 1.
            rules: the rules to deal for (default: those of ``variant``).
            players: how many players (default: 1; 2 for Face to Face).
            first: the starting player from 1, or None for a free start (rule C3).
            variant: ``classic`` (default), ``profi``, ``profi-hard``,
                ``on-fire``, ``extreme`` or ``face-to-face``.
        """
        if rules is not None and variant is not None and rules.name != variant:
            raise InvalidInputError(f"variant {variant} contradicts rules {rules.name}", "deal")
        chosen = rules if rules is not None else get_rules(variant or variants.DEFAULT)
        deal = super().from_seed(seed, chosen, players, first)
        assert isinstance(deal, Deal)  # the base class builds ``cls``
        return deal


class Record(_Record):
    """A deal and the turns played on it: a game record, or a position.

    The engine's record, with ``from_file``; it equals the engine's record
    with the same deal and turns.
    """

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Record):
            return NotImplemented
        return _same_fields(self, other, _Record)

    __hash__ = _Record.__hash__

    @classmethod
    def from_file(cls, path: str | Path) -> Record:
        """Read a game record, a puzzle file (its position) or a deal.

        Any file ``thegame check``, ``analyze`` or ``solve --deal`` takes:
        record JSON, puzzle JSON, deal JSON or the one-line text form.
        Bad content raises ``thegame.models.InvalidInputError`` naming
        where it is.
        """
        from ..puzzles.the_game.files import parse_game_text

        record = parse_game_text(Path(path).read_text(encoding="utf-8-sig"), str(path))
        return cls(record.deal, record.turns, record.full_view)


def load(path: str | Path) -> Record:
    """The game, position or deal in ``path`` (see ``Record.from_file``)."""
    return Record.from_file(path)


def _as_record(game: _Deal | _Record | Solution) -> _Record:
    if isinstance(game, _Record):
        return game
    if isinstance(game, _Deal):
        return _Record(game)
    return game.record()


def check(record: _Record) -> CheckResult[GameState]:
    """Replay ``record`` against the rules (``thegame check``).

    The result says whether it is legal, where the game stands (``status``:
    won, lost, in progress), the cards left, and the first illegal step
    with its rule id (``error``).
    """
    from ..models.the_game import replay

    return replay(record)


def solve(game: _Deal | _Record, limit: Limit = SOLVE_LIMIT, *, optimize: bool = True) -> Solution:
    """Decide whether a perfect clear exists (``thegame solve``).

    ``game`` is a deal, or a record whose turns are kept as played and
    solved on from. The result's ``verdict`` is ``win`` only with a line
    (``turns``) that replays through the rules engine, ``loss`` only with a
    completed proof, otherwise ``unknown`` with the best line found;
    ``cards_left`` is what the line leaves, ``optimal`` whether that is
    proven the fewest possible (``optimize`` searches for it after a loss).
    Face to Face deals: ``solve_duel``.
    """
    from ..solver.the_game.api import solve as solve_deal
    from ..solver.the_game.api import solve_record

    record = _as_record(game)
    if record.deal.rules.is_duel:
        raise InvalidInputError("Face to Face is a duel: use thegame.solve_duel(deal)", "deal")
    if record.turns:
        return solve_record(record, limit, optimize)
    return solve_deal(record.deal, limit, optimize)


def solve_duel(deal: _Deal, limit: Limit = SOLVE_LIMIT) -> DuelSolution:
    """Who wins a Face to Face duel under best play, for its start or each start."""
    from ..solver.the_game.duel.api import solve_duel as solve_face_to_face

    return solve_face_to_face(deal, limit)


def explain(game: Solution | _Record) -> list[TurnExplanation]:
    """The line turn by turn, each card with why it was played (``thegame explain``).

    ``game``: a solution (its line) or a record (the turns played).
    """
    from ..analysis.the_game.explain import explain_record

    return explain_record(_as_record(game))


def analyze(
    record: _Record,
    *,
    samples: int = 100,
    sample_seed: int = 0,
    hindsight: Limit | None = HINDSIGHT_LIMIT,
    full_view: bool | None = None,
) -> Review:
    """The annotated review of a played game (``thegame analyze``).

    Fair first: each action judged from what the player could see, over
    ``samples`` sampled orders of the hidden cards (seeded by
    ``sample_seed``), marked ``?!``, ``?`` or ``??``; then hindsight, the
    best reachable with the whole order known (``hindsight``: the budget per
    searched position, or None to skip it). A game played with the draw
    pile in view (``record.full_view``, or ``full_view`` True) is judged by
    hindsight alone. Face to Face: ``analyze_duel``.
    """
    from ..analysis.the_game.annotate import annotate_record

    if record.deal.rules.is_duel:
        raise InvalidInputError(
            "Face to Face is a duel: use thegame.analyze_duel(record)", "record"
        )
    return annotate_record(record, samples, sample_seed, hindsight, full_view=full_view)


def analyze_duel(record: _Record, limit: Limit = DUEL_LIMIT) -> DuelAnalysis:
    """Each turn start of a Face to Face record decided, and the first turn
    that threw a forced win away (``limit`` per turn start)."""
    from ..analysis.the_game.duel import analyze_duel as analyze_face_to_face

    return analyze_face_to_face(record, limit)


def hint(record: _Record, limit: Limit = HINT_LIMIT) -> Hint:
    """The best next play from where ``record`` stops, with hindsight (``thegame hint``)."""
    from ..analysis.the_game.review import hint_for
    from ..models.the_game.record import replayed

    return hint_for(replayed(record), limit)


def daily(date: str | dt.date | None = None, *, variant: str | None = None) -> Puzzle:
    """The puzzle of the day (``thegame daily``): a position proven to have a
    perfect clear, rated, the same on every machine.

    Args:
        date: ``YYYY-MM-DD`` or a date; default today (UTC).
        variant: None for the default stream, ``"extreme"`` for the Extreme one.
    """
    from ..puzzles.dates import parse_date, today_utc
    from ..puzzles.the_game.daily import daily as make_daily

    if date is None:
        day = today_utc()
    elif isinstance(date, dt.date):
        day = date
    else:
        day = parse_date(date)
    return make_daily(day, stream=variant)
