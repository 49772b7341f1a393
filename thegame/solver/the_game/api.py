"""``solve``: a verdict for a deal, with a line replayed through the rules engine.

The search of one position (``search_position``), a deal searched start by
start (``solve``) and a record solved on from where it stops
(``solve_record``). The parts live in their own modules: the budgets in
``budget``, the kernel and search of each kind of turn in ``backend``, the
proofs' wording in ``proof``, the replay of a line in ``verify``; their
public names are importable from here as before.
"""

from __future__ import annotations

import time
from collections.abc import Container, Iterable
from dataclasses import replace

from ...models import NO_LIMIT, InvalidInputError, Limit, Status, Verdict, interrupt
from ...models.the_game import Deal, GameState, Record, replay
from ...models.the_game.record import step_text
from .arguments import LossBound, LossKind, turn_start_bound
from .backend import covered, decide, kernel_of, walker
from .bounds import state_lower_bound
from .budget import SearchStats, capped, even_share, last_round, round_slice, spent
from .dfs import SearchResult
from .kernel import END, INF, Action, Kernel, KernelSnapshot
from .optimum import BoundKernel, Optimizer, finish_greedily
from .proof import loss_proof
from .solution import EngineName, PositionResult, Solution, SolverBug
from .verify import replay_actions, verified

__all__ = [
    "EngineName",
    "PositionResult",
    "Solution",
    "SolverBug",
    "covered",
    "kernel_of",
    "replay_actions",
    "search_position",
    "solve",
    "solve_record",
]


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
    floor, argument = _floor(state, kernel)
    dead: Container[tuple[int, ...]] = set()
    if floor > 0:
        res = SearchResult(False, True, [], INF, SearchStats())
    else:
        res, dead = decide(kernel, limit, deadline)
    stats = res.stats
    if res.win:
        return PositionResult(Verdict.WIN, res.actions, 0, True, 0, stats)
    # The rest walks a kernel from Python (the compiled one where built).
    bk = walker(kernel)
    line, left = _whole_game(bk, snap, res.actions)
    lower = max(floor, 1 if res.proven else 0)
    if not optimize or not res.proven:
        # Undecided: the whole budget went to the decision search.
        verdict = Verdict.LOSS if res.proven else Verdict.UNKNOWN
        return PositionResult(verdict, line, left, left <= lower, lower, stats, 0, floor, argument)
    rest_nodes = max(0, limit.nodes - stats.nodes) if limit.nodes is not None else None
    opt = Optimizer(bk, replace(limit, nodes=rest_nodes), deadline, dead)
    out = opt.run((line, left), floor)
    if out.best_left == 0:
        raise SolverBug("the branch and bound cleared a position proven to have no clear")
    lower = max(lower, out.lower_bound)
    optimal = out.best_left <= lower
    return PositionResult(
        Verdict.LOSS, out.actions, out.best_left, optimal, lower, stats, out.nodes, floor, argument
    )


def _floor(state: GameState, kernel: Kernel) -> tuple[int, LossBound | None]:
    """The cards left proven at least before any search, and the loss
    argument that proved it (None: the graph bounds, or nothing)."""
    # The graph bounds (dead cards, fire covers as a matching, a fire card
    # due now) may prove the loss at once; they hold at turn starts.
    # The graphs' dead cards are the kernel's dead mask computed again
    # (``test_bounds`` checks they agree; Extreme's mask is a superset), so
    # with no dead card and no fire card every graph bound is 0 and the
    # graphs, a millisecond a deal, are not built.
    plain = not kernel.dead_mask() and not state.rules.fire_cards
    floor = 0 if state.placed or plain else state_lower_bound(state)
    # The loss arguments (``arguments``: dead cards counted, order pairs,
    # held cards) may prove the loss at a turn start where the graphs do not.
    argument = None if state.placed else turn_start_bound(kernel)
    if argument is not None and argument.cards > floor:
        return argument.cards, argument
    return floor, None  # no argument, or the graph bounds say as much


def _whole_game(
    bk: BoundKernel, snap: KernelSnapshot, actions: list[Action]
) -> tuple[list[Action], int]:
    """The search's best line from the position ``snap`` made a whole game:
    cut back to whole turns, then finished greedily; and the cards it
    leaves. A search cut by its budget leaves the kernel anywhere: it is
    put back at the position first, and left there."""
    bk.restore(snap)
    prefix = list(actions)
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
    return line, left


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
        last = last_round(limit, deadline, total.nodes + opt_nodes, rnd, firsts, open_starts)
        round_starts = list(open_starts)
        for i, first in enumerate(round_starts):
            used = total.nodes + opt_nodes
            share = even_share(limit, deadline, used, len(round_starts) - i)
            if not last:
                share = capped(round_slice(limit, rnd), share)
            res = search_position(GameState(deal, first=first), share, optimize)
            total.add(res.stats)
            opt_nodes += res.opt_nodes
            if res.verdict == Verdict.WIN:
                return verified(deal, first, res, None, total, opt_nodes, start)
            results[first] = _merged(results.get(first), res)
            if res.verdict == Verdict.LOSS and (res.optimal or not optimize):
                open_starts.remove(first)  # decided: proven lost, with its optimum
        rnd += 1
        if last or spent(limit, deadline, total.nodes + opt_nodes):
            break
    first, best = min(results.items(), key=lambda fr: fr[1].cards_left)
    lower = min(r.lower_bound for r in results.values())
    optimal = best.cards_left <= lower
    if any(r.verdict == Verdict.UNKNOWN for r in results.values()):
        return verified(deal, first, best, None, total, opt_nodes, start, optimal, lower)
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
    floor = min(floors) if all(floors) else 0
    argument = _closing(results.values()) if floor else None
    proof = loss_proof(starts, floor, total, best.cards_left, optimal, lower, opt_nodes, argument)
    sol = verified(deal, first, best, proof, total, opt_nodes, start, optimal, lower)
    return _with_kind(sol, floor, argument)


def _closing(results: Iterable[PositionResult]) -> LossBound | None:
    """The loss argument that closed every start (the weakest one's), or
    None when the graph bounds closed some start."""
    args = [r.argument for r in results]
    if any(a is None for a in args):
        return None
    return min((a for a in args if a is not None), key=lambda a: a.cards)


def _with_kind(sol: Solution, floor: int, argument: LossBound | None) -> Solution:
    """A proven loss records its proof kind and the bound that closed it."""
    kind = argument.kind if argument is not None else LossKind.GRAPH if floor else LossKind.SEARCH
    sol.details["proof_kind"] = kind.value
    sol.details["closing_bound"] = floor if floor else 1
    return sol


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
        argument=new.argument if new.floor >= old.floor else old.argument,
        stats=new.stats,
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
        proof = loss_proof(
            "this position",
            res.floor,
            res.stats,
            res.cards_left,
            res.optimal,
            res.lower_bound,
            res.opt_nodes,
            res.argument,
        )
    sol = verified(
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
    if res.verdict == Verdict.LOSS:
        sol = _with_kind(sol, res.floor, res.argument)
    return sol
