"""The compiled duel expansion (``duel/csrc/``) against its Python
reference (``duel/position.py``, ``duel/search.py``): position by position
along random duels, and whole searches node for node."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.the_game import DUEL, examples, searched, turn_starts
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel import ccore
from thegame.solver.the_game.duel.api import first_guess, policy_duel
from thegame.solver.the_game.duel.nodes import (
    NO_TURN,
    SEARCH,
    WINS_NOW,
    by_dominance,
    undominated,
)
from thegame.solver.the_game.duel.position import DuelGame, Pos, solo_of, solo_turns
from thegame.solver.the_game.duel.race import dead_cards
from thegame.solver.the_game.duel.search import DuelSearch

pytestmark = pytest.mark.skipif(
    not ccore.BUILT, reason="the _cduel extension is not built (no C compiler)"
)


def reference_expand(game: DuelGame, pos: Pos) -> tuple[int, list[tuple[Pos, int, bool]]]:
    """What ``_cduel.Game.expand`` must answer, from the Python pieces."""
    children = game.turns(pos)
    if not children:
        return NO_TURN, []
    if any(after is None for _plays, after in children):
        return WINS_NOW, []
    search = DuelSearch(game)
    out = []
    for plays, after in undominated(game, pos, children):
        assert after is not None
        out.append((after, search.score(pos, plays, after), game.has_turn(after)))
    return SEARCH, out


def check_position(game: DuelGame, pos: Pos, done: int = 0, dumped: bool = False) -> None:
    c = ccore.compiled(game)
    assert c is not None
    assert c.turns(pos, done, dumped) == game.turns(pos, done, dumped)
    if done:
        return  # the rest asks about turn starts
    assert c.has_turn(pos) == game.has_turn(pos)
    assert c.expand(pos) == reference_expand(game, pos)
    for p in (0, 1):
        for robust in (False, True):
            solo = solo_of(pos, p)
            assert c.solo_turns(p, solo, robust) == solo_turns(game, p, solo, robust)
        assert c.dead_cards(p, solo_of(pos, p)) == dead_cards(game, p, solo_of(pos, p))


def walk(deal: Deal, seed: int) -> int:
    """Check the start and every turn start of a random duel, and one point
    inside each turn; returns the turn starts checked (the start counts)."""
    game = DuelGame.of(deal)
    rnd = random.Random(seed)
    check_position(game, game.from_state(GameState(deal)))  # even one without a turn
    n = 1
    for state, plays in turn_starts(deal, seed):
        check_position(game, game.from_state(state))
        cut = rnd.randint(1, len(plays))
        here = state.copy()
        for card, pile in plays[:cut]:
            here.play(card, pile)
        if not here.over:
            done, dumped = game.turn_under_way(here)
            check_position(game, game.from_state(here), done, dumped)
        n += 1
    return n


@st.composite
def generalised_duels(draw: st.DrawFn) -> Deal:
    """Generalised duels (rule D7): cards 2..high up to the masks' 63, hand
    2-6, minimum 2-3 (the draw of 2 must not grow a hand, D5) and 1-3 once
    the draw pile is empty, the backward step 2-10."""
    high = draw(st.integers(7, 63))
    hand = draw(st.integers(2, 6))
    minimum = draw(st.integers(2, 3))
    rules = DUEL.with_changes(
        high=high,
        hand_sizes=(hand, hand),
        min_play=minimum,
        min_play_empty=draw(st.integers(1, minimum)),
        step=draw(st.integers(2, 10)),
    )
    cards = list(rules.cards)
    decks = [draw(st.permutations(cards)), draw(st.permutations(cards))]
    return Deal.create(rules, 2, [list(d) for d in decks], draw(st.sampled_from([1, 2])))


@settings(max_examples=examples(12), deadline=None)
@given(generalised_duels(), st.integers(0, 2**32 - 1))
def test_c_equals_python_along_generalised_duels(deal: Deal, seed: int) -> None:
    walk(deal, seed)


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None)
@given(generalised_duels(), st.integers(0, 2**32 - 1))
def test_c_equals_python_along_more_generalised_duels(deal: Deal, seed: int) -> None:
    walk(deal, seed)


def test_c_equals_python_along_printed_duels() -> None:
    rules = get_rules("face-to-face")
    checked = sum(walk(Deal.from_seed(seed, rules, 2), seed) for seed in range(1, 4))
    assert checked >= 60  # three whole duels of some 40 turns each


def search_run(game: DuelGame, pos: Pos, nodes: int, compiled: bool) -> tuple[object, ...]:
    search = DuelSearch(game, nodes)
    return *searched(search, pos, compiled), search.tt


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_searches_match_node_for_node_on_printed_duels(seed: int) -> None:
    game = DuelGame.of(Deal.from_seed(seed, get_rules("face-to-face"), 2))
    for first in (1, 2):
        pos = game.start(first)
        assert search_run(game, pos, 1500, True) == search_run(game, pos, 1500, False)


def same_search(deal: Deal) -> None:
    """The compiled and the Python expansion search ``deal`` node for node."""
    game = DuelGame.of(deal)
    pos = game.from_state(GameState(deal))
    assert search_run(game, pos, 3000, True) == search_run(game, pos, 3000, False)


@settings(max_examples=examples(5), deadline=None)
@given(generalised_duels())
def test_searches_match_node_for_node_on_generalised_duels(deal: Deal) -> None:
    same_search(deal)


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(generalised_duels())
def test_searches_match_node_for_node_on_more_generalised_duels(deal: Deal) -> None:
    same_search(deal)


@settings(max_examples=examples(15), deadline=None)
@given(generalised_duels())
def test_dominance_reads_equal_python(deal: Deal) -> None:
    # Each position of a searched table against the rest of its group, read
    # by the C scan and by ``by_dominance``.
    game = DuelGame.of(deal)
    compiled = ccore.compiled(game)
    assert compiled is not None
    search = DuelSearch(game, 3000)
    with contextlib.suppress(OutOfBudget):
        search.wins(game.from_state(GameState(deal)))
    for known in search.by_cards.values():
        for pos, _won in known:
            others = [k for k in known if k[0] != pos]
            assert compiled.dominance(pos, others) == by_dominance(game, pos, others)


def test_duels_beyond_the_masks_stay_in_python() -> None:
    rules = DUEL.with_changes(high=64, hand_sizes=(3, 3))
    game = DuelGame.of(Deal.from_seed(1, rules, 2))
    assert ccore.compiled(game) is None
    assert DuelSearch(game).compiled is None


def test_the_environment_forces_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    game = DuelGame.of(Deal.from_seed(1, get_rules("face-to-face"), 2))
    assert ccore.compiled(game) is not None
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    assert ccore.compiled(game) is None
    assert ccore.backend() == "python"


def test_the_extension_checks_its_arguments() -> None:
    game = DuelGame.of(Deal.from_seed(1, get_rules("face-to-face"), 2))
    c = ccore.compiled(game)
    assert c is not None
    pos = game.start(1)
    with pytest.raises(ValueError):
        c.expand(pos[:8])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        c.expand((*pos[:2], 99, *pos[3:]))  # a draw position past the deck
    with pytest.raises(ValueError):
        c.solo_turns(2, solo_of(pos, 0), False)
    with pytest.raises(OverflowError):
        c.expand((-1, *pos[1:]))
    with pytest.raises(ValueError):
        type(c)(bytes([2, 2]), bytes([2, 3]), 6, 2, 2, 10, 2)  # a card twice
    with pytest.raises(ValueError):
        type(c)(bytes([64]), bytes([2]), 6, 2, 2, 10, 2)  # beyond the masks


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_compiled_first_guess_is_the_reference_one(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``first_guess`` reads the compiled expansion at a turn start: along the
    fixed policy's duel it picks the same turn as the Python reference."""
    deal = Deal.from_seed(seed, get_rules("face-to-face"), 2)
    played = policy_duel(GameState(deal))
    assert len(played) > 20
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    for start, turn in played:
        assert first_guess(start) == turn.plays
