"""Playouts of the rest of a 6 nimmt! round from one player's seat, in batches.

One playout: the unseen cards are shuffled and dealt to the other players
(``turns`` each, in the order of the shuffle), then every player plays one
card a turn by a playout policy until the hands are empty (rules S2, S3);
a card below every row takes the fewest-heads row, ties to the lowest row
(the built-in players' row rule). The result is the heads this player takes
(rule S4), or with ``Objective.MARGIN`` this player's heads against the
others' (see ``Objective``).

Two implementations make exactly the same playouts from the same
``SplitMix64`` stream: the reference ``run_python`` below and the optional
C extension ``_cplayout`` (about a hundred times faster);
``tests/nimmt/test_baselines.py`` compares them draw for draw. ``run`` uses the
extension when it is importable, unless ``THEGAME_PLAYOUT=python``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from enum import IntEnum

from ...models.nimmt.rules import ROW_LIMIT, row_for
from ...models.seeds import SplitMix64
from ...solver.nimmt.problem import Slot, Slots, place

try:
    from . import _cplayout

    HAVE_C = True
except ImportError:  # no compiler at install time: the reference only
    HAVE_C = False


class Policy(IntEnum):
    """How a player picks its card inside a playout."""

    RANDOM = 0  # uniformly random (the published baselines)
    GREEDY = 1  # the cheapest card now, closest fit first; EPSILON% random
    SAFE = 2  # uniformly random among the cards that take the fewest heads now
    # A card weighted by where it ranks in the hand (``RANK_WEIGHT``): the
    # Monte-Carlo agents play their highest cards three times as often as a
    # random pick and their middle ones half as often (docs/nimmt-players.md).
    RANKED = 3


class Objective(IntEnum):
    """What a playout returns."""

    OWN = 0  # this player's heads (the published agents' objective)
    # ``others`` times this player's heads minus the others' heads: the
    # margin to the others' mean, scaled to stay whole. A game is won by the
    # fewest points (rule S5), so heads pushed onto the others count too.
    MARGIN = 1


# Per fifth of the hand, lowest first: the weight of a card ranked there,
# fitted to the baselines' card choices (benchmarks/nimmt_opponents.py).
RANK_WEIGHT = (10, 5, 5, 10, 30)
EPSILON = 10  # percent of greedy picks that are uniformly random instead
C_MAX_PLAYERS = 10  # rule S1
C_MAX_TURNS = 10  # rule S1


def card_cost(table: Sequence[Slot], card: int) -> int:
    """The greedy policy's price of ``card`` on these rows, ignoring the other
    cards of the trick: 1000 per head it would take (the sixth card, rule S3,
    or the fewest-heads row when below every row), plus the gap to its row's
    end (a close fit is less likely to be overtaken)."""
    target = row_for([s[0] for s in table], card)
    if target is None:
        return 1000 * min(s[2] for s in table)
    last, count, heads = table[target]
    gap = card - last
    return 1000 * heads + gap if count == ROW_LIMIT else gap


def rank_weights(hand: Sequence[int]) -> list[int]:
    """Per card of ``hand``, the ranked policy's weight: ``RANK_WEIGHT`` of
    the fifth of the hand (lowest first) that the card ranks in."""
    n = len(hand)
    return [RANK_WEIGHT[5 * sum(d < c for d in hand) // n] for c in hand]


def pick(rng: SplitMix64, hand: Sequence[int], table: Sequence[Slot], policy: Policy) -> int:
    """The index in ``hand`` of the card the policy plays."""
    if policy == Policy.RANDOM:
        return rng.below(len(hand))
    if policy == Policy.RANKED:
        weights = rank_weights(hand)
        r = rng.below(sum(weights))
        for i, w in enumerate(weights):
            r -= w
            if r < 0:
                return i
        raise AssertionError("the draw is below the total weight")
    if policy == Policy.SAFE:
        costs = [card_cost(table, c) // 1000 for c in hand]
        low = min(costs)
        k = rng.below(costs.count(low))
        return [i for i, c in enumerate(costs) if c == low][k]
    if rng.below(100) < EPSILON:
        return rng.below(len(hand))
    best, index = 1 << 30, 0
    for i, card in enumerate(hand):
        cost = card_cost(table, card)
        if cost < best:
            best, index = cost, i
    return index


def _place(table: list[Slot], card: int) -> int:
    """Place ``card`` (rule S3), the fewest-heads row when below every row;
    returns the heads taken."""
    return place(table, card)


def playout(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    first: int,
    pool: Sequence[int],
    others: int,
    me: Policy,
    them: Policy,
    objective: Objective = Objective.OWN,
) -> int:
    """The heads this player takes in one playout (or its margin, by
    ``objective``); ``first`` (0: none) is its card on the first turn.
    Random draws: the shuffle of ``pool``, then per turn one pick per
    player, this player first."""
    turns = len(hand)
    cards = list(pool)
    rng.shuffle(cards)
    hands = [list(hand)] + [cards[q * turns : (q + 1) * turns] for q in range(others)]
    if first:
        hands[0].remove(first)
    table = list(slots)
    total = rest = 0
    for t in range(turns):
        trick = []
        for p, held in enumerate(hands):
            if p == 0 and t == 0 and first:
                trick.append((first, 0))
                continue
            i = pick(rng, held, table, me if p == 0 else them)
            trick.append((held[i], p))
            held[i] = held[-1]  # remove by swapping in the last card (as the C code does)
            held.pop()
        trick.sort()
        for card, p in trick:
            taken = _place(table, card)
            if p == 0:
                total += taken
            else:
                rest += taken
    return others * total - rest if objective == Objective.MARGIN else total


def run_python(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    firsts: Sequence[int],
    pool: Sequence[int],
    others: int,
    n: int,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> list[int]:
    """The total heads of ``n`` playouts per entry of ``firsts``.

    ``common=False``: every playout draws its own deal (first ``firsts[0]``'s
    ``n`` playouts, then the next). ``common=True`` (common random numbers):
    ``n`` times, one seed is drawn and every entry of ``firsts`` is played
    from ``SplitMix64(seed)``, so all candidates meet the same deals."""
    totals = [0] * len(firsts)
    if common:
        for _ in range(n):
            seed = rng.next()
            for k, first in enumerate(firsts):
                totals[k] += playout(
                    SplitMix64(seed), slots, hand, first, pool, others, me, them, objective
                )
    else:
        for k, first in enumerate(firsts):
            for _ in range(n):
                totals[k] += playout(rng, slots, hand, first, pool, others, me, them, objective)
    return totals


def run_c(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    firsts: Sequence[int],
    pool: Sequence[int],
    others: int,
    n: int,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> list[int]:
    """``run_python`` in C; advances ``rng`` exactly as the reference does."""
    totals, rng.state = _cplayout.run(
        rng.state,
        [s for slot in slots for s in slot],
        list(hand),
        list(firsts),
        list(pool),
        others,
        n,
        int(me),
        int(them),
        int(common),
        int(objective),
    )
    return totals


def backend() -> str:
    """``"c"`` or ``"python"``: what ``run`` uses."""
    if os.environ.get("THEGAME_PLAYOUT", "").lower() == "python" or not HAVE_C:
        return "python"
    return "c"


def run(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    firsts: Sequence[int],
    pool: Sequence[int],
    others: int,
    n: int,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> list[int]:
    """``run_c`` when the extension is there, else ``run_python``."""
    if len(pool) < others * len(hand):
        raise ValueError(f"{len(pool)} unseen cards cannot fill {others} hands of {len(hand)}")
    if backend() == "c" and others < C_MAX_PLAYERS and len(hand) <= C_MAX_TURNS:
        return run_c(rng, slots, hand, firsts, pool, others, n, me, them, common, objective)
    return run_python(rng, slots, hand, firsts, pool, others, n, me, them, common, objective)
