"""How many hindsight figures the review proves at its default budget.

Usage (from the repository root):

    python benchmarks/hindsight_proven.py

Records, all solo classic: the blind policy's games of seeds 500-502 with
one random play swapped in (a fatal play, where it costs), the first 10, 20
and 30 turns of the solver's winning lines of seeds 3-5, and the blind
policy's own lost game of seed 7. Each is analysed as ``thegame analyze``
does by default (1 s a position, 6 s for the whole hindsight column); a
figure (a point of the curve: before the first action and after each) is
proven when the best line found reaches the proven lower bound. Prints a
row a record and the share proven over all of them.
"""

from __future__ import annotations

import random
import time

from thegame.analysis.the_game.annotate import HINDSIGHT_LIMIT
from thegame.analysis.the_game.blind import choose_turn
from thegame.analysis.the_game.review import analyze_record
from thegame.models.outcome import Limit
from thegame.models.the_game import Deal, GameState, Record, Turn, get_rules
from thegame.solver.the_game.api import solve

PER_POSITION = Limit(1.0)  # analyze's default --time-limit


def policy_game(seed: int, swap: bool) -> Record:
    """The blind policy's game; with ``swap``, one random legal play (at a
    turn drawn from the seed) replaces the policy's first play of the turn."""
    deal = Deal.from_seed(seed, get_rules("classic"), 1)
    rng = random.Random(seed)
    at = rng.randrange(2, 20) if swap else -1
    state = GameState(deal, first=1)
    turns: list[Turn] = []
    while not state.over:
        plays = choose_turn(state)
        if len(turns) == at:
            options = [p for p in state.legal_plays() if not plays or p != plays[0]]
            if options:
                pick = rng.choice(options)
                after = state.copy()
                after.play(pick.card, pick.pile)
                plays = [pick, *([] if after.over else choose_turn(after))]
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if state.over or not state.can_end_turn():
            break
        state.end_turn()
    return Record(deal, tuple(turns))


def records() -> list[tuple[str, Record]]:
    out = [(f"seed {s}, one play swapped", policy_game(s, True)) for s in (500, 501, 502)]
    for seed, turns in ((3, 10), (4, 20), (5, 30)):
        line = solve(Deal.from_seed(seed, get_rules("classic"), 1), Limit(10)).record()
        out.append((f"seed {seed}, first {turns} turns of a win",
                    Record(line.deal, line.turns[:turns])))  # fmt: skip
    out.append(("seed 7, the policy's lost game", policy_game(7, False)))
    return out


def main() -> None:
    proven_all = points_all = 0
    for name, record in records():
        start = time.monotonic()
        analysis = analyze_record(record, PER_POSITION, total=HINDSIGHT_LIMIT)
        proven, points = analysis.proven_share
        proven_all += proven
        points_all += points
        print(f"{name:36} {analysis.status:12} {analysis.result:3} left  "
              f"{proven:4}/{points:<4} proven  {time.monotonic() - start:5.1f} s")  # fmt: skip
    share = 100 * proven_all / points_all
    print(f"all: {proven_all} of {points_all} figures proven ({share:.1f}%)")


if __name__ == "__main__":
    main()
