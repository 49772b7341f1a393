"""How fast and how far the duel's proof-number search (``duel/pns.py``)
reaches on the policy duels of the printed game (``duel_policy.py``: one
fixed policy on both seats, player 1 first).

Usage (from the repository root; machine: 2 shared cores, run under nice):

    python benchmarks/duel_reach.py speed --seeds 1-3 --back 6-9 --nodes 20000
    python benchmarks/duel_reach.py reach --seeds 1-3 --time-limit 20
    python benchmarks/duel_reach.py reach --seeds 1-20 --time-limit 60 --shared
    python benchmarks/duel_reach.py floor --seeds 1-3 --back 9-12 --nodes 200000
    python benchmarks/duel_reach.py sizes --seeds 1-2 --back 8-12 --nodes 200000

``speed``: df-pn alone (``ProofNumberSearch.wins``, no portfolio) from the
turn starts ``--back`` from the end of each seed's policy duel, with a fixed
node budget, once with the whole search compiled (``native``) and once
with the Python reference; both make the same visits (the script checks
the node counts), so the figures are nodes a CPU second and CPU seconds for
the same work (``--only``: one backend).

``floor``: df-pn alone from the same turn starts with a node budget, once
without and once with the relaxed race as the floor of the race bounds
(``DuelNodes.relaxed_race``; ``--with-only``: only with it); nodes and
CPU seconds to decide each (CPU: the machine is shared).

``sizes``: df-pn alone from the same turn starts with a node budget, with
the bounds' default sizes (``nodes.BoundSizes``) and with bigger ones
(``--sizes``: the races asked of players with more cards left, each bound
with more nodes); nodes and CPU seconds to decide each.

``reach``: for each seed, its turn starts decided the last first, each by a
fresh search (as ``hint`` does: ``api.decide``, the depth-first search and
df-pn taking turns) with ``--time-limit`` seconds, until two in a row end
unknown; prints the furthest turn start from the end decided
(``--budget-nodes N``: N nodes a position instead of the time). With
``--shared`` one search (``api.session``) serves all the turn starts of a
seed, so each question starts from the values proven for the later ones
(as ``analyze`` does). ``--epsilon``
and ``--init`` set df-pn's options (``ProofNumberSearch.epsilon``,
``ProofNumberSearch.init``). ``--jobs 2``: each turn start decided by
the race of two worker processes (``parallel.race_decide``, what
``hint --jobs 2`` runs), each with a fresh table; a hint of 60 s gives
its exact search 50 s, so ``--time-limit 50`` asks what it asks.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from duel_policy import policy_game

from thegame.models import Limit
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import DuelResult, decide, session
from thegame.solver.the_game.duel.nodes import BoundSizes
from thegame.solver.the_game.duel.parallel import race_decide
from thegame.solver.the_game.duel.pns import Init, ProofNumberSearch
from thegame.solver.the_game.duel.position import DuelGame


def starts_of(seed: int) -> list[GameState]:
    """The turn starts of the seed's policy duel, player 1 first."""
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1))
    return policy_game(state)


def speed(seeds: range, back: range, nodes: int, only: str | None = None) -> None:
    totals = {True: [0, 0.0], False: [0, 0.0]}
    backends = (True, False) if only is None else (only == "compiled",)
    for seed in seeds:
        starts = starts_of(seed)
        for k in back:
            state = starts[-k]
            game = DuelGame.of(state.deal)
            pos = game.from_state(state)
            row = []
            for native in backends:
                search = ProofNumberSearch(game, nodes)
                search.native = native
                t0 = time.process_time()
                try:
                    verdict = "win" if search.wins(pos) else "loss"
                except OutOfBudget:
                    verdict = "unknown"
                dt = time.process_time() - t0
                totals[native][0] += search.stats.nodes
                totals[native][1] += dt
                row.append((verdict, search.stats.nodes, dt))
            assert len(row) == 1 or row[0][:2] == row[1][:2], f"the backends differ: {row}"
            cells = [
                f"{'compiled' if nat else 'Python'} {r[2]:.3f} CPU s"
                for nat, r in zip(backends, row, strict=True)
            ]
            print(
                f"seed {seed}, {k} from the end: {row[0][0]}, {row[0][1]} nodes; "
                + ", ".join(cells),
                flush=True,
            )
    for native, (n, s) in totals.items():
        if not n:
            continue
        name = "compiled search" if native else "Python reference"
        print(f"{name}: {n} nodes in {s:.2f} CPU s, {n / s:,.0f} nodes/s")


