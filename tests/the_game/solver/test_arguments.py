"""The loss arguments of ``arguments`` are sound: what they call lost, the
engine-only brute force finds lost too, and a dead-card count never exceeds
the fewest cards left; each argument fires on a position the others miss."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.brute import Brute, optimum_from
from tests.support.deals import small_deals, solo_deals
from tests.support.the_game import random_step
from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, small_rules
from thegame.solver.the_game.api import solve_record
from thegame.solver.the_game.arguments import (
    LossKind,
    dead_cards_bound,
    held_cards_bound,
    order_pairs,
    stuck_with_pairs,
    turn_cut,
    turn_start_bound,
)
from thegame.solver.the_game.dfs import Searcher
from thegame.solver.the_game.kernel import Kernel


def _walk_checking(deal: Deal, seed: int) -> int:
    """Walk a random game; at each turn start where an argument fires, the
    brute force must find no perfect clear (and at least the dead cards
    left). Returns how often an argument fired."""
    rng = random.Random(seed)
    brute = Brute()
    state = GameState(deal, first=deal.first or 1)
    fired = 0
    while not state.over:
        if not state.placed:
            bound = turn_start_bound(Kernel.from_state(state))
            if bound is not None:
                fired += 1
                assert not brute.wins_from(state), bound
                if bound.kind is LossKind.DEAD_CARDS:
                    assert optimum_from(state) >= bound.cards
        if not random_step(state, rng, 0.4):
            break
    return fired


@settings(max_examples=150, deadline=None)
@given(deal=solo_deals(), seed=st.integers(0, 2**32))
def test_solo_arguments_call_lost_only_what_the_brute_force_finds_lost(
    deal: Deal, seed: int
) -> None:
    _walk_checking(deal, seed)


@settings(max_examples=120, deadline=None)
@given(deal=small_deals(), seed=st.integers(0, 2**32))
def test_arguments_of_several_players_are_sound(deal: Deal, seed: int) -> None:
    _walk_checking(deal, seed)


def test_the_arguments_fire_on_random_walks() -> None:
    # Not a soundness check (above): the arguments must have something to
    # say, else the checks above pass vacuously.
    rng = random.Random(3)
    fired = 0
    for i in range(80):
        rules = small_rules(high=16, hand=3, min_play=2, step=rng.choice([4, 6, 30]))
        deck = list(rules.cards)
        rng.shuffle(deck)
        fired += _walk_checking(Deal.create(rules, 1 + i % 2, [deck], first=1), i)
    assert fired > 20


def _solo(tops: list[int], hand: list[int], draw: list[int]) -> Kernel:
    """A solo position of cards 2..20, one pile each way, hand 3, two plays
    a turn, no backward tricks (step 30): ``tops``, ``hand``, then ``draw``."""
    rules = small_rules(high=20, hand=3, min_play=2, step=30)
    rest = [c for c in rules.cards if c not in hand and c not in draw]
    deal = Deal.create(rules, 1, [[*hand, *draw, *rest]], first=1)
    k = Kernel.from_state(GameState(deal))
    k.tops = list(tops)
    k.deck = [*hand, *draw]
    k.total = len(k.deck)
    k.pos = len(hand)
    k.unplayed = sum(1 << c for c in k.deck)
    return k


def test_order_pairs_see_a_loss_the_other_arguments_miss() -> None:
    # A1 shows 5, D1 shows 4: cards 6 and up go only on A1, in rising order.
    # The hand 9, 10, 16 must wait for 7, next in the draw pile, so the first
    # turn lays nothing: fewer than two cards. No card is dead, and every
    # card of the hand is within reach, so held cards alone see nothing.
    k = _solo([5, 4], [9, 10, 16], [7, 2, 3, 17, 18])
    assert dead_cards_bound(k) is None
    assert held_cards_bound(k, pairs=False) is None
    assert (7, 9, 0) in order_pairs(k)
    bound = held_cards_bound(k)
    assert bound is not None and bound.kind is LossKind.ORDER_PAIRS
    # The search's cut at a turn start closes it at the root.
    res = Searcher(k, Limit(nodes=1_000_000), None).run()
    assert res.proven and not res.win
    assert (res.stats.nodes, res.stats.stuck_cuts) == (1, 1)


def test_no_order_pair_when_the_later_card_is_already_in_hand() -> None:
    # 7 is in the hand: it goes down first, then 9 and 10.
    k = _solo([5, 4], [7, 9, 10], [16, 2, 3, 17, 18])
    assert held_cards_bound(k) is None


def test_dead_cards_count_the_hands_and_the_draw_pile() -> None:
    # A1 shows 15, D1 shows 4: 5..15 can never be laid (no tricks).
    k = _solo([15, 4], [9, 16, 17], [10, 2, 3, 18, 19, 20])
    bound = dead_cards_bound(k)
    assert bound is not None and bound.cards == 2
    assert "9, 10" in bound.why and "1 in hand, 1 in the draw pile" in bound.why


def test_a_later_player_waiting_for_a_pair_is_stuck() -> None:
    # Two players, hand 3, two plays a turn, no tricks. A1 shows 5, D1 4.
    # Player 1 can lay 3 and 2 on D1. Player 2 holds 9, 10, 16, all waiting
    # for 7, which is in the draw pile: player 2 cannot lay two cards in
    # their turn.
    rules = small_rules(high=20, hand=3, min_play=2, step=30)
    front = [2, 3, 20, 9, 10, 16, 7, 11, 12, 13, 17, 18, 19]
    deal = Deal.create(rules, 2, [[*front, *(c for c in rules.cards if c not in front)]], first=1)
    k = Kernel.from_state(GameState(deal))
    k.tops = [5, 4]
    k.deck = front
    k.total = len(front)
    k.unplayed = sum(1 << c for c in front)
    assert not k.stuck_ahead()
    bound = stuck_with_pairs(k)
    assert bound is not None and bound.kind is LossKind.ORDER_PAIRS
    assert "player 2" in bound.why
    assert turn_cut(k)  # the complete search's cut at a turn start


def test_a_loss_closed_by_an_argument_names_it() -> None:
    # Walk random games of small deals, recording the turns, until a turn
    # start where held cards or order pairs (not the dead-card bound) prove
    # the loss; the record solved from there says so in its proof.
    rng = random.Random(11)
    for _ in range(400):
        rules = small_rules(high=16, hand=3, min_play=2, step=rng.choice([4, 30]))
        deck = list(rules.cards)
        rng.shuffle(deck)
        deal = Deal.create(rules, 1, [deck], first=1)
        state = GameState(deal)
        turns: list[Turn] = []
        plays: list[Play] = []
        while not state.over:
            if not state.placed and turns:
                bound = turn_start_bound(Kernel.from_state(state))
                if bound is not None and bound.kind is not LossKind.DEAD_CARDS:
                    sol = solve_record(Record(deal, tuple(turns)), Limit(time=30))
                    assert sol.verdict == Verdict.LOSS
                    data = sol.to_dict()
                    assert data["proof_kind"] == bound.kind.value
                    assert data["closing_bound"] == 1
                    assert sol.proof is not None and bound.why in sol.proof
                    return
            legal = state.legal_plays()
            if state.can_end_turn() and (not legal or rng.random() < 0.4):
                state.end_turn()
                turns.append(Turn(1, tuple(plays)))
                plays = []
            elif legal:
                play = rng.choice(legal)
                state.play(play.card, play.pile)
                plays.append(play)
            else:
                break
    raise AssertionError("no position closed by held cards or order pairs in 400 games")
