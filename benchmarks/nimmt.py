"""6 nimmt! benchmark: the blind player (sampling + exact best response) at
tables of 3, 4 and 5 against flat Monte Carlo, a random player and "lowest
card first", over whole games to 66 (rule S5).

Tables: 4 players = blind, flat MC, random, lowest. 3 players = blind, flat
MC and a third seat that is random in even-numbered games and lowest in odd
ones. 5 players = blind, flat MC, random, lowest, random. Game g uses deal
seed ``base + g``; the players' seeds derive from it, so a run replays.

    python benchmarks/nimmt.py --players 4 --games 1000 --jobs 2 --out r.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable
from multiprocessing import Pool
from typing import Any

from thegame.analysis.nimmt.baselines import MCS, MCS100
from thegame.analysis.nimmt.players import (
    BlindPlayer,
    FlatMonteCarlo,
    LowestPlayer,
    RandomPlayer,
    TimedBlindPlayer,
)
from thegame.models.nimmt.state import Player, View, play_game
from thegame.models.outcome import Limit


def baseline(kind: str, seed: int, seconds: float | None) -> Player:
    """A baseline of the head-to-head benchmarks (``mcs``, ``mcs100``,
    ``blind``) at ``seconds`` of CPU per decision; ``None``: its published
    count (the blind player: its own benchmark setting, 16 samples)."""
    if kind == "mcs":
        return MCS(seed, limit=None if seconds is None else Limit(time=seconds))
    if kind == "mcs100":
        return MCS100(seed, limit=None if seconds is None else Limit(time=seconds))
    if kind == "blind":
        if seconds is None:
            return BlindPlayer(seed, 16, 2, 1.0, 6)
        return TimedBlindPlayer(seed, Limit(time=seconds))
    raise SystemExit(f"unknown baseline {kind!r}")


class Timed:
    """A player wrapper that counts decisions and their CPU time."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.decisions = 0

    def choose_card(self, view: View) -> int:
        start = time.process_time()
        card = self.inner.choose_card(view)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return card

    def choose_row(self, view: View) -> int:
        start = time.process_time()
        row = self.inner.choose_row(view)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return row


def table(players: int, game: int) -> list[str]:
    if players == 3:
        return ["blind", "flat-mc", "random" if game % 2 == 0 else "lowest"]
    if players == 4:
        return ["blind", "flat-mc", "random", "lowest"]
    if players == 5:
        return ["blind", "flat-mc", "random", "lowest", "random"]
    raise SystemExit("--players must be 3, 4 or 5")


BLIND_PLAYOUTS = 2  # random playouts per candidate in each of the blind player's samples
EXACT_CARDS = 6  # the blind player uses the exact best response with at most this many cards


def make(kind: str, seed: int, samples: int, playouts: int) -> Player:
    if kind == "blind":
        return BlindPlayer(seed, samples, BLIND_PLAYOUTS, 1.0, EXACT_CARDS)
    if kind == "flat-mc":
        return FlatMonteCarlo(seed, playouts)
    if kind == "random":
        return RandomPlayer(seed)
    return LowestPlayer()


def one_game(job: tuple[int, int, int, int, int]) -> dict[str, Any]:
    players, game, base, samples, playouts = job
    seed = base + game
    kinds = table(players, game)
    seats = [Timed(make(k, seed * 16 + i, samples, playouts)) for i, k in enumerate(kinds)]
    result = play_game(seats, seed)
    return {
        "players": players,
        "game": game,
        "seed": seed,
        "seats": kinds,
        "scores": list(result.scores),
        "rounds": len(result.rounds),
        "shares": list(result.shares()),
        "seconds": [s.seconds for s in seats],
        "decisions": [s.decisions for s in seats],
    }


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def paired(games: list[dict[str, Any]]) -> str:
    """Blind against flat MC in the same games: the difference in heads per
    round and how often the blind player ends with fewer points (ties 1/2)."""
    diffs: list[float] = []
    ahead: list[float] = []
    for g in games:
        b, m = g["seats"].index("blind"), g["seats"].index("flat-mc")
        diffs.append((g["scores"][b] - g["scores"][m]) / g["rounds"])
        sb, sm = g["scores"][b], g["scores"][m]
        ahead.append(1.0 if sb < sm else 0.5 if sb == sm else 0.0)
    d, dh = interval(diffs)
    a, ah = interval(ahead)
    return (
        f"Paired, same games: blind minus flat MC = {d:+.2f} ± {dh:.2f} heads per round; "
        f"blind has fewer points than flat MC in {100 * a:.1f}% ± {100 * ah:.1f} of games "
        "(ties count 1/2)."
    )