def floor(seeds: range, back: range, nodes: int, with_only: bool) -> None:
    totals = {False: [0, 0.0], True: [0, 0.0]}
    for seed in seeds:
        starts = starts_of(seed)
        for k in back:
            state = starts[-k]
            game = DuelGame.of(state.deal)
            pos = game.from_state(state)
            cells = []
            for on in (True,) if with_only else (False, True):
                search = ProofNumberSearch(game, nodes)
                search.relaxed_race = on
                c0 = time.process_time()
                try:
                    verdict = "win" if search.wins(pos) else "loss"
                except OutOfBudget:
                    verdict = "unknown"
                cpu = time.process_time() - c0
                totals[on][0] += search.stats.nodes
                totals[on][1] += cpu
                label = "with" if on else "without"
                cells.append(f"{label} {verdict}, {search.stats.nodes} nodes, {cpu:.2f} CPU s")
            print(f"seed {seed}, {k} from the end: " + "; ".join(cells), flush=True)
    for on, (n, c) in totals.items():
        print(f"{'with' if on else 'without'} the relaxed race: {n} nodes, {c:.1f} CPU s")


def sizes(seeds: range, back: range, nodes: int, bigger: BoundSizes) -> None:
    """df-pn alone from each turn start with the default bounds' sizes and
    with ``bigger`` ones: nodes (and CPU seconds) to decide each."""
    totals = {False: [0, 0.0, 0], True: [0, 0.0, 0]}
    for seed in seeds:
        starts = starts_of(seed)
        for k in back:
            state = starts[-k]
            game = DuelGame.of(state.deal)
            pos = game.from_state(state)
            cells = []
            for big in (False, True):
                search = ProofNumberSearch(game, nodes)
                search.sizes = bigger if big else BoundSizes()
                c0 = time.process_time()
                try:
                    verdict = "win" if search.wins(pos) else "loss"
                except OutOfBudget:
                    verdict = "unknown"
                cpu = time.process_time() - c0
                totals[big][0] += search.stats.nodes
                totals[big][1] += cpu
                totals[big][2] += verdict != "unknown"
                label = "bigger" if big else "default"
                cells.append(f"{label} {verdict}, {search.stats.nodes} nodes, {cpu:.2f} CPU s")
            print(f"seed {seed}, {k} from the end: " + "; ".join(cells), flush=True)
    for big, (n, c, decided) in totals.items():
        label = f"bigger {bigger}" if big else "default"
        print(f"{label}: {decided} decided, {n} nodes, {c:.1f} CPU s")


def walk_back(
    starts: list[GameState], start: int, ask: Callable[[int, GameState], DuelResult]
) -> int:
    """``ask`` each turn start from ``start`` from the end backwards, until
    two in a row stay unknown: the furthest decided (0: none)."""
    best, misses = 0, 0
    for back in range(start, len(starts) + 1):
        if ask(back, starts[-back]).verdict.value == "unknown":
            misses += 1
            if misses == 2:
                break
        else:
            best, misses = back, 0
    return best


