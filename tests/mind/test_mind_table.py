"""The stored odds (``thegame/solver/mind/odds_table.json``) are the counts
``level_odds`` gives: the first levels of each stored pair counted again by
default, every level with ``-m slow`` (half an hour on a shared machine)."""

from __future__ import annotations

import pytest

from thegame.models.mind import Rules
from thegame.solver.mind.odds import level_odds
from thegame.solver.mind.table import _stored, campaign_odds_once, stored_odds

PAIRS = [tuple(int(x) for x in key.split("/")) for key in sorted(_stored())]


def _compare(players: int, tolerance: int, levels: range) -> None:
    rules = Rules(players)
    stored = stored_odds(rules, tolerance)
    assert stored is not None and sorted(stored) == list(range(1, rules.levels + 1))
    for level in levels:
        for star, kept in zip((False, True), stored[level], strict=True):
            fresh = level_odds(players, level, tolerance, high=rules.high, star=star)
            assert kept == fresh, (players, tolerance, level, star)


def test_the_table_holds_the_slow_pair_the_server_serves() -> None:
    assert (4, 10) in PAIRS
    # Read, not counted: well under a second where the count takes half a minute or more.
    odds = campaign_odds_once(Rules(4), 10)
    assert odds == stored_odds(Rules(4), 10)


@pytest.mark.parametrize(("players", "tolerance"), PAIRS)
def test_stored_first_levels_match_a_fresh_count(players: int, tolerance: int) -> None:
    _compare(players, tolerance, range(1, 3))


@pytest.mark.slow
@pytest.mark.parametrize(("players", "tolerance"), PAIRS)
def test_every_stored_level_matches_a_fresh_count(players: int, tolerance: int) -> None:
    _compare(players, tolerance, range(1, Rules(players).levels + 1))


def test_a_pair_the_table_lacks_is_counted() -> None:
    assert stored_odds(Rules(2), 1) is None
    assert campaign_odds_once(Rules(2), 1)[1][0].total > 0
