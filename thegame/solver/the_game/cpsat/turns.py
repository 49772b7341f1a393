"""Turns: where they end, where they start, and how long they are.

``end[s]`` ends a turn after slot s; ``tb[s]`` is the slot the turn
containing s started at. Only a filled slot ends a turn, and the last
filled slot always does, so every counted turn is complete: the game ends
at the start of a turn whose minimum cannot be met, and the cards of an
unfinished turn do not count (rule C8).

A turn starting at slot b has at least ``Shape.minimum(b)`` plays (rules
C4, P1: m while the draw pile has cards, ``min_play_empty`` after) and at
most ``Shape.maximum(b)`` (turn splitting, argued there).
"""

from __future__ import annotations

from .model import Model


def add(m: Model) -> None:
    """Add the turn ends, ``tb`` and the turn lengths (needs ``filled``)."""
    sh, mdl, n = m.shape, m.model, m.horizon
    filled, end, tb, start = m.filled, m.end, m.tb, m.start
    for s in range(n):
        mdl.add_implication(end[s], filled[s])
        if s + 1 < n:
            # The last filled slot ends a (complete) turn (rule C8).
            mdl.add_bool_or([filled[s].Not(), filled[s + 1], end[s]])
        else:
            mdl.add_implication(filled[s], end[s])
    # tb: where the current turn started.
    mdl.add(tb[0] == 0)
    for s in range(1, n):
        mdl.add(tb[s] == s).only_enforce_if(end[s - 1])
        mdl.add(tb[s] == tb[s - 1]).only_enforce_if(end[s - 1].Not())
    # Turn lengths: minimum (C4/P1) and the sound maximum (``Shape.maximum``).
    for b in range(n):
        lo, hi = sh.minimum(b), sh.maximum(b)
        st = start[b]
        if b + lo > n:
            # Not enough slots left for a whole turn.
            if isinstance(st, int):
                mdl.add(filled[b] == 0)
            else:
                mdl.add_implication(st, filled[b].Not())
            continue
        inner = [end[b + j] for j in range(lo - 1)]
        closing = [end[b + j] for j in range(lo - 1, min(hi, n - b))]
        if isinstance(st, int):
            for e in inner:
                mdl.add(e == 0)
            mdl.add_bool_or(closing).only_enforce_if(filled[b])
        else:
            for e in inner:
                mdl.add_implication(st, e.Not())
            mdl.add_bool_or(closing).only_enforce_if([st, filled[b]])
