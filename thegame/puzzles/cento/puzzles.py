"""Solo Cento puzzles: a seeded one-player deal with a proven fewest-turns answer.

A puzzle is kept only when the solver proves its answer within the budget;
``daily`` maps a date to seeds ``YYYYMMDD * 100 + k`` for k = 0, 1, ... and
takes the first proven one, so every machine gets the same puzzle.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...models.cento.deal import CentoDeal
from ...models.cento.record import CentoTurn
from ...models.cento.rules import CentoRules
from ...models.errors import InvalidInputError
from ...models.outcome import Limit, Verdict
from ...solver.cento.solo import solve_solo

DAILY_TRIES = 100


@dataclass(frozen=True)
class SoloPuzzle:
    seed: int
    deal: CentoDeal
    turns_needed: int
    solution: tuple[CentoTurn, ...]
    date: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "puzzle": "cento-solo",
            "seed": self.seed,
            "deal": self.deal.to_dict(),
            "turns_needed": self.turns_needed,
            "optimal": True,
            "solution": [t.to_dict() for t in self.solution],
        }
        if self.date is not None:
            d["date"] = self.date
        return d


def puzzle_for_seed(seed: int, rules: CentoRules, limit: Limit) -> SoloPuzzle | None:
    """The solo puzzle of ``seed``, or None when no answer is proven in budget."""
    deal = CentoDeal.from_seed(seed, 1, rules)
    result = solve_solo(deal, limit)
    if result.verdict != Verdict.WIN or result.turns_needed is None:
        return None
    return SoloPuzzle(seed, deal, result.turns_needed, result.turns)


def generate(
    seed_start: int, rules: CentoRules, limit: Limit, min_turns: int, max_turns: int
) -> Iterator[tuple[int, SoloPuzzle | None]]:
    """Every seed from ``seed_start`` on, with its puzzle when it is proven and
    its fewest turns lie in ``min_turns..max_turns``."""
    seed = seed_start
    while True:
        puzzle = puzzle_for_seed(seed, rules, limit)
        if puzzle is not None and not min_turns <= puzzle.turns_needed <= max_turns:
            puzzle = None
        yield seed, puzzle
        seed += 1


def parse_date(text: str | None) -> dt.date:
    if text is None:
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InvalidInputError(f"expected a date YYYY-MM-DD, not {text!r}", "--date") from None


def daily(date: dt.date, limit: Limit) -> SoloPuzzle:
    """The first proven puzzle among the date's seeds (printed rules)."""
    base = (date.year * 10000 + date.month * 100 + date.day) * 100
    for k in range(DAILY_TRIES):
        puzzle = puzzle_for_seed(base + k, CentoRules(), limit)
        if puzzle is not None:
            return SoloPuzzle(
                puzzle.seed, puzzle.deal, puzzle.turns_needed, puzzle.solution, date.isoformat()
            )
    raise InvalidInputError(f"no proven puzzle among {DAILY_TRIES} seeds", "daily")
