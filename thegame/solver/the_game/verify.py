"""A line the search found, replayed through the rules engine before it is
reported: a line that does not replay, or ends otherwise than the search
said, is a ``SolverBug``, never a verdict."""

from __future__ import annotations

import time

from ...models import IllegalMoveError, Status, Verdict
from ...models.the_game import Deal, GameState, Play, Turn
from .budget import SearchStats
from .kernel import END, Action
from .solution import PositionResult, Solution, SolverBug


def replay_actions(state: GameState, actions: list[Action]) -> tuple[list[Turn], GameState]:
    """Play ``actions`` on a copy of ``state`` through the rules engine.

    Returns the turns (the first may finish the turn in progress; players
    filled in) and the final state; a line that does not replay is a
    ``SolverBug``, never a verdict.
    """
    state = state.copy()
    turns: list[Turn] = []
    plays: list[Play] = []
    player = state.current + 1
    for i, a in enumerate(actions):
        try:
            if a == END:
                if state.over:
                    break  # the last card ends the game (rule C7)
                state.end_turn()
                turns.append(Turn(player, tuple(plays)))
                plays = []
                player = state.current + 1
            else:
                state.play(a[0], a[1])
                plays.append(Play(a[0], a[1]))
        except IllegalMoveError as err:
            raise SolverBug(f"the line does not replay at action {i}: {err}") from None
    if plays:
        raise SolverBug("the line stops inside a turn")
    return turns, state


def verified(
    deal: Deal,
    first: int,
    res: PositionResult,
    proof: str | None,
    stats: SearchStats,
    opt_nodes: int,
    start: float,
    optimal: bool = True,
    lower: int = 0,
    prefix: tuple[Turn, ...] = (),
) -> Solution:
    """Replay the line through the engine (after the turns of ``prefix``,
    already played); a win must end as won."""
    state = GameState(deal, first=first)
    for turn in prefix:
        for p in turn.plays:
            state.play(p.card, p.pile)
        state.end_turn()
    turns, final = replay_actions(state, res.actions)
    turns = [*prefix, *turns]
    left = final.cards_left()
    if res.verdict == Verdict.WIN and final.status != Status.WON:
        raise SolverBug(f"the winning line ends {final.status}, not won")
    if left != res.cards_left:
        raise SolverBug(f"the line leaves {left} cards, the search said {res.cards_left}")
    if res.verdict != Verdict.WIN and not final.over:
        raise SolverBug("the best line does not reach the end of the game")
    return Solution(
        verdict=res.verdict,
        deal=deal,
        first=first,
        turns=turns,
        cards_left=left,
        proof=proof,
        nodes=stats.nodes + opt_nodes,
        seconds=time.monotonic() - start,
        optimal=optimal,
        lower_bound=lower if res.verdict != Verdict.WIN else 0,
        details={
            "iterations": stats.iterations,
            "dead_positions": stats.dead_positions,
            "dead_card_cuts": stats.dead_card_cuts,
            "stuck_cuts": stats.stuck_cuts,
            "dominated": stats.dominated,
            "optimizer_nodes": opt_nodes,
            "from_turn": len(prefix),
        },
    )
