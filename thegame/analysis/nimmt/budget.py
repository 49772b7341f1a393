"""A decision's budget is the package's ``Limit`` (models/outcome.py).

The players read ``Limit.time`` as CPU seconds of their own process
(``time.process_time``), so other processes on a shared machine do not eat
into a decision, and ``Limit.nodes`` as a number of determinizations: a
seeded player with a node budget replays exactly, one with a time budget
does not. When both are given the first spent ends the decision.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...models.errors import InvalidInputError
from ...models.outcome import Limit

# Guesses at the unseen cards behind a choice by what the player knew (the
# default of the review and the hints, review.known_means): a few tens of
# milliseconds a turn.
SAMPLES = 500


def steps(limit: Limit, per: int = 1) -> Iterator[float]:
    """One step after another while ``limit`` lasts, ``per`` determinizations
    a step (the first step always runs); each yield is the share of the
    budget spent before that step (0 to 1)."""
    if limit.time is None and limit.nodes is None:
        raise InvalidInputError("a decision needs a time or a node limit", "limit")
    start, done = time.process_time(), 0
    while True:
        used = 0.0
        if limit.time is not None:
            used = (time.process_time() - start) / limit.time if limit.time else 1.0
        if limit.nodes is not None:
            used = max(used, done / limit.nodes if limit.nodes else 1.0)
        if done and used >= 1:
            return
        yield used
        done += per
