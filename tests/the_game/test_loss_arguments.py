"""The loss arguments are sound: what they call lost, the
engine-only brute force finds lost too. The held-cards prototype lives in
``thegame/solver/the_game/held.py``; dominance between positions is the
solver's (``dfs.Searcher._is_dead``, the relation ``placement.takes_all_of``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.brute import Brute
from tests.support.deals import small_deals, solo_deals
from tests.support.the_game import random_step
from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, small_rules
from thegame.models.the_game.placement import takes_all_of
from thegame.solver.the_game.beam import TurnSearcher
from thegame.solver.the_game.dfs import Searcher
from thegame.solver.the_game.held import ArgumentKernel, HeldKernel, held_cards_loss
from thegame.solver.the_game.kernel import Kernel


@settings(max_examples=120, deadline=None)
@given(deal=solo_deals(), seed=st.integers(0, 2**32))
def test_held_cards_call_lost_only_what_the_brute_force_finds_lost(deal: Deal, seed: int) -> None:
    rng = random.Random(seed)
    brute = Brute()
    state = GameState(deal, first=1)
    while not state.over:
        if not state.placed and held_cards_loss(Kernel.from_state(state)):
            assert not brute.wins_from(state)
        if not random_step(state, rng, 0.4):
            break


@settings(max_examples=120, deadline=None)
@given(deal=solo_deals())
def test_the_search_with_both_arguments_keeps_the_verdicts(deal: Deal) -> None:
    state = GameState(deal, first=1)
    if state.over:
        return
    # held cards on top of the solver's own arguments (dominance among them)
    res = TurnSearcher(HeldKernel.from_state(state), Limit(nodes=200_000), None).run()
    assert res.proven
    assert res.win == Brute().wins_from(state)


@settings(max_examples=120, deadline=None)
@given(deal=small_deals())
def test_the_turn_start_arguments_as_a_cut_keep_the_verdicts(deal: Deal) -> None:
    # ``--in-search``: the solver's turn-start arguments (held cards, order
    # pairs, a player of the round stuck) cut inside the complete search
    first = deal.first or 1
    state = GameState(deal, first=first)
    if state.over:
        return
    res = Searcher(ArgumentKernel.from_state(state), Limit(nodes=200_000), None).run()
    assert res.proven
    assert res.win == Brute().wins_from(state)


@settings(max_examples=120, deadline=None)
@given(deal=solo_deals(), seed=st.integers(0, 2**32))
def test_a_dominated_position_wins_only_if_its_better_one_does(deal: Deal, seed: int) -> None:
    # Along a random game, at each turn start, move one top to every value
    # the dominance relation calls no better: that position may clear only
    # if the real one can.
    rng = random.Random(seed)
    brute = Brute()
    state = GameState(deal, first=1)
    if state.over:
        return
    rules = deal.rules
    while not state.over:
        if not state.placed:
            un = Kernel.from_state(state).unplayed
            pile = rng.randrange(rules.n_piles)
            better = state.tops[pile]
            asc = pile < rules.asc_piles
            for worse in range(0, rules.high + 2):
                if worse != better and takes_all_of(asc, better, worse, rules.step, un):
                    moved = state.copy()
                    moved.tops[pile] = worse
                    if brute.wins_from(moved):
                        assert brute.wins_from(state)
        if not random_step(state, rng, 0.4):
            break


def test_held_cards_see_a_loss_the_dead_card_bound_does_not() -> None:
    # Cards 2..20, one pile each way, hand 3, two plays a turn. A1 shows 15
    # and D1 shows 4; the hand is 8, 9, 16. 8 and 9 are not dead (5, still
    # in the draw pile, is 15's backward trick, after which A1 takes them),
    # but until 5 is drawn only 16 can be played: one card, not two.
    rules = small_rules(high=20, hand=3, min_play=2)
    deck = [8, 9, 16] + [c for c in rules.cards if c not in (8, 9, 16)]
    k = Kernel.from_state(GameState(Deal.create(rules, 1, [deck], first=1)))
    k.tops = [15, 4]
    k.unplayed = sum(1 << c for c in [8, 9, 16, 5, 2, 3, 17, 18, 19, 20])
    k.deck = [8, 9, 16, 17, 18, 5, 2, 3, 19, 20]
    k.total = len(k.deck)
    k.pos = 3
    assert not k.dead_card()
    assert held_cards_loss(k)


def test_dominance_cuts_and_keeps_every_verdict() -> None:
    """The solver's dead memo answers dominated positions (``Searcher._is_dead``):
    on small solo and 2-3 player deals it fires, and every verdict is the
    brute force's."""
    rng = random.Random(5)
    dominated = 0
    for i in range(60):
        rules = small_rules(high=rng.randint(14, 18), hand=rng.randint(2, 3), min_play=2)
        deck = list(rules.cards)
        rng.shuffle(deck)
        players = 1 + i % 3
        state = GameState(Deal.create(rules, players, [deck], first=1))
        if state.over:
            continue
        k = Kernel.from_state(state)
        searcher = (TurnSearcher if players == 1 else Searcher)(k, Limit(nodes=300_000), None)
        res = searcher.run()
        assert res.proven
        assert res.win == Brute().wins_from(state)
        dominated += res.stats.dominated
    assert dominated > 50
