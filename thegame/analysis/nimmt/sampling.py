"""What a blind player does not see, drawn at random: the others' hands and orders."""

from __future__ import annotations

from ...models.nimmt.rules import HIGH, LOW
from ...models.nimmt.state import View
from ...models.seeds import SplitMix64

Sequences = tuple[tuple[tuple[int, int], ...], ...]
"""Per turn, the others' cards as (player, card)."""


def unseen(view: View) -> list[int]:
    """Cards this player has not seen: not on the table at the start, not
    revealed in a trick, not in its hand (ascending)."""
    return [c for c in range(LOW, HIGH + 1) if c not in view.seen and c not in view.hand]


def sample_sequences(rng: SplitMix64, view: View, turns: int, pool: list[int]) -> Sequences:
    """One guess at the rest of the round: the unseen cards shuffled, each
    other player holding ``turns`` of them, played in the shuffled order
    (every consistent deal and order equally likely)."""
    cards = list(pool)
    rng.shuffle(cards)
    others = [q for q in range(view.players) if q != view.player]
    return tuple(
        tuple((q, cards[i * turns + j]) for i, q in enumerate(others)) for j in range(turns)
    )
