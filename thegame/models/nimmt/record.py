"""A record of one round (rule S6) and the referee that replays it (``check``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..errors import IllegalMoveError, InvalidInputError
from ..jsonio import load_json
from .deal import Deal, card
from .rules import HAND, HEADS, ROWS, Placement, Rows, choices_from, chooser, place_trick


class RoundStatus(StrEnum):
    """Where a round stands (``status`` in ``check --json``)."""

    FINISHED = "finished"
    IN_PROGRESS = "in_progress"


@dataclass(frozen=True)
class Turn:
    """One card per player (player 0 first) and the row choices (player ->
    row, both 0-based) of players whose card went below every row."""

    cards: tuple[int, ...]
    choices: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "rows": {str(p + 1): r + 1 for p, r in sorted(self.choices.items())},
        }


@dataclass(frozen=True)
class Record:
    deal: Deal
    turns: tuple[Turn, ...]

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal.to_json(), "turns": [t.to_json() for t in self.turns]}

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise InvalidInputError("a record must be a JSON object", "record")
        deal = Deal.from_json(data.get("deal"), "deal")
        turns_data = data.get("turns", [])
        if not isinstance(turns_data, list):
            raise InvalidInputError("expected a list of turns", "turns")
        if len(turns_data) > HAND:
            raise InvalidInputError(
                f"{len(turns_data)} turns; a round has {HAND} (rule S5)", "turns"
            )
        turns = tuple(_turn(t, deal.players, f"turns[{i}]") for i, t in enumerate(turns_data))
        return cls(deal, turns)

    @classmethod
    def from_text(cls, text: str, where: str = "record") -> Record:
        return cls.from_json(load_json(text, where))


def _turn(data: Any, players: int, where: str) -> Turn:
    if not isinstance(data, dict):
        raise InvalidInputError("a turn must be an object with 'cards'", where)
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != players:
        raise InvalidInputError(
            f"expected a list of {players} cards, one per player", f"{where}.cards"
        )
    played = tuple(card(c, f"{where}.cards[{i}]") for i, c in enumerate(cards))
    rows = data.get("rows", {})
    if not isinstance(rows, dict):
        raise InvalidInputError('expected an object like {"3": 2}', f"{where}.rows")
    choices: dict[int, int] = {}
    for key, value in rows.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= players):
            raise InvalidInputError(f"{key!r} is not a player 1..{players}", f"{where}.rows")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ROWS:
            raise InvalidInputError(
                f"row {value!r} is out of range 1..{ROWS}", f"{where}.rows.{key}"
            )
        choices[int(key) - 1] = value - 1
    return Turn(played, choices)


@dataclass(frozen=True)
class TurnError:
    """Where a record breaks a rule: turn and player count from 1."""

    turn: int
    player: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "message": self.message}


@dataclass
class Replay:
    """A record replayed up to its end or its first illegal turn.

    ``rows[t]`` are the rows before turn ``t`` (0-based), the last entry the
    rows after the last legal turn; ``placements[t]`` what each card did."""

    record: Record
    rows: list[Rows]
    placements: list[list[Placement]]
    heads: list[int]
    error: TurnError | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def status(self) -> RoundStatus:
        done = self.error is None and len(self.record.turns) == HAND
        return RoundStatus.FINISHED if done else RoundStatus.IN_PROGRESS

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "status": self.status.value,
            "heads": self.heads,
            "error": None if self.error is None else self.error.to_json(),
        }


def replay(record: Record) -> Replay:
    """The referee: replay every turn by rules S2-S4, stopping at the first
    card a player does not hold or a missing or needless row choice (S3)."""
    deal = record.deal
    rows: Rows = tuple((c,) for c in deal.rows)
    hands = [set(h) for h in deal.hands]
    result = Replay(record, [rows], [], [0] * deal.players)
    for t, turn in enumerate(record.turns):
        error = _turn_error(hands, rows, turn)
        if error is not None:
            result.error = TurnError(t + 1, error[0] + 1, error[1])
            return result
        try:
            rows, placed = place_trick(rows, turn.cards, choices_from(turn.choices))
        except IllegalMoveError as e:  # pragma: no cover - _turn_error found it first
            result.error = TurnError(t + 1, 0, str(e))
            return result
        for p in placed:
            hands[p.player].discard(p.card)
            result.heads[p.player] += sum(HEADS[c] for c in p.taken)
        result.rows.append(rows)
        result.placements.append(placed)
    return result


def _turn_error(hands: list[set[int]], rows: Rows, turn: Turn) -> tuple[int, str] | None:
    for p, c in enumerate(turn.cards):
        if c not in hands[p]:
            return p, f"player {p + 1} does not hold card {c} (rules S1, S2)"
    must = chooser(rows, turn.cards)
    for p in sorted(turn.choices):
        if p != must:
            return p, (
                f"player {p + 1} names a row, but card {turn.cards[p]} is not lower than "
                "every row's end, so there is no choice (rule S3)"
            )
    if must is not None and must not in turn.choices:
        return must, (
            f"card {turn.cards[must]} of player {must + 1} is lower than every row's end: "
            "the record must name the row taken (rule S3)"
        )
    return None
