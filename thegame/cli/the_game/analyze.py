"""``thegame analyze`` and ``thegame hint``: hindsight judgement of a record."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import click
from rich.console import Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ...analysis.the_game.annotate import (
    HINDSIGHT_TOTAL,
    MARK_WORDS,
    TURN_START_SAMPLES,
    Annotation,
    Estimate,
    Review,
    annotate_record,
)
from ...analysis.the_game.review import Analysis, hint_for
from ...analysis.the_game.strong import Level
from ...models import InvalidInputError, Limit
from ...models.check import status_text
from ...models.the_game import Deal, GameState, Play, Record, Rules
from ...models.the_game.notation import play_text, plays_text, plural, turn_label
from ...models.the_game.state import pile_name
from ..common import SECONDS, err, out, print_json, searching, user_errors
from ..options import json_option, limit_options, record_argument, sample_seed_option
from .options import load_record
from .render import LineView, card_text, cards_text, marked_line

BLOCKS = " ▁▂▃▄▅▆▇█"


def _play_text(rules: Rules, play: Play | None) -> str:
    return "end" if play is None else play_text(rules, play.card, play.pile)


def best_chart(analysis: Analysis, height: int = 6) -> RenderableType | None:
    """The best reachable cards left (hindsight) after each turn, as columns
    of blocks from 0 up, with turn ticks; None when it stays at 0 (nothing
    to draw: every turn kept a perfect clear possible)."""
    after_turn: dict[int, int] = {}
    for (i, _), value in zip(analysis.steps, analysis.curve[1:], strict=True):
        after_turn[i] = value
    per_turn = [analysis.curve[0], *after_turn.values()]
    top = max(per_turn)
    if top == 0:
        return None
    first = analysis.steps[0][0] if analysis.steps else 0
    rows = []
    for level in range(height, 0, -1):
        row = ""
        for v in per_turn:
            fill = v * height / top - (level - 1)
            row += BLOCKS[max(0, min(8, round(fill * 8)))]
        label = f"{round(top * level / height):>3} |" if level == height else "    |"
        rows.append(Text(label + row))
    rows.append(Text("  0 +" + "-" * len(per_turn)))
    # A tick under the start column and every fifth turn (on screen from 1).
    ticks = [" "] * len(per_turn)
    labels = [" "] * (len(per_turn) + 4)
    for col in range(len(per_turn)):
        turn = first + col  # column col shows the value after turn first + col - 1
        if col == 0 or turn % 5 == 0:
            ticks[col] = "|"
            mark = "0" if col == 0 else str(turn)
            labels[col : col + len(mark)] = list(mark)
    rows.append(Text("     " + "".join(ticks)))
    rows.append(Text("     " + "".join(labels).rstrip()))
    rows.append(Text("     turns played -> best reachable cards left (hindsight)", style="dim"))
    return Group(*rows)


def hindsight_at_turn_starts(analysis: Analysis) -> dict[int, int]:
    """The best reachable cards left (hindsight) at the start of each turn
    (0-based index) the analysis judged."""
    values: dict[int, int] = {}
    if analysis.steps:
        values[analysis.steps[0][0]] = analysis.curve[0]
    for (i, _), value in zip(analysis.steps, analysis.curve[1:], strict=True):
        values[i + 1] = value  # the last step of turn i: where turn i + 1 starts
    return values


def _block_rows(values: list[float], height: int) -> list[str]:
    """Columns of blocks for ``values`` in 0..1, top row first."""
    rows = []
    for level in range(height, 0, -1):
        row = ""
        for v in values:
            fill = v * height - (level - 1)
            row += BLOCKS[max(0, min(8, round(fill * 8)))]
        rows.append(row)
    return rows


def win_chart(review: Review, terminal: bool, height: int = 8) -> RenderableType | None:
    """The fair win chance at each turn start (``turn_starts``), with the
    hindsight curve beside it: block columns on a terminal, plain text
    elsewhere (a pipe, a file). None when no turn was judged."""
    if not review.turn_starts:
        return None
    turns = [t for t, _ in review.turn_starts]
    wins = [e.win for _, e in review.turn_starts]
    hs = {} if review.hindsight is None else hindsight_at_turn_starts(review.hindsight)
    samples = review.turn_starts[0][1].samples
    # The curve uses the first samples of each turn, the actions all of
    # them: say both figures, or the two would seem to disagree.
    of = "" if samples == review.samples else f" of the {review.samples}"
    caption = (
        f"fair win chance at each turn start (the blind policy over the first {samples}"
        f"{of} sampled orders of the unseen cards; an estimate)"
    )
    if not terminal:
        return _plain_chart(caption, turns, wins, hs)
    left = [f"100% |{row}" if i == 0 else f"     |{row}" for i, row in enumerate(
        _block_rows(wins, height))]  # fmt: skip
    left.append("  0% +" + "-" * len(wins))
    labels = [" "] * (len(wins) + 4)
    for col, t in enumerate(turns):
        if col == 0 or (t + 1) % 5 == 0:
            mark = str(t + 1)
            labels[col : col + len(mark)] = list(mark)
    left.append("      " + "".join(labels).rstrip())
    chart = Table.grid(padding=(0, 4))
    chart.add_column()
    fair = Group(
        Text("fair win chance (estimate)", style="bold"),
        *(Text(line, style="cyan") for line in left),
        Text("      turn", style="dim"),
    )
    if hs and review.hindsight is not None:
        chart.add_column()
        chart.add_row(fair, _hindsight_column(hs, turns, labels, height))
    else:
        chart.add_row(fair)
    return Group(Text(caption, style="dim"), chart)


def _plain_chart(
    caption: str, turns: list[int], wins: list[float], hs: dict[int, int]
) -> RenderableType:
    """The chart as plain lines (a pipe, a file)."""
    lines = [
        Text(caption + ":"),
        Text(
            "  "
            + ", ".join(f"turn {t + 1} {100 * w:.0f}%" for t, w in zip(turns, wins, strict=True))
        ),
    ]
    if hs:
        lines.append(Text("hindsight, best reachable cards left at each turn start:"))
        lines.append(Text("  " + ", ".join(f"turn {t + 1} {hs[t]}" for t in turns if t in hs)))
    return Group(*lines)


def _hindsight_column(
    hs: dict[int, int], turns: list[int], labels: list[str], height: int
) -> RenderableType:
    """The hindsight curve beside the win chart: best reachable cards left."""
    top = max(hs.values())
    if top == 0:
        return Text(
            "hindsight: a perfect clear stayed reachable at every turn start", style="green"
        )
    values = [hs.get(t, 0) / top for t in turns]
    rows = [f"{top:>4} |{r}" if i == 0 else f"     |{r}" for i, r in enumerate(
        _block_rows(values, height))]  # fmt: skip
    rows.append("   0 +" + "-" * len(values))
    rows.append("      " + "".join(labels).rstrip())
    return Group(
        Text("hindsight: best reachable cards left", style="bold"),
        *(Text(line, style="magenta") for line in rows),
        Text("      turn", style="dim"),
    )


def analysis_view(analysis: Analysis) -> RenderableType:
    """Hindsight only: summary, the mistakes with the better play, the chart."""
    rules = analysis.record.deal.rules
    parts: list[RenderableType] = []
    parts.append(
        Text(
            "Hindsight analysis: judged with the whole deck known, the order of the "
            "draw pile included.",
            style="dim",
        )
    )
    start = "" if analysis.start_proven else " (best found, not proven)"
    parts.append(
        Text(f"best possible at the start: {plural(analysis.best_at_start, 'card')} left{start}")
    )
    status = status_text(analysis.status)
    parts.append(Text(f"result: {plural(analysis.result, 'card')} left ({status})"))
    parts.extend(_hindsight_summary(analysis))
    ms = analysis.mistakes
    if ms:
        table = Table(box=None, header_style="bold")
        for col in ("turn", "play", "played", "best before", "best after", "better", "sure"):
            table.add_column(col)
        for m in ms:
            table.add_row(
                str(m.turn + 1),
                str(m.play + 1),
                _play_text(rules, m.played),
                str(m.best_before),
                str(m.best_after),
                _play_text(rules, m.better),
                "proven" if m.proven else "best found",
            )
        parts.append(table)
    chart = best_chart(analysis)
    if chart is not None:
        parts.append(chart)
    return Group(*parts)


def _hindsight_summary(analysis: Analysis) -> list[RenderableType]:
    """Proven losses summed; unproven ones listed as bounds, never added in."""
    ms = analysis.mistakes
    if not ms:
        return [Text("hindsight: every action kept the best result reachable", "green")]
    proven = [m for m in ms if m.proven]
    unproven = [m for m in ms if not m.proven]
    line = Text(style="bold red")
    line.append(f"hindsight: {plural(len(ms), 'action')} lost cards")
    if proven:
        line.append(f"; {plural(analysis.cards_lost, 'card')} lost to the proven ones")
    if unproven:
        line.append(
            f"; {len(unproven)} not proven (best found before, a search bound after: not added in)"
        )
    return [line]


def review_view(review: Review, terminal: bool = False) -> RenderableType:
    """The annotated review: marked actions with the position and the better
    action, then every judged turn at a glance, then hindsight."""
    rules = review.record.deal.rules
    deal = review.record.deal
    parts: list[RenderableType] = []
    if review.fair_unavailable is not None:
        parts.append(Text(f"Fair review: not available ({review.fair_unavailable}).", "yellow"))
        left = plural(review.cards_left, "card")
        parts.append(Text(f"result: {left} left ({status_text(review.status)})"))
        if review.hindsight is not None:
            parts.append(analysis_view(review.hindsight))
        return Group(*parts)
    if review.level is Level.STRONG and review.budget is not None:
        better = (
            f"the better action is the strong blind player's ({review.budget.describe()}, "
            "on samples of its own)"
        )
    else:
        better = "the better action is the blind policy's"
    parts.append(
        Text(
            f"Fair review: each action judged from what the player knew, the blind policy "
            f"playing on over {review.samples} sampled orders of the unseen cards "
            f"(the same samples for the action played and the better one; 95% intervals); "
            f"{better}.",
            style="dim",
        )
    )
    parts.append(
        Text(
            f"result: {plural(review.cards_left, 'card')} left ({status_text(review.status)}); "
            + _start_text(review)
        )
    )
    marked = review.marked
    counts = {m: sum(1 for a in marked if a.mark == m) for m in ("??", "?", "?!")}
    if not marked:
        parts.append(Text("no marked actions: nothing measurably worse than the blind policy",
                          "green"))  # fmt: skip
    else:
        parts.append(
            Text(
                ", ".join(f"{plural(n, MARK_WORDS[m])} ({m})" for m, n in counts.items() if n),
                style="bold red",
            )
        )
    for a in marked:
        parts.append(Text())
        parts.append(_marked_view(deal, rules, a))
    parts.append(Text())
    parts.append(_turn_table(review))
    chart = win_chart(review, terminal)
    if chart is not None:
        parts.append(Text())
        parts.append(chart)
    if review.hindsight is not None:
        parts.append(Text())
        parts.append(analysis_view(review.hindsight))
    return Group(*parts)


def _start_text(review: Review) -> str:
    if not review.turn_starts:
        return "no turn judged"
    _, e = review.turn_starts[0]
    lo, hi = e.win_interval
    return (
        f"at the start the blind policy wins {100 * e.win:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%) "
        f"and leaves {e.left:.1f} cards on average"
    )


def _estimate_text(e: Estimate | None) -> str:
    if e is None:
        return "-"
    lo, hi = e.win_interval
    return f"win {100 * e.win:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%), {e.left:.1f} cards left"


def _marked_view(deal: Deal, rules: Rules, a: Annotation) -> RenderableType:
    where = f"{turn_label(a.turn)}, play {a.play + 1}, player {a.player}"
    head = Text(f"{a.mark} {MARK_WORDS[a.mark]}: ", style="bold red")
    head.append(f"{_play_text(rules, a.played)}  ({where})", style="bold")
    piles = "  ".join(f"{pile_name(rules, i)} {card_text(deal, t)}" for i, t in enumerate(a.tops))
    lines: list[RenderableType] = [head]
    lines.append(
        Text(f"  position  {piles}   hand {cards_text(deal, list(a.hand))}   ")
        + Text(f"draw pile {a.draw_left}")
    )
    lines.append(
        Text(f"  played    {_play_text(rules, a.played)}: {_estimate_text(a.after_played)}")
    )
    better = Text(f"  better    {_play_text(rules, a.better)}: {_estimate_text(a.after_better)}",
                  style="green")  # fmt: skip
    lines.append(better)
    if a.continuation:
        lines.append(Text(f"  the turn goes on: {plays_text(rules, a.continuation)}", style="dim"))
    elif a.better is None:
        lines.append(Text("  the turn ends there", style="dim"))
    if a.drop is not None:
        d = a.drop
        lines.append(
            Text(
                f"  lost      {100 * d.win:.0f} points of win chance (+/- {100 * d.win_half:.0f}), "
                f"{d.left:.1f} cards (+/- {d.left_half:.1f})",
                style="dim",
            )
        )
    if a.hindsight_before is not None and a.hindsight_after is not None:
        sure = "proven" if a.hindsight_proven else "not proven"
        if a.hindsight_after > a.hindsight_before:
            hs = f"best reachable {a.hindsight_before} -> {a.hindsight_after} cards left ({sure})"
        else:
            hs = f"no loss: best reachable stays {a.hindsight_after}"
        lines.append(Text(f"  hindsight {hs}", style="dim"))
    return Group(*lines)


def _turn_table(review: Review) -> RenderableType:
    """Every judged action that differs from the blind policy's choice."""
    rules = review.record.deal.rules
    table = Table(
        title="actions unlike the blind policy's (fair: win chance, cards left; hindsight: "
        "best reachable)",
        title_justify="left",
        box=None,
        header_style="bold",
    )
    for col in ("turn", "play", "played", "better", "win lost", "cards", "mark", "hindsight"):
        table.add_column(col)
    rows = 0
    for a in review.annotations:
        if a.same or a.drop is None:
            continue
        rows += 1
        hs = (
            "-"
            if a.hindsight_before is None
            else f"{a.hindsight_before} -> {a.hindsight_after}"
            + (" proven" if a.hindsight_proven else "")
        )
        table.add_row(
            str(a.turn + 1),
            str(a.play + 1),
            _play_text(rules, a.played),
            _play_text(rules, a.better),
            f"{100 * a.drop.win:+.0f}",
            f"{a.drop.left:+.1f}",
            a.mark,
            hs,
        )
    if not rows:
        return Text("every action was the blind policy's own choice", style="dim")
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
@record_argument()
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    default=100,
    show_default=True,
    help=f"Sampled orders of the unseen cards per turn (the fair review; the win-chance "
    f"curve at the turn starts uses the first {TURN_START_SAMPLES}).",
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
# The older name ('--level' is a level number in The Mind): still read.
@click.option("--level", "old_level", type=click.Choice([str(v) for v in Level]), default=None,
              hidden=True, help="The older name of --strength.")  # fmt: skip
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
    old_level: str | None,
    as_json: bool,
) -> None:
    """Review a played game (a record or a puzzle FILE): every action judged
    from what the player knew, marked ?!, ? or ?? where it cost, with the
    better action; hindsight (the deck's order known) as a second column;
    the fair win chance at each turn start drawn as a curve.
    """
    record = load_record(record_file)
    if record.deal.rules.is_duel:
        _analyze_duel(record, limit, as_json)
        return
    from ...models.the_game.record import replayed

    replayed(record, record_file)  # an illegal record is named by its file
    hindsight = None if no_hindsight else limit
    with _bar(enabled=not as_json, label="reviewing") as progress:
        review = annotate_record(
            record, samples, sample_seed, hindsight, progress, hindsight_total=hindsight_total,
            level=Level(old_level or level),
        )
    if as_json:
        print_json(review.to_dict())
    else:
        out.print(review_view(review, out.is_terminal))


