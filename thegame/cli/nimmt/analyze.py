"""``thegame nimmt hint`` and ``thegame nimmt analyze``: the best next card by
what the player has seen, and a round reviewed turn by turn."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ...models.words import plural
from ...solver.nimmt.problem import problem_from_record
from ..common import err, out, print_json, user_errors
from ..options import json_option, record_argument, sample_seed_option
from .options import PLAYER_OPTION, ROUND_OPTION, SAMPLES_OPTION, player_index, round_of


@click.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@SAMPLES_OPTION
@sample_seed_option()
@json_option("Print the hint as JSON.")
@user_errors
def hint(
    record_file: str,
    player: int,
    round_no: int | None,
    samples: int,
    sample_seed: int,
    as_json: bool,
) -> None:
    """The player's best next card in a round in progress, by what the player
    has seen (sampled)."""
    from ...analysis.nimmt.review import hint as hint_for

    record, label = round_of(record_file, round_no)
    p = player_index(record, player)
    h = hint_for(record, p, samples, sample_seed)
    if as_json:
        print_json(h.to_json())
        return
    others = ", ".join(f"{c} ({m:.1f})" for c, m in h.means[1:4])
    out.print(
        f"{label}turn {h.turn}, player {player}: {h.advice().text}; next best {others or '-'}",
        soft_wrap=True,
    )


@click.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@SAMPLES_OPTION
@sample_seed_option()
@json_option("Print the review as JSON.")
@user_errors
def analyze(
    record_file: str,
    player: int,
    round_no: int | None,
    samples: int,
    sample_seed: int,
    as_json: bool,
) -> None:
    """Per turn: the card played, the best card with hindsight and the best
    card by what the player knew (the strong player's choice over sampled
    guesses at the unseen cards), each priced in heads with the best play
    afterwards (hindsight); and the heads lost in the round."""
    from ...analysis.nimmt.review import review

    record, label = round_of(record_file, round_no)
    p = player_index(record, player)
    problem_from_record(record, p)  # a legal finished record, before any work
    with _turn_bar(not as_json) as step:
        result = review(record, p, samples, sample_seed, step)
    if as_json:
        print_json(result.to_json())
        return
    out.print(
        f"{label}player {player}: took {result.played_heads} heads, {result.optimal_heads} at "
        f"best with hindsight: {result.lost} lost (blind choice: {plural(samples, 'sample')}, "
        f"sample seed {sample_seed})",
        soft_wrap=True,
    )
    for t in result.turns:
        played = f"{t.played.card}" + ("" if t.played.row is None else f" (row {t.played.row + 1})")
        best = f"{t.best.card}" + ("" if t.best.row is None else f" (row {t.best.row + 1})")
        mark = f"  lost {t.lost}" if t.lost else ""
        out.print(
            f"  turn {t.turn:>2}: played {played} = {t.played_heads}; "
            f"hindsight {best} = {t.best_heads}; blind {t.blind_card} = {t.blind_heads}{mark}",
            soft_wrap=True,
            style="yellow" if t.lost else "",
        )


@contextlib.contextmanager
def _turn_bar(enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over the ten turns, on stderr when it is a terminal."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        task = bar.add_task("turns", total=10)
        yield lambda _t: bar.advance(task)
