"""What ``thegame cento play`` draws: the table between turns, and the end of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...models.cento import CentoStatus
from ...models.outcome import Limit
from ...models.words import plural
from ..common import out
from .render import hand_text

if TYPE_CHECKING:
    from ...analysis.cento.session import Session


def table(session: Session) -> Text:
    """The open card, every hand and the draw pile's next cards against the
    solver (everything in Cento's deal is known); against the engine only
    the hand of the person to move (or the only person), the other hands'
    sizes and the pile's size."""
    from ...analysis.cento.session import Opponent

    s = session.state
    hidden = session.vs == Opponent.ENGINE
    viewer = s.to_move if s.to_move in session.human else min(session.human)
    text = Text()
    text.append("open card ", style="dim")
    text.append(str(session.open_value()), style="bold yellow")
    if s.obliged and not session.builder:
        text.append("  (single-digit: the player to move is bound, rule Z2)", style="red")
    for p, hand in enumerate(s.hands):
        if p == s.to_move:
            hand = session.hand()
        mine = p in session.human
        text.append(
            f"\nplayer {p + 1}{' (you)' if mine and len(s.hands) > 1 else ''}: ", style="dim"
        )
        if hidden and p != viewer:
            text.append(f"{plural(len(hand), 'card')}", style="magenta")
            continue
        text.append(hand_text(hand), style="bold cyan" if mine else "magenta")
        text.append(f"  [{plural(len(hand), 'card')}]", style="dim")
    pos = session.builder.pos if session.builder else s.draw_pos
    left = session.deal.draw[pos:]
    text.append(f"\ndraw pile: {plural(len(left), 'card')}", style="dim")
    if left and not hidden:
        text.append(", next " + hand_text(left[:5]), style="dim")
    return text


def say_ending(session: Session, finished: bool) -> None:
    """How the game ended: left, or alone the turns against the fewest, or who won."""
    from ...solver.cento.solo import solve_solo

    s = session.state
    turns = len(session.turns)
    if not finished:
        out.print(f"game left after {plural(turns, 'turn')}", style="dim")
        return
    if session.deal.players == 1:
        if s.status == CentoStatus.WON:
            best = solve_solo(session.deal, Limit(time=max(session.think.time or 0, 10.0)))
            text = f"hand empty in {plural(turns, 'turn')}"
            if best.turn_count is not None:
                extra = turns - best.turn_count
                text += f"; the fewest is {best.turn_count}" + (
                    " - perfect!" if extra == 0 else f" ({plural(extra, 'turn')} more)"
                )
            out.print(text, style="bold green")
        else:
            out.print(
                f"blocked after {plural(turns, 'turn')}: the hand cannot be emptied",
                style="bold red",
            )
        return
    winners = [w + 1 for w in s.winners]
    mine = [w for w in winners if w - 1 in session.human]
    who = str(session.vs)
    if len(winners) > 1:
        names = ", ".join(f"player {w}" for w in winners)
        out.print(
            f"a shared win after {plural(turns, 'turn')} (rule Z1): {names}", style="bold yellow"
        )
    elif mine and len(session.human) == 1:
        out.print(f"you win after {plural(turns, 'turn')}!", style="bold green")
    elif mine:
        out.print(f"player {winners[0]} wins after {plural(turns, 'turn')}!", style="bold green")
    else:
        out.print(
            f"player {winners[0]} (the {who}) wins after {plural(turns, 'turn')}", style="bold red"
        )
