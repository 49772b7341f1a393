"""The survival bounds of the duel search (``duel.survival``): the relaxed
turns against the rules alone, the capped longest runs against a plain
recursion, the compiled listing against the Python one, and the bounds'
verdicts against the engine-only minimax."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from tests.support.duel_brute import EngineMinimax, relaxed_afters
from tests.support.the_game import random_duel, turn_starts
from thegame.models import Limit
from thegame.models.outcome import Verdict
from thegame.solver.the_game.duel import ccore
from thegame.solver.the_game.duel.api import decide
from thegame.solver.the_game.duel.position import DuelGame, Solo, solo_of
from thegame.solver.the_game.duel.search import DuelSearch
from thegame.solver.the_game.duel.survival import FOREVER, Endurance, listing, relaxed_turns

NODES = 1_000_000  # far more than these small duels need


def solos(rnd: random.Random, deals: int, hand: int = 5) -> list[tuple[DuelGame, int, Solo]]:
    """Both players' states at the turn starts of random generalised duels."""
    out = []
    for _ in range(deals):
        deal = random_duel(rnd, rnd.randint(8, 16), rnd.randint(2, hand))
        game = DuelGame.of(deal)
        for state, _plays in turn_starts(deal, rnd.randrange(2**32)):
            pos = game.from_state(state)
            out += [(game, q, solo_of(pos, q)) for q in (0, 1)]
    return out


def test_relaxed_turns_are_the_rules_relaxed_turns() -> None:
    # The same states as the walk over the rules alone (duel_brute), and the
    # compiled listing the same again, each state once.
    rnd = random.Random(3)
    seen = 0
    for game, q, solo in solos(rnd, 40):
        want = relaxed_afters(game, q, solo)
        assert set(relaxed_turns(game, q, solo)) == want
        c = ccore.compiled(game)
        if c is not None:
            got = c.relaxed_turns(q, solo)
            assert len(got) == len(set(got)) and set(got) == want
        seen += len(want) > 3
    assert seen > 100


def plain_longest(turns: Callable[[Solo], list[Solo | None]]) -> Callable[[Solo, int], int]:
    """min(k, the most turns in a row), by plain recursion."""

    @cache
    def longest(s: Solo, k: int) -> int:
        if k == 0:
            return 0
        best = 0
        for after in turns(s):
            best = max(best, k if after is None else 1 + longest(after, k - 1))
        return min(best, k)

    return longest


def test_endurance_is_the_longest_run_capped() -> None:
    # ``lasts`` with its memo shared across calls and caps equals a plain
    # recursion over the same turns, for the relaxed and the robust turns.
    rnd = random.Random(4)
    short = 0
    for relaxed in (True, False):
        runs: dict[tuple[int, int], Endurance] = {}
        for game, q, solo in solos(rnd, 20, 3):
            longest = plain_longest(listing(game, q, relaxed, None))
            e = runs.setdefault((id(game), q), Endurance(game, q, relaxed))
            for k in (1, 2, 3):
                assert e.lasts(solo, k, NODES) == longest(solo, k)
            short += longest(solo, 3) < 3
    assert short > 50


@pytest.mark.parametrize(
    ("duels", "least"), [(10, (15, 5)), pytest.param(30, (20, 6), marks=pytest.mark.slow)]
)
def test_survival_verdicts_agree_with_the_minimax(duels: int, least: tuple[int, int]) -> None:
    # Wherever the survival bounds decide a turn start, the engine-only
    # minimax gives the same winner; and they decide many, both ways.
    rnd = random.Random(9)
    won = lost = 0
    for _ in range(duels):
        deal = random_duel(rnd, rnd.randint(9, 13), rnd.randint(2, 4))
        game = DuelGame.of(deal)
        search = DuelSearch(game)
        search.survival_turns = 4
        minimax = EngineMinimax()
        for state, _plays in turn_starts(deal, rnd.randrange(2**32)):
            got = search._survival(game.from_state(state))
            if got is not None:
                assert got == minimax.wins(state)
                won += got
                lost += not got
    print(f"survival decided {won} won and {lost} lost turn starts in {duels} duels")
    assert won > least[0] and lost > least[1]


def test_a_finishing_turn_lasts_for_ever() -> None:
    # With the last card about to be played, the run never ends (D6).
    rnd = random.Random(2)
    for game, q, solo in solos(rnd, 20):
        if None in relaxed_turns(game, q, solo):
            e = Endurance(game, q, True)
            assert e.lasts(solo, 7, NODES) == 7
            assert e.memo[solo] == (FOREVER, False)
            return
    raise AssertionError("no finishing turn found")


def test_the_line_after_a_survival_cut_costs_a_visit_a_turn() -> None:
    # Where the survival bounds settle a turn start, ``decide`` reads its
    # principal line (replayed through the engine) taking the turns the
    # bounds settle at once: one visit for each position on the line.
    rnd = random.Random(9)
    cut = 0
    for _ in range(20):
        deal = random_duel(rnd, rnd.randint(12, 20), rnd.randint(2, 4))
        game = DuelGame.of(deal)
        probe = DuelSearch(game)
        for state, _plays in turn_starts(deal, rnd.randrange(2**32)):
            if probe._survival(game.from_state(state)) is None:
                continue
            res = decide(state, Limit(60, None))
            assert res.verdict != Verdict.UNKNOWN and res.turns
            assert res.nodes <= len(res.turns) + 1
            cut += 1
    assert cut > 20
