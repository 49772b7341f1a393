"""Face to Face played out by one fixed policy on both sides: a sampled
estimate of the starting player's edge, not a solution.

Usage (from the repository root):

    python benchmarks/duel_policy.py --seeds 1-2000 --jobs 2
    python benchmarks/duel_policy.py --seeds 1-3 --horizon --time-limit 20
    python benchmarks/duel_policy.py --seeds 1-3 --horizon --time-limit 20 --reference
    python benchmarks/duel_policy.py --seeds 3 --horizon --time-limit 60 --memory 4096
    python benchmarks/duel_policy.py --seeds 2 --record duel2.json  # for thegame analyze

The exact solver (``benchmarks/duel.py``) does not decide printed duels
within its budget, so this asks a weaker, clearly different question: when
both players follow the same deterministic policy (the duel search's first
choice, ``duel.api.first_guess``: a turn that wins at once or leaves the
opponent without a legal turn, else the best static score among the turns
no other turn dominates), how often does
the starting player win? Each seed of the printed game is played twice, once
from each start, so every deal counts for both seats. The rate comes with
its sample size and a 95% Wilson interval; it describes this policy's play,
not best play, and says nothing about who wins a duel under best play.

``--horizon`` measures how far the exact solver reaches instead: for each
seed (player 1 first) it plays the policy game, then decides its turn
starts with ``duel.api.decide``, the last first, ``--time-limit`` seconds
each, until two in a row end unknown; ``--reference`` does the same with
the depth-first reference search (``duel.search.DuelSearch``) instead of the
proof-number search ``decide`` runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

from thegame.models import Limit
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import Deal, GameState, Record, Turn, get_rules
from thegame.solver.the_game.duel.api import decide, policy_duel
from thegame.solver.the_game.duel.position import DuelGame
from thegame.solver.the_game.duel.search import DuelSearch
from thegame.survey.report import wilson


def policy_game(state: GameState) -> list[GameState]:
    """Play the duel on from ``state`` with the policy on both seats to its
    end (rule D6); the positions at the start of each turn played, in order."""
    return [start for start, _turn in policy_turns(state)]


def policy_turns(state: GameState) -> list[tuple[GameState, Turn]]:
    """``policy_game`` with the turn played from each turn start."""
    return policy_duel(state)


def play_out(args: tuple[int, int]) -> dict[str, Any]:
    """One duel, both seats played by the policy, to its end (rule D6)."""
    seed, first = args
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=first))
    turns = len(policy_game(state))
    return {
        "seed": seed,
        "first": first,
        "winner": state.winner,
        "turns": turns,
        "stuck": "cannot play" in (state.reason or ""),
        "cards_left": [len(state.hands[p]) + len(state.draw_pile(p)) for p in (0, 1)],
    }


def horizon(
    seed: int, seconds: float, reference: bool = False, memory: int | None = None
) -> None:
    """Decide the turn starts of one policy game, the last first: with
    ``decide`` (the proof-number search), or with the depth-first reference
    search (``reference``; the verdict only, no line)."""
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1))
    starts = policy_game(state)
    print(f"seed {seed}: {len(starts)} turns, player {state.winner} wins ({state.reason})")
    misses = 0
    for i in range(len(starts) - 1, -1, -1):
        t0 = time.monotonic()
        if reference:
            verdict, nodes = depth_first(starts[i], seconds)
        else:
            res = decide(starts[i], Limit(seconds, None, None, memory))
            verdict, nodes = res.verdict.value, res.nodes
        print(
            f"  turn {i + 1} ({len(starts) - i} from the end): {verdict}, "
            f"{nodes} nodes, {time.monotonic() - t0:.2f} s",
            flush=True,
        )
        misses = misses + 1 if verdict == "unknown" else 0
        if misses == 2:
            return


def depth_first(state: GameState, seconds: float) -> tuple[str, int]:
    """The depth-first reference search from a turn start: verdict, nodes."""
    game = DuelGame.of(state.deal)
    search = DuelSearch(game, None, time.monotonic() + seconds)
    try:
        win = search.wins(game.from_state(state))
    except OutOfBudget:
        return "unknown", search.stats.nodes
    return ("win" if win else "loss"), search.stats.nodes


def _seeds(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-2000")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/duel-policy.jsonl"))
    ap.add_argument("--horizon", action="store_true", help="how far the exact solver reaches")
    ap.add_argument("--time-limit", type=float, default=20.0, help="--horizon: seconds a position")
    ap.add_argument(
        "--reference", action="store_true", help="--horizon: the depth-first reference search"
    )
    ap.add_argument("--memory", type=int, help="--horizon: MiB for the tables (Limit.memory)")
    ap.add_argument(
        "--record", type=Path, help="write the policy game of the first seed as a record"
    )
    args = ap.parse_args()
    if args.record is not None:
        seed = _seeds(args.seeds)[0]
        state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1))
        turns = tuple(turn for _start, turn in policy_turns(state))
        args.record.write_text(Record(state.deal, turns).to_json() + "\n")
        print(f"seed {seed}: the policy game, {len(turns)} turns, written to {args.record}")
        return
    if args.horizon:
        for seed in _seeds(args.seeds):
            horizon(seed, args.time_limit, args.reference, args.memory)
        return
    work = [(s, f) for s in _seeds(args.seeds) for f in (1, 2)]
    t0 = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        rows = list(pool.imap(play_out, work, chunksize=20))
    wall = time.monotonic() - t0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    n = len(rows)
    starter = sum(r["winner"] == r["first"] for r in rows)
    lo, hi = wilson(starter, n)
    stuck = sum(r["stuck"] for r in rows)
    by_seed: dict[int, set[int]] = {}
    for r in rows:
        by_seed.setdefault(r["seed"], set()).add(r["winner"])
    same = sum(len(w) == 1 for w in by_seed.values())
    print(f"`python benchmarks/duel_policy.py --seeds {args.seeds} --jobs {args.jobs}`")
    print(f"({n} duels in {wall:.0f} s wall)\n")
    print("| duels (seed x start) | starter wins | 95% interval | ended by a stuck player |")
    print("|---|---|---|---|")
    print(
        f"| {n} | {starter} ({starter / n:.1%}) | {lo:.1%}-{hi:.1%} | {stuck} ({stuck / n:.1%}) |"
    )
    print(
        f"\nThe same player wins from both starts on {same} of {len(by_seed)} seeds "
        f"({same / len(by_seed):.1%}): there the deal, not the start, decides this policy's duel."
    )


if __name__ == "__main__":
    main()
