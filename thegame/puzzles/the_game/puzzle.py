"""Puzzles: a seeded deal, played by the frozen opening to a position that is
proven to have a perfect clear, with a rating and a verified solution.

How a puzzle is made from a seed (``make_puzzle``); every step is stable
across machines and versions except the rating's effort term:

1. The deal is ``Deal.from_seed(seed, rules, players=1, first=1)``.
2. The frozen opening policy (``thegame.puzzles.opening``) plays it turn by
   turn. The *candidates* are the positions at the start of a turn on that
   path with ``low..high`` cards left (hand and draw pile; default 12..36).
3. The puzzle is the last candidate from which a perfect clear is still
   possible: the position just before the policy's fatal turn (or the last
   candidate, when the policy survives them all). Positions on the path
   only lose options, so once one is lost every later one is: a binary
   search finds it with a few decisions (``Oracle.wins``: the solver's
   search with a small budget, then a complete depth-first search with up
   to ``SELECT_NODES`` nodes). If the first candidate
   is already lost, or the policy stops before reaching one, the seed has
   no puzzle. Each decision is a fact: a win comes with a line replayed
   through the engine, a loss with an exhausted search. A decision left
   open by the budget skips the seed; with at most 36 cards and this budget
   that has not happened in any test run (were it to happen, a later,
   stronger solver could pick another puzzle for that seed).
4. ``rate`` computes the rating and the canonical solution line, which is
   replayed through the engine (``Puzzle.verify``).

The daily puzzle of a date (``daily``): ``d`` = days from 2000-01-01 to the
date (negative before). A SplitMix64 generator (the one behind ``--seed``)
with state ``d`` (mod 2^64) gives the seeds, each its next output shifted
right by 11 bits (53-bit numbers, exact in any JSON reader), tried in order
until one makes a puzzle. The variant is ``profi`` on Saturdays,
``on-fire`` on Sundays and ``classic`` on the other days.

Generated puzzles (``generate``) use the seeds ``start, start + 1, ...``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...models import InvalidInputError, SplitMix64
from ...models.outcome import Status
from ...models.the_game import Deal, GameState, Record, Rules, Turn, get_rules, replay
from ...models.the_game.deal import load_json
from ...models.the_game.record import turn_to_dict
from ...solver.the_game.api import replay_actions
from ...solver.the_game.kernel import Action
from .opening import policy_turn
from .rating import LABELS, Oracle, Rating, rate

EPOCH = dt.date(2000, 1, 1)
CARDS_LOW = 12  # candidates: positions with 12..36 cards left
CARDS_HIGH = 36
SELECT_NODES = 2_000_000
MAX_ATTEMPTS = 10_000
# The solver covers these; each makes solo puzzles.
VARIANTS: tuple[str, ...] = ("classic", "profi", "on-fire")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class PuzzleError(InvalidInputError):
    """A puzzle file that is malformed or whose solution does not win."""


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date; anything else is an ``InvalidInputError``."""
    if not _DATE.fullmatch(text.strip()):
        raise InvalidInputError(f"{text!r} is not a date YYYY-MM-DD", "--date")
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError as e:
        raise InvalidInputError(f"{text!r} is not a valid date ({e})", "--date") from None


def today_utc() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def daily_variant(day: dt.date) -> str:
    """``profi`` on Saturdays, ``on-fire`` on Sundays, else ``classic``."""
    return {6: "profi", 7: "on-fire"}.get(day.isoweekday(), "classic")


