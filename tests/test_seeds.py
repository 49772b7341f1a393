"""The seeded shuffle is frozen forever: ``--seed N`` must mean the same deal on
every machine and every version. These literals were recorded once; if one of
these tests fails, the shuffle changed - revert the change, do not update the
literals."""

from __future__ import annotations

from collections import Counter

import pytest

from thegame.models import InvalidInputError, SplitMix64
from thegame.models.the_game import COMMAND_KINDS, Deal, get_rules


def test_splitmix64_matches_the_published_reference_for_seed_0() -> None:
    # Steele, Lea, Flood 2014 / Vigna's splitmix64.c, seed 0.
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(5)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
        0x1B39896A51A8749B,
    ]


def test_splitmix64_matches_the_published_reference_for_seed_1234567() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        0x599ED017FB08FC85,
        0x2C73F08458540FA5,
        0x883EBCE5A3F27C77,
    ]


def test_splitmix64_refuses_seeds_outside_64_bits() -> None:
    # 2^64 + 5 used to wrap to the deal of seed 5 silently.
    SplitMix64((1 << 64) - 1)
    for seed in (1 << 64, 5 + (1 << 64), -1):
        with pytest.raises(InvalidInputError, match=r"outside 0\.\.2\^64-1"):
            SplitMix64(seed)


def test_splitmix64_shuffle_is_pinned() -> None:
    items = list(range(10))
    SplitMix64(0).shuffle(items)
    assert items == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]


def test_splitmix64_below_stays_in_range_and_is_deterministic() -> None:
    a, b = SplitMix64(99), SplitMix64(99)
    xs = [a.below(7) for _ in range(200)]
    assert xs == [b.below(7) for _ in range(200)]
    assert set(xs) == set(range(7))


SEED_1_CLASSIC = [
    7, 94, 52, 4, 19, 40, 49, 35, 8, 69, 86, 3, 99, 33, 84, 60, 97, 79, 77, 73,
    9, 23, 14, 48, 56, 31, 78, 11, 6, 68, 36, 67, 24, 91, 58, 82, 39, 47, 61, 98,
    44, 95, 59, 89, 20, 18, 81, 62, 5, 21, 76, 12, 38, 45, 55, 37, 41, 87, 92, 10,
    80, 65, 13, 74, 71, 51, 88, 30, 90, 63, 50, 15, 83, 57, 28, 43, 29, 42, 85, 16,
    22, 25, 66, 54, 64, 96, 27, 93, 70, 2, 26, 75, 34, 17, 72, 32, 46, 53,
]  # fmt: skip

SEED_42_CLASSIC = [
    28, 75, 17, 33, 63, 14, 10, 65, 29, 44, 78, 94, 7, 64, 42, 30, 37, 15, 73, 62,
    25, 31, 46, 4, 77, 48, 69, 99, 71, 79, 90, 22, 68, 97, 5, 86, 51, 52, 27, 34,
    82, 21, 16, 43, 24, 38, 18, 35, 70, 95, 84, 96, 98, 67, 26, 93, 19, 54, 80, 76,
    72, 3, 83, 23, 55, 13, 56, 47, 74, 45, 61, 39, 32, 66, 6, 11, 41, 88, 36, 9,
    2, 89, 60, 58, 12, 50, 87, 81, 85, 57, 92, 59, 53, 40, 91, 20, 8, 49,
]  # fmt: skip

SEED_7_EXTREME_COMMANDS = {
    4: "one-pile", 5: "draw-one", 16: "no-trick", 18: "stop", 24: "three",
    28: "skull", 29: "three", 33: "skull", 35: "stop", 37: "skull", 39: "skull",
    40: "stop", 43: "draw-one", 54: "stop", 61: "no-trick", 64: "one-pile",
    65: "no-trick", 69: "three", 73: "three", 77: "no-talk", 79: "no-trick",
    81: "one-pile", 87: "no-talk", 88: "draw-one", 91: "no-talk", 92: "draw-one",
    98: "no-talk", 99: "one-pile",
}  # fmt: skip

SEED_7_EXTREME_DECK_START = [65, 95, 22, 72, 74, 89, 47, 99, 58, 91, 25, 75, 40, 77, 16, 17]

SEED_3_FACE_TO_FACE = [
    [
        49, 28, 36, 16, 3, 57, 8, 32, 23, 35, 20, 46, 39, 6, 13, 42, 7, 58, 4, 18,
        25, 21, 48, 52, 31, 5, 2, 11, 27, 40, 50, 22, 45, 51, 37, 29, 24, 26, 15, 54,
        56, 30, 41, 34, 33, 55, 47, 59, 12, 44, 9, 14, 10, 38, 19, 43, 17, 53,
    ],
    [
        23, 10, 43, 41, 12, 6, 16, 36, 48, 54, 44, 8, 55, 39, 37, 19, 13, 5, 24, 26,
        34, 14, 38, 3, 11, 59, 22, 53, 2, 50, 4, 35, 47, 49, 20, 32, 33, 52, 56, 15,
        9, 29, 51, 31, 58, 17, 46, 42, 40, 27, 45, 7, 18, 28, 57, 30, 25, 21,
    ],
]  # fmt: skip


def test_seed_1_classic_deck_is_pinned() -> None:
    assert list(Deal.from_seed(1, get_rules("classic")).deck) == SEED_1_CLASSIC


def test_seed_42_classic_deck_is_pinned() -> None:
    assert list(Deal.from_seed(42, get_rules("classic")).deck) == SEED_42_CLASSIC


def test_seed_7_extreme_commands_are_pinned() -> None:
    deal = Deal.from_seed(7, get_rules("extreme"))
    assert dict(deal.commands) == SEED_7_EXTREME_COMMANDS
    assert list(deal.deck[:16]) == SEED_7_EXTREME_DECK_START
    # X1: 7 kinds, 4 cards each.
    assert Counter(SEED_7_EXTREME_COMMANDS.values()) == dict.fromkeys(COMMAND_KINDS, 4)


def test_seed_3_face_to_face_decks_are_pinned() -> None:
    deal = Deal.from_seed(3, get_rules("face-to-face"))
    assert [list(d) for d in deal.decks] == SEED_3_FACE_TO_FACE
    assert deal.players == 2


def test_seed_does_not_depend_on_player_count_or_first() -> None:
    # The deck is the shuffle; players and first only change how it is dealt.
    rules = get_rules("classic")
    for players in range(1, 6):
        assert list(Deal.from_seed(1, rules, players, first=players).deck) == SEED_1_CLASSIC


def test_extreme_deck_is_the_classic_shuffle_of_the_same_seed() -> None:
    # The commands are drawn after the deck, from the continued generator.
    assert (
        Deal.from_seed(7, get_rules("extreme")).deck == Deal.from_seed(7, get_rules("classic")).deck
    )


def test_seed_text_form_is_pinned() -> None:
    text = Deal.from_seed(1, get_rules("classic")).to_text()
    assert text == "classic 1p : " + " ".join(map(str, SEED_1_CLASSIC))


def test_negative_seed_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="seed must be >= 0"):
        Deal.from_seed(-1, get_rules("classic"))
