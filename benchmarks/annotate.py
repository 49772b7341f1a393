"""Benchmark and calibrate the annotated review (``thegame analyze``).

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/annotate.py --seeds 500-519 --samples 200

For each seed (solo classic, player 1 starts) the blind policy plays the
game, except at one turn (drawn from the seed) where a random legal play
replaces the policy's first play of the turn. The whole game is then
reviewed as ``thegame analyze`` does (the fair review with ``--samples``
samples per turn, and hindsight at 1 s per searched position), on one core.
Reported: the review's time per game (the issue's target: a 40-turn game in
at most 10 s), the drop measured at the swapped play (win chance lost,
expected cards gained) and its mark, and the marks anywhere else (there
should be none: every other action is the policy's own). The results go to
the "## Annotated review" section of benchmarks/RESULTS.md unless
``--no-write``.
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

from thegame.analysis.the_game.annotate import (
    REVIEW_BUDGET,
    REVIEW_PLAYOUTS_TOTAL,
    annotate_record,
)
from thegame.analysis.the_game.blind import choose_turn
from thegame.analysis.the_game.rollout import backend
from thegame.analysis.the_game.strong import Level
from thegame.models.outcome import Limit
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, get_rules

ROOT = Path(__file__).resolve().parent
HEADER = "## Annotated review"


def swapped_game(seed: int) -> tuple[Record, tuple[int, int]]:
    """The blind policy's game with one random play swapped in."""
    deal = Deal.from_seed(seed, get_rules("classic"), 1)
    rng = random.Random(seed)
    state = GameState(deal, first=1)
    turns: list[Turn] = []
    at = rng.randrange(2, 20)
    spot = (-1, -1)
    while not state.over:
        plays = choose_turn(state)
        if len(turns) == at and plays:
            options = [p for p in state.legal_plays() if p != plays[0]]
            if options:
                pick: Play = rng.choice(options)
                after = state.copy()
                after.play(pick.card, pick.pile)
                rest = [] if after.over else choose_turn(after)
                plays = [pick, *rest]
                spot = (len(turns), 0)
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if state.over or not state.can_end_turn():
            break
        state.end_turn()
    return Record(deal, tuple(turns)), spot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="500-519")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--level", choices=[str(v) for v in Level], default=str(Level.DEFAULT),
                    help="who names the better action (strong: the review's default)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    level = Level(args.level)
    header = HEADER if level is Level.DEFAULT else f"{HEADER}: the strong better action"
    lo, hi = (int(x) for x in args.seeds.split("-"))
    rows = []
    cpus: list[float] = []
    for seed in range(lo, hi + 1):
        record, spot = swapped_game(seed)
        start = time.perf_counter()
        cpu = time.process_time()
        review = annotate_record(record, args.samples, seed=0, hindsight=Limit(1.0), level=level)
        secs = time.perf_counter() - start
        cpus.append(time.process_time() - cpu)
        at = next((a for a in review.annotations if (a.turn, a.play) == spot), None)
        others = [a.mark for a in review.annotations if a.mark and (a.turn, a.play) != spot]
        drop = at.drop if at is not None else None
        rows.append((seed, len(record.turns), secs, drop, at.mark if at else "", others))
        d = "-" if drop is None else f"{100 * drop.win:+.1f} pts, {drop.left:+.2f} cards"
        print(f"seed {seed}: {len(record.turns)} turns, {secs:.2f} s, swap {spot}: {d} "
              f"{at.mark if at else ''} others {others}", flush=True)  # fmt: skip
    secs = [r[2] for r in rows]
    drops = [r[3] for r in rows if r[3] is not None]
    marks = [r[4] for r in rows if r[3] is not None]
    text = [
        header,
        "",
        f"Command: `python benchmarks/annotate.py {shlex.join(sys.argv[1:])}`; "
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"rollouts: {backend()}, one process.",
        "",
        f"- games: {len(rows)} (seeds {args.seeds}), turns per game: median "
        f"{statistics.median(r[1] for r in rows):.0f}, max {max(r[1] for r in rows)}",
        f"- review time per game ({args.samples} samples per turn, hindsight 1 s per searched "
        f"position, 6 s in all): median {statistics.median(secs):.1f} s, max {max(secs):.1f} s "
        f"wall; CPU median {statistics.median(cpus):.1f} s, max {max(cpus):.1f} s",
        f"- the swapped play: win chance lost median "
        f"{100 * statistics.median(d.win for d in drops):.1f} points, expected cards gained "
        f"median {statistics.median(d.left for d in drops):.2f}; marks: "
        + ", ".join(f"{m or 'none'} {marks.count(m)}" for m in ("??", "?", "?!", "")),
        f"- marks on any other action (all the policy's own): "
        f"{sum(len(r[5]) for r in rows)} ("
        + ", ".join(f"{m} {sum(r[5].count(m) for r in rows)}" for m in ("??", "?", "?!"))
        + ")",
        f"- better action: {level} "
        + ("(the blind policy)" if level is Level.DEFAULT else
           f"(the strong blind player, {REVIEW_BUDGET.nodes} playouts a choice, "
           f"{REVIEW_PLAYOUTS_TOTAL} a review)"),
        "",
    ]
    print("\n".join(text))
    if not args.no_write:
        path = ROOT / "RESULTS.md"
        body = path.read_text()
        if "\n" + header + "\n" in body:
            head, _, rest = body.partition("\n" + header + "\n")
            head += "\n"
            nxt = rest.find("\n## ")
            body = head + "\n".join(text) + (rest[nxt:] if nxt >= 0 else "\n")
        else:
            body = body.rstrip("\n") + "\n\n" + "\n".join(text)
        path.write_text(body)


if __name__ == "__main__":
    main()
