"""The proof-number search of a duel (``duel.pns``, what ``decide`` runs)
against the depth-first reference (``duel.search.DuelSearch``, itself
checked against the engine-only minimax in ``test_duel_search``): the same
value at every position asked, every value it stores the reference's, exact
with tables that hold almost nothing, and the same search on the compiled
and the Python pieces."""

from __future__ import annotations

import random

import pytest

from tests.support.duel_brute import EngineMinimax
from tests.support.the_game import random_duel, searched, turn_starts
from thegame.models import Limit
from thegame.models.outcome import Verdict
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.budget import DEFAULT_MEMORY_MIB
from thegame.solver.the_game.duel.api import decide, session, solve_duel
from thegame.solver.the_game.duel.nodes import TABLE_LIMIT, DuelNodes
from thegame.solver.the_game.duel.pns import NUMBERS_LIMIT, ProofNumberSearch
from thegame.solver.the_game.duel.position import DuelGame, Pos
from thegame.solver.the_game.duel.search import DuelSearch

NODE_LIMIT = 200_000  # these duels need far fewer: running out is a failure


def test_proof_numbers_agree_with_the_depth_first_search() -> None:
    rnd = random.Random(11)
    asked = stored = 0
    for _ in range(12):
        deal = random_duel(rnd, rnd.randint(9, 14), 3)
        game = DuelGame.of(deal)
        pns = ProofNumberSearch(game, NODE_LIMIT)
        ref = DuelSearch(game, NODE_LIMIT)
        for state, _plays in turn_starts(deal, rnd.randrange(2**32)):
            pos = game.from_state(state)
            assert pns.wins(pos) == ref.wins(pos)
            asked += 1
        for pos, value in pns.tt.items():
            assert ref.wins(pos) == value
        stored += len(pns.tt)
    assert asked > 50 and stored > 1000


@pytest.mark.parametrize("kind", [DuelSearch, ProofNumberSearch])
def test_tables_that_hold_almost_nothing_keep_the_verdict(kind: type[DuelNodes]) -> None:
    # Room for 5 proven positions (and, for df-pn, 3 unsettled ones): values
    # not kept are searched again, which costs visits, not the verdict; and
    # the same duels with roomy tables do keep more than that.
    rnd = random.Random(8)
    bitten = visited = 0
    for _ in range(8):
        deal = random_duel(rnd, rnd.randint(9, 12), 2)
        game = DuelGame.of(deal)
        tiny = kind(game, NODE_LIMIT)
        tiny.table_limit = 5
        if isinstance(tiny, ProofNumberSearch):
            tiny.numbers_limit = 3
        assert tiny.wins(game.start(1)) == EngineMinimax().wins(GameState(deal))
        assert len(tiny.tt) <= 5
        assert not isinstance(tiny, ProofNumberSearch) or len(tiny.numbers_kept()) <= 3
        roomy = kind(game, NODE_LIMIT)
        roomy.wins(game.start(1))
        bitten += len(roomy.tt) > 5
        visited += roomy.stats.nodes > 10
    assert bitten >= 3 and visited >= 4


def test_the_memory_budget_scales_the_tables() -> None:
    # ``Limit.memory`` sizes both tables in proportion to the default's MiB
    deal = random_duel(random.Random(5), 10, 3)
    shared = session(deal)
    decide(GameState(deal), Limit(nodes=NODE_LIMIT, memory=3 * DEFAULT_MEMORY_MIB), search=shared)
    assert (shared.table_limit, shared.numbers_limit) == (3 * TABLE_LIMIT, 3 * NUMBERS_LIMIT)


def search_run(game: DuelGame, pos: Pos, nodes: int, compiled: bool) -> tuple[object, ...]:
    search = ProofNumberSearch(game, nodes)
    got = searched(search, pos, compiled)
    return *got, dict(search.tt.items()), search.numbers_kept()


