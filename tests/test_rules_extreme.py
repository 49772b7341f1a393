"""Rules X1-X5 (The Game: Extreme) of shared/rules.md.

Hand-made deals use ``support.extreme_deal``: the chosen commands sit on
cards at the front of the deck; the rest of the 28 commands (X1: 4 of each
kind) go onto the highest cards, deep in the draw pile."""

from __future__ import annotations

from collections import Counter

import pytest
from support import CLASSIC, EXTREME, extreme_deal, play, turn

from thegame.models import IllegalMoveError, InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import COMMAND_KINDS, Deal, GameState, Play, Rules


def small_extreme(high: int, hand: int) -> Rules:
    # A generalised Extreme game (C10): one pile each way.
    return EXTREME.with_changes(high=high, asc_piles=1, desc_piles=1, hand_sizes=(hand,) * 5)


def assert_rejected(state: GameState, card: int, pile: int, rule: str) -> None:
    """X2: the engine rejects the move with the rule id and changes nothing."""
    key = state.key()
    assert Play(card, pile) not in state.legal_plays()
    assert not state.is_legal(card, pile)
    with pytest.raises(IllegalMoveError) as exc:
        state.play(card, pile)
    assert exc.value.rule == rule
    assert exc.value.message
    assert state.key() == key


# -- X1 setup ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_X1_seeded_deal_carries_4_commands_of_each_of_7_kinds(seed: int) -> None:
    # rule X1
    deal = Deal.from_seed(seed, EXTREME)
    cards = [c for c, _ in deal.commands]
    assert len(cards) == len(set(cards)) == 28  # each card at most one command
    assert Counter(k for _, k in deal.commands) == dict.fromkeys(COMMAND_KINDS, 4)
    assert all(c in EXTREME.cards for c in cards)
    assert all(deal.command(c) == k for c, k in deal.commands)
    assert sum(deal.command(c) is None for c in deal.deck) == 98 - 28


def test_X1_setup_hand_minimum_and_trick_as_in_classic() -> None:
    # rule X1: H, m and the backward trick as in C.
    for key in ("low", "high", "asc_piles", "desc_piles", "step", "hand_sizes", "min_play"):
        assert getattr(EXTREME, key) == getattr(CLASSIC, key)
    state = GameState(extreme_deal([50, 40, 60, 70, 80, 90, 91, 92], {}))
    assert len(state.hand()) == 8 and state.turn_min == 2
    play(state, (50, "A1"), (40, "A1"))  # backward trick, no command showing
    assert state.tops[0] == 40


def test_X1_a_deal_needs_exactly_4_of_each_kind() -> None:
    # rule X1 (for the preset)
    deck = list(range(2, 100))
    good = Deal.from_seed(0, EXTREME)
    commands = dict(good.commands)
    stop_card = next(c for c, k in commands.items() if k == "stop")
    del commands[stop_card]
    with pytest.raises(InvalidInputError, match="need 4 cards of each of the 7 kinds; got stop: 3"):
        Deal.create(EXTREME, 1, [deck], None, commands)
    commands[stop_card] = "bomb"
    with pytest.raises(InvalidInputError, match="unknown command 'bomb'"):
        Deal.create(EXTREME, 1, [deck], None, commands)
    commands[stop_card] = "stop"
    commands[100] = "stop"
    with pytest.raises(InvalidInputError, match="card 100 is out of range"):
        Deal.create(EXTREME, 1, [deck], None, commands)
    with pytest.raises(InvalidInputError, match="classic has no commands"):
        Deal.create(CLASSIC, 1, [deck], None, {50: "stop"})


def test_X1_generalised_extreme_may_carry_any_number_of_commands() -> None:
    # rule X1 counts apply to the preset; C10 games are free.
    rules = small_extreme(20, 3)
    deal = Deal.create(rules, 1, [list(range(2, 21))], None, {5: "stop"})
    assert deal.command(5) == "stop" and deal.command(6) is None


# -- X2 obeying commands ---------------------------------------------------------


