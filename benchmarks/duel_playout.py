"""How fast the duel engine's playouts are: the compiled playout
(``_cduel.Game.playout``) against its Python reference
(``DuelEngine._playout_python`` over the compiled expansion).

Usage (from the repository root):

    python benchmarks/duel_playout.py playout --seeds 1-5 --draws 10
    python benchmarks/duel_playout.py engine --seeds 1-3 --seconds 2
    python benchmarks/duel_playout.py probes --seeds 1-4 --settings at-once:1 wait:1 wait:0.25

``playout``: from every fifth turn start of each seed's policy duel (player
1 first), ``--draws`` playouts each way from the same SplitMix64 states;
CPU milliseconds a playout (``time.process_time``) and the ratio. The two
ways play the same playouts (``tests/the_game/duel/test_cplayout.py``).

``engine``: ``engine_answer`` for ``--seconds`` of wall time at the first
turn start and those a third and two thirds of the way through each seed's
policy duel, once with the compiled playout and once with the Python loop
(a fresh engine each time); the playouts each made in the same time.

Each line also says how many proof-number probes the engine ran, how many
proved their node and the seconds they took; with ``--probes-wait`` they
wait for a proven position (``DuelEngine.probe_waits``).

``probes``: ``analyze`` of each seed's policy duel at its default 1 s a turn
start under each of ``--settings`` in turn (``at-once`` or ``wait``: whether
the engine's probes wait for a proven position, ``DuelEngine.probe_waits``;
after the colon ``PROBE_SHARE``, the probe's proof-number visits per visit
of its node): the turn starts proven and the mean playouts of an estimated
turn start.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from duel_policy import policy_game

from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import engine_answer, engine_for
from thegame.solver.the_game.duel.engine import DuelEngine, Node
from thegame.solver.the_game.duel.position import DuelGame, Pos


def starts(seed: int) -> list[GameState]:
    return policy_game(GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=1)))


def playout_speed(seeds: range, draws: int) -> None:
    spent = {"compiled": 0.0, "python": 0.0}
    n = turns = 0
    for seed in seeds:
        all_starts = starts(seed)
        game = DuelGame.of(all_starts[0].deal)
        engine = DuelEngine(game)
        c = engine.compiled
        if c is None:
            raise SystemExit("the _cduel extension is not built")
        for state in all_starts[::5]:
            pos = game.from_state(state)
            for draw in range(draws):
                t = time.process_time()
                _winner, _state, k = c.playout(pos, {}, draw)
                spent["compiled"] += time.process_time() - t
                engine.rng.state = draw
                t = time.process_time()
                engine._playout_python(pos, c.expand)
                spent["python"] += time.process_time() - t
                n += 1
                turns += k
    each = {k: 1000 * v / n for k, v in spent.items()}
    print(f"{n} playouts, {turns / n:.1f} turns each")
    print(f"compiled {each['compiled']:.2f} ms, Python loop {each['python']:.2f} ms a playout")
    print(f"ratio {spent['python'] / spent['compiled']:.2f}")


def engine_speed(seeds: range, seconds: float, wait: bool) -> None:
    DuelEngine.probe_waits = wait
    made = {"compiled": 0, "python": 0}
    for seed in seeds:
        all_starts = starts(seed)
        k = len(all_starts)
        for state in (all_starts[0], all_starts[k // 3], all_starts[2 * k // 3]):
            row = []
            for way in made:
                engine = engine_for(state.deal)
                c = engine.compiled
                if c is None:
                    raise SystemExit("the _cduel extension is not built")
                if way == "python":
                    loop = engine._playout_python
                    engine._playout = lambda pos, loop=loop, c=c: loop(pos, c.expand)[0]  # type: ignore[method-assign]
                probe_seconds = [0.0]
                run_probe = engine._probe

                def timed(
                    pos: Pos, node: Node, run: Any = run_probe, acc: Any = probe_seconds
                ) -> None:
                    t0 = time.monotonic()
                    run(pos, node)
                    acc[0] += time.monotonic() - t0

                engine._probe = timed  # type: ignore[method-assign]
                res = engine_answer(state, Limit(seconds), engine)
                got = res.estimate.playouts if res.estimate is not None else 0
                made[way] += got
                s = engine.stats
                row.append(
                    f"{got} playouts, {s.probes} probes ({s.probe_proofs} proved, "
                    f"{probe_seconds[0]:.2f} s)"
                )
            print(f"seed {seed}, turn {state.turn + 1}: compiled {row[0]}; Python loop {row[1]}")
    print(
        f"playouts in {seconds:g} s a position: compiled {made['compiled']:,}, "
        f"Python loop {made['python']:,} (ratio {made['compiled'] / max(1, made['python']):.2f})"
    )


def probe_settings(seeds: range, settings: list[str]) -> None:
    from duel_policy import policy_turns

    from thegame.analysis.the_game.duel import analyze_duel
    from thegame.models.the_game import Record
    from thegame.solver.the_game.duel import engine as engine_module

    print("| seed | turns | probes | share | turn starts proven | mean playouts | seconds |")
    print("|---|---|---|---|---|---|---|")
    for seed in seeds:
        deal = Deal.from_seed(seed, get_rules("face-to-face"), first=1)
        record = Record(deal, tuple(turn for _start, turn in policy_turns(GameState(deal))))
        for setting in settings:
            when, _, share = setting.partition(":")
            DuelEngine.probe_waits = when == "wait"
            engine_module.PROBE_SHARE = float(share or 1.0)
            t0 = time.monotonic()
            review = analyze_duel(record).to_dict()["review"]
            proven = sum(1 for r in review if r["proven_before"])
            counts = [r["playouts"] for r in review if r["playouts"]]
            mean = sum(counts) / max(1, len(counts))
            print(
                f"| {seed} | {len(review)} | {when} | {engine_module.PROBE_SHARE:g} | {proven} | "
                f"{mean:.1f} | {time.monotonic() - t0:.1f} |",
                flush=True,
            )


def _range(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("playout", "engine", "probes"))
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--draws", type=int, default=10, help="playout: playouts each way a position")
    ap.add_argument("--seconds", type=float, default=2.0, help="engine: time a position")
    ap.add_argument("--probes-wait", action="store_true", help="engine: probe_waits on")
    ap.add_argument("--settings", nargs="+", default=["at-once:1", "wait:1"], help="probes")
    args = ap.parse_args()
    if args.what == "playout":
        playout_speed(_range(args.seeds), args.draws)
    elif args.what == "probes":
        probe_settings(_range(args.seeds), args.settings)
    else:
        engine_speed(_range(args.seeds), args.seconds, args.probes_wait)


if __name__ == "__main__":
    main()
