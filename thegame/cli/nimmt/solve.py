"""``thegame nimmt solve``: the exact best response of one player to the
others' recorded cards."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import click

from ...models.outcome import Limit
from ...models.words import plural
from ...solver.nimmt.problem import problem_from_record
from ...solver.nimmt.search import BudgetExceeded, Move, Searcher, line_heads
from ..common import out, print_json, searching, user_errors
from ..options import json_option, limit_options, record_argument
from .options import PLAYER_OPTION, ROUND_OPTION, player_index, round_of


def _turns_json(line: tuple[Move, ...] | list[Move]) -> list[dict[str, int | None]]:
    return [{"card": m.card, "row": None if m.row is None else m.row + 1} for m in line]


@click.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@limit_options(
    None,
    time_help="Seconds before the answer is 'unknown' (default: no limit).",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option()
@user_errors
def solve(
    record_file: str,
    player: int,
    round_no: int | None,
    limit: Limit,
    as_json: bool,
) -> None:
    """The exact best response: the order of the player's ten cards and its
    row choices that take the fewest heads against the others' recorded cards
    (a complete search; the docs say how others' row choices apply)."""
    from ...analysis.nimmt.review import nimmt_verdict

    record, label = round_of(record_file, round_no)
    p = player_index(record, player)
    problem = problem_from_record(record, p)
    played = [Move(t.cards[p], t.choices.get(p)) for t in record.turns]
    start = time.monotonic()
    with searching(not as_json) as tick:
        searcher = Searcher(problem, replace(limit, progress=tick))
        try:
            solution = searcher.solve()
        except BudgetExceeded:
            solution = None
    stats = {"nodes": searcher.nodes, "seconds": round(time.monotonic() - start, 4)}
    result: dict[str, Any] = {
        "player": player,
        "verdict": nimmt_verdict(None if solution is None else solution.heads),
        "heads": None if solution is None else solution.heads,
        "optimal": solution is not None,
        "played_heads": line_heads(problem, played),
        "turns": [] if solution is None else _turns_json(solution.line),
        "stats": stats,
    }
    if as_json:
        print_json(result)
        return
    if solution is None:
        out.print(f"{label}player {player}: unknown, the budget ran out ({stats['nodes']:,} nodes)")
        return
    out.print(
        f"{label}player {player}: at best {plural(solution.heads, 'head')} (proven, "
        f"{solution.nodes:,} nodes); played {result['played_heads']}"
    )
    for t, m in enumerate(solution.line, 1):
        choice = "" if m.row is None else f", takes row {m.row + 1}"
        out.print(f"  turn {t:>2}: {m.card}{choice}")
