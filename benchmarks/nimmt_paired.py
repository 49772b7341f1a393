"""6 nimmt! paired pilot: two settings of the strong player on the same deals.

Each deal (seed ``10000 + d``) is played as a single 4-player round twice:
once with setting A in our two seats, once with setting B, the seats, the
baseline's two players and their seeds the same in both (ours in seats 1
and 3 for even d, 2 and 4 for odd d). The measure is our heads per seat and
round; B - A is paired by deal, so the deal's own luck cancels. Every
player gets the same CPU time per decision.

A setting is ``key=value`` pairs separated by commas, passed to
``StrongPlayer``: ``me`` and ``them`` (playout policies), ``endgame``,
``phases``, ``objective`` (``own`` or ``margin``), ``seconds`` (ours only);
an empty setting is the default player.

    nice -n 10 python benchmarks/nimmt_paired.py --seconds 0.01 --deals 300 \
        --against mcs --a "" --b "me=random"
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from nimmt import baseline

from thegame.analysis.nimmt.playout import Objective, Policy
from thegame.analysis.nimmt.strong import StrongPlayer
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.state import Player, play_round
from thegame.models.outcome import Limit


def setting(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key in ("me", "them"):
            out[key] = Policy[value.upper()]
        elif key == "objective":
            out[key] = Objective[value.upper()]
        elif key in ("endgame", "phases"):
            out[key] = int(value)
        elif key == "seconds":
            out["limit"] = Limit(time=float(value))
        else:
            raise SystemExit(f"unknown setting {key!r}")
    return out


def interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=0.01)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--against", choices=["mcs", "mcs100", "blind"], default="mcs")
    ap.add_argument("--a", default="", help="setting A (default player when empty)")
    ap.add_argument("--b", default="", help="setting B")
    args = ap.parse_args()
    sec = args.seconds
    sets = [setting(args.a), setting(args.b)]

    def make(kind: str, seed: int, which: int) -> Player:
        if kind != "ours":
            return baseline(kind, seed, sec)
        return StrongPlayer(seed, **{"limit": Limit(time=sec), **sets[which]})

    opp = args.against
    ours: list[list[float]] = [[], []]
    theirs: list[list[float]] = [[], []]
    shares: list[list[float]] = [[], []]
    start = time.time()
    try:
        for d in range(args.first, args.first + args.deals):
            kinds = ["ours", opp, "ours", opp] if d % 2 == 0 else [opp, "ours", opp, "ours"]
            deal = Deal.from_seed(10_000 + d, 4)
            for w in (0, 1):
                seats = [make(k, d * 8 + i, w) for i, k in enumerate(kinds)]
                heads = replay(play_round(deal, seats)).heads
                mine = [i for i, k in enumerate(kinds) if k == "ours"]
                ours[w].append(sum(heads[i] for i in mine) / 2)
                theirs[w].append((sum(heads) - 2 * ours[w][-1]) / 2)
                low = min(heads)
                winners = [i for i in range(4) if heads[i] == low]
                shares[w].append(sum(1 for i in winners if i in mine) / len(winners))
    except KeyboardInterrupt:
        sys.exit(130)
    n = len(ours[0])
    for w, name in enumerate(("A", "B")):
        o, oh = interval(ours[w])
        t, th = interval(theirs[w])
        s, sh = interval(shares[w])
        print(
            f"{name} {args.a if w == 0 else args.b!r}: ours {o:.2f} ± {oh:.2f} "
            f"theirs {t:.2f} ± {th:.2f} share of rounds {s:.3f} ± {sh:.3f}"
        )
    diff, dh = interval([b - a for a, b in zip(ours[0], ours[1], strict=True)])
    gap = [
        (ob - tb) - (oa - ta)
        for oa, ta, ob, tb in zip(ours[0], theirs[0], ours[1], theirs[1], strict=True)
    ]
    g, gh = interval(gap)
    print(
        f"B - A (paired over {n} deals, against {opp}, {sec:g} s): our heads/seat "
        f"{diff:+.2f} ± {dh:.2f}; (ours - theirs) {g:+.2f} ± {gh:.2f} "
        f"({time.time() - start:.0f} s wall)"
    )


if __name__ == "__main__":
    main()
