"""Search on from a turn of the survey's stored best line; store a clear found.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/line_retry.py --seed 316 --players 3 --from-turn 11 \\
        --export findings/results.jsonl.gz --nodes 200000000 --db results.sqlite

A deal the survey leaves ``unknown`` keeps its best line (the fewest cards
left found). ``loss_arguments.py --horizon`` walks that line back from its
end and runs the complete search from each turn start, to see how far a
loss proof reaches; where that search finds a *clear* instead, the deal is
a win, and this script makes it a stored one: it keeps the first
``--from-turn`` - 1 turns of the stored line as played, solves on from there
with the library's ``solve_record`` (the search, then the whole line, kept
turns and all, replayed through the rules engine from the deal's start),
and prints the verdict. With ``--db`` a win is stored in the survey
database as the deal's row (``put_deal`` replaces only an ``unknown`` row);
its nodes and seconds are this search's, and ``findings/notes.md`` says
how the deal was decided. Anything but a win stores nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time

from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, get_rules
from thegame.models.the_game.record import Record, Turn
from thegame.solver.the_game.api import solve_record
from thegame.survey.store import Store
from thegame.survey.work import deal_row, line_turns


def stored_turns(
    path: str, variant: str, players: int, seed: int
) -> tuple[Deal, tuple[Turn, ...]]:
    """The deal and the turns of the best line an export keeps for it."""
    deal = Deal.from_seed(seed, get_rules(variant), players)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for text in f:
            row = json.loads(text)
            if (row.get("variant"), row.get("players"), row.get("seed")) != (
                variant,
                players,
                seed,
            ) or "deal" not in row:
                continue
            return deal, line_turns(deal.rules, row["deal"]["line"])
    raise SystemExit(f"no {variant} {players}-player row for seed {seed} in {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--variant", default="profi-hard")
    ap.add_argument("--from-turn", type=int, required=True, help="search from this turn's start")
    ap.add_argument("--export", default="findings/results.jsonl.gz", help="the stored lines")
    ap.add_argument("--nodes", type=int, default=200_000_000, help="the search's node budget")
    ap.add_argument("--db", help="store a win in this survey database")
    args = ap.parse_args(argv)
    deal, turns = stored_turns(args.export, args.variant, args.players, args.seed)
    record = Record(deal, turns[: args.from_turn - 1])
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    sol = solve_record(record, Limit(None, args.nodes))
    print(
        f"{args.variant} {args.players} players seed {args.seed} from turn {args.from_turn}: "
        f"{sol.verdict.value}, {sol.cards_left} cards left, {sol.nodes:,} nodes, "
        f"{time.perf_counter() - t0:.0f} s wall, {time.process_time() - cpu0:.0f} s CPU, "
        f"{len(sol.turns)} turns, player {sol.first} first",
        flush=True,
    )
    if sol.verdict is Verdict.WIN and args.db:
        store = Store(args.db, create=False)
        store.put_deal(deal_row(args.variant, args.players, args.seed, sol, None))
        store.close()
        print(f"stored in {args.db}")


if __name__ == "__main__":
    main()
