"""Benchmark the strong blind player against the default blind policy, seed by seed.

Usage (from the repository root):

    python benchmarks/strong.py play --playouts 40 160 800 --seeds 1-2000 --every 1 1 8
    python benchmarks/strong.py report            # the curve, into RESULTS.md
    python benchmarks/strong.py speed --seeds 30 40 50   # playouts per CPU second

``play`` plays solo classic (or ``--variant``/``--players``) deals, player 1
first, with ``thegame.analysis.the_game.strong.StrongPlayer`` at each
playout budget per turn, and the default policy on the same seed (paired).
One JSON line per game is appended to
``benchmarks/results/strong-<variant>-<players>p-<playouts>.jsonl`` the
moment it ends; a rerun skips the games stored, so a long run can be
stopped and resumed. Seeds interleave the budgets (each seed at every
budget before the next seed), so a run stopped early still has every
budget on the same first seeds; ``--every`` plays budget k only on every
k-th seed. A budget is in playouts (deterministic, machine-independent);
the CPU seconds each turn took are measured (``time.process_time``, both
threads of the playouts) and reported beside it.

``report`` reads those files and replaces the "## Strong blind player"
section of benchmarks/RESULTS.md: win rate with its Wilson interval, the
default policy's on the same seeds, the paired difference (games only one
of them won), CPU seconds per turn and per game. The strong player's
settings were not tuned on these seeds (its weights are the blind policy's,
tuned on seeds 100001-102000).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import sys
import time
from pathlib import Path

from _rows import write_section

from thegame.analysis.the_game.blind import play_out
from thegame.analysis.the_game.strong import StrongPlayer
from thegame.models.outcome import Limit
from thegame.models.the_game import Deal, GameState, Play, get_rules
from thegame.survey.report import wilson

ROOT = Path(__file__).resolve().parent
RESULTS = ROOT / "results"
HEADER = "## Strong blind player"
Z = 1.96


def rows_path(variant: str, players: int, playouts: int) -> Path:
    return RESULTS / f"strong-{variant}-{players}p-{playouts}.jsonl"


def read_rows(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def game(seed: int, variant: str, players: int, playouts: int) -> dict[str, object]:
    """One seed: the strong player at ``playouts`` a turn, and the default policy."""
    state = GameState(Deal.from_seed(seed, get_rules(variant), players), first=1)
    base = play_out(state)
    spent = 0
    turns = 0

    player = StrongPlayer(Limit(nodes=playouts), seed=0)  # a playout a node

    def counted(st: GameState) -> list[Play]:
        nonlocal spent, turns
        choice = player.choose(st)
        spent += choice.playouts
        turns += 1
        return choice.plays

    cpu = time.process_time()
    wall = time.monotonic()
    final = play_out(state, counted)
    return {
        "seed": seed,
        "playouts_per_turn": playouts,
        "won": final.status == "won",
        "cards_left": final.cards_left(),
        "turns": turns,
        "playouts": spent,
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "wall_seconds": round(time.monotonic() - wall, 3),
        "default_won": base.status == "won",
        "default_cards_left": base.cards_left(),
    }


def play(args: argparse.Namespace) -> None:
    a, b = (int(x) for x in args.seeds.split("-"))
    every = list(args.every) + [1] * (len(args.playouts) - len(args.every))
    done = {
        p: {int(str(r["seed"])) for r in read_rows(rows_path(args.variant, args.players, p))}
        for p in args.playouts
    }
    RESULTS.mkdir(exist_ok=True)
    for seed in range(a, b + 1):
        for p, k in zip(args.playouts, every, strict=True):
            if (seed - a) % k or seed in done[p]:
                continue
            row = game(seed, args.variant, args.players, p)
            with rows_path(args.variant, args.players, p).open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)


def speed(args: argparse.Namespace) -> None:
    """The strong player's playouts per CPU second over whole games (the
    Python around them included), one JSON line per seed, then the total:
    two builds compared on the same games (the choices, so the playouts,
    are the same in both)."""
    spent = cpu = 0.0
    for seed in args.seeds:
        row = game(seed, args.variant, args.players, args.playouts)
        spent += float(str(row["playouts"]))
        cpu += float(str(row["cpu_seconds"]))
        rate = float(str(row["playouts"])) / float(str(row["cpu_seconds"]))
        print(json.dumps({**row, "playouts_per_cpu_second": round(rate)}), flush=True)
    print(json.dumps({"playouts": spent, "cpu_seconds": round(cpu, 3),
                      "playouts_per_cpu_second": round(spent / cpu)}))  # fmt: skip


def summary_line(rows: list[dict[str, object]]) -> str:
    n = len(rows)
    wins = sum(bool(r["won"]) for r in rows)
    base = sum(bool(r["default_won"]) for r in rows)
    only_strong = sum(bool(r["won"]) and not r["default_won"] for r in rows)
    only_base = sum(bool(r["default_won"]) and not r["won"] for r in rows)
    lo, hi = wilson(wins, n)
    blo, bhi = wilson(base, n)
    turns = sum(int(str(r["turns"])) for r in rows)
    cpu = sum(float(str(r["cpu_seconds"])) for r in rows)
    wall = sum(float(str(r["wall_seconds"])) for r in rows)
    playouts = sum(int(str(r["playouts"])) for r in rows)
    seeds = sorted(int(str(r["seed"])) for r in rows)
    left = sum(int(str(r["cards_left"])) for r in rows) / n
    base_left = sum(int(str(r["default_cards_left"])) for r in rows) / n
    # The paired difference of cards left (strong - default) and its 95% half-width.
    diffs = [int(str(r["cards_left"])) - int(str(r["default_cards_left"])) for r in rows]
    d = sum(diffs) / n
    sd = math.sqrt(sum((x - d) ** 2 for x in diffs) / (n - 1)) if n > 1 else math.inf
    half = Z * sd / math.sqrt(n)
    return (
        f"| {rows[0]['playouts_per_turn']} | {cpu / turns:.3f} | {seeds[0]}-{seeds[-1]} ({n}) "
        f"| {100 * wins / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) "
        f"| {100 * base / n:.1f}% ({100 * blo:.1f}-{100 * bhi:.1f}) "
        f"| +{only_strong} / -{only_base} | {left:.2f} / {base_left:.2f} ({d:+.2f} ± {half:.2f}) "
        f"| {playouts / turns:.0f} | {cpu / n:.1f} | {wall / n:.1f} |"
    )


def report(args: argparse.Namespace) -> None:
    paths = sorted(RESULTS.glob(f"strong-{args.variant}-{args.players}p-*.jsonl"),
                   key=lambda p: int(p.stem.rsplit("-", 1)[1]))  # fmt: skip
    solo_classic = (args.variant, args.players) == ("classic", 1)
    header = HEADER if solo_classic else f"{HEADER}: {args.variant}, {args.players} players"
    lines = [
        header,
        "",
        f"Commands: `{args.play_command}`, then "
        f"`python benchmarks/strong.py {shlex.join(sys.argv[1:])}`",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; {args.machine_note} The budget is in playouts, the "
        "CPU seconds are measured (both threads of the playouts).",
        "",
        f"{args.variant}, {args.players} player(s), player 1 first. Per budget the seeds "
        "played (every seed of the range, or every k-th), the strong player's win rate "
        "and the default policy's on the same seeds (95% Wilson intervals), the paired "
        "count of games only the strong player won / only the default won, the mean cards "
        "left (strong / default, and their paired difference with its 95% interval), the "
        "playouts actually spent per turn (fewer than the "
        "budget: turns with one way to finish, or nothing hidden), CPU seconds per turn "
        "and per game, wall seconds per game.",
        "",
        "| playouts a turn | CPU s a turn | seeds (games) | strong wins | default wins "
        "| paired +/- | cards left | playouts spent a turn | CPU s a game | wall s a game |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        rows = read_rows(path)
        if rows:
            lines.append(summary_line(rows))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if not args.no_write:
        write_section(ROOT / "RESULTS.md", header, text)


def survey_rows(args: argparse.Namespace) -> None:
    """Store the games of one budget as the survey's strong rows in ``--db``:
    they are the very games ``thegame survey blind --level strong --playouts N
    --sample-seed 0`` plays (the same player, seed and budget, player 1 first;
    ``tests/survey/test_survey_strong.py`` checks the survey's game is
    deterministic), so the report's strong column can show them without
    playing them twice."""
    from thegame import __version__
    from thegame.survey.store import Store

    store = Store(args.db, create=False)
    count = 0
    for r in read_rows(rows_path(args.variant, args.players, args.playouts)):
        store.put_strong({
            "variant": args.variant, "players": args.players, "seed": r["seed"],
            "playouts": args.playouts, "turn_time": 0.0, "sample_seed": 0,
            "won": int(bool(r["won"])), "cards_left": r["cards_left"], "turns": r["turns"],
            "playouts_spent": r["playouts"], "seconds": r["wall_seconds"],
            "version": __version__,
        })  # fmt: skip
        count += 1
    store.close()
    print(f"{count} strong rows stored in {args.db}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--playouts", type=int, nargs="+", required=True)
    p.add_argument("--every", type=int, nargs="*", default=[])
    p.add_argument("--seeds", default="1-2000")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=1)
    r = sub.add_parser("report")
    r.add_argument("--variant", default="classic")
    r.add_argument("--players", type=int, default=1)
    r.add_argument("--no-write", action="store_true")
    r.add_argument(
        "--play-command",
        default="python benchmarks/strong.py play ...",
        help="the play command(s) that made the rows, for the record",
    )
    r.add_argument("--machine-note", default="", help="how busy the machine was, for the record")
    s = sub.add_parser("speed")
    s.add_argument("--seeds", type=int, nargs="+", default=[30, 40, 50])
    s.add_argument("--playouts", type=int, default=200)
    s.add_argument("--variant", default="classic")
    s.add_argument("--players", type=int, default=1)
    v = sub.add_parser("survey-rows")
    v.add_argument("--db", required=True)
    v.add_argument("--playouts", type=int, required=True)
    v.add_argument("--variant", default="classic")
    v.add_argument("--players", type=int, default=1)
    args = parser.parse_args()
    if args.cmd == "play":
        play(args)
    elif args.cmd == "survey-rows":
        survey_rows(args)
    elif args.cmd == "speed":
        speed(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
