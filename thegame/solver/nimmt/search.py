"""The exact best response: a complete search over the order of one player's
cards and its row choices, with a memo and branch and bound on heads.

The memo key is (cards still in hand, rows as (last, count, heads)): the
turn is fixed by how many cards are left, and later tricks depend on the
rows only through those three numbers per row. Values are heads the player
still takes from that position; the search is fail-soft alpha pruning with
one bound, so a memo entry is either exact or a proven lower bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from operator import itemgetter

from ...models import interrupt
from ...models.nimmt.rules import row_for
from ...models.outcome import NO_LIMIT, Limit
from .problem import Problem, Slots, Trick, trick

INF = 1 << 30


class BudgetExceeded(Exception):
    """The search ran out of its ``Limit`` before it was complete."""


@dataclass(frozen=True)
class Move:
    card: int
    row: int | None  # 0-based own row choice, only when the card is below every row (S3)


@dataclass(frozen=True)
class Solution:
    heads: int
    line: tuple[Move, ...]
    nodes: int


@dataclass
class Searcher:
    """One problem's search; the memo is kept between calls."""

    problem: Problem
    limit: Limit = NO_LIMIT
    nodes: int = 0
    exact: dict[tuple[int, Slots], int] = field(default_factory=dict)
    lower: dict[tuple[int, Slots], int] = field(default_factory=dict)
    tricks: dict[tuple[int, Slots], tuple[Trick, dict[int, list[tuple[int, int, int, int]]]]] = (
        field(default_factory=dict)
    )

    def __post_init__(self) -> None:
        self.turns = len(self.problem.hand)
        self.deadline = self.limit.deadline()
        self.full = (1 << self.turns) - 1
        self.order = []
        for others, recorded in zip(self.problem.others, self.problem.recorded, strict=True):
            ranked = sorted((c, p) for p, c in others)
            self.order.append(([c for c, _ in ranked], [p for _, p in ranked], recorded))
        # future_low[t]: the lowest card the others play on turn t or later.
        self.future_low = [105] * (self.turns + 1)
        for t in range(self.turns - 1, -1, -1):
            low = min(self.order[t][0], default=105)
            self.future_low[t] = min(low, self.future_low[t + 1])

    def children(self, mask: int, slots: Slots) -> tuple[Trick, list[tuple[int, int, int, int]]]:
        """The trick of this position and every move as (its heads, the
        card's bit in the hand mask, the card, the row choice or -1),
        cheapest first."""
        t = self.turns - mask.bit_count()
        # The same rows recur under many different hands left (48k nodes,
        # 20k row states in a hard round): keep each card's heads per rows.
        cached = self.tricks.get((t, slots))
        if cached is None:
            cards, players, recorded = self.order[t]
            cached = self.tricks[(t, slots)] = (Trick(slots, cards, players, recorded), {})
        tr, per_card = cached
        out: list[tuple[int, int, int, int]] = []
        for i, card in enumerate(self.problem.hand):
            if not mask >> i & 1:
                continue
            moves = per_card.get(card)
            if moves is None:
                if tr.below_all(card):
                    moves = [(tr.heads(card, r), 1 << i, card, r) for r in range(4)]
                else:
                    moves = [(tr.heads(card, 0), 1 << i, card, -1)]
                per_card[card] = moves
            out.extend(moves)
        out.sort(key=itemgetter(0))
        return tr, out

    def value(self, mask: int, slots: Slots, bound: int = INF) -> int:
        """Heads still taken from here with best play: exact if below
        ``bound``, else a lower bound that is at least ``bound``."""
        if mask == 0:
            return 0
        key = (mask, slots)
        v = self.exact.get(key)
        if v is not None:
            return v
        lb = self.lower.get(key, 0)
        if lb == 0:
            lb = self.doomed(mask, slots)
        if lb >= bound:
            return lb
        self._tick()
        best = INF
        skipped = INF
        tr, moves = self.children(mask, slots)
        for h, bit, card, row in moves:
            cut = best if best < bound else bound
            if h >= cut:
                skipped = h
                break
            v = h + self.value(mask ^ bit, tr.after(card, row), cut - h)
            if v < best:
                best = v
        if best < bound:
            self.exact[key] = best
            return best
        lb = max(lb, min(best, skipped))
        self.lower[key] = lb
        return lb

    def doomed(self, mask: int, slots: Slots) -> int:
        """1 if the lowest card left is lower than every row's end and every
        card the others will still play, else 0: row ends only fall when a
        card below every row restarts a row, so that card will be below
        every row when played and take one (rule S3; a row has >= 1 head)."""
        low = self.problem.hand[(mask & -mask).bit_length() - 1]
        t = self.turns - mask.bit_count()
        if low < self.future_low[t] and row_for([s[0] for s in slots], low) is None:
            return 1
        return 0

    def deepen(self, mask: int, slots: Slots) -> int:
        """The exact value by raising the bound one proven lower bound at a
        time: most best responses take few heads, and a low bound cuts
        every line that already costs more."""
        bound = 1
        while True:
            v = self.value(mask, slots, bound)
            if v < bound:
                return v
            bound = v + 1

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.limit.nodes is not None and self.nodes > self.limit.nodes:
                raise BudgetExceeded(f"{self.nodes} nodes")
            if interrupt.requested() or (
                self.deadline is not None and time.monotonic() > self.deadline
            ):
                raise BudgetExceeded(f"{self.limit.time} s")
            if self.limit.progress is not None:
                self.limit.progress(self.nodes)

    def best(self) -> int:
        """The fewest heads the player can still take (exact)."""
        return self.deepen(self.full, self.problem.slots)

    def root_values(self) -> list[tuple[Move, int]]:
        """Every first move with the exact heads it costs in the whole line
        (its own heads plus the best continuation)."""
        out = []
        tr, moves = self.children(self.full, self.problem.slots)
        for h, bit, card, row in moves:
            rest = self.deepen(self.full & ~bit, tr.after(card, row))
            out.append((Move(card, None if row < 0 else row), h + rest))
        return out

    def solve(self) -> Solution:
        """The fewest heads and one line that takes exactly that many."""
        mask, slots = self.full, self.problem.slots
        total = self.deepen(mask, slots)
        line: list[Move] = []
        left = total
        while mask:
            tr, moves = self.children(mask, slots)
            for h, bit, card, row in moves:
                nxt = tr.after(card, row)
                if h <= left and h + self.value(mask & ~bit, nxt, left - h + 1) == left:
                    line.append(Move(card, None if row < 0 else row))
                    mask, slots, left = mask & ~bit, nxt, left - h
                    break
            else:  # pragma: no cover - the value above is exact
                raise AssertionError("no move reaches the proven value")
        return Solution(total, tuple(line), self.nodes)


@interrupt.polled
def solve(problem: Problem, limit: Limit = NO_LIMIT) -> Solution:
    return Searcher(problem, limit).solve()


def line_heads(problem: Problem, line: list[Move] | tuple[Move, ...]) -> int:
    """The heads ``line`` takes against the problem's fixed cards."""
    slots = problem.slots
    total = 0
    for t, move in enumerate(line):
        slots, h = trick(
            slots, problem.others[t], problem.recorded[t], move.card, move.row, problem.player
        )
        total += h
    return total