@click.command()
@record_argument()
@limit_options(10.0, time_help="Seconds of search (one position, so more than analyze gives "
               "each of its many).", nodes=False)  # fmt: skip
@json_option("Print the hint as JSON.")
@user_errors
def hint(record_file: str, limit: Limit, as_json: bool) -> None:
    """The best next play from where the record FILE ends, with hindsight."""
    from ...models.the_game.record import replayed

    record = load_record(record_file)
    state = replayed(record, record_file)
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason}): no next play", record_file)
    if state.rules.is_duel:
        _hint_duel(record, state, limit, as_json)
        return
    with searching(enabled=not as_json):
        h = hint_for(state, limit)
    if as_json:
        print_json(h.advice(record).to_dict())
        return
    out.print(Text(f"player {state.current + 1}: {h.text}"))
    if h.line:
        out.print(LineView("line: ", marked_line(record.deal, h.line), "dim"))


# -- Face to Face (rules D1-D7) ----------------------------------------------------------


def _analyze_duel(record: Record, limit: Limit, as_json: bool) -> None:
    """``analyze`` on a duel: the first turn that threw a forced win away."""
    from ...analysis.the_game.duel import analyze_duel
    from .duel_view import duel_analysis_view

    with _bar(enabled=not as_json, label="analysing") as progress:
        analysis = analyze_duel(record, limit, progress)
    if as_json:
        print_json(analysis.to_dict())
    else:
        out.print(duel_analysis_view(analysis))


def _hint_duel(record: Record, state: GameState, limit: Limit, as_json: bool) -> None:
    """``hint`` on a duel: the best next turn."""
    from ...analysis.the_game.duel import duel_hint

    with searching(enabled=not as_json):
        h = duel_hint(state, limit)
    if as_json:
        print_json(h.to_dict(record))
    else:
        out.print(Text(f"player {state.current + 1}: {h.text}"))
