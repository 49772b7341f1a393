"""The fewest cards left, and search from positions inside a game.

The reference is an engine-only brute force over every legal play and turn
end: the value of a position is 0 when won, the cards left when the engine
ends the game lost (no legal turn, rule C8, or an uncovered fire card, F2),
otherwise the best value of its children. It knows none of the solver's
shortcuts (turn cap, dominance, dead-card bound, branch and bound).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.support.brute import INF, NODE_LIMIT, describe, optimum_from, starts
from tests.support.deals import small_deals
from tests.support.the_game import examples, position_at, random_step
from thegame.models import Limit
from thegame.models.outcome import Status, Verdict
from thegame.models.the_game import Deal, GameState, Record, Turn, get_rules, replay, small_rules
from thegame.solver.the_game.api import replay_actions, search_position, solve
from thegame.solver.the_game.kernel import END

CLASSIC = get_rules("classic")


def brute_optimum(deal: Deal) -> int:
    return min(optimum_from(GameState(deal, first=f)) for f in starts(deal))


def check_optimum(deal: Deal) -> None:
    sol = solve(deal, Limit(nodes=NODE_LIMIT))
    text = describe(deal)
    assert sol.verdict != Verdict.UNKNOWN, f"unknown on a small deal: {text}"
    assert sol.optimal, f"optimum not proven on a small deal: {text}"
    expected = brute_optimum(deal)
    assert sol.cards_left == expected, (
        f"solver: {sol.cards_left} left, brute force: {expected}\ndeal: {text}"
    )
    assert sol.lower_bound == (0 if sol.verdict == Verdict.WIN else expected)
    result = replay(sol.record())
    assert result.legal, f"line does not replay ({result.error}): {text}"
    assert result.cards_left == sol.cards_left
    # A loss line is a whole game: it ends where the engine ends it.
    assert result.status == (Status.WON if sol.verdict == Verdict.WIN else Status.LOST), text
    if sol.verdict == Verdict.LOSS:
        assert sol.proof and "fewest possible" in sol.proof
    event(f"{sol.verdict}, {deal.players}p, {expected} left")


@settings(max_examples=examples(300), deadline=None)
@given(small_deals())
def test_fewest_cards_left_agrees_with_brute_force(deal: Deal) -> None:
    check_optimum(deal)


@settings(max_examples=examples(200), deadline=None)
@given(small_deals(fire=True))
def test_fewest_cards_left_agrees_with_brute_force_on_fire(deal: Deal) -> None:
    check_optimum(deal)


def random_position(deal: Deal, rng: random.Random) -> GameState:
    """A position reached by random legal actions, often inside a turn."""
    state = GameState(deal, first=rng.choice(starts(deal)))
    for _ in range(rng.randrange(0, 12)):
        if state.over or not random_step(state, rng, 0.3):
            break  # over, or stuck inside a turn: keep the position as it is
    return state


@settings(max_examples=examples(300), deadline=None)
@given(small_deals(), st.integers(0, 2**32))
def test_positions_agree_with_brute_force(deal: Deal, seed: int) -> None:
    check_position(deal, seed)


@settings(max_examples=examples(200), deadline=None)
@given(small_deals(fire=True), st.integers(0, 2**32))
def test_positions_agree_with_brute_force_on_fire(deal: Deal, seed: int) -> None:
    """With fire cards the graph bounds (fire covers, a fire card due now)
    may decide a position before any search."""
    check_position(deal, seed)


def check_position(deal: Deal, seed: int) -> None:
    state = random_position(deal, random.Random(seed))
    expected = optimum_from(state)
    text = describe(deal) + f"  after {state.key()}"
    if expected == INF:
        # Stuck inside a turn: nothing legal finishes it; the search must
        # not invent a line.
        res = search_position(state, Limit(nodes=NODE_LIMIT))
        assert res.verdict != Verdict.WIN, text
        return
    res = search_position(state, Limit(nodes=NODE_LIMIT))
    assert res.optimal, text
    assert res.cards_left == expected, f"search {res.cards_left}, brute {expected}: {text}"
    assert (res.verdict == Verdict.WIN) == (expected == 0), text
    _turns, final = replay_actions(state, res.actions)
    assert final.cards_left() == res.cards_left, text
    assert final.status != Status.IN_PROGRESS, text
    event(f"{res.verdict}, {'mid-turn' if state.placed else 'turn start'}")
    if res.floor:
        event("decided by the graph bounds")


def test_hand_made_loss_with_known_optimum() -> None:
    """Cards 2..7, one pile each way, no backward trick (step 10), hand 1,
    minimum 1: cards are played in deal order. Deal 5 6 7 2 3 4: 5, 6, 7 go
    up or down; at most one of them can go down, since the descending pile
    needs them falling. Say 5 and 6 go up: 7 must go up too or down; then
    2, 3, 4 rise and only fit on the ascending pile if it shows less, which
    it does not; the descending pile takes one of them (the first), after
    which 3 and 4 are stuck. Best: 5 6 7 up, 2 down, then 3 cannot go: four
    cards played, 2 left (3 and 4)."""
    rules = small_rules(high=7, asc_piles=1, desc_piles=1, hand=1, min_play=1, step=10)
    deal = Deal.create(rules, 1, [[5, 6, 7, 2, 3, 4]])
    sol = solve(deal)
    assert sol.verdict == Verdict.LOSS
    assert sol.optimal
    assert sol.cards_left == 2 == brute_optimum(deal)
    assert replay(sol.record()).status == Status.LOST


def test_mid_turn_position_of_a_full_deal() -> None:
    """Seed 1, solved; then from inside its third turn (one play made) the
    search finishes the turn and clears the rest, and the line replays."""
    deal = Deal.from_seed(1, CLASSIC)
    sol = solve(deal, Limit(30))
    assert sol.verdict == Verdict.WIN
    state = position_at(sol.record(), 2, 1)
    first_play = sol.turns[2].plays[0]
    res = search_position(state, Limit(30))
    assert res.verdict == Verdict.WIN
    turns, final = replay_actions(state, res.actions)
    assert final.status == Status.WON
    # The first turn of the continuation finishes the turn in progress.
    assert len(turns[0].plays) + 1 >= deal.rules.min_play
    third = Turn(turns[0].player, (first_play, *turns[0].plays))
    record = Record(deal.with_first(sol.first), (*sol.turns[:2], third, *turns[1:]))
    assert replay(record).status == Status.WON


def test_over_position_is_reported_as_is() -> None:
    rules = small_rules(high=5, asc_piles=1, desc_piles=1, hand=1, min_play=1, step=10)
    deal = Deal.create(rules, 1, [[2, 3, 4, 5]])
    state = GameState(deal)
    for c in (2, 3, 4, 5):
        state.play(c, 0)
        state.end_turn()
    res = search_position(state)
    assert (res.verdict, res.cards_left, res.actions) == (Verdict.WIN, 0, [])


@pytest.mark.parametrize("limit", [1, 50])
def test_budget_cut_still_gives_a_whole_game(limit: int) -> None:
    """Out of budget, the best line is finished greedily to a real end."""
    deal = Deal.from_seed(7, CLASSIC)
    res = search_position(GameState(deal), Limit(nodes=limit))
    _turns, final = replay_actions(GameState(deal), res.actions)
    assert final.cards_left() == res.cards_left
    assert res.verdict in (Verdict.WIN, Verdict.UNKNOWN)
    if res.verdict == Verdict.UNKNOWN:
        assert final.over
        assert res.lower_bound <= res.cards_left
    assert res.actions[-1] == END or final.over
