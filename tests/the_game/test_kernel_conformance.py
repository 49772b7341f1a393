"""What any implementation of the search kernel must pass.

The kernel (``thegame.solver.the_game.kernel``) is the boundary a compiled
kernel will implement; the pure-Python ``Kernel`` stays the reference. Each
test runs for every implementation in ``KERNELS`` and checks it against the
rules engine (``GameState``), state by state, as OpenSpiel's
``test_consistent`` checks two implementations of a game:

- perft: the number of play sequences of each length (a legal turn end may
  come between plays) equals the engine's, from pinned full deals;
- moves: along random games, the kernel's legal plays are the engine's, the
  searches' moves are a subset that keeps a play of every playable card, the
  turn may end exactly when the engine lets it (and no fire card is due),
  and the position after each play and turn end is the engine's;
- turns: every turn the kernel lists for the beam is a legal turn;
- memo keys: equal for positions that differ only by the order of commuting
  plays or by swapping piles of one direction, different for different hands;
- verdicts: the limited-discrepancy search over the implementation agrees
  with the engine-only brute force (``tests.support.brute.Brute``) on small deals.

The implementations: ``Kernel`` (Python, the reference) and ``CKernel``
(compiled, ``ckernel.py``); ``test_ckernel.py`` compares the two directly.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings

from tests.support.brute import Brute, starts
from tests.support.deals import random_deal, small_deals
from tests.support.kernels import (
    check_moves,
    ending_loses_by_fire,
    engine_paths,
    kernel_paths,
    mask,
)
from tests.support.the_game import examples
from thegame.models import Limit
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, get_rules, small_rules
from thegame.solver.the_game.beam import BRANCH, EXTRA
from thegame.solver.the_game.ckernel import BUILT, CKernel
from thegame.solver.the_game.dfs import Searcher
from thegame.solver.the_game.kernel import END, Kernel

# The compiled kernel passes the same tests; where the package was
# installed without a C compiler it is skipped, with the reason.
KERNELS = [
    pytest.param(Kernel, id="python"),
    pytest.param(
        CKernel,
        id="c",
        marks=pytest.mark.skipif(not BUILT, reason="the C extension is not built"),
    ),
]
NODE_LIMIT = 300_000


PERFT_DEALS = [
    ("classic-seed1-solo", Deal.from_seed(1, get_rules("classic")), 3),
    ("classic-seed2-3p", Deal.from_seed(2, get_rules("classic"), 3), 3),
    ("on-fire-seed1-solo", Deal.from_seed(1, get_rules("on-fire")), 3),
    ("profi-seed4-2p", Deal.from_seed(4, get_rules("profi"), 2), 3),
    ("small-seed1-solo", Deal.from_seed(1, small_rules(high=20)), 7),
    ("small-seed3-2p", Deal.from_seed(3, small_rules(high=24), 2), 6),
]


@pytest.mark.parametrize("impl", KERNELS)
@pytest.mark.parametrize(("name", "deal", "depth"), PERFT_DEALS, ids=[d[0] for d in PERFT_DEALS])
def test_perft_matches_the_engine(impl: Any, name: str, deal: Deal, depth: int) -> None:
    state = GameState(deal)
    k = impl(deal, state.first - 1)
    for d in range(depth + 1):
        assert kernel_paths(k, d) == engine_paths(state, d), f"{name}: perft {d}"


def check_position(state: GameState, k: Any) -> None:
    """The kernel and the engine describe the same position."""
    assert k.tops == state.tops
    assert k.cur == state.current
    assert k.t == len(state.placed)
    assert k.hands == [mask(h) for h in state.hands]
    assert k.unplayed == mask(c for h in state.hands for c in h) | mask(state.draw_pile())
    assert k.pos == state.stock_pos[0]
    assert k.turn_min == state.turn_min


@pytest.mark.parametrize("impl", KERNELS)
@pytest.mark.parametrize("kind", range(6))
def test_moves_and_positions_match_the_engine(impl: Any, kind: int) -> None:
    """kind: 0 small plain, 1 small fire, 2-5 classic, profi, on-fire, profi-hard."""
    rng = random.Random(7000 + kind)
    positions = 0
    for _ in range(60 if kind < 2 else 12):
        deal = random_deal(rng, kind)
        state = GameState(deal)
        k = impl(deal, state.first - 1)
        while not state.over:
            check_position(state, k)
            legal = sorted((p.card, p.pile) for p in state.legal_plays())
            assert k.legal_plays() == legal
            check_moves(state, k)
            positions += 1
            can_end = bool(state.placed) and state.can_end_turn()
            if can_end and (not legal or rng.random() < 0.4):
                if ending_loses_by_fire(state):
                    assert not k.can_end()  # F2: the kernel never ends into a loss
                    break
                state.end_turn()
                k.end_turn()
                continue
            if not legal:
                break
            c, pile = rng.choice(legal)
            state.play(c, pile)
            k.play(c, pile)
        if state.status == Status.WON:
            assert k.won()
    assert positions > (300 if kind < 2 else 100)


def engine_turn_ok(state: GameState, plays: list[tuple[int, int]]) -> bool:
    s = state.copy()
    for c, pile in plays:
        if not s.is_legal(c, pile):
            return False
        s.play(c, pile)
    return s.status == Status.WON or s.can_end_turn()


@pytest.mark.parametrize("impl", KERNELS)
@pytest.mark.parametrize("variant", ["classic", "on-fire"])
def test_listed_turns_are_legal_turns(impl: Any, variant: str) -> None:
    rng = random.Random(31)
    checked = 0
    for seed in range(1, 6):
        deal = Deal.from_seed(seed, get_rules(variant))
        state = GameState(deal)
        k = impl(deal, 0)
        for _ in range(8):  # along the first turns of the cheapest line
            # The complete list for classic; the beam's narrow list with fire
            # cards (the complete one is slow on full on-fire deals).
            turns = k.fire_turns(BRANCH, k.turn_min + 1, EXTRA) if k.fire else k.solo_turns()
            assert turns, "a playable solo position lists at least one turn"
            for _, plays in turns:
                assert engine_turn_ok(state, plays), (seed, plays)
                checked += 1
            _, plays = turns[rng.randrange(min(3, len(turns)))]
            for c, pile in plays:
                state.play(c, pile)
                k.play(c, pile)
            if state.over:
                break
            state.end_turn()
            k.end_turn()
            if state.over:
                break
    assert checked > 100


@pytest.mark.parametrize("impl", KERNELS)
def test_memo_keys(impl: Any) -> None:
    deal = Deal.create(
        small_rules(high=30, asc_piles=2, desc_piles=2, hand=6, min_play=2),
        1,
        [[3, 5, 28, 26, 7, 9, *range(10, 26), 27, 29, 30, 2, 4, 6, 8]],
        1,
    )
    a = impl(deal, 0)
    b = impl(deal, 0)
    # Commuting plays: two orders, one position, one key.
    for c, pile in ((3, 0), (28, 2)):
        a.play(c, pile)
    for c, pile in ((28, 2), (3, 0)):
        b.play(c, pile)
    assert a.key() == b.key()
    # Pile symmetry: 5 on A2 instead of A1 (A1 and A2 both ascend).
    c = impl(deal, 0)
    c.play(3, 1)
    c.play(28, 2)
    assert c.key() == a.key()
    # A different hand is a different position.
    d = impl(deal, 0)
    d.play(5, 0)
    d.play(28, 2)
    assert d.key() != a.key()


def brute_wins(deal: Deal) -> bool:
    return any(Brute().wins_from(GameState(deal, first=f)) for f in starts(deal))


@pytest.mark.parametrize("impl", KERNELS)
@settings(max_examples=examples(150))
@given(deal=small_deals())
def test_verdicts_match_the_brute_force(impl: Any, deal: Deal) -> None:
    found = False
    for first in starts(deal):
        state = GameState(deal, first=first)
        if state.over:
            continue
        k = impl.from_state(state)
        res = Searcher(k, Limit(nodes=NODE_LIMIT), None).run()
        assert res.proven, "a small deal is decided within the node limit"
        if res.win:
            # The line replays through the engine to a perfect clear.
            s = state.copy()
            for a in res.actions:
                if a == END:
                    if not s.over:
                        s.end_turn()
                else:
                    s.play(*a)
            assert s.status == Status.WON
            found = True
            break
    assert found == brute_wins(deal)
