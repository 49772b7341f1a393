"""Does the starting player of Face to Face have the edge? Two measures.

Usage (from the repository root; one process, as the machine is shared):

    nice -n 10 python benchmarks/duel_edge.py self --seeds 1001-1500 --seconds 0.03 \
        --out /tmp/duel-edge-self.jsonl
    nice -n 10 python benchmarks/duel_edge.py exact --high 9-17 --seeds 1-100 --time-limit 60 \
        --out /tmp/duel-edge-exact.jsonl
    python benchmarks/duel_edge.py summary /tmp/duel-edge-self.jsonl /tmp/duel-edge-exact.jsonl

``self``: the duel engine on both seats of each printed duel (rules D1-D6),
an engine a seat with its own tree (``duel.api.engine_for``), both given the
same ``--seconds`` of wall time a decision (``engine_answer``; both seats
run in this one process, so a busy machine slows both alike). Each seed is
played from each start. A row per duel: the winner, the turns, each seat's
mean playouts a decision (how equal the thinking was in fact), and the
first turn at which an engine's answer was a proof (``proven_at``).

``exact``: the printed rules with each deck cut to its lowest cards, 2..H
for each H of ``--high`` (rule D7; hand 6, at least 2 cards a turn), every
seed from each start decided by the complete search (``duel.api.decide``,
a fresh search a deal, ``--time-limit`` seconds and ``--node-limit`` nodes
each). A row per deal: the verdict from the starter's view and the winner.

``summary``: the starter's share of wins with its 95% Wilson interval (for
``exact``, of the decided deals, with the bounds the undecided ones leave),
and how often the same player won from both starts, as markdown (``self``:
the seeds played from both starts only).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from thegame.models import Limit
from thegame.models.seeds import SplitMix64
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import decide, engine_answer, engine_for
from thegame.survey.report import wilson


def seeds_of(spec: str) -> range:
    """``A-B`` (or ``A``) as a range."""
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def self_play(seed: int, first: int, seconds: float | None, playouts: int | None) -> dict[str, Any]:
    """One printed duel, the engine on both seats, ``seconds`` or ``playouts``
    a decision."""
    state = GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=first))
    engines = [engine_for(state.deal), engine_for(state.deal)]
    for k, e in enumerate(engines):
        e.rng = SplitMix64(seed * 4 + first * 2 + k)
    decisions = [0, 0]
    made = [0, 0]
    proven_at: int | None = None
    turns = 0
    t0 = time.process_time()
    while not state.over:
        seat = state.current
        res = engine_answer(state, Limit(seconds), engines[seat], playouts=playouts)
        decisions[seat] += 1
        if res.estimate is not None:
            made[seat] += res.estimate.playouts
            turn = res.estimate.turn
        else:
            proven_at = turns + 1 if proven_at is None else proven_at
            turn = res.turns[0] if res.turns else None
        if turn is None:
            break  # no legal turn: the rules engine has ended the duel already
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
        turns += 1
    return {
        "kind": "self",
        "seed": seed,
        "first": first,
        "budget": f"{seconds:g} s" if seconds is not None else f"{playouts} playouts",
        "winner": state.winner,
        "turns": turns,
        "proven_at": proven_at,
        "playouts": [round(p / max(1, d), 1) for p, d in zip(made, decisions, strict=True)],
        "decisions": decisions,
        "cpu": round(time.process_time() - t0, 2),
    }


def exact(seed: int, first: int, high: int, limit: Limit) -> dict[str, Any]:
    """One reduced duel (cards 2..high, hand 6) decided by the complete search."""
    rules = get_rules("face-to-face").with_changes(high=high)  # rule D7
    deal = Deal.from_seed(seed, rules, first=first)
    t0 = time.process_time()
    res = decide(GameState(deal), limit)
    return {
        "kind": "exact",
        "seed": seed,
        "first": first,
        "high": high,
        "verdict": str(res.verdict),
        "winner": res.winner,
        "nodes": res.nodes,
        "cpu": round(time.process_time() - t0, 3),
    }


def write_rows(rows: Iterable[dict[str, Any]], out: Path) -> None:
    """Each row to ``out`` as it comes (an interrupted run keeps its rows)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "a") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
            fh.flush()


def self_rows(
    seeds: range, seconds: float | None, playouts: int | None, minutes: float | None
) -> Iterator[dict[str, Any]]:
    t0 = time.monotonic()
    for seed in seeds:
        if minutes is not None and time.monotonic() - t0 > minutes * 60:
            return  # a seed's pair of duels is never cut in half
        for first in (1, 2):
            yield self_play(seed, first, seconds, playouts)


def exact_rows(highs: range, seeds: range, limit: Limit) -> Iterator[dict[str, Any]]:
    for high in highs:
        for seed in seeds:
            for first in (1, 2):
                yield exact(seed, first, high, limit)


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k} ({k / max(1, n):.1%}) | {lo:.1%}-{hi:.1%}"


