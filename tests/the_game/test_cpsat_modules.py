"""The CP-SAT constraint modules one at a time (``thegame.solver.the_game.cpsat``).

Each test builds a model up to one module on a tiny deal and asks CP-SAT
what it admits, with and without the module under test: the module must
forbid what its rule forbids and nothing the modules before it allow.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from ortools.sat.python import cp_model

from thegame.models.the_game import Deal, small_rules
from thegame.models.the_game.placement import accepts
from thegame.solver.the_game.cpsat import Shape, cards, fire, hand, order, piles, players, turns
from thegame.solver.the_game.cpsat.model import Model, new


def shape_of(deck: list[int], players: int = 1, **rules: int) -> Shape:
    return Shape.of(Deal.create(small_rules(**rules), players, [deck]))


def feasible(m: Model, *fixed: tuple[object, int]) -> bool:
    """Whether ``m`` has a solution with each (variable, value) fixed."""
    for var, value in fixed:
        m.model.add(var == value)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    status = solver.solve(m.model)
    assert status != cp_model.UNKNOWN, "a tiny model must be decided"
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


ADD = {
    "cards": cards.add,
    "hand": hand.add,
    "turns": turns.add,
    "piles": piles.add,
    "order": order.add,
    "players": players.add,
    "fire": fire.add,
}


def up_to(shape: Shape, *modules: str) -> Model:
    """The slot variables and the named modules, added in the order given."""
    m = new(shape)
    for name in modules:
        ADD[name](m)
    return m


# A solo deal of 6 cards (2..7), hand 3, minimum 2: turns of 2 or 3 plays.
DECK = [6, 3, 7, 2, 5, 4]


def test_cards_alone_admit_any_order() -> None:
    """Every order that respects ``earliest`` is a solution of the cards
    module, with ``card[s]`` the card's value; nothing else is checked."""
    shape = shape_of(DECK, high=7, hand=3, min_play=2)
    orders = 0
    for line in permutations(range(shape.n)):
        if any(s < shape.earliest(i) for s, i in enumerate(line)):
            continue  # no variable: the card cannot be drawn by then
        m = up_to(shape, "cards")
        fixed = [(m.x[i, s], 1) for s, i in enumerate(line)]
        fixed += [(m.card[s], shape.deck[i]) for s, i in enumerate(line)]
        assert feasible(m, *fixed), line
        orders += 1
    # Slots 0-1 from the 3 dealt cards, slot 2 from the rest but position 5,
    # then any: 3*2 * 3 * 3! orders of the 720.
    assert orders == 108


def test_cards_are_played_at_most_once_and_prefix() -> None:
    shape = shape_of(DECK, high=7, hand=3, min_play=2)
    m = up_to(shape, "cards")
    assert not feasible(m, (m.x[0, 0], 1), (m.x[0, 1], 1))
    m = up_to(shape, "cards")
    # The filled slots are a prefix.
    assert not feasible(m, (m.filled[0], 0), (m.filled[1], 1))


def test_hand_rule_needs_the_card_drawn_at_the_turn_start() -> None:
    """Deck position 3 (card 2) is drawn after the first turn. In slot 2 it
    is legal only if the first turn ended after two plays (rules C2, C6)."""
    shape = shape_of(DECK, high=7, hand=3, min_play=2)
    assert shape.earliest(3) == 2
    for with_hand, ended, expected in [
        (False, 0, True),  # the turns alone let a 3-play turn use it
        (True, 0, False),  # still in the first turn: not drawn yet
        (True, 1, True),  # a new turn after two plays has drawn it
    ]:
        mods = ("cards", "turns", "hand") if with_hand else ("cards", "turns")
        m = up_to(shape, *mods)
        assert feasible(m, (m.x[3, 2], 1), (m.end[1], ended)) == expected, (with_hand, ended)


def test_turns_minimum_and_maximum() -> None:
    """Minimum 2 while the draw pile has cards (C4); solo turns of at most
    2m-1 = 3 plays (turn splitting)."""
    shape = shape_of(DECK, high=7, hand=3, min_play=2)
    assert shape.maximum(0) == 3
    m = up_to(shape, "cards", "turns")
    assert not feasible(m, (m.filled[0], 1), (m.end[0], 1))
    m = up_to(shape, "cards", "turns")
    assert feasible(m, (m.filled[1], 1), (m.end[1], 1))
    m = up_to(shape, "cards", "turns")
    assert not feasible(m, (m.filled[3], 1), (m.end[0], 0), (m.end[1], 0), (m.end[2], 0))
    # The last filled slot ends the turn (rule C8): no unfinished turn counts.
    m = up_to(shape, "cards", "turns")
    assert not feasible(m, (m.filled[1], 1), (m.filled[2], 0), (m.end[1], 0))


