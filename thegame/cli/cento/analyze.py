"""``thegame cento hint`` and ``thegame cento analyze``: the best next turn
of a record, and where a played game went wrong."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ...models.outcome import Limit
from ...models.words import plural
from ..common import err, out, print_json, searching, user_errors
from ..options import json_option, limit_options, record_argument
from .options import checked, load_record
from .render import stats_text, turn_text

if TYPE_CHECKING:
    from ...analysis.cento.review import TurnReview


@click.command()
@record_argument()
@limit_options(
    30.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option()
@user_errors
def hint(record_file: str, limit: Limit, as_json: bool) -> None:
    """The best next turn of a record, from the exact solvers (3-6 players: a
    turn of a forced win against the others together, when there is one)."""
    from ...analysis.cento.hint import hint_for

    record = load_record(record_file)
    checked(record, record_file)
    with searching(enabled=not as_json) as tick:
        h = hint_for(record, replace(limit, progress=tick))
    data = h.to_dict()
    if as_json:
        print_json(data)
        return
    if h.hint is None:
        out.print(
            f"turn {h.turn}, player {h.player}: no proven best turn "
            f"({data.get('verdict', 'unknown')})"
        )
        return
    out.print(f"turn {h.turn}: " + turn_text(h.hint.to_dict()), markup=False)
    if record.deal.players == 1:
        out.print(f"{data['turn_count']} turns left with best play (proven)")
    elif record.deal.players > 2:
        out.print(f"player {h.player} can force a win whatever the others do together (proven)")
    elif data["tie"]:
        out.print("with best play from here: a shared win (proven)")
    else:
        out.print(f"with best play from here: player {data['winner']} wins (proven)")


@click.command()
@record_argument()
@limit_options(
    5.0,
    time_help="Seconds per position before it is left undecided.",
    nodes_help="Search nodes per position before it is left undecided (default: no limit).",
)
@json_option("Print the review as JSON.")
@user_errors
def analyze(record_file: str, limit: Limit, as_json: bool) -> None:
    """Where a played game went wrong. Alone: the turns wasted against the
    fewest (and a turn after which the hand could no longer be emptied).
    Two players: the first turn that threw a forced win away, where the
    two-player search decides, with a winning turn instead. 3-6 players:
    the turns after which their player could no longer force a win against
    the others together (proven), and elsewhere the engine's estimate."""
    from ...analysis.cento.review import TableReview, review

    record = load_record(record_file)
    checked(record, record_file)
    total = len(record.turns) + 1
    with _progress(not as_json, total, "solving positions") as step:
        result = review(record, limit, step)
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    if isinstance(result, TableReview):
        _table_review(result, data, limit)
        return
    out.print(_review_head(record.deal.players, data), markup=False)
    for t in result.turns:
        line, style = _turn_line(t, record.deal.players)
        out.print(line, style=style, markup=False)
    first = data["first_mistake"]
    if first is None:
        out.print(
            "no turn threw anything away"
            + ("" if data["optimal"] else " (where the search decided)"),
            style="green",
        )
    else:
        out.print(f"first mistake: turn {first}", style="bold")
    if not data["optimal"]:
        out.print(
            f"{data.get('undecided', 0)} positions undecided within {limit.describe()} each",
            style="dim",
        )
    out.print(stats_text(data), style="dim")


def _table_review(result: Any, data: dict[str, Any], limit: Limit) -> None:
    """A 3-6 player review: per turn, the mover's forced win before and after."""
    word = {True: "yes", False: "no", None: "undecided"}
    out.print(
        f"{data['players']} players, game {data['status']}: could the player who moved force "
        "a win whatever the others did together?",
        markup=False,
    )
    for t in result.turns:
        line = f"turn {t.turn}: " + turn_text(t.played.to_dict())
        style = ""
        if t.lost_win:
            line += ": it throws the forced win away (proven)"
            if t.best is not None:
                line += "; better: " + turn_text(t.best.to_dict()).split(": ", 1)[1]
            style = "yellow"
        elif t.estimate is not None and t.estimate.best - t.estimate.played >= 0.15:
            e = t.estimate
            line += (
                f": estimated to win {e.played:.0%} of {e.worlds} worlds, against {e.best:.0%} "
                "with the engine's turn (an estimate, not a proof)"
            )
            style = "dim"
        else:
            line += f" (a forced win before it: {word[t.win_before]}; after it: "
            line += f"{word[t.win_after]})"
        out.print(line, style=style, markup=False)
    first = data["first_mistake"]
    if first is None:
        out.print("no turn threw a proven forced win away", style="green")
    else:
        out.print(f"first mistake: turn {first}", style="bold")
    if data["undecided"]:
        out.print(
            f"{data['undecided']} turns undecided within {limit.describe()} a position; "
            "estimates are the engine's, from what the seat saw",
            style="dim",
        )
    out.print(stats_text(data), style="dim")


def _review_head(players: int, data: dict[str, Any]) -> str:
    """The review's first line: alone the fewest turns against the turns
    played, two players the verdict from the deal."""
    if players != 1:
        text = {"win": "player 1 wins", "loss": "player 2 wins", "tie": "a shared win"}
        start = text.get(data["verdict"], "undecided within the budget")
        return f"from the deal with best play: {start}; game {data['status']}"
    if data["turn_count"] is None:
        if data["verdict"] == "loss":
            return "the hand could not be emptied from the start"
        return "the fewest turns are unknown within the budget"
    head = f"fewest turns: {data['turn_count']}; played {data['turns_played']}"
    if data["wasted"] is not None:
        head += f", {plural(data['wasted'], 'turn')} wasted"
    elif data["status"] != "won":
        head += f" ({data['status']})"
    return head


def _turn_line(t: TurnReview, players: int) -> tuple[str, str]:
    """A reviewed turn as a sentence and its style: what was played, what
    it cost (proven by the search) and the better turn, or that the search
    did not decide it."""
    played = turn_text(t.played.to_dict())
    d = t.to_dict(players)
    line = f"turn {t.turn}: {played}"
    if players == 1:
        before, after = d["fewest_before"], d["fewest_after"]
        if t.lost_win:
            line += ": it cost the game, the hand can no longer be emptied (proven)"
        elif d["wasted"]:
            line += (f": it cost {plural(d['wasted'], 'turn')} (proven: the fewest turns left "
                     f"to empty the hand were {before} before it, {after} after it)")  # fmt: skip
        elif before is not None and after is not None:
            line += ": it keeps the fewest turns (proven)"
        else:
            line += " (not decided within the budget)"
    elif t.lost_win:
        line += ": it throws the forced win away (proven)"
    elif d["value_lost"]:
        line += ": it throws the shared win away (proven)"
    elif d["value_before"] is not None and d["value_after"] is not None:
        line += ": it keeps the result with best play (proven)"
    else:
        line += " (not decided within the budget)"
    if t.best_instead is None:
        return line, ""
    better = turn_text(t.best_instead.to_dict()).split(": ", 1)[1]
    return f"{line}; better: {better}", "yellow"


@contextlib.contextmanager
def _progress(enabled: bool, total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        task = bar.add_task(label, total=total)
        yield lambda _i: bar.advance(task)
