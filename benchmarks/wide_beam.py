"""One beam over whole turns of a given width from a deal's start, alone.

Usage (from the repository root):

    python benchmarks/wide_beam.py --seed 108 --players 1 --width 1048576
    python benchmarks/wide_beam.py --seed 753 --players 3 --width 16384 --branch 6

The solver's beams stop at 262,144 (solo) and 65,536 (several players);
this runs one wider beam from every start of a profi-hard deal (the
compiled search, beams only: no complete search after it) and prints
whether it clears, the cards its best line leaves, nodes, seconds and the
peak memory. ``--branch`` sets the plays tried at each step of a turn
(the solver's ``BRANCH``, or its broad beams' ``BROAD_BRANCH``). A clear
is replayed through the rules engine before it is printed.
"""

from __future__ import annotations

import argparse
import resource
import time

from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.beam import BRANCH, EXTRA, PER_PARENT
from thegame.solver.the_game.kernel import INF, Kernel
from thegame.solver.the_game.verify import replay_actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--variant", default="profi-hard")
    ap.add_argument("--width", type=int, default=1 << 20)
    ap.add_argument("--first", type=int, help="one start only (1-based)")
    ap.add_argument("--branch", type=int, default=BRANCH, help="plays tried at each step")
    args = ap.parse_args(argv)
    deal = Deal.from_seed(args.seed, get_rules(args.variant), args.players)
    firsts = [args.first] if args.first else deal.starting_players()
    for first in firsts:
        state = GameState(deal, first=first)
        k = Kernel.from_state(state)
        ck = ckernel.CKernel.of(k)
        mode = ckernel.FIRE if (k.players != 1 or k.fire) else ckernel.TURN
        t0 = time.perf_counter()
        win, _, actions, left, nodes, *_ = ck._search(
            mode, 1 << 62, None, None, (args.width,), args.branch, PER_PARENT, EXTRA,
            64 << 20, None, INF, True,
        )  # fmt: skip
        seconds = time.perf_counter() - t0
        if win:
            _, final = replay_actions(state, actions)
            left = final.cards_left()
            assert final.status == "won", final.status
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
        print(
            f"{args.variant} {args.players}p seed {args.seed} start {first} width {args.width} "
            f"branch {args.branch}: "
            f"{'win' if win else 'no clear'}, best {left} left, {nodes:,} nodes, "
            f"{seconds:.0f} s, peak {peak:,} MiB",
            flush=True,
        )
        if win:
            return


if __name__ == "__main__":
    main()
