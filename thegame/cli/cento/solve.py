"""``thegame cento solve`` and ``thegame cento explain``: the exact answer
from a deal or a record's position, and the solved line with its reasons."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from ...models.cento import Record
from ...models.errors import InvalidInputError
from ...models.outcome import Limit
from ..common import out, print_json, searching, user_errors, write_atomic
from ..options import json_option, limit_options, record_argument, save_option
from .options import deal_options, record_or_deal
from .render import stats_text, turn_text, verdict_text


@click.command()
@record_argument(required=False)
@deal_options(players=1)
@limit_options(
    60.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@save_option("Write the line as a record ('thegame cento check' replays it).")
@click.option("--record", "old_record", metavar="FILE", hidden=True)  # the old --save
@json_option()
@user_errors
def solve(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    limit: Limit,
    save_file: str | None,
    old_record: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Alone: the fewest turns to empty the hand. Two players: who wins.

    From a deal (--seed, --deck, --deal), or from the position a record FILE
    reaches (its turns are checked first).
    """
    from ...solver.cento.duel import solve_duel
    from ...solver.cento.solo import solve_solo

    if old_record is not None:
        if save_file is not None:
            raise InvalidInputError("give --save once", "options")
        save_file = old_record
    start, state = record_or_deal("solve", record_file, seed, deck, deal_file, players, kw)
    d = start.deal
    with searching(enabled=not as_json) as tick:
        limit = replace(limit, progress=tick)
        result = solve_solo(d, limit, state) if d.players == 1 else solve_duel(d, limit, state)
    if save_file:
        write_atomic(save_file, Record(d, start.turns + result.turns).to_json(indent=1) + "\n")
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    out.print(verdict_text(d.players, data))
    for i, t in enumerate(result.turns, len(start.turns) + 1):
        out.print(f"turn {i}: " + turn_text(t.to_dict()), markup=False)
    out.print(stats_text(data), style="dim")


@click.command()
@record_argument(required=False)
@deal_options(players=1)
@limit_options(
    60.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option("Print the line and reasons as JSON.")
@user_errors
def explain(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    limit: Limit,
    as_json: bool,
    **kw: Any,
) -> None:
    """The solved line turn by turn, each turn with the rules that allow it
    and what is left after it (from a deal, or from a record FILE's position)."""
    from ...analysis.cento.explain import explain_line

    record, _ = record_or_deal("explain", record_file, seed, deck, deal_file, players, kw)
    with searching(enabled=not as_json) as tick:
        result = explain_line(record, replace(limit, progress=tick))
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    out.print(result.headline, markup=False)
    for step in result.steps:
        out.print(f"turn {step.turn}: " + turn_text(step.played.to_dict()), markup=False)
        for reason in step.reasons:
            out.print(f"    {reason}", style="dim", markup=False)
    out.print(stats_text(data), style="dim")
