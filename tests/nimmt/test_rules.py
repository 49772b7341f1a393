"""6 nimmt! rules S1-S6: cards, placement, heads, the seeded deal, whole games."""

from __future__ import annotations

import pytest

from tests.support.nimmt import RandomTestPlayer
from thegame.models.errors import InvalidInputError
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.rules import (
    chooser,
    fewest_heads_row,
    heads,
    place_trick,
    row_for,
    row_heads,
)
from thegame.models.nimmt.state import play_game
from thegame.models.seeds import SplitMix64
from thegame.solver.nimmt.problem import place, to_slots


def never(player: int, rows: object) -> int:
    raise AssertionError("no choice expected")


def test_s1_deck_rows_and_hands() -> None:
    """Rule S1: 104 distinct cards, 4 row starters, 10 cards per player."""
    for players in range(2, 11):
        d = Deal.from_seed(7, players)
        cards = [*d.rows, *(c for h in d.hands for c in h)]
        assert len(d.rows) == 4
        assert all(len(h) == 10 for h in d.hands)
        assert len(set(cards)) == len(cards) == 4 + 10 * players
        assert all(1 <= c <= 104 for c in cards)


@pytest.mark.parametrize("players", [0, 1, 11])
def test_s1_player_count(players: int) -> None:
    """Rule S1: 2 to 10 players."""
    with pytest.raises(InvalidInputError, match="2 to 10"):
        Deal.from_seed(1, players)


def test_s2_cards_are_placed_lowest_first() -> None:
    """Rule S2: 41 and 45 both fit behind 40; 41 goes first, 45 behind it."""
    rows = ((10,), (20,), (30,), (40,))
    after, placed = place_trick(rows, [45, 41], never)
    assert after[3] == (40, 41, 45)
    assert [p.card for p in placed] == [41, 45]


def test_s2_order_decides_who_takes_the_sixth_card() -> None:
    """Rule S2 with S3: in a row of four, the higher of two cards is the sixth."""
    rows = ((1, 2, 3, 4), (50,), (60,), (70,))
    after, placed = place_trick(rows, [9, 8], never)
    assert after[0] == (9,)
    taken = {p.player: p.taken for p in placed}
    assert taken == {1: (), 0: (1, 2, 3, 4, 8)}


def test_s3_highest_row_end_below_the_card() -> None:
    """Rule S3: a card goes behind the highest row end below it."""
    after, _ = place_trick(((10,), (20,), (30,), (25,)), [27], never)
    assert after == ((10,), (20,), (30,), (25, 27))


def test_s3_sixth_card_takes_the_row() -> None:
    """Rule S3: a row of five is taken by the sixth card, which starts it anew."""
    rows = ((10, 11, 12, 13, 14), (50,), (60,), (70,))
    after, placed = place_trick(rows, [15], never)
    assert after[0] == (15,)
    assert placed[0].taken == (10, 11, 12, 13, 14)
    assert not placed[0].chose


def test_s3_card_below_every_row_chooses() -> None:
    """Rule S3: a card lower than every row end takes the row its player names."""
    rows = ((10,), (20, 21), (30,), (40,))
    assert chooser(rows, [5, 50]) == 0
    assert chooser(rows, [15, 50]) is None
    after, placed = place_trick(rows, [5, 50], lambda p, r: 1)
    assert after[1] == (5,)
    assert placed[0].taken == (20, 21) and placed[0].chose
    assert after[3] == (40, 50)


