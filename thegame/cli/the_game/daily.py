"""``thegame daily``: the puzzle of the day (the puzzles themselves live in ``thegame.puzzles``)."""

from __future__ import annotations

import click
from rich.text import Text

from ..common import out, print_json, user_errors
from .puzzle_view import (
    difficulty_text,
    load_daily,
    position_view,
    puzzle_title,
    solution_lines,
)


@click.command()
@click.option("--date", metavar="YYYY-MM-DD", help="The day (default: today, UTC).")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle as JSON.")
@click.option("--solution", "show_solution", is_flag=True, help="Show the solution too.")
@user_errors
def daily(date: str | None, as_json: bool, show_solution: bool) -> None:
    """The puzzle of the day: the same on every machine and in every version."""
    puzzle = load_daily(date, show=not as_json)
    if as_json:
        print_json(puzzle.to_dict())
        return
    out.print(puzzle_title(puzzle))
    out.print(difficulty_text(puzzle))
    out.print(position_view(puzzle.start()))
    if show_solution:
        out.print(solution_lines(puzzle))
    else:
        out.print(Text(f"play it: thegame play --daily --date {puzzle.date}", style="dim"))


# -- generate ------------------------------------------------------------------
