"""``thegame analyze`` and ``thegame hint``: hindsight judgement of a record."""

from __future__ import annotations

import click

from ...analysis.the_game.annotate import (
    HINDSIGHT_TOTAL,
    MAX_SAMPLES,
    TURN_START_SAMPLES,
)
from ...analysis.the_game.strong import Level
from ...models import InvalidInputError, Limit
from ..common import SECONDS, user_errors
from ..options import (
    jobs_option,
    json_option,
    limit_options,
    record_argument,
    sample_seed_option,
)
from .kinds import kind_of
from .options import load_record
from .review_charts import BLOCKS as BLOCKS  # where the tests and pages look for it
from .review_charts import win_chart as win_chart
from .review_view import ReviewOptions
from .review_view import review_view as review_view

JOBS_HELP = (
    "Face to Face: 2 or more race df-pn against the depth-first search for each proof, "
    "each in a worker process of its own (two workers, whatever N); 1: one process."
)


@click.command()
@record_argument()
@click.option(
    "--samples",
    type=click.IntRange(1, MAX_SAMPLES),
    default=100,
    show_default=True,
    help=f"Sampled orders of the unseen cards per turn, 1-{MAX_SAMPLES:,} (the fair review; "
    f"the win-chance curve at the turn starts uses the first {TURN_START_SAMPLES}).",
)
@sample_seed_option()
@limit_options(
    1.0,
    time_help="Seconds of search per position that hindsight (or a duel's analysis) searches "
    "(less than hint's: a review searches a position for every action, --hindsight-total "
    "caps them all).",
    nodes=False,
)
@click.option(
    "--hindsight-total",
    type=SECONDS,
    default=HINDSIGHT_TOTAL,
    show_default=True,
    help="Seconds for the whole hindsight column (figures past it are best found).",
)
@click.option("--no-hindsight", is_flag=True, help="Skip the hindsight column.")
@click.option(
    "--strength",
    "level",
    type=click.Choice([str(v) for v in Level]),
    default=str(Level.STRONG),
    show_default=True,
    help="Who names the better action: the strong blind player (a fixed playout budget "
    "per choice) or the blind policy.",
)
@click.option(
    "--view",
    type=click.Choice(["full", "hidden"]),
    default=None,
    help="What the player saw: 'full' (the draw pile in view: judged by hindsight alone) "
    "or 'hidden' (face down: the fair review and hindsight). Default: as the record says "
    "(full_view; a record that does not say: hidden).",
)
# The older name ('--level' is a level number in The Mind): still read.
@click.option("--level", "old_level", type=click.Choice([str(v) for v in Level]), default=None,
              hidden=True, help="The older name of --strength.")  # fmt: skip
@jobs_option(JOBS_HELP, default=1)
@json_option("Print the review as JSON.")
@user_errors
def analyze(
    record_file: str,
    samples: int,
    sample_seed: int,
    limit: Limit,
    hindsight_total: float,
    no_hindsight: bool,
    level: str,
    view: str | None,
    old_level: str | None,
    jobs: int,
    as_json: bool,
) -> None:
    """Review a played game (a record or a puzzle FILE): every action judged
    from what the player knew, marked ?!, ? or ?? where it cost, with the
    better action; hindsight (the deck's order known) as a second column;
    the fair win chance at each turn start drawn as a curve.
    """
    record = load_record(record_file)
    opts = ReviewOptions(samples, sample_seed, None if no_hindsight else limit, hindsight_total,
                  old_level or level, None if view is None else view == "full")  # fmt: skip
    kind_of(record.deal.rules).analyze(record, record_file, limit, opts, as_json, jobs)


@click.command()
@record_argument()
@limit_options(10.0, time_help="Seconds of search (one position, so more than analyze gives "
               "each of its many).", nodes=False)  # fmt: skip
@jobs_option(JOBS_HELP, default=1)
@json_option("Print the hint as JSON.")
@user_errors
def hint(record_file: str, limit: Limit, jobs: int, as_json: bool) -> None:
    """The best next play from where the record FILE ends, with hindsight."""
    from ...models.the_game.record import replayed

    record = load_record(record_file)
    state = replayed(record, record_file)
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason}): no next play", record_file)
    kind_of(state.rules).hint(record, state, limit, as_json, jobs)


