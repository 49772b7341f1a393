"""How long the other players of the 6 nimmt! page take to choose their
cards (``analysis.nimmt.table.others_cards``), per turn and per round.

Usage (from the repository root):

    PYTHONPATH=. python benchmarks/nimmt_table.py --seed 1 --players 4 10 --level normal

The person plays the lowest card of the hand every turn (row 1 when rule S3
asks); one process, the time of each turn's ``others_cards`` call.
"""

from __future__ import annotations

import argparse
import platform
import time

from thegame.analysis.nimmt.table import advance, hand, next_turn, open_table, others_cards


def round_times(seed: int, players: int, level: str) -> list[float]:
    table = open_table(seed, players, level, False, [])
    times = []
    while not table.over:
        start = time.perf_counter()
        others = others_cards(table)
        times.append(time.perf_counter() - start)
        card = hand(table)[0]
        turn = next_turn(table, card, others, None) or next_turn(table, card, others, 0)
        assert turn is not None
        table = advance(table, turn)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, nargs="+", default=[4, 10])
    ap.add_argument("--level", default="normal")
    args = ap.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, python {platform.python_version()}")
    for n in args.players:
        t = round_times(args.seed, n, args.level)
        print(
            f"{n} players, level {args.level}, seed {args.seed}: slowest turn {max(t):.2f} s, "
            f"round {sum(t):.2f} s"
        )


if __name__ == "__main__":
    main()
