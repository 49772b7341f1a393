"""Node and time budget of the Cento searches (a ``Limit``)."""

from __future__ import annotations

import time

from ...models.outcome import Limit


class OutOfBudget(Exception):
    """The search ran out of nodes or time before its proof was complete."""


class Budget:
    """Counts nodes; every 256 nodes checks the deadline and reports progress."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.start = time.monotonic()
        self.deadline = limit.deadline(self.start)
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.limit.nodes is not None and self.nodes > self.limit.nodes:
            raise OutOfBudget
        if self.nodes & 255 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfBudget
            if self.limit.progress is not None:
                self.limit.progress(self.nodes)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start
