"""What ``thegame nimmt play`` draws: cards with their heads, the rows, the
hand, a turn revealed, and who won."""

from __future__ import annotations

from rich.text import Text

from ...models.nimmt.rules import HEADS, ROW_LIMIT, Rows
from ...models.nimmt.state import TurnShown
from ...models.words import plural
from ..common import out

HEAD_STYLE = {7: "bold red", 5: "red", 3: "yellow", 2: "cyan"}


def card_view(c: int) -> Text:
    """A card with its heads (rule S4) when it has more than one."""
    h = HEADS[c]
    return Text(f"{c}" + (f"({h})" if h > 1 else ""), style=HEAD_STYLE.get(h, ""))


def rows_view(rows: Rows) -> Text:
    text = Text()
    for i, row in enumerate(rows, 1):
        heads = sum(HEADS[c] for c in row)
        text.append(f"row {i}: ", style="dim")
        for j, c in enumerate(row):
            text.append(" " if j else "")
            text.append(card_view(c))
        full = len(row) == ROW_LIMIT
        note = "; full: the next card here takes it" if full else ""
        text.append(
            f"   [{plural(len(row), 'card')}, {plural(heads, 'head')}{note}]\n",
            style="bold red" if full else "dim",
        )
    return text


def hand_view(hand: tuple[int, ...]) -> Text:
    text = Text("your hand: ", style="dim")
    for j, c in enumerate(hand):
        text.append(" " if j else "")
        text.append(card_view(c))
    return text


def name(p: int) -> str:
    return "you" if p == 0 else f"player {p + 1}"


def points(values: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"{name(p)} {v}" for p, v in enumerate(values))


def show_turn(shown: TurnShown) -> None:
    """The cards revealed together (rule S2), and every row taken (rule S3)."""
    revealed = Text(f"turn {shown.turn}: ", style="bold")
    for p, c in enumerate(shown.cards):
        revealed.append(", " if p else "")
        revealed.append(f"{name(p)} ")
        revealed.append(card_view(c))
    out.print(revealed)
    for pl in shown.placements:
        if not pl.taken:
            continue
        heads = sum(HEADS[c] for c in pl.taken)
        why = (
            "is lower than every row's end"
            if pl.chose
            else f"is the sixth card of row {pl.row + 1}"
        )
        style = "bold red" if pl.player == 0 else "magenta"
        out.print(
            f"  {name(pl.player)}: {pl.card} {why}: takes row {pl.row + 1}, "
            f"{plural(len(pl.taken), 'card')}, {plural(heads, 'head')} (rule S3)",
            style=style,
        )


def say_result(scores: list[int], one_round: bool) -> None:
    """Who won: the fewest heads of the round, or points of the game (rule S5)."""
    low = min(scores)
    winners = [p for p, s in enumerate(scores) if s == low]
    final = "points" if not one_round else "heads"
    if 0 in winners:
        text = "you win" if len(winners) == 1 else f"you share the win with {len(winners) - 1}"
        out.print(f"{text}: {low} {final}, the fewest (rule S5)", style="bold green")
    else:
        names = ", ".join(name(p) for p in winners)
        out.print(
            f"{names} win{'s' if len(winners) == 1 else ''} with {low} {final}; "
            f"you have {scores[0]}",
            style="bold red",
        )
