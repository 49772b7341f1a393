"""What ``thegame analyze`` and ``hint`` show: the review, its tables and
charts, and each kind of game's review and hint."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ...analysis.the_game.annotate import (
    MARK_WORDS,
    Annotation,
    Estimate,
    Review,
    annotate_record,
)
from ...analysis.the_game.review import Analysis, figure_text, hint_for
from ...analysis.the_game.strong import Level, describe
from ...models import Limit
from ...models.check import status_text
from ...models.the_game import Deal, GameState, Play, Record, Rules
from ...models.the_game.notation import play_text, plays_text, plural, turn_label
from ...models.the_game.state import pile_name
from ..common import err, out, print_json, searching
from .render import LineView, card_text, cards_text, marked_line
from .review_charts import BLOCKS as BLOCKS  # where the tests and pages look for it
from .review_charts import best_chart, win_chart


@dataclass(frozen=True)
class ReviewOptions:
    """``analyze``'s options for a team game (the duel has its own analysis)."""

    samples: int
    sample_seed: int
    hindsight: Limit | None
    hindsight_total: float
    level: str
    full_view: bool | None


def _play_text(rules: Rules, play: Play | None) -> str:
    return "end" if play is None else play_text(rules, play.card, play.pile)


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
    if analysis.start_proven:
        start = f"{plural(analysis.best_at_start, 'card')} left"
    else:
        start = f"<= {analysis.best_at_start} cards left (best found)"
    parts.append(Text(f"best possible at the start: {start}"))
    proven, points = analysis.proven_share
    parts.append(Text(f"{proven} of {points} hindsight figures proven"
                      + ("" if proven == points else "; the others are printed <= N (best found)"),
                      style="dim"))  # fmt: skip
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
                figure_text(m.best_before, m.before_proven),
                figure_text(m.best_after, m.after_proven),
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
    if proven:
        line.append(f"hindsight: {plural(len(proven), 'action')} provably lost cards, "
                    f"{plural(analysis.cards_lost, 'card')} in all")  # fmt: skip
    if unproven:
        line.append("; " if proven else "hindsight: ")
        line.append(
            f"after {plural(len(unproven), 'action')} the best found got worse, not proven "
            "(best found before, a search bound after: not added in)"
        )
    return [line]


def review_view(review: Review, terminal: bool = False) -> RenderableType:
    """The annotated review: marked actions with the position and the better
    action, then every judged turn at a glance, then hindsight."""
    rules = review.record.deal.rules
    deal = review.record.deal
    parts: list[RenderableType] = []
    if review.full_view:
        return _full_view_review(review)
    if review.fair_unavailable is not None:
        parts.append(Text(f"Fair review: not available ({review.fair_unavailable}).", "yellow"))
        left = plural(review.cards_left, "card")
        parts.append(Text(f"result: {left} left ({status_text(review.status)})"))
        if review.hindsight is not None:
            parts.append(analysis_view(review.hindsight))
        return Group(*parts)
    if review.level is Level.STRONG and review.budget is not None:
        better = (
            f"the better action is the strong blind player's ({describe(review.budget)}, "
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
    if not marked:
        parts.append(Text("no marked actions: nothing measurably worse than the blind policy",
                          "green"))  # fmt: skip
    else:
        parts.append(Text(_mark_counts(marked), style="bold red"))
    for a in marked:
        parts.append(Text())
        parts.append(_marked_view(deal, rules, a))
    parts.append(Text())
    parts.append(_turn_table(review))
    chart = win_chart(review, terminal)
    if chart is not None:
        parts.append(Text())
        parts.append(chart)
    found = _beyond_estimate_text(review)
    if found is not None:
        parts.append(found)
    if review.hindsight is not None:
        parts.append(Text())
        parts.append(analysis_view(review.hindsight))
    return Group(*parts)


def _mark_counts(marked: list[Annotation]) -> str:
    """``1 blunder (??), 3 inaccuracies (?!)``."""
    counts = {m: sum(1 for a in marked if a.mark == m) for m in ("??", "?", "?!")}
    return ", ".join(f"{plural(n, MARK_WORDS[m])} ({m})" for m, n in counts.items() if n)


def _beyond_estimate_text(review: Review) -> Text | None:
    """Where the player won from a turn start the estimate put near 0%."""
    low = review.beyond_estimate
    if not low:
        return None
    turns = ", ".join(f"turn {t + 1} ({100 * e.win:.0f}%)" for t, e in low)
    return Text(
        f"You won from {turns}, where the blind policy's estimate put the win near 0%: "
        "you found what the estimate did not (it plays on without looking ahead).",
        style="green",
    )


def _full_view_review(review: Review) -> RenderableType:
    """A game played with the draw pile in view: judged by hindsight alone."""
    rules = review.record.deal.rules
    parts: list[RenderableType] = [
        Text(
            "Review with the draw pile in view (a puzzle or a known-order game): you saw "
            "every card, so each action is judged with the order known, and marked only "
            "where the best reachable result provably got worse.",
            style="dim",
        ),
        Text(f"result: {plural(review.cards_left, 'card')} left ({status_text(review.status)})"),
    ]
    marked = review.marked
    if review.hindsight is None:
        parts.append(Text("no hindsight column (--no-hindsight): nothing judged", "yellow"))
        return Group(*parts)
    if not marked:
        if review.status == "won":
            parts.append(Text("no marked actions: a perfect game, every action kept the "
                              "perfect clear (proven by the line played)", "green"))  # fmt: skip
        else:
            parts.append(Text("no marked actions: no action provably made the best reachable "
                              "result worse", "green"))  # fmt: skip
    else:
        parts.append(Text(_mark_counts(marked), style="bold red"))
        for a in marked:
            where = f"{turn_label(a.turn)}, play {a.play + 1}, player {a.player}"
            head = Text(f"{a.mark} {MARK_WORDS[a.mark]}: ", style="bold red")
            head.append(f"{_play_text(rules, a.played)}  ({where})", style="bold")
            lines: list[RenderableType] = [Text(), head]
            if a.hindsight_before is not None and a.hindsight_after is not None:
                lost = a.hindsight_after - a.hindsight_before
                lines.append(Text(f"  it cost {plural(lost, 'card')}: "
                                  f"{_hindsight_words(a)}"))  # fmt: skip
            lines.append(Text(f"  better    {_play_text(rules, a.better)} (proven: it keeps "
                              f"{a.hindsight_before} cards left reachable)", style="green"))
            parts.extend(lines)
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
        lines.append(Text(f"  hindsight {_hindsight_words(a)}", style="dim"))
    return Group(*lines)


def _hindsight_words(a: Annotation) -> str:
    """An action's hindsight figures in words, each proven or a bound."""
    before, after = a.hindsight_before, a.hindsight_after
    assert before is not None and after is not None
    if a.hindsight_proven:
        if after > before:
            return f"best reachable {before} -> {after} cards left (proven)"
        return f"no loss: best reachable stays {after} (proven)"
    if after > before:
        sure = "the loss proven" if a.hindsight_mistake_proven else "not proven"
        return (f"best reachable {figure_text(before, False)} -> "
                f"{figure_text(after, False)} cards left ({sure})")  # fmt: skip
    return f"best reachable stays {figure_text(after, False)}, not proven"


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
            if a.hindsight_before is None or a.hindsight_after is None
            else f"{a.hindsight_before} -> {a.hindsight_after} proven"
            if a.hindsight_proven
            else f"<= {a.hindsight_before} -> <= {a.hindsight_after} (best found)"
        )
        table.add_row(
            str(a.turn + 1),
            str(a.play + 1),
            _play_text(rules, a.played),
            "- (none measured better)" if a.no_better else _play_text(rules, a.better),
            f"{100 * a.drop.win:+.0f}",
            f"{a.drop.left:+.1f}",
            a.mark,
            hs,
        )
    if not rows:
        return Text("every action was the blind policy's own choice", style="dim")
    return table


