"""Engine choice: the search, CP-SAT, or a portfolio that uses both."""

from __future__ import annotations

import time

from ...models import InvalidInputError, interrupt
from ...models.outcome import NO_LIMIT, Limit, Verdict
from ...models.the_game import Deal
from .engine import CpSatEngine, SearchEngine
from .solution import EngineName, Solution

ENGINES: tuple[str, ...] = tuple(e.value for e in EngineName)


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
    from .cpsat import solve_cpsat

    start = time.monotonic()
    time_limit = limit.time
    if limit.nodes is not None:
        return search.solve(deal, limit)
    covered = cpsat.covers(deal)
    share = 0.7 * time_limit if time_limit is not None and covered else time_limit
    first = search.solve(deal, limit.with_time(share))
    if first.verdict != Verdict.UNKNOWN or not covered or interrupt.requested():
        return first
    left = None if time_limit is None else max(1.0, time_limit - (time.monotonic() - start))
    # The search's best line is CP-SAT's hint: more than the protocol says.
    second = solve_cpsat(
        deal, limit.with_time(left), workers=workers, hint=first.actions(), hint_first=first.first
    )
    second.nodes += first.nodes
    if second.verdict == Verdict.UNKNOWN and first.cards_left <= second.cards_left:
        first.seconds = time.monotonic() - start
        return first
    return second
