"""The odds of the standard campaigns whose count takes long, counted once.

``campaign_odds`` counts every deal of every level exactly; with 4 players
and a large tolerance that takes half a minute or more. The counts it gives
are integers that never change, so the slow ones are kept in
``odds_table.json`` beside this module (written by ``python -m
thegame.solver.mind.table``) and read back here; a pair the table lacks is
counted as before. ``tests/solver/test_mind_table.py`` counts the stored
levels again and compares.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ...models.mind import Rules
from .odds import LevelOdds, campaign_odds

TABLE = Path(__file__).with_name("odds_table.json")


@cache
def _stored() -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(TABLE.read_text())
    except FileNotFoundError:
        return {}
    return data


def _key(players: int, tolerance: int) -> str:
    return f"{players}/{tolerance}"


def stored_odds(rules: Rules, tolerance: int) -> dict[int, tuple[LevelOdds, LevelOdds]] | None:
    """The standard campaign's odds from the table, or None when it lacks them."""
    if not rules.official:
        return None
    entry = _stored().get(_key(rules.players, tolerance))
    if entry is None:
        return None
    out: dict[int, tuple[LevelOdds, LevelOdds]] = {}
    for level, pair in enumerate(entry, 1):
        plain, starred = (
            LevelOdds(
                rules.players,
                level,
                rules.high,
                tolerance,
                star,
                tuple(int(c) for c in counts["counts"]),
                int(counts["total"]),
            )
            for star, counts in zip((False, True), pair, strict=True)
        )
        out[level] = (plain, starred)
    return out


def campaign_odds_once(
    rules: Rules, tolerance: int, tick: Callable[[int], None] | None = None
) -> dict[int, tuple[LevelOdds, LevelOdds]]:
    """``campaign_odds``, read from the table when it holds them."""
    return stored_odds(rules, tolerance) or campaign_odds(rules, tolerance, tick)


def _entry(odds: dict[int, tuple[LevelOdds, LevelOdds]]) -> list[list[dict[str, Any]]]:
    # Counts as decimal strings: exact in any JSON reader.
    return [
        [{"counts": [str(c) for c in o.counts], "total": str(o.total)} for o in pair]
        for _, pair in sorted(odds.items())
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pairs", nargs="+", help="players/tolerance, e.g. 4/10")
    args = parser.parse_args()
    table = dict(_stored())
    for pair in args.pairs:
        players, tolerance = (int(x) for x in pair.split("/"))
        start = time.monotonic()
        odds = campaign_odds(Rules(players), tolerance)
        table[_key(players, tolerance)] = _entry(odds)
        TABLE.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n")
        print(f"{pair}: {time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
