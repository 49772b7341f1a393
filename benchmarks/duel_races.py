"""Benchmark the Face to Face races alone: each player of seeds A-B at the deal.

Usage (from the repository root):

    python benchmarks/duel_races.py --seeds 1-200 --time-limit 10 --jobs 2
    python benchmarks/duel_races.py --seeds 1-50 --time-limit 60 \
        --out benchmarks/results/duel-races-c-1-50.jsonl

The race alone is what ``thegame solve --variant face-to-face`` reports as
``race``: the fewest turns in which a player plays all their cards on their
own piles if the other never touches them (``duel.race.race_alone``; it does
not depend on who starts). Each player gets ``--time-limit`` seconds in a
worker process. One JSON line per player goes to ``--out``; the summary
(proven %, how many can finish alone, median / p95 / max seconds, the
CPU seconds and nodes) is printed as markdown.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from _rows import run_rows, seconds_cells, seeds_of

from thegame.models.the_game import Deal, get_rules
from thegame.solver.the_game.duel.position import DuelGame, solo_of
from thegame.solver.the_game.duel.race import race_alone


def run_one(args: tuple[int, int, float, int, int]) -> dict[str, Any]:
    seed, player, seconds, high, hand = args
    rules = get_rules("face-to-face")
    if (high, hand) != (rules.high, rules.hand_size(2)):
        rules = rules.with_changes(high=high, hand_sizes=(hand, hand))  # rule D7
    game = DuelGame.of(Deal.from_seed(seed, rules, first=1))
    t0, c0 = time.monotonic(), time.process_time()
    race = race_alone(game, player - 1, solo_of(game.start(1), player - 1), None, t0 + seconds)
    return {
        "seed": seed,
        "player": player,
        "high": high,
        "hand": hand,
        "turns": race.turns,
        "proven": race.proven,
        "floor": race.floor,
        "nodes": race.nodes,
        "seconds": round(time.monotonic() - t0, 3),
        # CPU time: on a shared machine the wall clock says more about the
        # other jobs than about the search.
        "cpu_seconds": round(time.process_time() - c0, 3),
    }


def summary(rows: list[dict[str, Any]], budget: str) -> str:
    n = len(rows)
    proven = [r for r in rows if r["proven"]]
    finish = [r for r in proven if r["turns"] is not None]
    at_floor = sum(r["turns"] == r["floor"] for r in finish)
    cpu = sorted(r.get("cpu_seconds", 0.0) for r in rows) or [0.0]
    return "\n".join(
        [
            "| players (seed x player) | budget | proven | can finish alone (of proven) | "
            "finish at the floor | median s | p95 s | max s | median CPU s | max CPU s | "
            "max nodes |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            f"| {n} | {budget} | {len(proven)} ({100 * len(proven) / max(n, 1):.1f}%) | "
            f"{len(finish)} | {at_floor} | {seconds_cells(rows)} | {cpu[len(cpu) // 2]:.2f} | "
            f"{cpu[-1]:.2f} | {max((r['nodes'] for r in rows), default=0):,} |",
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per player")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--high", type=int, default=59, help="highest card (rule D7; 59 printed)")
    ap.add_argument("--hand", type=int, default=6, help="hand size (rule D7; 6 printed)")
    ap.add_argument("--out", default="benchmarks/results/duel-races.jsonl")
    a = ap.parse_args()
    work = [(s, p, a.time_limit, a.high, a.hand) for s in seeds_of(a.seeds) for p in (1, 2)]
    rows = run_rows(run_one, work, a.jobs, a.out)
    budget = f"{a.time_limit:g} s a player"
    if (a.high, a.hand) != (59, 6):
        budget += f" (cards 2..{a.high}, hand {a.hand})"
    print(summary(rows, budget))


if __name__ == "__main__":
    main()
