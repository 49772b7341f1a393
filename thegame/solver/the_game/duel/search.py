"""The AND-OR search of a Face to Face duel over whole turns.

Depth-first AND-OR search (negamax over win/loss values) with a
transposition table of proven values. The duel is finite and acyclic (every
turn plays at least two cards) and has no draws, so a depth-first search
that stores each proven value under the exact position (``Pos``, the player
to move included) is complete and exact without depth limits; its memory is
the table alone. It is only as fast as its first choices, so children are
ordered (immediate wins, replies that leave the opponent without a legal
turn, children already proven, then a static score), and sound bounds end
a branch early: who finishes first (``_decide``) and who is stuck first
(``_survival``).

This is the reference. ``decide`` runs ``pns.ProofNumberSearch``; both
run on the same pieces (``nodes.DuelNodes``: the table, dominance, the
bounds, the children and their order), and df-pn only chooses differently
which child to search next; the tests check the two against each other.

A node is proven a win only when one child is proven a loss for the
opponent; a loss only when every child is proven a win for the opponent (or
there is no legal turn, D6). Budget exhaustion raises ``OutOfBudget``; no
value is stored for a node whose search was cut.
"""

from __future__ import annotations

from .nodes import DuelNodes
from .position import Pos


class DuelSearch(DuelNodes):
    """Decides who wins from a position depth first (``wins``) and gives the line."""

    def wins(self, pos: Pos) -> bool:
        return and_or_wins(self, pos)


def and_or_wins(nodes: DuelNodes, pos: Pos) -> bool:
    """Whether the player to move at ``pos`` wins with best play from both
    sides, searched depth first; each child is asked through ``nodes.wins``
    (a df-pn search in a depth-first slice of its ``portfolio`` stays in it)."""
    got = nodes.tt.get(pos)
    if got is not None:
        nodes.stats.tt_hits += 1
        return got
    nodes._tick()
    value = nodes._first_look(pos)
    if value is None:
        kids = nodes._open(pos)
        value = kids if isinstance(kids, bool) else any(not nodes.wins(a) for a in kids)
    nodes._store(pos, value)
    return value
