"""Fixed workloads of the compiled kernels, for comparing two builds.

Usage (from a checkout with the extensions built in place)::

    PYTHONPATH=TREE python benchmarks/c_work.py search profi-hard 108 300000
    PYTHONPATH=TREE python benchmarks/c_work.py search profi-hard 1 300000 --players 3
    PYTHONPATH=TREE python benchmarks/c_work.py search extreme 1 300000
    PYTHONPATH=TREE python benchmarks/c_work.py playouts 300
    PYTHONPATH=TREE python benchmarks/c_work.py duel 1 3000
    PYTHONPATH=TREE python benchmarks/c_work.py line benchmarks/data/line-108.json 13-20

``search``: the compiled decision search (``ckernel.search``) of one seeded
deal with a node budget; ``playouts``: blind playouts (``_crollout``) of
classic seed 1 with 3 players from its start, one per sampled order of the
hidden cards; ``duel``: the duel search (``DuelSearch``, its nodes
expanded by ``_cduel``) of a printed Face to Face deal, player 1 first,
with a node budget and no clock, so the same work every run; ``line``:
the compiled play-level search (``ckernel.search``, ``play_level``) from
each turn start A-B of a stored line of a profi-hard deal (a JSON file:
its seed, players and actions), to its end or ``--nodes`` each, the
deep-loss-proof work the turn-start cuts are for. Prints one
JSON line: the work done (nodes; games, wins, cards left) and the CPU
seconds of that part alone, so that two builds can be
compared on the same work: with ``valgrind --tool=cachegrind
--cache-sim=no`` (instructions, unmoved by a busy machine) or best-of-N
seconds (``--repeat``). docs/c-kernels.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from thegame.analysis.the_game import rollout
from thegame.models.outcome import Limit, OutOfBudget
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.duel.position import DuelGame
from thegame.solver.the_game.duel.search import DuelSearch
from thegame.solver.the_game.extreme.kernel import ExtremeKernel
from thegame.solver.the_game.kernel import Kernel


def search(variant: str, seed: int, nodes: int, players: int) -> dict[str, object]:
    rules = get_rules(variant)
    state = GameState(Deal.from_seed(seed, rules, players))
    kernel = (ExtremeKernel if rules.commands else Kernel).from_state(state)
    start = time.process_time()
    res, _dead = ckernel.search(kernel, Limit(nodes=nodes), None)
    seconds = time.process_time() - start
    return {"nodes": res.stats.nodes, "win": res.win, "proven": res.proven, "cpu_s": seconds}


def playouts(games: int) -> dict[str, object]:
    state = GameState(Deal.from_seed(1, get_rules("classic"), 3))
    orders = rollout.sample_orders(state, games, 7)
    start = time.process_time()
    res = rollout.playouts_c(state, orders)
    seconds = time.process_time() - start
    won = sum(1 for w, _ in res if w)
    return {"games": len(res), "won": won, "left": sum(n for _, n in res), "cpu_s": seconds}


def line(path: str, turns: str, nodes: int) -> dict[str, object]:
    data = json.loads(Path(path).read_text())
    deal = Deal.from_seed(data["seed"], get_rules("profi-hard"), data["players"])
    k = Kernel.from_state(GameState(deal, first=1))
    lo, _, hi = turns.partition("-")
    want = range(int(lo), int(hi or lo) + 1)
    turn, total, start, verdicts = 1, 0, time.process_time(), []
    for card, pile in data["actions"]:
        if card >= 0:
            k.play(card, pile)
            continue
        k.end_turn()
        turn += 1
        if turn in want and k.t == 0 and not k.won():
            res, _dead = ckernel.search(k, Limit(nodes=nodes), None, play_level=True)
            total += res.stats.nodes
            verdicts.append("win" if res.win else "loss" if res.proven else "unknown")
    seconds = time.process_time() - start
    return {"nodes": total, "verdicts": "".join(v[0] for v in verdicts), "cpu_s": seconds}


def duel(seed: int, nodes: int) -> dict[str, object]:
    game = DuelGame.of(Deal.from_seed(seed, get_rules("face-to-face"), 2))
    search = DuelSearch(game, nodes)
    start = time.process_time()
    try:
        verdict: bool | None = search.wins(game.start(1))
    except OutOfBudget:
        verdict = None
    seconds = time.process_time() - start
    return {"nodes": search.stats.nodes, "wins": verdict, "cpu_s": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("search")
    s.add_argument("variant")
    s.add_argument("seed", type=int)
    s.add_argument("nodes", type=int)
    s.add_argument("--players", type=int, default=1)
    p = sub.add_parser("playouts")
    p.add_argument("games", type=int)
    d = sub.add_parser("duel")
    d.add_argument("seed", type=int)
    d.add_argument("nodes", type=int)
    ln = sub.add_parser("line")
    ln.add_argument("path")
    ln.add_argument("turns", help="A-B: the turn starts searched from")
    ln.add_argument("--nodes", type=int, default=30_000_000, help="a budget for each search")
    ap.add_argument("--repeat", type=int, default=1, help="best CPU seconds of N runs")
    args = ap.parse_args()
    best: dict[str, object] | None = None
    for _ in range(args.repeat):
        if args.what == "search":
            out = search(args.variant, args.seed, args.nodes, args.players)
        elif args.what == "playouts":
            out = playouts(args.games)
        elif args.what == "line":
            out = line(args.path, args.turns, args.nodes)
        else:
            out = duel(args.seed, args.nodes)
        if best is None or float(out["cpu_s"]) < float(best["cpu_s"]):  # type: ignore[arg-type]
            best = out
    assert best is not None
    best["cpu_s"] = round(float(best["cpu_s"]), 4)  # type: ignore[arg-type]
    print(json.dumps(best))


if __name__ == "__main__":
    main()
