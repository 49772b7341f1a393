"""The engine's compiled playout (``duel/csrc/playout.c``) against its
Python reference (``DuelEngine._playout_python`` over the compiled and the
pure-Python expansion): from the same position, table and SplitMix64 state,
the same winner, the same number of turns and the same state after (so the
same draws), on printed duels and small generalised ones (D7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.deals import small_generalised_duels
from tests.support.the_game import examples, turn_starts
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel import ccore
from thegame.solver.the_game.duel.api import policy_duel
from thegame.solver.the_game.duel.engine import DuelEngine
from thegame.solver.the_game.duel.position import DuelGame, Pos

pytestmark = pytest.mark.skipif(
    not ccore.BUILT, reason="the _cduel extension is not built (no C compiler)"
)


def both_ways(engine: DuelEngine, pos: Pos, seed: int, python_expand: bool = False) -> None:
    """The compiled playout and the reference from ``pos``, ``seed``."""
    c = engine.compiled
    assert c is not None
    expand = engine._expand if python_expand else c.expand
    engine.rng.state = seed
    want = engine._playout_python(pos, expand)
    want_state = engine.rng.state
    winner, state, turns = c.playout(pos, engine.search.tt, seed)
    assert (winner, turns, state) == (*want, want_state)
    assert winner in (0, 1)


def test_printed_duels_playout_for_playout() -> None:
    rules = get_rules("face-to-face")
    noisy = 0
    for seed in (1, 2, 3):
        start = GameState(Deal.from_seed(seed, rules, first=1))
        game = DuelGame.of(start.deal)
        engine = DuelEngine(game)
        for k, (state, _turn) in enumerate(policy_duel(start)[::6]):
            pos = game.from_state(state)
            for draw in range(4):
                before = 1000 * seed + 10 * k + draw
                both_ways(engine, pos, before)
                noisy += engine.rng.state != before
    # The noise is drawn: most playouts used the generator.
    assert noisy > 0


def test_a_proven_position_in_the_table_ends_the_playout() -> None:
    start = GameState(Deal.from_seed(4, get_rules("face-to-face"), first=1))
    game = DuelGame.of(start.deal)
    engine = DuelEngine(game)
    starts = [state for state, _turn in policy_duel(start)]
    pos = game.from_state(starts[0])
    # Every turn start of the policy duel past the first proven either way:
    # the playouts must read the table as the reference does.
    for value in (True, False):
        engine.search.tt.clear()
        for state in starts[3:]:
            engine.search.tt[game.from_state(state)] = value
        for draw in range(6):
            both_ways(engine, pos, draw)
    c = engine.compiled
    assert c is not None
    # A start found in the table ends at once with its value.
    engine.search.tt[pos] = True
    assert c.playout(pos, engine.search.tt, 9) == (pos[-1], 9, 0)


@settings(max_examples=examples(40), deadline=None)
@given(small_generalised_duels(), st.integers(0, 2**64 - 1), st.integers(0, 1000))
def test_generalised_duels_against_the_python_expansion(deal: Deal, seed: int, walk: int) -> None:
    game = DuelGame.of(deal)
    engine = DuelEngine(game)
    for state, _plays in turn_starts(deal, walk):
        pos = game.from_state(state)
        both_ways(engine, pos, seed, python_expand=True)
        both_ways(engine, pos, seed)
