"""Piles (rules C1, C5): what each play goes on and what each pile shows.

``on[s][p]`` puts the card of slot s on pile p, ``trick[s][p]`` as a
backward trick; ``top[p][s]`` is the top of pile p after slot s. A normal
play is above the top of an ascending pile or below that of a descending
one, a trick exactly ``step`` back; the top becomes the card.

Piles of one direction are interchangeable for the whole game (same start,
same rule), so they are used in index order (pile symmetry).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from .model import Model


def add(m: Model) -> None:
    """Add ``on``, ``trick`` and ``top`` with placement and pile symmetry
    (needs ``filled`` and ``card``)."""
    sh, mdl, n, card = m.shape, m.model, m.horizon, m.card
    on = [[mdl.new_bool_var(f"on{s}_{p}") for p in range(sh.n_piles)] for s in range(n)]
    trick = [[mdl.new_bool_var(f"trick{s}_{p}") for p in range(sh.n_piles)] for s in range(n)]
    top: list[list[cp_model.IntVar]] = []
    for p in range(sh.n_piles):
        first = sh.start_top(p)
        dom = cp_model.Domain.from_values([first, *range(sh.low, sh.high + 1)])
        top.append([mdl.new_int_var_from_domain(dom, f"top{p}_{s}") for s in range(n)])
    m.on, m.trick, m.top = on, trick, top
    for s in range(n):
        mdl.add(sum(on[s]) == m.filled[s])
        for p in range(sh.n_piles):
            prev: cp_model.IntVar | int = top[p][s - 1] if s > 0 else sh.start_top(p)
            o, t, c = on[s][p], trick[s][p], card[s]
            mdl.add_implication(t, o)
            # Rule C5 as linear constraints: a normal play goes beyond the
            # top, a trick exactly ``step`` back. It mirrors
            # ``models.the_game.placement.accepts`` (beyond / trick_card).
            if sh.asc(p):
                mdl.add(c >= prev + 1).only_enforce_if([o, t.Not()])
                mdl.add(c == prev - sh.step).only_enforce_if(t)
            else:
                mdl.add(c <= prev - 1).only_enforce_if([o, t.Not()])
                mdl.add(c == prev + sh.step).only_enforce_if(t)
            mdl.add(top[p][s] == c).only_enforce_if(o)
            mdl.add(top[p][s] == prev).only_enforce_if(o.Not())
            # Redundant, for the LP: a normal play moves the top at least
            # one on, a trick exactly one step back, no play not at all.
            if sh.asc(p):
                mdl.add(top[p][s] >= prev + o - (sh.step + 1) * t)
            else:
                mdl.add(top[p][s] <= prev - o + (sh.step + 1) * t)
    _symmetry(m)


def _symmetry(m: Model) -> None:
    """Pile symmetry: relabel the piles of one direction in order of first
    use, so pile p+1 of a direction is used only once pile p has been. A
    used ascending pile shows a card >= low (a trick lands on a card, never
    back on the start value), a used descending one a card <= high."""
    sh, mdl, on, top = m.shape, m.model, m.on, m.top
    for p in range(sh.n_piles - 1):
        q = p + 1
        if sh.asc(p) != sh.asc(q):
            continue
        mdl.add(on[0][q] == 0)
        for s in range(1, m.horizon):
            if sh.asc(p):
                mdl.add(top[p][s - 1] >= sh.low).only_enforce_if(on[s][q])
            else:
                mdl.add(top[p][s - 1] <= sh.high).only_enforce_if(on[s][q])
