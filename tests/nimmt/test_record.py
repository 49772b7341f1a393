"""The 6 nimmt! referee (``check``): legal and illegal records, random ones
by hypothesis, and malformed input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.nimmt import random_record
from thegame.models.errors import InvalidInputError
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import Record, Turn, replay
from thegame.models.nimmt.rules import chooser, heads, row_heads

seeds = st.integers(min_value=0, max_value=2**32)
players = st.integers(min_value=2, max_value=10)


def as_json(record: Record) -> dict[str, Any]:
    return json.loads(json.dumps(record.to_json()))  # type: ignore[no-any-return]


@settings(max_examples=40)
@given(seeds, players, st.integers(min_value=0, max_value=10))
def test_random_legal_records(seed: int, n: int, cut: int) -> None:
    """Rules S1-S4: a randomly played round replays legally; every head is
    either in a player's pile or still on the table (S4 totals)."""
    record = random_record(seed, n)
    record = Record(record.deal, record.turns[:cut])
    again = Record.from_json(as_json(record))
    assert again == record
    result = replay(again)
    assert result.legal and result.error is None
    assert result.status == ("finished" if cut == 10 else "in_progress")
    on_table = sum(row_heads(r) for r in result.rows[-1])
    played = sum(heads(c) for t in record.turns for c in t.cards)
    assert sum(result.heads) + on_table == played + sum(heads(c) for c in record.deal.rows)


@settings(max_examples=40)
@given(seeds, players, st.data())
def test_card_not_held_is_illegal(seed: int, n: int, data: st.DataObject) -> None:
    """Rules S1, S2: a card the player does not hold (or no longer holds)."""
    record = random_record(seed, n)
    t = data.draw(st.integers(0, 9))
    p = data.draw(st.integers(0, n - 1))
    held = set(record.deal.hands[p]) - {turn.cards[p] for turn in record.turns[:t]}
    bad = data.draw(st.sampled_from(sorted(set(range(1, 105)) - held)))
    cards = list(record.turns[t].cards)
    cards[p] = bad
    turns = [*record.turns[:t], Turn(tuple(cards), dict(record.turns[t].choices))]
    result = replay(Record(record.deal, tuple(turns)))
    assert not result.legal and result.error is not None
    assert result.error.turn == t + 1 and result.error.rule == "S2"
    assert result.error.player is not None
    assert result.error.player <= p + 1  # an earlier player may hold none either
    assert result.status == "in_progress"


def _choice_turn(seed: int) -> tuple[Record, int]:
    """A random round with a turn where a card goes below every row (S3)."""
    for s in range(seed, seed + 500):
        record = random_record(s, 5)
        for t, turn in enumerate(record.turns):
            if turn.choices:
                return record, t
    raise AssertionError("no row choice in 500 rounds")


@settings(max_examples=15)
@given(st.integers(0, 10_000))
def test_missing_row_choice_is_illegal(seed: int) -> None:
    """Rule S3: a card below every row must name the row it takes."""
    record, t = _choice_turn(seed)
    (p,) = record.turns[t].choices
    turns = list(record.turns)
    turns[t] = Turn(turns[t].cards, {})
    result = replay(Record(record.deal, tuple(turns)))
    assert result.error is not None
    assert (result.error.turn, result.error.player) == (t + 1, p + 1)
    assert "S3" in result.error.message and result.error.rule == "S3"


@settings(max_examples=15)
@given(st.integers(0, 10_000), st.data())
def test_needless_row_choice_is_illegal(seed: int, data: st.DataObject) -> None:
    """Rule S3: a row choice for a card that is not below every row."""
    record = random_record(seed, 4)
    result = replay(record)
    t = data.draw(st.integers(0, 9))
    must = chooser(result.rows[t], record.turns[t].cards)
    p = data.draw(st.sampled_from([q for q in range(4) if q != must]))
    turns = list(record.turns)
    turns[t] = Turn(turns[t].cards, {**turns[t].choices, p: data.draw(st.integers(0, 3))})
    bad = replay(Record(record.deal, tuple(turns)))
    assert bad.error is not None
    assert (bad.error.turn, bad.error.player, bad.error.rule) == (t + 1, p + 1, "S3")


