"""``thegame bench``: a fixed set of positions, each searched by its engine
within a node budget, so the total of nodes is the same on every run (as a
chess engine's bench) and the seconds measure the machine and the build."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..models import Limit
from ..models.cento import Deal as CentoDeal
from ..models.the_game import Deal, get_rules
from .cento.solo import solve_solo
from .cento.table import solve_table
from .the_game.api import solve as solve_deal

# Nodes each position may take: the searches stop there (or sooner, proven).
NODES = 200_000
SEEDS = range(1, 7)
THE_GAME = ("classic", "profi", "profi-hard", "on-fire", "extreme")


@dataclass(frozen=True)
class Row:
    """One engine over its positions."""

    engine: str
    positions: int
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "positions": self.positions,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 3)},
            "nodes_per_second": round(self.nodes / self.seconds) if self.seconds else None,
        }


def _the_game(variant: str) -> Callable[[int], int]:
    rules = get_rules(variant)

    def search(seed: int) -> int:
        return solve_deal(Deal.from_seed(seed, rules, 1), Limit(nodes=NODES)).nodes

    return search


def _cento(players: int) -> Callable[[int], int]:
    def search(seed: int) -> int:
        deal = CentoDeal.from_seed(seed, players)
        if players == 1:
            return int(solve_solo(deal, Limit(nodes=NODES)).to_dict()["stats"]["nodes"])
        return int(solve_table(deal, 1, Limit(nodes=NODES)).to_dict()["stats"]["nodes"])

    return search


ENGINES: dict[str, Callable[[int], int]] = {
    **{f"the game search, {v}": _the_game(v) for v in THE_GAME},
    "cento solo": _cento(1),
    "cento two players": _cento(2),
}


def bench(progress: Callable[[str], None] | None = None) -> list[Row]:
    """Every engine over its positions (seeds ``SEEDS``), in order."""
    rows = []
    for name, search in ENGINES.items():
        if progress is not None:
            progress(name)
        start = time.perf_counter()
        nodes = sum(search(seed) for seed in SEEDS)
        rows.append(Row(name, len(SEEDS), nodes, time.perf_counter() - start))
    return rows
