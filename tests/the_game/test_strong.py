"""The strong blind player (thegame.analysis.the_game.strong): its turns are
legal, it reads no hidden card, it is deterministic for a seed and a
playout budget, it keeps to the budget, and its compiled playouts give the
choice the reference playouts give."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from unittest.mock import ANY

import pytest

from thegame.analysis.the_game import rollout, strong_exact
from thegame.analysis.the_game.blind import (
    BlindPolicy,
    choose_turn,
    clear_line,
    deal_hidden,
    play_out,
)
from thegame.analysis.the_game.rollout import SampleSet, playouts, sample_orders
from thegame.analysis.the_game.strong import Level, StrongParams, StrongPlayer, describe
from thegame.models import interrupt
from thegame.models.outcome import Limit, Status
from thegame.models.the_game import Deal, GameState, get_rules

from .test_blind import _shuffled_hidden


def _start(seed: int, variant: str = "classic", players: int = 1) -> GameState:
    return GameState(Deal.from_seed(seed, get_rules(variant), players), first=1)


def _advance(state: GameState, turns: int) -> GameState:
    """``turns`` turns of the default policy."""
    for _ in range(turns):
        if state.over:
            break
        for play in choose_turn(state):
            state.play(play.card, play.pile)
        state.end_turn()
    return state


def test_turn_options_lead_with_the_policys_choice() -> None:
    policy = BlindPolicy()
    for seed in range(1, 6):
        state = _advance(_start(seed, "classic", 1 + seed % 3), seed)
        if state.over:
            continue
        options = policy.turn_options(state)
        assert options[0][1] == policy.choose_turn(state)
        scores = [s for s, _ in options]
        assert scores == sorted(scores)
        for _, plays in options:
            probe = state.copy()
            for p in plays:
                probe.play(p.card, p.pile)  # raises if illegal
            assert probe.over or probe.can_end_turn()


def test_sample_set_matches_playouts() -> None:
    state = _advance(_start(3, "classic", 2), 4)
    orders = sample_orders(state, 20, 7)
    samples = SampleSet(state, orders)
    assert samples.playouts(state, 5, 20) == playouts(state, orders[5:])
    plays = choose_turn(state)
    after = state.copy()
    for p in plays:
        after.play(p.card, p.pile)
    assert samples.playouts(after, 0, 20, end_first=True) == playouts(after, orders, end_first=True)
    other = _advance(state.copy(), 1)
    with pytest.raises(ValueError, match="hides other cards"):
        samples.playouts(other, 0, 1)
    # A drawn set grows to the very orders sample_orders draws, and its
    # runner plays what playouts plays.
    drawn = SampleSet.drawn(state, 7)
    drawn.grow(6)
    drawn.grow(20)
    assert drawn.orders == orders
    run = drawn.runner(after, end_first=True)
    assert run(3, 11) == playouts(after, orders[3:11], end_first=True)
    with pytest.raises(ValueError, match="only a drawn"):
        samples.grow(30)


@pytest.mark.parametrize(("variant", "players"), [("classic", 1), ("classic", 3), ("on-fire", 2)])
def test_strong_player_is_blind_and_legal(variant: str, players: int) -> None:
    rnd = random.Random(3)
    player = StrongPlayer(Limit(nodes=24), seed=5)
    state = _start(2, variant, players)
    compared = 0
    while not state.over:
        choice = player.choose(state)
        compared += choice.level is Level.STRONG
        assert choice.playouts <= 24
        if state.turn % 3 == 0:
            assert player.choose_turn(_shuffled_hidden(state, rnd)) == choice.plays
        assert len(choice.plays) >= state.turn_min
        for play in choice.plays:
            state.play(play.card, play.pile)  # raises if illegal
        if not state.over:
            state.end_turn()
    assert compared > 0
    assert state.status in (Status.WON, Status.LOST)


def test_deterministic_for_a_seed_and_the_seed_matters() -> None:
    state = _advance(_start(11), 3)
    a = StrongPlayer(Limit(nodes=60), seed=1).choose(state)
    b = StrongPlayer(Limit(nodes=60), seed=1).choose(state)
    assert a == b or (a.plays, a.playouts, a.win) == (b.plays, b.playouts, b.win)
    assert a.level is Level.STRONG and a.candidates > 1
    assert 0 < a.samples <= a.playouts <= 60
    assert a.win is not None and 0.0 <= a.win <= 1.0
    wins = {StrongPlayer(Limit(nodes=60), seed=s).choose(state).win for s in range(4)}
    assert len(wins) > 1  # other seeds, other samples


def test_tiny_budget_is_the_default_policy() -> None:
    state = _advance(_start(4), 2)
    choice = StrongPlayer(Limit(nodes=3)).choose(state)
    assert choice.level is Level.DEFAULT
    assert choice.plays == choose_turn(state)
    assert choice.playouts == 0
    assert StrongPlayer(Limit(0)).choose(state).level is Level.DEFAULT


def test_time_budget_is_kept() -> None:
    state = _advance(_start(8), 1)
    choice = StrongPlayer(Limit(0.2)).choose(state)
    assert choice.level is Level.STRONG
    # The first round is spent before the speed is known: allow it.
    assert choice.seconds < 1.5


def test_nothing_hidden_needs_one_sample() -> None:
    # Solo with the draw pile empty: every order is the same.
    state = _start(21)
    while not state.over and state.stock_left():
        _advance(state, 1)
    if state.over:
        pytest.skip("the game ended before the draw pile did")
    choice = StrongPlayer(Limit(nodes=500)).choose(state)
    assert choice.playouts <= choice.candidates


def test_compiled_and_reference_playouts_choose_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # Late in a game, so the reference playouts are quick.
    for seed in range(1, 30):
        state = _start(seed)
        while not state.over and state.stock_left() > 8:
            _advance(state, 1)
        if not state.over:
            break
    assert not state.over
    player = StrongPlayer(Limit(nodes=40), seed=2, params=StrongParams(candidates=4))
    fast = player.choose(state)
    monkeypatch.setenv("THEGAME_ROLLOUT", "python")
    assert rollout.backend(state) is rollout.Backend.PYTHON
    slow = player.choose(state)
    assert (fast.plays, fast.playouts, fast.win, fast.left) == (
        slow.plays,
        slow.playouts,
        slow.win,
        slow.left,
    )


def test_plays_whole_games() -> None:
    player = StrongPlayer(Limit(nodes=16))
    for seed in (1, 2):
        final = play_out(_start(seed, "profi", 2), player)
        assert final.status in (Status.WON, Status.LOST)


def test_budget_needs_a_limit() -> None:
    # the one budget type: a Limit whose nodes are playouts
    with pytest.raises(ValueError):
        StrongPlayer(Limit())
    with pytest.raises(ValueError):
        Limit(nodes=-1)
    assert describe(Limit(nodes=50)) == "50 playouts a turn"
    assert describe(Limit(0.5, 50)) == "50 playouts or 0.5 s a turn"


def test_a_stop_request_leaves_the_policys_turn() -> None:
    state = _start(3, "classic", 2)
    interrupt.request()
    try:
        choice = StrongPlayer(Limit(nodes=200), seed=1).choose(state)
    finally:
        interrupt.reset()
    assert choice.level is Level.DEFAULT
    assert choice.plays == choose_turn(state)


def _late(seed: int, pile: int, players: int = 1) -> GameState | None:
    """A default-policy game of ``seed`` at its first turn with at most
    ``pile`` cards in the draw pile (None: it ended before)."""
    state = _start(seed, "classic", players)
    while not state.over and state.stock_left() > pile:
        _advance(state, 1)
    return None if state.over or not state.stock_left() else state


def test_endgame_is_blind_and_exact() -> None:
    rnd = random.Random(5)
    player = StrongPlayer(Limit(nodes=200), seed=3)
    exact = certain = 0
    for seed in range(1, 16):
        state = _late(seed, 5, 1 + seed % 2)
        if state is None:
            continue
        choice = player.choose(state)
        for _ in range(2):  # permuting the hidden cards changes nothing
            assert player.choose(_shuffled_hidden(state, rnd)) == replace(choice, seconds=ANY)
        exact += choice.exact
        if choice.exact and choice.samples == 0:
            # The endgame's search: the turn wins whatever the draw brings.
            certain += 1
            assert state.players == 1 and state.stock_left() <= strong_exact.MAX_HIDDEN
            for order in itertools.permutations(state.draw_pile()):
                probe = deal_hidden(state, list(order))
                for p in choice.plays:
                    probe.play(p.card, p.pile)
                probe.end_turn()
                line = clear_line(probe)
                assert line is not None
        elif choice.exact:
            # Every order weighed: its win chance is the mean over all of them.
            assert choice.samples == math.factorial(len(rollout.hidden_cards(state)))
    assert exact > 0 and certain > 0


def test_endgame_plays_a_certain_win() -> None:
    # When one of the candidate turns wins whatever the draw brings, the
    # strong player plays the first such turn, and says its chance is exact.
    player = StrongPlayer(Limit(nodes=100))
    found = 0
    for seed in range(1, 30):
        state = _late(seed, 2)
        if state is None:
            continue
        turns = [plays for _, plays in BlindPolicy().turn_options(state)][:8]
        k, complete = strong_exact.ExactEndgame(BlindPolicy(), 10**6).first_win(state, turns)
        assert complete
        choice = player.choose(state)
        if k is not None:
            assert (choice.plays, choice.win, choice.exact) == (turns[k], 1.0, True)
            found += 1
        else:
            assert not choice.exact or choice.samples > 0
    assert found > 0
