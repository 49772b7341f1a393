"""A duel hint's time: the engine's estimate gets half of a short hint and
at most ``HINT_ENGINE_SECONDS`` of a long one, the exact search the rest."""

from __future__ import annotations

import time

import pytest

from thegame.analysis.the_game.duel import HINT_ENGINE_SECONDS, HINT_ENGINE_SHARE, engine_share


def test_a_short_hint_is_shared_half_and_half() -> None:
    assert engine_share(None) == HINT_ENGINE_SHARE
    assert engine_share(time.monotonic() + 5.0) == HINT_ENGINE_SHARE


@pytest.mark.parametrize("seconds", [30.0, 60.0, 600.0])
def test_a_long_hint_gives_the_exact_search_the_rest(seconds: float) -> None:
    share = engine_share(time.monotonic() + seconds)
    assert share < HINT_ENGINE_SHARE
    assert share * seconds == pytest.approx(HINT_ENGINE_SECONDS, rel=0.01)
