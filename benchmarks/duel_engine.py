"""The duel engine against today's fixed policy, head to head, over printed
Face to Face duels (rules D1-D7).

Usage (from the repository root; one process, as the machine is shared):

    nice -n 10 python benchmarks/duel_engine.py --seeds 1-200 --seconds 1   # the full run
    nice -n 10 python benchmarks/duel_engine.py --seeds 1-40 --seconds 0.15 --minutes 35
    nice -n 10 python benchmarks/duel_engine.py --noise --seeds 1-4 --seconds 0.7
    nice -n 10 python benchmarks/duel_engine.py --self --seeds 1-1000 --seconds 0.1 --minutes 25

Each seed of the printed game is played twice with player 1 starting: the
engine (``duel.api.engine_answer``: Monte-Carlo tree search with the exact
search inside, ``--seconds`` a turn, one engine per duel so its tree and
table carry from turn to turn) in seat 1, then in seat 2; the other seat
plays the fixed policy (``duel.api.first_guess``: a turn that wins at once
or leaves the opponent without a turn, else the best static score among the
undominated turns). The engine's share of wins comes with its 95% Wilson
interval, per seat and in all. ``--minutes`` stops starting new duels after
that many minutes (a finished duel pair is never cut in half).

``--noise`` measures what the marks of ``analyze`` rest on: at every fifth
turn start of each seed's policy duel, two fresh engines with different
playout seeds estimate the mover's win chance, ``--seconds`` each (the
engine's time a position in ``analyze`` at its default 1 s is some 0.7 s);
it prints how far apart the two estimates are.

``--self``: the engine on both seats (one engine each), each seed played
from each start; the starter's share of wins with its interval.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Any

from duel_policy import policy_game

from thegame.models import Limit
from thegame.models.seeds import SplitMix64
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import engine_answer, engine_for, first_guess
from thegame.survey.report import wilson


def duel(seed: int, seat: int, seconds: float, sample_seed: int = 0) -> dict[str, Any]:
    """One duel of seed ``seed``, player 1 first, the engine in ``seat``."""
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1))
    engine = engine_for(state.deal)
    engine.rng = SplitMix64(sample_seed * 1_000_003 + seed * 2 + seat)
    turns = 0
    proven_at: int | None = None
    # The engine's estimated moves and their playouts (wall-clock budget:
    # on a busy machine a move gets fewer).
    estimated = playouts = 0
    t0 = time.monotonic()
    while not state.over:
        if state.current + 1 == seat:
            res = engine_answer(state, Limit(seconds), engine)
            if res.verdict != "unknown" and proven_at is None:
                proven_at = turns + 1
            if res.estimate is not None:
                estimated += 1
                playouts += res.estimate.playouts
            turn = res.turns[0] if res.turns else None
            if turn is None and res.estimate is not None:
                turn = res.estimate.turn
            plays = None if turn is None else turn.plays
        else:
            plays = first_guess(state)
        if plays is None:
            break  # no legal turn: the rules engine has ended the duel already
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
        turns += 1
    return {
        "seed": seed,
        "engine_seat": seat,
        "winner": state.winner,
        "engine_won": state.winner == seat,
        "turns": turns,
        "engine_proved_at_turn": proven_at,
        "playouts_per_estimated_move": round(playouts / estimated, 1) if estimated else None,
        "seconds": round(time.monotonic() - t0, 2),
    }


def self_play(seed: int, first: int, seconds: float) -> dict[str, Any]:
    """One duel with the engine on both seats (an engine each: no shared tree)."""
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=first))
    engines = [engine_for(state.deal), engine_for(state.deal)]
    for k, e in enumerate(engines):
        e.rng = SplitMix64(seed * 4 + first * 2 + k)
    turns = 0
    while not state.over:
        res = engine_answer(state, Limit(seconds), engines[state.current])
        turn = res.turns[0] if res.turns else None
        if turn is None and res.estimate is not None:
            turn = res.estimate.turn
        if turn is None:
            break
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
        turns += 1
    return {"seed": seed, "first": first, "winner": state.winner, "turns": turns}


def self_run(seeds: range, seconds: float, minutes: float | None, out: Path) -> None:
    t0 = time.monotonic()
    rows = []
    with open(out, "w") as fh:
        for seed in seeds:
            if minutes is not None and time.monotonic() - t0 > minutes * 60:
                break
            for first in (1, 2):
                row = self_play(seed, first, seconds)
                rows.append(row)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
    n = len(rows)
    k = sum(r["winner"] == r["first"] for r in rows)
    lo, hi = wilson(k, n)
    print(f"{n} duels (seeds {seeds[0]}-{rows[-1]['seed'] if rows else '-'}, each start), "
          f"{(time.monotonic() - t0) / 60:.1f} min wall")  # fmt: skip
    print(f"the starter wins {k} ({k / max(1, n):.1%}), 95% interval {lo:.1%}-{hi:.1%}")


def noise(seeds: range, seconds: float) -> None:
    """Two independent estimates of the same positions, and their gap."""
    gaps: list[float] = []
    playouts: list[int] = []
    for seed in seeds:
        state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1))
        for i, start in enumerate(policy_game(state)):
            if i % 5:
                continue
            chances = []
            for sample in (1, 2):
                engine = engine_for(start.deal)
                engine.rng = SplitMix64(sample)
                res = engine_answer(start, Limit(seconds), engine)
                if res.estimate is None:
                    break  # proven: no noise to measure
                chances.append(res.estimate.win_chance)
                playouts.append(res.estimate.playouts)
            if len(chances) == 2:
                gaps.append(abs(chances[0] - chances[1]))
                print(f"seed {seed} turn {i + 1}: {chances[0]:.2f} {chances[1]:.2f}", flush=True)
    gaps.sort()
    n = len(gaps)
    if not n:
        return
    print(f"\n{n} positions, {sum(playouts) / len(playouts):.0f} playouts an estimate on average")
    print(f"gap between two estimates: median {gaps[n // 2]:.2f}, 90th percentile "
          f"{gaps[min(n - 1, int(n * 0.9))]:.2f}, max {gaps[-1]:.2f}")  # fmt: skip
    for least in (0.10, 0.18, 0.30):
        share = sum(g >= least for g in gaps) / n
        print(f"  gap >= {least:.2f}: {share:.0%}")


def _seeds(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _share(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    k = sum(r["engine_won"] for r in rows)
    if n == 0:
        return "| 0 | - | - |"
    lo, hi = wilson(k, n)
    return f"| {n} | {k} ({k / n:.1%}) | {lo:.1%}-{hi:.1%} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--seconds", type=float, default=1.0, help="the engine's time a turn")
    ap.add_argument("--minutes", type=float, default=None, help="start no duel after this")
    ap.add_argument("--sample-seed", type=int, default=0, help="the playouts' random seed")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/duel-engine.jsonl"))
    ap.add_argument("--noise", action="store_true", help="the estimates' noise (see above)")
    ap.add_argument("--self", action="store_true", help="the engine on both seats")
    args = ap.parse_args()
    if args.self:
        self_run(_seeds(args.seeds), args.seconds, args.minutes, args.out)
        return
    if args.noise:
        noise(_seeds(args.seeds), args.seconds)
        return
    t0 = time.monotonic()
    rows: list[dict[str, Any]] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as fh:
        for seed in _seeds(args.seeds):
            if args.minutes is not None and time.monotonic() - t0 > args.minutes * 60:
                break
            for seat in (1, 2):
                row = duel(seed, seat, args.seconds, args.sample_seed)
                rows.append(row)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
    wall = time.monotonic() - t0
    seeds = sorted({r["seed"] for r in rows})
    print(
        f"`python benchmarks/duel_engine.py --seeds {args.seeds} --seconds {args.seconds:g}"
        + (f" --minutes {args.minutes:g}`" if args.minutes is not None else "`")
    )
    print(
        f"({len(rows)} duels, seeds {seeds[0] if seeds else '-'}-{seeds[-1] if seeds else '-'}, "
        f"{wall / 60:.1f} min wall; {platform.processor() or platform.machine()}, "
        "2 cores shared with other work)\n"
    )
    print("| engine's seat | duels | engine wins | 95% interval |")
    print("|---|---|---|---|")
    print("| 1 (starts) " + _share([r for r in rows if r["engine_seat"] == 1]))
    print("| 2 " + _share([r for r in rows if r["engine_seat"] == 2]))
    print("| both " + _share(rows))
    per = [r["playouts_per_estimated_move"] for r in rows if r.get("playouts_per_estimated_move")]
    if per:
        print(f"\nPlayouts per estimated move, averaged over duels: {sum(per) / len(per):.1f}")
    proven = [
        r["turns"] - r["engine_proved_at_turn"] + 1 for r in rows if r["engine_proved_at_turn"]
    ]
    if proven:
        proven.sort()
        print(f"The engine's first proof came {proven[len(proven) // 2]} turns before the end "
              f"(median of {len(proven)} duels).")  # fmt: skip


if __name__ == "__main__":
    main()
