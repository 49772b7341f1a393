"""6 nimmt! (rules S1-S6) for programs: deals, round records, the exact best
response, the review of a round and whole games to 66.

    >>> from thegame import nimmt
    >>> deal = nimmt.Deal.from_seed(1, players=4)
    >>> deal.rows
    (32, 85, 11, 8)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis.nimmt.budget import SAMPLES
from ..models import NO_LIMIT, InvalidInputError, Limit
from ..models.check import CheckResult
from ..models.nimmt.deal import Deal
from ..models.nimmt.record import Record, Replay
from ..models.nimmt.record import check as check_round
from ..models.nimmt.state import play_game, play_round

if TYPE_CHECKING:
    from ..analysis.nimmt.review import Review
    from ..solver.nimmt.search import Solution

__all__ = [
    "Deal",
    "Record",
    "analyze",
    "check",
    "load",
    "play_game",
    "play_round",
    "solve",
]


def load(path: str | Path) -> Record:
    """A round record from a JSON file (what ``thegame nimmt check`` reads)."""
    return Record.from_text(Path(path).read_text(encoding="utf-8-sig"), str(path))


def check(record: Record) -> CheckResult[Replay]:
    """Replay a round against S2-S4: legal or not, heads per player, the first error."""
    return check_round(record)


def _index(record: Record, player: int) -> int:
    if not 1 <= player <= record.deal.players:
        raise InvalidInputError(f"{player} is not a player 1..{record.deal.players}", "player")
    return player - 1


def solve(record: Record, player: int, limit: Limit = NO_LIMIT) -> Solution:
    """The exact best response of ``player`` (from 1) to the others' recorded
    cards: the fewest heads, proven, and an order that takes them."""
    from ..solver.nimmt.problem import problem_from_record
    from ..solver.nimmt.search import solve as best_response

    return best_response(problem_from_record(record, _index(record, player)), limit)


def analyze(record: Record, player: int, *, samples: int = SAMPLES, sample_seed: int = 0) -> Review:
    """The review of ``player``'s round: per turn the card played, the best
    with hindsight and a blind player's choice, each priced in heads."""
    from ..analysis.nimmt.review import review

    return review(record, _index(record, player), samples, sample_seed)
