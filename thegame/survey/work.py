"""One unit of work as plain data: a deal decided by the solver, or played blind.

Workers (local processes or Ray tasks) call these; they return rows of plain
values so that any backend can send them back to the one writer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .. import __version__
from ..analysis.the_game.blind import TurnChooser, play_out
from ..analysis.the_game.strong import StrongPlayer
from ..models import InvalidInputError, interrupt
from ..models.outcome import Limit, Status, Verdict
from ..models.the_game import Deal, GameState, Play, Rules, Turn, get_rules
from ..models.the_game.notation import parse_play
from ..models.the_game.state import pile_name
from ..solver.the_game.api import Solution, solve


class Kind(StrEnum):
    """What a survey does to a deal: decide it with the exact solver, or
    play it with the blind policy (the database table it goes to)."""

    DEAL = "deal"
    BLIND = "blind"
    STRONG = "strong"  # played with the strong blind player (its own table)


Row = dict[str, Any]


@dataclass(frozen=True)
class StrongSpec:
    """The strong blind player of a survey: its budget per turn (playouts,
    seconds; 0 for none) and the seed of its samples."""

    playouts: int = 0
    turn_time: float = 0.0
    sample_seed: int = 0

    def budget(self) -> Limit:
        return Limit(self.turn_time or None, self.playouts or None)  # a playout a node

    def key(self) -> tuple[int, float, int]:
        return (self.playouts, self.turn_time, self.sample_seed)


# (kind, variant, players, seeds, time limit, strong player: for Kind.STRONG).
Chunk = tuple[Kind, str, int, tuple[int, ...], Limit, StrongSpec | None]


def proof_kind(sol: Solution) -> str | None:
    """A short name for how the verdict is known."""
    if sol.verdict == Verdict.WIN:
        return "line"  # a winning line replayed through the rules engine
    if sol.verdict == Verdict.UNKNOWN or sol.proof is None:
        return None
    return "bounds" if "graph bounds" in sol.proof else "exhaustive"


def line_text(sol: Solution) -> str:
    """The line, compact: ``player:card pile,card pile;player:...``."""
    rules = sol.deal.rules
    return ";".join(
        f"{t.player}:" + ",".join(f"{p.card} {pile_name(rules, p.pile)}" for p in t.plays)
        for t in sol.turns
    )


def line_turns(rules: Rules, text: str) -> tuple[Turn, ...]:
    """The turns of a stored line (``line_text``'s inverse); a play that is
    not one raises InvalidInputError."""
    turns = []
    for turn in text.split(";") if text else []:
        player, plays = turn.split(":", 1)
        parsed = []
        for play in plays.split(","):
            card, pile = parse_play(rules, play)
            if pile is None:
                raise InvalidInputError(f"{play.strip()!r} names no pile", "line")
            parsed.append(Play(card, pile))
        turns.append(Turn(int(player), tuple(parsed)))
    return tuple(turns)


def decide(variant: str, players: int, seed: int, limit: Limit) -> Row:
    """Solve the deal of ``seed`` (the start is free, rule C3) within the budget.

    The row is made only for a search that finished: an answer, or its whole
    budget spent. A search that Ctrl-C cut short raises ``KeyboardInterrupt``
    (``solve`` is polled), so its ``unknown`` is never stored as if the
    budget had run out."""
    deal = Deal.from_seed(seed, get_rules(variant), players)
    sol = solve(deal, limit)
    interrupt.check()
    return deal_row(variant, players, seed, sol, limit)


def deal_row(
    variant: str, players: int, seed: int, sol: Solution, limit: Limit
) -> Row:
    """The ``deals`` row of a solution (its budget: ``limit``'s seconds)."""
    return {
        "variant": variant,
        "players": players,
        "seed": seed,
        "verdict": str(sol.verdict.value),
        "first": sol.first,
        "cards_left": sol.cards_left,
        "cards_left_proven": int(sol.optimal),
        "lower_bound": sol.cards_left if sol.optimal else sol.lower_bound,
        "proof_kind": proof_kind(sol),
        "proof": sol.proof,
        "line": line_text(sol),
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 4),
        "time_limit": limit.time,
        "version": __version__,
    }


def play_blind(
    variant: str, players: int, seed: int, policy: TurnChooser | None = None
) -> Row:
    """Play the deal of ``seed`` with ``policy`` (default: the blind policy),
    player 1 first (as ``benchmarks/blind.py`` does)."""
    state = GameState(Deal.from_seed(seed, get_rules(variant), players), first=1)
    start = time.perf_counter()
    final = play_out(state, policy)
    return {
        "variant": variant,
        "players": players,
        "seed": seed,
        "won": int(final.status == Status.WON),
        "cards_left": final.cards_left(),
        "turns": final.turn,
        "seconds": round(time.perf_counter() - start, 4),
        "version": __version__,
    }


def play_strong(variant: str, players: int, seed: int, spec: StrongSpec) -> Row:
    """Play the deal of ``seed`` with the strong blind player, player 1 first;
    the row also says its budget and the playouts it spent."""
    player = StrongPlayer(spec.budget(), seed=spec.sample_seed)
    spent = 0

    def choose(st: GameState) -> list[Play]:
        nonlocal spent
        choice = player.choose(st)
        spent += choice.playouts
        return choice.plays

    row = play_blind(variant, players, seed, choose)
    return {
        **row,
        "playouts": spec.playouts,
        "turn_time": spec.turn_time,
        "sample_seed": spec.sample_seed,
        "playouts_spent": spent,
    }


def one(
    kind: Kind,
    variant: str,
    players: int,
    seed: int,
    limit: Limit,
    strong: StrongSpec | None = None,
) -> Row:
    if kind is Kind.DEAL:
        return decide(variant, players, seed, limit)
    if kind is Kind.STRONG and strong is not None:
        return play_strong(variant, players, seed, strong)
    return play_blind(variant, players, seed)


def run_chunk(chunk: Chunk) -> list[Row]:
    """Every seed of a chunk, in order (a Ray task's body)."""
    kind, variant, players, seeds, limit, strong = chunk
    return [one(Kind(kind), variant, players, s, limit, strong) for s in seeds]
