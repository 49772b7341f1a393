"""The race alone: the compiled search (``duel/csrc/race.c``) against its
Python reference (``race.RaceSolver``) node for node, and both against a
breadth-first search from the rules alone (``duel_brute.race_brute``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.duel_brute import race_brute, relaxed_brute
from tests.support.the_game import DUEL, examples, turn_starts
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import Deal
from thegame.solver.the_game.duel import ccore
from thegame.solver.the_game.duel.position import DuelGame, solo_of
from thegame.solver.the_game.duel.race import (
    INF,
    RaceSolver,
    RelaxedRace,
    canonical,
    finish_line,
    finishes_alone,
    race_alone,
)

compiled_only = pytest.mark.skipif(not ccore.BUILT, reason="the _cduel extension is not built")


@st.composite
def small_duels(draw: st.DrawFn) -> Deal:
    """Generalised duels (rule D7) small enough for the breadth-first race."""
    hand = draw(st.integers(2, 4))
    high = draw(st.integers(7, 14))
    rules = DUEL.with_changes(high=high, hand_sizes=(hand, hand))
    cards = list(rules.cards)
    decks = [list(draw(st.permutations(cards))), list(draw(st.permutations(cards)))]
    return Deal.create(rules, 2, decks, draw(st.sampled_from([1, 2])))


def python_solver(game: DuelGame, p: int, robust: bool) -> RaceSolver:
    solver = RaceSolver(game, p, robust)
    solver.kernel = None  # the reference search (its turns may still be compiled)
    return solver


@settings(max_examples=examples(60), deadline=None)
@given(small_duels())
def test_race_equals_the_rules_alone(deal: Deal) -> None:
    # The exact fewest turns alone, compiled or not, from the deal: what a
    # search with no cut and no memo trick finds over the rules alone.
    game = DuelGame.of(deal)
    for p in (0, 1):
        race = race_alone(game, p, solo_of(game.start(1), p))
        assert race.proven
        assert race.turns == race_brute(deal, p)
        if race.turns is not None:
            assert len(race.line) == race.turns


@compiled_only
@settings(max_examples=examples(40), deadline=None)
@given(small_duels(), st.integers(0, 2**32 - 1), st.booleans())
def test_compiled_race_is_the_reference_node_for_node(deal: Deal, seed: int, robust: bool) -> None:
    # From the turn starts of a random duel, plain and robust: the same
    # value, the same nodes, and under a node budget the same stop.
    game = DuelGame.of(deal)
    positions = [game.start(1)] + [game.from_state(s) for s, _ in turn_starts(deal, seed)]
    for pos in positions[:6]:
        for p in (0, 1):
            solo = solo_of(pos, p)
            c, py = RaceSolver(game, p, robust), python_solver(game, p, robust)
            assert c.kernel is not None
            assert c.fewest(solo) == py.fewest(solo)
            assert c.nodes == py.nodes
            for budget in (1, 7, 40):
                c, py = RaceSolver(game, p, robust), python_solver(game, p, robust)
                got = []
                for solver in (c, py):
                    try:
                        got.append(solver.fewest(solo, budget))
                    except OutOfBudget:
                        got.append(None)
                assert got[0] == got[1] and c.nodes == py.nodes


def test_canonical_keeps_what_the_piles_take() -> None:
    # A top moves back only over played cards whose trick cards are played.
    rules = DUEL.with_changes(high=30, hand_sizes=(3, 3))
    deck = [list(range(2, 31))] * 2
    game = DuelGame.of(Deal.create(rules, 2, deck, 1))
    at = len(deck[0])
    # Only 25 and 28 left: the ascending top 20 takes both, so does 1;
    # the descending top 29 takes both, so does any top above it.
    hand = 1 << 25 | 1 << 28
    assert canonical(game, 0, (hand, at, 20, 29)) == (hand, at, 0, 64)
    # 15 left: 25 takes it back (the trick), 24 would not: 25 stays.
    hand = 1 << 15
    assert canonical(game, 0, (hand, at, 25, 31))[2] == 25


@compiled_only
def test_printed_race_decided_in_a_second() -> None:
    # Seed 5 of the printed game: both players finish alone in 27 turns,
    # the floor (52 cards to draw, 2 a turn, then the last turn).
    game = DuelGame.of(Deal.from_seed(5, DUEL, first=1))
    for p in (0, 1):
        race = race_alone(game, p, solo_of(game.start(1), p), nodes=2_000_000)
        assert race.proven and race.turns == 27 == race.floor
        assert RaceSolver(game, p).fewest(solo_of(game.start(1), p)) < INF


@settings(max_examples=examples(30), deadline=None)
@given(small_duels(), st.integers(0, 2**32 - 1))
def test_relaxed_race_is_the_fewest_relaxed_turns(deal: Deal, seed: int) -> None:
    # The duel search's stronger floor: exactly the fewest relaxed turns
    # found breadth-first from the rules alone, and never above the turns
    # alone (a turn alone is a relaxed turn).
    game = DuelGame.of(deal)
    positions = [game.start(1)] + [game.from_state(s) for s, _ in turn_starts(deal, seed)]
    for pos in positions[:4]:
        for q in (0, 1):
            solo = solo_of(pos, q)
            got = RelaxedRace(game, q).fewest(solo, 1 << 40)
            want = relaxed_brute(game, q, solo)
            assert got == (INF if want is None else want)
            assert got <= RaceSolver(game, q).fewest(solo)


def _finish_python(game: DuelGame, p: int, solo: tuple[int, int, int, int], nodes: int) -> object:
    """``finish_line`` as the compiled search answers: the turns, False
    (no finish) or None (out of budget)."""
    try:
        line = finish_line(game, p, solo, nodes)
    except OutOfBudget:
        return None
    return False if line is None else line


@compiled_only
@settings(max_examples=examples(60), deadline=None)
@given(small_duels(), st.integers(0, 2**32 - 1), st.integers(1, 400))
def test_the_race_alone_is_decided_a_card_at_a_time(deal: Deal, seed: int, nodes: int) -> None:
    # The race alone from the deal's start: the fewest turns the
    # breadth-first race over the rules finds, and from later positions the
    # race over whole turns (``RaceSolver``); by the Python search and the
    # compiled one, the same finish, and the same state where a budget
    # runs out.
    game = DuelGame.of(deal)
    c = ccore.compiled(game)
    assert c is not None
    positions = [game.start(1)] + [game.from_state(s) for s, _ in turn_starts(deal, seed)]
    for i, pos in enumerate(positions[:3]):
        for q in (0, 1):
            solo = solo_of(pos, q)
            if i == 0:
                want = race_brute(deal, q)
            else:
                best = RaceSolver(game, q).fewest(solo)
                want = None if best >= INF else best
            line = finish_line(game, q, solo)
            assert (None if line is None else len(line)) == want
            assert finishes_alone(game, q, solo) is (want is not None)
            kernel = ccore.race(c, q, False)
            assert kernel.finishes(solo, -1, None)[0] == (line or False)
            assert kernel.finishes(solo, nodes, None)[0] == _finish_python(game, q, solo, nodes)


@compiled_only
def test_printed_races_that_never_end_are_proven_at_once() -> None:
    # Seed 7: player 1 finishes alone at the floor, player 2 never does;
    # both proven within a few million states.
    game = DuelGame.of(Deal.from_seed(7, DUEL, first=1))
    one, two = (race_alone(game, p, solo_of(game.start(1), p), 5_000_000) for p in (0, 1))
    assert one.proven and one.turns == 27 and len(one.line) == 27
    assert two.proven and two.turns is None and two.nodes < 5_000_000
