"""A record of one round (rule S6), a whole game's rounds, and the referee that
replays them (``check``, ``check_game``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..check import CheckResult
from ..errors import IllegalMoveError, InvalidInputError
from ..jsonio import item, load_json, same_game
from .deal import GAME_NAME, Deal, card
from .rules import GAME_END, HAND, HEADS, ROWS, Placement, Rows, choices_from, chooser, place_trick


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
        turns = tuple(_turn(t, deal.players, item("turns", i)) for i, t in enumerate(turns_data))
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
    played = tuple(card(c, item(f"{where}.cards", i)) for i, c in enumerate(cards))
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
    """Where a record breaks a rule: turn and player count from 1; ``rule``
    is the rule id (S1-S5)."""

    turn: int
    player: int | None  # None: no one player's card (a rule S5 error of a game)
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """The error object every game shares. In 6 nimmt! every player
        plays one card a turn, in seat order, so the play is the player."""
        return {"turn": self.turn, "play": self.player, "rule": self.rule, "message": self.message}


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

    @property
    def reason(self) -> str | None:
        """Why the round ended, with the rule id; None while it goes on."""
        if self.status != RoundStatus.FINISHED:
            return None
        return "all ten cards of every hand are played (rule S5)"

    @property
    def winner(self) -> None:
        """A round has no winner: the game's fewest points win (rule S5)."""
        return None

    def cards_left(self) -> int:
        """The cards still in the hands."""
        return self.record.deal.players * (HAND - len(self.placements))

    def check_fields(self) -> dict[str, Any]:
        """The fields of ``thegame nimmt check --json`` of a round, after the status."""
        return {"heads": self.heads}


def check(record: Record) -> CheckResult[Replay]:
    """Replay a round (rules S1-S4): legal, or the first illegal turn (``error``
    is ``{"turn", "play", "rule", "message"}``, the play being the player)."""
    result = replay(record)
    error = None if result.error is None else result.error.to_json()
    return CheckResult(result.legal, result, error, steps_ok=len(result.placements))


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
            result.error = TurnError(t + 1, error[0] + 1, error[1], error[2])
            return result
        try:
            rows, placed = place_trick(rows, turn.cards, choices_from(turn.choices))
        except IllegalMoveError as e:  # pragma: no cover - _turn_error found it first
            result.error = TurnError(t + 1, None, e.rule, e.message)
            return result
        for p in placed:
            hands[p.player].discard(p.card)
            result.heads[p.player] += sum(HEADS[c] for c in p.taken)
        result.rows.append(rows)
        result.placements.append(placed)
    return result


def _turn_error(hands: list[set[int]], rows: Rows, turn: Turn) -> tuple[int, str, str] | None:
    """The first broken rule of a turn: (0-based player, rule id, message)."""
    for p, c in enumerate(turn.cards):
        if c not in hands[p]:
            return p, "S2", f"player {p + 1} does not hold card {c} (rules S1, S2)"
    must = chooser(rows, turn.cards)
    for p in sorted(turn.choices):
        if p != must:
            return (
                p,
                "S3",
                (
                    f"player {p + 1} names a row, but card {turn.cards[p]} is not lower than "
                    "every row's end, so there is no choice (rule S3)"
                ),
            )
    if must is not None and must not in turn.choices:
        return (
            must,
            "S3",
            (
                f"card {turn.cards[must]} of player {must + 1} is lower than every row's end: "
                "the record must name the row taken (rule S3)"
            ),
        )
    return None


class GameStatus(StrEnum):
    """Where a whole game stands (rule S5)."""

    FINISHED = "finished"  # a player has 66 or more after a round
    IN_PROGRESS = "in_progress"


@dataclass(frozen=True)
class GameRecord:
    """A whole game (rule S5): its rounds in order, each a round record
    (rule S6); ``seed`` is the game's seed when it was dealt from one."""

    rounds: tuple[Record, ...]
    seed: int | None = None

    @property
    def players(self) -> int:
        return self.rounds[0].deal.players

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": GAME_NAME, "players": self.players}
        if self.seed is not None:
            data["seed"] = self.seed
        data["rounds"] = [r.to_json() for r in self.rounds]
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise InvalidInputError("a game must be a JSON object", "game")
        rounds_data = data.get("rounds")
        if not isinstance(rounds_data, list) or not rounds_data:
            raise InvalidInputError("expected a list of round records", "rounds")
        rounds = []
        for i, r in enumerate(rounds_data):
            try:
                rounds.append(Record.from_json(r))
            except InvalidInputError as e:
                raise InvalidInputError(e.message, f"{item('rounds', i)}.{e.where}") from None
        n = rounds[0].deal.players
        for i, r in enumerate(rounds):
            if r.deal.players != n:
                raise InvalidInputError(
                    f"{r.deal.players} players, but round 1 has {n}", f"{item('rounds', i)}.deal"
                )
        seed = data.get("seed")
        return cls(tuple(rounds), seed if isinstance(seed, int) else None)


