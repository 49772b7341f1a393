"""``thegame cento generate`` and ``thegame cento daily``: solo puzzles with a
proven fewest number of turns, and the puzzle of the day."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

import click

from ...models.outcome import Limit
from ...models.words import plural
from ..common import SEED, err, out, print_json, tell, user_errors, write_atomic
from ..options import json_option, limit_options
from .options import make_rules, rule_options
from .render import hand_text, turn_text

if TYPE_CHECKING:
    from ...puzzles.cento.puzzles import SoloPuzzle


@click.command()
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Puzzles to find.",
)
@click.option(
    "--seed-start",
    type=SEED,
    default=1,
    show_default=True,
    help="The first seed tried; then the seeds after it.",
)
@click.option(
    "--min-turns",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Keep puzzles whose fewest turns are at least this.",
)
@click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Keep puzzles whose fewest turns are at most this.",
)
@rule_options
@limit_options(
    10.0, time_help="Seconds per seed; seeds not proven in time are skipped.", nodes=False
)
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    default=None,
    help="Write each puzzle to DIR/cento-seed-N.json.",
)
@json_option("One JSON line per puzzle on stdout.")
@user_errors
def generate(
    count: int,
    seed_start: int,
    min_turns: int,
    max_turns: int,
    limit: Limit,
    out_dir: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Solo puzzles from consecutive seeds, each with a proven fewest-turns answer.

    Ctrl-C stops at once (exit 130); the puzzles printed before it stand.
    """
    from pathlib import Path

    from ...puzzles.cento.puzzles import check_turn_range
    from ...puzzles.cento.puzzles import generate as generate_puzzles

    check_turn_range(min_turns, max_turns)
    rules = make_rules(kw)
    target = Path(out_dir) if out_dir else None
    if target is not None:
        target.mkdir(parents=True, exist_ok=True)
    found = 0
    status = err.status("generating...") if err.is_terminal else contextlib.nullcontext()
    try:
        with status as live:
            for seed, puzzle in generate_puzzles(seed_start, rules, limit, min_turns, max_turns):
                if live is not None:
                    live.update(f"generating... seed {seed}, {found}/{count} puzzles")
                if puzzle is None:
                    continue
                found += 1
                if target is not None:
                    path = target / f"cento-seed-{seed}.json"
                    write_atomic(str(path), json.dumps(puzzle.to_dict(), indent=1) + "\n")
                if as_json:
                    print_json(puzzle.to_dict())
                else:
                    out.print(f"seed {seed}: {plural(puzzle.turn_count, 'turn')} (proven)")
                if found >= count:
                    break
    except KeyboardInterrupt:
        tell(f"interrupted after {plural(found, 'puzzle')}")
        raise SystemExit(130) from None


@click.command()
@click.option("--date", metavar="YYYY-MM-DD", help="The day (default: today, UTC).")
@click.option("--solution", "show_solution", is_flag=True, help="Show the proven line too.")
@json_option("Print the puzzle as JSON.")
@user_errors
def daily(date: str | None, show_solution: bool, as_json: bool) -> None:
    """The solo puzzle of the day: the same on every machine.

    Ctrl-C while it is being made prints nothing but 'interrupted' (exit 130).
    """
    from ...puzzles.cento.puzzles import parse_date

    puzzle = make_daily(date, show=not as_json)
    if as_json:
        print_json(puzzle.to_dict())
        return
    d = puzzle.deal
    out.print(
        f"Cento solo puzzle of {puzzle.date} (seed {puzzle.seed}): "
        f"empty your hand in {plural(puzzle.turn_count, 'turn')}"
    )
    out.print(f"hand: {hand_text(d.hands[0])}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {hand_text(d.draw)}")
    out.print(f"play it: thegame cento play --daily --date {parse_date(date)}", style="dim")
    if show_solution:
        for i, t in enumerate(puzzle.turns, 1):
            out.print(f"turn {i}: " + turn_text(t.to_dict()), markup=False)


def make_daily(date: str | None, show: bool) -> SoloPuzzle:
    """The puzzle of ``date`` (today when None), with a spinner on a terminal when ``show``."""
    from ...puzzles.cento.puzzles import daily as daily_puzzle
    from ...puzzles.cento.puzzles import parse_date

    day = parse_date(date)
    status = (
        err.status("solving the puzzle of the day...")
        if err.is_terminal and show
        else contextlib.nullcontext()
    )
    with status:
        return daily_puzzle(day, Limit(time=60.0))
