"""6 nimmt! pilot runs for the strong player's settings: single 4-player
rounds, two strong players (with the settings given) against two of a
baseline, seats alternating (round s: ours in seats 1 and 3 when s is even,
in seats 2 and 4 when odd), deal seed 10000 + s, every player the same CPU
time per decision. Prints our heads per seat and round, theirs, and our
team's share of the rounds (fewest heads wins, ties shared).

    nice -n 10 python benchmarks/nimmt_variants.py --seconds 0.01 --rounds 100 \
        --against mcs --me safe --them safe
"""

from __future__ import annotations

import argparse
import time

from nimmt import baseline

from thegame.analysis.nimmt.playout import Policy
from thegame.analysis.nimmt.strong import StrongPlayer
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.state import Player, play_round
from thegame.models.outcome import Limit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=0.01)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--against", choices=["mcs", "mcs100", "blind"], default="mcs")
    ap.add_argument("--me", choices=[p.name.lower() for p in Policy], default="safe")
    ap.add_argument("--them", choices=[p.name.lower() for p in Policy], default="safe")
    ap.add_argument("--endgame", type=int, default=3)
    ap.add_argument("--phases", type=int, default=4, help="successive halving phases (1: off)")
    ap.add_argument("--first", type=int, default=0, help="index of the first round")
    ap.add_argument(
        "--duplicate",
        action="store_true",
        help="deal seed 10000 + s // 2: each deal twice, seats swapped (paired)",
    )
    args = ap.parse_args()
    sec = args.seconds

    def make(kind: str, seed: int) -> Player:
        if kind != "ours":
            return baseline(kind, seed, sec)
        me, them = Policy[args.me.upper()], Policy[args.them.upper()]
        return StrongPlayer(
            seed, Limit(time=sec), endgame=args.endgame, me=me, them=them, phases=args.phases
        )

    opp = args.against
    ours = theirs = 0
    share = 0.0
    start = time.time()
    for s in range(args.first, args.first + args.rounds):
        kinds = ["ours", opp, "ours", opp] if s % 2 == 0 else [opp, "ours", opp, "ours"]
        seats = [make(k, s * 8 + i) for i, k in enumerate(kinds)]
        deal = Deal.from_seed(10_000 + (s // 2 if args.duplicate else s), 4)
        heads = replay(play_round(deal, seats)).heads
        o = sum(heads[i] for i, k in enumerate(kinds) if k == "ours")
        ours += o
        theirs += sum(heads) - o
        low = min(heads)
        winners = [i for i in range(4) if heads[i] == low]
        share += sum(1 for i in winners if kinds[i] == "ours") / len(winners)
    n = args.rounds
    print(
        f"against {opp}, me={args.me} them={args.them} endgame={args.endgame} "
        f"phases={args.phases}, {n} rounds from {args.first} at "
        f"{sec:g} s: ours {ours / 2 / n:.2f} heads/seat/round, theirs {theirs / 2 / n:.2f}, "
        f"team share of rounds {share / n:.3f} ({time.time() - start:.0f} s wall)"
    )


if __name__ == "__main__":
    main()