def test_check_counts_the_heads_of_a_known_round() -> None:
    """Rules S3, S4 on a hand-built round: player 1 chooses row 2 with a card
    below every row, then both fill a row to five and take it with the sixth."""
    deal = Deal((20, 21, 22, 23), (tuple(range(1, 11)), tuple(range(30, 40))))
    turns = [Turn((1, 30), {0: 1})]  # 1 is below every row: takes row 2 (21, 1 head)
    turns += [Turn((c, 29 + c), {}) for c in range(2, 6)]
    # turn 5: row 4 is 23 30 31 32 33, so 34 is its sixth card (player 2 takes 11)
    turns.append(Turn((6, 35), {}))  # row 2 is 1 2 3 4 5: player 1 takes 6 heads
    result = replay(Record(deal, tuple(turns)))
    assert result.legal, result.error
    assert result.heads == [1 + 6, 1 + 3 + 1 + 1 + 5]
    assert result.rows[-1] == ((20,), (6,), (22,), (34, 35))
    assert result.status == "in_progress"


def good() -> dict[str, Any]:
    return as_json(random_record(11, 3))


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["deal"]["hands"][0].__setitem__(0, d["deal"]["hands"][1][0]), "twice"),
        (lambda d: d["deal"]["hands"][1].pop(), "hand of 9 cards"),
        (lambda d: d["deal"]["rows"].pop(), "3 row starters"),
        (lambda d: d["deal"]["rows"].__setitem__(0, 105), "not in 1..104"),
        (lambda d: d["deal"].__setitem__("players", 4), "players is 4"),
        (lambda d: d["turns"][0].__setitem__("rows", {"1": 5}), "out of range"),
        (lambda d: d["turns"][0].__setitem__("rows", {"1": 0}), "out of range"),
        (lambda d: d["turns"][0].__setitem__("rows", {"4": 1}), "not a player"),
        (lambda d: d["turns"][0]["cards"].pop(), "3 cards"),
        (lambda d: d["turns"][0]["cards"].__setitem__(0, "7"), "not a card"),
        (lambda d: d["turns"].append(d["turns"][0]), "11 turns"),
        (lambda d: d.__setitem__("deal", []), "expected an object"),
    ],
)
def test_malformed_records(change: Any, fragment: str) -> None:
    """Bad input is an InvalidInputError naming what and where, never a crash."""
    data = good()
    change(data)
    with pytest.raises(InvalidInputError, match=fragment):
        Record.from_json(data)


def test_malformed_json() -> None:
    with pytest.raises(InvalidInputError, match="malformed JSON"):
        Record.from_text('{"deal": ', "x.json")


def test_check_is_the_shared_check_result() -> None:
    """``check`` answers with the type every game's check shares; its JSON
    keeps 6 nimmt!'s fields in order, and an illegal turn's error names the
    player as the play."""
    from thegame.models.check import CheckResult
    from thegame.models.nimmt.record import check

    record = random_record(3, 4)
    result = check(record)
    assert isinstance(result, CheckResult)
    assert result.legal and result.steps_ok == 10 and result.cards_left == 0
    data = result.to_dict()
    assert list(data) == ["legal", "status", "heads", "error"]
    assert data["heads"] == replay(record).heads and data["status"] == "finished"
    first = record.turns[0]
    cards = (first.cards[1], *first.cards[1:])  # player 1 plays player 2's card
    bad = check(Record(record.deal, (Turn(cards, dict(first.choices)), *record.turns[1:])))
    assert not bad.legal and bad.steps_ok == 0
    assert bad.error == {"turn": 1, "play": 1, "rule": "S2", "message": bad.error["message"]}
