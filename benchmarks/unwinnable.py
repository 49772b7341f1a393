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
    python benchmarks/unwinnable.py small --high 20 --piles 1 --hand 3 --deals 1000

``small``: random deals of a small game of the same kind (rule C10: cards
2..HIGH, PILES ascending and PILES descending piles, the given hand, the
rest as the rules say), each decided by the solver and again by the
engine-only brute force (they must agree); the share of unwinnable deals
with its Wilson 95% interval and the first unwinnable deck found.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

from _rows import seeds_of

from thegame.models.outcome import Limit, Verdict
from thegame.models.the_game import Deal, GameState, Rules, get_rules
from thegame.models.the_game.rules import small_rules
from thegame.solver.the_game.api import solve
from thegame.solver.the_game.brute import Brute
from thegame.survey.hunt import Climb, climb, seed_margin
from thegame.survey.report import wilson


def rules_of(args: argparse.Namespace) -> Rules:
    """The variant's rules, with a smaller deck if asked (rule C10)."""
    rules = get_rules(args.variant)
    return rules.with_changes(high=args.high) if args.high else rules


def run_margins(args: argparse.Namespace) -> None:
    rules = rules_of(args)
    full = rules.hand_size(args.players)
    limit = Limit(nodes=args.node_limit)
    needs: Counter[str] = Counter()
    lost: Counter[int] = Counter()  # by hand: deals proven lost with it
    opened: Counter[int] = Counter()  # by hand: neither cleared nor proven lost
    seeds = seeds_of(args.seeds)
    with open(args.out, "w") if args.out else sys.stdout as out:
        for seed in seeds:
            t = time.monotonic()
            m = seed_margin(seed, rules, args.players, limit, args.depth)
            row = {
                "seed": seed,
                "cleared_with": m.cleared_with,
                "probes": [[p.hand, p.verdict.value, p.cards_left, p.nodes] for p in m.probes],
                "seconds": round(time.monotonic() - t, 3),
            }
            print(json.dumps(row), file=out, flush=True)
            needs[str(m.cleared_with)] += 1
            for p in m.probes:
                lost[p.hand] += p.verdict is Verdict.LOSS
                opened[p.hand] += p.verdict is Verdict.UNKNOWN
    n = len(seeds)
    print(
        f"{args.variant}, {args.players} player(s), seeds {args.seeds}, hand {full}, "
        f"node limit {args.node_limit:,} per hand",
        file=sys.stderr,
    )
    cum = 0
    for hand in range(full - args.depth, full + 1):
        cum += needs[str(hand)]
        lo, hi = wilson(cum, n)
        print(
            f"  hand {hand}: cleared (a line) with it or fewer cards {cum}/{n} "
            f"({100 * cum / n:.1f}%, 95% {100 * lo:.1f}-{100 * hi:.1f}%); "
            f"tried and not cleared with it: {lost[hand]} proven lost, {opened[hand]} open",
            file=sys.stderr,
        )
    print(f"  not cleared up to {full} within the limit: {needs['None']}", file=sys.stderr)


def run_climb(args: argparse.Namespace) -> None:
    rules = rules_of(args)
    t = time.monotonic()

    def show(state: Climb) -> None:
        if args.out:  # where the climb stands, whole or not at all
            with open(args.out + ".part", "w") as fh:
                json.dump(summary(state, args, time.monotonic() - t), fh)
            os.replace(args.out + ".part", args.out)
        if state.history and state.history[-1][0] == state.steps:
            need, short, nodes = state.score
            print(
                f"step {state.steps}: needs a hand of {need}, {short} cards left below it, "
                f"{nodes:,} nodes "
                f"({time.monotonic() - t:.0f} s)",
                file=sys.stderr,
                flush=True,
            )

    state = climb(rules, args.players, args.steps, args.seed, Limit(nodes=args.node_limit), show)
    print(json.dumps(summary(state, args, time.monotonic() - t)))


def summary(state: Climb, args: argparse.Namespace, seconds: float) -> dict[str, object]:
    need, short, nodes = state.score
    return {
        "variant": args.variant,
        "players": args.players,
        "high": args.high or None,
        "seed": args.seed,
        "steps": state.steps,
        "kept": state.kept,
        "needs_hand": need,
        "full_hand": state.rules.hand_size(args.players),
        "cards_left_below": short,
        "nodes": nodes,
        "unwinnable": state.unwinnable,
        "probes": [[p.hand, p.verdict.value, p.cards_left, p.nodes] for p in state.margin.probes],
        "deck": state.deck,
        "seconds": round(seconds, 1),
    }


def run_small(args: argparse.Namespace) -> None:
    import random

    rules = small_rules(high=args.high, asc_piles=args.piles, desc_piles=args.piles, hand=args.hand)
    rng = random.Random(args.seed)
    lost = 0
    example: list[int] | None = None
    t = time.monotonic()
    for _ in range(args.deals):
        deck = list(rules.cards)
        rng.shuffle(deck)
        deal = Deal.create(rules, 1, [deck])
        verdict = solve(deal, Limit(nodes=args.node_limit), optimize=False).verdict
        brute = Brute().wins_from(GameState(deal))
        if verdict == "unknown" or (verdict == "win") != brute:
            raise SystemExit(f"solver {verdict}, brute force {brute}: {deck}")
        if not brute:
            lost += 1
            example = example or deck
    lo, hi = wilson(lost, args.deals)
    print(
        json.dumps(
            {
                "high": args.high,
                "piles": args.piles,
                "hand": args.hand,
                "deals": args.deals,
                "seed": args.seed,
                "unwinnable": lost,
                "share": round(lost / args.deals, 4),
                "wilson95": [round(lo, 4), round(hi, 4)],
                "example": example,
                "seconds": round(time.monotonic() - t, 1),
            }
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    for name in ("margins", "climb"):
        p = sub.add_parser(name)
        p.add_argument("--variant", default="classic")
        p.add_argument("--players", type=int, default=1)
        p.add_argument("--node-limit", type=int, default=1_000_000)
        p.add_argument("--high", type=int, default=0, help="a smaller deck: cards 2..HIGH")
    m = sub.choices["margins"]
    m.add_argument("--seeds", default="1-100")
    m.add_argument("--depth", type=int, default=2)
    m.add_argument("--out", default="")
    c = sub.choices["climb"]
    c.add_argument("--steps", type=int, default=300)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", default="", help="keep where the climb stands in this JSON file")
    sm = sub.add_parser("small")
    sm.add_argument("--high", type=int, default=20)
    sm.add_argument("--piles", type=int, default=1)
    sm.add_argument("--hand", type=int, default=3)
    sm.add_argument("--deals", type=int, default=1000)
    sm.add_argument("--seed", type=int, default=1)
    sm.add_argument("--node-limit", type=int, default=1_000_000)
    args = ap.parse_args()
    {"margins": run_margins, "climb": run_climb, "small": run_small}[args.what](args)


if __name__ == "__main__":
    main()
