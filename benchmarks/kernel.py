"""The compiled kernel against the Python kernel, side by side.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/kernel.py --sets solo --time-limit 10 --jobs 2
    python benchmarks/kernel.py --sets p2,p3,p4,p5,profi,fire --first 50
    python benchmarks/kernel.py --sets profi-hard --time-limit 60 --kernels c
    python benchmarks/kernel.py --sets x-solo --first 40 --jobs 1
    python benchmarks/kernel.py --sets x-p3 --first 20 --nodes 200000 --time-limit 60

Each deal is solved (``api.solve``: the decision search, then the branch and
bound on cards left for a loss) in a worker process, once with each kernel
(``THEGAME_KERNEL=python`` selects the reference), with the same budget.
Sets are those of ``benchmarks/run.py``. Per set and kernel: decided
fraction, wins, losses, unknowns, median / p99 / max seconds, and the
median per-deal speed-up (Python seconds / C seconds over the deals both
decided). Where both searches finish within the budget their decision
node counts must be equal (the C search is a port, node for node); any
difference is listed. With several players and no fixed start, ``solve``
shares the time between the starts, so a start the Python kernel leaves
undecided in its share may be decided in C's, and the counts then differ
though the searches do not: ``--nodes`` adds a node budget (shared between
the starts by count, the same for both kernels), which makes the
comparison exact when it, not the clock, stops the searches. Results go to
benchmarks/results/kernel-<set>-<kernels>.jsonl and, with ``--write``, to
benchmarks/RESULTS.ckernel.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _rows import deal_set as _deals

from thegame.models import Limit
from thegame.models.the_game import Deal
from thegame.solver.the_game import api
from thegame.solver.the_game.ckernel import ENV, kernel_name

ROOT = Path(__file__).resolve().parent


def _work(job: tuple[str, dict[str, Any], float, int | None, str]) -> dict[str, Any]:
    label, deal_json, limit, nodes, kernel = job
    os.environ[ENV] = "python" if kernel == "python" else "auto"
    deal = Deal.from_dict(deal_json)
    # The searches' share of the time (decision search, and the branch and
    # bound for a loss), apart from replaying the line through the engine.
    searching = [0.0]
    search_position = api.search_position

    def timed(*args: Any, **kwargs: Any) -> api.PositionResult:
        t0 = time.perf_counter()
        try:
            return search_position(*args, **kwargs)
        finally:
            searching[0] += time.perf_counter() - t0

    api.search_position = timed  # type: ignore[assignment]
    start = time.perf_counter()
    try:
        sol = api.solve(deal, Limit(limit, nodes))
    finally:
        api.search_position = search_position  # type: ignore[assignment]
    seconds = time.perf_counter() - start
    return {
        "deal": label,
        "kernel": kernel,
        "verdict": sol.verdict,
        "cards_left": sol.cards_left,
        "seconds": round(seconds, 5),
        "search_seconds": round(searching[0], 5),
        # the decision search's nodes (the branch and bound runs in Python)
        "nodes": sol.nodes - sol.details["optimizer_nodes"],
        "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_set(
    name: str,
    kernels: list[str],
    limit: float,
    jobs: int,
    first: int | None,
    nodes: int | None = None,
) -> dict[str, Any]:
    deals = _deals(name)[:first]
    work = [(label, d, limit, nodes, k) for label, d in deals for k in kernels]
    start = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=25) as pool:
        rows = list(pool.imap(_work, work))
    wall = time.monotonic() - start
    out_dir = ROOT / "results"
    out_dir.mkdir(exist_ok=True)
    tag = "-".join(kernels) + (f"-first{first}" if first else "") + (f"-n{nodes}" if nodes else "")
    with open(out_dir / f"kernel-{name}-{tag}.jsonl", "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    by: dict[str, dict[str, dict[str, Any]]] = {k: {} for k in kernels}
    for r in rows:
        by[r["kernel"]][r["deal"]] = r
    out: dict[str, Any] = {"set": name, "deals": len(deals), "wall": wall, "kernels": {}}
    for k in kernels:
        rs = list(by[k].values())
        secs = [r["seconds"] for r in rs]
        wins = sum(r["verdict"] == "win" for r in rs)
        losses = sum(r["verdict"] == "loss" for r in rs)
        out["kernels"][k] = {
            "decided": (wins + losses) / len(rs),
            "wins": wins,
            "losses": losses,
            "unknown": len(rs) - wins - losses,
            "median": statistics.median(secs),
            "search_median": statistics.median(r["search_seconds"] for r in rs),
            "search_p99": _pct([r["search_seconds"] for r in rs], 0.99),
            "p99": _pct(secs, 0.99),
            "max": max(secs),
            "peak_mib": max(r["peak_mib"] for r in rs),
            "unknown_deals": [r["deal"] for r in rs if r["verdict"] == "unknown"],
        }
    if "c" in by and "python" in by:
        both = [
            (by["python"][d], by["c"][d])
            for d in by["c"]
            if by["c"][d]["verdict"] != "unknown" and by["python"][d]["verdict"] != "unknown"
        ]
        ratios = [p["seconds"] / max(c["seconds"], 1e-6) for p, c in both]
        out["speedup_median"] = statistics.median(ratios) if ratios else None
        search_ratios = [p["search_seconds"] / max(c["search_seconds"], 1e-6) for p, c in both]
        out["search_speedup_median"] = statistics.median(search_ratios) if both else None
        out["speedup_min"] = min(ratios) if ratios else None
        out["node_mismatch"] = [
            (c["deal"], p["nodes"], c["nodes"])
            for p, c in both
            if p["nodes"] != c["nodes"] or p["verdict"] != c["verdict"]
        ]
        out["compared"] = len(both)
    return out


def table(
    summaries: list[dict[str, Any]], limit: float, jobs: int, cmd: str, nodes: int | None = None
) -> str:
    lines = [
        f"Command: `{cmd}`",
        "",
        f"Budget {limit:g} s"
        + (f" and {nodes} decision nodes" if nodes else "")
        + f" per deal and kernel; {jobs} worker processes on a shared "
        f"{os.cpu_count()}-core machine; times are `api.solve` wall seconds inside the worker "
        "(decision search, then the branch and bound on cards left for a loss, then the "
        "line replayed through the rules engine); search s: the searches alone "
        "(`search_position`), without the replay.",
        "",
        "| set | kernel | deals | decided | wins | losses | unknown | median s | p99 s | max s "
        "| search median s | search p99 s | peak MiB | median speed-up (solve / search) "
        "| nodes equal |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        for k, v in s["kernels"].items():
            sp, ssp = s.get("speedup_median"), s.get("search_speedup_median")
            speed = f"{sp:.1f}x / {ssp:.1f}x" if k == "c" and sp and ssp else ""
            equal = ""
            if k == "c" and "compared" in s:
                equal = f"{s['compared'] - len(s['node_mismatch'])}/{s['compared']}"
            lines.append(
                f"| {s['set']} | {k} | {s['deals']} | {100 * v['decided']:.1f}% | {v['wins']} "
                f"| {v['losses']} | {v['unknown']} | {v['median']:.4f} | {v['p99']:.3f} "
                f"| {v['max']:.3f} | {v['search_median']:.4f} | {v['search_p99']:.3f} "
                f"| {v['peak_mib']:.0f} | {speed} | {equal} |"
            )
    lines.append("")
    for s in summaries:
        for k, v in s["kernels"].items():
            if v["unknown_deals"]:
                lines.append(f"- {s['set']} {k}: undecided {', '.join(v['unknown_deals'])}")
        if s.get("node_mismatch"):
            lines.append(f"- {s['set']}: node counts differ on {s['node_mismatch'][:10]}")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="solo")
    ap.add_argument("--kernels", default="c,python")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--nodes", type=int, default=None, help="a node budget per deal as well")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first", type=int, default=None, help="only the first N deals of each set")
    ap.add_argument("--write", action="store_true", help="append to benchmarks/RESULTS.ckernel.md")
    args = ap.parse_args()
    kernels = args.kernels.split(",")
    if "c" in kernels and not kernel_name().startswith("c"):
        sys.exit(f"the compiled kernel is not in use: {kernel_name()}")
    summaries = []
    for name in args.sets.split(","):
        s = run_set(name, kernels, args.time_limit, args.jobs, args.first, args.nodes)
        summaries.append(s)
        print(json.dumps(s), flush=True)
    cmd = "python benchmarks/kernel.py " + " ".join(sys.argv[1:])
    text = table(summaries, args.time_limit, args.jobs, cmd, args.nodes)
    print(text)
    if args.write:
        with open(ROOT / "RESULTS.ckernel.md", "a") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
