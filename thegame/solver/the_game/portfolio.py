"""Engine choice: the search, CP-SAT, or a portfolio that uses both; and
``solve_game``, the one path from a deal or a record to its answer."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...models import InvalidInputError, interrupt
from ...models.outcome import NO_LIMIT, Limit, Verdict
from ...models.the_game import Deal, Record
from .api import solve_record
from .backend import own_engine
from .engine import CpSatEngine, SearchEngine
from .solution import EngineName, Solution

if TYPE_CHECKING:
    from .duel.api import DuelSolution

ENGINES: tuple[str, ...] = tuple(e.value for e in EngineName)
# Under ``auto``, CP-SAT starts only with this many seconds of the budget
# left: loading OR-Tools and building the first model take a few tenths of
# a second, and a shorter run would overshoot the budget and decide nothing.
CPSAT_LEAST = 0.5
# Under ``auto``, a budget under this many seconds goes to the search alone:
# CP-SAT's share of it would be too short to decide anything.
SEARCH_ALONE = 2.0


def cpsat_covers(deal: Deal) -> bool:
    """CP-SAT models the classic family (1-5 players, fire cards), not
    Extreme or Face to Face (``cpsat.check_supported``)."""
    return CpSatEngine().covers(deal)


def solve_with(
    deal: Deal, engine: str = EngineName.AUTO, limit: Limit = NO_LIMIT, workers: int = 2
) -> Solution:
    """Solve with one engine, or with the portfolio (``auto``).

    ``auto`` runs the search first with most of the time (it finds almost
    every win fast); if that ends undecided and CP-SAT covers the deal, CP-SAT
    gets the rest of the time with the search's best line as a hint. The
    result names the engine that proved the verdict.

    A node budget is the search's alone: CP-SAT counts no search nodes, so
    under ``auto`` a node budget runs the search only (with the whole
    time), and ``cpsat`` refuses one rather than run past it.
    """
    if engine not in ENGINES:
        raise InvalidInputError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    search, cpsat = SearchEngine(), CpSatEngine(workers)
    name = EngineName(engine)
    if name is EngineName.DFS:
        return search.solve(deal, limit)
    if name is EngineName.CPSAT:
        if limit.nodes is not None:
            raise InvalidInputError(
                "CP-SAT counts no search nodes: give it --time-limit only, or use --engine dfs",
                "--node-limit",
            )
        if not cpsat.covers(deal):
            raise InvalidInputError(
                "the CP-SAT engine covers the classic family only; use --engine dfs"
            )
        return cpsat.solve(deal, limit)
    start = time.monotonic()
    time_limit = limit.time
    if limit.nodes is not None:
        return search.solve(deal, limit)
    covered = cpsat.covers(deal) and (time_limit is None or time_limit >= SEARCH_ALONE)
    share = 0.7 * time_limit if time_limit is not None and covered else time_limit
    first = search.solve(deal, limit.with_time(share))
    if first.verdict != Verdict.UNKNOWN or not covered or interrupt.requested():
        return first
    if time_limit is not None and time_limit - (time.monotonic() - start) < CPSAT_LEAST:
        return first  # too little left for CP-SAT to start: the budget is kept
    from .cpsat import solve_cpsat  # OR-Tools loads here, inside the budget

    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
    # The search's best line is CP-SAT's hint: more than the protocol says.
    second = solve_cpsat(
        deal, limit.with_time(left), workers=workers, hint=first.actions(), hint_first=first.first
    )
    second.nodes += first.nodes
    if second.verdict == Verdict.UNKNOWN and first.cards_left <= second.cards_left:
        first.seconds = time.monotonic() - start
        return first
    return second


def solve_game(
    game: Record,
    engine: str = EngineName.AUTO,
    limit: Limit = NO_LIMIT,
    workers: int = 2,
    jobs: int = 1,
) -> Solution | DuelSolution:
    """A deal (a record without turns) solved from its start, or a record
    from where it stops (its turns kept as played): by the kind of turn's
    own search where it has one (the duel, ``backend.own_engine``; ``jobs``:
    its worker processes), else by ``solve_with`` from a start and the
    search from a position (``workers``: CP-SAT's threads)."""
    name = EngineName(engine)
    own = own_engine(game.deal.rules)
    if own is not None:
        if name is EngineName.CPSAT:
            raise InvalidInputError(
                "Face to Face is solved by the duel search; drop --engine cpsat"
            )
        from .duel.parallel import decider

        return own.solve_record(game, limit, decider(jobs))
    if not game.turns:
        return solve_with(game.deal, name, limit, workers)
    if name is EngineName.CPSAT:
        raise InvalidInputError("CP-SAT solves from a deal's start; drop --engine cpsat")
    return solve_record(game, limit)
