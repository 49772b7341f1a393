"""The hint of a real game (``analysis/the_game/hidden_hint.py``) reads only
what the player to move knows."""

from __future__ import annotations

import random

import pytest

from thegame.analysis.the_game.hidden_hint import blind_hint, blind_hint_covers
from thegame.models.the_game import Deal, GameState, get_rules, small_rules


def _with_hidden_shuffled(deal: Deal, rng: random.Random) -> Deal:
    """The same deal for player 1: their hand kept, every other card (the
    other hands and the draw pile) in another order."""
    hand = deal.rules.hand_size(deal.players)
    deck = list(deal.deck)
    hidden = deck[hand:]
    rng.shuffle(hidden)
    return Deal.create(deal.rules, deal.players, [deck[:hand] + hidden], deal.first)


@pytest.mark.parametrize("players", [1, 3])
def test_the_hint_is_the_same_for_every_order_of_the_hidden_cards(players: int) -> None:
    rules = small_rules(high=30, hand=4)
    deal = Deal.from_seed(7, rules, players).with_first(1)
    rng = random.Random(1)
    base = blind_hint(GameState(deal), samples=8)
    assert 0 <= base.win_rate <= 1 and base.samples == 8
    assert len(base.plays) >= GameState(deal).turn_min and base.can_finish
    for _ in range(4):
        other = _with_hidden_shuffled(deal, rng)
        assert other.deck != deal.deck
        assert blind_hint(GameState(other), samples=8) == base


def test_the_hint_from_inside_a_turn_finishes_it_legally() -> None:
    state = GameState(Deal.from_seed(3, small_rules(high=30, hand=4), 1))
    first = blind_hint(state, samples=2).plays[0]
    state.play(first.card, first.pile)
    rest = blind_hint(state, samples=2)
    for p in rest.plays:
        state.play(p.card, p.pile)
    assert state.over or state.can_end_turn()


def test_what_the_blind_hint_covers() -> None:
    for name, covered in [
        ("classic", True),
        ("profi", True),
        ("profi-hard", True),
        ("on-fire", True),
        ("extreme", False),
        ("face-to-face", False),
    ]:
        state = GameState(Deal.from_seed(1, get_rules(name)))
        assert blind_hint_covers(state) is covered
        if not covered:
            with pytest.raises(ValueError, match="does not cover"):
                blind_hint(state, samples=1)


@pytest.mark.parametrize("players", [1, 2])
def test_the_strong_hint_is_blind_and_says_who_chose(players: int) -> None:
    from thegame.analysis.the_game.strong import Level

    rules = small_rules(high=30, hand=4)
    deal = Deal.from_seed(5, rules, players).with_first(1)
    rng = random.Random(2)
    base = blind_hint(GameState(deal), samples=8, level=Level.STRONG)
    assert base.can_finish and base.samples == 8
    if base.level is Level.STRONG:
        assert base.candidates > 1 and 0 < base.choice_playouts <= 2000
    else:  # one way to finish the turn: nothing to compare
        assert base.candidates == 1 and base.choice_playouts == 0
    for _ in range(3):
        other = _with_hidden_shuffled(deal, rng)
        assert blind_hint(GameState(other), samples=8, level=Level.STRONG) == base
