"""Test configuration: a moderate, deterministic hypothesis profile.

The whole suite must stay well under two minutes on two cores, so example
counts are set per test and there is no per-example deadline (a full random
game of The Game takes a few milliseconds, an Extreme one a few more).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Opt in to a longer, random search with THEGAME_HYPOTHESIS=thorough: fresh
# random examples on every run, ten times as many (see tests.support.the_game.examples).
settings.register_profile(
    "thorough",
    parent=settings.get_profile("default"),
    derandomize=False,
)
settings.load_profile(os.environ.get("THEGAME_HYPOTHESIS", "default"))
