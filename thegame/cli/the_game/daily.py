"""``thegame daily``: the puzzle of the day (the puzzles themselves live in ``thegame.puzzles``)."""

from __future__ import annotations

import click
from rich.text import Text

from ...puzzles.the_game.daily import CLI_STREAMS
from ..common import out, print_json, user_errors
from ..options import json_option
from .play_real import table_view
from .puzzle_view import (
    difficulty_text,
    load_daily,
    position_view,
    puzzle_title,
    solution_lines,
)


@click.command()
@click.option("--date", metavar="YYYY-MM-DD", help="The day (default: today, UTC).")
@json_option("Print the puzzle as JSON.")
@click.option("--solution", "show_solution", is_flag=True, help="Show the solution too.")
@click.option(
    "--variant",
    type=click.Choice(CLI_STREAMS),
    default=None,
    help="Another daily stream: an Extreme puzzle, or a Face to Face endgame (win within a "
    "few turns), every day (default: classic on weekdays, profi on Saturdays, on-fire on "
    "Sundays).",
)
@user_errors
def daily(date: str | None, as_json: bool, show_solution: bool, variant: str | None) -> None:
    """The puzzle of the day: the same on every machine and in every version."""
    puzzle = load_daily(date, show=not as_json, stream=variant)
    if as_json:
        print_json(puzzle.to_dict())
        return
    out.print(puzzle_title(puzzle))
    out.print(difficulty_text(puzzle))
    if puzzle.deal.rules.is_duel:
        # Both hands and both draw piles: the duel's puzzle hides nothing.
        out.print(table_view(puzzle.start(), hidden=False))
    else:
        out.print(position_view(puzzle.start()))
    if show_solution:
        out.print(solution_lines(puzzle))
    else:
        stream = f" --variant {variant}" if variant else ""
        out.print(Text(f"play it: thegame play --daily{stream} --date {puzzle.date}", style="dim"))


# -- generate ------------------------------------------------------------------
