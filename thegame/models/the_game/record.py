"""Game records (a deal and the turns played) and their replay through the engine."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..check import CheckResult, illegal_record
from ..check import step_text as step_text  # its old home: the solver and puzzles
from ..errors import IllegalMoveError, InvalidInputError
from ..jsonio import item, load_json
from .deal import Deal
from .state import GameState, Play, pile_index, pile_name


@dataclass(frozen=True)
class Turn:
    player: int  # 1-based
    plays: tuple[Play, ...]


@dataclass(frozen=True)
class Record:
    """A deal and the turns played. ``full_view``: the player saw the order
    of the draw pile (a puzzle, a known-order game); False for a real game,
    the pile face down, and for files that do not say."""

    deal: Deal
    turns: tuple[Turn, ...] = ()
    full_view: bool = False

    @property
    def first(self) -> int:
        """The starting player: fixed by the deal, else stated by the first
        turn (rule C3: whoever records the game states it), else player 1."""
        if self.deal.first is not None:
            return self.deal.first
        if self.turns:
            return self.turns[0].player
        return 1

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        return {
            "deal": self.deal.to_dict(),
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            "full_view": self.full_view,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> Record:
        if not isinstance(data, dict):
            raise InvalidInputError("a record must be a JSON object", where)
        unknown = sorted(set(data) - {"deal", "turns", "full_view"})
        if unknown:
            raise InvalidInputError(f"unknown key {unknown[0]!r}", where)
        if "deal" not in data:
            raise InvalidInputError('missing "deal"', where)
        full_view = data.get("full_view", False)  # older files: the pile face down
        if not isinstance(full_view, bool):
            raise InvalidInputError("full_view must be true or false", f"{where}.full_view")
        deal = Deal.from_dict(data["deal"], f"{where}.deal")
        turns = turns_from_list(deal, data.get("turns", []), f"{where}.turns")
        return cls(deal, turns, full_view)

    @classmethod
    def from_json(cls, text: str, where: str = "record") -> Record:
        return cls.from_dict(load_json(text, where), where)


def turns_from_list(deal: Deal, raw: Any, where: str = "turns") -> tuple[Turn, ...]:
    """Turns in the record format on ``deal``; a bad one is named by its
    path from ``where``, counted from 1 (``turns[2].plays[1].card``)."""
    if not isinstance(raw, list):
        raise InvalidInputError("turns must be a list", where)
    return tuple(_turn_from_dict(deal, t, item(where, i)) for i, t in enumerate(raw))


def turn_to_dict(rules: Any, turn: Turn) -> dict[str, Any]:
    return {
        "player": turn.player,
        "plays": [{"card": p.card, "pile": pile_name(rules, p.pile)} for p in turn.plays],
    }


def _turn_from_dict(deal: Deal, raw: Any, where: str) -> Turn:
    if not isinstance(raw, dict):
        raise InvalidInputError('a turn must be an object {"player": N, "plays": [...]}', where)
    player = raw.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        raise InvalidInputError("player must be an integer", f"{where}.player")
    if not 1 <= player <= deal.players:
        raise InvalidInputError(
            f"player {player} does not exist (players 1-{deal.players})", f"{where}.player"
        )
    plays_raw = raw.get("plays")
    if not isinstance(plays_raw, list):
        raise InvalidInputError("plays must be a list", f"{where}.plays")
    plays = []
    for j, p in enumerate(plays_raw):
        at = item(f"{where}.plays", j)
        if not isinstance(p, dict) or set(p) != {"card", "pile"}:
            raise InvalidInputError('a play must be {"card": N, "pile": "A1"}', at)
        card, pile = p["card"], p["pile"]
        if not isinstance(card, int) or isinstance(card, bool):
            raise InvalidInputError("card must be an integer", f"{at}.card")
        if not isinstance(pile, str):
            raise InvalidInputError("pile must be a name like A1 or D2", f"{at}.pile")
        try:
            index = pile_index(deal.rules, pile)
        except InvalidInputError as err:
            raise InvalidInputError(err.message, f"{at}.pile") from None
        plays.append(Play(card, index))
    return Turn(player, tuple(plays))


def replay(record: Record) -> CheckResult[GameState]:
    """Replay every turn through the engine; stop at the first illegal step.

    ``error`` is ``{"turn", "play", "rule", "message"}``, turns and plays
    counted from 1 as on screen; ``play`` is null when the turn as a whole
    is wrong (the wrong player, or ending it is illegal).
    """
    state = GameState(record.deal, first=record.first)

    def fail(i: int, j: int | None, err: IllegalMoveError) -> CheckResult[GameState]:
        return CheckResult(
            legal=False,
            state=state,
            error={
                "turn": i + 1,
                "play": None if j is None else j + 1,
                "rule": err.rule,
                "message": err.message,
            },
            steps_ok=i,
        )

    for i, turn in enumerate(record.turns):
        if state.over:
            return fail(i, None, IllegalMoveError("C8", f"the game is over ({state.reason})"))
        if turn.player - 1 != state.current:
            return fail(
                i,
                None,
                IllegalMoveError(
                    "C3", f"it is player {state.current + 1}'s turn, not player {turn.player}'s"
                ),
            )
        for j, play in enumerate(turn.plays):
            try:
                state.play(play.card, play.pile)
            except IllegalMoveError as err:
                return fail(i, j, err)
        if state.over:  # a duel won at once (D6), a command broken (X2)
            continue
        try:
            state.end_turn()
        except IllegalMoveError as err:
            return fail(i, None, err)
    return CheckResult(legal=True, state=state, steps_ok=len(record.turns))


def replayed(record: Record, where: str = "record") -> GameState:
    """The engine position where a legal ``record`` ends; an illegal one
    raises ``InvalidInputError`` naming the first illegal step."""
    result = replay(record)
    if result.error is not None:
        raise illegal_record(result.error, where)
    return result.state
