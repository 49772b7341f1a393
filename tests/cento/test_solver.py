"""Cento solvers against the engine-only brute force on small decks; every
line they return replays through the referee."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.cento import (
    CentoStatus,
    Deal,
    HundredMode,
    Record,
    Rules,
    State,
    check,
    initial_state,
    legal_turns,
)
from thegame.models.outcome import Limit, Verdict
from thegame.solver.cento.brute import brute_duel_value, brute_solo_turns
from thegame.solver.cento.duel import solve_duel
from thegame.solver.cento.moves import TurnGen, add_cards
from thegame.solver.cento.solo import lower_bound, solve_solo
from thegame.solver.cento.tables import tables


def small_deal(seed: int, players: int, high: int, hand: int, free: int) -> Deal:
    rnd = random.Random(seed)
    rules = Rules(
        high=high,
        hand_size=hand,
        free_cards=free,
        penalty=rnd.randint(0, 3),
        trick_draw=rnd.randint(0, 3),
        hundred=rnd.choice(list(HundredMode)),
        chain_all=rnd.random() < 0.25,
    )
    return Deal.from_seed(seed, players, rules)


SOLO_DEALS = (st.integers(0, 10**6), st.integers(10, 24), st.integers(2, 4), st.integers(0, 1))


# The default run takes a dozen deals (some brute forces take many seconds);
# the slow run thirty more.
@settings(max_examples=12, deadline=None)
@given(*SOLO_DEALS)
def test_solo_fewest_turns_equals_brute_force(seed: int, high: int, hand: int, free: int) -> None:
    solo_matches_brute_force(seed, high, hand, free)


@pytest.mark.slow
@settings(max_examples=42, deadline=None)
@given(*SOLO_DEALS)
def test_solo_fewest_turns_equals_brute_force_on_more_deals(
    seed: int, high: int, hand: int, free: int
) -> None:
    solo_matches_brute_force(seed, high, hand, free)


def solo_matches_brute_force(seed: int, high: int, hand: int, free: int) -> None:
    deal = small_deal(seed, 1, high, hand, free)
    expected = brute_solo_turns(deal)
    result = solve_solo(deal)
    assert result.optimal
    assert result.turn_count == expected
    if expected is None:
        assert result.verdict == Verdict.LOSS and result.turns == ()
    else:
        replay = check(Record(deal, result.turns))
        assert replay.legal and replay.status == CentoStatus.WON
        assert len(result.turns) == expected
        assert result.lower_bound <= expected


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_solo_with_two_free_cards_equals_brute_force(seed: int) -> None:
    deal = small_deal(seed, 1, 10, 3, 2)
    assert solve_solo(deal).turn_count == brute_solo_turns(deal)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(8, 12), st.integers(2, 3), st.integers(0, 1))
def test_duel_winner_equals_brute_force(seed: int, high: int, hand: int, free: int) -> None:
    deal = small_deal(seed, 2, high, hand, free)
    expected = brute_duel_value(deal)
    result = solve_duel(deal)
    assert result.optimal and result.value == expected
    assert result.line_complete
    replay = check(Record(deal, result.turns))
    assert replay.legal and replay.state.over
    if expected == 0:
        assert replay.state.winners == (0, 1)
    else:
        assert replay.winner == (1 if expected == 1 else 2)


def test_lower_bound_counts_digits_to_hit_every_card() -> None:
    tab = tables(Rules())
    mask = (1 << 12) | (1 << 21) | (1 << 34) | (1 << 56)
    assert lower_bound(tab, mask, 0) == 3  # {1 or 2}, {3 or 4}, {5 or 6}
    assert lower_bound(tab, 0, 1) == 1
    assert lower_bound(tab, 0, 0) == 0


def test_budget_runs_out_gives_unknown() -> None:
    solo = solve_solo(Deal.from_seed(1, 1), Limit(nodes=5))
    assert solo.verdict == Verdict.UNKNOWN and not solo.optimal and solo.turn_count is None
    duel = solve_duel(Deal.from_seed(1, 2), Limit(nodes=50))
    assert not duel.optimal and duel.winner is None
    assert duel.to_dict()["verdict"] == "unknown"


def test_printed_game_solo_seed_3_line_replays() -> None:
    """Seed 3 alone: a 7-card hand; the solver's proven answer replays, and a
    hand of 7 number cards needs at least the digit bound."""
    deal = Deal.from_seed(3, 1)
    result = solve_solo(deal, Limit(time=30))
    assert result.optimal and result.turn_count == len(result.turns) == 7
    replay = check(Record(deal, result.turns))
    assert replay.legal and replay.status == CentoStatus.WON and replay.steps_ok == 7


def _engine_outcomes(deal: Deal, state: State) -> set[tuple[object, ...]]:
    tab = tables(deal.rules)
    out: set[tuple[object, ...]] = set()
    for _, s in legal_turns(deal, state):
        if s.status == CentoStatus.WON:
            out.add(("won",))
        elif s.status == CentoStatus.BLOCKED:
            out.add(("passed",))
        else:
            mask, free = add_cards(0, 0, s.hands[0])
            out.add((mask, free, tab.canon[s.open], s.draw_pos, s.obliged, s.immune[0]))
    return out


def _solver_outcomes(deal: Deal, state: State) -> set[tuple[object, ...]]:
    tab = tables(deal.rules)
    gen = TurnGen(tab, deal.draw)
    mask, free = add_cards(0, 0, state.hands[0])
    bound = state.obliged and not state.immune[0]
    out: set[tuple[object, ...]] = set()
    for o in gen.outcomes(
        mask, free, tab.canon[state.open], state.draw_pos, bound, state.immune[0], 0
    ):
        if o.won:
            out.add(("won",))
        elif o.passed:
            out.add(("passed",))
        else:
            out.add((o.mask, o.free, o.open, o.pos, o.obliged, o.immune))
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([20, 40, 100]), st.integers(2, 5))
def test_move_generator_matches_the_engine_turn_by_turn(seed: int, high: int, hand: int) -> None:
    """Along a random game, the fast generator's outcomes of each turn are
    exactly the engine's legal turns, up to the open card's class."""
    deal = small_deal(seed, 1, high, hand, random.Random(seed).randint(0, 2))
    state = initial_state(deal)
    rnd = random.Random(seed)
    for _ in range(6):
        assert _solver_outcomes(deal, state) == _engine_outcomes(deal, state)
        options = [(t, s) for t, s in legal_turns(deal, state) if not s.over]
        if not options:
            break
        state = rnd.choice(options)[1]
