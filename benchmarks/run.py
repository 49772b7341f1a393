"""Benchmark the search solver on fixed deal sets and write benchmarks/RESULTS.md.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/run.py                 # every set, 10 s per deal
    python benchmarks/run.py --sets solo --time-limit 5 --jobs 2

Sets (fixed forever, so figures stay comparable):
- solo: classic, 1 player, seeds 1-1000
- p2..p5: classic, 2..5 players, seeds 1-200 each
- profi: profi, 1 player, seeds 1-200
- fire: on-fire, 1 player, seeds 1-200
- profi-hard: profi-hard, 1 player, seeds 1-100
- x-solo: extreme (rules X), 1 player, seeds 1-200
- x-p2..x-p5: extreme, 2..5 players, seeds 1-100 each
- profi-p3: profi, 3 players, seeds 1-100; ph-p2..ph-p5: profi-hard, 2..5
  players, seeds 1-50 each. Full deals of printed variants many of which
  look lost (the best lines leave cards): where a loss proof for a full
  deal is wanted
- hard: the 8 deals of benchmarks/data/hard-solo.json, solo deals a compiled
  limited-discrepancy search left undecided after 20 million nodes
- small: 200 seeded solo deals of a small generalised game (cards 2..25, one
  pile each way, hand 4, step 5), where every engine can finish
- small-mp: 40 seeded multiplayer deals of a tight generalised game (cards
  2..30, one pile each way, hand 3, step 7): seeds 1-20 with 2 players, and
  seeds 1-20 with 3 players and fire cards 9, 18, 27 (rules F1-F4); chosen
  to contain losses, where the search needs exhaustive proofs

``--engines dfs,cpsat,auto`` runs each set with each engine, side by side.

Each deal runs in a worker process with the per-deal budget; the figures are
decided fraction, wins, proven losses, unknowns, median / p95 / max seconds
and the peak resident memory of any worker.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _rows import EXTRA, HARD, ROOT, SETS  # the benchmarks' folder: run as a script
from _rows import deal_set as _deals

from thegame.models import Limit
from thegame.models.the_game import Deal
from thegame.solver.the_game.portfolio import cpsat_covers, solve_with


def _work(job: tuple[str, dict[str, Any], float, str]) -> dict[str, Any]:
    label, deal_json, limit, engine = job
    # One CP-SAT worker per process: the pool already uses every core.
    sol = solve_with(Deal.from_dict(deal_json), engine, Limit(limit), workers=1)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "deal": label,
        "verdict": sol.verdict,
        "cards_left": sol.cards_left,
        "optimal": sol.optimal,
        "seconds": round(sol.seconds, 4),
        "nodes": sol.nodes,
        "engine": sol.engine,
        "peak_mib": round(peak_kib / 1024, 1),
    }


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_set(
    name: str, engine: str, limit: float, jobs: int, retry: float | None, first: int | None = None
) -> dict[str, Any]:
    deals = _deals(name)[:first]
    work = [(label, d, limit, engine) for label, d in deals]
    start = time.monotonic()
    # Workers are renewed every 25 deals: start-up cost stays small, and a
    # worker's peak memory covers few deals (each solve frees its memo).
    with multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=25) as pool:
        rows = list(pool.imap(_work, work))
    wall = time.monotonic() - start
    retried: list[dict[str, Any]] = []
    if retry:
        # Deals left undecided get one more run with the larger budget, so
        # the table can say what the first budget missed and by how much.
        again = [
            (label, d, retry, engine)
            for (label, d), r in zip(deals, rows, strict=True)
            if r["verdict"] == "unknown"
        ]
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            retried = list(pool.imap(_work, again))
    out_dir = ROOT / "results"
    out_dir.mkdir(exist_ok=True)
    with open(out_dir / f"{name}-{engine}.jsonl", "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    secs = [r["seconds"] for r in rows]
    n = len(rows)
    wins = sum(r["verdict"] == "win" for r in rows)
    losses = sum(r["verdict"] == "loss" for r in rows)
    by_cpsat = sum(r["engine"] == "cpsat" for r in rows if r["verdict"] != "unknown")
    return {
        "set": name,
        "engine": engine,
        "by_cpsat": by_cpsat,
        "deals": n,
        "decided": (wins + losses) / n,
        "wins": wins,
        "losses": losses,
        # losses whose fewest cards left is proven (branch and bound)
        "loss_optimal": sum(r["verdict"] == "loss" and r.get("optimal", False) for r in rows),
        "unknown": n - wins - losses,
        "median": statistics.median(secs),
        "p95": _pct(secs, 0.95),
        "max": max(secs),
        "median_nodes": statistics.median(r["nodes"] for r in rows),
        "peak_mib": max(r["peak_mib"] for r in rows),
        "wall": wall,
        "unknown_deals": [r["deal"] for r in rows if r["verdict"] == "unknown"],
        "retried": retried,
    }


def write_results(
    summaries: list[dict[str, Any]],
    limit: float,
    retry: float | None,
    jobs: int,
    cmd: str,
    append: bool,
    path: Path = ROOT / "RESULTS.md",
) -> None:
    lines = [
        "## " + ("More runs" if append else "Search solver (dfs)"),
        "",
        f"Command: `{cmd}`",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}; "
        f"{jobs} worker processes; budget {limit:g} s per deal.",
        "",
        "Times are per deal, inside the worker; peak memory is the largest resident size "
        "of any worker (workers renewed every 25 deals).",
        "",
        "| set | engine | deals | decided | wins | proven losses (optimum proven) | unknown "
        "| decided by CP-SAT | median s | p95 s | max s | median nodes | peak MiB | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        lines.append(
            f"| {s['set']} | {s['engine']} | {s['deals']} | {100 * s['decided']:.1f}% "
            f"| {s['wins']} | {s['losses']} ({s['loss_optimal']}) | {s['unknown']} "
            f"| {s['by_cpsat']} "
            f"| {s['median']:.3f} | {s['p95']:.2f} "
            f"| {s['max']:.2f} | {s['median_nodes']:.0f} | {s['peak_mib']:.0f} | {s['wall']:.0f} |"
        )
    lines.append("")
    for s in summaries:
        if s["unknown_deals"]:
            shown = ", ".join(s["unknown_deals"][:40])
            more = len(s["unknown_deals"]) - 40
            lines.append(
                f"- {s['set']} ({s['engine']}) undecided: {shown}"
                + (f" and {more} more" if more > 0 else "")
            )
        for r in s["retried"]:
            lines.append(
                f"  - {r['deal']} with {retry:g} s: {r['verdict']} in {r['seconds']:.1f} s "
                f"({r['nodes']} nodes)"
            )
    lines.append("")
    lines.append(
        "Per-deal rows (the command writes them; not kept in git): "
        "`benchmarks/results/<set>-<engine>.jsonl`."
    )
    text = "\n".join(lines) + "\n"
    if append and path.exists():
        text = path.read_text() + "\n" + text
    else:
        text = "# Benchmark results\n\n" + text
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="solo,p2,p3,p4,p5,profi,hard")
    parser.add_argument("--engines", default="dfs", help="comma list of dfs, cpsat, auto")
    parser.add_argument("--append", action="store_true", help="add to RESULTS.md")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--retry-limit", type=float, default=None, help="re-run undecided deals with this budget"
    )
    parser.add_argument(
        "--first", type=int, default=None, help="only the first N deals of each set (a subset)"
    )
    parser.add_argument(
        "--results", default="RESULTS.md", help="results file under benchmarks/"
    )
    args = parser.parse_args()
    names = [s for s in args.sets.split(",") if s]
    for name in names:
        if name not in SETS and name not in EXTRA:
            parser.error(f"unknown set {name!r}")
    engines = [e for e in args.engines.split(",") if e]
    summaries = []
    for name in names:
        if name == "hard" and not HARD.exists():
            print(f"skipping hard: {HARD} not found", file=sys.stderr)
            continue
        for engine in engines:
            if engine == "cpsat" and not cpsat_covers(Deal.from_dict(_deals(name)[0][1])):
                print(f"skipping {name} for cpsat: not covered", file=sys.stderr)
                continue
            s = run_set(name, engine, args.time_limit, args.jobs, args.retry_limit, args.first)
            shown = {k: v for k, v in s.items() if k not in ("unknown_deals", "retried")}
            print(json.dumps(shown), flush=True)
            summaries.append(s)
    cmd = "python benchmarks/run.py " + " ".join(sys.argv[1:])
    write_results(
        summaries,
        args.time_limit,
        args.retry_limit,
        args.jobs,
        cmd.strip(),
        args.append,
        ROOT / args.results,
    )


if __name__ == "__main__":
    main()
