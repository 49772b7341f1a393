"""Fire deadlines (rules F2-F4): a fire card must be covered by the end of
the next turn. Without fire cards the module adds nothing.

After slot s, ``f1[p][s]``: pile p shows a fire card laid in the current
turn; ``f2[p][s]``: one laid in the turn before, which must be covered
before this turn ends. A play on p resets both (F4: a new fire card has
its own deadline); a turn start moves f1 to f2. A turn that ends with f2
still set loses the game at once (F2), so it can only be the last turn of
a line: its cards count (the engine counts them), and a perfect clear
ends safely whatever shows (F3 as decided). Cards only ever count in whole
turns, so lines stay closed under cutting after a turn (the growing
horizon relies on it).
"""

from __future__ import annotations

from .model import Model


def add(m: Model) -> None:
    """Add ``f1`` and ``f2`` (needs the cards, turn ends and piles)."""
    sh, mdl, n, x, filled, end, on = m.shape, m.model, m.horizon, m.x, m.filled, m.end, m.on
    if not sh.fire:
        return
    hot = [sum(v for (i, t), v in x.items() if t == s and sh.deck[i] in sh.fire) for s in range(n)]
    f1 = [[mdl.new_bool_var(f"fa{p}_{s}") for s in range(n)] for p in range(sh.n_piles)]
    f2 = [[mdl.new_bool_var(f"fb{p}_{s}") for s in range(n)] for p in range(sh.n_piles)]
    m.f1, m.f2 = f1, f2
    for p in range(sh.n_piles):
        for s in range(n):
            o = on[s][p]
            # On a play: f1 is whether the card is a fire card, f2 clears (F4).
            mdl.add(f1[p][s] == hot[s]).only_enforce_if(o)
            mdl.add_implication(o, f2[p][s].Not())
            if s == 0:
                mdl.add(f1[p][s] == 0).only_enforce_if(o.Not())
                mdl.add(f2[p][s] == 0)
                continue
            new = end[s - 1]
            mdl.add(f1[p][s] == 0).only_enforce_if([o.Not(), new])
            mdl.add(f2[p][s] == f1[p][s - 1]).only_enforce_if([o.Not(), new])
            mdl.add(f1[p][s] == f1[p][s - 1]).only_enforce_if([o.Not(), new.Not()])
            mdl.add(f2[p][s] == f2[p][s - 1]).only_enforce_if([o.Not(), new.Not()])
            # F2: a turn that ends with an old fire card showing ends the game.
            mdl.add_bool_or([end[s - 1].Not(), f2[p][s - 1].Not(), filled[s].Not()])