@pytest.mark.parametrize("ascending", [True, False])
def test_piles_place_as_placement_accepts(ascending: bool) -> None:
    """Two dealt cards on one pile, in two turns: the piles module admits
    the second exactly when ``placement.accepts`` does (rule C5), and marks
    a backward trick as one."""
    step = 3
    pile = 0 if ascending else 1
    for a, b in permutations([7, 5, 4, 2], 2):
        deck = [a, b, *sorted({2, 3, 4, 5, 6, 7} - {a, b})]
        shape = shape_of(deck, high=7, hand=2, min_play=1, step=step)
        m = up_to(shape, "cards", "turns", "hand", "piles")
        fixed = [(m.x[0, 0], 1), (m.x[1, 1], 1), (m.on[0][pile], 1), (m.on[1][pile], 1)]
        legal = accepts(ascending, a, b, step)
        assert feasible(m, *fixed) == legal, (ascending, a, b)
        if legal:
            back = b == (a - step if ascending else a + step)
            m = up_to(shape, "cards", "turns", "hand", "piles")
            assert not feasible(m, *fixed, (m.trick[1][pile], int(not back))), (a, b)


def test_pile_symmetry_uses_piles_in_order() -> None:
    shape = shape_of(DECK, high=7, asc_piles=2, desc_piles=1, hand=3, min_play=2)
    m = up_to(shape, "cards", "turns", "hand", "piles")
    assert not feasible(m, (m.on[0][1], 1))
    m = up_to(shape, "cards", "turns", "hand", "piles")
    assert feasible(m, (m.on[0][0], 1), (m.on[1][1], 1))


def test_order_lists_a_turn_pile_by_pile() -> None:
    """Within a turn plays commute: the model lists them pile by pile."""
    shape = shape_of(DECK, high=7, hand=3, min_play=2)

    def fixed(m: Model) -> list[tuple[object, int]]:
        """Slot 0 down, slot 1 up, in the same turn."""
        return [(m.on[0][1], 1), (m.on[1][0], 1), (m.end[0], 0)]

    m = up_to(shape, "cards", "turns", "hand", "piles")
    assert feasible(m, *fixed(m))
    m = up_to(shape, "cards", "turns", "hand", "piles", "order")
    assert not feasible(m, *fixed(m))
    m = up_to(shape, "cards", "turns", "hand", "piles", "order")
    assert feasible(m, (m.on[0][0], 1), (m.on[1][1], 1), (m.end[0], 0))


# Two players, hand 2: positions 0-1 are player 0's (9, 8), 2-3 player 1's (2, 3).
TWO = [9, 8, 2, 3, 7, 6, 5, 4]
BEFORE_PLAYERS = ("cards", "turns", "hand", "piles", "order")


def test_players_rotate_and_own_their_cards() -> None:
    """The second turn is player 1's (rule C3), so player 0's card cannot
    open it; a turn keeps its player, so player 1's card cannot join
    player 0's turn (rules C2, C6)."""
    shape = shape_of(TWO, players=2, high=9, hand=2, min_play=1)
    m = up_to(shape, *BEFORE_PLAYERS, "players")
    assert len(m.who) == shape.n and len(m.cnt) == 2
    assert feasible(m, (m.x[0, 0], 1), (m.end[0], 1), (m.x[2, 1], 1))
    for with_players, same_turn, pos in [(False, 0, 1), (True, 0, 1), (True, 1, 2)]:
        mods = (*BEFORE_PLAYERS, "players") if with_players else BEFORE_PLAYERS
        m = up_to(shape, *mods)
        fixed = [(m.x[0, 0], 1), (m.end[0], 1 - same_turn), (m.x[pos, 1], 1)]
        assert feasible(m, *fixed) == (not with_players), (with_players, same_turn, pos)


def test_fire_card_must_be_covered_by_the_next_turn() -> None:
    """Player 0 lays the fire card 5 up (rule F1); a turn 2 that leaves it
    showing loses at once (F2): its cards count, but no turn 3 follows.
    Covered, play goes on."""
    rules = small_rules(high=9, hand=2, min_play=1).with_changes(fire_cards=frozenset({5}))
    shape = Shape.of(Deal.create(rules, 2, [[5, 9, 2, 8, 3, 4, 6, 7]]))

    def line(plays: list[tuple[int, int]], with_fire: bool = True) -> bool:
        """Whether one-play turns of (deck position, pile) are a line."""
        mods = (*BEFORE_PLAYERS, "players", "fire") if with_fire else (*BEFORE_PLAYERS, "players")
        m = up_to(shape, *mods)
        fixed: list[tuple[object, int]] = []
        for s, (i, p) in enumerate(plays):
            fixed += [(m.x[i, s], 1), (m.on[s][p], 1), (m.end[s], 1)]
        return feasible(m, *fixed)

    # 5 up, 8 (player 1) up over it, 9 (player 0) up.
    assert line([(0, 0), (3, 0), (1, 0)])
    # 5 up, 8 down: the 5 still shows when turn 2 ends.
    assert line([(0, 0), (3, 1)])
    assert not line([(0, 0), (3, 1), (1, 0)])
    assert line([(0, 0), (3, 1), (1, 0)], with_fire=False)
