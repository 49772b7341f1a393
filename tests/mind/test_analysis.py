"""Analysis of a played level (rules M3, M4, M6): lives lost and the star what-if."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.analysis.mind.analyze import analyze_level
from thegame.models.mind import Deal, Play, Record, Rules, Star
from thegame.solver.mind.gap import play_gap


def test_m3_analysis_stops_at_the_first_illegal_event() -> None:
    deal = Deal(Rules(2), 2, ((10, 40), (20, 30)))
    record = Record(deal, (Play(2, 30), Play(1, 10), Play(1, 40)))
    a = analyze_level(record, (2,))
    assert not a.legal and a.error == {"event": 2, "rule": "M2",
                                       "message": "player 1 does not hold 10"}
    assert [(x.event, x.player, x.played, x.lower) for x in a.lives] == [
        (1, 2, 30, ((1, 10), (2, 20))),
    ]


def test_m4_small_deck_deal_round_trips_with_its_rules() -> None:
    deal = Deal.from_seed(5, 3, 4, high=12)
    data = deal.to_dict()
    assert data["rules"] == {"high": 12}
    assert sorted(c for h in data["hands"] for c in h) == list(range(1, 13))
    assert Deal.from_dict(data) == deal


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.integers(1, 8), st.integers(1, 6))
def test_m6_analysis_of_the_gap_play_agrees_with_it(seed: int, players: int, level: int,
                                                    d: int) -> None:
    """Analysing the level the gap model played finds its collisions, and the
    what-if for the same d gives the same lives lost with and without a star."""
    deal = Deal.from_seed(seed, players, min(level, Rules(players).levels))
    for star in (False, True):
        played = play_gap(deal, d, star)
        a = analyze_level(Record(deal, played.events), (d,))
        assert a.legal and a.status == "cleared" and a.stars_used == star
        assert [(x.played, x.lower) for x in a.lives] == [
            (c.played, c.discarded) for c in played.collisions
        ]
        what_if = a.what_if[0]
        lives = what_if.with_star.lives_lost if star else what_if.without.lives_lost
        assert lives == played.lives_lost == a.lives_lost
        assert isinstance(played.events[0], Star) == star
