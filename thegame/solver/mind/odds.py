"""Exact odds of one level under the gap model (rule M6): counting every deal.

Under rule M6 only the sorted dealt cards and their holders matter. Walking
the sorted cards, a life is lost where the holder changes between two cards
less than d apart, unless the lower of the two was itself played in a
collision (then it was never the lowest card in hand, so that gap is never
compared). So a dynamic programme over the card values 1..high needs, per
player, how many cards they must still receive, and about the last card put
in play: how far back it lies (only while that is less than d), whose it
was, and whether it was a collision card. Players with equal needs are
interchangeable, so a state keeps the others' needs as a sorted tuple and
counts each choice with its multiplicity.

The counts per number of lives lost travel together in one big integer, one
field of ``slot`` bits per count (a life lost is a shift by one field), which
keeps the inner loop to a few integer operations per state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Any

from ...models.errors import InvalidInputError
from ...models.mind import Rules

# (gap, flag, owner's need, others' needs). gap 0: the last card in play lies
# d or more back (or none yet): no collision is possible with the next card,
# so its holder is forgotten and every need sits in ``others``.
Key = tuple[int, int, int, tuple[int, ...]]
FAR = 0


@dataclass(frozen=True)
class LevelOdds:
    """How many of the ``total`` equally likely deals cost 0, 1, 2, ... lives."""

    players: int
    cards_each: int
    high: int
    tolerance: int
    star: bool
    counts: tuple[int, ...]
    total: int

    def probabilities(self) -> list[Fraction]:
        return [Fraction(c, self.total) for c in self.counts]

    def floats(self) -> list[float]:
        return [c / self.total for c in self.counts]

    def to_dict(self) -> dict[str, Any]:
        return {"lives_lost": self.floats(), "exact": True}


def deal_count(players: int, cards_each: int, high: int) -> int:
    """Deals of ``cards_each`` cards to each player from 1..high (ordered by player)."""
    m = players * cards_each
    count: int = comb(high, m) * factorial(m) // factorial(cards_each) ** players
    return count


def check_sizes(players: int, cards_each: int, high: int, tolerance: int) -> None:
    if players < 1 or cards_each < 1:
        raise InvalidInputError("players and cards per player must be at least 1", "level")
    if players * cards_each > high:
        raise InvalidInputError(
            f"{players} x {cards_each} cards do not fit in 1..{high}", "level"
        )
    if tolerance < 1:
        raise InvalidInputError(f"the tolerance d must be at least 1, not {tolerance}",
                                "tolerance")


class _Steps:
    """The walk's moves for one card value under rule M6, from a key (the
    gap since the last card put in play, whether that gap already cost a
    life, its holder's cards still to receive, the others'); memoised."""

    def __init__(self, tolerance: int, cards_each: int, star: bool) -> None:
        self.d, self.n, self.star = tolerance, cards_each, star
        self.moves = cache(self._moves)

    def near(self, gap: int, flag: int, owner: int, others: tuple[int, ...]) -> Key:
        if gap >= self.d:
            return (FAR, 0, -1, tuple(sorted((*others, owner))))
        return (gap, flag, owner, others)

    def advance(self, key: Key) -> Key:
        """One card value passes without a card put in play."""
        gap, flag, owner, others = key
        return key if gap == FAR else self.near(gap + 1, flag, owner, others)

    def _moves(self, key: Key) -> tuple[tuple[Key, int, int, int], ...]:
        """(next key, ways, lives lost, cards still to receive) for one value."""
        near, advance = self.near, self.advance
        gap, flag, owner, others = key
        out: list[tuple[Key, int, int]] = [(advance(key), 1, 0)]  # nobody holds it
        if gap != FAR and owner > 0:
            # the last card's holder gets the next one too: never a collision
            out.append((near(1, 0, owner - 1, others), 1, 0))
        for q in sorted(set(others)):
            if q == 0:
                continue
            ways = others.count(q)
            i = others.index(q)
            rest = others[:i] + others[i + 1 :]
            if self.star and q == self.n:
                # rule M4: a player's lowest card is thrown out before play
                thrown = tuple(sorted((*rest, q - 1)))
                out.append((advance((gap, flag, owner, thrown)), ways, 0))
                continue
            if gap == FAR:
                out.append((near(1, 0, q - 1, rest), ways, 0))
                continue
            # rule M6: another player's card closer than d to the last one
            hit = 1 - flag
            out.append((near(1, hit, q - 1, tuple(sorted((*rest, owner)))), ways, hit))
        return tuple((k, w, s, sum(k[3]) + max(k[2], 0)) for k, w, s in out)


def level_odds(
    players: int,
    cards_each: int,
    tolerance: int,
    *,
    high: int = 100,
    star: bool = False,
    tick: Callable[[int], None] | None = None,
) -> LevelOdds:
    """The exact distribution of lives lost in one level under rule M6.

    ``star``: one throwing star at the start (rule M4), so each player's lowest
    card (the first they receive on the walk up) is out of play.
    ``tick(v)`` is called after each card value (progress, Ctrl-C).
    """
    check_sizes(players, cards_each, high, tolerance)
    n = cards_each
    total = deal_count(players, n, high)
    slot = total.bit_length() + 1
    mask = (1 << slot) - 1
    moves = _Steps(tolerance, n, star).moves
    cur: dict[Key, int] = {(FAR, 0, -1, (n,) * players): 1}
    for v in range(1, high + 1):
        left = high - v
        nxt: dict[Key, int] = {}
        get = nxt.get
        for key, val in cur.items():
            for k2, ways, hit, need in moves(key):
                if need > left:
                    continue
                x = val * ways if ways != 1 else val
                if hit:
                    x <<= slot
                nxt[k2] = get(k2, 0) + x
        cur = nxt
        if tick is not None:
            tick(v)
    packed = sum(cur.values())
    counts: list[int] = []
    while packed:
        counts.append(packed & mask)
        packed >>= slot
    if sum(counts) != total:  # every deal counted exactly once
        raise AssertionError(f"odds DP counted {sum(counts)} deals, expected {total}")
    return LevelOdds(players, n, high, tolerance, star, tuple(counts), total)


def campaign_odds(
    rules: Rules,
    tolerance: int,
    tick: Callable[[int], None] | None = None,
) -> dict[int, tuple[LevelOdds, LevelOdds]]:
    """Every level's odds without and with a star at the start (rule M6)."""
    out = {}
    for level in range(1, rules.levels + 1):
        pair = tuple(
            level_odds(rules.players, level, tolerance, high=rules.high, star=star, tick=tick)
            for star in (False, True)
        )
        out[level] = (pair[0], pair[1])
    return out