def reach(
    seeds: range,
    seconds: float,
    epsilon: float | None,
    init: str | None,
    shared: bool,
    nodes: int | None = None,
    start: int = 1,
    jobs: int = 1,
) -> None:
    furthest = []
    for seed in seeds:
        starts = starts_of(seed)
        one = session(starts[0].deal) if shared else None

        def ask(
            back: int, state: GameState, seed: int = seed, one: ProofNumberSearch | None = one
        ) -> DuelResult:
            search = one or ProofNumberSearch(DuelGame.of(state.deal))
            if epsilon is not None:
                search.epsilon = epsilon
            if init is not None:
                search.init = Init(init)
            # A node budget (``--budget-nodes``) instead of the clock: the
            # same work whatever else runs on the machine.
            limit = Limit(seconds) if nodes is None else Limit(None, nodes)
            cpu = time.process_time()
            # --jobs 2: the race over two worker processes, as hint --jobs 2 runs it.
            res = race_decide(state, limit) if jobs >= 2 else decide(state, limit, search=search)
            cpu = time.process_time() - cpu
            if jobs >= 2:  # the workers' CPU, not this process's (which waits)
                cpu = res.details.get("worker_cpu_ms", 0) / 1000
                if res.verdict.value != "unknown":
                    answer = res.details["answer_nodes"]
                    print(f"  (the answering search: {answer} nodes)", flush=True)
            print(
                f"  seed {seed}, {back} from the end: {res.verdict.value}, "
                f"{res.nodes} nodes, {res.seconds:.1f} s, {cpu:.1f} CPU s",
                flush=True,
            )
            return res

        # The turn starts before ``start`` are taken as decided.
        best = walk_back(starts, start, ask) or start - 1
        print(f"seed {seed}: {len(starts)} turns, furthest decided {best} from the end")
        furthest.append(best)
    print(f"furthest decided by seed: {furthest}")


def _range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["speed", "reach", "floor", "sizes"])
    ap.add_argument("--seeds", default="1-3")
    ap.add_argument("--back", default="6-9", help="speed, floor: turn starts this far from the end")
    ap.add_argument(
        "--nodes", type=int, default=20_000, help="speed, floor: node budget a position"
    )
    ap.add_argument("--time-limit", type=float, default=20.0, help="reach: seconds a position")
    ap.add_argument("--epsilon", type=float, help="reach: df-pn's 1 + epsilon widening")
    ap.add_argument(
        "--init", choices=[i.value for i in Init], help="reach: df-pn's numbers of new children"
    )
    ap.add_argument(
        "--shared", action="store_true", help="reach: one search for all of a seed's starts"
    )
    ap.add_argument("--with-only", action="store_true", help="floor: only with the relaxed race")
    ap.add_argument("--only", choices=["compiled", "python"], help="speed: one backend")
    ap.add_argument(
        "--sizes",
        default="24,2000,24,500,1000",
        help="sizes: the bigger BoundSizes (robust cards, nodes, relaxed cards, nodes, survival)",
    )
    ap.add_argument(
        "--budget-nodes", type=int, help="reach: a node budget a position instead of the time"
    )
    ap.add_argument(
        "--start",
        type=int,
        default=1,
        help="reach: the first turn start from the end asked (those after it taken as decided)",
    )
    ap.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="reach: 2 or more race df-pn against the depth-first search in two processes "
        "(parallel.race_decide, as hint --jobs 2); 1: the serial search",
    )
    a = ap.parse_args()
    if a.mode == "speed":
        speed(_range(a.seeds), _range(a.back), a.nodes, a.only)
    elif a.mode == "sizes":
        bigger = BoundSizes(*(int(x) for x in a.sizes.split(",")))
        sizes(_range(a.seeds), _range(a.back), a.nodes, bigger)
    elif a.mode == "floor":
        floor(_range(a.seeds), _range(a.back), a.nodes, a.with_only)
    else:
        reach(_range(a.seeds), a.time_limit, a.epsilon, a.init, a.shared, a.budget_nodes, a.start,
              a.jobs)  # fmt: skip


if __name__ == "__main__":
    main()
