"""The hunt for an unwinnable deal: margins agree with the engine-only brute
force, the climb keeps every card and never gets easier, and on a small
game it finds a deal that no order of play clears, which the brute force
confirms."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.outcome import Limit, Verdict
from thegame.models.the_game import Deal, GameState, small_rules
from thegame.solver.the_game.brute import Brute
from thegame.survey.hunt import climb, margin, mutate, with_hand

SMALL = small_rules(high=20, hand=3)  # one pile each way, hand 3, cards 2..20
LIMIT = Limit(nodes=300_000)


def brute_wins(deck: list[int], hand: int) -> bool:
    deal = Deal.create(with_hand(SMALL, hand), 1, [deck])
    return Brute().wins_from(GameState(deal))


@settings(max_examples=30, deadline=None)
@given(st.permutations(list(SMALL.cards)))
def test_margin_matches_brute_force(deck: list[int]) -> None:
    m = margin(deck, SMALL, 1, LIMIT, depth=2)
    for probe in m.probes:
        assert probe.verdict is not Verdict.UNKNOWN  # small: always decided
        assert (probe.verdict is Verdict.WIN) == brute_wins(deck, probe.hand)
    if m.cleared_with is not None:
        assert all(p.verdict is Verdict.LOSS for p in m.probes[:-1])
        assert m.probes[-1].hand == m.cleared_with


@given(st.permutations(list(range(2, 40))), st.integers(0, 2**32))
def test_mutate_keeps_every_card(deck: list[int], seed: int) -> None:
    out = mutate(deck, random.Random(seed))
    assert sorted(out) == sorted(deck)


def test_climb_finds_a_deal_no_order_clears() -> None:
    state = climb(SMALL, 1, steps=400, seed=1, limit=LIMIT)
    needs = [need for _, need, _, _ in state.history]
    assert needs == sorted(needs)  # a kept change never makes the deal easier
    assert state.unwinnable
    assert not brute_wins(state.deck, SMALL.hand_size(1))
