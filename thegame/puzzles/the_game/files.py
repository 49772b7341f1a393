"""Puzzle files: a deal, the opening already played, a verified solution and
the rating, as JSON (the format is in the README)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...models import InvalidInputError
from ...models.jsonio import load_json, same_game
from ...models.outcome import Status, Verdict
from ...models.the_game import Deal, GameState, Record, Turn, replay
from ...models.the_game.deal import GAME
from ...models.the_game.record import step_text, turn_to_dict
from .rating import LABELS, Rating


class PuzzleError(InvalidInputError):
    """A puzzle file that is malformed or whose solution does not win."""



@dataclass
class Puzzle:
    deal: Deal
    position: tuple[Turn, ...]  # the opening, already played
    solution: tuple[Turn, ...]  # from the position to a perfect clear
    difficulty: dict[str, Any]  # label, score and the measures (``Rating.to_dict``)
    seed: int | None = None
    date: str | None = None
    rating: Rating | None = field(default=None, compare=False, repr=False)
    # A duel endgame (Face to Face): the verdict for the player to move, the
    # turns that solve it (each forces the win as fast as the solution's)
    # and what the search that proved it cost.
    verdict: Verdict | None = None
    answers: tuple[Turn, ...] = ()
    stats: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def variant(self) -> str:
        return self.deal.rules.name

    @property
    def label(self) -> str:
        return str(self.difficulty.get("label", "?"))

    @property
    def score(self) -> float:
        return float(self.difficulty.get("score", 0))

    def start(self, where: str = "position") -> GameState:
        """The puzzle position (the opening replayed through the engine)."""
        result = replay(Record(self.deal, self.position))
        if result.error is not None:
            raise PuzzleError(f"illegal: {step_text(result.error)}", where)
        if result.state.over:
            raise PuzzleError(
                f"the game is already over ({result.status}: {result.reason}): "
                "nothing left to play",
                where,
            )
        return result.state

    def record(self) -> Record:
        """The whole game: opening and solution; ``thegame check`` says won."""
        return Record(self.deal, self.position + self.solution, full_view=True)

    def verify(self) -> None:
        """Raise ``PuzzleError`` unless the solution replays to a win (a
        duel: to the win of the player to move at the position, D6)."""
        result = replay(self.record())
        if not result.legal:
            assert result.error is not None
            message = result.error["message"]
            raise PuzzleError(f"the solution does not replay: {message}", "solution")
        if self.deal.rules.is_duel:
            mover = self.start().current + 1
            if not result.state.over or result.state.winner != mover:
                raise PuzzleError(
                    f"the solution does not end with player {mover}'s win", "solution"
                )
            for answer in self.answers:
                # Each answer is a legal turn of the mover at the position.
                check = replay(Record(self.deal, (*self.position, answer)))
                if answer.player != mover or not check.legal:
                    raise PuzzleError(f"an answer is not a legal turn of player {mover}", "answers")
            return
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
            # The solution's turns, named as every line is ("solution" until 0.2).
            "turns": [turn_to_dict(rules, t) for t in self.solution],
        } | self._duel_dict()

    def _duel_dict(self) -> dict[str, Any]:
        if self.verdict is None:
            return {}
        rules = self.deal.rules
        return {
            "player": self.start().current + 1,
            "verdict": self.verdict,
            "answers": [turn_to_dict(rules, t) for t in self.answers],
            "stats": dict(self.stats or {}),
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
            puzzle.start(where)
            return puzzle
        known = {
            "date", "variant", "seed", "cards_left", "deal", "position", "difficulty", "turns",
            "solution", "player", "verdict", "answers", "stats",
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
        if "turns" in data and "solution" in data:
            raise PuzzleError('give the solution once, as "turns"', where)
        key = "solution" if "solution" in data else "turns"  # "solution": older files
        solution = _turns(deal, data.get(key, []), f"{where}.{key}")
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
        verdict = data.get("verdict")
        if verdict is not None and verdict != Verdict.WIN:
            raise PuzzleError("a puzzle's verdict is 'win'", f"{where}.verdict")
        answers = _turns(deal, data.get("answers", []), f"{where}.answers")
        stats = data.get("stats")
        if stats is not None and not isinstance(stats, dict):
            raise PuzzleError("stats must be an object", f"{where}.stats")
        puzzle = cls(
            deal, position, solution, difficulty, seed, date,
            verdict=None if verdict is None else Verdict.WIN, answers=answers, stats=stats,
        )  # fmt: skip
        puzzle.start(f"{where}.position")
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


# -- any file that holds a game --------------------------------------------------------
# The one reader of deal, record and puzzle files: the CLI (``--deal FILE``,
# a record ``FILE``), the library's ``thegame.load`` and the server's
# requests all call these, so a file means the same thing everywhere.


def game_from_json(data: Any, where: str) -> Record:
    """A deal, a game record or a puzzle given as parsed JSON, as a record:
    a puzzle's turns are its ``position`` (the solution it carries is not
    read as played), a deal has no turns."""
    same_game(data, GAME, where)
    if isinstance(data, dict) and "position" in data:
        puzzle = Puzzle.from_dict(data, where)
        return Record(puzzle.deal, puzzle.position, full_view=True)  # a puzzle shows every card
    if isinstance(data, dict) and ("deal" in data or "turns" in data):
        return Record.from_dict(data, where)
    return Record(Deal.from_dict(data, where))


def parse_game_text(text: str, where: str) -> Record:
    """A file's text as a record: deal JSON or the one-line text form (no
    turns), a game record, or a puzzle file (its position)."""
    stripped = text.strip()
    if not stripped:
        raise InvalidInputError("the file is empty", where)
    if stripped.startswith("{"):
        return game_from_json(load_json(text, where), where)  # columns as in the file
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) != 1:
        raise InvalidInputError("a text deal is one line", where)
    return Record(Deal.from_text(lines[0], where))
