"""A duel's turn start decided by several worker processes, two ways.

``race_decide``: df-pn and the depth-first search, the two searches that
``pns.ProofNumberSearch.portfolio`` runs in turns on one table, each in a
process of its own with a table of its own; the first to decide answers
and the other is stopped. On the printed game's hardest turn starts df-pn
is the one that answers, with its whole core: 2.4-3.9 times fewer nodes
than the serial portfolio on the furthest turn starts decided of the
benchmark's duels (``benchmarks/duel_ideas.py``).

``split_decide``: the turn start's children (the undominated positions
after the mover's turns, in the search's order, ``DuelNodes._open``) dealt
out in turn to the workers, each proving its share with its own search
and table, child by child in rounds of slices that double (so a hard
child does not starve an easy one). The turn start is a win once any
worker proves one child lost for its mover (the others are stopped), a
loss once every worker has proved every child of its share won for the
opponent, else unknown. Measured, it needs about twice the serial nodes
(the slices and the split tables), so it is no faster on two cores. Before
splitting, the serial search tries the turn start alone for
``SERIAL_FIRST`` nodes.

Either way every value is a proof of the serial search (each worker runs
it), so the answer is the serial one whenever both decide; the line is a
worker's principal line (after the root's turn, for the split) and
replays through the rules engine (``replay_duel``). Neither is Kaneko's
parallel df-pn, whose workers share one table and steer apart by virtual
proof numbers: here a position two workers both reach is proven twice.
The nodes reported count every worker's, those of a worker stopped
mid-way included (``_gather``).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ....models import Limit, Verdict, interrupt
from ....models.outcome import OutOfBudget
from ....models.the_game import Deal, GameState
from ..budget import NO_NODE_LIMIT
from ..split_workers import LocalWorkers
from .api import Decider, DuelResult, decide, replay_duel
from .nodes import _resist
from .pns import NAMES, ProofNumberSearch
from .policy import check_duel
from .position import CUR, DuelGame, Plays, Pos

# Nodes the serial search gets first, before the split (0: none).
SERIAL_FIRST = 20_000
# A worker's first slice a child, in nodes; it doubles each round.
FIRST_SLICE = 4_000
# How often the parent looks at its workers' results and at Ctrl-C, seconds.
POLL = 0.1


@dataclass
class Share:
    """What one worker reports: ``refuted`` (a child proven lost for its
    mover) or ``won`` (every child of its share proven won for its mover),
    else unknown; ``kid``, the deciding child (the refuted one, or the one
    won that lasts longest) as an index among all the children, and the line
    from it; the nodes and CPU seconds spent."""

    refuted: bool
    won: bool
    kid: int
    line: list[tuple[int, Plays]]
    resist: int
    nodes: int
    cpu: float


class _Worker:
    """A worker's handler (``LocalWorkers``): one job with a search of its
    own. ``counts``, shared with the parent, holds each worker's nodes as
    they grow, so a worker stopped mid-way is counted too."""

    def __init__(self, counts: Any) -> None:
        self.counts = counts

    def __call__(self, job: dict[str, Any]) -> dict[str, Any]:
        c0 = time.process_time()
        seconds = job["seconds"]
        deadline = None if seconds is None else time.monotonic() + seconds
        search = ProofNumberSearch(check_duel(Deal.from_dict(job["deal"])))
        slot = job["slot"]

        def progress(nodes: int) -> None:
            self.counts[slot] = nodes

        search.progress = progress
        out = self.run(job, search, deadline)
        self.counts[slot] = out["nodes"]
        out["cpu"] = time.process_time() - c0
        return out

    def run(
        self, job: dict[str, Any], search: ProofNumberSearch, deadline: float | None
    ) -> dict[str, Any]:
        raise NotImplementedError


class Prover(_Worker):
    """Proves its share of the children (``job["kids"]``, by index
    ``job["index"]``) within ``job["nodes"]`` nodes and ``job["seconds"]``
    (None: no limit): a ``Share``."""

    def run(
        self, job: dict[str, Any], search: ProofNumberSearch, deadline: float | None
    ) -> dict[str, Any]:
        kids: list[Pos] = [tuple(k) for k in job["kids"]]  # type: ignore[misc]
        share = _prove(search, kids, job["nodes"], deadline)
        share.kid = job["index"][share.kid]
        return share.__dict__


def _prove(search: ProofNumberSearch, kids: list[Pos], nodes: int, deadline: float | None) -> Share:
    """Each child in turn for a slice that doubles every round, until one
    is lost for its mover, all are won for it, or the budget runs out."""
    open_ = list(range(len(kids)))
    size = FIRST_SLICE
    while open_:
        for i in list(open_):
            left = nodes - search.stats.nodes
            if left <= 0 or (deadline is not None and time.monotonic() >= deadline):
                return Share(False, False, 0, [], 0, search.stats.nodes, 0.0)
            search.node_limit = search.stats.nodes + min(size, left)
            search.deadline = deadline
            kid = kids[i]
            try:
                won = search.portfolio(lambda kid=kid: search.wins(kid))  # type: ignore[misc]
            except OutOfBudget:
                continue
            if not won:
                return Share(True, False, i, _line(search, kid), 0, search.stats.nodes, 0.0)
            open_.remove(i)
        size *= 2
    # Every child won for the opponent: the line of the one that lasts longest.
    game = search.game
    i = max(range(len(kids)), key=lambda j: _resist(game, ((), kids[j])))
    resist = _resist(game, ((), kids[i]))
    return Share(False, True, i, _line(search, kids[i]), resist, search.stats.nodes, 0.0)


def _line(search: ProofNumberSearch, pos: Pos) -> list[tuple[int, Plays]]:
    """The principal line from a proven child (read with no budget)."""
    search.node_limit, search.deadline = NO_NODE_LIMIT, None
    return search.line(pos)


@interrupt.polled
def split_decide(
    state: GameState, limit: Limit, workers: int = 2, serial_first: int = SERIAL_FIRST
) -> DuelResult:
    """Who wins from the turn start ``state``, its children split over
    ``workers`` processes (``limit.nodes``: all of them together; the time
    is wall time). A position inside a turn, or one the serial search
    settles within ``serial_first`` nodes, is the serial search's."""
    t0 = time.monotonic()
    game = check_duel(state.deal)
    if game.turn_under_way(state) != (0, False):
        return decide(state, limit)
    spent = 0
    if serial_first:
        first = serial_first if limit.nodes is None else min(serial_first, limit.nodes)
        res = decide(state, Limit(limit.time, first, memory=limit.memory))
        if res.verdict is not Verdict.UNKNOWN:
            return res
        spent = res.nodes
    pos = game.from_state(state)
    search = ProofNumberSearch(game)
    kids = search._open(pos)
    if isinstance(kids, bool):  # settled by its turns: the serial search's answer
        return decide(state, limit)
    spent += search.stats.nodes
    left = None if limit.nodes is None else max(0, limit.nodes - spent)
    seconds = None if limit.time is None else max(0.0, limit.time - (time.monotonic() - t0))
    shares = _run(state.deal, kids, workers, left, seconds)
    return _result(state, game, pos, kids, shares, spent, time.monotonic() - t0, workers)


