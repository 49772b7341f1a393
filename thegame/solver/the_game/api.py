"""``solve``: a verdict for a deal, with a line replayed through the rules engine."""

from __future__ import annotations

import time
from collections.abc import Container
from dataclasses import dataclass, field, replace
from typing import Any

from ...models import (
    NO_LIMIT,
    IllegalMoveError,
    InvalidInputError,
    Limit,
    Status,
    Verdict,
    interrupt,
)
from ...models.the_game import Deal, GameState, Play, Record, Turn, TurnKind, replay
from ...models.the_game.notation import plural
from ...models.the_game.record import step_text, turn_to_dict
from . import ckernel
from .beam import FireBeamSearcher, MultiBeamSearcher, TurnSearcher
from .bounds import state_lower_bound
from .budget import SearchStats
from .dfs import Searcher, SearchResult
from .extreme_beam import ExtremeBeamSearcher
from .extreme_kernel import ExtremeKernel
from .extreme_kernel import covers as extreme_covers
from .kernel import END, INF, Action, Kernel
from .optimum import BoundKernel, Optimizer, finish_greedily


class SolverBug(RuntimeError):
    """A line the search reported did not replay: never reported as a verdict."""


@dataclass
class Solution:
    verdict: Verdict
    deal: Deal
    first: int  # 1-based starting player of ``turns``
    turns: list[Turn]
    cards_left: int
    proof: str | None
    nodes: int = 0
    seconds: float = 0.0
    engine: str = "dfs"
    # ``cards_left`` is the fewest possible (always so for a win)
    optimal: bool = True
    lower_bound: int = 0  # proven: no line ends with fewer cards left
    details: dict[str, Any] = field(default_factory=dict)

    def record(self) -> Record:
        return Record(self.deal.with_first(self.first), tuple(self.turns))

    def actions(self) -> list[Action]:
        """The line as kernel actions (END after each turn), e.g. a hint."""
        out: list[Action] = []
        for turn in self.turns:
            out.extend((p.card, p.pile) for p in turn.plays)
            out.append(END)
        return out

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        return {
            "verdict": self.verdict,
            "first": self.first,
            "cards_left": self.cards_left,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            "from_turn": self.details.get("from_turn", 0),
            "proof": self.proof,
            "engine": self.engine,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


@dataclass
class PositionResult:
    """What the search found from one position (possibly mid-turn).

    ``actions`` continue the game from the position to its end (END marks
    the end of each turn; a first END may close the turn in progress).
    """

    verdict: Verdict  # win: a perfect clear is possible; loss: proven not
    actions: list[Action]
    cards_left: int  # at the end of ``actions``
    optimal: bool  # no game from the position ends with fewer cards left
    lower_bound: int  # proven lower bound on the cards left
    stats: SearchStats
    opt_nodes: int = 0  # nodes of the branch and bound, 0 if it did not run
    floor: int = 0  # the graph bounds' lower bound at the position


@interrupt.polled
def search_position(
    state: GameState, limit: Limit = NO_LIMIT, optimize: bool = True
) -> PositionResult:
    """Search on from ``state``: a perfect clear, or else (``optimize``) the
    fewest cards left, proven when the budget allows.

    The decision search may use the whole budget; when it proves there is
    no perfect clear, the branch and bound gets what is left and starts
    from the best line found, finished greedily to a whole game. A search
    that runs out reports that greedy whole game as its best line.
    """
    covered(state.deal)
    stats = SearchStats()
    if state.over:
        left = state.cards_left()
        verdict = Verdict.WIN if state.status == Status.WON else Verdict.LOSS
        return PositionResult(verdict, [], left, True, left, stats)
    deadline = limit.deadline()
    kernel = kernel_of(state)
    if kernel.won():
        # Every card is down inside this turn: ending it clears (rule C7).
        return PositionResult(Verdict.WIN, [END], 0, True, 0, stats)
    snap = kernel.snapshot()
    # The graph bounds (dead cards, fire covers as a matching, a fire card
    # due now) may prove the loss at once; they hold at turn starts.
    # The graphs' dead cards are the kernel's dead mask computed again
    # (``test_bounds`` checks they agree; Extreme's mask is a superset), so
    # with no dead card and no fire card every graph bound is 0 and the
    # graphs, a millisecond a deal, are not built.
    plain = not kernel.dead_mask() and not state.rules.fire_cards
    floor = 0 if state.placed or plain else state_lower_bound(state)
    dead: Container[tuple[int, ...]] = set()
    compiled = ckernel.use_compiled(kernel)
    if floor > 0:
        res = SearchResult(False, True, [], INF, SearchStats())
    elif compiled:
        # The same search in C (same nodes, same line), when it is built.
        res, dead = ckernel.search(kernel, limit, deadline)
    else:
        searcher = _searcher(kernel)(kernel, limit, deadline)
        res = searcher.run()
        dead = searcher.dead
    stats = res.stats
    if res.win:
        return PositionResult(Verdict.WIN, res.actions, 0, True, 0, stats)
    # The rest walks a kernel from Python: the compiled one answers faster,
    # with the same answers (the same greedy line, the same branch and bound).
    bk: BoundKernel = ckernel.CKernel.of(kernel) if compiled else kernel
    # A search cut by its budget leaves the kernel anywhere: back to the
    # position, then finish the best line greedily.
    bk.restore(snap)
    prefix = list(res.actions)
    while prefix and prefix[-1] != END:
        prefix.pop()  # a line stopped inside a turn: drop the unfinished turn
    for a in prefix:
        if a == END:
            bk.end_turn()
        else:
            bk.play(*a)
    line = prefix + finish_greedily(bk)
    left = bk.unplayed.bit_count()
    bk.restore(snap)
    lower = max(floor, 1 if res.proven else 0)
    if not optimize or not res.proven:
        # Undecided: the whole budget went to the decision search.
        verdict = Verdict.LOSS if res.proven else Verdict.UNKNOWN
        return PositionResult(verdict, line, left, left <= lower, lower, stats, 0, floor)
    rest_nodes = limit.nodes - stats.nodes if limit.nodes is not None else None
    opt = Optimizer(bk, replace(limit, nodes=rest_nodes), deadline, dead)
    out = opt.run((line, left), floor)
    if out.best_left == 0:
        raise SolverBug("the branch and bound cleared a position proven to have no clear")
    lower = max(lower, out.lower_bound)
    optimal = out.best_left <= lower
    return PositionResult(
        Verdict.LOSS, out.actions, out.best_left, optimal, lower, stats, out.nodes, floor
    )


def _searcher(kernel: Kernel) -> type[Searcher]:
    """The decision search for a kernel (``ckernel.search`` ports each one)."""
    if isinstance(kernel, ExtremeKernel):
        # The classic turn beams list turns without the commands (X).
        return ExtremeBeamSearcher
    if kernel.players == 1:
        return FireBeamSearcher if kernel.fire else TurnSearcher
    return MultiBeamSearcher


def kernel_of(state: GameState) -> Kernel:
    """The search kernel of a position: Extreme's knows the commands (X)."""
    if state.rules.commands:
        return ExtremeKernel.from_state(state)
    return Kernel.from_state(state)


def covered(deal: Deal) -> None:
    """Raise ``InvalidInputError`` unless the search covers the deal's variant."""
    rules = deal.rules
    if extreme_covers(rules):
        return
    if rules.turn_kind is TurnKind.EXTREME:
        raise InvalidInputError(
            f"the solver does not cover {rules.name} deals with fire cards", "variant"
        )
    if rules.turn_kind is not TurnKind.CLASSIC:
        raise InvalidInputError(
            f"the solver covers classic, profi, profi-hard, on-fire and extreme, not {rules.name}",
            "variant",
        )


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


# Deals that leave the start free (rule C3) are searched start by start in
# rounds: each open start gets FIRST_SLICE of the budget, then GROWTH times
# more each round, until a round would need more than is left, which it
# then shares evenly. A start whose perfect clear is easy is found before a
# hard start has used an even share of the whole budget (the search itself
# is not resumable, so a start searched again starts over: at most about
# 1 / (GROWTH - 1) more work). Without any budget the rounds grow without end,
# from UNLIMITED_SLICE nodes.
FIRST_SLICE = 1 / 64
GROWTH = 4
UNLIMITED_SLICE = 20_000


@interrupt.polled
def solve(deal: Deal, limit: Limit = NO_LIMIT, optimize: bool = True) -> Solution:
    """Decide whether ``deal`` has a perfect clear; if not, find the fewest
    cards left (``optimize``), proven when the budget allows.

    The starting player is the deal's, or else each player is tried (rule
    C3: the table agrees who starts), in rounds of growing budgets, and the
    one that works is reported.
    """
    covered(deal)
    start = time.monotonic()
    deadline = limit.deadline(start)
    firsts = deal.starting_players()
    total = SearchStats()
    opt_nodes = 0
    results: dict[int, PositionResult] = {}
    open_starts = list(firsts)
    rnd = 0
    while open_starts:
        # The last round shares what is left evenly (a single start: at once).
        last = _last_round(limit, deadline, total.nodes + opt_nodes, rnd, firsts, open_starts)
        round_starts = list(open_starts)
        for i, first in enumerate(round_starts):
            used = total.nodes + opt_nodes
            share = _even(limit, deadline, used, len(round_starts) - i)
            if not last:
                share = _capped(_slice(limit, rnd), share)
            res = search_position(GameState(deal, first=first), share, optimize)
            total.add(res.stats)
            opt_nodes += res.opt_nodes
            if res.verdict == Verdict.WIN:
                return _verified(deal, first, res, None, total, opt_nodes, start)
            results[first] = _merged(results.get(first), res)
            if res.verdict == Verdict.LOSS and (res.optimal or not optimize):
                open_starts.remove(first)  # decided: proven lost, with its optimum
        rnd += 1
        if last or _spent(limit, deadline, total.nodes + opt_nodes):
            break
    first, best = min(results.items(), key=lambda fr: fr[1].cards_left)
    lower = min(r.lower_bound for r in results.values())
    optimal = best.cards_left <= lower
    if any(r.verdict == Verdict.UNKNOWN for r in results.values()):
        return _verified(deal, first, best, None, total, opt_nodes, start, optimal, lower)
    # The proof counts the searches that proved each start lost (a start
    # searched in several rounds would otherwise count its positions twice).
    proven = SearchStats()
    for r in results.values():
        proven.add(r.stats)
    # the work of every round stays counted; the proof's counts are these
    proven.nodes, proven.iterations = total.nodes, total.iterations
    total = proven
    starts = "any starting player" if len(firsts) > 1 else "this start"
    floors = [r.floor for r in results.values()]
    proof = _loss_proof(
        starts, min(floors) if all(floors) else 0, total, best.cards_left, optimal, lower, opt_nodes
    )
    return _verified(deal, first, best, proof, total, opt_nodes, start, optimal, lower)


def _last_round(
    limit: Limit,
    deadline: float | None,
    used: int,
    rnd: int,
    firsts: list[int],
    open_starts: list[int],
) -> bool:
    """Whether round ``rnd`` is the last: one start only, or its slices for
    the open starts would take all that is left of a budget."""
    if len(firsts) == 1:
        return True
    if limit.time is None and limit.nodes is None:
        return False  # no budget: the rounds grow until every start is decided
    want = _slice(limit, rnd)
    rest = _even(limit, deadline, used, len(open_starts))
    return (want.time is not None and rest.time is not None and want.time >= rest.time) or (
        want.nodes is not None and rest.nodes is not None and want.nodes >= rest.nodes
    )


def _slice(limit: Limit, rnd: int) -> Limit:
    """One start's budget in a round that is not the last."""
    if limit.time is None and limit.nodes is None:
        return replace(limit, nodes=UNLIMITED_SLICE * GROWTH**rnd)
    frac = FIRST_SLICE * GROWTH**rnd
    seconds = None if limit.time is None else limit.time * frac
    nodes = None if limit.nodes is None else max(1, int(limit.nodes * frac))
    return replace(limit, time=seconds, nodes=nodes)


def _capped(a: Limit, b: Limit) -> Limit:
    """The smaller of two budgets, part by part (None: no limit)."""

    def low(x: float | None, y: float | None) -> float | None:
        return y if x is None else x if y is None else min(x, y)

    nodes = low(a.nodes, b.nodes)
    return replace(a, time=low(a.time, b.time), nodes=None if nodes is None else int(nodes))


def _even(limit: Limit, deadline: float | None, used: int, left: int) -> Limit:
    """What is left of the budget, shared evenly by ``left`` searches."""
    seconds = None if deadline is None else max(0.0, deadline - time.monotonic()) / left
    nodes = None if limit.nodes is None else max(1, (limit.nodes - used) // left)
    return replace(limit, time=seconds, nodes=nodes)


def _spent(limit: Limit, deadline: float | None, used: int) -> bool:
    if deadline is not None and time.monotonic() >= deadline:
        return True
    return limit.nodes is not None and used >= limit.nodes


def _merged(old: PositionResult | None, new: PositionResult) -> PositionResult:
    """What two searches of one start proved together: a loss if either
    proved it, the larger lower bound, the better line; the statistics are
    the newer search's (the one that decides a start is its last)."""
    if old is None:
        return new
    best = new if new.cards_left <= old.cards_left else old
    lower = max(old.lower_bound, new.lower_bound)
    verdict = Verdict.LOSS if Verdict.LOSS in (old.verdict, new.verdict) else best.verdict
    return replace(
        best,
        verdict=verdict,
        lower_bound=lower,
        optimal=best.cards_left <= lower,
        floor=max(old.floor, new.floor),
        stats=new.stats,
    )


def _loss_proof(
    starts: str,
    floor: int,
    stats: SearchStats,
    best: int,
    optimal: bool,
    lower: int,
    opt_nodes: int,
) -> str:
    """The kind of a completed loss proof, from ``starts`` (``floor`` > 0:
    the graph bounds proved it before any search)."""
    if floor > 0:
        proof = (
            f"no perfect clear: the graph bounds (dead cards, fire covers) leave at least "
            f"{plural(floor, 'card')} from {starts}"
        )
    else:
        proof = (
            f"no perfect clear: exhaustive search from {starts}, {stats.dead_positions} "
            f"positions proven dead ({stats.dead_card_cuts} by the dead-card bound"
        )
        if stats.stuck_cuts:
            proof += f", {stats.stuck_cuts} by a later player stuck"
        proof += ")"
        if stats.dominated:
            proof += f", {stats.dominated} more by dominance between positions"

    if optimal:
        proof += f"; {best} left is the fewest possible: branch and bound on cards left"
        proof += f" ({opt_nodes} nodes)"
    else:
        proof += f"; fewest cards left not proven: at least {lower}, best found {best}"
    return proof


def _verified(
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


@interrupt.polled
def solve_record(record: Record, limit: Limit = NO_LIMIT, optimize: bool = True) -> Solution:
    """Solve on from where ``record`` stops: the turns it holds are kept as
    played, the search decides the rest. The solution's turns are the
    record's followed by the line found (``details["from_turn"]`` says where
    the search's part begins)."""
    if not record.turns:
        return solve(record.deal, limit, optimize)
    covered(record.deal)
    result = replay(record)
    if not result.legal:
        assert result.error is not None
        raise InvalidInputError(f"illegal record: {step_text(result.error)}", "record")
    state = result.state
    if state.over:
        raise InvalidInputError(f"the game in the record is over ({state.status})", "record")
    start = time.monotonic()
    res = search_position(state, limit, optimize)
    proof = None
    if res.verdict == Verdict.LOSS:
        proof = _loss_proof(
            "this position",
            res.floor,
            res.stats,
            res.cards_left,
            res.optimal,
            res.lower_bound,
            res.opt_nodes,
        )
    return _verified(
        record.deal,
        record.first,
        res,
        proof,
        res.stats,
        res.opt_nodes,
        start,
        res.optimal,
        res.lower_bound,
        prefix=record.turns,
    )
