"""Rules C1-C10 (The Game) and P1-P2 (Profi) of the rulebook (docs/rules/), one or more
tests per rule id, on hand-made deals whose hands are known (rule C2: player 1
gets the first H cards of the deck, player 2 the next H, ...)."""

from __future__ import annotations

import pytest

from tests.support.the_game import CLASSIC, PROFI, PROFI_HARD, classic_deal, deck_with, play, turn
from thegame.models import IllegalMoveError, InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import (
    Deal,
    GameState,
    Play,
    is_ascending,
    pile_index,
    pile_name,
    small_rules,
)


def rule_of(excinfo: pytest.ExceptionInfo[IllegalMoveError]) -> str:
    return excinfo.value.rule


# -- C1 deck and piles ---------------------------------------------------------


def test_C1_deck_is_98_distinct_cards_2_to_99() -> None:
    # rule C1
    assert list(CLASSIC.cards) == list(range(2, 100))
    assert CLASSIC.n_cards == 98
    assert sorted(Deal.from_seed(1, CLASSIC).deck) == list(range(2, 100))
    for bad in (1, 100):
        deck = [bad if c == 50 else c for c in range(2, 100)]
        with pytest.raises(InvalidInputError, match=f"card {bad} at position 49 is out of range"):
            Deal.create(CLASSIC, 1, [deck])
    with pytest.raises(InvalidInputError, match=r"97 cards, expected 98 \(missing 99\)"):
        Deal.create(CLASSIC, 1, [list(range(2, 99))])
    with pytest.raises(InvalidInputError, match="card 7 appears twice"):
        Deal.create(CLASSIC, 1, [[7, *range(2, 99)]])


def test_C1_two_ascending_piles_from_1_and_two_descending_from_100() -> None:
    # rule C1
    state = GameState(classic_deal([]))
    assert state.tops == [1, 1, 100, 100]
    assert [pile_name(CLASSIC, i) for i in range(4)] == ["A1", "A2", "D1", "D2"]
    assert [is_ascending(CLASSIC, i) for i in range(4)] == [True, True, False, False]
    assert pile_index(CLASSIC, "d2") == 3
    with pytest.raises(InvalidInputError, match="unknown pile 'A3'"):
        pile_index(CLASSIC, "A3")


def test_C1_only_the_top_card_matters() -> None:
    # rule C1: 45 is below the 50 underneath, but the top is 40.
    state = GameState(classic_deal([50, 40, 45, 60, 70, 80, 90, 95]))
    play(state, (50, "A1"), (40, "A1"), (45, "A1"))
    assert state.tops[0] == 45


def test_C1_there_is_no_fifth_pile() -> None:
    # rule C1
    state = GameState(classic_deal([]))
    for pile in (4, -1):
        with pytest.raises(IllegalMoveError) as exc:
            state.check_play(2, pile)
        assert rule_of(exc) == "C1"


# -- C2 hand size and deal order -------------------------------------------------


