"""Play order (commuting plays): one canonical order for plays that commute.

Within a turn nothing is drawn, so plays on different piles commute: a
turn lists its plays pile by pile, each pile's own order kept. Solo
without fire (``Shape.simple``), once the draw pile is empty nothing is
drawn any more and every turn only counts plays, so all the remaining
plays commute across turns too: they are listed pile by pile. Both orders
are compatible with the first-use order of the piles (sorting keeps the
first play of a lower pile ahead of a higher one). ``hint.canonical``
brings a line into this order.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from .model import Model


def add(m: Model) -> None:
    """Add the order and the ``empty`` flags (needs the turns and piles)."""
    sh, mdl, n, on = m.shape, m.model, m.horizon, m.on
    filled, end, tb = m.filled, m.end, m.tb
    pile = [sum(p * on[s][p] for p in range(1, sh.n_piles)) for s in range(n)]
    empty: dict[int, cp_model.IntVar] = m.empty
    for s in range(n - 1):
        mdl.add(pile[s] <= pile[s + 1]).only_enforce_if([end[s].Not(), filled[s + 1]])
        if sh.simple and sh.hand + s >= sh.n:
            # ``empty[s]``: the turn of slot s started with the draw pile empty.
            e = empty[s] = mdl.new_bool_var(f"empty{s}")
            mdl.add(tb[s] >= sh.n - sh.hand).only_enforce_if(e)
            mdl.add(tb[s] <= sh.n - sh.hand - 1).only_enforce_if(e.Not())
            mdl.add(pile[s] <= pile[s + 1]).only_enforce_if([e, filled[s + 1]])
