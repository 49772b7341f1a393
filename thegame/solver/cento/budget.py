"""Node and time budget of the Cento searches (a ``Limit``), counted node by node."""

from __future__ import annotations

import time

from ...models import interrupt
from ...models.outcome import Limit, OutOfBudget


class NodeCounter:
    """Counts nodes; every 256 nodes checks the deadline and reports progress."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.start = time.monotonic()
        self.deadline = limit.deadline(self.start)
        self.max_nodes = limit.nodes
        self.nodes = 0

    def phase(self, share: float, nodes_without_limit: int) -> tuple[float | None, int | None]:
        """Narrow the budget to the first ``share`` of it (a phase of a search);
        returns the full budget, for ``restore``."""
        full = (self.deadline, self.max_nodes)
        if self.limit.time is not None:
            self.deadline = self.start + share * self.limit.time
        if self.limit.nodes is not None:
            self.max_nodes = int(share * self.limit.nodes)
        elif self.limit.time is None:
            self.max_nodes = nodes_without_limit
        return full

    def restore(self, full: tuple[float | None, int | None]) -> None:
        self.deadline, self.max_nodes = full

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        if self.nodes & 255 == 0:
            if interrupt.requested() or (
                self.deadline is not None and time.monotonic() > self.deadline
            ):
                raise OutOfBudget
            if self.limit.progress is not None:
                self.limit.progress(self.nodes)

    def reach(self, nodes: int) -> None:
        """Count up to ``nodes`` as ``tick`` counts its last node (the compiled
        search counts in C and calls this every 64 nodes and past the limit)."""
        self.nodes = nodes - 1
        self.tick()

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start
