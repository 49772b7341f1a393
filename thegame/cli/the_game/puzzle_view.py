"""How puzzles look in the terminal: the title, the difficulty, the position, the solution."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...models.the_game import GameState, Turn, is_ascending, pile_name
from ...models.the_game.notation import plays_text, plural, turn_label
from ...puzzles.dates import parse_date, today_utc
from ...puzzles.the_game.files import Puzzle
from ..common import err
from .render import LineView, card_text, cards_text, commands_text, legend, marked_line

LABEL_STYLE = {"easy": "green", "medium": "yellow", "hard": "red", "expert": "bold magenta"}


# -- rendering -----------------------------------------------------------------


def difficulty_text(puzzle: Puzzle, measures: str | None) -> Text:
    """The puzzle's label and score, and its kind's ``measures`` (``kinds``)."""
    label = puzzle.label
    text = Text("difficulty: ")
    text.append(label, style=LABEL_STYLE.get(label, "bold"))
    text.append(f" ({puzzle.score:g}/100)")
    if measures:
        text.append(measures, style="dim")
    return text


def puzzle_title(puzzle: Puzzle, goal: Callable[[GameState, str, str], str]) -> Text:
    """The puzzle's title; ``goal`` says what is left to do (its kind's)."""
    state = puzzle.start()
    where = f"daily puzzle {puzzle.date}" if puzzle.date else "puzzle"
    if puzzle.seed is not None:
        where += f" (seed {puzzle.seed})"
    title = Text(where, style="bold")
    played = plural(len(puzzle.position), "turn")
    title.append(goal(state, puzzle.variant, played))
    return title


def position_view(state: GameState) -> RenderableType:
    """The piles, the hand and the draw pile of the player to move."""
    deal, rules = state.deal, state.rules
    piles = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    for i in range(rules.n_piles):
        arrow = "up" if is_ascending(rules, i) else "down"
        piles.add_column(f"{pile_name(rules, i)} {arrow}", justify="center")
    tops = []
    for i, top in enumerate(state.tops):
        start = rules.asc_start if is_ascending(rules, i) else rules.desc_start
        text = Text(card_text(deal, top), style="bold" if top != start else "dim")
        if top in rules.fire_cards:
            text.stylize("red")
        tops.append(text)
    piles.add_row(*tops)
    hand = Text("hand  ", style="bold")
    for c in state.hand():
        hand.append(f" {card_text(deal, c)} ", style="reverse" if c in rules.fire_cards else "")
    draw = state.draw_pile()
    pile = Text(f"draw pile: {plural(len(draw), 'card')}", style="dim")
    if draw:
        pile.append(f" (top first: {cards_text(deal, draw)})", style="dim")
    n = len(state.placed)
    turn = Text(f"{turn_label(state.turn)}: played {n}, minimum {state.turn_min}", style="dim")
    if state.placed:
        turn.append(" - " + plays_text(rules, state.plays_this_turn), style="dim")
    parts: list[RenderableType] = [piles, hand, pile, turn]
    commands = commands_text(state)
    if commands is not None:
        # Extreme: what binds now, and what the marks on the cards mean.
        parts.append(Text(commands, style="bold"))
        parts.append(Text(legend(deal) or "", style="dim"))
    parts.append(Text(f"cards left: {state.cards_left()}", style="dim"))
    return Group(*parts)


def solution_lines(puzzle: Puzzle) -> LineView:
    return LineView("solution: ", marked_line(puzzle.deal, puzzle.solution))


def turns_text(state: GameState, turns: list[Turn]) -> str:
    return marked_line(state.deal, turns)


# -- daily -----------------------------------------------------------------------


@contextlib.contextmanager
def live_status(enabled: bool, text: str) -> Iterator[Callable[[str], None]]:
    if not enabled or not err.is_terminal:
        yield lambda _: None
        return
    with err.status(text) as status:
        yield lambda message: status.update(message)


def load_daily(date: str | None, show: bool, stream: str | None = None) -> Puzzle:
    """The daily puzzle of ``date`` (default today) in the default stream or
    in ``stream`` (``extreme``)."""
    day = parse_date(date) if date is not None else today_utc()
    from ...puzzles.the_game.daily import daily

    what = f"the {stream} puzzle" if stream else "the puzzle"
    with live_status(show, f"making {what} of {day.isoformat()}...") as update:
        return daily(day, lambda n: update(f"making {what} of {day}... seed {n + 1}"), stream)
