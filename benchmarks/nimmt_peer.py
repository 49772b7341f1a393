"""6 nimmt! whole games against rl-6-nimmt's MCSAgent, run in its own code.

At each table size N (2..10) each deal (a game seed: round r of both games
is the r-th deal of that seed, rule S5's whole game to 66 points) is played
twice: once with our ``StrongPlayer`` in the even seats (1, 3, 5, ... on
screen) and the peer's ``MCSAgent`` in the others, once the other way round.
Over the two games every seat is ours once, so the fair share of our team's
wins (the sum of our seats' win shares, ties for fewest points shared) is
exactly one half per deal at every N, odd or even; the interval is over the
deals (each deal's mean of its two games, a Wilson score interval, which
keeps its width when every deal goes one way).

The peer runs unmodified in its own virtual environment, behind
``nimmt_peer_bridge.py`` (JSON lines over a pipe): its observation from its
own environment, its card from ``MCSAgent`` (``--mc-max`` rollouts a
decision at most; ``N=mc`` pairs set it per table size), and its row, when
its card is below every row, by its environment's rule (fewest heads).
Our seats get ``--seconds`` of CPU a decision. Both sides' CPU a card
decision with a choice (two cards or more) is measured and reported.

    # the peer's CPU a decision at several mc_max (one round a value and size)
    nice -n 10 python benchmarks/nimmt_peer.py --calibrate 40 --players 2-10 --jobs 2
    # the table: our seconds a decision per size set to the peer's measured CPU
    nice -n 10 python benchmarks/nimmt_peer.py --players 2-10 --deals 10 --mc-max 2=40 \
        --seconds-at 2=0.063 3=0.071 --jobs 2 --out peer.jsonl
    python benchmarks/nimmt_peer.py --summarize peer.jsonl

``--python`` is the peer environment's interpreter (default
/work/peer-venv/bin/python, or $NIMMT_PEER_PYTHON).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from thegame.analysis.nimmt.strong import StrongPlayer
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.state import View, play_game, play_round
from thegame.models.outcome import Limit

BRIDGE = Path(__file__).with_name("nimmt_peer_bridge.py")
PYTHON = os.environ.get("NIMMT_PEER_PYTHON", "/work/peer-venv/bin/python")
_bridge: Bridge | None = None


class Bridge:
    """The peer's process: one JSON line out, one back."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, str(BRIDGE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, **msg: Any) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the peer's bridge stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer


class Meter:
    """The peer's CPU over a game's card decisions with a choice, all its seats."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0


class Timed:
    """Counts a seat's card decisions with a choice and their CPU time."""

    seconds = 0.0
    decisions = 0
    retries = 0
    row_seconds = 0.0

    def note(self, view: View, cpu: float) -> None:
        if len(view.hand) > 1:
            self.seconds += cpu
            self.decisions += 1


class Ours(Timed):
    """Our ``StrongPlayer``; with ``match`` its CPU follows the peer's.

    Matched, each card decision's budget is ``match`` times the peer's mean
    CPU a decision so far in this game, less what this seat has spent beyond
    that mean on its earlier decisions and row choices (a running account,
    so over a game its CPU, rows included, keeps to the peer's mean whatever
    the machine's load). Before the peer's first decisions it is ``seconds``.
    """

    def __init__(self, seed: int, seconds: float, meter: Meter, match: float) -> None:
        self.inner = StrongPlayer(seed, Limit(time=seconds))
        self.fixed = seconds
        self.meter = meter
        self.match = match

    def budget(self) -> float:
        if not self.match or self.meter.decisions < 2:
            return self.fixed
        mean = self.match * self.meter.seconds / self.meter.decisions
        due = mean * (self.decisions + 1) - self.seconds - self.row_seconds
        return min(2 * mean, max(mean / 4, due))

    def choose_card(self, view: View) -> int:
        start = time.process_time()
        if len(view.hand) > 1:
            self.inner.limit = Limit(time=self.budget())
        card = self.inner.choose_card(view)
        self.note(view, time.process_time() - start)
        return card

    def choose_row(self, view: View) -> int:
        start = time.process_time()
        self.inner.limit = Limit(time=self.budget())
        row = self.inner.choose_row(view)
        self.row_seconds += time.process_time() - start
        return row


