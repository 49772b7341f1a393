"""Rich rendering of deals, positions and check results (presentation only)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ...models.outcome import Status, Verdict
from ...models.the_game import CheckResult, Command, Deal, GameState, Play, Turn, pile_name
from ...models.the_game.notation import line_text, plays_text, plural, turn_label
from ...solver.the_game.api import Solution

_COMMAND_MARK = {
    Command.STOP: "S",
    Command.SKULL: "K",
    Command.THREE: "3",
    Command.NO_TRICK: "N",
    Command.ONE_PILE: "1",
    Command.DRAW_ONE: "D",
    Command.NO_TALK: "T",
}


def card_text(deal: Deal, card: int) -> str:
    """A card, with its Extreme command or fire mark."""
    kind = deal.command(card)
    if kind:
        return f"{card}[{_COMMAND_MARK[kind]}]"
    if card in deal.rules.fire_cards:
        return f"{card}*"
    return str(card)


# What each command showing on a top means (X4), and what one played this
# turn binds (X3), for the line under a position.
_SHOWING = {
    Command.NO_TRICK: "no backward trick (X4a)",
    Command.ONE_PILE: "each turn on one pile (X4b)",
    Command.DRAW_ONE: "draw one card after the turn (X4c)",
    Command.NO_TALK: "no talking (X4d)",
    Command.SKULL: "cover it in this turn (X3b)",
}
_PLAYED = {
    Command.STOP: "stop played: the turn is over (X3a)",
    Command.THREE: "three played: exactly 3 cards this turn (X3c)",
}


def commands_text(state: GameState) -> str | None:
    """Which commands hold now (Extreme): those showing on the tops and the
    lightning commands played this turn; None outside Extreme."""
    deal, rules = state.deal, state.rules
    if not rules.commands:
        return None
    showing = []
    for i, top in enumerate(state.tops):
        kind = deal.command(top)
        if kind in _SHOWING:
            showing.append(f"{card_text(deal, top)} on {pile_name(rules, i)}: {_SHOWING[kind]}")
    text = "commands showing: " + ("; ".join(showing) if showing else "none")
    played = {deal.command(p.card) for p in state.plays_this_turn}
    binding = [_PLAYED[k] for k in _PLAYED if k in played]
    if binding:
        text += "; " + "; ".join(binding)
    return text


def marked_line(deal: Deal, turns: Iterable[Turn]) -> str:
    """A line as ``line_text`` writes it, fire and command cards marked."""
    return line_text(deal.rules, turns, lambda c: card_text(deal, c))


class LineView:
    """A line on screen, wrapped between plays and never inside one
    (``37 A1`` stays whole), after a bold ``label``."""

    def __init__(self, label: str, text: str, style: str = "") -> None:
        self.label, self.text, self.style = label, text, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The pieces end at ", " or " | ": "37 A1," "40 A1 |" "90 D1".
        pieces = re.findall(r".+?(?:, | \| |$)", self.text)
        line = Text(self.label, style="bold")
        for piece in pieces:
            if line.cell_len + len(piece.rstrip()) > options.max_width and line.plain.strip():
                line.rstrip()
                yield line
                line = Text(" " * len(self.label))
            line.append(piece, style=self.style)
        line.rstrip()
        yield line


def marked_plays(deal: Deal, plays: Iterable[Play]) -> str:
    """The plays of a turn, fire and command cards marked."""
    return plays_text(deal.rules, plays, lambda c: card_text(deal, c))


def cards_text(deal: Deal, cards: list[int]) -> str:
    return " ".join(card_text(deal, c) for c in cards) or "-"


def deal_table(deal: Deal, title: str) -> Table:
    """Hands and draw pile(s) of a deal, as the start position shows them."""
    state = GameState(deal)
    table = Table(title=title, show_header=True, header_style="bold")
    table.add_column("who")
    table.add_column("cards")
    for p in range(deal.players):
        table.add_row(f"player {p + 1} hand", cards_text(deal, state.hand(p)))
    if len(state.stocks) > 1:  # a draw pile each (Face to Face, D1)
        for p in range(deal.players):
            table.add_row(f"player {p + 1} draw pile", cards_text(deal, state.draw_pile(p)))
    else:
        table.add_row("draw pile (top first)", cards_text(deal, state.draw_pile()))
    return table


def deal_title(deal: Deal, seed: int | None) -> str:
    parts = [deal.rules.name, plural(deal.players, "player")]
    if seed is not None:
        parts.append(f"seed {seed}")
    parts.append(f"first: player {deal.first}" if deal.first else "first: free (rule C3)")
    return ", ".join(parts)


def legend(deal: Deal) -> str | None:
    if deal.rules.commands:
        return "commands: " + ", ".join(f"[{m}] {k}" for k, m in _COMMAND_MARK.items())
    if deal.rules.fire_cards:
        return "* fire card (rule F1)"
    return None


def check_text(result: CheckResult[GameState]) -> Text:
    """The check's one line (``CheckResult.line``), legal or not."""
    if not result.legal:
        line = Text(result.line("turn"))
        line.stylize("bold red", 0, len("illegal:"))
        return line
    word = None
    if result.status == Status.WON and result.winner:
        word = f"won by player {result.winner}"
    elif result.status == Status.LOST and result.winner:
        word = f"lost, player {result.winner} wins"
    text = result.line("turn", f"cards left: {result.cards_left}", word)
    line = Text(text)
    line.stylize("bold green", 0, text.index(":") + 1)
    return line


def solution_view(sol: Solution) -> Group:
    """Verdict, starting player, the line turn by turn, search statistics."""
    deal = sol.deal
    style = {Verdict.WIN: "bold green", Verdict.LOSS: "bold red"}.get(sol.verdict, "bold yellow")
    head = Text(f"{sol.verdict.upper()}", style=style)
    if sol.verdict == Verdict.WIN:
        head.append(" - a perfect clear exists", style="")
    elif sol.verdict == Verdict.LOSS:
        if sol.optimal:
            head.append(f", best possible: {plural(sol.cards_left, 'card')} left", style="")
        else:
            head.append(
                f", best found: {plural(sol.cards_left, 'card')} left (at least {sol.lower_bound})",
                style="",
            )
        head.append(f"\nproof: {sol.proof}", style="")
    else:
        head.append(
            f" - budget ran out before a proof; best line found below ({sol.cards_left} left)",
            style="",
        )
    lines: list[RenderableType] = [head]
    from_turn = int(sol.details.get("from_turn", 0))
    if from_turn:
        lines.append(
            Text(
                f"from the position after {plural(from_turn, 'turn')} of the record; "
                f"the line goes on from {turn_label(from_turn)}"
            )
        )
    lines.append(
        Text(f"{deal.rules.name}, {plural(deal.players, 'player')}; first: player {sol.first}")
    )
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("turn", justify="right")
    table.add_column("player", justify="right")
    table.add_column("plays")
    for i, turn in enumerate(sol.turns):
        style = "dim" if i < from_turn else ""  # the record's own turns
        table.add_row(str(i + 1), str(turn.player), marked_plays(deal, turn.plays), style=style)
    if sol.turns:
        lines.append(table)
        marks = legend(deal)
        if marks:
            lines.append(Text(marks, style="dim"))
    lines.append(Text(f"cards left: {sol.cards_left}"))
    stats = f"engine: {sol.engine}; {sol.nodes:,} nodes in {sol.seconds:.2f} s"
    lines.append(Text(stats, style="dim"))
    return Group(*lines)
