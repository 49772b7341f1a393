"""Benchmark the Face to Face solver: seeds A-B of the printed duel, each start.

Usage (from the repository root):

    python benchmarks/duel.py --seeds 1-200 --time-limit 60
    python benchmarks/duel.py --seeds 1-200 --time-limit 1 --out benchmarks/results/duel-1s.jsonl
    python benchmarks/duel.py --seeds 1-20 --high 20 --time-limit 10   # a generalised duel (D7)
    python benchmarks/duel.py --time-limit 600 --summarize benchmarks/results/duel-600s-*.jsonl

Each (seed, start) is decided by ``solver.the_game.duel.api.decide`` in a fresh
worker process with the per-deal budget (the races alone are not part of
it). One JSON line per deal goes to ``--out``; the summary (decided %, how
often the starting player wins among decided deals, median / p95 / max
seconds, peak resident memory of a worker) is printed as markdown.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path
from typing import Any

from _rows import run_rows, seconds_cells, seeds_of

from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import decide


def run_one(args: tuple[int, int, float | None, int | None, int, int]) -> dict[str, Any]:
    seed, first, seconds, nodes, high, hand = args
    rules = get_rules("face-to-face")
    if (high, hand) != (rules.high, rules.hand_size(2)):
        rules = rules.with_changes(high=high, hand_sizes=(hand, hand))  # rule D7
    deal = Deal.from_seed(seed, rules, first=first)
    t0 = time.monotonic()
    res = decide(GameState(deal), Limit(seconds, nodes))
    return {
        "seed": seed,
        "first": first,
        "high": high,
        "hand": hand,
        "verdict": str(res.verdict),
        "winner": res.winner,
        "nodes": res.nodes,
        "seconds": round(time.monotonic() - t0, 3),
        "turns": len(res.turns),
        "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def summary(rows: list[dict[str, Any]], budget: str) -> str:
    n = len(rows)
    decided = [r for r in rows if r["verdict"] != "unknown"]
    starter = [r for r in decided if r["winner"] == r["first"]]
    peak = max((r["peak_kb"] for r in rows), default=0) / 1024
    share = f"{100 * len(starter) / len(decided):.0f}%" if decided else "n/a"
    return "\n".join(
        [
            "| deals (seed x start) | budget | decided | starter wins (of decided) | "
            "median s | p95 s | max s | peak MB |",
            "|---|---|---|---|---|---|---|---|",
            f"| {n} | {budget} | {len(decided)} ({100 * len(decided) / max(n, 1):.1f}%) | "
            f"{len(starter)} ({share}) | {seconds_cells(rows)} | {peak:.0f} |",
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--node-limit", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--high", type=int, default=59, help="highest card (rule D7; 59 printed)")
    ap.add_argument("--hand", type=int, default=6, help="hand size (rule D7; 6 printed)")
    ap.add_argument("--out", default="benchmarks/results/duel.jsonl")
    ap.add_argument(
        "--summarize",
        nargs="+",
        metavar="FILE",
        help="print the summary of earlier runs' lines (one budget) and run nothing",
    )
    a = ap.parse_args()
    if a.summarize:
        rows = [
            json.loads(line)
            for f in a.summarize
            for line in Path(f).read_text().splitlines()
            if line.strip()
        ]
        print(summary(rows, f"{a.time_limit:g} s"))
        print(f"\nnodes: {min(r['nodes'] for r in rows):,} to {max(r['nodes'] for r in rows):,}")
        return
    budgets = (a.time_limit, a.node_limit, a.high, a.hand)
    work = [(s, f, *budgets) for s in seeds_of(a.seeds) for f in (1, 2)]
    rows = run_rows(run_one, work, a.jobs, a.out)
    budget = f"{a.time_limit:g} s" + (f", {a.node_limit:,} nodes" if a.node_limit else "")
    if (a.high, a.hand) != (59, 6):
        budget += f" (cards 2..{a.high}, hand {a.hand})"
    print(summary(rows, budget))


if __name__ == "__main__":
    main()
