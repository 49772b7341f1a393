"""The table search (2-6 players, one seat against the coalition of the
others) against the engine-only brute force on small generalised deals; every
line it returns replays through the referee."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.cento import Deal, Record, Rules, check
from thegame.models.cento.state import initial_state
from thegame.models.errors import InvalidInputError
from thegame.models.outcome import Limit
from thegame.solver.cento.brute import brute_duel_value, brute_table_win
from thegame.solver.cento.table import TableSolver, TableVerdict, solve_table


def small_table(seed: int, players: int, high: int, hand: int) -> Deal:
    """No free cards (rule Z4 names 99 values, too many for the brute force),
    small hands, few cards; the other rule parameters drawn."""
    rnd = random.Random(seed)
    rules = Rules(
        high=high,
        hand_size=hand,
        free_cards=0,
        penalty=rnd.randint(0, 3),
        trick_draw=rnd.randint(0, 2),
        chain_all=rnd.random() < 0.25,
    )
    return Deal.from_seed(seed, players, rules)


def assert_line_keeps(deal: Deal, player: int, verdict: TableVerdict, turns: tuple) -> None:
    replay = check(Record(deal, turns))
    assert replay.legal and replay.state.over, replay.error
    among = player - 1 in replay.state.winners
    assert among == (verdict != TableVerdict.LOSS)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([3, 4]),
    st.integers(10, 16),
    st.integers(1, 2),
    st.integers(1, 4),
)
def test_coalition_answer_equals_brute_force(
    seed: int, players: int, high: int, hand: int, seat: int
) -> None:
    deal = small_table(seed, players, high, hand)
    seat = min(seat, players)
    expected = brute_table_win(deal, seat)
    result = solve_table(deal, seat)
    assert result.verdict == (TableVerdict.WIN if expected else TableVerdict.LOSS)
    assert result.line_complete
    assert_line_keeps(deal, seat, result.verdict, result.turns)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(8, 12), st.integers(2, 3), st.integers(1, 2))
def test_two_players_win_tie_loss_equals_brute_force(
    seed: int, high: int, hand: int, seat: int
) -> None:
    deal = small_table(seed, 2, high, hand)
    value = brute_duel_value(deal)  # for player 1
    mine = value if seat == 1 else -value
    result = solve_table(deal, seat)
    assert result.value == mine
    replay = check(Record(deal, result.turns))
    assert replay.legal and replay.state.over
    if mine == 0:
        assert replay.state.winners == (0, 1)
    else:
        assert (replay.state.winners == (seat - 1,)) == (mine == 1)


def test_budget_gives_unknown_with_how_far_it_got() -> None:
    result = solve_table(Deal.from_seed(2, 4), 1, Limit(nodes=200))
    data = result.to_dict()
    assert data["verdict"] == "unknown" and not data["optimal"] and data["turns"] == []
    assert data["stats"]["nodes"] >= 200
    progress = data["progress"]
    assert progress["proof_number"] > 0 and progress["disproof_number"] > 0
    assert set(progress) >= {"positions_won", "positions_lost", "nearest_decided_turn"}


@pytest.mark.parametrize("players", [3, pytest.param(5, marks=pytest.mark.slow)])
def test_printed_rules_decided_lines_replay(players: int) -> None:
    """Printed rules: each seat's decided answer comes with a line the referee
    replays to its end, won or lost as the verdict says."""
    deal = Deal.from_seed(3, players)
    for seat in range(1, players + 1):
        result = solve_table(deal, seat, Limit(time=10))
        if result.optimal:
            assert_line_keeps(deal, seat, result.verdict, result.turns)


def test_api_solves_every_table_size() -> None:
    from thegame import cento

    deal = Deal.from_seed(3, 3, Rules(high=30, free_cards=1, hand_size=4))
    result = cento.solve(deal, Limit(time=10), player=2)
    assert result.to_dict()["player"] == 2 and result.to_dict()["players"] == 3
    with pytest.raises(InvalidInputError):
        cento.solve(deal, Limit(time=1), player=4)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(0, 60))
def test_forced_turn_shortcut_only_skips_real_choices(seed: int, players: int, plies: int) -> None:
    """The search makes a child's turns early only when the bit-mask test
    cannot rule out a forced turn or an emptied hand; whenever the test says
    the mover has a choice, the real turns agree: two or more, none ending
    the game. Positions come from random play of printed deals."""
    deal = Deal.from_seed(seed, players)
    rnd = random.Random(seed)
    solver = TableSolver(deal, 0)
    key = solver.key_of(initial_state(deal))
    for _ in range(plies):
        options = solver.expand(key)
        if solver._has_choice(key):
            assert len(options) >= 2
            assert all(child is not None for _, child, _ in options)
        _, child, _ = rnd.choice(options)
        if child is None:
            break
        key = child