def test_X2_a_move_breaking_a_command_is_rejected_with_a_reason() -> None:
    # rule X2: the engine rejects, names the rule, and the state is unchanged;
    # legal_plays (what a solver uses) never offers it.
    state = GameState(extreme_deal([10, 20, 30, 40, 50, 60, 70, 80], {10: "stop"}))
    play(state, (10, "A1"))
    assert state.legal_plays() == []
    assert_rejected(state, 20, 0, "X3a")
    with pytest.raises(IllegalMoveError, match="rule X3a: a stop card ended this turn"):
        state.play(20, 0)


# -- X3 lightning commands ---------------------------------------------------------


def test_X3a_stop_ends_the_turn_even_as_first_card() -> None:
    # rule X3a: one card while m = 2.
    state = GameState(extreme_deal([10, 20, 30, 40, 50, 60, 70, 80], {10: "stop"}))
    assert state.turn_min == 2
    play(state, (10, "A1"))
    assert state.can_end_turn()
    for card in (20, 30):
        assert_rejected(state, card, 1, "X3a")
    state.end_turn()
    assert len(state.hand()) == 8  # drew the one card played
    # Next turn: no stop played, the usual minimum holds again.
    play(state, (20, "A1"))
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert exc.value.rule == "C4"


def test_X3a_stop_as_a_later_card() -> None:
    # rule X3a
    state = GameState(extreme_deal([20, 40, 30, 50, 60, 70, 80, 90], {40: "stop"}))
    play(state, (20, "A1"), (30, "A1"), (40, "A1"))
    assert_rejected(state, 50, 0, "X3a")
    state.end_turn()
    assert state.status == Status.IN_PROGRESS


def test_X3b_skull_must_be_covered_in_the_same_turn() -> None:
    # rule X3b
    state = GameState(extreme_deal([50, 60, 55, 70, 80, 90, 91, 92], {50: "skull"}))
    play(state, (50, "A1"), (60, "D1"))
    assert not state.can_end_turn()
    with pytest.raises(IllegalMoveError, match="skull card 50 must be covered") as exc:
        state.end_turn()
    assert exc.value.rule == "X3b"
    play(state, (55, "A1"))  # covered
    state.end_turn()
    assert state.status == Status.IN_PROGRESS


def test_X3b_a_skull_and_a_stop_leave_no_way_out() -> None:
    # rules X3b and X3a: the skull stays on top when the stop ends the turn.
    state = GameState(extreme_deal([50, 30, 60, 70, 80, 90, 91, 92], {50: "skull", 30: "stop"}))
    play(state, (50, "A1"), (30, "D1"))
    assert state.legal_plays() == []
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert exc.value.rule == "X3b"


def test_X3b_skull_on_top_loses_also_after_the_last_card() -> None:
    # rule X3b: "also after the 98th card" - cards 2..9 all in the hand.
    rules = small_extreme(9, 8)
    deal = Deal.create(rules, 1, [list(range(2, 10))], None, {9: "skull"})
    state = GameState(deal)
    play(state, *[(c, "A1") for c in range(2, 10)])
    assert state.cards_left() == 0
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert exc.value.rule == "X3b"
    # The same cards with the skull covered win.
    state = GameState(deal)
    turn(state, (9, "D1"), (8, "D1"), *[(c, "A1") for c in range(2, 8)])
    assert state.status == Status.WON


def test_X3c_three_means_exactly_three_cards() -> None:
    # rule X3c
    state = GameState(extreme_deal([30, 31, 32, 33, 40, 50, 60, 70], {30: "three"}))
    play(state, (30, "A1"), (31, "A1"))
    with pytest.raises(IllegalMoveError, match="three card needs exactly 3 cards, played 2") as e:
        state.end_turn()
    assert e.value.rule == "X3c"
    play(state, (32, "A1"))
    assert_rejected(state, 33, 0, "X3c")
    state.end_turn()
    assert state.status == Status.IN_PROGRESS


