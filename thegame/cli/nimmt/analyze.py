"""``thegame nimmt hint`` and ``thegame nimmt analyze``: the best next card by
what the player has seen, and a round reviewed turn by turn."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ...analysis.nimmt.review import Review, TurnReview
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
    out.print(_round_words(label, player, result), soft_wrap=True)
    for t in result.turns:
        out.print(_turn_words(t), soft_wrap=True, style="yellow" if t.lost else "")


def _round_words(label: str, player: int, result: Review) -> str:
    """The round in a sentence: heads taken, the best with hindsight, lost."""
    lost = f"{plural(result.lost, 'head')} lost" if result.lost else "nothing lost"
    return (
        f"{label}player {player}: took {plural(result.played_heads, 'head')}; "
        f"{plural(result.optimal_heads, 'head')} at best with hindsight (proven: the others' "
        f"cards known): {lost}. Each card is priced in heads to the end of the round, "
        f"with the best play after it; 'by what you saw' is the strong player's choice over "
        f"{plural(result.samples, 'sampled guess', 'sampled guesses')} at the unseen cards "
        f"(sample seed {result.seed}), an estimate."
    )


def _card(card: int, row: int | None) -> str:
    return f"{card}" + ("" if row is None else f" (taking row {row + 1})")


def _turn_words(t: TurnReview) -> str:
    """One turn in a sentence: what was played, what it cost, what was
    better and whether that is proven (hindsight) or estimated (by what the
    player saw)."""
    played = (f"turn {t.turn:>2}: played {_card(t.played.card, t.played.row)}, "
              f"{plural(t.played_heads, 'head')} to the round's end")  # fmt: skip
    if t.lost:
        judged = (
            f"; better {_card(t.best.card, t.best.row)}, {plural(t.best_heads, 'head')}: "
            f"it cost {plural(t.lost, 'head')} (proven, hindsight)"
        )
    else:
        judged = ": the best with hindsight (proven)"
    if t.blind_card == t.played.card:
        seen = "; by what you saw: the same card"
    else:
        seen = (
            f"; by what you saw: {t.blind_card}, {plural(t.blind_heads, 'head')} with "
            f"hindsight (estimated {t.blind_score:.1f})"
        )
    return f"  {played}{judged}{seen}"


@contextlib.contextmanager
def _turn_bar(enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over the ten turns, on stderr when it is a terminal."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        task = bar.add_task("turns", total=10)
        yield lambda _t: bar.advance(task)
