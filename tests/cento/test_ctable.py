"""The compiled table search (``solver/cento/csrc/``, ``ctable.py``) against
its Python reference (``table.py``): the children of positions along random
games, and whole searches node for node (the same node counts, the same
table of proof and disproof numbers, the same verdicts and lines)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.cento import Deal, Rules
from thegame.models.cento.rules import HundredMode
from thegame.models.cento.state import initial_state
from thegame.models.outcome import Limit
from thegame.solver.cento import ctable
from thegame.solver.cento.budget import NodeCounter
from thegame.solver.cento.table import Goal, Key, TableSolver, solve_table

pytestmark = pytest.mark.skipif(
    not ctable.BUILT, reason="the _ctable extension is not built (no C compiler)"
)


def drawn_deal(seed: int, players: int) -> Deal:
    """Printed rules, or a variant with every rule parameter drawn (a plain
    100, a chain that must shed every card, more free cards, small decks)."""
    rnd = random.Random(seed)
    if rnd.random() < 0.4:
        return Deal.from_seed(seed, players)
    high = rnd.choice([30, 60, 100])
    rules = Rules(
        high=high,
        hand_size=rnd.randint(2, 8),
        free_cards=rnd.randint(0, 6),
        penalty=rnd.randint(0, 4),
        trick_draw=rnd.randint(0, 4),
        hundred=rnd.choice(list(HundredMode)),
        chain_all=rnd.random() < 0.3,
    )
    return Deal.from_seed(seed, players, rules)


def positions(deal: Deal, seed: int, plies: int) -> list[Key]:
    """The keys along a random game from the deal's start."""
    solver = TableSolver(deal, 0)
    key = solver.key_of(initial_state(deal))
    rnd = random.Random(seed)
    out = [key]
    for _ in range(plies):
        options = solver.expand(key)
        _, child, _ = rnd.choice(options)
        if child is None:
            break
        key = child
        out.append(key)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(0, 60), st.booleans())
def test_children_equal_the_reference(seed: int, players: int, plies: int, share: bool) -> None:
    """Every child past its forced turns, its starting numbers and the turns
    it is past, in the same order; and an unseen position's numbers."""
    deal = drawn_deal(seed, players)
    seat = seed % players
    goal = Goal.SHARE if share else Goal.ALONE
    python = TableSolver(deal, seat, goal)
    compiled = ctable.CTableSolver(deal, seat, goal)
    for key in positions(deal, seed, plies):
        assert compiled.core.children(key) == python.children(key)
        assert compiled.lookup(key) == python.lookup(key)


def searched(deal: Deal, solver: TableSolver) -> tuple[object, ...]:
    root = solver.key_of(initial_state(deal))
    got = solver.prove(root)
    return got, solver.budget.nodes, solver.progress.to_dict()


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.sampled_from([300, 1500]))
def test_whole_search_node_for_node(seed: int, players: int, nodes: int) -> None:
    """One goal's df-pn within a node budget: the same answer (or the same
    budget run out), the same nodes, the same progress and every entry of
    the transposition table the same."""
    deal = drawn_deal(seed, players)
    seat = seed % players
    python = TableSolver(deal, seat, Goal.SHARE, NodeCounter(Limit(nodes=nodes)))
    compiled = ctable.CTableSolver(deal, seat, Goal.SHARE, NodeCounter(Limit(nodes=nodes)))
    assert searched(deal, compiled) == searched(deal, python)
    assert len(compiled.core) == len(python.tt)
    for key, numbers in python.tt.items():
        assert compiled.core.get(key) == numbers


def result_dict(deal: Deal, seat: int, nodes: int) -> dict[str, object]:
    d = solve_table(deal, seat, Limit(nodes=nodes)).to_dict()
    del d["stats"]["seconds"]
    return d


SMALL = Rules(high=40, free_cards=2, hand_size=5)
NO_FREE = Rules(high=30, free_cards=0, hand_size=4)


@pytest.mark.parametrize(
    ("seed", "players", "rules", "nodes"),
    [(s, 2, SMALL, 20_000) for s in range(1, 9)]
    + [(37, 2, NO_FREE, 20_000), (16, 2, SMALL, 3_000)]  # a shared win; a budget run out
    + [(s, 3, Rules(high=50, free_cards=1, hand_size=5), 20_000) for s in range(1, 5)],
)
def test_solve_table_same_result_and_line(
    monkeypatch: pytest.MonkeyPatch, seed: int, players: int, rules: Rules, nodes: int
) -> None:
    """``solve_table`` with the compiled search and with the reference: the
    same verdict, line, node count and progress (two players search both
    goals, the second reading the first's losses; a shared win's line reads
    both tables)."""
    deal = Deal.from_seed(seed, players, rules)
    compiled = result_dict(deal, 1, nodes)
    monkeypatch.setenv(ctable.ENV, "python")
    assert not ctable.usable(deal)
    assert result_dict(deal, 1, nodes) == compiled


def test_printed_two_player_deal_node_for_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A printed deal the reference decides in a few thousand nodes."""
    deal = Deal.from_seed(7, 2)
    compiled = result_dict(deal, 1, 5_000)
    assert compiled["verdict"] == "loss" and compiled["line_complete"]
    monkeypatch.setenv(ctable.ENV, "python")
    assert result_dict(deal, 1, 5_000) == compiled


@pytest.mark.skipif(ctable.forced_python(), reason="THEGAME_KERNEL=python")
def test_kernel_choice() -> None:
    deal = Deal.from_seed(1, 2)
    solver = ctable.new_solver(deal, 0, Goal.SHARE, NodeCounter(Limit(nodes=10)))
    assert isinstance(solver, ctable.CTableSolver)
    alone = ctable.new_solver(deal, 0, Goal.ALONE, NodeCounter(Limit(nodes=10)), solver)
    assert isinstance(alone, ctable.CTableSolver)
    reference = TableSolver(deal, 0)
    fallback = ctable.new_solver(deal, 0, Goal.ALONE, NodeCounter(Limit(nodes=10)), reference)
    assert type(fallback) is TableSolver and fallback.losses is reference.tt


@pytest.mark.skipif(ctable.forced_python(), reason="THEGAME_KERNEL=python")
def test_a_full_table_ends_the_search_as_unknown() -> None:
    """The compiled table stops growing at ``Limit.memory``: the search ends
    there as at the end of its time, undecided, with how far it got."""
    deal = Deal.from_seed(48, 2)  # undecided within millions of nodes
    result = solve_table(deal, 1, Limit(time=60, memory=2))
    assert result.verdict.value == "unknown" and result.turns == ()
    assert 0 < result.nodes < 100_000 and result.seconds < 30
    progress = result.progress.to_dict()
    assert progress["proof_number"] > 0 and progress["disproof_number"] > 0
