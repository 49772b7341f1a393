"""Solo Cento puzzles: a seeded one-player deal with a proven fewest-turns answer.

A puzzle is kept only when the solver proves its answer within the budget;
``daily`` maps a date to seeds ``YYYYMMDD * 100 + k`` for k = 0, 1, ... and
takes the first proven one, so every machine gets the same puzzle.

Ctrl-C (``interrupt.requested()``) stops the search of a seed as if its
budget ran out; a seed cut short that way is not "unproven", so every loop
here raises ``KeyboardInterrupt`` instead of moving on to the next seed
(which would answer with another day's puzzle, or keep generating).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...models import interrupt
from ...models.cento.deal import Deal
from ...models.cento.rules import Rules
from ...models.cento.state import Turn
from ...models.errors import InvalidInputError
from ...models.outcome import Limit, Verdict
from ...solver.cento.solo import solve_solo
from .. import dates
from ..dates import today_utc

DAILY_TRIES = 100


@dataclass(frozen=True)
class SoloPuzzle:
    """``turn_count``: the proven fewest turns; ``turns``: a line of that many."""

    seed: int
    deal: Deal
    turn_count: int
    turns: tuple[Turn, ...]
    date: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "puzzle": "cento-solo",
            "seed": self.seed,
            "deal": self.deal.to_dict(),
            "turn_count": self.turn_count,
            "optimal": True,
            "turns": [t.to_dict() for t in self.turns],
        }
        if self.date is not None:
            d["date"] = self.date
        return d


def puzzle_for_seed(seed: int, rules: Rules, limit: Limit) -> SoloPuzzle | None:
    """The solo puzzle of ``seed``, or None when no answer is proven in budget."""
    deal = Deal.from_seed(seed, 1, rules)
    result = solve_solo(deal, limit)
    if interrupt.requested():
        raise KeyboardInterrupt
    if result.verdict != Verdict.WIN or result.turn_count is None:
        return None
    return SoloPuzzle(seed, deal, result.turn_count, result.turns)


def check_turn_range(min_turns: int, max_turns: int) -> None:
    """Refuse a range no puzzle can meet, before any search."""
    if min_turns > max_turns:
        raise InvalidInputError(
            f"--min-turns {min_turns} is above --max-turns {max_turns}: no puzzle can meet both",
            "generate",
        )


def generate(
    seed_start: int, rules: Rules, limit: Limit, min_turns: int, max_turns: int
) -> Iterator[tuple[int, SoloPuzzle | None]]:
    """Every seed from ``seed_start`` on, with its puzzle when it is proven and
    its fewest turns lie in ``min_turns..max_turns`` (checked here, at the call)."""
    check_turn_range(min_turns, max_turns)
    return _generate(seed_start, rules, limit, min_turns, max_turns)


def _generate(
    seed_start: int, rules: Rules, limit: Limit, min_turns: int, max_turns: int
) -> Iterator[tuple[int, SoloPuzzle | None]]:
    seed = seed_start
    while True:
        puzzle = puzzle_for_seed(seed, rules, limit)
        if puzzle is not None and not min_turns <= puzzle.turn_count <= max_turns:
            puzzle = None
        yield seed, puzzle
        seed += 1


def parse_date(text: str | None) -> dt.date:
    """The day asked (``YYYY-MM-DD``), today (UTC) when none is."""
    return today_utc() if text is None else dates.parse_date(text)


def daily(date: dt.date, limit: Limit) -> SoloPuzzle:
    """The first proven puzzle among the date's seeds (printed rules)."""
    base = (date.year * 10000 + date.month * 100 + date.day) * 100
    for k in range(DAILY_TRIES):
        puzzle = puzzle_for_seed(base + k, Rules(), limit)
        if puzzle is not None:
            return SoloPuzzle(
                puzzle.seed, puzzle.deal, puzzle.turn_count, puzzle.turns, date.isoformat()
            )
    raise InvalidInputError(f"no proven puzzle among {DAILY_TRIES} seeds", "daily")
