"""Re-run the Extreme deals that ``run.py`` left undecided, with 30 s each.

Usage (from the repository root, after ``run.py --sets x-solo,x-p2,...``):

    python benchmarks/extreme_retry.py
    python benchmarks/extreme_retry.py --time-limit 120

Reads ``benchmarks/results/x-*-dfs.jsonl`` and prints one JSON line per
undecided deal: its verdict, cards left, seconds and nodes with the larger
budget (2 worker processes).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SETS = (("x-solo", 1), ("x-p2", 2), ("x-p3", 3), ("x-p4", 4), ("x-p5", 5))
BUDGET = 30.0


def work(job: tuple[str, int, int, float]) -> dict[str, Any]:
    from thegame.models import Limit
    from thegame.models.the_game import Deal, get_rules
    from thegame.solver.the_game.api import solve

    name, players, seed, budget = job
    sol = solve(Deal.from_seed(seed, get_rules("extreme"), players), Limit(budget))
    return {
        "set": name,
        "deal": f"seed-{seed}",
        "verdict": sol.verdict,
        "cards_left": sol.cards_left,
        "seconds": round(sol.seconds, 2),
        "nodes": sol.nodes,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description="the undecided Extreme deals again")
    ap.add_argument("--time-limit", type=float, default=BUDGET)
    budget = ap.parse_args().time_limit
    jobs = []
    for name, players in SETS:
        path = ROOT / "results" / f"{name}-dfs.jsonl"
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["verdict"] == "unknown":
                jobs.append((name, players, int(row["deal"].split("-")[1]), budget))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        for result in pool.imap(work, jobs):
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
