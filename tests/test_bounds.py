"""The networkx state-graph engine and the dead-card bound, against the other engines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models import Deal, Record, Turn, replay, small_rules
from thegame.solver.api import solve
from thegame.solver.bounds import StateGraph, cards_left_lower_bound, dead_cards
from thegame.solver.cpsat import solve_cpsat
from thegame.solver.search import Kernel


@st.composite
def tiny_deals(draw: st.DrawFn, players: int = 1) -> Deal:
    # The graph is built through the rules engine turn by turn: keep it tiny.
    high = draw(st.integers(6, 9))
    rules = small_rules(
        high=high,
        asc_piles=1,
        desc_piles=1,
        hand=2,
        min_play=draw(st.integers(1, 2)),
        step=draw(st.integers(3, 6)),
    )
    deck = draw(st.permutations(list(rules.cards)))
    return Deal.create(rules, players, [list(deck)])


def graph_record(deal: Deal, first: int, line: list[tuple[int, list]]) -> Record:  # type: ignore[type-arg]
    return Record(deal.with_first(first), tuple(Turn(p, tuple(plays)) for p, plays in line))


@settings(max_examples=40)
@given(tiny_deals(players=1) | tiny_deals(players=2))
def test_graph_agrees_with_search(deal: Deal) -> None:
    graph = StateGraph(deal).solve()
    sol = solve(deal, node_limit=200_000)
    assert sol.verdict != "unknown", deal.to_text()
    assert graph.win == (sol.verdict == "win"), deal.to_text()
    result = replay(graph_record(deal, graph.first, graph.line))
    assert result.legal, deal.to_text()
    assert result.cards_left == deal.rules.n_cards - graph.best_played
    if graph.win:
        assert result.status == "won"


@settings(max_examples=20)
@given(tiny_deals(players=1))
def test_graph_optimum_equals_cpsat_optimum(deal: Deal) -> None:
    """Two independent exact engines agree on the fewest cards left."""
    graph = StateGraph(deal).solve()
    sol = solve_cpsat(deal, time_limit=20, workers=1)
    assert sol.verdict != "unknown", deal.to_text()
    if sol.verdict == "win":
        assert graph.win, deal.to_text()
    elif sol.details.get("optimum_proven", True):
        assert sol.cards_left == deal.rules.n_cards - graph.best_played, deal.to_text()


def test_dead_cards_after_jumping_over_them() -> None:
    # One pile each way, cards 2..12, step 20 (no backward trick fits): 9 on
    # the ascending pile and 3 on the descending one leave 4..8 below every
    # card the ascending pile takes and above every card the descending one
    # takes, whether they are in hand or still to be drawn.
    rules = small_rules(high=12, hand=3, min_play=1, step=20)
    deal = Deal.create(rules, 1, [[9, 3, 2, 4, 5, 6, 7, 8, 10, 11, 12]])
    k = Kernel(deal, 0)
    assert dead_cards(k) == 0
    k.play(9, 0)
    k.play(3, 1)
    expected = sum(1 << c for c in range(4, 9))
    assert dead_cards(k) == expected
    k.end_turn()
    assert dead_cards(k) == expected
    assert cards_left_lower_bound(k) == 5
    # With step 10 the pile could take 12 and go back to 2: nothing is dead.
    k10 = Kernel(Deal.create(small_rules(high=12, hand=3, min_play=1), 1, [deal.deck]), 0)
    k10.play(9, 0)
    k10.play(3, 1)
    assert dead_cards(k10) == 0
