"""One CP-SAT run of a model: its status, its line and what it proves.

A stage's ``bound`` is proven only by the status: OPTIMAL (the line's own
count), INFEASIBLE (only the perfect-clear model can be: fewer than all
slots), or FEASIBLE with CP-SAT's objective bound. A run stopped before
any solution (UNKNOWN) proves nothing and keeps the trivial bound.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ortools.sat.python import cp_model

from ....models import interrupt
from ....models.outcome import Limit
from ..solution import SolverBug
from .model import Model
from .shape import start_player


class CpStatus(StrEnum):
    """CP-SAT's status of a run, spelt as CP-SAT names it."""

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"
    MODEL_INVALID = "MODEL_INVALID"


@dataclass
class Stage:
    """What one CP-SAT run established."""

    horizon: int
    status: CpStatus
    played: int  # cards played on the line found (-1: no line)
    bound: int  # proven upper bound on the cards within the horizon
    turns: list[list[tuple[int, int]]]
    wall: float
    branches: int
    conflicts: int
    variables: int
    constraints: int
    first: int = 0  # 0-based starting player of ``turns``

    def summary(self) -> dict[str, Any]:
        return {
            "horizon": self.horizon,
            "status": self.status,
            "played": self.played,
            "bound": self.bound,
            "wall": round(self.wall, 3),
            "variables": self.variables,
            "constraints": self.constraints,
        }


class _StopAbove(cp_model.CpSolverSolutionCallback):
    """Stop as soon as a solution plays more than ``target`` cards."""

    def __init__(self, target: int) -> None:
        super().__init__()
        self.target = target

    def on_solution_callback(self) -> None:
        if self.objective_value > self.target:
            self.stop_search()


def run(
    m: Model,
    limit: Limit,
    workers: int,
    seed: int = 0,
    stop_above: int | None = None,
) -> Stage:
    """Solve ``m`` within ``limit``'s time (CP-SAT counts no nodes of ours);
    with ``stop_above``, stop at the first line playing more."""
    solver = cp_model.CpSolver()
    if limit.time is not None:
        solver.parameters.max_time_in_seconds = max(0.01, limit.time)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT's own SIGINT handler fights Python's (it aborted the process
    # from the solver thread); Ctrl-C reaches ``_solve``'s stop instead.
    solver.parameters.catch_sigint_signal = False
    callback = _StopAbove(stop_above) if stop_above is not None else None
    status = _solve(solver, m.model, callback)
    turns: list[list[tuple[int, int]]] = []
    played = -1
    first = start_player(m.shape, None)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        first, turns = _line(solver, m)
        played = sum(len(t) for t in turns)
    if status == cp_model.OPTIMAL:
        bound = played
    elif status == cp_model.INFEASIBLE:
        # Only the perfect-clear model (every slot filled) can be infeasible.
        bound = m.horizon - 1
    elif status == cp_model.FEASIBLE:
        bound = min(m.horizon, int(solver.best_objective_bound + 1e-6))
    else:
        # Status UNKNOWN (stopped before any solution) reports an objective bound
        # of 0, which proves nothing: keep the trivial bound.
        bound = m.horizon
    proto = m.model.proto
    return Stage(
        horizon=m.horizon,
        status=CpStatus(solver.status_name(status)),
        played=played,
        bound=bound,
        turns=turns,
        wall=solver.wall_time,
        branches=int(solver.num_branches),
        conflicts=int(solver.num_conflicts),
        variables=len(proto.variables),
        constraints=len(proto.constraints),
        first=first,
    )


# How often the waiting thread looks for a stop request (Ctrl-C) while
# CP-SAT runs: the stop lands within this, plus CP-SAT's own reaction.
POLL_SECONDS = 0.05


def _solve(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    callback: cp_model.CpSolverSolutionCallback | None,
) -> Any:
    """``solver.solve`` in a thread, stopped when ``interrupt.requested()``.

    CP-SAT holds the calling thread until it ends, and Python runs a signal
    handler only in the main thread between bytecodes: called directly, a
    Ctrl-C waited for the time limit. Here the main thread waits in short,
    interruptible joins, so the handler runs at once and the search is
    stopped (``stop_search``); the caller drops what it found."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["status"] = solver.solve(model, callback)
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=work, name="cp-sat", daemon=True)
    thread.start()
    stopped = False
    while thread.is_alive():
        try:
            thread.join(POLL_SECONDS)
        except KeyboardInterrupt:  # a second Ctrl-C: stop, then go on raising
            solver.stop_search()
            thread.join()
            raise
        if not stopped and interrupt.requested():
            solver.stop_search()
            stopped = True
    if "error" in box:
        raise box["error"]
    return box["status"]


def _line(solver: cp_model.CpSolver, m: Model) -> tuple[int, list[list[tuple[int, int]]]]:
    """The line of a solution: its 0-based starting player and its turns."""
    sh = m.shape
    first = start_player(sh, None)
    if m.who and solver.boolean_value(m.filled[0]):
        first = next(j for j in range(sh.players) if solver.boolean_value(m.who[0][j]))
    turns: list[list[tuple[int, int]]] = []
    cur: list[tuple[int, int]] = []
    for s in range(m.horizon):
        if not solver.boolean_value(m.filled[s]):
            break
        c = int(solver.value(m.card[s]))
        p = next(q for q in range(sh.n_piles) if solver.boolean_value(m.on[s][q]))
        cur.append((c, p))
        if solver.boolean_value(m.end[s]):
            turns.append(cur)
            cur = []
    if cur:
        raise SolverBug("the CP-SAT line ends inside a turn")
    return first, turns
