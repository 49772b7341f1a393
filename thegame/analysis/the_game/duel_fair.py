"""A Face to Face turn judged from what its player saw (rules D1-D7).

A duel played with the draw piles face down (``Record.full_view`` false: a
real game) is judged as the classic fair review judges a game: from what
the player could know. At each turn start the mover saw their hand, the
piles and how many cards the other holds, never an order of a draw pile nor
the other's hand. Each turn start gets ``samples`` deals that agree with
that (``duel_blind.sampled_state``, a fixed seed for each turn start); on
each the duel engine answers twice, for the position and after the turn
played. The turn's mark is the drop from the engine's turn (the one it
chose in the most samples) to the turn played, both as mean win chances
over the samples: an estimate always, labelled with its samples and
playouts, never a proof about the real deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...models import Limit, interrupt
from ...models.the_game import GameState, Play, Record, Turn
from ...models.the_game.record import turn_to_dict
from ...solver.the_game.duel.api import DuelResult, engine_answer, engine_for
from ...solver.the_game.duel.engine import DuelEngine
from .duel_blind import sampled_state

# Sampled deals a turn start: four keep a 45-turn review within a few times
# the hindsight's time at the same seconds a position.
FAIR_SAMPLES = 4
FAIR_SEED = 0


@dataclass
class FairJudgement:
    """One turn judged from what its player saw: the mean win chance of the
    engine's turn (``best``) and of the turn played, over ``samples`` deals."""

    turn: int  # 0-based turn of the record
    player: int  # 1-based
    best: float
    played: float
    better: Turn | None  # the engine's turn (None: the one played)
    samples: int
    playouts: int
    mark: str

    @property
    def drop(self) -> float:
        return max(0.0, self.best - self.played)

    def to_dict(self, rules: Any) -> dict[str, Any]:
        return {
            "turn": self.turn + 1,
            "player": self.player,
            "win_chance_best": round(self.best, 3),
            "win_chance_played": round(self.played, 3),
            "drop": round(self.drop, 3),
            "mark": self.mark,
            "samples": self.samples,
            "playouts": self.playouts,
            "better": None if self.better is None else turn_to_dict(rules, self.better),
        }


def fair_review(
    record: Record,
    states: list[GameState],
    limit: Limit,
    mark_for: Callable[[float, bool], str],
    progress: Callable[[int, int], None] | None = None,
    samples: int = FAIR_SAMPLES,
    start_turn: int = 0,
) -> list[FairJudgement]:
    """Each turn of ``record`` from ``start_turn`` (``states``: its turn
    starts) judged from what its player saw; ``limit`` for each turn start,
    shared by its samples."""
    out: list[FairJudgement] = []
    for i, turn in enumerate(record.turns):
        if i < start_turn:
            continue
        if interrupt.requested():
            break
        out.append(_judge(i, turn, states[i], _share(limit, 2 * samples), samples, mark_for))
        if progress is not None:
            progress(i + 1, len(record.turns))
    return out


def _share(limit: Limit, parts: int) -> Limit:
    time = None if limit.time is None else limit.time / parts
    nodes = None if limit.nodes is None else max(1, limit.nodes // parts)
    return Limit(time, nodes)


def _judge(
    i: int,
    turn: Turn,
    state: GameState,
    limit: Limit,
    samples: int,
    mark_for: Callable[[float, bool], str],
) -> FairJudgement:
    rng = random.Random(FAIR_SEED * 1_000_003 + i)
    chose: dict[tuple[Play, ...], int] = {}
    best_sum = played_sum = 0.0
    playouts = 0
    for _ in range(samples):
        guess = sampled_state(state, rng)
        engine = engine_for(guess.deal)
        before = engine_answer(guess, limit, engine)
        chance, mine, k = _chance(before, turn.player)
        playouts += k
        if mine is not None:
            chose[mine] = chose.get(mine, 0) + 1
        best_sum += chance
        # The engine's own turn: its estimate stands for the turn played too
        # (a second question would only add its noise).
        same = mine == turn.plays
        played_sum += chance if same else _after(guess, turn, limit, engine)
    best = best_sum / samples
    played = played_sum / samples
    pick = max(chose, key=chose.__getitem__) if chose else None
    better = None if pick is None or pick == turn.plays else Turn(turn.player, pick)
    mark = "" if better is None else mark_for(best - played, False)
    return FairJudgement(i, turn.player, best, played, better, samples, playouts, mark)


def _chance(res: DuelResult, player: int) -> tuple[float, tuple[Play, ...] | None, int]:
    """The mover's win chance in one sample, the engine's turn and playouts."""
    if res.winner is not None:
        turn = res.turns[0].plays if res.turns else None
        return (1.0 if res.winner == player else 0.0), turn, 0
    est = res.estimate
    if est is None:
        return 0.5, None, 0
    turn = est.turn.plays if est.turn is not None else None
    return est.win_chance, turn, est.playouts


def _after(guess: GameState, turn: Turn, limit: Limit, engine: DuelEngine) -> float:
    """The player's win chance in one sample after the turn played."""
    s = guess.copy()
    for p in turn.plays:
        s.play(p.card, p.pile)
    if s.over:
        return 1.0 if s.winner == turn.player else 0.0
    s.end_turn()
    if s.over:
        return 1.0 if s.winner == turn.player else 0.0
    res = engine_answer(s, limit, engine)
    chance, _turn, _k = _chance(res, s.current + 1)
    return 1.0 - chance
