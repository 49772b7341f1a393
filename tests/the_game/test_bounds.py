"""The networkx state-graph engine and the bounds, against the other engines and
a brute force over engine positions (``fewest_left``)."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, Record, Turn, replay, small_rules
from thegame.solver.the_game.api import solve
from thegame.solver.the_game.bounds import (
    StateGraph,
    cards_left_lower_bound,
    dead_cards,
    fire_cover_bound,
    fire_due_bound,
    reach_dead,
    state_lower_bound,
)
from thegame.solver.the_game.cpsat import solve_cpsat
from thegame.solver.the_game.kernel import Kernel


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
    sol = solve(deal, Limit(nodes=200_000))
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
    sol = solve_cpsat(deal, Limit(20), workers=1)
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


# -- the graph bounds on engine positions -----------------------------------------


def fewest_left(state: GameState, memo: dict[tuple[object, ...], int]) -> int:
    """Brute force: the fewest cards left by any line of complete turns from
    a turn start (rules engine only)."""
    if state.over:
        return state.cards_left()
    key = state.key()
    if key not in memo:
        best = state.cards_left()
        stack: list[GameState] = [state]
        seen: set[tuple[object, ...]] = set()
        while stack:  # every way to complete this turn
            s = stack.pop()
            for play in s.legal_plays():
                nxt = s.copy()
                nxt.play(play.card, play.pile)
                if nxt.key() in seen:
                    continue
                seen.add(nxt.key())
                stack.append(nxt)
                if nxt.status == "won":
                    best = 0
                elif nxt.can_end_turn():
                    after = nxt.copy()
                    after.end_turn()
                    best = min(best, fewest_left(after, memo))
        memo[key] = best
    return memo[key]


@st.composite
def tiny_positions(draw: st.DrawFn) -> GameState:
    """A turn start reached by random legal turns in a tiny deal (1-2
    players, sometimes with fire cards)."""
    players = draw(st.integers(1, 2))
    deal = draw(tiny_deals(players=players))
    fire = draw(st.sets(st.sampled_from(list(deal.rules.cards)), max_size=3))
    rules = deal.rules.with_changes(fire_cards=frozenset(fire))
    state = GameState(Deal.create(rules, players, [list(deal.deck)]), first=1)
    for _ in range(draw(st.integers(0, 4))):
        if state.over:
            break
        plays = 0
        while True:
            legal = state.legal_plays()
            stop = plays > 0 and state.can_end_turn() and draw(st.booleans())
            if stop or not legal:
                break
            p = draw(st.sampled_from(legal))
            state.play(p.card, p.pile)
            plays += 1
        if not state.can_end_turn():
            break  # a dead end inside the turn: keep the last turn start
        state.end_turn()
    while state.placed:
        state.undo_play()
    return state


@settings(max_examples=150, deadline=None)
@given(tiny_positions())
def test_state_bounds_are_sound(state: GameState) -> None:
    """No line from the position leaves fewer cards than any bound says."""
    text = f"{state.deal.to_text()} at {state.key()}"
    truth = fewest_left(state, {})
    dead = reach_dead(state)
    assert len(dead) <= truth, text
    assert fire_due_bound(state) <= truth, text
    assert fire_cover_bound(state) <= truth, text
    assert state_lower_bound(state) <= truth, text
    event(f"bound {state_lower_bound(state)}, truth {truth}")
    if not state.over:
        # The graph fixpoint is the kernel's reach, computed independently.
        k = Kernel.from_state(state)
        assert {c for c in range(k.rules.high + 2) if dead_cards(k) >> c & 1} == dead, text


def test_fire_due_and_cover_bounds() -> None:
    # One pile each way, cards 2..9, hand 2: 9 (fire) on the ascending pile
    # is due next turn; the mover's hand cannot cover it (nothing above 9,
    # no 9 - 10) and the descending pile takes the rest.
    rules = small_rules(high=9, hand=2, min_play=1).with_changes(fire_cards=frozenset({9}))
    deal = Deal.create(rules, 1, [[9, 8, 2, 3, 4, 5, 6, 7]])
    state = GameState(deal, first=1)
    state.play(9, 0)
    state.end_turn()
    assert fire_due_bound(state) == 5  # only the hand (8, 2) can still count
    assert state_lower_bound(state) == 5
    assert fewest_left(state, {}) >= 5
    # Two fire cards that nothing can follow in either direction, one pile:
    # at most one can be the pile's last card.
    rules = small_rules(high=5, hand=2, min_play=1, step=20).with_changes(
        asc_piles=1, desc_piles=0, fire_cards=frozenset({4, 5})
    )
    deal = Deal.create(rules, 1, [[4, 5, 2, 3]])
    start = GameState(deal, first=1)
    assert fire_cover_bound(start) == 0  # 4 can be covered by 5
