"""Where a card may go: rule C5 (and D3, D4 for Face to Face), said once.

Every part of the package that asks "may this card go on that pile" calls
these predicates: the rules engine, the search kernel, the bounds, the
CP-SAT hint walk, the blind policy, the explanations and the opening policy.

A pile is described by its direction (``ascending``) and its ``top``; ``step``
is the backward-trick distance (10 in the printed game, rule C10 makes it a
parameter).
"""

from __future__ import annotations


def beyond(ascending: bool, top: int, card: int) -> bool:
    """A normal play (C5): higher than an ascending top, lower than a descending one."""
    return card > top if ascending else card < top


def trick_card(ascending: bool, top: int, step: int) -> int:
    """The one card that goes back onto this pile: exactly ``step`` below an
    ascending top, above a descending one (C5: only exactly, not twice)."""
    return top - step if ascending else top + step


def is_trick(ascending: bool, top: int, card: int, step: int) -> bool:
    """A backward trick (C5). It is never also a normal play (``step`` > 0)."""
    return card == trick_card(ascending, top, step)


def accepts(ascending: bool, top: int, card: int, step: int) -> bool:
    """Rule C5 (D3 on one's own piles): a normal play or a backward trick."""
    return beyond(ascending, top, card) or card == trick_card(ascending, top, step)


def improves(ascending: bool, top: int, card: int) -> bool:
    """Rule D4: a card on the opponent's pile must move it back, by any amount
    (strictly lower than their ascending top, higher than their descending one)."""
    return card < top if ascending else card > top


def takes_all_of(ascending: bool, top: int, other: int, step: int, unplayed: int) -> bool:
    """Whether a pile showing ``top`` takes every card (C5) that a pile of the
    same direction showing ``other`` takes, now and after any same plays on
    both, when only the cards of ``unplayed`` (a bitmask) can still come:
    equal tops, or ``other`` beyond ``top`` with its backward-trick card
    played already or beyond ``top`` too. The same card on both leaves equal
    tops, and played cards stay played, so this lasts (the dominances of
    the duel search and of the loss-argument prototypes rest on it)."""
    if top == other:
        return True
    back = trick_card(ascending, other, step)
    waiting = back >= 0 and unplayed >> back & 1
    return beyond(ascending, top, other) and (not waiting or beyond(ascending, top, back))


def accepted_mask(ascending: bool, top: int, step: int, size: int) -> int:
    """Bitmask (bit c = card c, for c < ``size``) of every card the pile
    accepts under C5: the bit-parallel form of ``accepts`` for kernels."""
    if ascending:
        mask = ((1 << size) - 1) & ~((1 << (top + 1)) - 1)
    else:
        mask = (1 << max(top, 0)) - 1 if top < size else (1 << size) - 1
    back = trick_card(ascending, top, step)
    if 0 <= back < size:
        mask |= 1 << back
    return mask
