"""Playouts of the blind policy over given orders of the hidden cards
(thegame.analysis.the_game.rollout): the Python reference plays what
``play_out`` plays on the re-dealt state, and the compiled extension gives
the very same (won, cards left) game by game, from starts of deals and from
inside turns, for 1-5 players, Profi, On Fire and small generalised decks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.the_game import examples
from thegame.analysis.the_game import rollout
from thegame.analysis.the_game.blind import (
    BlindParams,
    BlindPolicy,
    choose_turn,
    deal_hidden,
    play_out,
    rate_plays,
    resample,
)
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Rules, get_rules, small_rules

needs_c = pytest.mark.skipif(
    not rollout.HAVE_C, reason="the _crollout extension is not built (no C compiler)"
)


def _start(seed: int, variant: str = "classic", players: int = 1, first: int = 1) -> GameState:
    return GameState(Deal.from_seed(seed, get_rules(variant), players), first=first)


def _advance(state: GameState, rnd: random.Random, turns: int, plays: int) -> GameState:
    """``turns`` policy turns, then up to ``plays`` random legal plays (perhaps
    poor ones: the playouts must cope with any position inside a turn)."""
    for _ in range(turns):
        if state.over:
            return state
        for play in choose_turn(state):
            state.play(play.card, play.pile)
        state.end_turn()
    for _ in range(plays):
        options = state.legal_plays()
        if state.over or not options:
            break
        pick = rnd.choice(options)
        state.play(pick.card, pick.pile)
    return state


def _same(state: GameState, n: int, seed: int, params: BlindParams | None = None) -> None:
    """The compiled playouts equal the reference on ``n`` sampled orders;
    so do the policy's plan, its ranked ways to finish the turn and, where
    the turn may end, the playouts that end it first."""
    if state.over:
        return
    orders = rollout.sample_orders(state, n, seed)
    assert rollout.c_covers(state, params)
    assert rollout.playouts_c(state, orders, params) == rollout.playouts_python(
        state, orders, params
    )
    assert rollout.plan_c(state, params) == BlindPolicy(params).choose_turn(state)
    # The policy's ranked ways to finish the turn, cut to their first k.
    ranked = BlindPolicy(params).turn_options(state)
    for k in (1, 5, rollout.C_MAX_OPTIONS):
        assert rollout.turn_options_c(state, params, k) == ranked[:k]
    if len(state.placed) >= state.turn_min:
        ended_c = rollout.playouts_c(state, orders, params, end_first=True)
        assert ended_c == rollout.playouts_python(state, orders, params, end_first=True)


# -- the reference ------------------------------------------------------------


def test_hidden_cards_and_orders_depend_only_on_what_is_public() -> None:
    state = _start(4, players=3)
    me = state.current
    hidden = rollout.hidden_cards(state)
    assert hidden == sorted(set(state.rules.cards) - state.hands[me])
    orders = rollout.sample_orders(state, 5, seed=9)
    assert len(orders) == 5 and all(sorted(o) == hidden for o in orders)
    assert len({tuple(o) for o in orders}) == 5
    assert rollout.sample_orders(state, 5, seed=9) == orders
    assert rollout.sample_orders(state, 5, seed=10) != orders
    # The same position with the hidden cards placed otherwise: same orders.
    moved = state.copy()
    rest = list(reversed(hidden))
    moved.hands[1], moved.hands[2] = set(rest[:6]), set(rest[6:12])
    moved.stocks = [list(state.stocks[0][: state.stock_pos[0]]) + rest[12:]]
    assert rollout.sample_orders(moved, 5, seed=9) == orders


def test_an_order_deals_the_other_hands_then_the_draw_pile() -> None:
    # Player 2 of 3 to move at the start: the order deals player 1's hand,
    # then player 3's (seat order, skipping the mover), then the draw pile:
    # the deck of a fresh deal (rule C2) with the mover's hand kept.
    state = _start(8, players=3, first=2)
    order = rollout.sample_orders(state, 1, seed=3)[0]
    mine = sorted(state.hands[1])
    deck = [*order[:6], *mine, *order[6:12], *order[12:]]
    fresh = GameState(Deal.create(state.rules, 3, [deck], first=2))
    final = play_out(fresh)
    expected = (final.status == Status.WON, final.cards_left())
    assert rollout.playouts(state, [order]) == [expected]
    assert rollout.playouts_python(state, [order]) == [expected]


@pytest.mark.parametrize(("variant", "players"), [("classic", 1), ("on-fire", 2), ("profi", 3)])
def test_playouts_are_play_out_on_the_resampled_states(variant: str, players: int) -> None:
    # Mid-turn, the samples of rate_plays (random.Random(seed) shuffles of
    # the sorted hidden cards) are sample_orders' orders, and each playout is
    # play_out of that resampled state.
    rnd = random.Random(players)
    state = _advance(_start(21, variant, players), rnd, turns=3, plays=1)
    assert not state.over
    seed, n = 5, 4
    rng = random.Random(seed)
    hidden = rollout.hidden_cards(state)
    expected = []
    for _ in range(n):
        final = play_out(resample(state, hidden, rng))
        expected.append((final.status == Status.WON, final.cards_left()))
    orders = rollout.sample_orders(state, n, seed)
    assert rollout.playouts(state, orders) == expected
    assert rollout.playouts_python(state, orders) == expected


def test_rate_plays_is_playouts_after_each_play() -> None:
    # A play does not change which cards are hidden, so rate_plays' rating of
    # a play is the playouts of the position after it, over sample_orders of
    # the position before (the same seed).
    rules = small_rules(high=40, hand=4)
    state = _advance(GameState(Deal.from_seed(5, rules, 2), first=1), random.Random(2), 2, 1)
    seed, n = 4, 4
    orders = rollout.sample_orders(state, n, seed)
    seen = set()
    for rating in rate_plays(state, n, seed):
        assert rating.play is not None  # inside a turn, below its minimum
        after = state.copy()
        after.play(rating.play.card, rating.play.pile)
        results = rollout.playouts(after, orders)
        assert rating.win_rate == sum(won for won, _ in results) / n
        assert rating.expected_left == sum(left for _, left in results) / n
        seen.add((rating.win_rate, rating.expected_left))
    assert len(seen) == 5  # the plays differ: the comparison means something


@pytest.mark.parametrize(("variant", "players"), [("classic", 1), ("on-fire", 3), ("profi", 2)])
def test_the_actual_arrangement_plays_the_actual_game(variant: str, players: int) -> None:
    # deal_hidden(s, arrangement(s)) is s, so its playout is play_out(s):
    # the compiled playouts too, from the deal and from inside a turn.
    rnd = random.Random(players)
    for state in (
        _start(31, variant, players),
        _advance(_start(32, variant, players), rnd, 4, 1),
    ):
        assert rollout.deal_hidden(state, rollout.arrangement(state)).key() == state.key()
        final = play_out(state)
        expected = [(final.status == Status.WON, final.cards_left())]
        assert rollout.playouts(state, [rollout.arrangement(state)]) == expected


def test_bad_orders_are_refused() -> None:
    state = _start(1)
    order = rollout.sample_orders(state, 1, seed=1)[0]
    for wrong in (order[:-1], [*order[:-1], order[0]], [*order[:-1], state.hand()[0]]):
        for run in (rollout.playouts, rollout.playouts_python):
            with pytest.raises(ValueError, match="permutation"):
                run(state, [order, wrong])
    assert rollout.playouts(state, []) == []


def test_other_families_are_refused() -> None:
    with pytest.raises(ValueError):
        rollout.playouts(_start(1, "extreme"), [])


def test_a_finished_game_stays_finished() -> None:
    state = _start(2)
    final = play_out(state)
    assert final.over and not rollout.c_covers(final)
    orders = rollout.sample_orders(final, 3, seed=1)
    outcome = (final.status == Status.WON, final.cards_left())
    assert rollout.playouts(final, orders) == [outcome] * 3


def test_the_environment_forces_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _start(3)
    monkeypatch.setenv("THEGAME_ROLLOUT", "python")
    assert rollout.backend(state) == rollout.backend() == "python"
    orders = rollout.sample_orders(state, 2, seed=1)
    assert rollout.playouts(state, orders) == rollout.playouts_python(state, orders)
    monkeypatch.delenv("THEGAME_ROLLOUT")
    assert rollout.backend(state) == rollout.backend() == ("c" if rollout.HAVE_C else "python")


def test_decks_beyond_the_masks_use_the_reference() -> None:
    # Cards up to 150 do not fit the extension's 128-bit masks.
    rules = small_rules(high=150, asc_piles=2, desc_piles=2, hand=8)
    state = GameState(Deal.from_seed(6, rules, 1), first=1)
    assert not rollout.c_covers(state) and rollout.backend(state) == "python"
    orders = rollout.sample_orders(state, 1, seed=2)
    final = play_out(rollout.deal_hidden(state, orders[0]))
    assert rollout.playouts(state, orders) == [(final.status == Status.WON, final.cards_left())]
    with pytest.raises(RuntimeError):
        rollout.playouts_c(state, orders)


# -- the compiled playouts against the reference ---------------------------------


@needs_c
@pytest.mark.parametrize(
    ("variant", "players", "seeds"),
    [
        ("classic", 1, range(1, 5)),
        ("classic", 2, range(1, 3)),
        ("classic", 3, range(1, 3)),
        ("classic", 4, range(1, 2)),
        ("classic", 5, range(1, 3)),
        ("profi", 1, range(1, 3)),
        ("profi-hard", 2, range(1, 2)),
        ("on-fire", 1, range(1, 4)),
        ("on-fire", 3, range(1, 2)),
    ],
)
def test_c_equals_python_from_the_deal(variant: str, players: int, seeds: range) -> None:
    for seed in seeds:
        first = 1 + seed % players
        _same(_start(seed, variant, players, first), n=2, seed=seed)


@needs_c
def test_c_equals_python_inside_turns() -> None:
    rnd = random.Random(17)
    variants = ["classic", "profi", "on-fire", "profi-hard"]
    for k in range(16):
        players = 1 + k % 5
        state = _start(300 + k, variants[k % 4], players)
        state = _advance(state, rnd, turns=rnd.randrange(0, 25), plays=rnd.randrange(0, 3))
        _same(state, n=2, seed=k)


@needs_c
def test_c_equals_python_with_other_weights() -> None:
    # Other weights change the choices; the extension must follow them: a
    # play bonus (an extra term), a short cost table, no pruning slack.
    params = [
        BlindParams(play_bonus=0.7, fire_cost=3.0, free_gap=1, forced_slack=3),
        BlindParams(cover_cost=(30.0, 2.0), hand_cost=(10.0,), trick_hand=0.0),
        BlindParams(cover_cost=(5.0, 5.0, 5.0, 5.0, 5.0, 1.0), forced_slack=0),
    ]
    for k, p in enumerate(params):
        for variant in ("classic", "on-fire"):
            _same(_start(40 + k, variant), n=2, seed=k, params=p)


@needs_c
def test_c_equals_python_at_the_pruning_edges() -> None:
    # The pruning's limits at their edges: beyond the turn's minimum only
    # backward tricks pass (free_gap -1), or nothing but a play onto a fire
    # card due this turn (-2); within the minimum, nothing cheaper than the
    # cheapest play (slack -1 or -3: the search then looks again without
    # pruning). Small decks with fire cards keep the unpruned searches short.
    rules = small_rules(high=24, asc_piles=2, desc_piles=2, hand=4, step=5)
    rules = rules.with_changes(fire_cards=frozenset({9, 17}))
    params = [
        BlindParams(free_gap=-1, forced_slack=0),
        BlindParams(free_gap=-2, forced_slack=-3),
        BlindParams(free_gap=0, forced_slack=-1),
    ]
    rnd = random.Random(5)
    for k, p in enumerate(params):
        for players in (1, 2):
            state = GameState(Deal.from_seed(k, rules, players), first=1)
            state = _advance(state, rnd, turns=rnd.randrange(0, 4), plays=rnd.randrange(0, 2))
            _same(state, n=2, seed=k, params=p)


@needs_c
def test_c_equals_python_at_a_mid_turn_dead_end() -> None:
    # Cards 2..10 (test_blind's blunder): after 5 and then 9, cards 6, 7, 8
    # can never be played; a mid-turn start that may be lost at once.
    rules = small_rules(high=10, hand=3, min_play=1)
    state = GameState(Deal.create(rules, 1, [[5, 9, 3, 2, 4, 6, 7, 8, 10]], first=1))
    state.play(5, 1)
    state.end_turn()
    state.play(9, 0)
    orders = rollout.sample_orders(state, 6, seed=1)
    results = rollout.playouts_c(state, orders)
    assert results == rollout.playouts_python(state, orders)
    assert all(not won and left >= 3 for won, left in results)


@needs_c
def test_c_equals_python_at_the_edge_of_the_masks() -> None:
    # Cards up to 127 are the most the 128-bit masks hold (a descending pile
    # then starts at 128); 128 is one too many.
    rules = small_rules(high=127, asc_piles=3, desc_piles=2, hand=7, step=9)
    rules = rules.with_changes(fire_cards=frozenset({20, 64, 127}))
    for seed in range(3):  # the last one is won
        _same(GameState(Deal.from_seed(seed, rules, 2), first=1), n=1, seed=seed)
    wider = GameState(Deal.from_seed(0, rules.with_changes(high=128), 2), first=1)
    assert not rollout.c_covers(wider)


@needs_c
def test_the_extension_checks_its_arguments() -> None:
    # Called directly with bad data it raises, and never reads out of bounds.
    from thegame.analysis.the_game import _crollout

    # classic, solo, the default BlindParams (steps: 40-4, 4-1.2, 1.2-0.3,
    # 0.3; 20-2, 2-0.5, 0.5, 0), as playouts_c packs them
    rules = (2, 99, 10, 2, 2, 8, 2, 1, 1, 4, 12)
    floats = (0.4, 0.1, 0.0, 8.0, 36.0, 4.0 - 1.2, 1.2 - 0.3, 0.3, 18.0, 1.5, 0.5, 0.0)
    position = (1, 0, 0, 2, 0)
    tops, turns = bytes([1, 1, 100, 100]), (-1, -1, -1, -1)
    # Seed 1's deal, solo, player 1 to move: the same game as the reference's.
    state = _start(1)
    hand, ok = bytes(state.hand()), bytes(state.draw_pile())
    direct = _crollout.playouts(rules, floats, b"", position, tops, turns, hand, (8,), ok, 1)
    assert direct == rollout.playouts_python(state, [list(ok)])
    bad_order = bytes([200]) + ok[1:]
    with pytest.raises(ValueError):
        _crollout.playouts(rules, floats, b"", position, tops, turns, hand, (8,), bad_order, 1)
    with pytest.raises(ValueError):
        _crollout.playouts(rules[:5], floats, b"", position, tops, turns, hand, (8,), ok, 1)
    with pytest.raises(ValueError):
        _crollout.playouts(rules, floats, b"", position, tops[:3], turns, hand, (8,), ok, 1)
    with pytest.raises(ValueError):
        _crollout.playouts(rules, floats, b"", position, tops, turns, hand, (8,), ok[:-1], 2)
    # The plan reads one order; a turn is ended first only past its minimum.
    assert _crollout.plan(rules, floats, b"", position, tops, turns, hand, (8,), ok, 1) == [
        (p.card, p.pile) for p in choose_turn(state)
    ]
    with pytest.raises(ValueError):
        _crollout.plan(rules, floats, b"", position, tops, turns, hand, (8,), ok + ok, 2)
    with pytest.raises(ValueError):
        ended = (*position, 1)
        _crollout.playouts(rules, floats, b"", ended, tops, turns, hand, (8,), ok, 1)
    with pytest.raises(ValueError):
        rollout.playouts_python(state, [list(ok)], end_first=True)


def test_ending_the_turn_first_is_ending_it_then_playing_out() -> None:
    # The review's "end the turn now": each order's draw, then the policy.
    rnd = random.Random(5)
    state = _advance(_start(8, "profi"), rnd, turns=3, plays=0)
    for play in choose_turn(state)[:3]:
        state.play(play.card, play.pile)
    orders = rollout.sample_orders(state, 4, seed=2)
    expected = []
    for order in orders:
        s = deal_hidden(state, order)
        s.end_turn()
        final = play_out(s)
        expected.append((final.status == Status.WON, final.cards_left()))
    assert rollout.playouts(state, orders, end_first=True) == expected


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[GameState, int]:
    """A small generalised deal (rule C10), perhaps with fire cards,
    advanced by a few policy turns and perhaps into a turn."""
    high = draw(st.integers(10, 48))
    asc = draw(st.integers(1, 3))
    desc = draw(st.integers(1, 3))
    players = draw(st.integers(1, 4))
    hand = draw(st.integers(2, 6))
    min_play = draw(st.integers(1, 3))
    rules: Rules = small_rules(
        high=high,
        asc_piles=asc,
        desc_piles=desc,
        hand=hand,
        min_play=min_play,
        step=draw(st.integers(2, 10)),
    )
    cards = list(rules.cards)
    fire = draw(st.sets(st.sampled_from(cards), max_size=4))
    rules = rules.with_changes(
        fire_cards=frozenset(fire),
        fire_safe_at_clear=draw(st.booleans()),
        min_play_empty=draw(st.integers(1, min_play)),
    )
    if players * hand > len(cards):
        players = 1
    seed = draw(st.integers(0, 2**32))
    state = GameState(Deal.from_seed(seed, rules, players), first=1 + seed % players)
    rnd = random.Random(seed)
    state = _advance(state, rnd, draw(st.integers(0, 6)), draw(st.integers(0, 2)))
    return state, seed


@needs_c
@settings(max_examples=examples(100))
@given(position=small_positions())
def test_c_equals_python_on_small_decks(position: tuple[GameState, int]) -> None:
    state, seed = position
    _same(state, n=3, seed=seed)