def _run(
    deal: Deal, kids: list[Pos], workers: int, nodes: int | None, seconds: float | None
) -> list[Share]:
    """The children dealt out in turn (the best of the search's order to
    each worker first) and proven; the shares reported, the first that
    refutes a child alone when one does."""
    n = min(workers, len(kids))
    each = NO_NODE_LIMIT if nodes is None else max(1, nodes // n)
    jobs = []
    for w in range(n):
        index = list(range(w, len(kids), n))
        kid_list = [kids[i] for i in index]
        jobs.append({"deal": deal.to_dict(), "kids": kid_list, "index": index})
    outs, stopped = _gather(Prover, jobs, each, seconds, lambda out: out["refuted"])
    shares = [Share(**out) for out in outs]
    if shares:
        shares[0].nodes += stopped
    return shares


def _gather(
    kind: type[_Worker],
    jobs: list[dict[str, Any]],
    nodes: int,
    seconds: float | None,
    final: Callable[[dict[str, Any]], bool],
) -> tuple[list[dict[str, Any]], int]:
    """Each job on a worker of its own (``kind``) with ``nodes`` and
    ``seconds``; every worker's output, or the first ``final`` one alone
    (the others stopped), and the nodes of the workers that were stopped
    before they reported."""
    counts = multiprocessing.get_context("spawn").Array("q", len(jobs), lock=False)
    pool = LocalWorkers(len(jobs), kind(counts))
    got: list[dict[str, Any]] = []
    done = False
    try:
        for w, job in enumerate(jobs):
            pool.submit(w, {**job, "slot": w, "nodes": nodes, "seconds": seconds})
        while not done and len(got) < len(jobs) and not interrupt.requested():
            for out in pool.results(POLL):
                del out["slot"]
                if final(out):
                    got, done = [out], True
                    break
                got.append(out)
    finally:
        pool.stop()
    if interrupt.requested() and not done:
        got = []
    stopped = sum(counts) - sum(out["nodes"] for out in got)
    return got, stopped


def _result(
    state: GameState,
    game: DuelGame,
    pos: Pos,
    kids: list[Pos],
    shares: list[Share],
    spent: int,
    seconds: float,
    workers: int,
) -> DuelResult:
    mover = pos[CUR] + 1
    nodes = spent + sum(s.nodes for s in shares)
    details = {"workers": workers, "worker_cpu_ms": int(1000 * sum(s.cpu for s in shares))}
    win = any(s.refuted for s in shares)
    if not win and not (shares and all(s.won for s in shares)):
        return DuelResult(
            state.deal, mover, Verdict.UNKNOWN, None, None, [], nodes, seconds, details
        )
    # The refuting share, or the share whose child lasts longest.
    best = shares[0] if win else max(shares, key=lambda s: s.resist)
    kid, line = kids[best.kid], best.line
    plays = {after: plays for plays, after in game.turns(pos) if after is not None}
    turns, final = replay_duel(state, [(pos[CUR], plays[kid]), *line])
    winner = mover if win else 3 - mover
    assert final.winner == winner, "a proven line ends with its winner"
    proof = (
        f"split search over {workers} workers, each with its own table: "
        + (
            "one turn refuted by a worker"
            if win
            else f"every turn of player {mover} refuted ({len(kids)} undominated)"
        )
        + f" ({nodes} positions visited)"
    )
    verdict = Verdict.WIN if win else Verdict.LOSS
    return DuelResult(state.deal, mover, verdict, winner, proof, turns, nodes, seconds, details)


# The searches that race (``race_decide``): df-pn and the depth-first search,
# the two that ``pns.ProofNumberSearch.portfolio`` runs in turns.
RACERS = (False, True)  # depth_first


class Racer(_Worker):
    """Decides ``job["pos"]`` by one search alone (``job["depth_first"]``:
    the depth-first search, else df-pn): its value (None: out of budget)
    and its principal line."""

    def run(
        self, job: dict[str, Any], search: ProofNumberSearch, deadline: float | None
    ) -> dict[str, Any]:
        pos: Pos = tuple(job["pos"])  # type: ignore[assignment]
        search.node_limit, search.deadline = job["nodes"], deadline
        search.depth_first = job["depth_first"]
        out: dict[str, Any] = {"depth_first": job["depth_first"]}
        try:
            won = search.wins(pos)
        except OutOfBudget:
            return {**out, "won": None, "line": [], "nodes": search.stats.nodes}
        return {**out, "won": won, "line": _line(search, pos), "nodes": search.stats.nodes}


@interrupt.polled
def race_decide(state: GameState, limit: Limit) -> DuelResult:
    """Who wins from the turn start ``state``: df-pn and the depth-first
    search each in a process of its own, the first to decide answers
    (``limit.nodes``: both together; the time is wall time). The serial
    ``portfolio`` runs the same two searches in turns on one table, which
    each then reads; here each has the whole of a core and a table of its
    own. A position inside a turn is the serial search's."""
    t0 = time.monotonic()
    game = check_duel(state.deal)
    if game.turn_under_way(state) != (0, False) or state.over:
        return decide(state, limit)
    pos = game.from_state(state)
    each = NO_NODE_LIMIT if limit.nodes is None else max(1, limit.nodes // len(RACERS))
    jobs = [{"deal": state.deal.to_dict(), "pos": pos, "depth_first": d} for d in RACERS]
    outs, stopped = _gather(Racer, jobs, each, limit.time, lambda out: out["won"] is not None)
    nodes = stopped + sum(out["nodes"] for out in outs)
    mover = pos[CUR] + 1
    seconds = time.monotonic() - t0
    details = {"workers": len(RACERS), "worker_cpu_ms": int(1000 * sum(o["cpu"] for o in outs))}
    if not outs or outs[0]["won"] is None:  # neither decided: no answer's nodes
        return DuelResult(
            state.deal, mover, Verdict.UNKNOWN, None, None, [], nodes, seconds, details
        )
    details["answer_nodes"] = outs[0]["nodes"]  # the search that answered, the other stopped
    win = outs[0]["won"]
    turns, final = replay_duel(state, outs[0]["line"])
    winner = mover if win else 3 - mover
    assert final.winner == winner, "a proven line ends with its winner"
    name, other = NAMES if outs[0]["depth_first"] else NAMES[::-1]
    proof = (
        f"{name} over whole turns, in a process of its own racing the {other} in another: "
        f"every turn of player {3 - winner} refuted ({nodes} positions visited by both)"
    )
    verdict = Verdict.WIN if win else Verdict.LOSS
    return DuelResult(state.deal, mover, verdict, winner, proof, turns, nodes, seconds, details)


def decider(jobs: int) -> Decider | None:
    """What decides a turn start with ``jobs`` worker processes: the race
    (two workers, whatever ``jobs`` above 1), or None for the serial search."""
    return race_decide if jobs >= 2 else None
