"""The Mind's rules M1-M5: deals, the level referee (check) and the campaign."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.models.errors import IllegalMoveError, InvalidInputError
from thegame.models.mind import (
    Campaign,
    Deal,
    LevelStatus,
    Play,
    Record,
    Rules,
    Star,
    State,
    check,
    reward_after,
    with_reward,
)
from thegame.models.outcome import Status
from thegame.models.seeds import SplitMix64


def deal_of(*hands: list[int], high: int = 100) -> Deal:
    rules = Rules(len(hands), high)
    return Deal(rules, len(hands[0]), tuple(tuple(sorted(h)) for h in hands))


# -- rule M1: deck, levels, lives, stars ----------------------------------------------


@pytest.mark.parametrize(("players", "levels"), [(2, 12), (3, 10), (4, 8)])
def test_m1_levels_lives_and_stars_by_player_count(players: int, levels: int) -> None:
    rules = Rules(players)
    assert rules.levels == levels and rules.high == 100 and rules.official
    game = Campaign(rules, seed=5)
    assert (game.lives, game.stars, game.level) == (players, 1, 1)


@pytest.mark.parametrize("players", [1, 5])
def test_m1_only_two_to_four_players(players: int) -> None:
    with pytest.raises(InvalidInputError, match="2, 3 or 4 players"):
        Rules(players)


def test_m1_small_deck_caps_the_levels() -> None:
    assert Rules(3, high=12).levels == 4
    assert not Rules(3, high=12).official


def test_m1_caps_five_lives_three_stars() -> None:
    assert with_reward(3, 5, 1) == (5, 1)  # a life after level 3, capped at 5
    assert with_reward(5, 2, 3) == (2, 3)  # a star after level 5, capped at 3


# -- seeded deals (rule M2) --------------------------------------------------------------


def test_m2_seed_pins_are_frozen() -> None:
    """SplitMix64(seed).shuffle([1..100]); player 1 the first n cards, player 2 the next n."""
    assert Deal.from_seed(1, 3, 4).hands == (
        (29, 33, 36, 43),
        (4, 22, 82, 87),
        (17, 62, 64, 68),
    )
    assert Deal.from_seed(2, 2, 3).hands == ((54, 67, 80), (36, 44, 91))


@pytest.mark.parametrize(("seed", "players", "level"), [(0, 2, 12), (7, 3, 10), (99, 4, 8)])
def test_m2_seeded_deal_follows_the_stated_rule(seed: int, players: int, level: int) -> None:
    deck = list(range(1, 101))
    SplitMix64(seed).shuffle(deck)
    deal = Deal.from_seed(seed, players, level)
    for i, hand in enumerate(deal.hands):
        assert hand == tuple(sorted(deck[i * level : (i + 1) * level]))
        assert len(hand) == level  # rule M2: level n, n cards each


def test_m2_deal_json_round_trips_and_rejects_bad_hands() -> None:
    deal = Deal.from_seed(3, 4, 5)
    assert Deal.from_dict(deal.to_dict()) == deal
    data = deal.to_dict()
    data["hands"][0] = data["hands"][0][:-1]
    with pytest.raises(
        InvalidInputError,
        match=r"deal\.hands\[1\]: player 1 holds 4 cards; level 5 deals 5 to each \(rule M2\)",
    ):
        Deal.from_dict(data)
    data = deal.to_dict()
    data["hands"][1][0] = data["hands"][0][0]
    with pytest.raises(InvalidInputError, match="dealt twice"):
        Deal.from_dict(data)
    data = deal.to_dict()
    data["hands"][2][0] = 101
    with pytest.raises(InvalidInputError, match=r"not in 1\.\.100"):
        Deal.from_dict(data)
    with pytest.raises(InvalidInputError, match=r"level must be 1\.\.8"):
        Deal.from_seed(1, 4, 9)


# -- the referee: rules M2, M3, M4 -------------------------------------------------------


def test_m2_playing_in_order_clears_without_loss() -> None:
    state = State(deal_of([3, 40], [17, 90]))
    for player, card in [(1, 3), (2, 17), (1, 40), (2, 90)]:
        assert state.play(player, card) is None
    assert state.status is LevelStatus.CLEARED and state.lives_lost == 0
    assert state.pile == [3, 17, 40, 90]


def test_m2_a_card_not_held_is_illegal() -> None:
    state = State(deal_of([3, 40], [17, 90]))
    with pytest.raises(IllegalMoveError, match="rule M2: player 1 does not hold 17"):
        state.play(1, 17)


def test_m3_early_card_discards_every_lower_card_and_costs_a_life() -> None:
    """The booklet's example: 15 played while 11 is held elsewhere."""
    state = State(deal_of([28, 32], [15, 100], [11, 50]))
    collision = state.play(2, 15)
    assert collision is not None and collision.discarded == ((3, 11),)
    assert state.lives_lost == 1 and state.discarded == [11]
    state2 = State(deal_of([5, 8], [10, 60], [7, 50]))
    state2.play(2, 60)  # rule M3: every lower card, in every hand (the player's own 10 too)
    assert sorted(state2.discarded) == [5, 7, 8, 10, 50]
    assert state2.status is LevelStatus.CLEARED and state2.lives_lost == 1