def load_file(data: Any) -> Record | GameRecord:
    """A round record, or a whole game (an object with ``rounds``)."""
    same_game(data, GAME_NAME, "")  # the file's place is its reader's to add
    if isinstance(data, dict) and "rounds" in data:
        return GameRecord.from_json(data)
    return Record.from_json(data)


@dataclass(frozen=True)
class GameError:
    """Where a game record breaks a rule: the round (from 1) and the error."""

    round: int
    error: TurnError

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, **self.error.to_json()}


@dataclass
class GameReplay:
    """A game replayed round by round; ``scores`` after the last legal round."""

    game: GameRecord
    rounds: list[Replay]
    scores: list[int]
    error: GameError | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def status(self) -> GameStatus:
        done = self.legal and self.rounds[-1].status == RoundStatus.FINISHED
        over = max(self.scores) >= GAME_END
        return GameStatus.FINISHED if done and over else GameStatus.IN_PROGRESS

    @property
    def reason(self) -> str | None:
        """Why the game ended, with the rule id; None while it goes on."""
        if self.status != GameStatus.FINISHED:
            return None
        top = max(self.scores)
        return f"a player has {top} points, {GAME_END} or more, after a round (rule S5)"

    @property
    def winner(self) -> int | None:
        """The player (from 1) with the fewest points alone at the end (rule S5);
        None while the game goes on or when players share the win."""
        low = min(self.scores)
        if self.status != GameStatus.FINISHED or self.scores.count(low) > 1:
            return None
        return self.scores.index(low) + 1

    def cards_left(self) -> int:
        """The cards still in the hands in the last round replayed."""
        return self.rounds[-1].cards_left() if self.rounds else 0

    def check_fields(self) -> dict[str, Any]:
        """The fields of ``thegame nimmt check --json`` of a game, after the status."""
        return {
            "scores": self.scores,
            "rounds": [
                {"round": i, "status": r.status, "heads": r.heads}
                for i, r in enumerate(self.rounds, 1)
            ],
        }


def check_game(game: GameRecord) -> CheckResult[GameReplay]:
    """Replay a whole game (rules S1-S5): legal, or the first illegal turn
    with its round (``error`` is ``{"round", "turn", "play", "rule", "message"}``)."""
    result = replay_game(game)
    error = None if result.error is None else result.error.to_json()
    steps = sum(len(r.placements) for r in result.rounds)
    return CheckResult(result.legal, result, error, steps_ok=steps)


def replay_game(game: GameRecord) -> GameReplay:
    """Replay every round (rules S1-S4) and the game's end (rule S5): every
    round but the last has all 10 turns, and no round follows one after
    which a player has 66 or more."""
    result = GameReplay(game, [], [0] * game.players)
    for i, record in enumerate(game.rounds, 1):
        if i > 1:
            before = result.rounds[-1]
            if before.status != RoundStatus.FINISHED:
                result.error = GameError(
                    i - 1,
                    TurnError(
                        len(game.rounds[i - 2].turns) + 1,
                        None,
                        "S5",
                        f"round {i - 1} has {len(game.rounds[i - 2].turns)} of {HAND} turns, "
                        f"but round {i} follows it",
                    ),
                )
                return result
            if max(result.scores) >= GAME_END:
                result.error = GameError(
                    i,
                    TurnError(
                        1,
                        None,
                        "S5",
                        f"the game ended after round {i - 1} (a player has {max(result.scores)}, "
                        f"{GAME_END} or more)",
                    ),
                )
                return result
        replayed = replay(record)
        result.rounds.append(replayed)
        if replayed.error is not None:
            result.error = GameError(i, replayed.error)
            return result
        result.scores = [s + h for s, h in zip(result.scores, replayed.heads, strict=True)]
    return result
