"""The split search (``parallel.solve_split``) on 1 and on more workers,
and resumed from its checkpoint, measured.

Usage (from the repository root):

    python benchmarks/split.py --seeds 1-4 --jobs 1,2 --unit-nodes 200000
    python benchmarks/split.py --seeds 1-4 --jobs 2 --share-bits 0 --no-beams
    python benchmarks/split.py --seeds 4 --resume-every 5 --unit-nodes 200000
    python benchmarks/split.py --variant profi-hard --seeds 108 --jobs 2 --time-limit 600
    python benchmarks/split.py --seeds 1-4 --jobs 1,2,4 --unit-nodes 200000 \
        --backend ray --address 127.0.0.1:6380

Without ``--variant`` the deals are generalised solo deals (rule C10)
built from ``random.Random(seed)``: cards 2..99, hand 7, three plays a
turn, one pile each way, step 10; most are lost in 0.5-3.5 million nodes,
which is what a proof's split is for. Each run prints the verdict, nodes,
wall and CPU seconds, nodes a second of wall time, and what each worker
did (units, nodes, seconds busy) and the bytes of proven positions the
workers sent one another (``--share-bits 0``: none, each worker alone
with its own table). ``--resume-every S`` runs each deal
uncut, then again in runs of S seconds each from one checkpoint until
decided, and prints the runs and the nodes of all of them against the
uncut run's. ``--no-beams``: the proof units only. ``--backend ray``: the
workers are Ray actors (``--address``: on that cluster, else a local Ray);
the summary line at the end adds up every deal per worker count.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from thegame.models import Backend, Limit, Verdict
from thegame.models.the_game import Deal, get_rules, small_rules
from thegame.solver.the_game.parallel import SHARE_BITS, UNIT_NODES, solve_split


def generalised(seed: int) -> Deal:
    rules = small_rules(high=99, hand=7, min_play=3)
    deck = list(rules.cards)
    random.Random(seed).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


def seeds_of(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def line(name: str, sol: object) -> str:
    from thegame.solver.the_game.solution import Solution

    assert isinstance(sol, Solution)
    split = sol.details["split"]
    wall = sol.seconds
    workers = "; ".join(
        f"{w['units']} units, {w['nodes']:,} nodes, {w['busy']:.1f} s busy"
        for w in split["workers"].values()
    )
    return (
        f"{name}: {sol.verdict}, {sol.nodes:,} nodes, {wall:.1f} s wall, "
        f"{split['cpu_seconds']:.1f} s CPU, {sol.nodes / max(wall, 1e-9):,.0f} nodes/s; "
        f"dead turn starts {split['dead_positions']:,} ({split['argument_cuts']:,} by the "
        f"loss arguments); {split['shared_bytes'] / 1e6:.1f} MB shared; workers: {workers}"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-4")
    ap.add_argument("--variant", help="a preset (profi-hard...) instead of the generalised deals")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--jobs", default="1,2", help="worker counts, comma-separated")
    ap.add_argument("--unit-nodes", type=int, default=UNIT_NODES)
    ap.add_argument("--time-limit", type=float)
    ap.add_argument("--resume-every", type=float, help="seconds a run, from one checkpoint")
    ap.add_argument("--no-beams", action="store_true")
    ap.add_argument("--share-bits", type=int, default=SHARE_BITS,
                    help="share proven positions of 2^(bits-1) nodes or more (0: none)")
    ap.add_argument("--backend", choices=[b.value for b in Backend], default="local")
    ap.add_argument("--address", help="--backend ray: the cluster")
    args = ap.parse_args(argv)
    backend = Backend(args.backend)
    totals: dict[int, list[float]] = {}  # workers -> [nodes, wall, cpu]
    beams = not args.no_beams
    for seed in seeds_of(args.seeds):
        if args.variant:
            deal = Deal.from_seed(seed, get_rules(args.variant), args.players)
            name = f"{args.variant} {args.players}p seed {seed}"
        else:
            deal = generalised(seed)
            name = f"generalised seed {seed}"
        limit = Limit(args.time_limit)
        if args.resume_every is None:
            for jobs in (int(j) for j in args.jobs.split(",")):
                sol = solve_split(
                    deal, limit, jobs, None, args.unit_nodes, beams, backend, args.address,
                    args.share_bits,
                )  # fmt: skip
                print(line(f"{name}, {jobs} worker(s)", sol), flush=True)
                t = totals.setdefault(jobs, [0, 0.0, 0.0])
                t[0] += sol.nodes
                t[1] += sol.seconds
                t[2] += sol.details["split"]["cpu_seconds"]
            continue
        whole = solve_split(deal, limit, 1, None, args.unit_nodes, beams)
        print(line(f"{name}, uncut", whole), flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "run.json")
            runs = 0
            t0 = time.monotonic()
            while True:
                runs += 1
                sol = solve_split(deal, Limit(args.resume_every), 1, path, args.unit_nodes, beams)
                if sol.verdict != Verdict.UNKNOWN:
                    break
            print(
                f"{name}, runs of {args.resume_every:g} s: {runs} runs, {sol.verdict}, "
                f"{sol.nodes:,} nodes ({sol.nodes / whole.nodes:.1%} of the uncut run's), "
                f"{time.monotonic() - t0:.1f} s",
                flush=True,
            )
    for jobs, (nodes, wall, cpu) in totals.items():
        base = totals[min(totals)]
        print(
            f"all deals, {jobs} worker(s): {int(nodes):,} nodes, {wall:.1f} s wall "
            f"(speed-up {base[1] / wall:.2f}), {cpu:.1f} s CPU", flush=True,
        )


if __name__ == "__main__":
    main()
