"""``thegame analyze`` and ``thegame hint``: hindsight judgement of a record."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import click
from rich.console import Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ...analysis.the_game.review import Analysis, analyze_record, fair_ratings, hint_for
from ...models import InvalidInputError, Limit
from ...models.the_game import GameState, Play, Record
from ...models.the_game.state import pile_name
from ..common import err, out, print_json, searching, user_errors
from .options import load_record

BLOCKS = " ▁▂▃▄▅▆▇█"


def _play_text(analysis: Analysis, play: Play | None) -> str:
    if play is None:
        return "end the turn"
    return f"{play.card} on {pile_name(analysis.record.deal.rules, play.pile)}"


def best_chart(analysis: Analysis, height: int = 6) -> RenderableType:
    """The best reachable result after each turn, as columns of blocks
    (one column per turn; taller is worse)."""
    # The first column is the position where judging starts; then one
    # column per turn, the value after its last action.
    after_turn: dict[int, int] = {}
    for (i, _), value in zip(analysis.steps, analysis.curve[1:], strict=True):
        after_turn[i] = value
    per_turn = [analysis.curve[0], *after_turn.values()]
    first = analysis.steps[0][0] if analysis.steps else 0
    top = max(per_turn) or 1
    rows = []
    for level in range(height, 0, -1):
        row = ""
        for v in per_turn:
            fill = v * height / top - (level - 1)
            row += BLOCKS[max(0, min(8, round(fill * 8)))]
        label = f"{round(top * level / height):>3} |" if level in (height, 1) else "    |"
        rows.append(Text(label + row))
    rows.append(Text("    +" + "-" * len(per_turn)))
    last = first + len(after_turn) - 1
    rows.append(
        Text(f"     start, then turns {first} .. {last}: best reachable cards left", style="dim")
    )
    return Group(*rows)


def analysis_view(analysis: Analysis) -> RenderableType:
    """Summary, the mistakes with the better play, and the chart."""
    parts: list[RenderableType] = []
    parts.append(
        Text(
            "Hindsight analysis: judged with the whole deck known, the order of the "
            "draw pile included.",
            style="dim",
        )
    )
    start = "" if analysis.start_proven else " (best found, not proven)"
    parts.append(Text(f"best possible at the start: {analysis.best_at_start} cards left{start}"))
    parts.append(Text(f"result: {analysis.result} cards left ({analysis.status})"))
    ms = analysis.mistakes
    if not ms:
        parts.append(Text("no mistakes: every action kept the best result reachable", "green"))
    else:
        first = ms[0]
        parts.append(
            Text(
                f"{len(ms)} mistake(s), {analysis.cards_lost} card(s) lost to them; "
                f"first at turn {first.turn}, play {first.play} (counted from 0)",
                style="bold red",
            )
        )
        table = Table(box=None, header_style="bold")
        for col in ("turn", "play", "played", "best before", "best after", "better", "sure"):
            table.add_column(col)
        for m in ms:
            table.add_row(
                str(m.turn),
                str(m.play),
                _play_text(analysis, m.played),
                str(m.best_before),
                str(m.best_after),
                _play_text(analysis, m.better),
                "proven" if m.proven else "best found",
            )
        parts.append(table)
    if analysis.fair:
        parts.append(fair_view(analysis))
    parts.append(best_chart(analysis))
    return Group(*parts)


def fair_view(analysis: Analysis) -> RenderableType:
    """The fair rating: estimates from what the player could know."""
    n = analysis.fair[0].best.samples
    table = Table(
        title=f"Fair rating: the blind policy over {n} sampled orders of the unseen cards "
        "(estimates)",
        title_justify="left",
        box=None,
        header_style="bold",
    )
    for col in ("turn", "play", "played", "win", "left", "best blind choice", "win", "left"):
        table.add_column(col)
    for f in analysis.fair:
        mine, best = f.of(f.played), f.best
        table.add_row(
            str(f.turn),
            str(f.play),
            _play_text(analysis, f.played),
            f"{100 * mine.win_rate:.0f}%",
            f"{mine.expected_left:.1f}",
            _play_text(analysis, best.play),
            f"{100 * best.win_rate:.0f}%",
            f"{best.expected_left:.1f}",
        )
    return table


@contextlib.contextmanager
def _bar(enabled: bool, label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on stderr (terminals only) fed by (done, total)."""
    if not enabled or not err.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