@contextlib.contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[Callable[[int, int], None] | None]:
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


def review_team(record: Record, record_file: str, opts: ReviewOptions, as_json: bool) -> None:
    """``analyze`` on a team game: the fair review and hindsight."""
    from ...models.the_game.record import replayed

    replayed(record, record_file)  # an illegal record is named by its file
    with progress_bar(enabled=not as_json, label="reviewing") as progress:
        review = annotate_record(
            record, opts.samples, opts.sample_seed, opts.hindsight, progress,
            hindsight_total=Limit(opts.hindsight_total), level=Level(opts.level),
            full_view=opts.full_view,
        )  # fmt: skip
    if as_json:
        print_json(review.to_dict())
    else:
        out.print(review_view(review, out.is_terminal))


def hint_team(record: Record, state: GameState, limit: Limit, as_json: bool) -> None:
    """``hint`` on a team game: the best next play with hindsight."""
    with searching(enabled=not as_json):
        h = hint_for(state, limit)
    if as_json:
        print_json(h.advice(record).to_dict())
        return
    out.print(Text(f"player {state.current + 1}: {h.text}"))
    if h.line:
        out.print(LineView("line: ", marked_line(record.deal, h.line), "dim"))


# -- Face to Face (rules D1-D7) ----------------------------------------------------------


def review_duel(
    record: Record, limit: Limit, as_json: bool, full_view: bool | None, jobs: int = 1
) -> None:
    """``analyze`` on a duel: every turn judged (from what its player saw
    too, when the draw piles were face down), the first turn that threw a
    forced win away."""
    from ...analysis.the_game.duel import analyze_duel
    from .duel_view import duel_analysis_view

    with progress_bar(enabled=not as_json, label="analysing") as progress:
        analysis = analyze_duel(record, limit, progress, full_view=full_view, jobs=jobs)
    if as_json:
        print_json(analysis.to_dict())
    else:
        out.print(duel_analysis_view(analysis))


def hint_duel(
    record: Record, state: GameState, limit: Limit, as_json: bool, jobs: int = 1
) -> None:
    """``hint`` on a duel: the best next turn."""
    from ...analysis.the_game.duel import duel_hint
    from ...models import Verdict
    from .duel_view import turn_text

    with searching(enabled=not as_json):
        h = duel_hint(state, limit, jobs=jobs)
    if as_json:
        print_json(h.to_dict(record))
        return
    out.print(Text(f"player {state.current + 1}: {h.text}"))
    if h.verdict != Verdict.UNKNOWN and h.line:
        # The proof's line to the end, replayed through the rules engine.
        line = " | ".join(turn_text(state.rules, t) for t in h.line)
        out.print(Text(f"line: {line}", "dim"))
