"""Bitmask tables for the fast Cento move generator.

A hand is a bitmask of number cards (bit v for card v; the Trick/Treat 100 is
bit 100 too) plus a count of free cards. The open card only matters through
its digits and whether it is single-digit (rules Z1, Z2), so the solvers keep
it as the smallest value of its class (``canon``): 53 and 35 are one state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...models.cento.rules import HUNDRED, MAX_NAMED, Rules, digits, fits, is_single

BIT100 = 1 << HUNDRED


def _class(v: int) -> tuple[frozenset[int], bool]:
    return digits(v), is_single(v)


@dataclass(frozen=True)
class Tables:
    rules: Rules
    canon: tuple[int, ...]  # index 1..100 -> smallest value of the same class
    fit: dict[int, int]  # canon open -> mask of number cards that fit it
    names: dict[int, tuple[int, ...]]  # canon open -> free-card names, one per class
    chain_cards: tuple[int, ...]  # digit -> mask of number cards containing it
    chain_names: tuple[tuple[int, ...], ...]  # digit -> names 1..99 containing it, one per class
    singles: int  # mask of the number cards 1..9
    numbers: int  # mask of every number card of the deck
    digit_mask: tuple[int, ...]  # card -> bitmask of its digits


@lru_cache(maxsize=16)
def tables(rules: Rules) -> Tables:
    canon_map: dict[tuple[frozenset[int], bool], int] = {}
    canon = [0] * (HUNDRED + 1)
    for v in range(1, HUNDRED + 1):
        canon[v] = canon_map.setdefault(_class(v), v)
    numbers = 0
    for v in range(rules.low, rules.high + 1):
        if rules.is_number(v):
            numbers |= 1 << v
    reps = sorted(set(canon[1:]))
    fit: dict[int, int] = {}
    names: dict[int, tuple[int, ...]] = {}
    name_reps = sorted({canon[v] for v in range(1, MAX_NAMED + 1)})
    for o in reps:
        m = 0
        for v in range(rules.low, rules.high + 1):
            if numbers >> v & 1 and fits(v, o):
                m |= 1 << v
        fit[o] = m
        names[o] = tuple(v for v in name_reps if fits(v, o))
    chain_cards = []
    chain_names = []
    for d in range(10):
        chain_cards.append(
            sum(1 << v for v in range(1, HUNDRED + 1) if numbers >> v & 1 and d in digits(v))
        )
        chain_names.append(tuple(v for v in name_reps if d in digits(v)))
    singles = sum(1 << v for v in range(1, 10) if numbers >> v & 1)
    digit_mask = tuple(sum(1 << d for d in digits(v)) if v else 0 for v in range(HUNDRED + 1))
    return Tables(
        rules,
        tuple(canon),
        fit,
        names,
        tuple(chain_cards),
        tuple(chain_names),
        singles,
        numbers,
        digit_mask,
    )


def bits(mask: int) -> list[int]:
    """The card values of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
