"""The hand rule (rules C2, C6): a card is played only once it is drawn.

Every turn draws back what it played from the one shared draw pile, in
order (solo the player refills to H; with P players the pile is shared).
So at the start of a turn with b cards played before, deck positions
< P*H + b have been drawn, and the card at position i can be played in a
turn only if ``need(i)`` <= b = ``tb[s]``: one linear constraint per slot.
Who holds the card is the players module's concern.
"""

from __future__ import annotations

from .cards import in_slot
from .model import Model


def add_at(m: Model, s: int) -> None:
    """The hand rule at slot s (needs the cards module's ``x``)."""
    sh = m.shape
    here = in_slot(m, s)
    # Rules C2/C6: only cards already drawn at the start of the turn.
    m.model.add(sum(sh.need(i) * v for i, v in here if sh.need(i) > 0) <= m.tb[s])


def add(m: Model) -> None:
    """The hand rule at every slot. ``build`` adds it slot by slot within
    the cards module instead (``add_at``); the constraints are the same."""
    for s in range(m.horizon):
        add_at(m, s)
