"""``analyze``: where a played Cento game went wrong, by the exact solvers.

Every position of the record (before each turn, and the end) is solved:

* alone, the fewest turns still needed from there (rule Z1: empty the hand).
  A turn *wastes* turns when the fewest from after it, plus the turn itself,
  exceed the fewest from before it; a turn that leaves a hand that can no
  longer be emptied loses the win outright.
* two players, who wins with best play from there (the two-player search).
  A turn *throws away* a result when the mover's proven value drops (a
  forced win to a shared win or a loss, or a shared win to a loss). Only
  positions the search decides within the budget count; the others are
  reported as undecided.

Each mistake comes with a turn that keeps the value instead: the first turn
of the solver's line from the position before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...models.cento.record import Record, check
from ...models.cento.rules import CentoStatus
from ...models.cento.state import State, Turn, apply_turn, initial_state
from ...models.errors import IllegalMoveError
from ...models.outcome import Limit, Verdict
from ...solver.cento.duel import solve_duel
from ...solver.cento.solo import solve_solo, to_turn
from ...solver.cento.table import TableVerdict, solve_table
from .engine import Rating
from .sampler import SampleEngine


@dataclass(frozen=True)
class Position:
    """The solved value of one position, for the player to move there.

    Alone: ``fewest`` turns left (0 when the hand is empty), None when the
    hand cannot be emptied (``verdict`` loss) or undecided. Two players:
    ``value`` +1 / 0 / -1 for the player to move, None when undecided."""

    verdict: Verdict
    fewest: int | None = None
    value: int | None = None
    best: Turn | None = None


@dataclass(frozen=True)
class TurnReview:
    turn: int  # from 1
    player: int  # from 1
    played: Turn
    before: Position
    after: Position
    cost: int | None  # turns wasted (alone) or value lost for the mover (two players)
    lost_win: bool  # the turn threw away a win (alone: the hand can no longer be emptied)

    def to_dict(self, players: int) -> dict[str, Any]:
        d: dict[str, Any] = {"turn": self.turn, "player": self.player}
        d["played"] = self.played.to_dict()
        if players == 1:
            d["fewest_before"] = self.before.fewest
            d["fewest_after"] = self.after.fewest
            d["wasted"] = self.cost
        else:
            # Both for the player who moved: +1 wins, 0 shared, -1 loses.
            d["value_before"] = self.before.value
            d["value_after"] = None if self.after.value is None else -self.after.value
            d["value_lost"] = self.cost
        d["lost_win"] = self.lost_win
        d["best"] = self.best_instead.to_dict() if self.best_instead else None
        return d

    @property
    def mistake(self) -> bool:
        return self.lost_win or bool(self.cost)

    @property
    def best_instead(self) -> Turn | None:
        return self.before.best if self.mistake else None


@dataclass(frozen=True)
class Review:
    record: Record
    start: Position
    turns: tuple[TurnReview, ...]
    status: CentoStatus
    nodes: int
    seconds: float
    undecided: int = field(default=0)

    @property
    def players(self) -> int:
        return self.record.deal.players

    @property
    def first_mistake(self) -> TurnReview | None:
        """Alone: the first turn that wasted turns or the win. Two players:
        the first turn that threw a forced win away."""
        for t in self.turns:
            if t.lost_win or (self.players == 1 and t.mistake):
                return t
        return None

    @property
    def wasted(self) -> int | None:
        """Alone and won: the turns played beyond the proven fewest."""
        if self.players != 1 or self.status != CentoStatus.WON or self.start.fewest is None:
            return None
        return len(self.record.turns) - self.start.fewest

    def to_dict(self) -> dict[str, Any]:
        first = self.first_mistake
        verdict = str(self.start.verdict)
        if self.players == 2:  # for player 1, as ``solve`` says it
            verdict = {1: "win", -1: "loss", 0: "tie", None: "unknown"}[self.start.value]
        d: dict[str, Any] = {
            "players": self.players,
            "status": str(self.status),
            "verdict": verdict,
            "optimal": self.undecided == 0,
        }
        if self.players == 1:
            d["turn_count"] = self.start.fewest
            d["turns_played"] = len(self.record.turns)
            d["wasted"] = self.wasted
        else:
            d["value"] = self.start.value
            d["undecided"] = self.undecided
        d["first_mistake"] = None if first is None else first.turn
        d["turns"] = [t.to_dict(self.players) for t in self.turns]
        d["stats"] = {"nodes": self.nodes, "seconds": round(self.seconds, 4)}
        return d


class _Solver:
    def __init__(self, record: Record, limit: Limit) -> None:
        self.deal = record.deal
        self.limit = limit
        self.nodes = 0

    def position(self, state: State) -> Position:
        deal = self.deal
        if state.over:
            if deal.players == 1:
                won = state.status == CentoStatus.WON
                return Position(Verdict.WIN if won else Verdict.LOSS, 0 if won else None)
            # The game is over; the value is for the seat that would move next.
            me = state.to_move
            v = -1
            if me in state.winners:
                v = 0 if len(state.winners) > 1 else 1
            return Position(Verdict.WIN if v == 1 else Verdict.LOSS, value=v)
        if deal.players == 1:
            solo = solve_solo(deal, self.limit, state)
            self.nodes += solo.nodes
            best = solo.turns[0] if solo.turns else None
            return Position(solo.verdict, solo.turn_count, best=best)
        duel = solve_duel(deal, self.limit, state)
        self.nodes += duel.nodes
        if duel.value is None:
            return Position(Verdict.UNKNOWN)
        v = duel.value if state.to_move == 0 else -duel.value
        verdict = Verdict.WIN if v == 1 else Verdict.LOSS if v == -1 else Verdict.UNKNOWN
        best = duel.turns[0] if duel.turns else None
        return Position(verdict, value=v, best=best)


def review(
    record: Record, limit: Limit, step: Callable[[int], None] | None = None
) -> Review | TableReview:
    """Solve every position of a legal 1- or 2-player record (see the module)."""
    result = check(record)
    if result.error is not None:
        e = result.error
        raise IllegalMoveError(
            e["rule"], f"turn {e['turn']}: {e['message']} (fix the record first)"
        )
    deal = record.deal
    if deal.players > 2:
        return review_table(record, limit, step)
    start = time.monotonic()
    solver = _Solver(record, limit)
    states = [initial_state(deal)]
    for turn in record.turns:
        states.append(apply_turn(deal, states[-1], turn))
    positions: list[Position] = []
    for i, s in enumerate(states):
        if deal.players == 1 and positions and positions[-1].verdict == Verdict.LOSS:
            # Every later position is reachable from this one: no win there either.
            positions.append(Position(Verdict.LOSS))
        else:
            positions.append(solver.position(s))
        if step is not None:
            step(i)
    reviews = []
    undecided = 0
    for i, turn in enumerate(record.turns):
        before, after = positions[i], positions[i + 1]
        if deal.players == 1:
            cost, lost = _solo_cost(before, after)
        else:
            cost, lost = _duel_cost(before, after)
            undecided += before.value is None
        reviews.append(TurnReview(i + 1, turn.player, turn, before, after, cost, lost))
    if deal.players == 2:
        undecided += positions[-1].value is None
    elif any(p.verdict == Verdict.UNKNOWN for p in positions):
        undecided = sum(p.verdict == Verdict.UNKNOWN for p in positions)
    return Review(
        record,
        positions[0],
        tuple(reviews),
        result.state.status,
        solver.nodes,
        time.monotonic() - start,
        undecided,
    )


def _solo_cost(before: Position, after: Position) -> tuple[int | None, bool]:
    if before.fewest is None:
        return None, False
    if after.verdict == Verdict.LOSS:
        return None, True
    if after.fewest is None:
        return None, False
    return after.fewest + 1 - before.fewest, False


def _duel_cost(before: Position, after: Position) -> tuple[int | None, bool]:
    """The mover's value lost by the turn (0 when kept), and whether a
    forced win was thrown away; None when either side is undecided. The
    turn passes to the other player (rule Z1), so the value after it is the
    negation of the other player's."""
    if before.value is None or after.value is None:
        return None, False
    mine_after = -after.value
    lost = before.value - mine_after
    return lost, before.value == 1 and mine_after < 1


