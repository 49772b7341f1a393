"""Random legal playouts (hypothesis): every step is checked against an
independent oracle written from rules.md and against invariants - every card
in exactly one place, pile tops moving only as the pile rules allow, drawing,
seat order, fire deadlines, and the end of the game - for every variant.
See tests.support.the_game.random_playout for the checks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.the_game import examples, random_playout, replay_matches
from thegame.models.the_game import Deal, Rules, get_rules, small_rules

seeds = st.integers(min_value=0, max_value=2**64 - 1)
greed = st.sampled_from([0.0, 0.5, 0.9, 1.0])
end_cost = st.integers(min_value=0, max_value=12)


def run(deal: Deal, rnd: random.Random, g: float, cost: int) -> None:
    pl = random_playout(deal, rnd, greed=g, end_cost=cost)
    replay_matches(pl)


@settings(max_examples=examples(60))
@given(
    seed=seeds,
    players=st.integers(1, 5),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_classic_1_to_5_players(
    seed: int, players: int, rnd: random.Random, g: float, cost: int
) -> None:
    run(Deal.from_seed(seed, get_rules("classic"), players), rnd, g, cost)


@settings(max_examples=examples(20))
@given(
    seed=seeds,
    players=st.integers(1, 5),
    name=st.sampled_from(["profi", "profi-hard"]),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_profi(
    seed: int, players: int, name: str, rnd: random.Random, g: float, cost: int
) -> None:
    run(Deal.from_seed(seed, get_rules(name), players), rnd, g, cost)


@settings(max_examples=examples(25))
@given(
    seed=seeds,
    players=st.integers(1, 5),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_on_fire(seed: int, players: int, rnd: random.Random, g: float, cost: int) -> None:
    run(Deal.from_seed(seed, get_rules("on-fire"), players), rnd, g, cost)


@settings(max_examples=examples(40))
@given(
    seed=seeds,
    players=st.integers(1, 5),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_extreme(seed: int, players: int, rnd: random.Random, g: float, cost: int) -> None:
    run(Deal.from_seed(seed, get_rules("extreme"), players), rnd, g, cost)


@settings(max_examples=examples(20))
@given(
    seed=seeds,
    first=st.sampled_from([None, 1, 2]),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_face_to_face(
    seed: int, first: int | None, rnd: random.Random, g: float, cost: int
) -> None:
    run(Deal.from_seed(seed, get_rules("face-to-face"), 2, first), rnd, g, cost)


@st.composite
def small_games(draw: st.DrawFn) -> Deal:
    """Small generalised games (C10) of every kind, so that random games
    reach the end: empty draw pile, skipped players, clears, deadlines."""
    kind = draw(st.sampled_from(["classic", "on-fire", "extreme", "profi", "face-to-face"]))
    seed = draw(seeds)
    step = draw(st.integers(1, 12))
    if kind == "face-to-face":
        hand = draw(st.integers(2, 6))
        high = draw(st.integers(hand + 1, 30))
        rules = get_rules(kind).with_changes(high=high, hand_sizes=(hand, hand), step=step)
        return Deal.from_seed(seed, rules)
    players = draw(st.integers(1, 4))
    hand = draw(st.integers(1, 6))
    asc = draw(st.integers(0, 2))
    desc = draw(st.integers(1 if asc == 0 else 0, 2))
    low_high = 34 if kind == "on-fire" else 2 + players * hand  # on-fire: 22 and 33 in range
    high = draw(st.integers(max(low_high, 1 + players * hand), 45))
    rules: Rules = get_rules(kind).with_changes(
        high=high,
        asc_piles=asc,
        desc_piles=desc,
        hand_sizes=(hand,) * 5,
        step=step,
        min_play=draw(st.integers(1, 3)),
    )
    if kind == "classic" and draw(st.booleans()):
        rules = small_rules(high=high, asc_piles=asc, desc_piles=desc, hand=hand, step=step)
    return Deal.from_seed(seed, rules, players, draw(st.sampled_from([None, 1])))


@settings(max_examples=examples(300))
@given(
    deal=small_games(),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_small_games(deal: Deal, rnd: random.Random, g: float, cost: int) -> None:
    run(deal, rnd, g, cost)


@settings(max_examples=examples(30))
@given(
    seed=seeds,
    players=st.integers(1, 5),
    rnd=st.randoms(use_true_random=False),
    g=greed,
    cost=end_cost,
)
def test_playout_extreme_breaking_a_command_loses_at_once(
    seed: int, players: int, rnd: random.Random, g: float, cost: int
) -> None:
    # rule X2: now and then a move that breaks a command; the engine plays
    # it, the game is lost at once with the oracle's rule, the record replays.
    pl = random_playout(
        Deal.from_seed(seed, get_rules("extreme"), players), rnd, greed=g, end_cost=cost, lose=0.2
    )
    replay_matches(pl)
