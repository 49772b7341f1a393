"""How much room each pile has left: public information, since every played
card is on the table (the terminal's table and the browser's board show it)."""

from __future__ import annotations

from . import placement
from .state import GameState, is_ascending, pile_owner


def cards_out(state: GameState, owner: int | None) -> set[int]:
    """The cards not played yet (hands and draw piles). In a duel only
    ``owner``'s cards (D1: each player has their own 2..59)."""
    players = range(len(state.hands)) if owner is None else range(owner, owner + 1)
    out: set[int] = set()
    for p in players:
        out |= state.hands[p]
        out.update(state.draw_pile(p))
    return out


def room(state: GameState, pile: int) -> int:
    """How many cards still out can go on ``pile`` now (rule C5: beyond the
    top, or the backward trick; in a duel, the owner's cards by D3)."""
    rules = state.rules
    asc = is_ascending(rules, pile)
    top = state.tops[pile]
    return sum(
        1
        for c in cards_out(state, pile_owner(rules, pile))
        if placement.accepts(asc, top, c, rules.step)
    )
