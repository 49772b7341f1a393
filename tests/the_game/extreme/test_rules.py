"""Rules X1-X5 (The Game: Extreme) of the rulebook (docs/rules/).

Hand-made deals use ``tests.support.the_game.extreme_deal``: the chosen commands sit on
cards at the front of the deck; the rest of the 28 commands (X1: 4 of each
kind) go onto the highest cards, deep in the draw pile."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.the_game import CLASSIC, EXTREME, extreme_deal, play, turn
from thegame.models import IllegalMoveError, InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import (
    COMMAND_KINDS,
    Deal,
    GameState,
    Play,
    Record,
    Rules,
    Turn,
    replay,
)


def small_extreme(high: int, hand: int) -> Rules:
    # A generalised Extreme game (C10): one pile each way.
    return EXTREME.with_changes(high=high, asc_piles=1, desc_piles=1, hand_sizes=(hand,) * 5)


def assert_rejected(state: GameState, card: int, pile: int, rule: str) -> None:
    """X2: a move that breaks a command is a move the player can make: it is
    not among ``legal_plays`` (a solver never makes it) but in
    ``losing_plays``; made on a copy, it is played and the game is lost at
    once, naming the rule; taking it back restores the position."""
    key = state.key()
    assert Play(card, pile) not in state.legal_plays()
    assert Play(card, pile) in state.losing_plays()
    assert not state.is_legal(card, pile)
    assert state.loses(card, pile) == rule
    lost = state.copy()
    lost.play(card, pile)
    assert lost.status == Status.LOST
    assert lost.reason is not None and lost.reason.endswith(f"(rule {rule})")
    assert lost.tops[pile] == card and card not in lost.hand()
    assert lost.legal_plays() == [] and lost.losing_plays() == []
    with pytest.raises(IllegalMoveError) as exc:
        lost.end_turn()
    assert exc.value.rule == "C8"
    lost.undo_play()
    assert lost.key() == key
    assert state.key() == key


def assert_end_loses(state: GameState, rule: str) -> None:
    """X2: ending the turn now breaks a command: ``can_end_turn`` says no,
    ``end_turn`` (on a copy) ends the game as lost, naming the rule."""
    assert not state.can_end_turn()
    assert state.end_loses() == rule
    lost = state.copy()
    left = lost.cards_left()
    lost.end_turn()
    assert lost.status == Status.LOST
    assert lost.reason is not None and lost.reason.endswith(f"(rule {rule})")
    assert lost.cards_left() == left


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


def test_X6_generalised_extreme_carries_0_to_4_of_each_command() -> None:
    # rule X6: the printed game's 4 of each apply to the preset; C10 games
    # carry 0 to 4 of each kind.
    rules = small_extreme(20, 3)
    deal = Deal.create(rules, 1, [list(range(2, 21))], None, {5: "stop"})
    assert deal.command(5) == "stop" and deal.command(6) is None
    four = {c: "skull" for c in (2, 3, 4, 5)}
    assert Counter(Deal.create(rules, 1, [list(range(2, 21))], None, four).commands)
    with pytest.raises(InvalidInputError, match=r"at most 4 .* \(rule X6\); got skull: 5"):
        Deal.create(rules, 1, [list(range(2, 21))], None, {**four, 6: "skull"})


# -- X2 obeying commands ---------------------------------------------------------


def test_X2_a_move_breaking_a_command_is_legal_and_loses_at_once() -> None:
    # rule X2: the play is made, the game is lost, the reason names the rule;
    # legal_plays (what a solver uses) never offers it.
    state = GameState(extreme_deal([10, 20, 30, 40, 50, 60, 70, 80], {10: "stop"}))
    play(state, (10, "A1"))
    assert state.legal_plays() == []
    assert_rejected(state, 20, 0, "X3a")
    left = state.cards_left()
    state.play(20, 0)
    assert state.status == Status.LOST
    assert state.reason == "20 played after a stop card had ended the turn (rule X3a)"
    assert state.cards_left() == left - 1  # the losing card was played


def test_X2_a_play_C5_refuses_is_still_illegal() -> None:
    # rule X2 makes command breaks legal moves, not placement errors (C5).
    state = GameState(extreme_deal([30, 10, 20, 40, 50, 60, 70, 80], {30: "stop"}))
    play(state, (30, "A1"))
    key = state.key()
    with pytest.raises(IllegalMoveError) as exc:
        state.play(10, 0)  # below 30 and no trick: C5, whatever the stop says
    assert exc.value.rule == "C5"
    assert state.loses(10, 0) is None and state.key() == key
    assert state.loses(20, 0) == "X3a"  # a trick, placeable: the stop is broken


def test_X2_check_reports_a_broken_command_as_a_legal_loss() -> None:
    # rule X2 in a record: legal, lost, the reason names the rule (X3b here).
    deal = extreme_deal([50, 60, 55, 70, 80, 90, 91, 92], {50: "skull"})
    record = Record(deal, (Turn(1, (Play(50, 0), Play(60, 2))),))
    result = replay(record)
    assert result.legal and result.error is None
    assert result.status == Status.LOST
    out = result.to_dict()
    assert out["legal"] is True and out["status"] == "lost"
    assert out["reason"] == "the skull card 50 on A1 was left uncovered this turn (rule X3b)"
    # A play after the losing one is illegal (the game is over, C8).
    more = Record(deal, (Turn(1, (Play(50, 0), Play(60, 2))), Turn(1, (Play(55, 0),))))
    bad = replay(more)
    assert not bad.legal and bad.error is not None and bad.error["rule"] == "C8"


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
    assert_end_loses(state, "X3b")
    play(state, (55, "A1"))  # covered
    state.end_turn()
    assert state.status == Status.IN_PROGRESS


def test_X3b_a_skull_and_a_stop_leave_no_way_out() -> None:
    # rules X3b and X3a: the skull stays on top when the stop ends the turn.
    state = GameState(extreme_deal([50, 30, 60, 70, 80, 90, 91, 92], {50: "skull", 30: "stop"}))
    play(state, (50, "A1"), (30, "D1"))
    assert state.legal_plays() == []
    assert_end_loses(state, "X3b")


def test_X3b_skull_on_top_loses_also_after_the_last_card() -> None:
    # rule X3b: "also after the 98th card" - cards 2..9 all in the hand.
    rules = small_extreme(9, 8)
    deal = Deal.create(rules, 1, [list(range(2, 10))], None, {9: "skull"})
    state = GameState(deal)
    play(state, *[(c, "A1") for c in range(2, 10)])
    assert state.cards_left() == 0
    # X2: a loss, not a won game and not an illegal end (was in_progress).
    assert_end_loses(state, "X3b")
    state.end_turn()
    assert state.status == Status.LOST and state.cards_left() == 0
    record = Record(deal, (Turn(1, tuple(Play(c, 0) for c in range(2, 10))),))
    assert replay(record).to_dict() == {
        "legal": True,
        "status": "lost",
        "cards_left": 0,
        "error": None,
        "reason": "the skull card 9 on A1 was left uncovered this turn (rule X3b)",
    }
    # The same cards with the skull covered win.
    state = GameState(deal)
    turn(state, (9, "D1"), (8, "D1"), *[(c, "A1") for c in range(2, 8)])
    assert state.status == Status.WON


def test_X3c_three_means_exactly_three_cards() -> None:
    # rule X3c
    state = GameState(extreme_deal([30, 31, 32, 33, 40, 50, 60, 70], {30: "three"}))
    play(state, (30, "A1"))
    assert_end_loses(state, "X3c")  # one card: X3c replaces the minimum
    play(state, (31, "A1"))
    assert_end_loses(state, "X3c")
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
