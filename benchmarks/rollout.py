"""Playouts per second of the blind policy: the Python reference against the
compiled extension (thegame.analysis.the_game.rollout), on whole games.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/rollout.py --seeds 200
    python benchmarks/rollout.py --seeds 50 --variant profi --players 3 --orders 4

For each seed 1..N the deal's start position (player 1 to move) is played
out over ``--orders`` orders of the hidden cards (``sample_orders`` with the
seed), by each implementation, in one process, interleaved seed by seed.
Every result must be the same in both (the run fails otherwise), so the
benchmark is also a check of the extension on N whole games. Prints the
playouts per second of each, the speed-up, and the win rate.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
import time

from thegame.analysis.the_game import rollout
from thegame.models.the_game import Deal, GameState, get_rules


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--orders", type=int, default=1, help="playouts per seed")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument(
        "--c-repeat",
        type=int,
        default=5,
        help="run the compiled playouts of each seed this many times and average",
    )
    args = ap.parse_args()
    if args.c_repeat < 1:
        ap.error("--c-repeat must be at least 1")
    if not rollout.HAVE_C:
        print("the _crollout extension is not built: nothing to compare", file=sys.stderr)
        return 2
    rules = get_rules(args.variant)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = []
    for seed in seeds:
        state = GameState(Deal.from_seed(seed, rules, args.players), first=1)
        jobs.append((state, rollout.sample_orders(state, args.orders, seed)))
    n = len(jobs) * args.orders

    # Interleaved, seed by seed, so that both implementations see the same
    # load on a shared machine (timing one after the other gave ratios from
    # 77x to 163x on the same code). The compiled playouts of a seed take
    # about a millisecond: they are repeated and averaged.
    c_results, py_results = [], []
    c_secs = py_secs = 0.0
    for state, orders in jobs:
        start = time.perf_counter()
        for _ in range(args.c_repeat):
            c_out = rollout.playouts_c(state, orders)
        c_secs += (time.perf_counter() - start) / args.c_repeat
        start = time.perf_counter()
        py_out = rollout.playouts_python(state, orders)
        py_secs += time.perf_counter() - start
        c_results.append(c_out)
        py_results.append(py_out)

    differ = [s for s, a, b in zip(seeds, py_results, c_results, strict=True) if a != b]
    flat = [r for rs in c_results for r in rs]
    wins = sum(won for won, _ in flat)
    cmd = "python benchmarks/rollout.py " + shlex.join(sys.argv[1:])
    print(f"command: {cmd.strip()}")
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(
        f"{n} playouts ({args.variant}, {args.players} player(s), seeds "
        f"{seeds.start}-{seeds.stop - 1}, {args.orders} order(s) each): "
        f"{wins} won ({100 * wins / n:.1f}%), mean "
        f"{sum(left for _, left in flat) / n:.2f} cards left"
    )
    print(f"python: {n / py_secs:9.1f} playouts/s ({1000 * py_secs / n:7.2f} ms each)")
    print(f"c:      {n / c_secs:9.1f} playouts/s ({1000 * c_secs / n:7.3f} ms each)")
    print(f"speed-up: {py_secs / c_secs:.0f}x; identical results: {not differ}")
    if differ:
        print(f"results differ on seeds {differ}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