@pytest.mark.parametrize("seed, back", [(1, 6), (2, 5)])
def test_proof_numbers_match_visit_for_visit_on_both_backends(seed: int, back: int) -> None:
    deal = Deal.from_seed(seed, get_rules("face-to-face"), 2)
    game = DuelGame.of(deal)
    starts = [game.from_state(s) for s, _plays in turn_starts(deal, seed)]
    # The start, cut by the budget; a position near the end, settled after
    # some hundreds of visits.
    assert search_run(game, starts[0], 200, True) == search_run(game, starts[0], 200, False)
    near_end = search_run(game, starts[-back], 3000, True)
    assert near_end[0] is not None and near_end[1].nodes > 200  # type: ignore[attr-defined]
    assert near_end == search_run(game, starts[-back], 3000, False)


@pytest.mark.parametrize(
    ("duels", "least"), [(4, 3), pytest.param(10, 5, marks=pytest.mark.slow)]
)
def test_the_portfolio_takes_turns_on_the_same_table(duels: int, least: int) -> None:
    # With slices of a visit or two the searches take turns many times, each
    # starting from the other's table, and settle the position exactly; with
    # a slice of the whole budget the depth-first search settles it alone.
    rnd = random.Random(13)
    handed = 0
    for _ in range(duels):
        deal = random_duel(rnd, rnd.randint(9, 12), 3)
        game = DuelGame.of(deal)
        expect = EngineMinimax().wins(GameState(deal)) if deal.rules.high <= 10 else None
        ref = DuelSearch(game, NODE_LIMIT).wins(game.start(1))
        assert expect is None or expect == ref
        start = game.start(1)
        short = ProofNumberSearch(game, NODE_LIMIT)
        assert short.portfolio(lambda s=short, q=start: s.wins(q), 1) == ref
        handed += "taking turns" in short.settled_by and short.stats.nodes > 10
        whole = ProofNumberSearch(game, NODE_LIMIT)
        assert whole.portfolio(lambda s=whole, q=start: s.wins(q), NODE_LIMIT) == ref
        assert whole.settled_by == "depth-first AND-OR search" and not whole.numbers
    print(f"the searches took turns on {handed} of {duels} duels")
    assert handed >= least


def test_a_session_keeps_its_table_and_every_verdict() -> None:
    # One search for all turn starts of a duel, the last first (as analyze
    # does): the same verdicts as a fresh search for each, fewer nodes in
    # all, and the proven table grows from one question to the next.
    rnd = random.Random(14)
    fewer = 0
    for _ in range(6):
        deal = random_duel(rnd, rnd.randint(10, 13), 3)
        states = [s for s, _plays in turn_starts(deal, rnd.randrange(2**32))]
        shared = session(deal)
        alone_nodes = shared_nodes = 0
        for state in reversed(states):
            before = len(shared.tt)
            got = decide(state, Limit(nodes=NODE_LIMIT), search=shared)
            fresh = decide(state, Limit(nodes=NODE_LIMIT))
            assert got.verdict == fresh.verdict != Verdict.UNKNOWN
            assert len(shared.tt) >= before
            shared_nodes += got.nodes
            alone_nodes += fresh.nodes
        fewer += shared_nodes < alone_nodes
    assert fewer >= 4
    other = random_duel(rnd, 10, 3)
    with pytest.raises(ValueError):
        decide(GameState(other), Limit(nodes=10), search=session(random_duel(rnd, 11, 3)))


def test_both_starts_share_one_table() -> None:
    # A deal with a free start is solved for each start on one table: the
    # same verdicts as a search of its own for each, and the second start
    # finds positions the first proved (fewer nodes over the deals).
    rnd = random.Random(15)
    shared_nodes = alone_nodes = 0
    for _ in range(6):
        fixed = random_duel(rnd, rnd.randint(11, 14), 3)
        deal = Deal.create(fixed.rules, 2, [list(d) for d in fixed.decks])
        assert list(deal.starting_players()) == [1, 2]
        sol = solve_duel(deal, Limit(nodes=2 * NODE_LIMIT), races=False)
        for res, first in zip(sol.results, (1, 2), strict=True):
            fresh = decide(GameState(deal, first=first), Limit(nodes=NODE_LIMIT))
            assert res.verdict == fresh.verdict != Verdict.UNKNOWN
            if first == 2:
                # The search's own positions on both sides (a solve counts its
                # bounds' positions too, under ``nodes``).
                shared_nodes += res.details["search_nodes"]
                alone_nodes += fresh.nodes
    assert shared_nodes < alone_nodes
