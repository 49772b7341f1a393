"""Deal and record formats: JSON and text round trips (hypothesis), exact
format details, and garbage input that must raise only InvalidInputError."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.the_game import EXTREME, examples, random_playout
from thegame.models import InvalidInputError
from thegame.models.the_game import (
    COMMAND_KINDS,
    PRESETS,
    Deal,
    Play,
    Record,
    Rules,
    Turn,
    get_rules,
    pile_name,
    replay,
    small_rules,
)

# -- strategies ------------------------------------------------------------------


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """A preset, or a preset with generalised parameters (rule C10)."""
    rules = get_rules(draw(st.sampled_from(sorted(PRESETS))))
    if draw(st.booleans()):
        return rules
    low = draw(st.integers(1, 20))
    high = draw(st.integers(low + 25, low + 60))  # room for 5 hands of 5
    asc = draw(st.integers(0, 3))
    desc = draw(st.integers(1 if asc == 0 else 0, 3))
    n = rules.max_players
    sizes = tuple(draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)))
    return rules.with_changes(
        low=low,
        high=high,
        asc_piles=asc,
        desc_piles=desc,
        step=draw(st.integers(1, 15)),
        hand_sizes=sizes,
        min_play=draw(st.integers(1, 4)),
        min_play_empty=draw(st.integers(1, 3)),
    )


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    rules = draw(rules_strategy())
    players = draw(st.integers(rules.min_players, rules.max_players))
    n_decks = 2 if rules.kind == "duel" else 1
    rnd = draw(st.randoms(use_true_random=False))  # cheaper than st.permutations
    decks = []
    for _ in range(n_decks):
        deck = list(rules.cards)
        rnd.shuffle(deck)
        decks.append(deck)
    first = draw(st.none() | st.integers(1, players))
    commands: dict[int, str] = {}
    if rules.commands:
        if rules == EXTREME:
            order = rnd.sample(list(rules.cards), 28)
            commands = {c: COMMAND_KINDS[i // 4] for i, c in enumerate(order)}
        else:
            drawn = draw(
                st.dictionaries(st.sampled_from(list(rules.cards)), st.sampled_from(COMMAND_KINDS))
            )
            # X6: a generalised deal carries 0 to 4 cards of each kind.
            commands = {}
            for card, kind in sorted(drawn.items()):
                if sum(k == kind for k in commands.values()) < 4:
                    commands[card] = kind
    return Deal.create(rules, players, decks, first, commands)


@st.composite
def records(draw: st.DrawFn) -> Record:
    """Records of random (not necessarily legal) turns."""
    deal = draw(deals())
    turns = draw(
        st.lists(
            st.builds(
                Turn,
                st.integers(1, deal.players),
                st.lists(
                    st.builds(
                        Play,
                        st.integers(-5, 120),
                        st.integers(0, deal.rules.n_piles - 1),
                    ),
                    max_size=4,
                ).map(tuple),
            ),
            max_size=4,
        )
    )
    return Record(deal, tuple(turns))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)
junk = json_values | st.integers(-10, 120) | st.sampled_from(["", "A1", "stop", "classic", "2"])


# -- round trips -------------------------------------------------------------------


@settings(max_examples=examples(150))
@given(deal=deals())
def test_deal_json_round_trip(deal: Deal) -> None:
    assert Deal.from_json(deal.to_json()) == deal
    assert Deal.from_dict(json.loads(deal.to_json())) == deal


@settings(max_examples=examples(150))
@given(deal=deals())
def test_deal_text_round_trip(deal: Deal) -> None:
    text = deal.to_text()
    assert "\n" not in text
    assert Deal.from_text(text) == deal
    assert Deal.from_text(Deal.from_text(text).to_text()).to_text() == text


@settings(max_examples=examples(100))
@given(record=records())
def test_record_json_round_trip(record: Record) -> None:
    assert Record.from_json(record.to_json()) == record
    assert Record.from_json(record.to_json(indent=2)) == record


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32), players=st.integers(1, 3), rnd=st.randoms())
def test_played_record_round_trip_and_replay(seed: int, players: int, rnd: random.Random) -> None:
    deal = Deal.from_seed(seed, small_rules(high=30, hand=3), players)
    pl = random_playout(deal, rnd, greed=0.9, check_oracle=False)
    record = Record.from_json(pl.record.to_json())
    assert record == pl.record
    result = replay(record)
    assert result.legal
    if not pl.state.plays_this_turn:
        assert result.state.key() == pl.state.key()


# -- exact formats ------------------------------------------------------------------


def test_deal_json_shape() -> None:
    deal = Deal.from_seed(1, get_rules("classic"), 2, first=2)
    data = deal.to_dict()
    assert data == {
        "game": "the-game", "variant": "classic", "players": 2, "deck": list(deal.deck),
        "first": 2,
    }
    del data["game"]  # a file written before deals named their game
    assert Deal.from_dict(data) == deal
    duel = Deal.from_seed(1, get_rules("face-to-face")).to_dict()
    assert set(duel) == {"game", "variant", "players", "decks"}
    ext = Deal.from_seed(1, get_rules("extreme")).to_dict()
    assert len(ext["commands"]) == 28
    assert all(isinstance(k, str) and k.isdigit() for k in ext["commands"])
    small = Deal.from_seed(1, small_rules(high=20, hand=3)).to_dict()
    assert small["rules"] == {
        "high": 20,
        "asc_piles": 1,
        "desc_piles": 1,
        "hand_sizes": [3, 3, 3, 3, 3],
    }


def test_deal_json_defaults() -> None:
    # Without "variant": classic; without "players": the minimum (1 / 2).
    deal = Deal.from_json(json.dumps({"deck": list(range(99, 1, -1))}))
    assert deal.rules == get_rules("classic") and deal.players == 1 and deal.first is None
    duel = Deal.from_json(
        json.dumps({"variant": "face-to-face", "decks": [list(range(2, 60))] * 2})
    )
    assert duel.players == 2


def test_deal_text_shape() -> None:
    deal = Deal.create(small_rules(high=9, hand=2), 2, [[9, 8, 7, 6, 5, 4, 3, 2]], first=2)
    text = "classic 2p first=2 high=9 asc_piles=1 desc_piles=1 hand_sizes=2,2,2,2,2"
    assert deal.to_text() == text + " : 9 8 7 6 5 4 3 2"
    # commas work as separators too
    assert Deal.from_text(text + " : 9,8,7,6,5,4,3,2") == deal
    duel = Deal.from_seed(1, get_rules("face-to-face"))
    assert duel.to_text().count(" / ") == 1
    assert Deal.from_text(duel.to_text()) == duel


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("classic 1p 2 3 4", "no ':' found"),
        (": 2 3", "missing variant"),
        ("classic 1p bogus : 2 3", "unexpected word 'bogus'"),
        ("classic 1p : 2 x 4", "'x' is not a number"),
        ("classic 1p first=x : 2", "'x' is not a number"),
        ("classic 1p high=x : 2", "'x' is not a number"),
        ("classic 1p speed=3 : 2", "unknown rule parameter 'speed'"),
        ("classik 1p : 2", "unknown variant 'classik'"),
        ("classic 1p : 2 3 / 4 5", 'missing "deck"'),
        ("classic 7p : " + " ".join(map(str, range(2, 100))), "classic is for 1-5 players"),
        ("extreme 1p : 2=boom " + " ".join(map(str, range(3, 100))), "unknown command 'boom'"),
    ],
)
def test_deal_text_errors(line: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as exc:
        Deal.from_text(line)
    assert message in str(exc.value)


# -- garbage: only InvalidInputError ----------------------------------------------------


def only_invalid_input(parse: Callable[[Any], Any], arg: Any) -> Any:
    """``parse(arg)`` returns a value or raises InvalidInputError with a one-line
    message; anything else is a bug."""
    try:
        return parse(arg)
    except InvalidInputError as err:
        assert len(str(err).splitlines()) == 1, str(err)
        assert err.message
        return None


def check_parsed_deal(deal: Deal | None) -> None:
    if deal is not None:
        assert Deal.from_json(deal.to_json()) == deal
        assert Deal.from_text(deal.to_text()) == deal


def check_parsed_record(record: Record | None) -> None:
    if record is not None:
        assert Record.from_json(record.to_json()) == record
        result = replay(record)  # a parsed record always replays (legal or not)
        json.dumps(result.to_dict())


@settings(max_examples=examples(200))
@given(text=st.text(max_size=80))
def test_garbage_text(text: str) -> None:
    check_parsed_deal(only_invalid_input(Deal.from_text, text))
    check_parsed_deal(only_invalid_input(Deal.from_json, text))
    check_parsed_record(only_invalid_input(Record.from_json, text))


head_words = st.sampled_from(
    [
        "1p", "2p", "6p", "0p", "²p", "\u0661p", "p", "first=1", "first=9", "first=²", "high=20",
        "high=1", "low=5", "step=0", "hand_sizes=3,3", "hand_sizes=2,2,2,2,2", "asc_piles=0",
        "desc_piles=0", "min_play=0", "speed=1", "=", "bogus",
    ]
)  # fmt: skip
body_words = st.sampled_from(
    ["/", ",", "=", "2=stop", "3=boom", "4=", "=5", "-1", "100", "4_0", "0x10", "1e3", "²"]
) | st.integers(-2, 101).map(str)


@settings(max_examples=examples(300))
@given(
    variant=st.sampled_from([*sorted(PRESETS), "", "classik"]),
    head=st.lists(head_words, max_size=4),
    colon=st.booleans(),
    body=st.lists(body_words, max_size=12),
)
def test_garbage_deal_like_text(
    variant: str, head: list[str], colon: bool, body: list[str]
) -> None:
    # Grammar-shaped garbage: reaches the parser's deeper branches.
    text = " ".join([variant, *head, ":" if colon else "", *body])
    check_parsed_deal(only_invalid_input(Deal.from_text, text))


@settings(max_examples=examples(200))
@given(value=json_values)
def test_garbage_json_values(value: Any) -> None:
    text = json.dumps(value)
    check_parsed_deal(only_invalid_input(Deal.from_json, text))
    check_parsed_record(only_invalid_input(Record.from_json, text))


deal_keys = ["variant", "players", "deck", "decks", "first", "commands", "rules", "bogus"]


@settings(max_examples=examples(200))
@given(data=st.dictionaries(st.sampled_from(deal_keys), junk, max_size=6))
def test_garbage_deal_objects(data: dict[str, Any]) -> None:
    text = json.dumps(data)
    check_parsed_deal(only_invalid_input(Deal.from_json, text))
    check_parsed_record(only_invalid_input(Record.from_json, json.dumps({"deal": data})))


def _mutate(draw: st.DrawFn, data: Any, depth: int = 0) -> Any:
    """One random change somewhere inside a JSON value."""
    if isinstance(data, dict) and data and depth < 4 and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data)))
        data[key] = _mutate(draw, data[key], depth + 1)
        return data
    if isinstance(data, list) and data and depth < 4 and draw(st.booleans()):
        i = draw(st.integers(0, len(data) - 1))
        data[i] = _mutate(draw, data[i], depth + 1)
        return data
    op = draw(st.sampled_from(["replace", "delete", "add", "swap", "dup", "int"]))
    if op == "replace":
        return draw(junk)
    if op == "int":
        return draw(st.integers(-3, 130))
    if isinstance(data, dict):
        if op == "delete" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif op in ("add", "dup"):
            key = draw(st.sampled_from([*deal_keys, "turns", "player", "plays", "card", "pile"]))
            data[key] = draw(junk)
        return data
    if isinstance(data, list):
        if op == "delete" and data:
            data.pop(draw(st.integers(0, len(data) - 1)))
        elif op == "add":
            data.insert(draw(st.integers(0, len(data))), draw(junk))
        elif op == "dup" and data:
            data.append(data[draw(st.integers(0, len(data) - 1))])
        elif op == "swap" and len(data) > 1:
            i, j = draw(st.integers(0, len(data) - 1)), draw(st.integers(0, len(data) - 1))
            data[i], data[j] = data[j], data[i]
        return data
    return draw(junk)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[Any]) -> Any:
    data = json.loads(json.dumps(draw(base)))
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate(draw, data)
    return data


@settings(max_examples=examples(200))
@given(data=mutated(deals().map(lambda d: d.to_dict())))
def test_mutated_deals_raise_only_invalid_input(data: Any) -> None:
    check_parsed_deal(only_invalid_input(Deal.from_json, json.dumps(data)))


@settings(max_examples=examples(150))
@given(data=mutated(records().map(lambda r: r.to_dict())))
def test_mutated_records_raise_only_invalid_input(data: Any) -> None:
    check_parsed_record(only_invalid_input(Record.from_json, json.dumps(data)))


@st.composite
def mutated_text(draw: st.DrawFn) -> str:
    text = draw(deals()).to_text()
    alphabet = st.sampled_from([*"0123456789 :/=,p-_²\n", "stop", "high=", "first="])
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            text = text[:i] + draw(alphabet) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + draw(alphabet) + text[i + 1 :]
    return text


@settings(max_examples=examples(200))
@given(text=mutated_text())
def test_mutated_text_raises_only_invalid_input(text: str) -> None:
    check_parsed_deal(only_invalid_input(Deal.from_text, text))


# -- regressions: inputs that once escaped as other exceptions -----------------------------


def test_superscript_player_count_is_invalid_input() -> None:
    # "²".isdigit() is true but int("²") fails: was a bare ValueError.
    with pytest.raises(InvalidInputError, match="'²' is not a number"):
        Deal.from_text("classic ²p : 2 3")


@pytest.mark.parametrize("text", ["1" * 5000, '{"deck": [' + "9" * 5000 + "]}", "[" * 100_000])
def test_oversized_json_is_invalid_input(text: str) -> None:
    # Python's int-digit limit and the decoder's recursion limit: were a bare
    # ValueError and a RecursionError.
    for parse in (Deal.from_json, Record.from_json):
        with pytest.raises(InvalidInputError, match="malformed JSON"):
            parse(text)


def test_huge_card_range_fails_fast() -> None:
    # A huge card range is refused at once; it once built the whole range.
    started = time.perf_counter()
    with pytest.raises(InvalidInputError, match=r"must lie within 1\.\.1000"):
        Deal.from_json(json.dumps({"rules": {"high": 10**12}, "deck": [2]}))
    assert time.perf_counter() - started < 1.0


def test_missing_cards_are_counted() -> None:
    with pytest.raises(InvalidInputError, match=r"missing 3 and 997 more"):
        Deal.from_json(json.dumps({"rules": {"high": 1000}, "deck": [2]}))


def test_custom_fire_cards_round_trip() -> None:
    rules = get_rules("on-fire").with_changes(high=20, fire_cards=frozenset({5, 12}))
    deal = Deal.create(rules, 1, [list(range(2, 21))])
    assert Deal.from_json(deal.to_json()) == deal
    assert Deal.from_text(deal.to_text()) == deal
    assert "fire_cards=5,12" in deal.to_text()


def test_pile_names_of_generated_rules_are_unique() -> None:
    rules = small_rules(high=30, asc_piles=3, desc_piles=2)
    names = [pile_name(rules, i) for i in range(rules.n_piles)]
    assert names == ["A1", "A2", "A3", "D1", "D2"]