@pytest.mark.parametrize(("players", "hand"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_C2_hand_size_and_deal_order(players: int, hand: int) -> None:
    # rule C2: player 1 gets the first H cards, player 2 the next H, ...;
    # the draw pile is the rest, top first.
    assert CLASSIC.hand_size(players) == hand
    deck = list(range(99, 1, -1))
    state = GameState(Deal.create(CLASSIC, players, [deck]))
    for p in range(players):
        assert state.hand(p) == sorted(deck[p * hand : (p + 1) * hand])
    assert state.draw_pile() == deck[players * hand :]
    assert state.cards_left() == 98


@pytest.mark.parametrize("players", [0, 6])
def test_C2_classic_is_for_one_to_five_players(players: int) -> None:
    # rule C2 gives hand sizes for 1 to 5 players only.
    with pytest.raises(InvalidInputError, match=f"classic is for 1-5 players, not {players}"):
        Deal.create(CLASSIC, players, [list(range(2, 100))])


# -- C3 turn order ---------------------------------------------------------------


def test_C3_player_1_starts_without_a_stated_choice() -> None:
    # rule C3
    deal = classic_deal([], players=3)
    assert deal.first is None
    assert GameState(deal).current == 0


def test_C3_a_deal_or_the_caller_may_fix_the_start() -> None:
    # rule C3
    assert GameState(classic_deal([], players=3, first=2)).current == 1
    assert GameState(classic_deal([], players=3), first=3).current == 2
    with pytest.raises(InvalidInputError, match="player 4 does not exist"):
        classic_deal([], players=3, first=4)
    with pytest.raises(InvalidInputError, match="player 0 does not exist"):
        GameState(classic_deal([], players=3), first=0)


def test_C3_players_take_turns_in_seat_order() -> None:
    # rule C3: 3 players, player 2 starts; hands 2-7, 8-13, 14-19.
    state = GameState(classic_deal([], players=3, first=2))
    seen = [state.current]
    turn(state, (8, "A1"), (9, "A1"))
    seen.append(state.current)
    turn(state, (14, "A1"), (15, "A1"))
    seen.append(state.current)
    turn(state, (7, "D1"), (6, "D1"))
    seen.append(state.current)
    assert seen == [1, 2, 0, 1]


# -- C4 minimum per turn ---------------------------------------------------------


def test_C4_at_least_two_cards_while_the_draw_pile_has_cards() -> None:
    # rule C4: m = 2 while the draw pile has cards; hand 2..9.
    state = GameState(classic_deal([]))
    assert state.turn_min == 2
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert rule_of(exc) == "C4"
    play(state, (2, "A1"))
    assert not state.can_end_turn()
    with pytest.raises(IllegalMoveError, match="at least 2 cards, played 1") as exc:
        state.end_turn()
    assert rule_of(exc) == "C4"
    assert state.plays_this_turn == [Play(2, 0)]  # the rejected end changed nothing
    play(state, (3, "A1"))
    assert state.can_end_turn()
    state.end_turn()
    assert state.status == Status.IN_PROGRESS and state.turn == 1


def test_C4_may_play_the_whole_hand() -> None:
    # rule C4: up to the whole hand.
    state = GameState(classic_deal([]))
    play(state, *[(c, "A1") for c in range(2, 10)])
    assert state.hand() == []
    state.end_turn()
    assert state.hand() == list(range(10, 18))


def test_C4_only_cards_in_the_active_hand_can_be_played() -> None:
    # rule C4: the active player plays cards from their hand.
    state = GameState(classic_deal([], players=2))  # hands 2-8 and 9-15
    for card in (9, 50):
        with pytest.raises(IllegalMoveError, match=f"card {card} is not in player 1's hand") as exc:
            state.play(card, 0)
        assert rule_of(exc) == "C4"
    play(state, (2, "A1"))
    with pytest.raises(IllegalMoveError) as exc:
        state.play(2, 1)  # already played
    assert rule_of(exc) == "C4"


def test_C4_minimum_is_fixed_at_turn_start_and_one_once_the_draw_pile_is_empty() -> None:
    # rules C4 (and its decision), C6, C7 on a small game (C10): cards 2..11,
    # hand 3, one pile each way, deck in ascending order.
    rules = small_rules(high=11, hand=3)
    state = GameState(Deal.create(rules, 1, [list(range(2, 12))]))
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"))
    turn(state, (5, "A1"), (6, "A1"), (7, "A1"))
    assert state.draw_pile() == [11]
    # One card left to draw: the turn still needs 2 (m fixed at turn start).
    assert state.turn_min == 2
    play(state, (8, "A1"))
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert rule_of(exc) == "C4"
    turn(state, (9, "A1"))
    # C6: only what is left of the draw pile is drawn.
    assert state.hand() == [10, 11]
    assert state.draw_pile() == []
    assert state.turn_min == 1
    turn(state, (10, "A1"))
    assert state.status == Status.IN_PROGRESS
    turn(state, (11, "A1"))
    assert state.status == Status.WON


# -- C5 placement and the backward trick ---------------------------------------------


def test_C5_ascending_pile_higher_or_exactly_step_lower() -> None:
    # rule C5
    state = GameState(classic_deal([50, 40, 30, 45, 49, 60, 39, 41]))
    play(state, (50, "A1"))
    assert state.is_legal(60, 0)  # higher
    assert state.is_legal(40, 0)  # exactly 10 lower: backward trick
    assert Play(40, 0) in state.legal_plays()
    for card in (45, 49, 39, 41, 30):  # lower, but not exactly 10 (30: 20 lower)
        assert not state.is_legal(card, 0)
        with pytest.raises(IllegalMoveError, match=rf"{card} A1: A1 shows 50; a card") as exc:
            state.play(card, 0)
        assert rule_of(exc) == "C5"
        assert Play(card, 0) not in state.legal_plays()


def test_C5_descending_pile_lower_or_exactly_step_higher() -> None:
    # rule C5
    state = GameState(classic_deal([50, 60, 70, 55, 51, 40, 59, 61]))
    play(state, (50, "D2"))
    assert state.is_legal(40, 3)  # lower
    assert state.is_legal(60, 3)  # exactly 10 higher
    for card in (55, 51, 59, 61, 70):
        with pytest.raises(IllegalMoveError) as exc:
            state.play(card, 3)
        assert rule_of(exc) == "C5"


def test_C5_any_number_of_backward_tricks_per_turn() -> None:
    # rule C5: three tricks in one turn on A1, two on D1.
    state = GameState(classic_deal([50, 40, 30, 20, 80, 90, 95, 85]))
    play(state, (50, "A1"), (40, "A1"), (30, "A1"), (20, "A1"))
    play(state, (80, "D1"), (90, "D1"), (85, "D1"), (95, "D1"))
    assert state.tops == [20, 1, 95, 100]
    state.end_turn()


def test_C5_only_exactly_the_step_not_twice_the_step() -> None:
    # rule C5: exactly 10, not 20, on either kind of pile.
    state = GameState(classic_deal([50, 30, 70, 90, 40, 80]))
    play(state, (50, "A1"), (70, "D1"))
    for card, pile in ((30, 0), (90, 2)):
        assert not state.is_legal(card, pile)
        with pytest.raises(IllegalMoveError) as exc:
            state.play(card, pile)
        assert rule_of(exc) == "C5"
    assert state.is_legal(40, 0) and state.is_legal(80, 2)


# -- C6 drawing ------------------------------------------------------------------------


def test_C6_draw_as_many_as_played_back_to_hand_size() -> None:
    # rule C6: hand 2..9, draw pile 10, 11, ... top first.
    state = GameState(classic_deal([]))
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"))
    assert state.hand() == [5, 6, 7, 8, 9, 10, 11, 12]
    assert state.draw_pile()[:2] == [13, 14]


def test_C6_players_draw_from_one_shared_pile_in_turn_order() -> None:
    # rule C6 with 2 players: hands 2-8 and 9-15, draw pile 16, 17, ...
    state = GameState(classic_deal([], players=2))
    turn(state, (2, "A1"), (3, "A1"))
    assert state.hand(0) == [4, 5, 6, 7, 8, 16, 17]
    turn(state, (9, "A1"), (10, "A1"), (11, "A1"))
    assert state.hand(1) == [12, 13, 14, 15, 18, 19, 20]
    assert state.draw_pile()[0] == 21


def test_C6_draws_only_what_is_left() -> None:
    # rule C6: cards 2..12, hand 8: 3 cards in the draw pile.
    rules = small_rules(high=12, hand=8, asc_piles=2, desc_piles=2)
    state = GameState(Deal.create(rules, 1, [list(range(2, 13))]))
    turn(state, *[(c, "A1") for c in range(2, 8)])  # 6 played, 3 left to draw
    assert state.hand() == [8, 9, 10, 11, 12]
    assert state.draw_pile() == []


# -- C7 skipping and the perfect clear -----------------------------------------------------


def test_C7_player_without_cards_is_skipped_and_all_played_wins() -> None:
    # rule C7: 2 players, cards 2..7, hand 3: no draw pile at all.
    rules = small_rules(high=7, hand=3)
    state = GameState(Deal.create(rules, 2, [list(range(2, 8))]))
    assert state.draw_pile() == [] and state.turn_min == 1
    turn(state, (2, "A1"), (3, "A1"), (4, "A1"))
    assert state.current == 1
    turn(state, (5, "A1"))
    assert state.current == 1  # player 1 has no cards: skipped
    assert state.status == Status.IN_PROGRESS
    turn(state, (6, "A1"), (7, "A1"))
    assert state.status == Status.WON
    assert state.cards_left() == 0
    assert "rule C7" in (state.reason or "")


def test_C7_a_player_with_cards_is_not_skipped() -> None:
    # rule C7: only an empty hand is skipped.
    rules = small_rules(high=7, hand=3)
    state = GameState(Deal.create(rules, 2, [list(range(2, 8))]))
    turn(state, (2, "A1"), (3, "A1"))
    turn(state, (5, "A1"))
    assert state.current == 0


# -- C8 end of the game --------------------------------------------------------------------


def _c8_deal(min_play: int) -> Deal:
    # Cards 2..20, hand 3. Turn 1: 19 on A1, 3 on D1, draw 11 and 14: the hand
    # 2, 11, 14 has one playable card (2 on D1; no trick: 9, 12, 13), and m = 2.
    rules = small_rules(high=20, hand=3, min_play=min_play)
    return Deal.create(rules, 1, [deck_with(rules, [19, 3, 2, 11, 14])])


def test_C8_game_ends_at_once_when_m_cards_cannot_be_played() -> None:
    # rule C8
    state = GameState(_c8_deal(min_play=2))
    turn(state, (19, "A1"), (3, "D1"))
    assert state.hand() == [2, 11, 14]
    assert state.status == Status.LOST
    assert state.reason == "player 1 cannot play 2 cards (rule C8)"
    # The score: cards not played (hand and draw pile).
    assert state.cards_left() == 17
    assert state.legal_plays() == []
    with pytest.raises(IllegalMoveError) as exc:
        state.play(2, 1)
    assert rule_of(exc) == "C8"
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert rule_of(exc) == "C8"


def test_C8_the_same_position_goes_on_when_one_card_is_enough() -> None:
    # rule C8 (contrast): with m = 1 the single playable card is a turn.
    state = GameState(_c8_deal(min_play=1))
    turn(state, (19, "A1"), (3, "D1"))
    assert state.status == Status.IN_PROGRESS
    assert state.legal_plays() == [Play(2, 1)]


def test_C8_a_lost_start_position() -> None:
    # rule C8: m larger than the hand: no legal turn from the start.
    rules = small_rules(high=20, hand=3, min_play=4)
    state = GameState(Deal.create(rules, 1, [list(range(2, 21))]))
    assert state.status == Status.LOST
    assert state.cards_left() == 19
    assert "rule C8" in (state.reason or "")


# -- C10 generalised rules ----------------------------------------------------------


def test_C10_generalised_card_range_piles_step_hand_and_minimum() -> None:
    # rule C10: cards 2..30, 2 ascending and 1 descending pile, step 5,
    # hand 5, m = 4.
    rules = small_rules(high=30, asc_piles=2, desc_piles=1, hand=5, min_play=4, step=5)
    assert list(rules.cards) == list(range(2, 31))
    state = GameState(Deal.create(rules, 1, [deck_with(rules, [20, 15, 10, 25, 24])]))
    assert state.tops == [1, 1, 31]
    assert [pile_name(rules, i) for i in range(3)] == ["A1", "A2", "D1"]
    assert state.hand() == [10, 15, 20, 24, 25]
    play(state, (20, "A1"))
    assert state.is_legal(15, 0)  # the step is 5
    assert not state.is_legal(10, 0)  # 10 lower is no trick here
    play(state, (15, "A1"), (10, "A2"))
    with pytest.raises(IllegalMoveError, match="at least 4 cards, played 3") as exc:
        state.end_turn()
    assert rule_of(exc) == "C4"
    play(state, (25, "D1"))
    assert state.is_legal(24, 2)
    state.end_turn()
    assert len(state.hand()) == 5


def test_C10_card_range_may_start_above_2() -> None:
    # rule C10: the card range is a parameter; piles start just outside it.
    deal = Deal.from_dict(
        {"variant": "classic", "rules": {"low": 10, "high": 30}, "deck": list(range(10, 31))}
    )
    state = GameState(deal)
    assert state.tops == [9, 9, 31, 31]
    assert state.hand() == list(range(10, 18))


def test_C10_the_official_game_is_one_preset() -> None:
    # rule C10: the classic preset is exactly the official parameters.
    assert (CLASSIC.low, CLASSIC.high, CLASSIC.asc_piles, CLASSIC.desc_piles) == (2, 99, 2, 2)
    assert (CLASSIC.step, CLASSIC.hand_sizes) == (10, (8, 7, 6, 6, 6))
    assert (CLASSIC.min_play, CLASSIC.min_play_empty) == (2, 1)


# -- P Profi -------------------------------------------------------------------------


def test_P1_profi_needs_three_cards_while_the_draw_pile_has_cards() -> None:
    # rule P1: cards 2..12 (C10), hand 8, 3 cards to draw.
    rules = PROFI.with_changes(high=12)
    state = GameState(Deal.create(rules, 1, [list(range(2, 13))]))
    assert state.turn_min == 3
    play(state, (2, "A1"), (3, "A1"))
    with pytest.raises(IllegalMoveError, match="at least 3 cards, played 2") as exc:
        state.end_turn()
    assert rule_of(exc) == "P1"
    turn(state, (4, "A1"))
    assert state.draw_pile() == []
    # P1: 1 once the draw pile is empty.
    assert state.turn_min == 1
    turn(state, (5, "A1"))
    assert state.status == Status.IN_PROGRESS


def test_P1_profi_preset_full_game() -> None:
    # rule P1 on the real preset: two cards are not enough.
    state = GameState(Deal.create(PROFI, 2, [list(range(2, 100))]))
    play(state, (2, "A1"), (3, "A1"))
    assert not state.can_end_turn()
    play(state, (4, "A1"))
    assert state.can_end_turn()
    assert PROFI.hand_sizes == CLASSIC.hand_sizes


@pytest.mark.parametrize(("players", "hand"), [(1, 7), (2, 6), (3, 5), (4, 5), (5, 5)])
def test_P2_profi_hard_hand_is_one_lower(players: int, hand: int) -> None:
    # rule P2
    state = GameState(Deal.from_seed(1, PROFI_HARD, players))
    assert [len(state.hand(p)) for p in range(players)] == [hand] * players
    assert state.turn_min == 3
    assert PROFI_HARD.hand_size(players) == CLASSIC.hand_size(players) - 1


def test_C5_C8_shortcuts_answer_as_the_rules_do() -> None:
    """``legal_plays`` lists C5's plays without ``is_legal``, and
    ``has_legal_turn`` answers plain positions without searching
    (``_quick_turn``); along random games of every classic-family shape
    both say what the rules say: the same plays at every position, and at
    every turn start what the search of the plays says (positions with no
    legal turn do occur)."""
    import random

    from tests.support.deals import random_deal
    from tests.support.kernels import walk

    rng = random.Random(8)
    answers: set[bool] = set()

    def visit(state: GameState, _kernel: object) -> None:
        # ``legal_plays`` lists C5's plays directly; ``is_legal`` is the rule.
        hand = sorted(state.hands[state.current])
        plays = [
            Play(c, p) for c in hand for p in range(state.rules.n_piles) if state.is_legal(c, p)
        ]
        assert state.legal_plays() == plays
        if state.over or state.placed:
            return
        probe = state.copy()
        quick = probe.has_legal_turn()
        assert quick == probe.searched_turn(), f"{state.deal.to_text()} at {state.key()}"
        answers.add(quick)
        # The same question where the hand holds only two of its cards.
        hand = probe.hands[probe.current]
        if len(hand) > 2:
            probe.hands[probe.current] = set(rng.sample(sorted(hand), 2))
            assert probe.has_legal_turn() == probe.searched_turn()
            answers.add(probe.has_legal_turn())

    for n in range(60):
        walk(random_deal(rng, n % 6), rng, visit)
    assert answers == {True, False}
