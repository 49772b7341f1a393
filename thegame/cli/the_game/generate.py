"""``thegame generate``: verified, rated puzzle files, with a progress bar."""

from __future__ import annotations

import re
from pathlib import Path

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from ...models import InvalidInputError
from ...models.the_game import variants
from ...models.the_game.notation import plural
from ...puzzles.the_game.daily import DUEL_STREAM
from ...puzzles.the_game.duel import generate_duel
from ...puzzles.the_game.make import CARDS_HIGH, CARDS_LOW, VARIANTS
from ...puzzles.the_game.make import generate as generate_puzzles
from ...puzzles.the_game.rating import LABELS
from ..common import SEED, err, print_json, tell, user_errors, write_atomic
from ..options import choice_option, json_option


def _cards_range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not m or not 0 < int(m.group(1)) <= int(m.group(2)):
        raise InvalidInputError(
            f"{text!r} is not a range LOW-HIGH of cards left", "--cards-left"
        )
    return int(m.group(1)), int(m.group(2))


@click.command()
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many puzzles to write.",
)
@click.option(
    "--difficulty",
    type=click.Choice(["any", *LABELS]),
    default="any",
    show_default=True,
    help="Keep only puzzles of this label.",
)
@choice_option(
    "--variant",
    (*VARIANTS, DUEL_STREAM),
    "Rules preset of the puzzles (face-to-face: duel endgames, won within a few turns).",
    default=variants.DEFAULT,
)
@click.option("--out", "out_dir", metavar="DIR", required=True, help="Directory for the files.")
@click.option(
    "--seed-start", type=SEED, default=1, show_default=True, help="The first deal's seed."
)
@click.option(
    "--cards-left",
    "cards",
    default=None,
    help=f"Cards left at the puzzle position, LOW-HIGH (not for face-to-face).  "
    f"[default: {CARDS_LOW}-{CARDS_HIGH}]",
)
# The older name ('--cards' is a range of card numbers in Cento): still read.
@click.option("--cards", "old_cards", default=None, hidden=True,
              help="The older name of --cards-left.")
@click.option(
    "--max-seeds",
    type=click.IntRange(min=1),
    default=100_000,
    show_default=True,
    help="Give up after this many seeds (exit 1 if fewer than --count were found).",
)
@json_option("Also print each puzzle as a JSON line.")
@user_errors
def generate(
    count: int,
    difficulty: str,
    variant: str,
    out_dir: str,
    seed_start: int,
    cards: str | None,
    old_cards: str | None,
    max_seeds: int,
    as_json: bool,
) -> None:
    """Generate verified puzzles into DIR (one JSON file each).

    Exit 1 when --max-seeds ran out before --count puzzles were found; the
    ones found are written all the same.
    """
    given = cards or old_cards
    low, high = _cards_range(given or f"{CARDS_LOW}-{CARDS_HIGH}")
    if variant == DUEL_STREAM and given is not None:
        raise InvalidInputError(
            "--cards-left does not apply to face-to-face (a duel puzzle is an endgame)",
            "--cards-left",
        )
    duel = variant == DUEL_STREAM
    target = Path(out_dir)
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    tried = 0
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    want = "" if difficulty == "any" else f" {difficulty}"
    try:
        with Progress(*columns, console=err, transient=False) as progress:
            task = progress.add_task(f"{variant}{want} puzzles", total=count)
            if duel:
                source = generate_duel(seed_start)
            else:
                source = generate_puzzles(variant, seed_start, low, high)
            for seed, puzzle in source:
                tried += 1
                progress.update(
                    task, description=f"{variant}{want} puzzles (seed {seed}, {tried} tried)"
                )
                if puzzle is not None and difficulty in ("any", puzzle.label):
                    puzzle.verify()  # the solution replays to a win
                    name = f"{variant}-{seed}-{puzzle.label}.json"
                    write_atomic(str(target / name), puzzle.to_json() + "\n")
                    if as_json:
                        print_json(puzzle.to_dict())
                    written += 1
                    progress.advance(task)
                if written >= count or tried >= max_seeds:
                    break
    except KeyboardInterrupt:
        tell(f"interrupted: {plural(written, 'puzzle')} written to {target}")
        raise SystemExit(130) from None
    if written < count:
        tell(
            f"only {written} of {plural(count, 'puzzle')} in {plural(tried, 'seed')}; "
            "raise --max-seeds"
        )
        raise SystemExit(1)  # a script asked for COUNT puzzles and did not get them
    else:
        done = f"{plural(written, 'puzzle')} written to {target}"
        tell(f"{done} ({plural(tried, 'seed')} tried)")


# -- play --------------------------------------------------------------------------
