"""``thegame daily``: the puzzle of the day (the puzzles themselves live in ``thegame.puzzles``)."""

from __future__ import annotations

import click
from rich.text import Text

from ...puzzles.the_game.daily import CLI_STREAMS
from ..common import out, print_json, user_errors
from ..options import json_option
from .kinds import kind_of
from .play_real import table_view
from .puzzle_view import (
    difficulty_text,
    load_daily,
    position_view,
    puzzle_title,
    solution_lines,
)


@click.group(invoke_without_command=True)
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
@click.pass_context
@user_errors
def daily(
    ctx: click.Context, date: str | None, as_json: bool, show_solution: bool, variant: str | None
) -> None:
    """The puzzle of the day: the same on every machine and in every version.

    `thegame daily site` writes the daily puzzles as a static web site."""
    if ctx.invoked_subcommand is not None:
        return
    puzzle = load_daily(date, show=not as_json, stream=variant)
    if as_json:
        print_json(puzzle.to_dict())
        return
    kind = kind_of(puzzle.deal.rules)
    out.print(puzzle_title(puzzle, kind.puzzle_goal))
    out.print(difficulty_text(puzzle, kind.difficulty(puzzle)))
    start = puzzle.start()
    shown = kind_of(puzzle.deal.rules).open_table
    out.print(table_view(start, hidden=False) if shown else position_view(start))
    if show_solution:
        out.print(solution_lines(puzzle))
    else:
        stream = f" --variant {variant}" if variant else ""
        out.print(Text(f"play it: thegame play --daily{stream} --date {puzzle.date}", style="dim"))


# -- generate ------------------------------------------------------------------


@daily.command("site")
@click.option(
    "--from",
    "first",
    metavar="YYYY-MM-DD",
    help="The first day (default: today, UTC); the days lie in 2000-01-01..2099-12-31.",
)
@click.option("--days", type=int, default=366, show_default=True, help="How many days, 1-1000.")
@click.option(
    "--out",
    "out_dir",
    required=True,
    metavar="DIR",
    help="The site's folder: new, empty, or a site this command wrote before (its days "
    "are kept, the rest rewritten).",
)
@json_option("Print a summary of the site as JSON.")
@user_errors
def site(first: str | None, days: int, out_dir: str, as_json: bool) -> None:
    """Write the daily puzzles of DAYS days as a static web site: copy the folder to
    any static host (docs: "Publish the daily")."""
    from pathlib import Path

    from ...puzzles.dates import parse_date, today_utc
    from ...puzzles.site import build_site
    from ..common import tell

    day = parse_date(first) if first is not None else today_utc()
    summary = build_site(day, days, Path(out_dir), progress=tell)
    if as_json:
        print_json(summary)
        return
    size = summary["bytes"] / 1e6
    verdict = "with the in-page solver" if summary["solver"] else "without the in-page solver"
    out.print(
        f"{out_dir}: {summary['days']} days ({summary['from']} to {summary['to']}), "
        f"{summary['made']} made, {summary['kept']} kept, {size:.1f} MB, {verdict}",
        markup=False,
        soft_wrap=True,
    )