@dataclass(frozen=True)
class SeatTurn:
    """One turn of a 3-6 player record, for the player who took it: could
    that player force a win (whatever the others do together) before the
    turn, and still after it (None: undecided within the budget)? When
    either is undecided, the engine's estimate from what the seat saw."""

    turn: int
    player: int
    played: Turn
    win_before: bool | None
    win_after: bool | None
    best: Turn | None
    estimate: Rating | None

    @property
    def lost_win(self) -> bool:
        """Proven: a forced win before the turn, none after it."""
        return self.win_before is True and self.win_after is False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "turn": self.turn,
            "player": self.player,
            "played": self.played.to_dict(),
            "win_before": self.win_before,
            "win_after": self.win_after,
            "lost_win": self.lost_win,
            "best": self.best.to_dict() if self.lost_win and self.best else None,
        }
        if self.estimate is not None:
            e = self.estimate
            d["estimate"] = {
                "share_played": round(e.played, 3),
                "share_best": round(e.best, 3),
                "best": to_turn(self.player, e.best_outcome).to_dict(),
                "worlds": e.worlds,
            }
        return d


@dataclass(frozen=True)
class TableReview:
    """A 3-6 player record reviewed turn by turn (``SeatTurn``)."""

    record: Record
    turns: tuple[SeatTurn, ...]
    status: CentoStatus
    nodes: int
    seconds: float

    @property
    def players(self) -> int:
        return self.record.deal.players

    @property
    def undecided(self) -> int:
        return sum(t.win_before is None or t.win_after is None for t in self.turns)

    @property
    def first_mistake(self) -> SeatTurn | None:
        return next((t for t in self.turns if t.lost_win), None)

    def to_dict(self) -> dict[str, Any]:
        first = self.first_mistake
        return {
            "players": self.players,
            "status": str(self.status),
            "question": "could the player who moved force a win whatever the others did together",
            "optimal": self.undecided == 0,
            "undecided": self.undecided,
            "first_mistake": None if first is None else first.turn,
            "turns": [t.to_dict() for t in self.turns],
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


def _rating_limit(limit: Limit) -> Limit:
    """The engine's share of a position's budget: at most a second and
    2,000 worlds (it only has to tell a turn from the engine's choice)."""
    seconds = None if limit.time is None else min(limit.time, 1.0)
    return Limit(time=seconds, nodes=2000)


def review_table(
    record: Record, limit: Limit, step: Callable[[int], None] | None = None
) -> TableReview:
    """Each turn of a 3-6 player record: the mover's forced win before and
    after it (the table search, ``limit`` per position); where that is
    undecided, the engine's estimate of the turn against its best
    (``_rating_limit``)."""
    deal = record.deal
    start = time.monotonic()
    nodes = 0
    state = initial_state(deal)
    engine = SampleEngine(deal, 0)
    out: list[SeatTurn] = []
    for i, turn in enumerate(record.turns):
        seat = state.to_move + 1
        before = solve_table(deal, seat, limit, state)
        after_state = apply_turn(deal, state, turn)
        nodes += before.nodes
        if after_state.over:
            win_after: bool | None = state.to_move in after_state.winners
        else:
            after = solve_table(deal, seat, limit, after_state)
            nodes += after.nodes
            win_after = None if not after.optimal else after.verdict == TableVerdict.WIN
        win_before = None if not before.optimal else before.verdict == TableVerdict.WIN
        rating = None
        if win_before is None or win_after is None:
            rating = engine.rate(state, turn, _rating_limit(limit), record.turns[:i])
        best = before.turns[0] if before.turns else None
        out.append(SeatTurn(i + 1, seat, turn, win_before, win_after, best, rating))
        state = after_state
        if step is not None:
            step(i)
    return TableReview(record, tuple(out), state.status, nodes, time.monotonic() - start)
