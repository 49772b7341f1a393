"""6 nimmt! a turn at a time (``analysis.nimmt.table``): the same game as
the referee sees it, the others choosing blind to the person's card, the
row choice of rule S3, and whole games to 66 (rule S5)."""

from __future__ import annotations

import pytest

from thegame.analysis.nimmt.table import (
    advance,
    hand,
    next_turn,
    open_table,
    others_cards,
    rounds_from_json,
)
from thegame.models.errors import IllegalMoveError, InvalidInputError
from thegame.models.nimmt.record import GameStatus, RoundStatus, replay, replay_game
from thegame.models.nimmt.rules import chooser
from thegame.models.nimmt.state import game_over, round_deals


def test_a_round_played_lowest_first_is_a_legal_finished_round_of_the_seeds_deal() -> None:
    table = open_table(3, 3, "easy", False, [])
    assert table.current.deal == next(round_deals(3, 3))
    asked = 0
    while not table.over:
        card = hand(table)[0]
        others = others_cards(table)
        turn = next_turn(table, card, others, None)
        if turn is None:
            asked += 1
            rows = replay(table.current).rows[-1]
            assert chooser(rows, (card, *others)) == 0  # rule S3: the person's card
            turn = next_turn(table, card, others, 3)
            assert turn is not None and turn.choices == {0: 3}
        table = advance(table, turn)
    assert asked >= 1
    result = replay(table.current)
    assert result.legal and result.status == RoundStatus.FINISHED


def test_the_others_cards_do_not_depend_on_the_persons_and_repeat() -> None:
    table = open_table(5, 4, "normal", True, [])
    first = others_cards(table)
    assert others_cards(table) == first  # seeded by game, round, turn and seat
    high, low = hand(table)[-1], hand(table)[0]
    a = next_turn(table, high, first, None)
    assert a is not None and a.cards[1:] == first
    b = next_turn(table, low, first, 1)
    assert (b or a).cards[1:] == first
    for p, c in enumerate(first, 1):
        assert c in table.current.deal.hands[p]


def test_a_whole_game_deals_round_after_round_until_66() -> None:
    table = open_table(7, 3, "easy", True, [])
    while not table.over:
        card = hand(table)[-1]
        others = others_cards(table)
        turn = next_turn(table, card, others, None) or next_turn(table, card, others, 0)
        assert turn is not None
        table = advance(table, turn)
    checked = replay_game(table.game)
    assert checked.legal and checked.status == GameStatus.FINISHED
    assert game_over(checked.scores) and len(table.game.rounds) > 1
    assert [r.deal for r in table.game.rounds] == [
        d for d, _ in zip(round_deals(7, 3), table.game.rounds, strict=False)
    ]


def test_refusals() -> None:
    table = open_table(3, 3, "easy", False, [])
    with pytest.raises(IllegalMoveError, match="S2"):
        next_turn(table, 104, others_cards(table), None)
    high = hand(table)[-1]
    with pytest.raises(IllegalMoveError, match="S3"):
        next_turn(table, high, others_cards(table), 0)
    with pytest.raises(InvalidInputError, match="level"):
        open_table(3, 3, "godlike", False, [])
    with pytest.raises(InvalidInputError, match="players"):
        open_table(3, 11, "easy", False, [])
    with pytest.raises(InvalidInputError, match="rounds"):
        open_table(3, 3, "easy", False, [[], []])
    with pytest.raises(IllegalMoveError, match="round 1, turn 1"):
        open_table(3, 3, "easy", False, rounds_from_json(3, 3, [[{"cards": [104, 103, 102]}]]))
    with pytest.raises(InvalidInputError, match=r"rounds\[1\]"):
        rounds_from_json(3, 3, [[{"cards": [1]}]])
