"""The node and time budget of a search over a kernel."""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace
from typing import Generic, TypeVar

from ...models import interrupt
from ...models.outcome import Limit, OutOfBudget

# The node limit of a search without a node budget: a count no search
# reaches (2^62 nodes at 10^7 a second is some 14,000 years). Not
# ``kernel.INF`` (2^30), a search value: as a node limit it stopped an
# unbudgeted compiled search after about 18 minutes.
NO_NODE_LIMIT = 1 << 62
# ``Limit.memory`` when it sets none: the MiB the searches' tables are sized
# for (the compiled search's memo tables, the duel search's table limits),
# so that a worker stays under 1 GiB.
DEFAULT_MEMORY_MIB = 768


def node_limit(limit: Limit) -> int:
    """``limit.nodes``, or ``NO_NODE_LIMIT`` when it sets none."""
    return NO_NODE_LIMIT if limit.nodes is None else limit.nodes


@dataclass
class SearchStats:
    nodes: int = 0
    iterations: int = 0
    dead_positions: int = 0
    dead_card_cuts: int = 0
    stuck_cuts: int = 0  # positions proven dead by ``Kernel.stuck_ahead``
    dominated: int = 0  # dead-memo lookups answered by dominance alone

    def add(self, other: SearchStats) -> None:
        """Count another search's work in with this one's."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


K = TypeVar("K")


class Budgeted(Generic[K]):
    """A search over a kernel within a ``Limit``: ``OutOfBudget`` is raised when
    the nodes run out or the clock passes ``deadline`` (the caller owns the
    clock, so several searches can share one time budget). ``K``: the kernel
    type the search needs (``Kernel``, or for the branch and bound any kernel
    with its interface, the compiled one too)."""

    def __init__(self, kernel: K, limit: Limit, deadline: float | None) -> None:
        self.k = kernel
        self.node_limit = node_limit(limit)
        self.deadline = deadline
        self.progress = limit.progress
        self.stats = SearchStats()

    def _tick(self) -> None:
        self.stats.nodes += 1
        if self.stats.nodes >= self.node_limit:
            raise OutOfBudget
        if self.stats.nodes & 63 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfBudget
            if interrupt.requested():  # Ctrl-C: stop as if out of time
                raise OutOfBudget
            if self.progress is not None:
                self.progress(self.stats.nodes)


# Deals that leave the start free (rule C3) are searched start by start in
# rounds: each open start gets FIRST_SLICE of the budget, then GROWTH times
# more each round, until a round would need more than is left, which it
# then shares evenly. A start whose perfect clear is easy is found before a
# hard start has used an even share of the whole budget (the search itself
# is not resumable, so a start searched again starts over: at most about
# 1 / (GROWTH - 1) more work). Without any budget the rounds grow without end,
# from UNLIMITED_SLICE nodes.
FIRST_SLICE = 1 / 64
GROWTH = 4
UNLIMITED_SLICE = 20_000


def last_round(
    limit: Limit,
    deadline: float | None,
    used: int,
    rnd: int,
    firsts: list[int],
    open_starts: list[int],
) -> bool:
    """Whether round ``rnd`` is the last: one start only, or its slices for
    the open starts would take all that is left of a budget."""
    if len(firsts) == 1:
        return True
    if limit.time is None and limit.nodes is None:
        return False  # no budget: the rounds grow until every start is decided
    want = round_slice(limit, rnd)
    rest = even_share(limit, deadline, used, len(open_starts))
    return (want.time is not None and rest.time is not None and want.time >= rest.time) or (
        want.nodes is not None and rest.nodes is not None and want.nodes >= rest.nodes
    )


def round_slice(limit: Limit, rnd: int) -> Limit:
    """One start's budget in a round that is not the last."""
    if limit.time is None and limit.nodes is None:
        return replace(limit, nodes=UNLIMITED_SLICE * GROWTH**rnd)
    frac = FIRST_SLICE * GROWTH**rnd
    seconds = None if limit.time is None else limit.time * frac
    nodes = None if limit.nodes is None else max(1, int(limit.nodes * frac))
    return replace(limit, time=seconds, nodes=nodes)


def capped(a: Limit, b: Limit) -> Limit:
    """The smaller of two budgets, part by part (None: no limit)."""

    def low(x: float | None, y: float | None) -> float | None:
        return y if x is None else x if y is None else min(x, y)

    nodes = low(a.nodes, b.nodes)
    return replace(a, time=low(a.time, b.time), nodes=None if nodes is None else int(nodes))


def even_share(limit: Limit, deadline: float | None, used: int, left: int) -> Limit:
    """What is left of the budget, shared evenly by ``left`` searches."""
    seconds = None if deadline is None else max(0.0, deadline - time.monotonic()) / left
    nodes = None if limit.nodes is None else max(1, (limit.nodes - used) // left)
    return replace(limit, time=seconds, nodes=nodes)


def spent(limit: Limit, deadline: float | None, used: int) -> bool:
    """Whether the budget is used up (``used`` nodes so far)."""
    if deadline is not None and time.monotonic() >= deadline:
        return True
    return limit.nodes is not None and used >= limit.nodes