def same_winner(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """Seeds whose two starts both have a winner, and how many of them the
    same player won from both."""
    by_seed: dict[int, list[Any]] = {}
    for r in rows:
        if r["winner"] is not None:
            by_seed.setdefault(r["seed"], []).append(r["winner"])
    pairs = [w for w in by_seed.values() if len(w) == 2]
    return len(pairs), sum(w[0] == w[1] for w in pairs)


def self_summary(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| thinking a decision | duels (seeds x start) | starter wins | 95% interval "
           "| same winner from both starts | playouts a decision (starter, other) |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    for budget in sorted({r["budget"] for r in rows}):
        part = [r for r in rows if r["budget"] == budget]
        n = len(part)
        k = sum(r["winner"] == r["first"] for r in part)
        pairs, same = same_winner(part)
        mine = sum(r["playouts"][r["first"] - 1] for r in part) / max(1, n)
        theirs = sum(r["playouts"][2 - r["first"]] for r in part) / max(1, n)
        seeds = sorted({r["seed"] for r in part})
        cpu = sum(r["cpu"] for r in part) / max(1, sum(sum(r["decisions"]) for r in part))
        head = f"| {budget} ({1000 * cpu:.0f} ms CPU) | {n} (seeds {seeds[0]}-{seeds[-1]}) "
        out.append(head + f"| {share(k, n)} | {same} of {pairs} seeds | {mine:.0f}, {theirs:.0f} |")
    cpu = sum(r["cpu"] for r in rows)
    proven = sorted(r["turns"] - r["proven_at"] + 1 for r in rows if r["proven_at"])
    out.append(f"\nCPU: {cpu / 60:.1f} min for {len(rows)} duels.")
    if proven:
        out.append(f"An engine's answer was first a proof a median {proven[len(proven) // 2]} "
                   f"turns before the end ({len(proven)} of {len(rows)} duels).")  # fmt: skip
    return out


def exact_summary(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| decks | cards each | deals | decided | starter wins (of decided) | 95% interval "
           "| bounds with the undecided | same winner from both starts | median / max CPU s |",
           "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for high in sorted({r["high"] for r in rows}):
        part = [r for r in rows if r["high"] == high]
        n = len(part)
        done = [r for r in part if r["verdict"] != "unknown"]
        k = sum(r["winner"] == r["first"] for r in done)
        pairs, same = same_winner(part)
        cpu = sorted(r["cpu"] for r in part)
        bounds = f"{k / n:.1%}-{(k + n - len(done)) / n:.1%}"
        seeds = sorted({r["seed"] for r in part})
        out.append(f"| 2..{high} | {high - 1} | {n} (seeds {seeds[0]}-{seeds[-1]}) | {len(done)} "
                   f"| {share(k, len(done))} | {bounds} | {same} of {pairs} seeds "
                   f"| {cpu[len(cpu) // 2]:.2f} / {cpu[-1]:.2f} |")  # fmt: skip
    return out


def paired(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of seeds played from both starts (a run cut between a seed's
    two duels leaves one: dropped, so that each start counts alike)."""
    starts: dict[tuple[str, int], set[int]] = {}
    for r in rows:
        starts.setdefault((r["budget"], r["seed"]), set()).add(r["first"])
    return [r for r in rows if len(starts[r["budget"], r["seed"]]) == 2]


def summary(paths: list[Path]) -> str:
    rows = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line.strip()]
    text: list[str] = []
    selfs = paired([r for r in rows if r["kind"] == "self"])
    exacts = [r for r in rows if r["kind"] == "exact"]
    if selfs:
        text += ["The engine on both seats, printed duels:", "", *self_summary(selfs), ""]
    if exacts:
        text += ["Exact values, decks cut to their lowest cards:", "", *exact_summary(exacts)]
    return "\n".join(text)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("self", help="the engine on both seats")
    s.add_argument("--seeds", default="1001-1500")
    s.add_argument("--seconds", type=float, default=None, help="wall time a decision, each seat")
    s.add_argument("--playouts", type=int, default=None, help="playouts a decision, each seat")
    s.add_argument("--minutes", type=float, default=None, help="start no seed after this")
    s.add_argument("--out", type=Path, default=Path("/tmp/duel-edge-self.jsonl"))
    e = sub.add_parser("exact", help="reduced duels decided by the complete search")
    e.add_argument("--high", default="9-17", help="highest cards of the decks, a range")
    e.add_argument("--seeds", default="1-100")
    e.add_argument("--time-limit", type=float, default=60.0)
    e.add_argument("--node-limit", type=int, default=None)
    e.add_argument("--out", type=Path, default=Path("/tmp/duel-edge-exact.jsonl"))
    m = sub.add_parser("summary", help="the tables of earlier runs' rows")
    m.add_argument("files", nargs="+", type=Path)
    a = ap.parse_args(argv)
    if a.what == "self":
        if (a.seconds is None) == (a.playouts is None):
            ap.error("give --seconds or --playouts")
        write_rows(self_rows(seeds_of(a.seeds), a.seconds, a.playouts, a.minutes), a.out)
        print(summary([a.out]))
    elif a.what == "exact":
        limit = Limit(a.time_limit, a.node_limit)
        write_rows(exact_rows(seeds_of(a.high), seeds_of(a.seeds), limit), a.out)
        print(summary([a.out]))
    else:
        print(summary(a.files))


if __name__ == "__main__":
    sys.exit(main())
