"""Rule C5 as tables for the kernel's hot loops, built once per card range
from ``models.the_game.placement`` and shared by every kernel of that range
(analysis and puzzles build hundreds); never mutated."""

from __future__ import annotations

import functools
from typing import NamedTuple

from ...models.the_game.placement import accepted_mask, beyond, trick_card


@functools.cache
def between_table(size: int) -> list[list[int]]:
    """btw[a][b]: mask of card values strictly between a and b (a < b).
    Shared by every kernel of a card range (analysis and puzzles build
    hundreds); never mutated."""
    return [
        [((1 << b) - 1) & ~((1 << (a + 1)) - 1) if b > a + 1 else 0 for b in range(size + 1)]
        for a in range(size + 1)
    ]


class PlacementTable(NamedTuple):
    """Rule C5 in the form the hot loops use, built from ``placement``.

    ``trick_top[d][c]``: the top on which card c is a backward trick on a
    pile of direction d (0 ascending, 1 descending), -1 if none;
    ``first_beyond[t]``: the lowest card that goes beyond an ascending top t;
    ``last_beyond[t]``: the highest card that goes beyond a descending top t;
    ``accepted[d][t]``: the mask of cards a pile of direction d with top t takes.
    """

    trick_top: tuple[tuple[int, ...], tuple[int, ...]]
    first_beyond: tuple[int, ...]
    last_beyond: tuple[int, ...]
    accepted: tuple[tuple[int, ...], tuple[int, ...]]


@functools.cache
def placement_table(step: int, size: int) -> PlacementTable:
    """Ask the placement predicates once per (top, card) of a card range;
    shared by every kernel of that range, never mutated."""
    trick_top = [[-1] * (size + 1), [-1] * (size + 1)]
    for d, asc in enumerate((True, False)):
        for t in range(size + 1):
            # The one card a trick puts on t (``is_trick`` is this equality).
            c = trick_card(asc, t, step)
            if 0 <= c <= size:
                trick_top[d][c] = t
    first = [
        next((c for c in range(size + 1) if beyond(True, t, c)), size + 1) for t in range(size + 1)
    ]
    last = [
        next((c for c in range(size, -1, -1) if beyond(False, t, c)), -1) for t in range(size + 1)
    ]
    accepted = tuple(
        tuple(accepted_mask(asc, t, step, size) for t in range(size + 1)) for asc in (True, False)
    )
    return PlacementTable(
        (tuple(trick_top[0]), tuple(trick_top[1])),
        tuple(first),
        tuple(last),
        (accepted[0], accepted[1]),
    )
