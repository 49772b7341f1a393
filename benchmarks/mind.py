"""The Mind under the gap model (rule M6): exact odds and the campaign, timed.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/mind.py                      # d = 1..5, 2-4 players
    python benchmarks/mind.py --tolerances 2,3,5 --samples 200000

For every player count and tolerance d it counts the odds of every level
exactly (without and with a star at the start), solves the campaign MDP and
times both. It then checks the last level of each player count at d = 3
against ``--samples`` random deals. Writes benchmarks/RESULTS.mind.md and
benchmarks/results/mind-odds.json (unless ``--no-write``) and prints the
markdown.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from thegame.models.mind import Rules
from thegame.solver.mind.campaign import solve_campaign
from thegame.solver.mind.odds import campaign_odds, level_odds
from thegame.solver.mind.sample import sample_level

ROOT = Path(__file__).resolve().parent


def run(players: int, d: int) -> dict[str, Any]:
    rules = Rules(players)
    start = time.perf_counter()
    odds = campaign_odds(rules, d)
    counted = time.perf_counter() - start
    sol = solve_campaign(rules, {n: (a.probabilities(), b.probabilities())
                                 for n, (a, b) in odds.items()})
    total = time.perf_counter() - start
    return {
        "players": players,
        "tolerance": d,
        "seconds_odds": round(counted, 2),
        "seconds_total": round(total, 2),
        "levels": [{"level": n, "lives_lost": a.floats(), "exact": True,
                    "lives_lost_with_star": b.floats()} for n, (a, b) in odds.items()],
        "campaign": sol.to_dict(),
        "median_levels": sol.median_levels,
    }


def cross_check(players: int, d: int, samples: int) -> dict[str, Any]:
    level = Rules(players).levels
    start = time.perf_counter()
    exact = level_odds(players, level, d).floats()
    sampled = sample_level(players, level, d, samples, seed=2024)
    worst = 0.0
    inside = 0
    width = max(len(exact), len(sampled.counts))
    for k in range(width):
        p = exact[k] if k < len(exact) else 0.0
        q = sampled.floats()[k] if k < len(sampled.counts) else 0.0
        lo, hi = sampled.interval(k)
        inside += lo <= p <= hi
        if 0 < p < 1:
            worst = max(worst, abs(p - q) / math.sqrt(p * (1 - p) / samples))
    return {"players": players, "level": level, "tolerance": d, "samples": samples,
            "worst_z": round(worst, 2), "inside": inside, "of": width,
            "seconds": round(time.perf_counter() - start, 1)}


def fmt(p: float) -> str:
    if p == 1:
        return "1"
    if p >= 0.001:
        return f"{p:.2%}"
    return f"{p:.1e}"


def markdown(rows: list[dict[str, Any]], checks: list[dict[str, Any]], argv: str,
             wall: float) -> str:
    tolerances = sorted({r["tolerance"] for r in rows})
    by = {(r["players"], r["tolerance"]): r for r in rows}
    lines = ["## The Mind (rule M6 odds)", ""]
    lines.append(f"Command: `python benchmarks/mind.py {argv}` ({wall:.0f} s in all)")
    lines.append("")
    lines.append(f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python "
                 f"{platform.python_version()}, {platform.system()} {platform.release()}; "
                 "one process.")
    lines.append("")
    lines.append("Chance to win the whole campaign (12/10/8 levels for 2/3/4 players), exact; "
                 "best star policy / never a star:")
    lines.append("")
    lines.append("| players | " + " | ".join(f"d = {d}" for d in tolerances) + " |")
    lines.append("|---|" + "---|" * len(tolerances))
    for p in (2, 3, 4):
        cells = [f"{fmt(by[(p, d)]['campaign']['p_win'])} / "
                 f"{fmt(by[(p, d)]['campaign']['p_win_without_stars'])}" for d in tolerances]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Levels completed in at least half of the games (best star policy):")
    lines.append("")
    lines.append("| players | " + " | ".join(f"d = {d}" for d in tolerances) + " |")
    lines.append("|---|" + "---|" * len(tolerances))
    for p in (2, 3, 4):
        cells = [f"{by[(p, d)]['median_levels']} of {len(by[(p, d)]['levels'])}"
                 for d in tolerances]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Time to count every level exactly (with and without a star) and solve the "
                 "MDP, seconds:")
    lines.append("")
    lines.append("| players | " + " | ".join(f"d = {d}" for d in tolerances) + " |")
    lines.append("|---|" + "---|" * len(tolerances))
    for p in (2, 3, 4):
        cells = [f"{by[(p, d)]['seconds_total']:.1f}" for d in tolerances]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append("")
    for d in [t for t in tolerances if t > 1]:
        lines.append(f"P(a level costs no life) at d = {d}, without / with a star at the start:")
        lines.append("")
        lines.append("| level | 2 players | 3 players | 4 players |")
        lines.append("|---|---|---|---|")
        for n in range(1, 13):
            cells = []
            for p in (2, 3, 4):
                levels = by[(p, d)]["levels"]
                if n <= len(levels):
                    lv = levels[n - 1]
                    cells.append(f"{fmt(lv['lives_lost'][0])} / "
                                 f"{fmt(lv['lives_lost_with_star'][0])}")
                else:
                    cells.append("")
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines.append("")
    if checks:
        lines.append("Cross-check of the exact counts against random deals (last level, "
                     "Python's random.Random(2024)): the largest deviation in standard errors, "
                     "and how many exact probabilities lie in the sample's 95% interval:")
        lines.append("")
        lines.append("| players | level | d | samples | worst z | exact inside 95% | s |")
        lines.append("|---|---|---|---|---|---|---|")
        for c in checks:
            lines.append(f"| {c['players']} | {c['level']} | {c['tolerance']} | {c['samples']} "
                         f"| {c['worst_z']} | {c['inside']}/{c['of']} | {c['seconds']} |")
        lines.append("")
    lines.append(
        "Per-level distributions and star policies: `benchmarks/results/mind-odds.json` "
        "(the command writes it; not kept in git)."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tolerances", default="1,2,3,4,5")
    ap.add_argument("--samples", type=int, default=200_000)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    tolerances = [int(x) for x in args.tolerances.split(",")]
    start = time.perf_counter()
    rows = []
    for p in (2, 3, 4):
        for d in tolerances:
            rows.append(run(p, d))
            print(f"players {p}, d = {d}: {rows[-1]['seconds_total']} s", file=sys.stderr)
    checks = [cross_check(p, 3, args.samples) for p in (2, 3, 4)] if args.samples else []
    text = markdown(rows, checks, shlex.join(sys.argv[1:]), time.perf_counter() - start)
    print(text)
    if not args.no_write:
        (ROOT / "RESULTS.mind.md").write_text(text, encoding="utf-8")
        (ROOT / "results").mkdir(exist_ok=True)
        (ROOT / "results" / "mind-odds.json").write_text(
            json.dumps({"runs": rows, "cross_checks": checks}) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
