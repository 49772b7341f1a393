"""Rule M6: the gap model, its exact odds (against every deal of small decks and
against simulation on the full deck) and the campaign MDP (rules M1, M4, M5)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.mind import Campaign, Deal, Record, Rules, check
from thegame.models.outcome import Status
from thegame.solver.mind.campaign import CampaignSolution, solve_campaign
from thegame.solver.mind.gap import gap_lives, next_gap_play, play_gap
from thegame.solver.mind.odds import campaign_odds, deal_count, level_odds
from thegame.solver.mind.sample import sample_level


def deal_of(*hands: list[int], high: int = 100) -> Deal:
    return Deal(Rules(len(hands), high), len(hands[0]),
                     tuple(tuple(sorted(h)) for h in hands))


# -- the gap model played out --------------------------------------------------------------


def test_m6_booklet_example_collides_only_within_tolerance() -> None:
    deal = deal_of([28, 32], [15, 100], [11, 50])
    five = play_gap(deal, 5)
    assert five.lives_lost == 1
    assert [(c.played, c.discarded) for c in five.collisions] == [(15, ((3, 11),))]
    assert play_gap(deal, 4).lives_lost == 0  # 15 - 11 = 4 is told apart at d = 4


def test_m6_the_card_played_early_is_never_compared_again() -> None:
    """1 (p1), 2 (p2), 3 (p1) with d = 2: 2 jumps 1; then 3 is alone: one life, not two."""
    result = play_gap(deal_of([1, 3], [2, 50]), 2)
    assert result.lives_lost == 1
    assert [e.to_dict() for e in result.events] == [
        {"player": 2, "card": 2}, {"player": 1, "card": 3}, {"player": 2, "card": 50},
    ]


def test_m6_only_cards_within_d_of_the_next_are_discarded() -> None:
    """10 and 20 are far from 23: 10 is played, then 20 collides with 21."""
    result = play_gap(deal_of([10, 20], [21, 90]), 3)
    assert [(c.played, c.discarded) for c in result.collisions] == [(21, ((1, 20),))]


def test_m4_m6_star_at_the_start_throws_lowest_cards_first() -> None:
    result = play_gap(deal_of([1, 3], [2, 50]), 2, star=True)
    assert result.lives_lost == 0
    assert result.events[0].to_dict() == {"star": True}


@st.composite
def small_deals(draw: st.DrawFn) -> Deal:
    players = draw(st.integers(2, 4))
    level = draw(st.integers(1, 5))
    cards = draw(st.permutations(range(1, 41)))[: players * level]
    return Deal(Rules(players, 40), level,
                     tuple(tuple(sorted(cards[i * level : (i + 1) * level]))
                           for i in range(players)))


@settings(max_examples=200, deadline=None)
@given(small_deals(), st.integers(1, 8), st.booleans())
def test_m6_gap_play_replays_through_check(deal: Deal, d: int, star: bool) -> None:
    result = play_gap(deal, d, star)
    replay = check(Record(deal, result.events))
    assert replay.legal and replay.status == "cleared"
    assert replay.state.lives_lost == result.lives_lost
    if d == 1:
        assert result.lives_lost == 0  # rule M6: with d = 1 no life is lost
    if not star:
        assert gap_lives([list(h) for h in deal.hands], d) == result.lives_lost


# -- exact odds against every deal ------------------------------------------------------------


def every_deal(players: int, level: int, high: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    def rest(avail: frozenset[int], p: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if p == players:
            yield ()
            return
        for hand in itertools.combinations(sorted(avail), level):
            for tail in rest(avail - set(hand), p + 1):
                yield (hand, *tail)

    yield from rest(frozenset(range(1, high + 1)), 0)


def brute_counts(players: int, level: int, high: int, d: int, star: bool) -> tuple[int, ...]:
    rules = Rules(players, high)
    c = Counter(
        play_gap(Deal(rules, level, hands), d, star).lives_lost
        for hands in every_deal(players, level, high)
    )
    return tuple(c[k] for k in range(max(c) + 1))


@pytest.mark.parametrize(
    ("players", "level", "high", "d"),
    [(2, 3, 9, 2), (2, 4, 10, 3), (3, 2, 9, 2), (3, 3, 10, 3), (4, 2, 9, 2), (2, 2, 12, 5)],
)
@pytest.mark.parametrize("star", [False, True])
def test_m6_exact_counts_match_every_deal_of_a_small_deck(
    players: int, level: int, high: int, d: int, star: bool
) -> None:
    odds = level_odds(players, level, d, high=high, star=star)
    assert odds.counts == brute_counts(players, level, high, d, star)
    assert odds.total == deal_count(players, level, high)


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 3), st.integers(1, 3), st.integers(6, 8), st.integers(1, 4), st.booleans())
def test_m6_exact_counts_match_enumeration_random_sizes(
    players: int, level: int, high: int, d: int, star: bool
) -> None:
    if players * level > high:
        return
    odds = level_odds(players, level, d, high=high, star=star)
    assert odds.counts == brute_counts(players, level, high, d, star)


@pytest.mark.parametrize(("players", "level", "d", "star"),
                         [(3, 4, 3, False), (3, 4, 3, True), (2, 12, 5, False), (4, 8, 2, True)])
def test_m6_exact_odds_match_simulation_on_the_full_deck(
    players: int, level: int, d: int, star: bool
) -> None:
    exact = level_odds(players, level, d, star=star).floats()
    n = 12_000
    sampled = sample_level(players, level, d, n, star=star, seed=level * 10 + d)
    for k in range(max(len(exact), len(sampled.counts))):
        p = exact[k] if k < len(exact) else 0.0
        q = sampled.floats()[k] if k < len(sampled.counts) else 0.0
        assert abs(p - q) <= 5 * math.sqrt(p * (1 - p) / n) + 2 / n, (k, p, q)


def test_m6_tolerance_one_never_loses_and_level_one_with_a_star_is_free() -> None:
    assert level_odds(4, 8, 1).counts == (deal_count(4, 8, 100),)
    assert level_odds(3, 1, 9, star=True).probabilities() == [Fraction(1)]


# -- the campaign MDP ---------------------------------------------------------------------


def solved(rules: Rules, d: int) -> CampaignSolution:
    odds = campaign_odds(rules, d)
    return solve_campaign(rules, {n: (a.probabilities(), b.probabilities())
                                  for n, (a, b) in odds.items()})


def test_m6_campaign_with_perfect_timing_always_wins() -> None:
    sol = solved(Rules(3, high=30), 1)
    assert sol.p_win == 1 and sol.p_win_without_stars == 1


def forward_value(rules: Rules, d: int, sol: CampaignSolution, stars_allowed: bool) -> Fraction:
    """Push the state distribution forward under the policy (independent of the DP)."""
    odds = campaign_odds(rules, d)
    use = {(e.level, e.lives, e.stars): e.use_star for e in sol.policy}
    dist = {(rules.start_lives, 1): Fraction(1)}
    for level in range(1, rules.levels + 1):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (lives, stars), p in dist.items():
            star = stars_allowed and stars > 0 and use[(level, lives, stars)]
            probs = (odds[level][1] if star else odds[level][0]).probabilities()
            for k, q in enumerate(probs):
                if k >= lives:
                    break  # the last life is gone: lost
                left, s = lives - k, stars - star
                if level < rules.levels:
                    left = min(5, left + (level in (3, 6, 9)))  # rule M5
                    s = min(3, s + (level in (2, 5, 8)))
                nxt[(left, s)] = nxt.get((left, s), Fraction(0)) + p * q
        dist = nxt
    return sum(dist.values(), Fraction(0))


@pytest.mark.parametrize(
    ("players", "high", "d"), [(2, 16, 2), (3, 18, 2), (4, 24, 3), (2, 100, 3)]
)
def test_m6_campaign_values_match_a_forward_pass(players: int, high: int, d: int) -> None:
    rules = Rules(players, high)
    sol = solved(rules, d)
    assert forward_value(rules, d, sol, True) == sol.p_win
    assert forward_value(rules, d, sol, False) == sol.p_win_without_stars
    assert sol.p_win >= sol.p_win_without_stars
    assert sol.completed[-1] == sol.p_win
    assert all(a >= b for a, b in zip(sol.completed, sol.completed[1:], strict=False))
    for e in sol.policy:  # the policy picks the better option in every state
        assert e.use_star == (e.p_win_star > e.p_win_keep)


def simulate_campaign(rules: Rules, d: int, seed: int,
                      use: dict[tuple[int, int, int], bool] | None) -> bool:
    """One game through the Campaign referee, every level played by rule M6."""
    game = Campaign(rules, seed)
    level = 0
    while game.status is Status.IN_PROGRESS:
        if game.level != level:
            level = game.level
            if use and game.stars and use[(level, game.lives, game.stars)]:
                game.star()
                continue
        game.play(*next_gap_play(game.current.hands, d))
    return game.status is Status.WON


def test_m1_m5_m6_campaign_odds_match_playing_games_through_the_referee() -> None:
    rules, d, n = Rules(2, high=16), 2, 3000
    sol = solved(rules, d)
    use = {(e.level, e.lives, e.stars): e.use_star for e in sol.policy}
    for policy, exact in ((use, sol.p_win), (None, sol.p_win_without_stars)):
        wins = sum(simulate_campaign(rules, d, seed, policy) for seed in range(n))
        p = float(exact)
        assert abs(wins / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1 / n
    assert sol.p_win > sol.p_win_without_stars
