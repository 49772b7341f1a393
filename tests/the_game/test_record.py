"""Game records and ``replay`` (the engine behind ``thegame check``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.the_game import deck_with, small_duel
from thegame.models import InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, Play, Record, Turn, replay, small_rules

SMALL = small_rules(high=11, hand=3)  # cards 2..11, hand 3, A1 and D1
SMALL_DEAL = Deal.create(SMALL, 1, [list(range(2, 12))])
A1, D1 = 0, 1


def t(player: int, *plays: tuple[int, int]) -> Turn:
    return Turn(player, tuple(Play(c, p) for c, p in plays))


WON_TURNS = (
    t(1, (2, A1), (3, A1), (4, A1)),
    t(1, (5, A1), (6, A1), (7, A1)),
    t(1, (8, A1), (9, A1), (10, A1)),
    t(1, (11, A1)),
)


def test_replay_a_won_record() -> None:
    result = replay(Record(SMALL_DEAL, WON_TURNS))
    assert result.legal
    assert result.status == Status.WON
    assert result.cards_left == 0
    assert result.error is None
    assert result.steps_ok == 4
    assert result.to_dict() == {
        "legal": True,
        "status": "won",
        "cards_left": 0,
        "reason": "all cards played: a perfect clear (rule C7)",
        "error": None,
    }


def test_replay_an_in_progress_record() -> None:
    result = replay(Record(SMALL_DEAL, WON_TURNS[:2]))
    assert result.legal and result.status == Status.IN_PROGRESS
    assert result.cards_left == 4
    assert result.state.hand() == [8, 9, 10]


def _lost_deal() -> Deal:
    # The C8 position of test_rules_classic: after 19 and 3 no turn is left.
    rules = small_rules(high=20, hand=3)
    return Deal.create(rules, 1, [deck_with(rules, [19, 3, 2, 11, 14])])


def test_replay_a_lost_record() -> None:
    result = replay(Record(_lost_deal(), (t(1, (19, A1), (3, D1)),)))
    assert result.legal
    assert result.status == Status.LOST
    assert result.cards_left == 17
    assert result.reason == "player 1 cannot play 2 cards (rule C8)"
    assert result.to_dict() == {
        "legal": True,
        "status": "lost",
        "cards_left": 17,
        "reason": "player 1 cannot play 2 cards (rule C8)",
        "error": None,
    }


def test_replay_a_turn_after_the_end_is_illegal() -> None:
    # rule C8: the game is over.
    record = Record(_lost_deal(), (t(1, (19, A1), (3, D1)), t(1, (2, D1), (11, A1))))
    result = replay(record)
    assert not result.legal
    assert result.error is not None
    assert (result.error["turn"], result.error["play"], result.error["rule"]) == (2, None, "C8")


def test_replay_an_illegal_play_reports_turn_play_and_rule() -> None:
    # rule C5: 5 on A1 after 6 (counted from 1, as on screen: turn 2, play 2).
    record = Record(SMALL_DEAL, (WON_TURNS[0], t(1, (6, A1), (5, A1), (7, A1))))
    result = replay(record)
    assert not result.legal
    assert result.status == Status.IN_PROGRESS
    assert result.error == {
        "turn": 2,
        "play": 2,
        "rule": "C5",
        "message": "5 A1: A1 shows 6; a card must be higher than 6",
    }
    assert result.steps_ok == 1
    assert result.cards_left == 6  # the plays before the error count
    assert json.loads(json.dumps(result.to_dict()))["error"]["rule"] == "C5"


def test_replay_the_wrong_player_is_rule_C3() -> None:
    # rule C3: 2 players, player 1 starts, then player 2 - not player 1 again.
    deal = Deal.create(small_rules(high=20, hand=3), 2, [list(range(2, 21))])
    record = Record(deal, (t(1, (2, A1), (3, A1)), t(1, (4, A1), (5, A1))))
    result = replay(record)
    assert not result.legal
    assert result.error == {
        "turn": 2,
        "play": None,
        "rule": "C3",
        "message": "it is player 2's turn, not player 1's",
    }


def test_replay_a_deal_that_fixes_the_start_rejects_another_starter() -> None:
    # rule C3: the deal fixes player 1; the record starts with player 2.
    deal = Deal.create(small_rules(high=20, hand=3), 2, [list(range(2, 21))], first=1)
    result = replay(Record(deal, (t(2, (5, A1), (6, A1)),)))
    assert result.error is not None
    assert (result.error["turn"], result.error["rule"]) == (1, "C3")


def test_replay_without_fixed_start_the_record_states_it() -> None:
    # rule C3: the first turn names the starting player.
    deal = Deal.create(small_rules(high=20, hand=3), 2, [list(range(2, 21))])
    record = Record(deal, (t(2, (5, A1), (6, A1)), t(1, (3, D1), (2, D1))))
    assert record.first == 2
    result = replay(record)
    assert result.legal and result.state.current == 1


def test_replay_too_few_cards_is_rule_C4() -> None:
    # rule C4: one card while the draw pile has cards.
    result = replay(Record(SMALL_DEAL, (t(1, (2, A1)),)))
    assert not result.legal
    assert result.error is not None
    assert (result.error["turn"], result.error["play"], result.error["rule"]) == (1, None, "C4")
    assert result.error["message"] == "a turn needs at least 2 cards, played 1"


def test_replay_a_card_not_in_hand_is_rule_C4() -> None:
    result = replay(Record(SMALL_DEAL, (t(1, (2, A1), (9, A1)),)))
    assert result.error is not None
    assert (result.error["turn"], result.error["play"], result.error["rule"]) == (1, 2, "C4")


def test_replay_a_won_duel_reports_the_winner() -> None:
    # rule D6: the turn that empties the hand wins at once (no end of turn).
    deal = Deal.create(small_duel(), 2, [list(range(2, 8))] * 2)
    record = Record(deal, (t(1, *[(c, 0) for c in range(2, 8)]),))
    result = replay(record)
    assert result.legal and result.status == Status.WON and result.winner == 1
    assert result.to_dict() == {
        "legal": True,
        "status": "won",
        "cards_left": 6,
        "reason": "player 1 played all their cards (rule D6)",
        "error": None,
        "winner": 1,
    }


def test_record_json_round_trip_and_format() -> None:
    record = Record(SMALL_DEAL, WON_TURNS)
    data = json.loads(record.to_json())
    assert data["turns"][3] == {"player": 1, "plays": [{"card": 11, "pile": "A1"}]}
    assert data["deal"] == SMALL_DEAL.to_dict()
    assert Record.from_json(record.to_json()) == record
    assert Record.from_json(record.to_json(indent=2)) == record


def _record_dict() -> dict[str, Any]:
    return json.loads(Record(SMALL_DEAL, WON_TURNS[:1]).to_json())


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (lambda d: d["turns"][0].update(player=2), "record.turns[1].player", "player 2 does not"),
        (lambda d: d["turns"][0].update(player=True), "record.turns[1].player", "integer"),
        (lambda d: d["turns"][0]["plays"][0].update(pile="A2"), "plays[1].pile", "unknown pile"),
        (lambda d: d["turns"][0]["plays"][0].update(card="2"), "plays[1].card", "integer"),
        (lambda d: d["turns"][0]["plays"][0].update(x=1), "plays[1]", "a play must be"),
        (lambda d: d["turns"][0].update(plays={}), "record.turns[1].plays", "must be a list"),
        (lambda d: d.update(turns={}), "record.turns", "turns must be a list"),
        (lambda d: d.update(extra=1), "record", "unknown key 'extra'"),
        (lambda d: d.pop("deal"), "record", 'missing "deal"'),
        (lambda d: d["deal"].update(variant="classik"), "variant", "unknown variant 'classik'"),
    ],
)
def test_record_parse_errors_name_the_place(change: Any, where: str, message: str) -> None:
    data = _record_dict()
    change(data)
    with pytest.raises(InvalidInputError) as exc:
        Record.from_json(json.dumps(data))
    assert where in str(exc.value)
    assert message in exc.value.message


def test_record_pile_names_are_case_insensitive() -> None:
    data = _record_dict()
    data["turns"][0]["plays"][0]["pile"] = "a1"
    assert Record.from_dict(data).turns[0].plays[0] == Play(2, 0)