class Peer(Timed):
    """A seat played by the peer's MCSAgent in the bridge (its own CPU clock)."""

    def __init__(self, bridge: Bridge, seat: int, meter: Meter) -> None:
        self.bridge = bridge
        self.seat = seat
        self.meter = meter

    def choose_card(self, view: View) -> int:
        rows = [list(r) for r in view.rows]
        answer = self.bridge.ask(op="card", seat=self.seat, hand=list(view.hand), rows=rows)
        self.note(view, answer["cpu"])
        if len(view.hand) > 1:
            self.meter.seconds += answer["cpu"]
            self.meter.decisions += 1
        self.retries += answer["tries"] - 1
        return int(answer["card"])

    def choose_row(self, view: View) -> int:
        answer = self.bridge.ask(op="row", seat=self.seat, rows=[list(r) for r in view.rows])
        self.row_seconds += answer.get("cpu", 0.0)
        return int(answer["row"])


def bridge(python: str = PYTHON) -> Bridge:
    """This worker's bridge, started on first use."""
    global _bridge
    if _bridge is None:
        _bridge = Bridge(python)
    return _bridge


def seats_for(
    players: int, half: int, seed: int, seconds: float, mc_max: int, match: float = 0.0
) -> list[Timed]:
    """Ours in the seats of parity ``half`` (0: seats 1, 3, ...), the peer elsewhere."""
    link = bridge()
    meter = Meter()
    peers = [i for i in range(players) if i % 2 != half]
    link.ask(op="game", seed=seed, players=players, mc_max=mc_max, seats=peers)
    return [
        Peer(link, i, meter) if i in peers else Ours(seed * 16 + i, seconds, meter, match)
        for i in range(players)
    ]


def one_game(job: tuple[int, int, int, float, int, float]) -> dict[str, Any]:
    players, seed, half, seconds, mc_max, match = job
    seats = seats_for(players, half, seed, seconds, mc_max, match)
    start = time.time()
    result = play_game(seats, seed)
    return {
        "players": players,
        "seed": seed,
        "half": half,
        "seconds_per_decision": seconds,
        "match": match,
        "mc_max": mc_max,
        "seats": ["ours" if isinstance(s, Ours) else "peer" for s in seats],
        "scores": list(result.scores),
        "shares": list(result.shares()),
        "round_heads": [list(replay(r).heads) for r in result.rounds],
        "cpu": [s.seconds for s in seats],
        "decisions": [s.decisions for s in seats],
        "row_cpu": [s.row_seconds for s in seats],
        "retries": sum(s.retries for s in seats),
        "wall": time.time() - start,
        "load": os.getloadavg()[0],
    }


