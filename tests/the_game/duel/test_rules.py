"""Rules D1-D6 (The Game: Face to Face) of the rulebook (docs/rules/).

Piles: A1/D1 are player 1's ascending/descending piles, A2/D2 player 2's."""

from __future__ import annotations

import pytest

from tests.support.the_game import DUEL, deck_with, duel_deal, play, small_duel, turn
from thegame.models import IllegalMoveError, InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Play, pile_name


def rejected(state: GameState, card: int, pile: str, rule: str) -> None:
    index = ["A1", "D1", "A2", "D2"].index(pile)
    key = state.key()
    assert Play(card, index) not in state.legal_plays()
    with pytest.raises(IllegalMoveError) as exc:
        state.play(card, index)
    assert exc.value.rule == rule
    assert state.key() == key


# -- D1 setup ------------------------------------------------------------------


def test_D1_two_players_each_with_own_58_cards_and_piles() -> None:
    # rule D1
    deal = Deal.from_seed(5, DUEL)
    assert deal.players == 2 and len(deal.decks) == 2
    for deck in deal.decks:
        assert sorted(deck) == list(range(2, 60))
    state = GameState(deal)
    for p in (0, 1):
        assert state.hand(p) == sorted(deal.decks[p][:6])
        assert state.draw_pile(p) == list(deal.decks[p][6:])
    assert state.tops == [1, 60, 1, 60]
    assert [pile_name(DUEL, i) for i in range(4)] == ["A1", "D1", "A2", "D2"]
    assert state.cards_left() == 2 * 58


def test_D1_deal_validation() -> None:
    # rule D1: two players, two decks of 2..59.
    deck = list(range(2, 60))
    with pytest.raises(InvalidInputError, match="face-to-face is for 2 players, not 1"):
        Deal.create(DUEL, 1, [deck, deck])
    with pytest.raises(InvalidInputError, match=r"needs 2 decks, got 1"):
        Deal.create(DUEL, 2, [deck])
    with pytest.raises(InvalidInputError, match="card 60 at position 58 is out of range"):
        Deal.create(DUEL, 2, [deck, [*deck[:-1], 60]])


# -- D2 minimum and the one card on the opponent ----------------------------------------


def _d2_state() -> GameState:
    return GameState(duel_deal([30, 31, 50, 49, 12, 13], [20, 21, 22, 40, 39, 38]))


def test_D2_at_least_two_cards() -> None:
    # rule D2
    state = _d2_state()
    play(state, (30, "A1"))
    with pytest.raises(IllegalMoveError, match="at least 2 cards, played 1") as exc:
        state.end_turn()
    assert exc.value.rule == "D2"
    turn(state, (31, "A1"))
    assert state.current == 1


def test_D2_exactly_one_card_onto_the_opponents_piles() -> None:
    # rule D2: one card onto the opponent, the others onto one's own piles.
    state = GameState(duel_deal([31, 50, 2, 3, 4, 5], [55, 21, 22, 40, 39, 38]))
    turn(state, (31, "A1"), (50, "D1"))
    assert state.is_legal(21, 0)  # 21 would improve player 1's A1 ...
    play(state, (55, "D1"))  # ... but one card went onto player 1's D1 already
    rejected(state, 21, "A1", "D2")
    rejected(state, 22, "A1", "D2")
    with pytest.raises(IllegalMoveError) as exc:  # and one card is not a turn
        state.end_turn()
    assert exc.value.rule == "D2"
    turn(state, (21, "A2"))
    assert state.status == Status.IN_PROGRESS
    assert state.tops == [31, 55, 21, 60]


def test_D2_at_least_two_cards_also_after_the_draw_pile_is_empty() -> None:
    # rule D2 (a small duel, C10: cards 2..7, hand 6, no draw pile)
    state = GameState(Deal.create(small_duel(), 2, [list(range(2, 8))] * 2))
    assert state.draw_pile(0) == [] and state.turn_min == 2
    play(state, (2, "A1"))
    with pytest.raises(IllegalMoveError) as exc:
        state.end_turn()
    assert exc.value.rule == "D2"


# -- D3 own piles ------------------------------------------------------------------


def test_D3_own_piles_follow_the_classic_rules_with_the_trick() -> None:
    # rule D3
    state = GameState(duel_deal([30, 20, 25, 50, 45, 55], [2, 3, 4, 5, 6, 7]))
    play(state, (30, "A1"), (20, "A1"), (25, "A1"))  # trick, then higher
    play(state, (50, "D1"), (45, "D1"))
    play(state, (55, "D1"))  # exactly 10 higher on the descending pile
    assert state.tops == [25, 55, 1, 60]


def test_D3_own_pile_rejects_a_wrong_card() -> None:
    # rule D3 (C5 on one's own pile)
    state = GameState(duel_deal([30, 21, 25, 50, 45, 51], [2, 3, 4, 5, 6, 7]))
    play(state, (30, "A1"), (50, "D1"))
    rejected(state, 21, "A1", "C5")  # lower, not exactly 10
    rejected(state, 51, "D1", "C5")  # higher, not exactly 10


