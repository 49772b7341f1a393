"""Benchmark the Cento solvers (thegame.solver.cento) and write RESULTS.cento.md.

Usage (from the repository root):

    python benchmarks/cento.py --solo-seeds 1-200 --duel-seeds 1-100 --time-limit 10

Solo: ``Deal.from_seed(seed, 1)`` under the printed rules (cards 1..100,
4 free cards, hand 7); the fewest turns to empty the hand. Two players:
``Deal.from_seed(seed, 2)``, who wins with best play; plus the same
seeds on a small deck (``--small``: cards 1..30, 1 free card, hands of 4) where
a complete proof is within reach. Every deal has the same budget (seconds,
one process); every line found is replayed through the referee and counted.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from thegame.models.cento import CentoStatus, Deal, Record, Rules, check
from thegame.models.outcome import Limit
from thegame.solver.cento.duel import solve_duel
from thegame.solver.cento.solo import solve_solo

ROOT = Path(__file__).resolve().parent
SMALL = Rules(high=30, free_cards=1, hand_size=4)


def _range(text: str) -> range:
    a, b = (int(x) for x in text.split("-"))
    return range(a, b + 1)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _stats(rows: list[dict[str, Any]]) -> tuple[str, str, str, str]:
    times = sorted(r["seconds"] for r in rows)
    nodes = sorted(r["nodes"] for r in rows)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (
        f"{statistics.median(times):.3f}",
        f"{p95:.2f}",
        f"{times[-1]:.2f}",
        f"{int(statistics.median(nodes))}",
    )


def run_solo(seeds: range, limit: float) -> tuple[list[dict[str, Any]], str]:
    rows = []
    for seed in seeds:
        deal = Deal.from_seed(seed, 1)
        r = solve_solo(deal, Limit(time=limit))
        replays = None
        if r.turns:
            res = check(Record(deal, r.turns))
            replays = res.legal and res.status == CentoStatus.WON
        row = {"seed": seed, **r.to_dict(), "turns": len(r.turns), "replays": replays}
        rows.append({**row, "nodes": r.nodes, "seconds": r.seconds})
        print(f"solo {seed}: {r.verdict} {r.turn_count} {r.seconds:.2f}s", file=sys.stderr)
    n = len(rows)
    wins = [r for r in rows if r["verdict"] == "win"]
    losses = sum(r["verdict"] == "loss" for r in rows)
    unknown = sum(r["verdict"] == "unknown" for r in rows)
    need = [r["turn_count"] for r in wins]
    replayed = sum(bool(r["replays"]) for r in wins)
    med, p95, mx, nodes = _stats(rows)
    line = (
        f"| solo | {n} | {_pct(n - unknown, n)} | {len(wins)} | {losses} | {unknown} | "
        f"{replayed}/{len(wins)} | {statistics.median(need) if need else '-'} | "
        f"{min(need) if need else '-'}..{max(need) if need else '-'} | "
        f"{med} | {p95} | {mx} | {nodes} |"
    )
    return rows, line


def run_duel(
    name: str, seeds: range, limit: float, rules: Rules | None
) -> tuple[list[dict[str, Any]], str]:
    rows = []
    for seed in seeds:
        deal = Deal.from_seed(seed, 2, rules)
        r = solve_duel(deal, Limit(time=limit))
        replays = None
        if r.optimal:
            res = check(Record(deal, r.turns))
            replays = res.legal and res.state.over and r.line_complete
        row = {"seed": seed, **r.to_dict(), "turns": len(r.turns), "replays": replays}
        rows.append({**row, "nodes": r.nodes, "seconds": r.seconds})
        print(f"{name} {seed}: {r.value} {r.seconds:.2f}s", file=sys.stderr)
    n = len(rows)
    decided = [r for r in rows if r["optimal"]]
    p1 = sum(r["winner"] == 1 for r in decided)
    p2 = sum(r["winner"] == 2 for r in decided)
    ties = sum(r["tie"] for r in decided)
    replayed = sum(bool(r["replays"]) for r in decided)
    med, p95, mx, nodes = _stats(rows)
    line = (
        f"| {name} | {n} | {_pct(len(decided), n)} | {p1} | {p2} | {ties} | {n - len(decided)} | "
        f"{replayed}/{len(decided)} | {med} | {p95} | {mx} | {nodes} |"
    )
    return rows, line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solo-seeds", default="1-200")
    ap.add_argument("--duel-seeds", default="1-100")
    ap.add_argument("--time-limit", type=float, default=10.0, help="Seconds per solo deal.")
    ap.add_argument("--duel-time-limit", type=float, default=5.0, help="Seconds per 2-player deal.")
    ap.add_argument("--out", default=str(ROOT / "RESULTS.cento.md"))
    ap.add_argument("--rows", default=str(ROOT / "results"), help="Directory for JSON lines.")
    args = ap.parse_args()
    start = time.time()
    solo_rows, solo_line = run_solo(_range(args.solo_seeds), args.time_limit)
    duel_rows, duel_line = run_duel(
        "2 players", _range(args.duel_seeds), args.duel_time_limit, None
    )
    small_rows, small_line = run_duel(
        "2 players, cards 1-30, 1 free, hand 4",
        _range(args.duel_seeds),
        args.duel_time_limit,
        SMALL,
    )
    wall = time.time() - start
    rows_dir = Path(args.rows)
    rows_dir.mkdir(exist_ok=True)
    for name, rows in (
        ("cento-solo", solo_rows),
        ("cento-duel", duel_rows),
        ("cento-duel-small", small_rows),
    ):
        text = "".join(json.dumps(r) + "\n" for r in rows)
        (rows_dir / f"{name}.jsonl").write_text(text, encoding="utf-8")
    cmd = "python benchmarks/cento.py " + " ".join(sys.argv[1:])
    md = [
        "## Cento (game 2) solvers",
        "",
        f"Command: `{cmd.strip()}`",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; one process on a shared 2-core machine; "
        f"budget {args.time_limit:g} s per solo deal, {args.duel_time_limit:g} s per "
        f"2-player deal; wall time {wall:.0f} s.",
        "",
        "Solo (printed rules: cards 1-100, 4 free cards, hand 7, Trick/Treat 100): "
        "fewest turns to empty the hand.",
        "",
        "| set | deals | decided | solved | proven impossible | unknown | lines replay "
        "| median turns | turns range | median s | p95 s | max s | median nodes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        solo_line,
        "",
        "Two players, everything known: who wins with best play (player 1 starts).",
        "",
        "| set | deals | decided | player 1 wins | player 2 wins | shared | unknown "
        "| lines replay | median s | p95 s | max s | median nodes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        duel_line,
        small_line,
        "",
        "Per-deal rows: `benchmarks/results/cento-solo.jsonl`, `cento-duel.jsonl`, "
        "`cento-duel-small.jsonl`.",
        "",
    ]
    Path(args.out).write_text("\n".join(md), encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
