"""Blind-policy playouts over given orders of the hidden cards (reference)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...models.the_game import GameState
from .blind import BlindParams, BlindPolicy, play_out


def hidden_cards(state: GameState) -> list[int]:
    """The cards the player to move cannot see (other hands, the draw pile), sorted."""
    me = state.current
    return sorted([c for i, h in enumerate(state.hands) if i != me for c in h] + state.draw_pile())


def sample_orders(state: GameState, n: int, seed: int) -> list[list[int]]:
    """``n`` random orders of the hidden cards, from ``seed`` and the hidden set only."""
    rng = random.Random(seed)
    base = hidden_cards(state)
    out = []
    for _ in range(n):
        order = list(base)
        rng.shuffle(order)
        out.append(order)
    return out


def deal_hidden(state: GameState, order: Sequence[int]) -> GameState:
    """``state`` with its hidden cards dealt in ``order``: the other hands in
    player order take as many cards as they hold, the rest is the draw pile."""
    cards = list(order)
    new = state.copy()
    pos = 0
    for i, h in enumerate(state.hands):
        if i != state.current:
            new.hands[i] = set(cards[pos : pos + len(h)])
            pos += len(h)
    # copy() shares the stock lists: give the sample a list of its own.
    new.stocks = [list(state.stocks[0][: state.stock_pos[0]]) + cards[pos:]]
    return new


def arrangement(state: GameState) -> list[int]:
    """The order ``deal_hidden`` reads: ``deal_hidden(s, arrangement(s))`` is ``s``."""
    me = state.current
    cards = [c for i, h in enumerate(state.hands) if i != me for c in sorted(h)]
    return cards + state.draw_pile()


def playouts(
    state: GameState, orders: Sequence[Sequence[int]], params: BlindParams | None = None
) -> list[tuple[bool, int]]:
    """For each order: the hidden cards dealt in that order (other hands in
    player order, then the draw pile), the blind policy plays to the end."""
    policy = BlindPolicy(params) if params is not None else None
    results = []
    for order in orders:
        final = play_out(deal_hidden(state, order), policy)
        results.append((final.status == "won", final.cards_left()))
    return results


def backend() -> str:
    """Which implementation ``playouts`` uses."""
    return "python"