def calibrate(job: tuple[int, int, int]) -> dict[str, Any]:
    """The peer's mean CPU a card decision with a choice over one round."""
    players, seed, mc_max = job
    seats = seats_for(players, 1, seed, 0.0, mc_max)
    play_round(Deal.from_seed(seed, players), seats)
    peer = [s for s in seats if isinstance(s, Peer)]
    cpu = sum(s.seconds for s in peer)
    return {
        "players": players,
        "mc_max": mc_max,
        "decisions": sum(s.decisions for s in peer),
        "cpu": cpu,
        "retries": sum(s.retries for s in peer),
    }


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (no zero width at 0 or 1)."""
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def size_row(players: int, games: list[dict[str, Any]]) -> str:
    """One table size's row: only deals with both of their games count."""
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        by_seed.setdefault(g["seed"], []).append(g)
    pairs = [v for v in by_seed.values() if len(v) == 2]
    deal_share, diffs, ours_h, peer_h = [], [], [], []
    cpu = {"ours": [0.0, 0], "peer": [0.0, 0]}
    for pair in pairs:
        share = 0.0
        for g in pair:
            ours = [i for i, k in enumerate(g["seats"]) if k == "ours"]
            peer = [i for i, k in enumerate(g["seats"]) if k == "peer"]
            share += sum(g["shares"][i] for i in ours) / 2
            for heads in g["round_heads"]:
                o = sum(heads[i] for i in ours) / len(ours)
                p = sum(heads[i] for i in peer) / len(peer)
                ours_h.append(o)
                peer_h.append(p)
                diffs.append(o - p)
            for kind, seats in (("ours", ours), ("peer", peer)):
                rows = g.get("row_cpu", [0.0] * len(g["seats"]))
                cpu[kind][0] += sum(g["cpu"][i] + rows[i] for i in seats)
                cpu[kind][1] += sum(g["decisions"][i] for i in seats)
        deal_share.append(share)
    if not pairs:
        return f"| {players} | 0 | | | | | | | | | | | | |"
    s = sum(deal_share) / len(deal_share)
    lo, hi = wilson(sum(deal_share), len(deal_share))
    games_lo, games_hi = wilson(2 * sum(deal_share), 2 * len(deal_share))
    d, dh = interval(diffs)
    ms = {k: 1000 * t / max(1, n) for k, (t, n) in cpu.items()}
    mc = sorted({g["mc_max"] for g in games})
    budgets = sorted({f"x{g['match']:g}" if g.get("match") else "fixed" for g in games})
    loads = [g["load"] for g in games if "load" in g]
    load = f"{sum(loads) / len(loads):.1f}" if loads else "-"
    return (
        f"| {players} | {len(pairs)} | {100 * s:.1f}% | "
        f"{100 * lo:.1f}-{100 * hi:.1f}% | "
        f"{round(2 * sum(deal_share), 2):g} of {2 * len(pairs)} "
        f"({100 * games_lo:.0f}-{100 * games_hi:.0f}%) | "
        f"{len(diffs)} | "
        f"{sum(ours_h) / len(ours_h):.2f} | {sum(peer_h) / len(peer_h):.2f} | "
        f"{d:+.2f} ± {dh:.2f} | "
        f"{ms['ours']:.1f} | {ms['peer']:.1f} | {','.join(map(str, mc))} | "
        f"{', '.join(budgets)} | {load} |"
    )


def modelled_share(games: list[dict[str, Any]], trials: int = 4000, seed: int = 1) -> float:
    """Our team's share if every seat's round were an independent draw from
    its side's measured heads a round (the same seatings, rule S5's end):
    what the heads a round alone would give, luck of the lowest included."""
    heads: dict[str, list[int]] = {"ours": [], "peer": []}
    for g in games:
        for row in g["round_heads"]:
            for kind, h in zip(g["seats"], row, strict=True):
                heads[kind].append(h)
    rng, won = random.Random(seed), 0.0
    for t in range(trials):
        seats = games[t % len(games)]["seats"]
        scores = [0] * len(seats)
        while max(scores) < 66:
            scores = [s + rng.choice(heads[k]) for s, k in zip(scores, seats, strict=True)]
        low = [i for i, s in enumerate(scores) if s == min(scores)]
        won += sum(seats[i] == "ours" for i in low) / len(low)
    return won / trials


