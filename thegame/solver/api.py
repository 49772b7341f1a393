"""``solve``: a verdict for a deal, with a line replayed through the rules engine."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..models import WON as WON_STATUS
from ..models import Deal, GameState, IllegalMoveError, InvalidInputError, Play, Record, Turn
from ..models.record import turn_to_dict
from .search import END, Action, Kernel, Searcher, SearchStats, TurnSearcher

WIN = "win"
LOSS = "loss"
UNKNOWN = "unknown"


class SolverBug(RuntimeError):
    """A line the search reported did not replay: never reported as a verdict."""


@dataclass
class Solution:
    verdict: str
    deal: Deal
    first: int  # 1-based starting player of ``turns``
    turns: list[Turn]
    cards_left: int
    proof: str | None
    nodes: int = 0
    seconds: float = 0.0
    engine: str = "dfs"
    details: dict[str, Any] = field(default_factory=dict)

    def record(self) -> Record:
        return Record(self.deal.with_first(self.first), tuple(self.turns))

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        return {
            "verdict": self.verdict,
            "first": self.first,
            "cards_left": self.cards_left,
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            "proof": self.proof,
            "engine": self.engine,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


def actions_to_turns(actions: list[Action]) -> list[Turn]:
    """Split a kernel line at END marks into turns (players filled in later)."""
    turns: list[Turn] = []
    plays: list[Play] = []
    for a in actions:
        if a == END:
            turns.append(Turn(0, tuple(plays)))
            plays = []
        else:
            plays.append(Play(a[0], a[1]))
    if plays:
        turns.append(Turn(0, tuple(plays)))
    return turns


def starting_players(deal: Deal) -> list[int]:
    """The deal's starting player, or every player when the start is free (C3)."""
    return [deal.first] if deal.first is not None else list(range(1, deal.players + 1))


def _replay_line(deal: Deal, first: int, turns: list[Turn]) -> tuple[list[Turn], GameState]:
    """Replay ``turns`` from ``first`` through the rules engine, filling in
    the player of each turn (rule C7 skips empty hands); the final state."""
    state = GameState(deal, first=first)
    out: list[Turn] = []
    for i, turn in enumerate(turns):
        player = state.current + 1
        try:
            for p in turn.plays:
                state.play(p.card, p.pile)
            state.end_turn()
        except IllegalMoveError as err:
            raise SolverBug(f"the line does not replay at turn {i}: {err}") from None
        out.append(Turn(player, turn.plays))
    return out, state


def solve(
    deal: Deal,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Decide whether ``deal`` has a perfect clear.

    The starting player is the deal's, or else each player is tried (rule
    C3: the table agrees who starts) and the one that works is reported.
    """
    rules = deal.rules
    if rules.kind != "classic" or rules.commands:
        raise InvalidInputError(
            f"the solver covers classic, profi, profi-hard and on-fire, not {rules.name}",
            "variant",
        )
    start = time.monotonic()
    deadline = start + time_limit if time_limit is not None else None
    firsts = starting_players(deal)
    total = SearchStats()
    best: tuple[int, int, list[Action]] | None = None
    all_dead = True
    for n, first in enumerate(firsts):
        # Share what is left of the budget between the starts still to try.
        share_nodes = None
        if node_limit is not None:
            share_nodes = max(1, (node_limit - total.nodes) // (len(firsts) - n))
        share_deadline = deadline
        if deadline is not None:
            share_deadline = time.monotonic() + (deadline - time.monotonic()) / (len(firsts) - n)
        kernel = Kernel(deal, first - 1)
        kind = TurnSearcher if kernel.players == 1 and not kernel.fire else Searcher
        searcher = kind(kernel, share_nodes, share_deadline, progress)
        res = searcher.run()
        total.nodes += res.stats.nodes
        total.iterations += res.stats.iterations
        total.dead_positions += res.stats.dead_positions
        total.dead_card_cuts += res.stats.dead_card_cuts
        if res.win:
            return _verified(deal, first, res.actions, WIN, None, total, start)
        if not res.proven:
            all_dead = False
        if best is None or res.best_left < best[0]:
            best = (res.best_left, first, res.actions)
    assert best is not None
    if all_dead:
        starts = "any starting player" if len(firsts) > 1 else "this start"
        proof = (
            f"exhaustive search from {starts}: {total.dead_positions} positions proven dead "
            f"({total.dead_card_cuts} by the dead-card bound)"
        )
        return _verified(deal, best[1], best[2], LOSS, proof, total, start)
    return _verified(deal, best[1], best[2], UNKNOWN, None, total, start)


def _verified(
    deal: Deal,
    first: int,
    actions: list[Action],
    verdict: str,
    proof: str | None,
    stats: SearchStats,
    start: float,
) -> Solution:
    """Replay the line through the engine; a win must end as won."""
    turns = actions_to_turns(actions)
    # The best line of a search that is not a win may stop inside a turn;
    # a record holds whole turns, so drop an unfinished last turn.
    if verdict != WIN and actions and actions[-1] != END:
        turns = turns[:-1]
    turns, final = _replay_line(deal, first, turns)
    left = final.cards_left()
    if verdict == WIN and final.status != WON_STATUS:
        raise SolverBug(f"the winning line ends {final.status}, not won")
    return Solution(
        verdict=verdict,
        deal=deal,
        first=first,
        turns=turns,
        cards_left=left,
        proof=proof,
        nodes=stats.nodes,
        seconds=time.monotonic() - start,
        details={
            "iterations": stats.iterations,
            "dead_positions": stats.dead_positions,
            "dead_card_cuts": stats.dead_card_cuts,
        },
    )
