"""A decision's budget: a fixed amount of work, or CPU seconds."""

from __future__ import annotations

import time

# Guesses at the unseen cards behind a choice by what the player knew (the
# default of the review and the hints, review.known_means): a few tens of
# milliseconds a turn.
SAMPLES = 500


class Budget:
    """``seconds`` of CPU time (``time.process_time``, so other processes on
    the machine do not eat into it) from creation, or, when ``seconds`` is
    ``None``, exactly ``steps`` steps: a seeded player with a step budget
    replays exactly, one with a time budget does not. ``more()`` is asked
    before each step; the first step is always allowed."""

    def __init__(self, seconds: float | None, steps: int) -> None:
        self.seconds = seconds
        self.steps = steps
        self.done = 0
        self.deadline = None if seconds is None else time.process_time() + seconds

    def used(self) -> float:
        """The share of the budget spent so far (0 to 1 and beyond)."""
        if self.deadline is not None and self.seconds:
            return 1 - (self.deadline - time.process_time()) / self.seconds
        return self.done / self.steps if self.steps else 1.0

    def more(self) -> bool:
        if self.done == 0:
            go = True
        elif self.deadline is not None:
            go = time.process_time() < self.deadline
        else:
            go = self.done < self.steps
        if go:
            self.done += 1
        return go
