"""The review's pictures in the terminal: the hindsight curve (best reachable
cards left) and the fair win chance at each turn start beside it; plain
lines where the output is not a terminal. Unproven figures read as bounds."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...analysis.the_game.annotate import Review
from ...analysis.the_game.review import Analysis

BLOCKS = " ▁▂▃▄▅▆▇█"


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
    proven, points = analysis.proven_share
    if proven < points:
        rows.append(Text(f"     {proven} of {points} points proven; the others are the best "
                         "found, upper bounds (see the table and the JSON)", style="dim"))
    return Group(*rows)


def hindsight_at_turn_starts(analysis: Analysis) -> dict[int, int]:
    """The best reachable cards left (hindsight) at the start of each turn
    (0-based index) the analysis judged."""
    return {t: analysis.curve[n] for t, n in _turn_start_points(analysis).items()}


def _turn_start_points(analysis: Analysis) -> dict[int, int]:
    """The curve point (index) at the start of each turn judged."""
    points: dict[int, int] = {}
    if analysis.steps:
        points[analysis.steps[0][0]] = 0
    for n, (i, _) in enumerate(analysis.steps):
        points[i + 1] = n + 1  # the last step of turn i: where turn i + 1 starts
    return points


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
    caption += f"; {_curve_by(review)}"
    if not terminal:
        texts = {} if review.hindsight is None else {
            t: review.hindsight.figure(n)
            for t, n in _turn_start_points(review.hindsight).items()}  # fmt: skip
        return _plain_chart(caption, turns, wins, texts)
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
        chart.add_row(fair, _hindsight_column(hs, turns, labels, height, review.hindsight))
    else:
        chart.add_row(fair)
    return Group(Text(caption, style="dim"), chart)


def _curve_by(review: Review) -> str:
    """Who plays the win-chance curve on, in words."""
    return (
        "the curve is the blind policy's own play from each turn start, on the same "
        "sampled orders at every turn"
    )


def _plain_chart(
    caption: str, turns: list[int], wins: list[float], hs: dict[int, str]
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
    hs: dict[int, int], turns: list[int], labels: list[str], height: int, analysis: Analysis
) -> RenderableType:
    """The hindsight curve beside the win chart: best reachable cards left."""
    top = max(hs.values())
    if top == 0:
        return Text(
            "hindsight: a perfect clear stayed reachable at every turn start", style="green"
        )
    points = _turn_start_points(analysis)
    unproven = [t + 1 for t in turns if t in points and not analysis.is_proven(points[t])]
    values = [hs.get(t, 0) / top for t in turns]
    rows = [f"{top:>4} |{r}" if i == 0 else f"     |{r}" for i, r in enumerate(
        _block_rows(values, height))]  # fmt: skip
    rows.append("   0 +" + "-" * len(values))
    rows.append("      " + "".join(labels).rstrip())
    if unproven:
        rows.append(f"turns {', '.join(map(str, unproven))}: best found, not proven (<=)")
    return Group(
        Text("hindsight: best reachable cards left", style="bold"),
        *(Text(line, style="magenta") for line in rows),
        Text("      turn", style="dim"),
    )
