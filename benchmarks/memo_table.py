"""A loss proof in less memory than it needs: the compiled search's full
memo replaces entries and the proof goes on, at the cost of re-search.

Usage (from a checkout with the extensions built in place)::

    PYTHONPATH=TREE python benchmarks/memo_table.py --high 90 --hand 7 --min-play 3 --seed 2
    PYTHONPATH=TREE python benchmarks/memo_table.py --high 90 --hand 7 --min-play 3 --seed 2 \
        --memory 64,32,16 --needs 256

The deal: a generalised solo deal of the classic rules (C10), cards 2 to
``--high``, one pile each way, hand ``--hand``, ``--min-play`` cards a
turn, its deck shuffled by ``random.Random(seed)`` (as the loss-argument
benchmark's sets); the one above is lost, with a proof of some 17 million
nodes. The complete decision search (``ckernel.search``, solo: the turn
beams, then the play-level search) runs first with memory doubling from
16 MiB until no table entry is put out: the memory the proof needs, N.
Then, with each ``--memory`` in MiB (default N/4 and N/8), the same search
again (``--needs N``: no sweep, N as measured before): its verdict and
cards left (which must be the same), the nodes and seconds beyond the
roomy run's, and how many entries the full tables put out. Node counts
are exact; seconds are the process's CPU seconds (a shared machine's load
moves them less than the clock; give it, ``uptime``, beside them).
docs/c-kernels.md has the figures.
"""

from __future__ import annotations

import argparse
import random
import time

from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.kernel import Kernel


def reduced_deal(high: int, hand: int, min_play: int, seed: int) -> Deal:
    """Cards 2..high, one pile each way, solo (module notes)."""
    rules = get_rules("classic").with_changes(
        high=high, hand_sizes=(hand,) * 5, min_play=min_play, asc_piles=1, desc_piles=1
    )
    deck = list(rules.cards)
    random.Random(seed).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


def run(deal: Deal, memory: int) -> dict[str, object]:
    """One complete search with ``memory`` MiB of tables."""
    start = time.process_time()
    res, dead = ckernel.search(Kernel.from_state(GameState(deal)), Limit(memory=memory), None)
    verdict = "win" if res.win else "loss" if res.proven else "unknown"
    return {
        "memory": memory,
        "verdict": verdict,
        "cards_left": res.best_left,
        "nodes": res.stats.nodes,
        "seconds": time.process_time() - start,
        "replaced": getattr(dead, "replaced", 0),
    }


def show(row: dict[str, object], base: dict[str, object] | None) -> None:
    extra = ""
    if base is not None:
        nodes, seconds = int(row["nodes"]), float(row["seconds"])  # type: ignore[call-overload, arg-type]
        b_nodes, b_seconds = int(base["nodes"]), float(base["seconds"])  # type: ignore[call-overload, arg-type]
        extra = f", {nodes / b_nodes - 1:+.1%} nodes, {seconds / b_seconds - 1:+.1%} CPU seconds"
    print(
        f"{row['memory']:>6,} MiB: {row['verdict']}, {row['cards_left']} left, "
        f"{row['nodes']:,} nodes, {row['seconds']:.1f} CPU s, {row['replaced']:,} put out{extra}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--high", type=int, default=90)
    ap.add_argument("--hand", type=int, default=7)
    ap.add_argument("--min-play", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--memory", help="MiB, comma-separated (default: N/4 and N/8)")
    ap.add_argument("--needs", type=int, help="N in MiB, measured before: no sweep")
    args = ap.parse_args(argv)
    deal = reduced_deal(args.high, args.hand, args.min_play, args.seed)
    print(f"cards 2..{args.high}, hand {args.hand}, minimum {args.min_play}, seed {args.seed}")
    memory = args.needs or 16
    while True:
        base = run(deal, memory)
        show(base, None)
        if base["replaced"] == 0 or args.needs:
            break
        memory *= 2
    print(f"the proof needs {memory:,} MiB (nothing put out)")
    tight = [memory // 4, memory // 8]
    if args.memory:
        tight = [int(m) for m in args.memory.split(",")]
    for m in tight:
        row = run(deal, m)
        show(row, base)
        if (row["verdict"], row["cards_left"]) != (base["verdict"], base["cards_left"]):
            raise SystemExit(f"{m} MiB: not the roomy run's answer")


if __name__ == "__main__":
    main()
