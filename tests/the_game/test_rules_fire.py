"""Rules F1-F4 (On Fire) of the rulebook (docs/rules/)."""

from __future__ import annotations

import pytest

from tests.support.the_game import CLASSIC, ON_FIRE, classic_deal, play, turn
from thegame.models import IllegalMoveError
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Rules


def test_F1_fire_cards_are_22_33_44_55_66_77() -> None:
    # rule F1
    assert frozenset({22, 33, 44, 55, 66, 77}) == ON_FIRE.fire_cards
    assert CLASSIC.fire_cards == frozenset()
    # same numbers: the on-fire deck is the classic card range
    assert ON_FIRE.cards == CLASSIC.cards


def test_F1_fire_cards_follow_the_normal_placement_rules() -> None:
    # rule F1: same placement rules, backward trick included.
    state = GameState(classic_deal([32, 22, 44, 33, 30, 55, 66, 77], rules=ON_FIRE))
    play(state, (32, "A1"), (22, "A1"))  # trick onto a fire card
    play(state, (44, "D1"), (33, "D1"))
    play(state, (30, "A2"))
    with pytest.raises(IllegalMoveError) as exc:
        state.play(55, 2)  # 55 is higher than 33 on D1, a fire card too
    assert exc.value.rule == "C5"
    assert state.tops == [22, 30, 33, 100]


def _fire_solo() -> GameState:
    # Hand 10..16 and the fire card 22; draw pile 2, 3, 4, ...
    return GameState(classic_deal([22, 10, 11, 12, 13, 14, 15, 16], rules=ON_FIRE))


def test_F2_uncovered_fire_card_loses_at_the_end_of_the_next_turn() -> None:
    # rule F2 (solo: the player's own next turn)
    state = _fire_solo()
    turn(state, (22, "D1"), (10, "A1"))
    assert state.status == Status.IN_PROGRESS  # the deadline is the next turn
    play(state, (11, "A1"), (12, "A1"))
    assert state.status == Status.IN_PROGRESS  # still time to cover it this turn
    state.end_turn()
    assert state.status == Status.LOST
    assert state.reason == "fire card 22 on D1 was not covered in time (rule F2)"
    assert state.cards_left() == 98 - 4


def test_F2_covering_in_the_next_turn_saves_the_game() -> None:
    # rule F2
    state = _fire_solo()
    turn(state, (22, "D1"), (10, "A1"))
    turn(state, (16, "D1"), (11, "A1"))
    assert state.status == Status.IN_PROGRESS
    turn(state, (12, "A1"), (13, "A1"))
    assert state.status == Status.IN_PROGRESS


def test_F2_the_player_who_laid_it_may_cover_it_in_the_same_turn() -> None:
    # rule F2
    state = _fire_solo()
    turn(state, (22, "D1"), (16, "D1"))
    turn(state, (10, "A1"), (11, "A1"))
    assert state.status == Status.IN_PROGRESS


def test_F2_deadline_is_the_next_players_turn() -> None:
    # rule F2 with 2 players: hands 22,10..15 and 2..8.
    deal = classic_deal([22, 10, 11, 12, 13, 14, 15, 2, 3, 4, 5, 6, 7, 8], 2, ON_FIRE)
    state = GameState(deal)
    turn(state, (22, "D1"), (10, "A1"))
    assert state.current == 1
    turn(state, (2, "A2"), (3, "A2"))
    assert state.status == Status.LOST
    assert "rule F2" in (state.reason or "")


def test_F2_deadline_is_the_next_turn_actually_taken() -> None:
    # rule F2 with a skipped player (C7): cards 2..27, 2 players, hand 13,
    # no draw pile. Player 1 empties their hand; player 2 lays 22; player 1
    # is skipped, so player 2's own next turn is the deadline.
    rules = ON_FIRE.with_changes(high=27, asc_piles=1, desc_piles=1, hand_sizes=(13,) * 5)

    def start() -> GameState:
        s = GameState(Deal.create(rules, 2, [list(range(2, 28))]))
        turn(s, *[(c, "A1") for c in range(2, 15)])
        turn(s, (22, "D1"))
        assert s.current == 1 and s.status == Status.IN_PROGRESS
        return s

    state = start()
    turn(state, (15, "A1"))
    assert state.status == Status.LOST
    assert "fire card 22" in (state.reason or "")
    state = start()
    turn(state, (21, "D1"))
    assert state.status == Status.IN_PROGRESS


def _clear_rules(safe: bool = True) -> Rules:
    # Cards 2..25 (22 is a fire card), all 24 in the hand: no draw pile, m = 1.
    return ON_FIRE.with_changes(
        high=25, asc_piles=1, desc_piles=1, hand_sizes=(24,) * 5, fire_safe_at_clear=safe
    )


def test_F3_fire_card_on_top_after_the_last_card_of_a_clear_does_not_lose() -> None:
    # rule F3 (decision): the deadline never comes.
    rules = _clear_rules()
    state = GameState(Deal.create(rules, 1, [list(range(2, 26))]))
    others = [c for c in range(2, 26) if c != 22]
    turn(state, *[(c, "A1") for c in others], (22, "D1"))
    assert state.tops == [25, 22]
    assert state.status == Status.WON
    assert state.cards_left() == 0


def test_F3_clear_wins_even_when_an_older_fire_card_is_still_on_top() -> None:
    # rule F3 (decision, literal reading): a fire card still on top after the
    # very last card of a perfect clear does not lose.
    rules = _clear_rules()
    state = GameState(Deal.create(rules, 1, [list(range(2, 26))]))
    turn(state, (22, "D1"))
    turn(state, *[(c, "A1") for c in range(2, 26) if c != 22])
    assert state.status == Status.WON


def test_F3_is_configurable() -> None:
    # rule F3: configurable; without it the deadline of F2 applies at the clear.
    rules = _clear_rules(safe=False)
    state = GameState(Deal.create(rules, 1, [list(range(2, 26))]))
    turn(state, (22, "D1"))
    turn(state, *[(c, "A1") for c in range(2, 26) if c != 22])
    assert state.status == Status.LOST
    assert "rule F2" in (state.reason or "")


def _f4_state() -> GameState:
    # Hand 22, 33, 10, 11, 12, 13, 23, 15; draw pile 2, 3, ...
    return GameState(classic_deal([22, 33, 10, 11, 12, 13, 23, 15], rules=ON_FIRE))


def test_F4_fire_card_covered_by_fire_card_has_its_own_deadline() -> None:
    # rule F4: 33 covers 22 in turn 2; 33 is due at the end of turn 3.
    state = _f4_state()
    turn(state, (22, "A1"), (10, "A2"))
    turn(state, (33, "A1"), (11, "A2"))
    assert state.status == Status.IN_PROGRESS  # 22 is covered; 33 is new
    turn(state, (12, "A2"), (13, "A2"))
    assert state.status == Status.LOST
    assert state.reason == "fire card 33 on A1 was not covered in time (rule F2)"


def test_F4_covering_the_new_fire_card_in_time() -> None:
    # rule F4
    state = _f4_state()
    turn(state, (22, "A1"), (10, "A2"))
    turn(state, (33, "A1"), (11, "A2"))
    turn(state, (23, "A1"), (12, "A2"))  # backward trick onto the fire card
    assert state.status == Status.IN_PROGRESS
