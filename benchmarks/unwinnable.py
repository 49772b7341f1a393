"""Does an unwinnable deal of The Game exist? Hand margins and a climb.

``margins``: for each seed's deal (``Deal.from_seed``), the smallest hand
(rule C10) with which the same card order is still cleared, trying hands
from ``--depth`` below the rules' hand up to it; one JSON line per seed and
a summary of how many deals each hand clears (Wilson 95% intervals), with
the hands left open (no line and no proof within the node limit).

``climb``: a hill-climb over deck orders (``thegame.survey.hunt.climb``)
towards deals that need the largest hand, then the most nodes; it stops at
a deal proven lost with the rules' own hand. It prints each improvement and
the hardest deck found.

    nice -n 10 python benchmarks/unwinnable.py margins --seeds 1-100 --node-limit 2000000
    nice -n 10 python benchmarks/unwinnable.py climb --steps 300 --seed 1 --node-limit 1000000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from _rows import seeds_of

from thegame.models.outcome import Limit
from thegame.models.the_game import get_rules
from thegame.survey.hunt import Climb, climb, seed_margin
from thegame.survey.report import wilson


def run_margins(args: argparse.Namespace) -> None:
    rules = get_rules(args.variant)
    full = rules.hand_size(args.players)
    limit = Limit(nodes=args.node_limit)
    needs: Counter[str] = Counter()
    seeds = seeds_of(args.seeds)
    with open(args.out, "w") if args.out else sys.stdout as out:
        for seed in seeds:
            t = time.monotonic()
            m = seed_margin(seed, rules, args.players, limit, args.depth)
            row = {
                "seed": seed,
                "cleared_with": m.cleared_with,
                "probes": [[p.hand, p.verdict.value, p.nodes] for p in m.probes],
                "seconds": round(time.monotonic() - t, 3),
            }
            print(json.dumps(row), file=out, flush=True)
            needs[str(m.cleared_with)] += 1
    n = len(seeds)
    print(f"{args.variant}, {args.players} player(s), seeds {args.seeds}, hand {full}, "
          f"node limit {args.node_limit:,} per hand", file=sys.stderr)
    cum = 0
    for hand in range(full - args.depth, full + 1):
        cum += needs[str(hand)]
        lo, hi = wilson(cum, n)
        print(f"  cleared with a hand of {hand} or fewer: {cum}/{n} "
              f"({100 * cum / n:.1f}%, 95% {100 * lo:.1f}-{100 * hi:.1f}%)", file=sys.stderr)
    print(f"  not cleared up to {full} within the limit: {needs['None']}", file=sys.stderr)


def run_climb(args: argparse.Namespace) -> None:
    rules = get_rules(args.variant)
    full = rules.hand_size(args.players)
    t = time.monotonic()

    def show(state: Climb) -> None:
        if state.history and state.history[-1][0] == state.steps:
            need, nodes = state.score
            print(f"step {state.steps}: needs a hand of {need}, {nodes:,} nodes "
                  f"({time.monotonic() - t:.0f} s)", file=sys.stderr, flush=True)

    state = climb(rules, args.players, args.steps, args.seed, Limit(nodes=args.node_limit), show)
    need, nodes = state.score
    print(json.dumps({
        "variant": args.variant, "players": args.players, "seed": args.seed,
        "steps": state.steps, "kept": state.kept, "needs_hand": need, "full_hand": full,
        "nodes": nodes, "unwinnable": state.unwinnable,
        "probes": [[p.hand, p.verdict.value, p.nodes] for p in state.margin.probes],
        "deck": state.deck, "seconds": round(time.monotonic() - t, 1),
    }))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    for name in ("margins", "climb"):
        p = sub.add_parser(name)
        p.add_argument("--variant", default="classic")
        p.add_argument("--players", type=int, default=1)
        p.add_argument("--node-limit", type=int, default=1_000_000)
    m = sub.choices["margins"]
    m.add_argument("--seeds", default="1-100")
    m.add_argument("--depth", type=int, default=2)
    m.add_argument("--out", default="")
    c = sub.choices["climb"]
    c.add_argument("--steps", type=int, default=300)
    c.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run_margins(args) if args.what == "margins" else run_climb(args)


if __name__ == "__main__":
    main()
