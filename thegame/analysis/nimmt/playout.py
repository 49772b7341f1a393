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
import time
from collections.abc import Sequence
from enum import IntEnum

from ...models.nimmt.rules import ROW_LIMIT, row_for
from ...models.outcome import Limit
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
BUDGET_EVERY = 64  # thegame/csrc/budget.h: the cadence of the clock and progress checks


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


def spent(limit: Limit, deadline: float | None, done: int) -> bool:
    """``budget_spent`` of thegame/csrc/budget.h for the reference: the node
    limit at once, the clock and the progress every ``BUDGET_EVERY`` deals."""
    if limit.nodes is not None and done >= limit.nodes:
        return True
    if done % BUDGET_EVERY:
        return False
    if deadline is not None and time.monotonic() > deadline:
        return True
    return limit.progress is not None and limit.progress(done) is True  # type: ignore[func-returns-value]


def run_python(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    firsts: Sequence[int],
    pool: Sequence[int],
    others: int,
    limit: Limit,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> tuple[list[int], int]:
    """The total heads of one playout per entry of ``firsts`` per deal, deal
    after deal until ``limit`` is spent (``Limit(nodes=n)``: ``n`` deals);
    returns the totals and the deals played.

    ``common=False``: every playout draws its own deal (``firsts[0]``'s,
    then the next one's, and round again). ``common=True`` (common random
    numbers): each time one seed is drawn and every entry of ``firsts`` is
    played from ``SplitMix64(seed)``, so all candidates meet the same deals."""
    totals = [0] * len(firsts)
    deadline, done = limit.deadline(), 0
    while not spent(limit, deadline, done):
        seed = rng.next() if common else 0
        for k, first in enumerate(firsts):
            stream = SplitMix64(seed) if common else rng
            totals[k] += playout(stream, slots, hand, first, pool, others, me, them, objective)
        done += 1
    return totals, done


def run_c(
    rng: SplitMix64,
    slots: Slots,
    hand: Sequence[int],
    firsts: Sequence[int],
    pool: Sequence[int],
    others: int,
    limit: Limit,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> tuple[list[int], int]:
    """``run_python`` in C; advances ``rng`` exactly as the reference does.
    Its budget is the C ``Budget`` filled from ``limit`` as every kernel's."""
    totals, done, rng.state = _cplayout.run(
        rng.state,
        [s for slot in slots for s in slot],
        list(hand),
        list(firsts),
        list(pool),
        others,
        (limit.nodes, limit.deadline(), 0, limit.progress),
        int(me),
        int(them),
        int(common),
        int(objective),
    )
    return totals, done


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
    limit: Limit,
    me: Policy = Policy.RANDOM,
    them: Policy = Policy.RANDOM,
    common: bool = False,
    objective: Objective = Objective.OWN,
) -> tuple[list[int], int]:
    """``run_c`` when the extension is there, else ``run_python``."""
    if len(pool) < others * len(hand):
        raise ValueError(f"{len(pool)} unseen cards cannot fill {others} hands of {len(hand)}")
    if backend() == "c" and others < C_MAX_PLAYERS and len(hand) <= C_MAX_TURNS:
        return run_c(rng, slots, hand, firsts, pool, others, limit, me, them, common, objective)
    return run_python(rng, slots, hand, firsts, pool, others, limit, me, them, common, objective)