def test_s3_one_row_rule_everywhere() -> None:
    """Rule S3 is said once (``row_for``): on random tables its answer is the
    row with the highest end below the card, and the search's slot placement
    (``problem.place``, which the playouts use too) matches the rules
    engine's ``place_trick`` card for card: same rows, same heads taken."""
    rng = SplitMix64(58)
    for _ in range(300):
        deck = list(range(1, 105))
        rng.shuffle(deck)
        rows = tuple(tuple(sorted(deck[6 * i : 6 * i + 1 + rng.below(5)])) for i in range(4))
        card = deck[30]
        ends = [r[-1] for r in rows]
        below = [i for i, e in enumerate(ends) if e < card]
        assert row_for(ends, card) == (max(below, key=lambda i: ends[i]) if below else None)
        after, placed = place_trick(rows, [card], lambda p, r: fewest_heads_row(r))
        table = list(to_slots(rows))
        taken = place(table, card)
        assert tuple(table) == to_slots(after)
        assert taken == row_heads(placed[0].taken)


def test_s4_heads() -> None:
    """Rule S4: 55 -> 7, multiples of 11 -> 5, of 10 -> 3, of 5 -> 2, else 1."""
    assert heads(55) == 7
    assert [heads(c) for c in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [heads(c) for c in (10, 20, 50, 100)] == [3] * 4
    assert [heads(c) for c in (5, 15, 25, 95)] == [2] * 4
    assert [heads(c) for c in (1, 2, 12, 104)] == [1] * 4
    assert sum(heads(c) for c in range(1, 105)) == 171  # the printed deck's total


def test_fewest_heads_row_ties_to_lowest_number() -> None:
    """Decision: the default choice is the row with fewest heads, ties to the lowest."""
    assert fewest_heads_row(((55,), (1, 2), (3,), (4,))) == 2
    assert row_heads((1, 2)) == 2


def test_s6_seeded_deals_are_pinned() -> None:
    """Rule S6: SplitMix64(seed).shuffle([1..104]); rows = first 4 cards, then
    10 cards per player in seat order. Two seeds pinned forever."""
    d = Deal.from_seed(1, 4)
    assert d.rows == (32, 85, 11, 8)
    assert d.hands == (
        (5, 6, 20, 26, 37, 52, 60, 61, 88, 97),
        (3, 27, 49, 51, 56, 63, 65, 69, 100, 102),
        (9, 21, 22, 25, 46, 53, 68, 94, 96, 99),
        (13, 14, 19, 39, 40, 58, 72, 81, 84, 92),
    )
    d = Deal.from_seed(2026, 3)
    assert d.rows == (6, 79, 19, 22)
    assert d.hands == (
        (14, 17, 20, 47, 51, 54, 76, 84, 87, 93),
        (9, 11, 23, 36, 37, 38, 48, 86, 95, 101),
        (8, 10, 16, 39, 43, 45, 57, 63, 73, 92),
    )


def test_s6_rows_do_not_depend_on_the_player_count() -> None:
    """The row starters come first in the deck, so every table size shares them."""
    assert {Deal.from_seed(99, n).rows for n in range(2, 11)} == {Deal.from_seed(99, 2).rows}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_s5_game_ends_at_66(players: int) -> None:
    """Rule S5: rounds until a score reaches 66 after a round; the first round
    is ``Deal.from_seed(seed)``; the fewest points win."""
    game = play_game([RandomTestPlayer(p) for p in range(players)], seed=5)
    assert max(game.scores) >= 66
    assert game.rounds[0].deal == Deal.from_seed(5, players)
    totals = [0] * players
    for i, record in enumerate(game.rounds):
        assert max(totals) < 66, "the game went on after a score reached 66"
        result = replay(record)
        assert result.legal and result.status == "finished"
        totals = [a + b for a, b in zip(totals, result.heads, strict=True)]
        if i:
            assert record.deal != game.rounds[i - 1].deal
    assert tuple(totals) == game.scores
    shares = game.shares()
    assert sum(shares) == pytest.approx(1)
    assert all((s > 0) == (game.scores[p] == min(game.scores)) for p, s in enumerate(shares))


def test_s5_short_game_end_parameter() -> None:
    """Rule S5 with a lower end: the game stops after the first round that reaches it."""
    game = play_game([RandomTestPlayer(p) for p in range(4)], seed=3, end=1)
    assert len(game.rounds) == 1 and max(game.scores) >= 1