def test_m4_star_discards_each_players_lowest() -> None:
    state = State(deal_of([5, 8], [10, 60], [7, 50]))
    assert state.star() == [(1, 5), (2, 10), (3, 7)]
    assert state.hands == [[8], [60], [50]] and state.stars_used == 1
    assert state.discarded == [5, 7, 10]


def test_m4_star_skips_empty_hands_and_is_illegal_when_cleared() -> None:
    state = State(deal_of([5], [10]))
    state.play(1, 5)
    assert state.star() == [(2, 10)]
    with pytest.raises(IllegalMoveError, match="M4"):
        state.star()
    with pytest.raises(IllegalMoveError, match="level is cleared"):
        state.play(2, 10)


def test_check_reports_fields_and_the_first_illegal_event() -> None:
    deal = deal_of([28, 32], [15, 100], [11, 50])
    ok = check(Record(deal, (Play(2, 15), Star(), Play(1, 32))))
    assert ok.to_dict() == {
        "legal": True,
        "status": "cleared",
        "lives_lost": 1,
        "discarded": [11, 28, 50, 100],
        "stars_used": 1,
        "error": None,
    }
    bad = check(Record(deal, (Play(3, 11), Play(1, 11), Play(2, 15))))
    assert bad.to_dict()["error"] == {
        "event": 2,
        "rule": "M2",
        "message": "player 1 does not hold 11",
    }
    assert bad.to_dict()["status"] == "in_progress" and not bad.legal


def test_record_json_round_trips_and_rejects_bad_events() -> None:
    record = Record(Deal.from_seed(4, 2, 2), (Star(), Play(1, 5)))
    assert Record.from_dict(record.to_dict()) == record
    for event, fragment in [
        ({"player": 3, "card": 5}, r"events\[1\]\.player: player must be 1\.\.2"),
        ({"player": 1, "card": 0}, r"events\[1\]\.card: card 0 is not in"),
        ({"star": False}, "star event"),
        ({"player": 1}, "an event is"),
        ({"player": "1", "card": 4}, "expected an integer"),
    ]:
        data = record.to_dict()
        data["events"] = [event]
        with pytest.raises(InvalidInputError, match=fragment):
            Record.from_dict(data)


# -- hypothesis: random legal and illegal events against an engine-free model -------------


@st.composite
def deals_and_events(draw: st.DrawFn) -> tuple[Deal, list[tuple[int, int] | None]]:
    players = draw(st.integers(2, 4))
    level = draw(st.integers(1, 4))
    cards = draw(st.permutations(range(1, 31)))[: players * level]
    hands = tuple(tuple(sorted(cards[i * level : (i + 1) * level])) for i in range(players))
    deal = Deal(Rules(players, 30), level, hands)
    events = draw(
        st.lists(
            st.one_of(st.none(), st.tuples(st.integers(1, players), st.integers(1, 30))),
            max_size=3 * players * level,
        )
    )
    return deal, events


