"""What limits the split search at many workers, by simulation from a traced
run on one worker.

Usage (from the repository root):

    python benchmarks/split_scaling.py --seeds 2,4 --unit-nodes 200000 --workers 1,2,16,64,256
    python benchmarks/split_scaling.py --variant profi-hard --seeds 108 --time-limit 180

With ``--variant`` a preset's deal is traced for ``--time-limit`` seconds
instead (default units: the solver's 4 million nodes): the units its
search ran in that time, replayed on more workers.

Each deal (the generalised solo deals of ``benchmarks/split.py``) is solved
once on one worker with the units traced: each unit's nodes and seconds,
the unit whose expansion made it (a unit can start only once its parent
ran out and was expanded), and the parent's own seconds for it (reading
the result, expanding, the loss arguments at each child). The simulation
then replays the same units on P workers: a unit starts when a worker is
free and its parent unit has been expanded, the newest first (the stack);
the parent handles one result at a time, so its seconds are serial. It
assumes what the measured 2-worker runs show: the units' nodes as on one
worker (with every proven position shared; without sharing they grow, see
``benchmarks/split.py --share-bits 0``). It prints for each P the time to
answer, the speed-up, the workers' mean busy share, the parent's busy
share, the most units open at once, and the bytes a second the parent
would forward (each worker's new proven positions to the P-1 others, at
the bytes a node the 2-worker runs sent).
"""

from __future__ import annotations

import argparse
import heapq
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.split import generalised
from thegame.models import Limit
from thegame.models.the_game import Deal, get_rules
from thegame.solver.the_game import parallel
from thegame.solver.the_game.parallel import SplitSearch
from thegame.solver.the_game.split_units import UNIT_NODES


@dataclass
class Trace:
    seconds: dict[int, float] = field(default_factory=dict)  # unit -> its worker seconds
    nodes: dict[int, int] = field(default_factory=dict)
    parent_of: dict[int, int] = field(default_factory=dict)  # unit -> the unit that made it
    own: dict[int, float] = field(default_factory=dict)  # unit -> the parent's seconds for it
    order: list[int] = field(default_factory=list)  # units in the order they were made


def traced(deal: Any, unit_nodes: int, seconds: float | None = None) -> Trace:
    """One worker's run, every unit recorded."""
    tr = Trace()
    done, expand = SplitSearch._done, SplitSearch._expand

    def on_done(self: SplitSearch, out: dict[str, Any]) -> None:
        t0 = time.perf_counter()
        tr.seconds[out["id"]] = out["seconds"]
        tr.nodes[out["id"]] = out["nodes"]
        done(self, out)
        tr.own[out["id"]] = time.perf_counter() - t0

    def on_expand(self: SplitSearch, u: Any) -> None:
        first = self.state.next_id
        expand(self, u)
        for i in range(first, self.state.next_id):
            tr.parent_of[i] = u.id
            tr.order.append(i)

    SplitSearch._done = on_done  # type: ignore[method-assign]
    SplitSearch._expand = on_expand  # type: ignore[method-assign]
    try:
        sol = parallel.solve_split(deal, Limit(seconds), 1, None, unit_nodes, beams=False)
    finally:
        SplitSearch._done, SplitSearch._expand = done, expand  # type: ignore[method-assign]
    print(f"  traced: {sol.verdict}, {sol.nodes:,} nodes, {len(tr.nodes):,} units run")
    return tr


def simulate(tr: Trace, workers: int) -> dict[str, float]:
    """The traced units on ``workers`` workers and one serial parent."""
    children: dict[int, list[int]] = {}
    for c in tr.order:
        children.setdefault(tr.parent_of[c], []).append(c)
    roots = [u for u in tr.nodes if u not in tr.parent_of]
    stack = list(roots)
    free, now, parent_free = workers, 0.0, 0.0
    running: list[tuple[float, int]] = []  # (end, unit)
    busy = parent_busy = 0.0
    most_open = 0
    while stack or running:
        while free and stack:
            u = stack.pop()
            if u not in tr.nodes:  # made but never run (the answer came first)
                continue
            heapq.heappush(running, (now + tr.seconds[u], u))
            busy += tr.seconds[u]
            free -= 1
        most_open = max(most_open, len(stack) + len(running))
        if not running:
            break
        end, u = heapq.heappop(running)
        # the parent takes the result when it is free, then hands out work
        now = max(end, parent_free) + tr.own[u]
        parent_free = now
        parent_busy += tr.own[u]
        free += 1
        stack.extend(reversed(children.get(u, [])))
    return {
        "seconds": now,
        "busy": busy / max(now * workers, 1e-9),
        "parent": parent_busy / max(now, 1e-9),
        "open": most_open,
    }


def chain(tr: Trace) -> tuple[float, int]:
    """The longest chain of units each made by the one before (seconds,
    units): no number of workers answers sooner than its units one after
    another, plus the parent's seconds for each."""
    best: dict[int, tuple[float, int]] = {}
    for u in sorted(tr.nodes):  # a parent is made before its children
        p = tr.parent_of.get(u)
        before = best.get(p, (0.0, 0)) if p is not None else (0.0, 0)
        best[u] = (before[0] + tr.seconds[u] + tr.own[u], before[1] + 1)
    return max(best.values(), default=(0.0, 0))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="2,4")
    ap.add_argument("--unit-nodes", type=int)
    ap.add_argument("--variant", help="a preset (profi-hard...) instead of the generalised deals")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--time-limit", type=float)
    ap.add_argument("--workers", default="1,2,16,64,256")
    ap.add_argument("--bytes-per-node", type=float, default=3.4,
                    help="what a worker sends the others per node it searches (measured)")
    args = ap.parse_args(argv)
    units = args.unit_nodes or (UNIT_NODES if args.variant else 200_000)
    for seed in (int(s) for s in args.seeds.split(",")):
        if args.variant:
            deal = Deal.from_seed(seed, get_rules(args.variant), args.players)
            name = f"{args.variant} {args.players}p seed {seed}"
        else:
            deal, name = generalised(seed), f"generalised seed {seed}"
        print(f"{name}, units of {units:,} nodes:")
        tr = traced(deal, units, args.time_limit)
        rate = sum(tr.nodes.values()) / max(sum(tr.seconds.values()), 1e-9)
        one = simulate(tr, 1)["seconds"]
        print(f"  one worker: {one:.1f} s, {rate:,.0f} nodes/s a worker, parent "
              f"{sum(tr.own.values()) * 1e3 / len(tr.own):.2f} ms a unit")
        path, depth = chain(tr)
        print(f"  longest chain of units: {depth} units, {path:.1f} s")
        for p in (int(w) for w in args.workers.split(",")):
            r = simulate(tr, p)
            fanout = args.bytes_per_node * rate * p * r["busy"] * (p - 1) / 1e6
            print(f"  {p:>4} workers: {r['seconds']:7.2f} s, speed-up {one / r['seconds']:6.1f}, "
                  f"workers busy {r['busy']:5.1%}, parent busy {r['parent']:5.1%}, "
                  f"at most {r['open']:,} units open, parent forwards {fanout:,.0f} MB/s",
                  flush=True)


if __name__ == "__main__":
    main()
