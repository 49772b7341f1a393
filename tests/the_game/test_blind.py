"""The blind policy and the fair rating (thegame.analysis.the_game.blind): every turn it
picks is legal through the engine, it reads no hidden information, and the
rating is deterministic, complete and sees an obvious blunder."""

from __future__ import annotations

import random

import pytest

from thegame.analysis.the_game.blind import (
    BlindPolicy,
    PlayRating,
    choose_turn,
    play_out,
    rate_plays,
)
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Play, get_rules, small_rules


def _start(seed: int, variant: str = "classic", players: int = 1) -> GameState:
    return GameState(Deal.from_seed(seed, get_rules(variant), players), first=1)


def _can_finish(state: GameState) -> bool:
    """Brute force through the engine: can the current turn still end legally?"""
    if state.can_end_turn():
        return True
    for play in state.legal_plays():
        state.play(play.card, play.pile)
        ok = _can_finish(state)
        state.undo_play()
        if ok:
            return True
    return False


def _play_game(state: GameState) -> GameState:
    """Play to the end, checking each chosen turn through the engine."""
    while not state.over:
        plays = choose_turn(state)
        # The engine only starts a turn that can be finished (rule C8), so
        # the policy must always find a turn meeting the minimum.
        assert len(plays) >= state.turn_min
        for play in plays:
            state.play(play.card, play.pile)  # raises if illegal
        state.end_turn()  # raises if the turn is short
    return state


@pytest.mark.parametrize(
    ("variant", "players", "seeds"),
    [
        ("classic", 1, range(1, 6)),
        ("classic", 3, range(1, 6)),
        ("classic", 5, range(1, 4)),
        ("profi", 1, range(1, 4)),
        ("on-fire", 1, range(1, 6)),
        ("on-fire", 2, range(1, 4)),
    ],
)
def test_every_turn_is_legal(variant: str, players: int, seeds: range) -> None:
    for seed in seeds:
        final = _play_game(_start(seed, variant, players))
        assert final.status in (Status.WON, Status.LOST)
        assert (final.status == Status.WON) == (final.cards_left() == 0)


def test_wins_some_solo_games() -> None:
    # A sanity floor far below the benchmark figure (about 1 in 5 are won).
    wins = sum(_play_game(_start(seed)).status == Status.WON for seed in range(200, 210))
    assert wins >= 1


def test_finishes_a_turn_from_the_middle() -> None:
    rnd = random.Random(5)
    for seed in range(1, 25):
        state = _start(seed, "profi" if seed % 3 == 0 else "classic", 1 + seed % 3)
        for _ in range(rnd.randrange(0, 12)):  # a few policy turns first
            if state.over:
                break
            for play in choose_turn(state):
                state.play(play.card, play.pile)
            state.end_turn()
        if state.over:
            continue
        # One or two random legal plays: perhaps poor ones.
        for _ in range(rnd.randrange(1, 3)):
            options = state.legal_plays()
            if not options:
                break
            pick = rnd.choice(options)
            state.play(pick.card, pick.pile)
        plays = choose_turn(state)
        probe = state.copy()
        for play in plays:
            probe.play(play.card, play.pile)
        assert probe.can_end_turn() == _can_finish(state.copy())


def _shuffled_hidden(state: GameState, rnd: random.Random) -> GameState:
    """The same position for the active player with the draw pile and the
    other hands re-dealt: what they cannot see is changed, nothing else."""
    me = state.current
    hidden = [c for i, h in enumerate(state.hands) if i != me for c in h]
    hidden += state.draw_pile()
    rnd.shuffle(hidden)
    new = state.copy()
    pos = 0
    for i, h in enumerate(state.hands):
        if i != me:
            new.hands[i] = set(hidden[pos : pos + len(h)])
            pos += len(h)
    new.stocks = [list(state.stocks[0][: state.stock_pos[0]]) + hidden[pos:]]
    return new