@settings(max_examples=150, deadline=None)
@given(deals_and_events())
def test_m2_m3_m4_random_events_match_a_set_model(
    case: tuple[Deal, list[tuple[int, int] | None]],
) -> None:
    """Any event sequence: the referee agrees with a plain model of M2-M4 on sets."""
    deal, raw = case
    events = tuple(Star() if e is None else Play(*e) for e in raw)
    result = check(Record(deal, events))
    hands = [set(h) for h in deal.hands]
    lost, stars, discarded = 0, 0, []
    error = None
    for i, e in enumerate(events):
        if not any(hands) or (isinstance(e, Play) and e.card not in hands[e.player - 1]):
            error = i + 1  # events count from 1
            break
        if isinstance(e, Star):
            for h in hands:
                if h:
                    discarded.append(min(h))
                    h.discard(min(h))
            stars += 1
            continue
        hands[e.player - 1].discard(e.card)
        lower = [c for h in hands for c in h if c < e.card]
        if lower:
            lost += 1
            discarded += lower
            for h in hands:
                h.difference_update(lower)
    assert result.legal == (error is None)
    assert (result.error or {}).get("event") == error
    assert result.state.lives_lost == lost and result.state.stars_used == stars
    assert sorted(result.state.discarded) == sorted(discarded)
    assert result.status == ("in_progress" if any(hands) else "cleared")


# -- rule M5 and the campaign --------------------------------------------------------------


def test_m5_rewards_after_levels() -> None:
    assert [reward_after(n) for n in range(1, 11)] == [
        (0, 0), (0, 1), (1, 0), (0, 0), (0, 1), (1, 0), (0, 0), (0, 1), (1, 0), (0, 0),
    ]


def play_in_order(game: Campaign) -> None:
    """Clear the current level perfectly."""
    hands = game.current.hands
    for card in sorted(c for h in hands for c in h):
        player = next(i for i, h in enumerate(hands, 1) if card in h)
        game.play(player, card)


def test_m5_campaign_rewards_and_win() -> None:
    game = Campaign(Rules(4), seed=11)
    seen = []
    while game.status is Status.IN_PROGRESS:
        play_in_order(game)
        seen.append((game.level, game.lives, game.stars))
    assert game.status is Status.WON and game.level == 8
    # after level 2 a star, after 3 a life, after 5 a star, after 6 a life (rule M5)
    assert seen[:7] == [(2, 4, 1), (3, 4, 2), (4, 5, 2), (5, 5, 2), (6, 5, 3), (7, 5, 3),
                        (8, 5, 3)]
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.star()


def test_m3_m5_campaign_lost_at_once_when_the_last_life_goes() -> None:
    """Decision: the game is lost the moment the last life goes, mid-level too."""
    game = Campaign(Rules(2), seed=3)
    high = max(c for h in game.current.hands for c in h)  # level 1: the higher card first
    game.play(next(i for i, h in enumerate(game.current.hands, 1) if high in h), high)
    assert (game.level, game.lives, game.status) == (2, 1, Status.IN_PROGRESS)
    second = sorted(c for h in game.current.hands for c in h)[-2]
    game.play(next(i for i, h in enumerate(game.current.hands, 1) if second in h), second)
    assert game.lives == 0 and game.status is Status.LOST
    assert game.current.status is LevelStatus.IN_PROGRESS  # one card still in hand
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(1, 1)


def test_m4_campaign_star_costs_a_star_and_needs_one() -> None:
    game = Campaign(Rules(3), seed=8)
    game.star()  # level 1: every card goes, the level is cleared
    assert (game.level, game.stars, game.lives) == (2, 0, 3)
    with pytest.raises(IllegalMoveError, match="no throwing star left"):
        game.star()
