"""The WebAssembly search core against the Python extension: the module's
size, nodes a second of each on the same searches (the same nodes: the
two are checked equal), and the verdict time a page waits after each turn
of a month of dailies (along each solution, and after random turns).

    python benchmarks/wasm_core.py [--month 2026-12] [--nodes 2000000]

Needs Node (``node``) and the built extension; prints one line a figure.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from thegame.models.the_game import Deal, Record, Turn, get_rules
from thegame.models.the_game.record import replayed
from thegame.puzzles.the_game.daily import daily
from thegame.solver.the_game.webcore import kernel_config, page_turns, position_answer

ROOT = Path(__file__).resolve().parents[1]
WASM = ROOT / "thegame" / "web" / "solver.wasm"
HARNESS = ROOT / "tests" / "support" / "wasm_solve.js"


def run_node(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    job = json.dumps({"wasm": str(WASM), "cases": cases})
    out = subprocess.run(["node", str(HARNESS)], input=job, capture_output=True, text=True)
    out.check_returncode()
    answers: list[dict[str, Any]] = json.loads(out.stdout)
    return answers


def speed(nodes: int) -> None:
    """Nodes a second on searches that run to the node limit or decide."""
    deals = [Deal.from_seed(s, get_rules("profi-hard"), 1, 1) for s in (108, 526, 817)]
    deals += [Deal.from_seed(s, get_rules("classic"), 3, 1) for s in (1, 2)]
    cases = [
        {"config": kernel_config(d), "turns": [], "options": {"nodeLimit": nodes}} for d in deals
    ]
    t = time.perf_counter()
    py = [position_answer(d, [], nodes) for d in deals]
    py_s = time.perf_counter() - t
    answers = run_node(cases)
    wasm_s = sum(a["ms"] for a in answers) / 1000
    total = sum(a["nodes"] for a in answers)
    assert [a["nodes"] for a in answers] == [p["nodes"] for p in py], "not node for node"
    print(f"searches: {len(deals)}, nodes: {total:,} (equal in both)")
    print(f"python extension: {total / py_s:,.0f} nodes/s ({py_s:.2f} s)")
    print(f"wasm under node {_node_version()}: {total / wasm_s:,.0f} nodes/s ({wasm_s:.2f} s)")


def strayed(deal: Deal, turns: list[Turn], rng: random.Random) -> list[Turn] | None:
    """One random legal turn more (None: the game is over, or a dead end)."""
    state = replayed(Record(deal, tuple(turns)))
    plays = []
    while not state.over:
        legal = state.legal_plays()
        if state.can_end_turn() and (not legal or rng.random() < 0.5):
            return [*turns, Turn(state.current + 1, tuple(plays))]
        if not legal:
            return None
        play = rng.choice(legal)
        state.play(play.card, play.pile)
        plays.append(play)
    return None


def dailies(month: str, nodes: int) -> None:
    """The verdict time after each finished turn of each daily of a month:
    along the puzzle's solution, and along 4 random turns from its opening
    (a player who strays: mostly lost positions)."""
    first = dt.date.fromisoformat(month + "-01")
    days = [first + dt.timedelta(days=i) for i in range(31)]
    days = [d for d in days if d.month == first.month]
    rng = random.Random(7)
    along: list[dict[str, Any]] = []
    stray: list[dict[str, Any]] = []
    options = {"nodeLimit": nodes}
    for day in days:
        p = daily(day)
        config = kernel_config(p.deal)
        for i in range(len(p.solution)):
            turns = page_turns(p.deal, list(p.position) + list(p.solution[:i]))
            along.append({"config": config, "turns": turns, "options": options})
        walk: list[Turn] | None = list(p.position)
        for _ in range(4):
            walk = strayed(p.deal, walk, rng)
            if walk is None:
                break
            stray.append({"config": config, "turns": page_turns(p.deal, walk), "options": options})
    for name, cases in (("along the solutions", along), ("after random turns", stray)):
        answers = run_node(cases)
        ms = sorted(a["ms"] for a in answers)
        verdicts = {v: sum(a["verdict"] == v for a in answers) for v in ("win", "loss", "unknown")}
        print(f"dailies {month} {name}: {len(days)} days, {len(cases)} positions, {verdicts}")
        print(
            f"  verdict ms: median {statistics.median(ms):.1f}, "
            f"95% {ms[int(0.95 * len(ms))]:.1f}, max {ms[-1]:.1f}"
        )


def _node_version() -> str:
    return subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--month", default="2026-12")
    ap.add_argument("--nodes", type=int, default=2_000_000)
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or platform.system()}")
    print(f"solver.wasm: {WASM.stat().st_size:,} bytes")
    speed(args.nodes)
    dailies(args.month, args.nodes)


if __name__ == "__main__":
    main()
