"""6 nimmt! head to head: two strong players against two of a baseline.

4-player tables, our ``StrongPlayer`` in two seats and a baseline in the
other two, seats rotated (game g uses the pattern ours, ours, them, them
rotated by g mod 4), whole games to 66 (rule S5). Every player gets the
same CPU time per decision (``--seconds``, time.process_time); with
``--published`` the baseline instead runs its published simulation count
whatever it costs (ours keep ``--seconds``). Game g deals from seed
``base + g`` and seats' seeds derive from it.

``--against mcs:published`` does the same for one baseline only, so one
run can interleave the equal-time and the published-count tables.

``--ours`` sets our players as ``nimmt_paired.py``'s settings do (``them=random``:
the others uniformly random in the playouts, as before the ranked model).

Baselines: ``mcs`` (rl-6-nimmt's MCS), ``mcs100`` (ThingsAI's MCS with
simulated rows), ``blind`` (this project's BlindPlayer).

Each game is one JSON line: the seats, the final scores, the win shares
(ties for fewest points share), and every round's heads per seat. The
summary gives our team's share of the games and of the rounds (fewest heads
in the round wins it, ties shared) with 95% normal intervals, and heads per
round.

    nice -n 10 python benchmarks/nimmt_h2h.py --against mcs mcs100 blind \
        --games 200 --seconds 0.02 --jobs 2 --out r.jsonl
    python benchmarks/nimmt_h2h.py --summarize r.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from typing import Any

from nimmt import Timed, baseline
from nimmt_paired import setting

from thegame.analysis.nimmt.playout import backend
from thegame.analysis.nimmt.strong import StrongPlayer
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.state import Player, play_game
from thegame.models.outcome import Limit

PATTERN = ("ours", "ours", "them", "them")
BASELINES = ("mcs", "mcs100", "blind")


def make(
    kind: str, against: str, seed: int, seconds: float, published: bool, ours: str = ""
) -> Player:
    if kind == "ours":
        return StrongPlayer(seed, **{"limit": Limit(time=seconds), **setting(ours)})
    return baseline(against, seed, None if published else seconds)


def one_game(job: tuple[str, int, int, float, bool, str]) -> dict[str, Any]:
    against, game, base, seconds, published, ours = job
    seed = base + game
    kinds = [PATTERN[(i + game) % 4] for i in range(4)]
    seats = [
        Timed(make(k, against, seed * 16 + i, seconds, published, ours))
        for i, k in enumerate(kinds)
    ]
    result = play_game(seats, seed)
    return {
        "against": against,
        "published": published,
        "ours": ours,
        "seconds_per_decision": seconds,
        "game": game,
        "seed": seed,
        "seats": kinds,
        "scores": list(result.scores),
        "shares": list(result.shares()),
        "round_heads": [list(replay(r).heads) for r in result.rounds],
        "seconds": [s.seconds for s in seats],
        "decisions": [s.decisions for s in seats],
        "playouts": backend(),
    }


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def round_share(heads: list[int], ours: list[int]) -> float:
    low = min(heads)
    winners = [i for i, h in enumerate(heads) if h == low]
    return sum(1 for i in winners if i in ours) / len(winners)


def summary(lines: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, bool, float], list[dict[str, Any]]] = {}
    for line in lines:
        key = (line["against"], line["published"], line["seconds_per_decision"])
        groups.setdefault(key, []).append(line)
    out = [
        "| against | baseline budget | games | team share of games | rounds | "
        "team share of rounds | heads/round ours | heads/round theirs | ours - theirs (paired) | "
        "ms/decision ours | ms/decision theirs |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (against, published, seconds), games in sorted(groups.items()):
        game_share: list[float] = []
        rnd_share: list[float] = []
        ours_heads: list[float] = []
        theirs_heads: list[float] = []
        time_ours = dec_ours = time_theirs = dec_theirs = 0.0
        for g in games:
            ours = [i for i, k in enumerate(g["seats"]) if k == "ours"]
            them = [i for i in range(4) if i not in ours]
            game_share.append(sum(g["shares"][i] for i in ours))
            for heads in g["round_heads"]:
                rnd_share.append(round_share(heads, ours))
                ours_heads.append(sum(heads[i] for i in ours) / 2)
                theirs_heads.append(sum(heads[i] for i in them) / 2)
            time_ours += sum(g["seconds"][i] for i in ours)
            dec_ours += sum(g["decisions"][i] for i in ours)
            time_theirs += sum(g["seconds"][i] for i in them)
            dec_theirs += sum(g["decisions"][i] for i in them)
        gs, gh = interval(game_share)
        rs, rh = interval(rnd_share)
        ho, hoh = interval(ours_heads)
        ht, hth = interval(theirs_heads)
        dh, dhh = interval([o - t for o, t in zip(ours_heads, theirs_heads, strict=True)])
        budget = "published count" if published else f"{seconds:g} s"
        out.append(
            f"| {against} | {budget} | {len(games)} | {100 * gs:.1f}% ± {100 * gh:.1f} | "
            f"{len(rnd_share)} | {100 * rs:.1f}% ± {100 * rh:.1f} | {ho:.2f} ± {hoh:.2f} | "
            f"{ht:.2f} ± {hth:.2f} | {dh:+.2f} ± {dhh:.2f} | {1000 * time_ours / dec_ours:.1f} | "
            f"{1000 * time_theirs / dec_theirs:.1f} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--against",
        nargs="+",
        default=["mcs", "mcs100", "blind"],
        help="baselines; NAME:published plays that one at its published count",
    )
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--base", type=int, default=2_000_000, help="deal seed of game 0")
    ap.add_argument("--seconds", type=float, default=0.02, help="CPU seconds per decision")
    ap.add_argument("--published", action="store_true", help="baselines at their own counts")
    ap.add_argument(
        "--ours", default="", help="our players' setting, as nimmt_paired.py's (them=random)"
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="append one JSON line per game here")
    ap.add_argument("--summarize", nargs="*", help="only print the summary of these JSONL files")
    args = ap.parse_args()
    if args.summarize is not None:
        lines = []
        for name in args.summarize:
            with open(name, encoding="utf-8") as fh:
                lines += [json.loads(x) for x in fh]
        print(summary(lines))
        return
    for a in args.against:
        name, _, mode = a.partition(":")
        if name not in BASELINES or mode not in ("", "published"):
            print(f"unknown baseline {a!r}; one of {', '.join(BASELINES)}", file=sys.stderr)
            sys.exit(2)
    # Game-major order: a run stopped early has every baseline.
    jobs = []
    for g in range(args.games):
        for a in args.against:
            name, _, mode = a.partition(":")
            published = args.published or mode == "published"
            jobs.append((name, g, args.base, args.seconds, published, args.ours))
    results = []
    sink = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.time()
    try:
        with Pool(args.jobs) as pool:
            for i, line in enumerate(pool.imap_unordered(one_game, jobs), 1):
                results.append(line)
                if sink:
                    sink.write(json.dumps(line) + "\n")
                    sink.flush()
                if i % 10 == 0:
                    print(f"{i}/{len(jobs)} games, {time.time() - start:.0f} s", file=sys.stderr)
    except KeyboardInterrupt:
        sys.exit(130)
    finally:
        if sink:
            sink.close()
    print(summary(results))
    print(f"\n{len(results)} games in {time.time() - start:.0f} s wall, {args.jobs} processes")


if __name__ == "__main__":
    main()
