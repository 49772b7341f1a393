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
from .render import progress_text, stats_text, turn_text, verdict_text


def _seats(players: int, first: int, seat: int | None, all_seats: bool, saving: bool) -> list[int]:
    """The seats asked about: ``--player`` (default the one to move) or all."""
    if players == 1 and (seat not in (None, 1) or all_seats):
        raise InvalidInputError("--player and --all-seats are for 2-6 players", "options")
    if seat is not None and seat > players:
        raise InvalidInputError(f"player {seat} is not a seat of {players}", "--player")
    if all_seats and (seat is not None or saving):
        raise InvalidInputError("--all-seats answers every seat: no --player, no --save", "options")
    return list(range(1, players + 1)) if all_seats else [seat or first]


@click.command()
@record_argument(required=False)
@deal_options(players=1)
@click.option(
    "--player",
    "seat",
    type=click.IntRange(1, 6),
    default=None,
    help="2-6 players: the seat asked about (default: the player to move).",
)
@click.option(
    "--all-seats",
    is_flag=True,
    help="2-6 players: answer for every seat, each with the whole budget.",
)
@limit_options(
    60.0,
    time_help="Seconds (per seat) before the answer is 'unknown'.",
    nodes_help="Search nodes (per seat) before the answer is 'unknown' (default: no limit).",
    memory=True,
    memory_help="2-6 players: MiB for each table of the compiled search (default 1024); "
    "a full table makes the answer 'unknown'.",
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
    seat: int | None,
    all_seats: bool,
    limit: Limit,
    save_file: str | None,
    old_record: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Alone: the fewest turns to empty the hand. 2-6 players: can a seat
    force a win whatever every other player does together (with two
    players: who wins with best play from both sides).

    From a deal (--seed, --deck, --deal), or from the position a record FILE
    reaches (its turns are checked first).
    """
    from ...solver.cento.solo import solve_solo
    from ...solver.cento.table import solve_table

    if old_record is not None:
        if save_file is not None:
            raise InvalidInputError("give --save once", "options")
        save_file = old_record
    start, state = record_or_deal("solve", record_file, seed, deck, deal_file, players, kw)
    d = start.deal
    seats = _seats(d.players, 1 if state is None else state.to_move + 1, seat, all_seats,
                   save_file is not None)  # fmt: skip
    results: list[Any] = []
    with searching(enabled=not as_json) as tick:
        limit = replace(limit, progress=tick)
        if d.players == 1:
            results.append(solve_solo(d, limit, state))
        else:
            results.extend(solve_table(d, k, limit, state) for k in seats)
    result = results[0]
    if save_file:
        write_atomic(save_file, Record(d, start.turns + result.turns).to_json(indent=1) + "\n")
    if as_json:
        if all_seats:
            print_json({"players": d.players, "seats": [r.to_dict() for r in results]})
        else:
            print_json(result.to_dict())
        return
    for r in results:
        data = r.to_dict()
        out.print(verdict_text(d.players, data), markup=False)
        for i, t in enumerate(r.turns, len(start.turns) + 1):
            out.print(f"turn {i}: " + turn_text(t.to_dict()), markup=False)
        if "progress" in data:
            out.print(progress_text(data["progress"]), style="dim", markup=False)
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
