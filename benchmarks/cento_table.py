"""Benchmark the Cento table search (2-6 players, everything known): the share
of seeded deals it decides within a budget, and every decided line replayed.

Usage (from the repository root):

    python benchmarks/cento_table.py --players 2 --seeds 1-200 --time-limit 5
    python benchmarks/cento_table.py --players 3 --seeds 1-20 --time-limit 60

``Deal.from_seed(seed, players)`` under the printed rules; the question is
asked for player 1 (who moves first): with two players who wins with best
play (win, tie or loss), with more whether player 1 can force a win (shared
wins count) whatever the others do together. Every decided answer's line is
replayed through the referee (``check``) and must end as the verdict says.
One process; rows go to ``benchmarks/results/cento-table-<players>p-<time>s.jsonl``
and a markdown table to stdout (and appended to ``--out`` if given).
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

from thegame.models.cento import Deal, Record, check
from thegame.models.outcome import Limit
from thegame.solver.cento.table import TableVerdict, solve_table

ROOT = Path(__file__).resolve().parent


def _range(text: str) -> range:
    a, b = (int(x) for x in text.split("-"))
    return range(a, b + 1)


def replays(deal: Deal, verdict: TableVerdict, turns: tuple[Any, ...]) -> bool:
    """The line is legal, ends the game, and ends it as the verdict says."""
    res = check(Record(deal, turns))
    if not (res.legal and res.state.over):
        return False
    winners = res.state.winners
    if verdict == TableVerdict.WIN:
        return 0 in winners and (deal.players > 2 or winners == (0,))
    if verdict == TableVerdict.TIE:
        return winners == (0, 1)
    return 0 not in winners


def run(
    players: int, seeds: range, seconds: float, nodes: int | None = None
) -> list[dict[str, Any]]:
    rows = []
    for seed in seeds:
        deal = Deal.from_seed(seed, players)
        r = solve_table(deal, 1, Limit(time=seconds, nodes=nodes))
        ok = replays(deal, r.verdict, r.turns) if r.optimal else None
        row = {
            "seed": seed,
            "players": players,
            "verdict": str(r.verdict),
            "turns": len(r.turns),
            "replays": ok,
            "nodes": r.nodes,
            "seconds": round(r.seconds, 3),
        }
        if not r.optimal:
            row["progress"] = r.progress.to_dict()
        rows.append(row)
        print(
            f"{players}p seed {seed}: {r.verdict} {r.nodes} nodes {r.seconds:.2f}s", file=sys.stderr
        )
    return rows


def table_line(players: int, seconds: float, seeds: range, rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    decided = [r for r in rows if r["verdict"] != "unknown"]
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("win", "tie", "loss", "unknown")}
    times = sorted(r["seconds"] for r in decided) or [0.0]
    nodes = sorted(r["nodes"] for r in rows)
    replayed = sum(bool(r["replays"]) for r in decided)
    return (
        f"| {players} | {seeds.start}-{seeds.stop - 1} | {seconds:g} | {n} | "
        f"{len(decided)} ({100 * len(decided) / n:.1f}%) | {count['win']} | {count['tie']} | "
        f"{count['loss']} | {count['unknown']} | {replayed}/{len(decided)} | "
        f"{statistics.median(times):.2f} | {int(statistics.median(nodes))} |"
    )


HEADER = (
    "| players | seeds | s per deal | deals | decided | player 1 wins | shared | "
    "player 1 loses | unknown | lines replay | median s (decided) | median nodes |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="Also stop at this many nodes (a budget a loaded machine does not shrink).",
    )
    ap.add_argument("--out", default=None, help="Markdown file to append the row to.")
    args = ap.parse_args()
    seeds = _range(args.seeds)
    start = time.time()
    rows = run(args.players, seeds, args.time_limit, args.node_limit)
    wall = time.time() - start
    nodes = "" if args.node_limit is None else f"-{args.node_limit}n"
    name = f"cento-table-{args.players}p-{args.time_limit:g}s{nodes}.jsonl"
    rows_dir = ROOT / "results"
    rows_dir.mkdir(exist_ok=True)
    (rows_dir / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    line = table_line(args.players, args.time_limit, seeds, rows)
    if args.node_limit is not None:
        line = line.replace(
            f"| {args.time_limit:g} |", f"| {args.time_limit:g} s or {args.node_limit:,} nodes |", 1
        )
    cmd = "python benchmarks/cento_table.py " + " ".join(sys.argv[1:])
    note = (
        f"`{cmd}`: {platform.machine()}, Python {platform.python_version()}, one process "
        f"on a 2-core machine shared with other work; wall {wall:.0f} s; rows `results/{name}`."
    )
    print(HEADER)
    print(line)
    print(note)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(line + "\n" + note + "\n\n")


if __name__ == "__main__":
    main()