def test_X3c_three_card_cannot_be_the_fourth_card() -> None:
    # rule X3c: the turn would have 4 cards.
    state = GameState(extreme_deal([31, 32, 33, 30, 40, 50, 60, 70], {30: "three"}))
    play(state, (31, "A1"), (32, "A1"), (33, "A1"))
    assert_rejected(state, 30, 1, "X3c")
    assert state.is_legal(40, 1)


def test_X3c_stop_only_as_the_third_card() -> None:
    # rule X3c
    deal = extreme_deal([30, 31, 40, 50, 60, 70, 80, 90], {30: "three", 40: "stop"})
    state = GameState(deal)
    play(state, (30, "A1"))
    assert_rejected(state, 40, 0, "X3c")  # stop as second card
    play(state, (31, "A1"), (40, "A1"))  # stop as third card
    assert state.legal_plays() == []
    state.end_turn()
    # A three card after a stop is blocked by the stop.
    state = GameState(deal)
    play(state, (40, "A1"))
    assert_rejected(state, 30, 1, "X3a")


def test_X3c_a_player_who_cannot_reach_three_loses() -> None:
    # rule X3c: both cards carry "three"; two cards can never make 3.
    rules = small_extreme(3, 2)
    lost = GameState(Deal.create(rules, 1, [[2, 3]], None, {2: "three", 3: "three"}))
    assert lost.status == Status.LOST
    assert lost.cards_left() == 2
    fine = GameState(Deal.create(rules, 1, [[2, 3]], None, {2: "three"}))
    assert fine.status == Status.IN_PROGRESS


# -- X4 infinity commands ---------------------------------------------------------------


def test_X4a_no_backward_trick_while_no_trick_is_showing() -> None:
    # rule X4a: on any pile, also for the card covering it; void once covered.
    deal = extreme_deal([70, 60, 80, 30, 20, 90, 95, 85], {70: "no-trick"})
    state = GameState(deal)
    play(state, (70, "A1"))
    assert_rejected(state, 60, 0, "X4a")  # covering trick
    assert state.is_legal(60, 1)
    play(state, (30, "A2"))
    assert_rejected(state, 20, 1, "X4a")  # trick on another pile
    play(state, (80, "A1"))  # covered: void
    assert state.is_legal(20, 1)
    play(state, (20, "A2"))
    assert state.tops[:2] == [80, 20]


def test_X4a_holds_for_every_player_while_on_top() -> None:
    # rule X4a: laid by player 1, binds player 2 on the next turn.
    p1 = [70, 85, 2, 3, 4, 5, 6]
    p2 = [60, 71, 95, 8, 9, 10, 11]
    state = GameState(extreme_deal([*p1, *p2], {70: "no-trick"}, players=2))
    turn(state, (70, "A1"), (85, "D1"))
    assert state.current == 1
    assert_rejected(state, 60, 0, "X4a")
    assert_rejected(state, 95, 2, "X4a")
    assert state.is_legal(71, 0)


def test_X4a_the_no_trick_card_itself_may_be_a_trick() -> None:
    # rule X4a holds from the moment the card is played, not before.
    state = GameState(extreme_deal([70, 60, 80, 81, 82, 83, 84, 85], {60: "no-trick"}))
    play(state, (70, "A1"), (60, "A1"))
    assert state.tops[0] == 60


def test_X4b_one_pile_showing_binds_the_turn_to_one_pile() -> None:
    # rule X4b: laid last turn and still on top.
    deal = extreme_deal([30, 40, 60, 55, 65, 45, 70, 75], {40: "one-pile"})
    state = GameState(deal)
    turn(state, (30, "A2"), (40, "A1"))
    start = state.copy()
    play(state, (60, "D1"))  # the first card may go anywhere
    assert_rejected(state, 65, 1, "X4b")
    play(state, (55, "D1"))
    state.end_turn()
    # Covering the one-pile card voids it for the rest of the turn.
    state = start
    play(state, (45, "A1"), (65, "A2"))
    assert state.tops[:2] == [45, 65]