@click.command()
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0),
    default=2.0,
    show_default=True,
    help="Seconds of search per position that needs one.",
)
@click.option(
    "--fair",
    "samples",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Also rate each mistake fairly: the blind policy over this many sampled "
    "orders of the unseen cards (0: off).",
)
@click.option(
    "--fair-all", is_flag=True, help="With --fair, rate every action, not only the mistakes."
)
@click.option("--seed", "sample_seed", type=int, default=0, help="Seed of the --fair samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@user_errors
def analyze(
    record_file: str,
    time_limit: float,
    samples: int,
    fair_all: bool,
    sample_seed: int,
    as_json: bool,
) -> None:
    """Replay a played game and find every mistake, with hindsight.

    With --fair, each mistake (or every action) is also judged with only what
    the player could know: the win chance and expected cards left of every
    alternative, estimated by the blind policy over sampled orders of the
    cards the player could not see.
    """
    record = load_record(record_file)
    if record.deal.rules.is_duel:
        _analyze_duel(record, time_limit, as_json)
        return
    with _bar(enabled=not as_json, label="analysing") as progress:
        analysis = analyze_record(record, Limit(time_limit), progress)
    if samples:
        at = analysis.steps if fair_all else [(m.turn, m.play) for m in analysis.mistakes]
        with _bar(enabled=not as_json, label="rating fairly") as progress:
            analysis.fair = fair_ratings(record, at, samples, sample_seed, progress)
    if as_json:
        print_json(analysis.to_dict())
    else:
        out.print(analysis_view(analysis))


@click.command()
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="Seconds of search.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
@user_errors
def hint(record_file: str, time_limit: float, as_json: bool) -> None:
    """The best next play from where the record ends, with hindsight."""
    from ...models.the_game.record import replayed, turn_to_dict

    record = load_record(record_file)
    state = replayed(record, record_file)
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason}): no next play", record_file)
    if state.rules.is_duel:
        _hint_duel(record, state, time_limit, as_json)
        return
    with searching(enabled=not as_json):
        h = hint_for(state, Limit(time_limit))
    rules = record.deal.rules
    if as_json:
        print_json(
            {
                "play": None
                if h.play is None
                else {"card": h.play.card, "pile": pile_name(rules, h.play.pile)},
                "end_turn": h.play is None,
                "verdict": h.verdict,
                "cards_left": h.cards_left,
                "cards_left_optimal": h.optimal,
                "line": [turn_to_dict(rules, t) for t in h.line],
                "text": h.text,
            }
        )
        return
    out.print(Text(f"player {state.current + 1}: {h.text}"))


# -- Face to Face (rules D1-D7) ----------------------------------------------------------


def _analyze_duel(record: Record, time_limit: float, as_json: bool) -> None:
    """``analyze`` on a duel: the first turn that threw a forced win away."""
    from ...analysis.the_game.duel import analyze_duel
    from .duel_view import duel_analysis_view

    with _bar(enabled=not as_json, label="analysing") as progress:
        analysis = analyze_duel(record, Limit(time_limit), progress)
    if as_json:
        print_json(analysis.to_dict())
    else:
        out.print(duel_analysis_view(analysis))


def _hint_duel(record: Record, state: GameState, time_limit: float, as_json: bool) -> None:
    """``hint`` on a duel: the best next turn."""
    from ...analysis.the_game.duel import duel_hint

    with searching(enabled=not as_json):
        h = duel_hint(state, Limit(time_limit))
    if as_json:
        print_json(h.to_dict(record))
    else:
        out.print(Text(f"player {state.current + 1}: {h.text}"))
