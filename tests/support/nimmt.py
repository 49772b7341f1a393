"""Helpers for the 6 nimmt! tests: seeded random players and random records."""

from __future__ import annotations

import random

from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import Record
from thegame.models.nimmt.state import View, play_round


class RandomTestPlayer:
    """Plays a uniformly random card and takes a random row (seeded)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_card(self, view: View) -> int:
        return self.rng.choice(view.hand)

    def choose_row(self, view: View) -> int:
        return self.rng.randrange(4)


def random_record(seed: int, players: int) -> Record:
    """A legal finished round of ``Deal.from_seed(seed, players)`` with random play."""
    deal = Deal.from_seed(seed, players)
    return play_round(deal, [RandomTestPlayer(seed * 31 + p) for p in range(players)])
