"""Cento game 2 (rules Z1-Z6) for programs: deals, records, the solo and
table search for 2-6 players, hints and the daily puzzle.

    >>> from thegame import cento
    >>> sol = cento.solve(cento.Deal.from_seed(3, players=1))
    >>> sol.turn_count, sol.optimal
    (7, True)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from ..models import Limit
from ..models.cento import Deal, Record, Rules, State
from ..models.cento import check as check_record
from ..models.check import CheckResult
from ..models.errors import InvalidInputError

if TYPE_CHECKING:
    from ..analysis.cento.hint import Hint
    from ..puzzles.cento.puzzles import SoloPuzzle
    from ..solver.cento.solo import SoloResult
    from ..solver.cento.table import TableResult

__all__ = ["Deal", "Record", "Rules", "check", "daily", "hint", "load", "solve"]

SOLVE_LIMIT = Limit(time=60.0)


def load(path: str | Path) -> Record:
    """A record from a JSON file (what ``thegame cento check`` reads)."""
    return Record.from_json(Path(path).read_text(encoding="utf-8-sig"), str(path))


def check(record: Record) -> CheckResult[State]:
    """Replay a record against Z1-Z5: legal or not, the status, the winner."""
    return check_record(record)


def solve(deal: Deal, limit: Limit = SOLVE_LIMIT, player: int = 1) -> SoloResult | TableResult:
    """Solo: the fewest turns to empty the hand, proven. 2-6 players: can
    seat ``player`` force a win whatever every other player does together
    (two players: win, tie or loss with best play from both sides).
    ``unknown`` when the budget ends."""
    from ..solver.cento.solo import solve_solo
    from ..solver.cento.table import solve_table

    if deal.players == 1:
        return solve_solo(deal, limit)
    if not 1 <= player <= deal.players:
        raise InvalidInputError(f"player {player} is not a seat of {deal.players}", "player")
    return solve_table(deal, player, limit)


def hint(record: Record, limit: Limit = SOLVE_LIMIT) -> Hint:
    """The best next turn from where ``record`` stops (1 or 2 players)."""
    from ..analysis.cento.hint import hint_for

    return hint_for(record, limit)


def daily(date: str | dt.date | None = None, limit: Limit = SOLVE_LIMIT) -> SoloPuzzle:
    """The solo puzzle of the day: the same on every machine (``YYYY-MM-DD``,
    default today, UTC)."""
    from ..puzzles.cento.puzzles import daily as make_daily
    from ..puzzles.cento.puzzles import parse_date

    day = date if isinstance(date, dt.date) else parse_date(date)
    return make_daily(day, limit)
