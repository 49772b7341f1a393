"""Named outcomes and budgets shared by every game of the package.

The enums are ``str`` enums: a member compares equal to its JSON string
(``Status.WON == "won"``) and ``json.dumps`` writes it as that string, so the
formats stay what they were while the code names what it means.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum


class Status(StrEnum):
    """Where a game stands (a record's ``status``)."""

    IN_PROGRESS = "in_progress"
    WON = "won"
    LOST = "lost"


class Verdict(StrEnum):
    """What a solver proved about a position (``verdict`` in JSON).

    ``WIN`` only with a line that replays through the rules engine, ``LOSS``
    only after a completed proof, ``UNKNOWN`` when the budget ran out first.
    """

    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Limit:
    """The budget every engine takes: seconds, nodes, and who hears progress.

    ``None`` means no limit. ``progress`` is called now and then with the
    nodes searched so far (a progress bar, a Ctrl-C check). ``memory``: the
    MiB a search may give its tables of proven positions (None: the
    engine's default, which keeps a worker under 1 GiB); searches without
    such tables ignore it.
    """

    time: float | None = None
    nodes: int | None = None
    progress: Callable[[int], None] | None = None
    memory: int | None = None

    def deadline(self, start: float | None = None) -> float | None:
        """The ``time.monotonic()`` at which the time budget ends."""
        if self.time is None:
            return None
        return (time.monotonic() if start is None else start) + self.time

    def describe(self) -> str:
        """The budget in words, e.g. ``5 s`` or ``100,000 nodes``."""
        parts = []
        if self.time is not None:
            parts.append(f"{self.time:g} s")
        if self.nodes is not None:
            parts.append(f"{self.nodes:,} nodes")
        text = " and ".join(parts) or "no limit"
        return text if self.memory is None else f"{text}, {self.memory:,} MiB of tables"

    def with_time(self, seconds: float | None) -> Limit:
        return replace(self, time=seconds)


NO_LIMIT = Limit()


class OutOfBudget(Exception):
    """A search ran out of its ``Limit`` (nodes or time) before it decided."""