def summary(lines: Iterable[dict[str, Any]]) -> str:
    """A markdown table per table size: each seat kind's win share and heads per round."""
    by_size: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        by_size.setdefault(line["players"], []).append(line)
    out = []
    for size in sorted(by_size):
        games = by_size[size]
        out.append(f"\n**{size} players**, {len(games)} games\n")
        out.append(
            "| player | seats | win share (95% CI) | heads per round (95% CI) | ms per decision |"
        )
        out.append("|---|---|---|---|---|")
        kinds = ["blind", "flat-mc", "random", "lowest"]
        for kind in kinds:
            wins: list[float] = []
            per_round: list[float] = []
            seconds = decisions = 0.0
            for g in games:
                for i, k in enumerate(g["seats"]):
                    if k != kind:
                        continue
                    wins.append(g["shares"][i])
                    per_round.append(g["scores"][i] / g["rounds"])
                    seconds += g["seconds"][i]
                    decisions += g["decisions"][i]
            if not wins:
                continue
            w, wh = interval(wins)
            h, hh = interval(per_round)
            ms = 1000 * seconds / decisions if decisions else 0.0
            out.append(
                f"| {kind} | {len(wins)} | {100 * w:.1f}% ± {100 * wh:.1f} | "
                f"{h:.2f} ± {hh:.2f} | {ms:.1f} |"
            )
        out.append("")
        out.append(paired(games))
    return "\n".join(out)


def solve_timing(rounds: int, kind: str) -> str:
    """CPU seconds of ``solve`` for every player of ``rounds`` seeded rounds
    (seed s, 2 + s % 9 players). ``kind`` "random": everyone plays uniformly
    random cards and rows; "mixed": even seats flat MC (40 playouts), odd
    seats lowest card first, so the records avoid heads like real players."""
    from thegame.models.nimmt.deal import Deal
    from thegame.models.nimmt.state import play_round
    from thegame.solver.nimmt.problem import problem_from_record
    from thegame.solver.nimmt.search import Searcher

    class AnyRow(RandomPlayer):
        def choose_row(self, view: View) -> int:
            return self.rng.below(4)

    def seat(seed: int, p: int) -> Player:
        if kind == "random":
            return AnyRow(seed * 16 + p)
        return FlatMonteCarlo(seed * 16 + p, 40) if p % 2 == 0 else LowestPlayer()

    times: list[float] = []
    nodes: list[int] = []
    for seed in range(rounds):
        n = 2 + seed % 9
        record = play_round(Deal.from_seed(seed, n), [seat(seed, p) for p in range(n)])
        for p in range(n):
            start = time.process_time()
            searcher = Searcher(problem_from_record(record, p))
            searcher.solve()
            times.append(time.process_time() - start)
            nodes.append(searcher.nodes)
    times.sort()
    mean = sum(times) / len(times)
    return (
        f"{kind} play: {len(times)} solves ({rounds} rounds, 2-10 players): "
        f"mean {1000 * mean:.1f} ms, median {1000 * times[len(times) // 2]:.1f} ms, "
        f"99th percentile {1000 * times[int(0.99 * len(times))]:.1f} ms, "
        f"max {1000 * times[-1]:.1f} ms CPU; max {max(nodes):,} nodes"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--base", type=int, default=1_000_000, help="deal seed of game 0")
    ap.add_argument("--samples", type=int, default=16, help="blind player's samples per decision")
    ap.add_argument("--playouts", type=int, default=160, help="flat MC playouts per decision")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="append one JSON line per game here")
    ap.add_argument("--summarize", nargs="*", help="only print the summary of these JSONL files")
    ap.add_argument("--solve-timing", type=int, metavar="ROUNDS", help="time solve instead")
    args = ap.parse_args()
    if args.solve_timing:
        print(solve_timing(args.solve_timing, "random"))
        print(solve_timing(args.solve_timing // 3, "mixed"))
        return
    if args.summarize is not None:
        lines = []
        for name in args.summarize:
            with open(name, encoding="utf-8") as fh:
                lines += [json.loads(x) for x in fh]
        print(summary(lines))
        return
    # Game-major order: a run stopped early still has every table size.
    jobs = [
        (p, g, args.base, args.samples, args.playouts)
        for g in range(args.games)
        for p in args.players
    ]
    results = []
    sink = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.time()
    try:
        with Pool(args.jobs) as pool:
            for i, line in enumerate(pool.imap_unordered(one_game, jobs, chunksize=4), 1):
                results.append(line)
                if sink:
                    sink.write(json.dumps(line) + "\n")
                    sink.flush()
                if i % 50 == 0:
                    print(f"{i}/{len(jobs)} games, {time.time() - start:.0f} s", file=sys.stderr)
    finally:
        if sink:
            sink.close()
    print(summary(results))
    print(f"\n{len(results)} games in {time.time() - start:.0f} s wall, {args.jobs} processes")


if __name__ == "__main__":
    main()
