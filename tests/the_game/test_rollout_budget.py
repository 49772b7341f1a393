"""The playouts' budget: one ``Limit`` (a playout a node) carried into the
compiled playouts as the shared C ``Budget`` (thegame/csrc/budget.h), and
honoured alike by the Python reference: a node limit plays the first N
orders, a spent clock or a stop request (Ctrl-C) ends the run early with
the orders played so far, a prefix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from thegame.analysis.the_game import rollout
from thegame.analysis.the_game.blind import choose_turn
from thegame.analysis.the_game.hidden_hint import blind_hint
from thegame.analysis.the_game.strong import Level
from thegame.models import interrupt
from thegame.models.outcome import Limit
from thegame.models.the_game import Deal, GameState, get_rules

needs_c = pytest.mark.skipif(not rollout.HAVE_C, reason="the _crollout extension is not built")


def _state(seed: int = 3, players: int = 2, turns: int = 0) -> GameState:
    """A deal after ``turns`` of the policy's turns (late: short playouts,
    so the reference stays quick)."""
    state = GameState(Deal.from_seed(seed, get_rules("classic"), players))
    for _ in range(turns):
        for play in choose_turn(state):
            state.play(play.card, play.pile)
        state.end_turn()
    assert not state.over
    return state


@pytest.fixture
def stop_requested() -> Iterator[None]:
    interrupt.request()
    yield
    interrupt.reset()


@pytest.mark.parametrize("n", [0, 1, 4])
def test_the_reference_plays_the_first_orders(n: int) -> None:
    state = _state(turns=25)
    orders = rollout.sample_orders(state, 6, seed=5)
    whole = rollout.playouts_python(state, orders)
    assert rollout.playouts_python(state, orders, limit=Limit(nodes=n)) == whole[:n]


@needs_c
@pytest.mark.parametrize("n", [0, 1, 7, 21, 40])
def test_a_node_limit_plays_the_first_orders(n: int) -> None:
    state = _state()
    orders = rollout.sample_orders(state, 40, seed=5)
    whole = rollout.playouts_c(state, orders)
    assert whole == rollout.playouts_python(state, orders[:2]) + whole[2:]
    assert rollout.playouts_c(state, orders, limit=Limit(nodes=n)) == whole[:n]
    # 40 orders: two threads, the node limit split between them
    assert rollout.playouts(state, orders, limit=Limit(nodes=n)) == whole[:n]


@needs_c
def test_the_sample_set_keeps_the_limit() -> None:
    state = _state(players=1)
    samples = rollout.SampleSet(state, rollout.sample_orders(state, 50, seed=2))
    whole = samples.playouts(state, 0, 50)
    assert samples.playouts(state, 10, 50, limit=Limit(nodes=25)) == whole[10:35]
    run = samples.runner(state, limit=Limit(nodes=3))
    assert run(0, 50) == whole[:3]


@pytest.mark.parametrize("compiled", [False, True])
def test_a_spent_clock_stops_at_once(compiled: bool) -> None:
    if compiled and not rollout.HAVE_C:
        pytest.skip("the _crollout extension is not built")
    state = _state()
    orders = rollout.sample_orders(state, 200, seed=1)
    run = rollout.playouts_c if compiled else rollout.playouts_python
    # the first check (before any playout) finds the deadline passed
    assert run(state, orders, limit=Limit(time=0.0)) == []


@pytest.mark.parametrize("compiled", [False, True])
def test_a_stop_request_ends_the_playouts(compiled: bool, stop_requested: None) -> None:
    if compiled and not rollout.HAVE_C:
        pytest.skip("the _crollout extension is not built")
    state = _state(turns=25)
    orders = rollout.sample_orders(state, 100, seed=1)
    run = rollout.playouts_c if compiled else rollout.playouts_python
    assert run(state, orders, limit=Limit()) == []
    # without a budget every order is played: the caller pairs them all
    assert len(run(state, orders[:3])) == 3


@needs_c
def test_the_progress_hears_every_playout() -> None:
    state = _state(turns=25)
    orders = rollout.sample_orders(state, 150, seed=4)
    heard: list[int] = []
    assert len(rollout.playouts_c(state, orders, limit=Limit(progress=heard.append))) == 150
    assert heard == list(range(150))
    heard.clear()
    assert len(rollout.playouts_python(state, orders[:3], limit=Limit(progress=heard.append))) == 3
    assert heard == [0, 1, 2]


@needs_c
def test_the_extension_refuses_a_bad_budget() -> None:
    state = _state()
    args = rollout._c_position(state, None, False)
    order = bytes(rollout.hidden_cards(state))
    with pytest.raises(TypeError, match="budget"):
        rollout._crollout.playouts(*args, order, 1, [None, None, 0, None])
    with pytest.raises(ValueError, match="memory"):
        rollout._crollout.playouts(*args, order, 1, (None, None, -1, None))
    assert len(rollout._crollout.playouts(*args, order, 1, None)) == 1


def test_a_hint_takes_one_limit() -> None:
    state = _state(players=1)
    assert blind_hint(state, 30, Limit(nodes=12)).samples == 12
    strong = blind_hint(state, 30, Limit(nodes=12), level=Level.STRONG)
    assert strong.samples == 12 and strong.choice_playouts <= 12
    # a spent budget still rests the estimate on one sample
    assert blind_hint(state, 30, Limit(time=0.0)).samples == 1


def test_a_hint_stopped_before_any_sample_is_no_answer(stop_requested: None) -> None:
    with pytest.raises(KeyboardInterrupt):
        blind_hint(_state(players=1), 30)
