"""Two Cento engines on the same deals: the paired difference of their shares.

Usage (from the repository root):

    python benchmarks/cento_paired.py results/NEW.jsonl[,MORE.jsonl] results/OLD.jsonl

Reads the rows ``cento_players.py`` writes (one a game: players, opponent,
seed, seat, won; a run split by seeds over several files is given as their
names joined by commas) and, for every table size and opponent the two files
share, pairs the games of the same seed and seat: the games each engine
won, the games only one of them won, and the difference of the shares with
its 95% margin (1.96 times the square root of the games that changed hands,
over the games paired), and the new engine's share with its 95% Wilson
interval.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from thegame.survey.report import wilson

ROOT = Path(__file__).resolve().parent

Row = tuple[int, str, int, int]  # players, opponent, seed, seat


def rows(paths: str) -> dict[Row, bool]:
    """The games of one or more row files (comma-separated): a run split by
    seeds over several processes is read as one."""
    out: dict[Row, bool] = {}
    for path in paths.split(","):
        p = Path(path)
        if not p.is_absolute() and not p.exists():
            p = ROOT / path
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                row = (r["players"], r["opponent"], r["seed"], r["seat"])
                if out.get(row, r["won"]) != r["won"]:
                    raise SystemExit(f"{path}: seed {r['seed']} played twice, won and lost")
                out[row] = bool(r["won"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("new")
    ap.add_argument("old")
    args = ap.parse_args()
    new, old = rows(args.new), rows(args.old)
    print(
        "| players | opponent | games | new wins | new share (95% interval) | old wins "
        "| new only | old only | difference |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for players, opponent in sorted({(k[0], k[1]) for k in new} & {(k[0], k[1]) for k in old}):
        keys = [k for k in new if k[:2] == (players, opponent) and k in old]
        if not keys:
            continue
        a = sum(new[k] for k in keys)
        b = sum(old[k] for k in keys)
        up = sum(new[k] and not old[k] for k in keys)
        down = sum(old[k] and not new[k] for k in keys)
        diff = 100 * (a - b) / len(keys)
        margin = 196 * math.sqrt(up + down) / len(keys)
        lo, hi = wilson(a, len(keys))
        print(
            f"| {players} | {opponent} | {len(keys)} | {a} | {a / len(keys):.1%} "
            f"({lo:.1%}-{hi:.1%}) | {b} | {up} | {down} | {diff:+.1f} ± {margin:.1f} points |"
        )


if __name__ == "__main__":
    main()
