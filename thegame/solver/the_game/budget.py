"""The node and time budget of a search over a kernel."""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
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
