"""Two ideas for the reach of the duel's proof search, measured on the
policy duels of ``duel_reach.py`` (the printed game, player 1 first).

Usage (from the repository root; machine: 2 shared cores, run under nice):

    python benchmarks/duel_ideas.py endgame --seeds 1-3 --back 12-16 --nodes 300000
    python benchmarks/duel_ideas.py split --how race --seeds 1-3 --back 14-16 --nodes 1000000
    python benchmarks/duel_ideas.py reach --how race --seeds 1-3 --from 13 --budget-nodes 2000000

``endgame``: what an endgame table over the last cards of both decks
could answer. The compiled search (``pns.ProofNumberSearch.wins``, df-pn
alone) runs from each turn start with a node budget while it records the
positions it opens and settles (``_cduel.Solver.trace``); the positions
are counted by the cards left in the two draw piles together (0: both
empty, the only positions a table over the last cards could cover whole).
A table answering every position with at most ``--stock`` cards in the
draw piles at sight would save at most the visits of those positions.
``--init``: df-pn's numbers of new children (``ProofNumberSearch.init``).

``split``: each turn start decided by the serial search (``api.decide``;
``--no-serial``: not) and by a parallel one (``--how``: ``race``, df-pn and
the depth-first search in a process each, ``parallel.race_decide``;
``split``, the turn start's children split over ``--workers`` processes,
``parallel.split_decide``) with the same total node budget
(``--worker-nodes``: that many nodes a worker instead); verdicts, nodes,
wall and CPU seconds (the parent's and the workers'). ``reach``: as
``duel_reach.py reach --budget-nodes`` with the parallel search (its
``--budget-nodes`` for all workers together), from ``--from`` turn starts
from the end.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from duel_reach import _range, starts_of, walk_back

from thegame.models import Limit
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import GameState
from thegame.solver.the_game.duel.api import DuelResult, decide
from thegame.solver.the_game.duel.parallel import race_decide, split_decide
from thegame.solver.the_game.duel.pns import Init, ProofNumberSearch
from thegame.solver.the_game.duel.position import DuelGame, Pos


def endgame(seeds: range, back: range, nodes: int, stock: int, init: str = "rank") -> None:
    visits = near = reached = empty = 0
    for seed in seeds:
        starts = starts_of(seed)
        for k in back:
            state = starts[-k]
            game = DuelGame.of(state.deal)
            pos = game.from_state(state)
            search = ProofNumberSearch(game, nodes)
            search.init = Init(init)
            solver = search._solver
            assert solver is not None, "the compiled search is needed for its trace"
            solver.trace(True)
            try:
                verdict = "win" if search.wins(pos) else "loss"
            except OutOfBudget:
                verdict = "unknown"
            events = solver.trace(False)

            def left(p: Pos, g: DuelGame = game) -> int:
                return g.stock_left(p, 0) + g.stock_left(p, 1)

            opened = Counter(left(p) for e, p, _w in events if e == "open")
            seen = {p for _e, p, _w in events}
            by_left = Counter(left(p) for p in seen)
            # A visit opens its position or settles it at first look
            # (a store with no open before it): at most opens + stores.
            settled = Counter(left(p) for e, p, _w in events if e == "store")
            low = sum(n for s, n in (opened + settled).items() if s <= stock)
            visits += search.stats.nodes
            near += low
            reached += sum(n for s, n in by_left.items() if s <= stock)
            empty += by_left[0]
            print(
                f"seed {seed}, {k} from the end (draw piles {game.stock_left(pos, 0)}+"
                f"{game.stock_left(pos, 1)}): {verdict}, {search.stats.nodes} nodes; "
                f"{len(seen)} positions opened or settled, {by_left[0]} with both draw piles "
                f"empty, {sum(n for s, n in by_left.items() if s <= stock)} with at most "
                f"{stock} cards in them; visited there at most {low} times; fewest cards "
                f"left in the draw piles {min(by_left) if by_left else '-'}",
                flush=True,
            )
    print(
        f"all: {visits} visits; positions with both draw piles empty: {empty}; with at most "
        f"{stock} cards in them: {reached}, visited at most {near} times "
        f"({100 * near / max(1, visits):.2f}% of the visits)"
    )


def parallel(state: GameState, nodes: int, how: str, workers: int) -> DuelResult:
    """The turn start decided by the split search or the race of searches."""
    if how == "race":
        return race_decide(state, Limit(None, nodes))
    return split_decide(state, Limit(None, nodes), workers)


def split(
    seeds: range,
    back: range,
    nodes: int,
    how: str,
    workers: int,
    worker_nodes: int | None,
    serial: bool = True,
) -> None:
    total = {"serial": [0, 0, 0.0], "split": [0, 0, 0.0]}
    for seed in seeds:
        starts = starts_of(seed)
        for k in back:
            state = starts[-k]
            cells = []
            for name in ("serial", "split") if serial else ("split",):
                w0, c0 = time.monotonic(), time.process_time()
                if name == "serial":
                    res = decide(state, Limit(None, nodes))
                    cpu = time.process_time() - c0
                else:
                    budget = nodes if worker_nodes is None else worker_nodes * workers
                    res = parallel(state, budget, how, workers)
                    cpu = time.process_time() - c0 + res.details.get("worker_cpu_ms", 0) / 1000
                wall = time.monotonic() - w0
                t = total[name]
                t[0] += res.verdict.value != "unknown"
                t[1] += res.nodes
                t[2] += cpu
                cells.append(
                    f"{name} {res.verdict.value}, {res.nodes} nodes, {wall:.1f} s wall, "
                    f"{cpu:.1f} CPU s{_by(res)}"
                )
            print(f"seed {seed}, {k} from the end: " + "; ".join(cells), flush=True)
    for name, (decided, n, cpu) in total.items():
        print(f"{name}: {decided} decided, {n} nodes, {cpu:.1f} CPU s")


def _by(res: DuelResult) -> str:
    """Which search settled it (from the proof's first words)."""
    if res.proof is None:
        return ""
    own = res.details.get("answer_nodes")
    return (
        f" ({res.proof.split(' over')[0]}" + ("" if own is None else f", its own {own} nodes") + ")"
    )


def reach(seeds: range, start: int, nodes: int, how: str, workers: int) -> None:
    furthest = []
    for seed in seeds:

        def ask(back: int, state: GameState, seed: int = seed) -> DuelResult:
            w0 = time.monotonic()
            res = parallel(state, nodes, how, workers)
            print(
                f"  seed {seed}, {back} from the end: {res.verdict.value}, "
                f"{res.nodes} nodes, {time.monotonic() - w0:.1f} s wall{_by(res)}",
                flush=True,
            )
            return res

        best = walk_back(starts_of(seed), start, ask)
        print(f"seed {seed}: furthest decided {best} from the end (from {start} on)")
        furthest.append(best)
    print(f"furthest decided by seed: {furthest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["endgame", "split", "reach"])
    ap.add_argument("--seeds", default="1-3")
    ap.add_argument("--back", default="12-16", help="endgame, split: turn starts from the end")
    ap.add_argument("--nodes", type=int, default=300_000, help="endgame, split: node budget")
    ap.add_argument("--init", choices=[i.value for i in Init], default="rank", help="endgame")
    ap.add_argument("--stock", type=int, default=6, help="endgame: cards in both draw piles")
    ap.add_argument("--workers", type=int, default=2, help="split, reach: worker processes")
    ap.add_argument("--how", choices=["split", "race"], default="race", help="split, reach")
    ap.add_argument("--no-serial", action="store_true", help="split: the parallel search only")
    ap.add_argument("--worker-nodes", type=int, help="split: node budget a worker")
    ap.add_argument("--from", dest="start", type=int, default=1, help="reach: first turn start")
    ap.add_argument("--budget-nodes", type=int, default=1_000_000, help="reach: node budget")
    a = ap.parse_args()
    if a.mode == "endgame":
        endgame(_range(a.seeds), _range(a.back), a.nodes, a.stock, a.init)
    elif a.mode == "split":
        split(
            _range(a.seeds),
            _range(a.back),
            a.nodes,
            a.how,
            a.workers,
            a.worker_nodes,
            not a.no_serial,
        )
    else:
        reach(_range(a.seeds), a.start, a.budget_nodes, a.how, a.workers)


if __name__ == "__main__":
    main()
