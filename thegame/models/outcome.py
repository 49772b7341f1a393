"""Named outcomes and budgets shared by every game of the package.

The enums are ``str`` enums: a member compares equal to its JSON string
(``Status.WON == "won"``) and ``json.dumps`` writes it as that string, so the
formats stay what they were while the code names what it means.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from .errors import InvalidInputError

# The ranges of a budget. Seconds: finite and at most about 31 years (a
# longer wait is no limit at all: leave the time out); nodes: counted in
# 64-bit signed integers by the compiled searches; memory in MiB: the
# compiled tables index their chains with 32-bit integers, which 128 GiB
# keeps within range.
MAX_SECONDS = 1e9
MAX_NODES = (1 << 63) - 1
MIN_MEMORY_MIB = 16
# The library takes tables down to 1 MiB (the tests fill them on purpose);
# the command line keeps to sizes that serve a real search.
LIBRARY_MIN_MEMORY_MIB = 1
MAX_MEMORY_MIB = 128 << 10


class Status(StrEnum):
    """Where a game stands (a record's ``status``)."""

    IN_PROGRESS = "in_progress"
    WON = "won"
    LOST = "lost"


class Backend(StrEnum):
    """Where the workers of a split search or a survey run (``--backend``)."""

    LOCAL = "local"  # processes on this machine
    RAY = "ray"  # Ray actors or tasks: a local Ray, or a cluster at an address


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

    def __post_init__(self) -> None:
        """Refuse a budget no search can keep: ``nan``, infinite, negative,
        or past the ranges above (``InvalidInputError``, a ``ValueError``)."""
        t = self.time
        if t is not None and (
            isinstance(t, bool)
            or not isinstance(t, int | float)
            or not math.isfinite(t)
            or not 0 <= t <= MAX_SECONDS
        ):
            raise InvalidInputError(
                f"{t!r} is not a number of seconds from 0 to {MAX_SECONDS:.0e} "
                "(None: no time limit)",
                "Limit.time",
            )
        ranges = (
            ("nodes", self.nodes, 0, MAX_NODES),
            ("memory", self.memory, LIBRARY_MIN_MEMORY_MIB, MAX_MEMORY_MIB),
        )
        for name, value, low, top in ranges:
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top
            ):
                raise InvalidInputError(
                    f"{value!r} is not a whole number from {low} to {top:,} (None: no limit)",
                    f"Limit.{name}",
                )

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