@dataclass
class Puzzle:
    deal: Deal
    position: tuple[Turn, ...]  # the opening, already played
    solution: tuple[Turn, ...]  # from the position to a perfect clear
    difficulty: dict[str, Any]  # label, score and the measures (``Rating.to_dict``)
    seed: int | None = None
    date: str | None = None
    rating: Rating | None = field(default=None, compare=False, repr=False)

    @property
    def variant(self) -> str:
        return self.deal.rules.name

    @property
    def label(self) -> str:
        return str(self.difficulty.get("label", "?"))

    @property
    def score(self) -> float:
        return float(self.difficulty.get("score", 0))

    def start(self) -> GameState:
        """The puzzle position (the opening replayed through the engine)."""
        result = replay(Record(self.deal, self.position))
        if not result.legal or result.state.over:
            raise PuzzleError("the position turns do not replay to a game in progress", "position")
        return result.state

    def record(self) -> Record:
        """The whole game: opening and solution; ``thegame check`` says won."""
        return Record(self.deal, self.position + self.solution)

    def verify(self) -> None:
        """Raise ``PuzzleError`` unless the solution replays to a win."""
        result = replay(self.record())
        if not result.legal:
            assert result.error is not None
            message = result.error["message"]
            raise PuzzleError(f"the solution does not replay: {message}", "solution")
        if result.status != Status.WON:
            raise PuzzleError(f"the solution ends {result.status}, not won", "solution")

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        return {
            "date": self.date,
            "variant": self.variant,
            "seed": self.seed,
            "cards_left": self.start().cards_left(),
            "deal": self.deal.to_dict(),
            "position": [turn_to_dict(rules, t) for t in self.position],
            "difficulty": dict(self.difficulty),
            "solution": [turn_to_dict(rules, t) for t in self.solution],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle JSON (or a game record: its turns are the position)."""
        if not isinstance(data, dict):
            raise PuzzleError("a puzzle must be a JSON object", where)
        if "deal" not in data:
            raise PuzzleError('missing "deal"', where)
        if "position" not in data and "turns" in data:
            record = Record.from_dict(data, where)
            puzzle = cls(record.deal, record.turns, (), {})
            puzzle.start()
            return puzzle
        known = {
            "date", "variant", "seed", "cards_left", "deal", "position", "difficulty", "solution"
        }  # fmt: skip
        unknown = sorted(set(data) - known)
        if unknown:
            raise PuzzleError(f"unknown key {unknown[0]!r}", where)
        deal = Deal.from_dict(data["deal"], f"{where}.deal")
        variant = data.get("variant", deal.rules.name)
        if variant != deal.rules.name:
            raise PuzzleError(
                f"variant {variant!r} contradicts the deal's {deal.rules.name}", where
            )
        position = _turns(deal, data.get("position", []), f"{where}.position")
        solution = _turns(deal, data.get("solution", []), f"{where}.solution")
        difficulty = data.get("difficulty", {})
        if not isinstance(difficulty, dict):
            raise PuzzleError("difficulty must be an object", f"{where}.difficulty")
        label = difficulty.get("label")
        if label is not None and label not in LABELS:
            raise PuzzleError(f"unknown label {label!r}", f"{where}.difficulty")
        score = difficulty.get("score", 0)
        if not isinstance(score, int | float) or isinstance(score, bool):
            raise PuzzleError("score must be a number", f"{where}.difficulty")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise PuzzleError("seed must be an integer", f"{where}.seed")
        date = data.get("date")
        if date is not None and not isinstance(date, str):
            raise PuzzleError("date must be a string", f"{where}.date")
        puzzle = cls(deal, position, solution, difficulty, seed, date)
        result = replay(Record(deal, position))
        if not result.legal:
            assert result.error is not None
            raise PuzzleError(
                f"turn {result.error['turn']}: {result.error['message']}", f"{where}.position"
            )
        if result.state.over:
            raise PuzzleError(f"the position is already over ({result.status})", where)
        if solution:
            puzzle.verify()
        return puzzle

    @classmethod
    def from_json(cls, text: str, where: str = "puzzle") -> Puzzle:
        return cls.from_dict(load_json(text, where), where)


def _turns(deal: Deal, raw: Any, where: str) -> tuple[Turn, ...]:
    if not isinstance(raw, list):
        raise PuzzleError("must be a list of turns", where)
    try:
        return Record.from_dict({"deal": deal.to_dict(), "turns": raw}, where).turns
    except InvalidInputError as e:
        raise PuzzleError(e.message, e.where) from None


# -- making puzzles ------------------------------------------------------------


def puzzle_deal(seed: int, rules: Rules) -> Deal:
    return Deal.from_seed(seed, rules, players=1, first=1)


def candidates(deal: Deal, low: int, high: int) -> list[tuple[GameState, list[Turn]]]:
    """The policy's turn-start positions with ``low..high`` cards left, in
    order, each with the opening turns that lead to it."""
    state = GameState(deal)
    turns: list[Turn] = []
    out: list[tuple[GameState, list[Turn]]] = []
    while state.cards_left() >= low:
        if state.cards_left() <= high:
            out.append((state.copy(), list(turns)))
        turn = policy_turn(state)
        if turn is None:
            break
        turns.append(turn)
    return out


def make_puzzle(
    seed: int,
    rules: Rules,
    low: int = CARDS_LOW,
    high: int = CARDS_HIGH,
    select_nodes: int = SELECT_NODES,
    oracle: Oracle | None = None,
) -> Puzzle | None:
    """The puzzle of ``seed``, or None (see the module notes)."""
    deal = puzzle_deal(seed, rules)
    path = candidates(deal, low, high)
    if not path:
        return None

    oracle = oracle or Oracle()

    def wins(i: int) -> bool | None:
        return oracle.wins(path[i][0], select_nodes)

    first = wins(0)
    if not first:
        return None
    lo, hi = 0, len(path)  # path[lo] wins; path[hi] (if any) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = wins(mid)
        if verdict is None:
            return None
        if verdict:
            lo = mid
        else:
            hi = mid
    state, opening_turns = path[lo]
    rating = rate(state, oracle)
    if rating is None:
        return None
    return finish(deal, opening_turns, state, rating.line, rating, seed)


def finish(
    deal: Deal,
    opening_turns: list[Turn],
    state: GameState,
    line: list[Action],
    rating: Rating,
    seed: int | None,
    date: str | None = None,
) -> Puzzle:
    """Build the puzzle and verify that its solution replays to a win."""
    solution, final = replay_actions(state, line)
    if final.status != Status.WON:
        raise PuzzleError("the canonical line does not win", "solution")
    puzzle = Puzzle(
        deal, tuple(opening_turns), tuple(solution), rating.to_dict(), seed, date, rating
    )
    puzzle.verify()
    return puzzle


def daily_plan(day: dt.date) -> tuple[str, Iterator[int]]:
    """The variant and the seeds to try for ``day``."""
    rng = SplitMix64((day - EPOCH).days)

    def seeds() -> Iterator[int]:
        while True:
            yield rng.next() >> 11

    return daily_variant(day), seeds()


def daily(day: dt.date, progress: Callable[[int], None] | None = None) -> Puzzle:
    """The puzzle of ``day`` (see the module notes)."""
    variant, seeds = daily_plan(day)
    rules = get_rules(variant)
    for attempt, seed in enumerate(seeds):
        if attempt >= MAX_ATTEMPTS:
            break
        if progress is not None:
            progress(attempt)
        puzzle = make_puzzle(seed, rules)
        if puzzle is not None:
            puzzle.date = day.isoformat()
            return puzzle
    raise PuzzleError(f"no puzzle found in {MAX_ATTEMPTS} seeds", day.isoformat())


def generate(
    variant: str, seed_start: int = 1, low: int = CARDS_LOW, high: int = CARDS_HIGH
) -> Iterator[tuple[int, Puzzle | None]]:
    """Candidates from seeds ``seed_start, seed_start + 1, ...`` without end:
    ``(seed, puzzle or None)``."""
    rules = get_rules(variant)
    seed = seed_start
    while True:
        yield seed, make_puzzle(seed, rules, low, high)
        seed += 1
