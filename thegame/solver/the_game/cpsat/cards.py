"""Cards in slots: which card each slot holds, and that the filled slots
are a prefix.

``x[i, s]`` is true when the card at deck position i is the card of slot s.
A filled slot holds exactly one card, an empty slot none, and each card is
played at most once (exactly once in the perfect-clear model). ``x[i, s]``
only exists from ``Shape.earliest(i)`` on: a card cannot be played before
enough cards have gone for it to be drawn.

Alone, this module admits the cards in any order: which orders are legal
is for the modules after it.
"""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from .model import Model


def add(m: Model, per_slot: Callable[[Model, int], None] | None = None) -> None:
    """Add ``x`` and its links to ``filled`` and ``card``. ``per_slot(m, s)``
    runs after slot s is linked (``build`` adds the hand rule there)."""
    sh, mdl, n, filled = m.shape, m.model, m.horizon, m.filled
    for s in range(n - 1):
        mdl.add_implication(filled[s + 1], filled[s])
    if m.clear:
        for f in filled:
            mdl.add(f == 1)
    x = m.x
    for i in m.playable:
        slots = []
        for s in range(sh.earliest(i), n):
            x[i, s] = mdl.new_bool_var(f"x{i}_{s}")
            slots.append(x[i, s])
        if m.clear:
            mdl.add_exactly_one(slots)
        else:
            mdl.add_at_most_one(slots)
    for s in range(n):
        here = in_slot(m, s)
        mdl.add(sum(v for _, v in here) == filled[s])
        mdl.add(m.card[s] == sum(sh.deck[i] * v for i, v in here))
        if per_slot is not None:
            per_slot(m, s)


def in_slot(m: Model, s: int) -> list[tuple[int, cp_model.IntVar]]:
    """(deck position, ``x`` variable) of every card slot s may hold, by position."""
    return [(i, m.x[i, s]) for i in m.playable if (i, s) in m.x]