def test_X4b_checked_before_each_card_against_this_turns_cards() -> None:
    # rule X4b decision: the one-pile card laid as second card onto another
    # pile than the first: a third card fits no pile.
    state = GameState(extreme_deal([30, 40, 60, 55, 65, 45, 70, 75], {40: "one-pile"}))
    play(state, (30, "A2"), (40, "A1"))
    assert state.legal_plays() == []
    assert_rejected(state, 45, 0, "X4b")
    assert_rejected(state, 65, 1, "X4b")
    state.end_turn()


def test_X4c_draw_one_showing_means_drawing_exactly_one() -> None:
    # rule X4c; the rest of the deck is 10, 11, ... (top first).
    state = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {5: "draw-one"}))
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"), (5, "A1"))
    assert state.hand() == [6, 7, 8, 9, 10]
    # Covered: refill to H again.
    turn(state, (6, "A1"), (7, "A1"))
    assert state.hand() == [8, 9, 10, 11, 12, 13, 14, 15]


def test_X4c_draw_one_holds_for_the_next_player_too() -> None:
    # rule X4c: an infinity command holds for every player.
    p1 = [2, 5, 20, 21, 22, 23, 24]
    p2 = [90, 80, 30, 31, 32, 33, 34]
    state = GameState(extreme_deal([*p1, *p2], {5: "draw-one"}, players=2))
    turn(state, (2, "A1"), (5, "A1"))
    assert len(state.hand(0)) == 6
    turn(state, (90, "D1"), (80, "D1"))
    assert len(state.hand(1)) == 6


def test_X4d_no_talk_is_kept_as_data() -> None:
    # rule X4d: nothing for the engine, but kept and shown.
    deal = Deal.from_seed(7, EXTREME)
    no_talk = sorted(c for c, k in deal.commands if k == "no-talk")
    assert no_talk == [77, 87, 91, 98]
    assert Deal.from_json(deal.to_json()) == deal
    assert Deal.from_text(deal.to_text()) == deal
    assert "77=no-talk" in deal.to_text()
    assert deal.to_dict()["commands"]["77"] == "no-talk"
    assert Deal.from_text(deal.to_text()).command(77) == "no-talk"


def test_X4d_no_talk_changes_no_legal_play() -> None:
    # rule X4d: with a no-talk card on top the position plays like classic.
    front = [50, 40, 60, 70, 80, 90, 95, 45]
    ext = GameState(extreme_deal(front, {50: "no-talk"}))
    cls = GameState(Deal.create(CLASSIC, 1, [list(ext.deal.deck)]))
    for s in (ext, cls):
        play(s, (50, "A1"))
    assert ext.legal_plays() == cls.legal_plays()
    assert Play(40, 0) in ext.legal_plays()  # the trick is allowed
    play(ext, (40, "A1"))
    assert ext.can_end_turn()


# -- X5 draw-one and the minimum -----------------------------------------------------------


def test_X5_cannot_meet_m_after_draw_one_shrank_the_hand_loses() -> None:
    # rule X5: cards 2..20, hand 3, m = 2; draw-one leaves one card.
    rules = small_extreme(20, 3)
    state = GameState(Deal.create(rules, 1, [list(range(2, 21))], None, {4: "draw-one"}))
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"))
    assert state.hand() == [5]
    assert state.stock_left() > 0
    assert state.status == Status.LOST
    assert state.reason == "player 1 cannot play 2 cards (rule X5)"
    assert state.cards_left() == 16


def test_X5_unless_a_stop_played_first_ends_the_turn_legally() -> None:
    # rule X5: the one card left is a stop.
    rules = small_extreme(20, 3)
    deal = Deal.create(rules, 1, [list(range(2, 21))], None, {4: "draw-one", 5: "stop"})
    state = GameState(deal)
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"))
    assert state.hand() == [5]
    assert state.status == Status.IN_PROGRESS
    assert state.legal_plays() == [Play(5, 0), Play(5, 1)]
    turn(state, (5, "A1"))
    assert state.hand() == [6, 7, 8]  # draw-one covered: refill to H