@pytest.mark.parametrize(("variant", "players"), [("classic", 1), ("classic", 3), ("on-fire", 2)])
def test_policy_is_blind(variant: str, players: int) -> None:
    rnd = random.Random(11)
    for seed in range(1, 3):
        state = _start(seed, variant, players)
        while not state.over:
            turn = choose_turn(state)
            for _ in range(2):
                assert choose_turn(_shuffled_hidden(state, rnd)) == turn
            for play in turn:
                state.play(play.card, play.pile)
            state.end_turn()


def _blunder_position() -> GameState:
    """Cards 2..10, one pile each way, hand 3, minimum 1. After 5 goes onto
    the descending pile, the hand is 2, 3, 9: putting 9 on the ascending
    pile leaves 6, 7, 8 with no pile that could ever take them."""
    rules = small_rules(high=10, hand=3, min_play=1)
    deal = Deal.create(rules, 1, [[5, 9, 3, 2, 4, 6, 7, 8, 10]], first=1)
    state = GameState(deal)
    state.play(5, 1)
    state.end_turn()
    assert state.hand() == [2, 3, 9]
    return state


def test_rate_plays_sees_the_blunder() -> None:
    state = _blunder_position()
    ratings = rate_plays(state, samples=30, seed=1)
    by_play = {r.play: r for r in ratings}
    blunder = by_play[Play(9, 0)]
    assert blunder.win_rate == 0.0
    assert blunder.expected_left >= 3
    best = max(ratings, key=lambda r: r.win_rate)
    assert best.win_rate > blunder.win_rate
    assert best.expected_left < blunder.expected_left
    assert all(r.samples == 30 for r in ratings)


def test_rate_plays_is_deterministic_and_complete() -> None:
    state = _blunder_position()
    before = state.key()
    first = rate_plays(state, samples=10, seed=7)
    assert rate_plays(state, samples=10, seed=7) == first
    assert state.key() == before  # the position is not changed
    # Start of a turn: the legal plays, and no "end turn" (minimum 1 unmet).
    assert [r.play for r in first] == state.legal_plays()
    # Mid-turn, past the minimum: every legal play and ending the turn.
    state.play(2, 0)
    mid = rate_plays(state, samples=10, seed=7)
    assert [r.play for r in mid] == [*state.legal_plays(), None]
    assert all(isinstance(r, PlayRating) and 0 <= r.win_rate <= 1 for r in mid)


def test_rate_plays_multiplayer_mid_turn() -> None:
    rules = small_rules(high=16, hand=2)
    state = GameState(Deal.from_seed(3, rules, 2), first=1)
    first = state.legal_plays()[0]
    state.play(first.card, first.pile)
    ratings = rate_plays(state, samples=4, seed=2)
    assert [r.play for r in ratings] == state.legal_plays()  # minimum 2: no end yet
    assert ratings == rate_plays(state, samples=4, seed=2)


def test_play_out_tiny_deals() -> None:
    rules = small_rules(high=14, hand=3)
    outcomes = set()
    for seed in range(40):
        state = GameState(Deal.from_seed(seed, rules, 1), first=1)
        final = play_out(state)
        assert state.turn == 0  # play_out works on a copy
        assert final.over
        assert (final.status == Status.WON) == (final.cards_left() == 0)
        outcomes.add(final.status)
    assert outcomes == {Status.WON, Status.LOST}


def test_play_out_mid_turn_dead_end_is_lost() -> None:
    state = _blunder_position()
    state.play(9, 0)
    final = play_out(state)
    assert final.status == Status.LOST
    assert final.cards_left() > 0


def test_play_out_with_a_custom_policy() -> None:
    careful = BlindPolicy()
    final = play_out(_start(3), careful.choose_turn)
    assert final.over
    assert final.key() == play_out(_start(3), careful).key()


def test_rejects_other_families() -> None:
    with pytest.raises(ValueError):
        choose_turn(_start(1, "extreme"))
