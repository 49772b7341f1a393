"""The strength of the Cento seat engines against simple players, at every table size.

Usage (from the repository root):

    python benchmarks/cento_players.py --players 4-6 --games 1000 --worlds 1000 --opponents greedy

For each table size and each opponent (``random``: any distinct legal turn;
``greedy``: the turn that leaves the fewest cards, then the most cards that
fit the new open card), ``--games`` games of ``Deal.from_seed(seed,
players)`` (seeds from ``--first-seed``): the engine plays one seat, rotated
game by game, the opponent every other seat. ``--engine search`` (the
default) is the searching engine (``analysis/cento/sampler.py``: sampled
worlds, compiled greedy playouts); ``--engine shrewd`` the earlier one
(``analysis/cento/engine.py``). The engine thinks ``--worlds`` sampled
worlds per decision (a count, not seconds, so a loaded machine gives the
same games). A win is being among the winners (rule Z1); the share of wins
comes with its 95% Wilson interval and the share a seat would win by chance
(1/players). Every game is replayed by the referee. ``--opponents greedy``
plays only the greedy rows. The rows go game by game to
``results/cento-players-{players}p-{worlds}w[-opponents][-shrewd].jsonl``;
``cento_paired.py`` compares two such files on the same deals.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from thegame.analysis.cento.engine import SeatEngine, greedy_policy, policy_turn, random_policy
from thegame.analysis.cento.sampler import STEPS, TRIES, SampleEngine
from thegame.models.cento import Deal, Record, apply_turn, check, initial_state
from thegame.models.outcome import Limit
from thegame.survey.report import wilson

ROOT = Path(__file__).resolve().parent
POLICIES = {"random": random_policy, "greedy": greedy_policy}


ENGINES = ("search", "shrewd")
THINKING = [0.0, 0]  # the engine's seconds (process time) and its decisions with a choice


def game(
    players: int,
    seed: int,
    seat: int,
    opponent: str,
    worlds: int,
    engine_name: str = "search",
    lookahead: tuple[int, int] | None = None,
    tries: int = TRIES,
    steps: int = STEPS,
) -> bool:
    deal = Deal.from_seed(seed, players)
    engine: SampleEngine | SeatEngine
    if engine_name == "search":
        engine = SampleEngine(deal, seed, lookahead, tries, steps=steps)
    else:
        engine = SeatEngine(deal, seed)
    rng = random.Random(seed)
    state = initial_state(deal)
    turns = []
    while not state.over:
        if state.to_move == seat:
            began = time.process_time()
            if isinstance(engine, SampleEngine):
                choice = engine.choose(state, Limit(nodes=worlds), turns)
            else:
                choice = engine.choose(state, Limit(nodes=worlds))
            if choice.worlds:
                THINKING[0] += time.process_time() - began
                THINKING[1] += 1
            turn = choice.turn
        else:
            turn = policy_turn(deal, state, POLICIES[opponent], rng)
        turns.append(turn)
        state = apply_turn(deal, state, turn)
    replay = check(Record(deal, tuple(turns)))
    assert replay.legal and replay.state == state
    return seat in state.winners


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2-6")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument(
        "--engine",
        default="search",
        choices=ENGINES,
        help="search: sampled worlds with compiled greedy playouts; shrewd: the earlier engine.",
    )
    ap.add_argument("--opponents", default="random,greedy", help="Comma-separated: random, greedy.")
    ap.add_argument(
        "--lookahead",
        default=None,
        help="TURNS,ROLLOUTS: the search engine's own next turns in a playout that look ahead, "
        "and the greedy playouts of each turn they try (default: the engine's).",
    )
    ap.add_argument(
        "--tries",
        type=int,
        default=TRIES,
        help="Deals a world may take until the others' recent turns are greedy in it "
        "(1: the world as first dealt; default: the engine's).",
    )
    ap.add_argument(
        "--steps",
        type=int,
        default=STEPS,
        help="Swaps of unseen cards from one world to the next (0: each world dealt afresh).",
    )
    ap.add_argument("--tag", default="", help="Added to the rows' file name.")
    ap.add_argument("--out", default=None, help="Markdown file to append the rows to.")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.players.split("-"))
    look = None
    if args.lookahead is not None:
        t, r = (int(x) for x in args.lookahead.split(","))
        look = (t, r)
    if not set(args.opponents.split(",")) <= set(POLICIES):
        ap.error(f"--opponents: choose from {', '.join(POLICIES)}")
    lines = [
        "| players | opponent | games | engine wins | share | 95% interval | by chance |",
        "|---|---|---|---|---|---|---|",
    ]
    start = time.time()
    rows = []
    tag = "" if args.opponents == "random,greedy" else "-" + args.opponents.replace(",", "-")
    tag += "" if args.engine == "search" else "-" + args.engine
    tag += f"-{args.tag}" if args.tag else ""
    name = f"cento-players-{args.players}p-{args.worlds}w{tag}.jsonl"
    partial = ROOT / "results" / name
    partial.write_text("")  # rows are appended game by game: a stopped run keeps its games
    for n in range(lo, hi + 1):
        for opponent in args.opponents.split(","):
            wins = 0
            for g in range(args.games):
                seed = args.first_seed + g
                won = game(
                    n, seed, g % n, opponent, args.worlds, args.engine, look, args.tries, args.steps
                )
                wins += won
                row = {"players": n, "opponent": opponent, "seed": seed, "seat": g % n + 1,
                       "won": won}  # fmt: skip
                rows.append(row)
                with partial.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
            a, b = wilson(wins, args.games)
            line = (
                f"| {n} | {opponent} | {args.games} | {wins} | {wins / args.games:.1%} | "
                f"{a:.1%}-{b:.1%} | {1 / n:.1%} |"
            )
            lines.append(line)
            print(line, file=sys.stderr, flush=True)
    wall = time.time() - start
    cmd = "python benchmarks/cento_players.py " + " ".join(sys.argv[1:])
    note = (
        f"`{cmd}`: {platform.machine()}, Python {platform.python_version()}, one process on a "
        f"2-core machine shared with other work; wall {wall:.0f} s; "
        f"{THINKING[0] / max(1, THINKING[1]):.3f} s of CPU a decision with a choice "
        f"({THINKING[1]} decisions); rows `results/{name}`."
    )
    print("\n".join(lines) + "\n" + note)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n" + note + "\n\n")


if __name__ == "__main__":
    main()