# -- D4 the opponent's piles -----------------------------------------------------------


def test_D4_opponent_pile_must_improve_without_backward_trick() -> None:
    # rule D4: lower on their ascending pile, higher on their descending pile.
    state = GameState(duel_deal([31, 50, 2, 3, 4, 5], [20, 35, 41, 55, 40, 24]))
    turn(state, (31, "A1"), (50, "D1"))
    rejected(state, 35, "A1", "D4")  # higher on their ascending pile
    rejected(state, 41, "A1", "D4")  # exactly 10 higher: no backward trick there
    rejected(state, 40, "D1", "D4")  # lower (and 10 lower) on their descending pile
    rejected(state, 24, "D1", "D4")
    with pytest.raises(IllegalMoveError, match=r"35 on the opponent's A1 \(top 31\) must be lower"):
        state.play(35, 0)
    assert state.is_legal(20, 0)  # any amount lower
    assert state.is_legal(55, 1)  # any amount higher
    play(state, (55, "D1"), (20, "A2"))
    assert state.tops == [31, 55, 20, 60]


def test_D4_nothing_improves_an_untouched_pile() -> None:
    # rule D4: start values 1 and 60 cannot be improved.
    state = GameState(duel_deal([31, 50, 2, 3, 4, 5], [20, 35, 41, 55, 40, 24]))
    for card in state.hand():
        for pile in ("A2", "D2"):
            rejected(state, card, pile, "D4")


# -- D5 drawing ---------------------------------------------------------------------


def test_D5_only_own_piles_draw_two() -> None:
    # rule D5: three cards on own piles, two drawn from one's own pile.
    d1, d2 = deck_with(DUEL, [10, 11, 12, 50, 49, 48]), deck_with(DUEL, [2, 3, 4, 5, 6, 7])
    state = GameState(Deal.create(DUEL, 2, [d1, d2]))
    turn(state, (10, "A1"), (11, "A1"), (12, "A1"))
    assert state.hand(0) == sorted([48, 49, 50, *d1[6:8]])
    assert state.draw_pile(0) == d1[8:]
    assert state.draw_pile(1) == d2[6:]  # the opponent's pile is untouched


def test_D5_one_card_on_the_opponent_refills_to_six() -> None:
    # rule D5
    d1, d2 = deck_with(DUEL, [31, 50, 2, 3, 4, 5]), deck_with(DUEL, [20, 21, 22, 40, 39, 38])
    state = GameState(Deal.create(DUEL, 2, [d1, d2]))
    turn(state, (31, "A1"), (50, "D1"))
    turn(state, (20, "A1"), (21, "A2"), (22, "A2"))
    assert state.hand(1) == sorted([38, 39, 40, *d2[6:9]])
    assert state.draw_pile(1) == d2[9:]
    assert state.draw_pile(0) == d1[8:]


# -- D6 end of the game ----------------------------------------------------------------


def test_D6_whoever_plays_all_their_cards_wins_at_once() -> None:
    # rule D6: cards 2..7 (C10), all six in the hand; no end of turn needed.
    state = GameState(Deal.create(small_duel(), 2, [list(range(2, 8))] * 2))
    play(state, *[(c, "A1") for c in range(2, 7)])
    assert state.status == Status.IN_PROGRESS
    play(state, (7, "A1"))
    assert state.status == Status.WON
    assert state.winner == 1
    assert "rule D6" in (state.reason or "")
    assert state.legal_plays() == []


def test_D6_a_player_who_cannot_play_two_cards_loses() -> None:
    # rule D6 decision: one card left, empty draw pile: cannot meet the minimum.
    state = GameState(Deal.create(small_duel(), 2, [list(range(2, 8))] * 2))
    turn(state, *[(c, "A1") for c in range(2, 7)])
    turn(state, (2, "A2"), (3, "A2"))
    assert state.hand(0) == [7]
    assert state.status == Status.LOST
    assert state.winner == 2
    assert state.reason == "player 1 cannot play 2 cards (rule D6)"


def test_D6_the_loser_can_be_player_two() -> None:
    # rule D6: player 2 cannot play 2 cards: player 1 wins. Cards 2..7
    # (C10), all in the hands; player 2 has 2..7 but their piles are blocked.
    rules = small_duel()
    state = GameState(Deal.create(rules, 2, [[2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2]]))
    turn(state, (2, "A1"), (3, "A1"))
    # Player 2 blocks their own piles with 7 and 2: of 3, 4, 5 only one card
    # can go onto player 1's A1 (top 5), and no second card fits anywhere.
    turn(state, (6, "A2"), (7, "A2"), (2, "D2"))
    turn(state, (4, "A1"), (5, "A1"))
    assert state.current == 1
    assert state.hand(1) == [3, 4, 5]
    assert state.status == Status.LOST
    assert state.winner == 1
    assert state.reason == "player 2 cannot play 2 cards (rule D6)"