def summary(lines: list[dict[str, Any]]) -> str:
    out = [
        "| players | deals (2 games each) | our team's share of games (fair 50%) | "
        "95% interval (Wilson, over deals) | games won (Wilson over games) | "
        "rounds | heads/round ours | heads/round peer | ours - peer | "
        "CPU ms/decision ours | CPU ms/decision peer | peer mc_max | our budget | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n in sorted({g["players"] for g in lines}):
        out.append(size_row(n, [g for g in lines if g["players"] == n]))
    return "\n".join(out)


def sizes(spec: str) -> list[int]:
    lo, _, hi = spec.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def per_size(pairs: list[str], default: float) -> dict[int, float]:
    """``N=X`` pairs: a value at table size N, ``default`` elsewhere."""
    table = {n: default for n in range(2, 11)}
    for p in pairs:
        n, _, x = p.partition("=")
        table[int(n)] = float(x)
    return table


def run(fn: Any, jobs: list[Any], workers: int, out: str | None) -> list[dict[str, Any]]:
    """``fn`` over ``jobs`` on ``workers`` processes, each line appended to ``out``."""
    results = []
    sink = open(out, "a", encoding="utf-8") if out else None  # noqa: SIM115
    start = time.time()
    try:
        with Pool(workers) as pool:
            for i, line in enumerate(pool.imap_unordered(fn, jobs), 1):
                results.append(line)
                if sink:
                    sink.write(json.dumps(line) + "\n")
                    sink.flush()
                note = f" {line['players']} players" if "players" in line else ""
                print(f"{i}/{len(jobs)} done,{note} {time.time() - start:.0f} s", file=sys.stderr)
    except KeyboardInterrupt:
        sys.exit(130)
    finally:
        if sink:
            sink.close()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", default="2-10", help="table sizes, e.g. 2-10 or 4")
    ap.add_argument("--deals", type=int, default=20, help="deals a size (two games each)")
    ap.add_argument("--base", type=int, default=3_000_000, help="game seed of deal 0")
    ap.add_argument("--seconds", type=float, default=0.06, help="our CPU seconds a decision")
    ap.add_argument("--seconds-at", nargs="*", default=[], help="N=S: our seconds at size N")
    ap.add_argument("--mc-max", nargs="*", default=[], help="N=M: the peer's mc_max at size N")
    ap.add_argument("--default-mc-max", type=int, default=40)
    ap.add_argument(
        "--match",
        type=float,
        default=0.0,
        help="our CPU a decision: this times the peer's mean so far in the game (0: --seconds)",
    )
    ap.add_argument("--calibrate", nargs="*", type=int, help="only time the peer at these mc_max")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="append one JSON line per game here")
    ap.add_argument("--summarize", nargs="*", help="only print the summary of these JSONL files")
    ap.add_argument(
        "--model", action="store_true", help="with --summarize: the share the heads alone give"
    )
    args = ap.parse_args()
    if args.summarize is not None:
        lines = []
        for name in args.summarize:
            with open(name, encoding="utf-8") as fh:
                lines += [json.loads(x) for x in fh]
        print(summary(lines))
        for n in sorted({g["players"] for g in lines}) if args.model else []:
            share = modelled_share([g for g in lines if g["players"] == n])
            print(f"{n} players: {100 * share:.1f}% from the heads a round alone")
        return
    if args.calibrate:
        cal = [(n, args.base + n, m) for n in sizes(args.players) for m in args.calibrate]
        for r in sorted(
            run(calibrate, cal, args.jobs, args.out), key=lambda r: (r["players"], r["mc_max"])
        ):
            print(
                f"{r['players']} players, mc_max {r['mc_max']}: "
                f"{1000 * r['cpu'] / max(1, r['decisions']):.1f} ms a decision "
                f"({r['decisions']} decisions, {r['retries']} asked again)"
            )
        return
    mc = per_size(args.mc_max, args.default_mc_max)
    secs = per_size(args.seconds_at, args.seconds)
    # Deal-major order, both halves of a deal together: a run stopped early
    # has whole pairs at every size.
    work = [
        (n, args.base + 1000 * n + d, half, secs[n], int(mc[n]), args.match)
        for d in range(args.deals)
        for n in sizes(args.players)
        for half in (0, 1)
    ]
    print(summary(run(one_game, work, args.jobs, args.out)))


if __name__ == "__main__":
    main()
