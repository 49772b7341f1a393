"""Cento game 2: the seeded deal (rule Z6), every rule Z1-Z5 through the
referee, and hypothesis random legal and illegal records."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.cento import (
    FREE,
    CentoStatus,
    Deal,
    HundredMode,
    Play,
    Record,
    Rules,
    Turn,
    check,
    initial_state,
    legal_turns,
)
from thegame.models.errors import InvalidInputError
from thegame.models.seeds import SplitMix64

F = FREE


def mk(hands: list[list[int]], open_card: int, draw: list[int], **rules: Any) -> Deal:
    frees = sum(h.count(F) for h in hands) + draw.count(F)
    r = Rules(hand_size=len(hands[0]), free_cards=frees, **rules)
    return Deal.from_dict(
        {
            "hands": [["free" if c == F else c for c in h] for h in hands],
            "open": open_card,
            "draw": ["free" if c == F else c for c in draw],
            "free": frees,
            "rules": r.to_dict(),
        }
    )


def turn(player: int, *plays: int | tuple[int, int], draw: int = 0, **flags: bool) -> Turn:
    ps = tuple(Play(F, p[1]) if isinstance(p, tuple) else Play(p) for p in plays)
    return Turn(player, ps, draw, flags.get("trick", False), flags.get("treat", False))


def run(deal: Deal, *turns: Turn) -> Any:
    return check(Record(deal, turns))


def illegal(deal: Deal, *turns: Turn) -> tuple[str | None, int | None, int | None]:
    result = run(deal, *turns)
    assert not result.legal
    return result.error["rule"], result.error["turn"], result.error["play"]


# -- rule Z6: the seeded deal -----------------------------------------------------


def test_z6_seed_1_two_players_is_pinned() -> None:
    d = Deal.from_seed(1, 2)
    assert d.hands == ((8, 11, 20, 32, 52, 85, 97), (5, 6, 26, 37, 60, 61, 88))
    assert d.open == 27
    assert d.draw[:8] == (51, 49, 69, 3, 56, 63, 100, F)
    assert len(d.draw) == 104 - 14 - 1


def test_z6_seed_2_solo_is_pinned() -> None:
    d = Deal.from_seed(2, 1)
    assert d.hands == ((15, 27, 51, 75, 83, 84, F),)
    assert d.open == 68
    assert d.draw[:6] == (59, 1, 40, 43, 91, 54)
    assert d.draw[-3:] == (10, 39, 87)


def test_z6_deal_is_the_shuffled_deck_dealt_in_blocks() -> None:
    """Player 1 gets the first cards of SplitMix64(seed).shuffle(deck), then
    player 2; the next card is the open card; the rest is the draw pile."""
    rules = Rules()
    deck = rules.deck()
    SplitMix64(7).shuffle(deck)
    d = Deal.from_seed(7, 3, rules)
    for i in range(3):
        assert sorted(d.hands[i], key=lambda c: 999 if c == F else c) == sorted(
            deck[7 * i : 7 * i + 7], key=lambda c: 999 if c == F else c
        )
    rest = deck[21:]
    if rules.is_number(rest[0]):
        assert d.open == rest[0] and list(d.draw) == rest[1:]
    all_cards = [c for h in d.hands for c in h] + [d.open, *d.draw]
    assert sorted(c for c in all_cards if c != F) == list(range(1, 101))
    assert all_cards.count(F) == 4


def test_z6_free_card_first_goes_under_the_draw_pile() -> None:
    """Seed 1 with cards 1..10 and 6 free cards: the first card not dealt is a
    free card; the open card is the next number, the free card goes last."""
    rules = Rules(high=10, hand_size=2, free_cards=6)
    deck = rules.deck()
    SplitMix64(1).shuffle(deck)
    assert deck[2] == F
    d = Deal.from_seed(1, 1, rules)
    assert d.open == 7
    assert d.draw[-1] == F and list(d.draw[:-1]) == deck[4:]


def test_z6_deal_json_round_trip() -> None:
    d = Deal.from_seed(5, 2, Rules(high=40, free_cards=2, hundred=HundredMode.PLAIN))
    assert Deal.from_dict(d.to_dict()) == d


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "twice"),
        (lambda d: d["hands"][0].pop(), "holds 6 cards"),
        (lambda d: d.__setitem__("open", "free"), "open card"),
        (lambda d: d.__setitem__("free", 3), "free cards"),
        (lambda d: d["draw"].__setitem__(0, 101), "not within"),
        (lambda d: d.__setitem__("players", 3), "players"),
    ],
)
def test_bad_deals_name_the_problem(change: Any, fragment: str) -> None:
    data = Deal.from_seed(1, 2).to_dict()
    change(data)
    with pytest.raises(InvalidInputError, match=fragment):
        Deal.from_dict(data)


# -- rule Z1 ------------------------------------------------------------------------


def test_z1_a_card_must_share_a_digit() -> None:
    d = mk([[12, 34]], 25, [7, 8])
    assert run(d, turn(1, 12)).legal
    assert illegal(d, turn(1, 34)) == ("Z1", 1, 1)


def test_z1_must_play_when_a_card_fits() -> None:
    d = mk([[12, 34]], 25, [7, 8])
    assert illegal(d, turn(1, draw=1))[0] == "Z1"


def test_z1_draw_one_and_play_it_at_once_if_it_fits() -> None:
    d = mk([[12, 34]], 56, [65, 8])
    r = run(d, turn(1, 65, draw=1))
    assert r.legal and r.state.open == 65 and sorted(r.state.hands[0]) == [12, 34]
    assert run(d, turn(1, draw=1)).legal  # may keep it
    d2 = mk([[12, 34]], 56, [8, 65])
    assert illegal(d2, turn(1, 8, draw=1)) == ("Z1", 1, 1)  # 8 does not fit 56
    assert illegal(d, turn(1, 12, draw=1))[0] == "Z1"  # only the drawn card


def test_z1_first_to_empty_the_hand_wins() -> None:
    d = mk([[12], [34]], 25, [7, 8])
    r = run(d, turn(1, 12))
    assert r.status == CentoStatus.WON and r.winner == 1
    assert illegal(d, turn(1, 12), turn(2, 34)) == ("Z1", 2, None)


def test_z1_players_take_turns() -> None:
    d = mk([[12], [34]], 25, [7, 8])
    assert illegal(d, turn(2, 34)) == ("Z1", 1, None)


def test_z1_every_player_passes_fewest_cards_wins() -> None:
    d = mk([[12, 33], [44, 47]], 25, [])
    r = run(d, turn(1, 12), turn(2), turn(1))
    assert r.status == CentoStatus.BLOCKED and r.winner == 1
    assert illegal(d, turn(1, 12), turn(2), turn(1), turn(2))[0] == "Z1"


def test_z1_tie_on_a_blocked_game_is_shared() -> None:
    d = mk([[11, 13], [14, 17]], 20, [])
    r = run(d, turn(1), turn(2))
    assert r.status == CentoStatus.BLOCKED and r.winner is None
    assert r.state.winners == (0, 1)


def test_z1_solo_pass_is_lost() -> None:
    d = mk([[11, 13]], 20, [])
    r = run(d, turn(1))
    assert r.status == CentoStatus.BLOCKED and r.state.winners == ()


# -- rule Z2 ------------------------------------------------------------------------


def test_z2_single_digit_binds_the_next_player() -> None:
    d = mk([[2, 40], [7, 37]], 23, [50, 60, 70, 80])
    assert illegal(d, turn(1, 2), turn(2, 37)) == ("Z2", 2, 1)
    r = run(d, turn(1, 2), turn(2, 7))
    assert r.legal and r.state.obliged  # player 1 is bound now


def test_z2_bound_player_draws_the_penalty_and_misses_the_turn() -> None:
    d = mk([[2, 40], [37, 38]], 23, [50, 60, 70, 80])
    r = run(d, turn(1, 2), turn(2, draw=3))
    assert r.legal and len(r.state.hands[1]) == 5 and not r.state.obliged
    assert illegal(d, turn(1, 2), turn(2, draw=1)) == ("Z2", 2, None)
    assert illegal(d, turn(1, 2), turn(2, 37, draw=3)) == ("Z2", 2, 1)


def test_z2_penalty_takes_what_is_left_of_the_pile() -> None:
    d = mk([[2, 40], [37, 38]], 23, [50])
    assert run(d, turn(1, 2), turn(2, draw=1)).legal


def test_z2_any_single_digit_fits_a_single_digit_open_card() -> None:
    d = mk([[2, 40], [37, 9]], 23, [50, 60, 70, 80])
    # after the penalty, player 1 plays normally: any single-digit card fits 2
    d2 = mk([[2, 5, 30], [37, 38, 39]], 23, [50, 60, 70, 80])
    assert run(d2, turn(1, 2), turn(2, draw=3), turn(1, 5)).legal
    assert run(d, turn(1, 2), turn(2, 9)).legal


def test_z2_solo_player_is_their_own_next_player() -> None:
    d = mk([[2, 42, 5]], 23, [50, 60, 70, 80])
    assert illegal(d, turn(1, 2), turn(1, 42)) == ("Z2", 2, 1)
    assert run(d, turn(1, 2), turn(1, 5)).legal


# -- rule Z3 ------------------------------------------------------------------------


def test_z3_repdigit_sheds_every_card_with_its_digit() -> None:
    d = mk([[55, 35, 57, 5, 12]], 25, [1, 2, 3])
    r = run(d, turn(1, 55, 35, 57, 5))
    assert r.legal and r.state.hands == ((12,),) and r.state.obliged  # ends single: Z2


def test_z3_only_a_repdigit_lets_the_player_go_on() -> None:
    d = mk([[25, 35, 57]], 26, [1, 2, 3])
    assert illegal(d, turn(1, 25, 35)) == ("Z3", 1, 2)


def test_z3_chain_cards_must_contain_the_digit() -> None:
    d = mk([[55, 35, 12]], 25, [1, 2, 3])
    assert illegal(d, turn(1, 55, 12)) == ("Z3", 1, 2)


def test_z3_chain_all_option_forces_every_card() -> None:
    d = mk([[55, 35, 57, 12]], 25, [1, 2, 3], chain_all=True)
    assert illegal(d, turn(1, 55, 35))[0] == "Z3"
    assert run(d, turn(1, 55, 57, 35)).legal


# -- rule Z4 ------------------------------------------------------------------------


def test_z4_free_card_named_must_fit() -> None:
    d = mk([[F, 40]], 23, [1, 2, 3])
    assert run(d, turn(1, (F, 35))).legal
    assert illegal(d, turn(1, (F, 45))) == ("Z4", 1, 1)
    assert illegal(d, turn(1, (F, 100))) == ("Z4", 1, 1)


def test_z4_named_repdigit_starts_a_chain_and_single_binds() -> None:
    d = mk([[F, 13, 34, 40]], 23, [1, 2, 3])
    r = run(d, turn(1, (F, 33), 13, 34))
    assert r.legal and r.state.hands == ((40,),)
    d2 = mk([[F, 40], [45, 46]], 2, [50, 60, 70])
    assert illegal(d2, turn(1, (F, 3)), turn(2, 45)) == ("Z2", 2, 1)


# -- rule Z5 ------------------------------------------------------------------------


def test_z5_trick_makes_every_other_player_draw() -> None:
    d = mk([[100, 12], [40, 45], [46, 47]], 23, [1, 2, 3, 4, 5, 6, 7])
    r = run(d, turn(1, 12, trick=True))
    assert r.legal and len(r.state.hands[1]) == 5 and len(r.state.hands[2]) == 5
    assert sorted(r.state.hands[1]) == [1, 2, 3, 40, 45]
    assert r.state.hands[0] == ()


def test_z5_the_100_is_never_laid_on_the_open_card() -> None:
    d = mk([[100, 12]], 10, [1, 2, 3])
    assert illegal(d, turn(1, 100)) == ("Z5", 1, 1)


def test_z5_treat_gives_immunity_from_z2() -> None:
    d = mk([[2, 20, 41], [100, 37, 38]], 24, [50, 60, 70, 80, 90, 91])
    turns = [turn(1, 20), turn(2, treat=True), turn(1, 2)]
    r = run(d, *turns)
    assert r.legal and r.state.immune[1]
    r2 = run(d, *turns, turn(2, draw=1))  # immune: Z1 applies, not Z2
    assert r2.legal and len(r2.state.hands[1]) == 3


def test_z5_bound_player_cannot_treat() -> None:
    d = mk([[2, 40], [100, 37]], 23, [50, 60, 70])
    assert illegal(d, turn(1, 2), turn(2, treat=True))[0] == "Z2"


def test_z5_plain_hundred_is_a_number_card() -> None:
    d = mk([[100, 40]], 51, [1, 2, 3], hundred=HundredMode.PLAIN)
    assert run(d, turn(1, 100)).legal
    assert illegal(d, turn(1, 40, trick=True)) == ("Z5", 1, None)


# -- hypothesis: random legal records and broken ones ------------------------------


def small_rules(rnd: random.Random) -> Rules:
    return Rules(
        high=rnd.choice([15, 20, 30, 100]),
        hand_size=rnd.randint(2, 4),
        free_cards=rnd.randint(0, 2),
        penalty=rnd.randint(0, 3),
        trick_draw=rnd.randint(0, 3),
        hundred=rnd.choice(list(HundredMode)),
        chain_all=rnd.random() < 0.2,
    )


def random_record(seed: int, players: int, length: int) -> Record:
    rnd = random.Random(seed)
    deal = Deal.from_seed(seed, players, small_rules(rnd))
    state = initial_state(deal)
    turns = []
    for _ in range(length):
        options = legal_turns(deal, state)
        if not options:
            break
        t, state = rnd.choice(options)
        turns.append(t)
    return Record(deal, tuple(turns))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 12))
def test_random_legal_records_replay(seed: int, players: int, length: int) -> None:
    record = random_record(seed, players, length)
    result = check(record)
    assert result.legal
    assert result.steps_ok == len(record.turns)
    again = Record.from_json(record.to_json())
    assert check(again).to_dict() == result.to_dict()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 10), st.integers(0, 2))
def test_broken_records_fail_at_the_broken_turn(
    seed: int, players: int, length: int, kind: int
) -> None:
    record = random_record(seed, players, length)
    turns = list(record.turns)
    if not turns:
        return
    k = random.Random(seed).randrange(len(turns))
    t = turns[k]
    if kind == 0:  # the wrong player
        bad = Turn(t.player % players + 1, t.plays, t.draw, t.trick, t.treat)
        if players == 1:
            bad = Turn(2, t.plays, t.draw, t.trick, t.treat)
    elif kind == 1:  # one card more drawn than the rules give
        bad = Turn(t.player, t.plays, t.draw + 1, t.trick, t.treat)
    else:  # a card nobody holds: the open card itself
        bad = Turn(t.player, (Play(record.deal.open), *t.plays), t.draw, t.trick)
    turns[k] = bad
    result = check(Record(record.deal, tuple(turns)))
    assert not result.legal
    assert result.error["turn"] == k + 1
    assert result.error["rule"] in {"Z1", "Z2", "Z3", "Z4", "Z5"}


def test_check_json_keeps_its_fields_in_order() -> None:
    """The shared ``CheckResult`` writes Cento's fields in their order, with
    the turns played and the draw pile left that the replay knows."""
    deal = mk([[12, 5]], 15, [33, 40])
    result = run(deal, turn(1, 12))
    data = result.to_dict()
    assert list(data) == [
        "legal", "error", "turns_played", "status", "winner", "winners",
        "cards_left", "hand_sizes", "hands", "open", "draw_left",
    ]  # fmt: skip
    assert data["turns_played"] == result.steps_ok == 1 and data["draw_left"] == 2
    assert data["cards_left"] == 1 == result.cards_left and data["hand_sizes"] == [1]
    assert data["open"] == 12
    assert data["error"] is None and result.reason is None and result.winner is None
