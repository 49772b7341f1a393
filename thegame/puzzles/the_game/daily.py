"""The daily puzzle of a date (``daily``): ``d`` = days from 2000-01-01 to the
date (negative before). A SplitMix64 generator (the one behind ``--seed``)
with state ``d`` (mod 2^64) gives the seeds, each its next output shifted
right by 11 bits (53-bit numbers, exact in any JSON reader), tried in order
until one makes a puzzle. The variant is ``profi`` on Saturdays,
``on-fire`` on Sundays and ``classic`` on the other days.

A second stream, ``extreme`` (``daily(day, "extreme")``), gives an Extreme
puzzle (rules X) every day: the same, but the generator's state is ``d``
XOR ``EXTREME_SALT``, so that its seeds (and with them its decks) are not
those of the default stream; the default stream is unchanged by it.

A third, ``face-to-face`` (``daily(day, "face-to-face")``), gives a Face to
Face endgame every day (``duel.make_duel_puzzle``): the generator's state
is ``d`` XOR ``DUEL_SALT``, its seeds tried in order up to
``DUEL_ATTEMPTS``. The web app serves the first two streams.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

from ...models import InvalidInputError, SplitMix64
from ...models.the_game import get_rules, variants
from .files import Puzzle, PuzzleError
from .make import make_puzzle

EPOCH = dt.date(2000, 1, 1)
MAX_ATTEMPTS = 10_000
# The daily streams beside the default one, by variant.
STREAMS: tuple[str, ...] = variants.streams(variants.Daily.SERVED)
# Every stream of ``thegame daily --variant`` (the web app serves ``STREAMS``).
DUEL_STREAM = "face-to-face"
CLI_STREAMS: tuple[str, ...] = variants.streams(variants.Daily.SERVED, variants.Daily.CLI)
# XORed into the day number for the duel stream: "Duel" in ASCII.
DUEL_SALT = int.from_bytes(b"Duel", "big")
# A duel seed makes a puzzle about one time in two; each costs seconds.
DUEL_ATTEMPTS = 200
# XORed into the day number for the extreme stream: "Extreme" in ASCII.
EXTREME_SALT = int.from_bytes(b"Extreme", "big")


def daily_variant(day: dt.date) -> str:
    """``profi`` on Saturdays, ``on-fire`` on Sundays, else ``classic``."""
    return {6: "profi", 7: "on-fire"}.get(day.isoweekday(), "classic")


def daily_plan(day: dt.date, stream: str | None = None) -> tuple[str, Iterator[int]]:
    """The variant and the seeds to try for ``day`` in the default stream
    (``stream`` None) or in one of ``STREAMS``."""
    # Days before the epoch are negative: taken modulo 2^64, as they always were.
    state = (day - EPOCH).days % (1 << 64)
    if stream is None:
        variant = daily_variant(day)
    elif stream == "extreme":
        variant = "extreme"
        state ^= EXTREME_SALT
    elif stream == DUEL_STREAM:
        variant = DUEL_STREAM
        state ^= DUEL_SALT
    else:
        raise InvalidInputError(
            f"no daily stream {stream!r} (streams: {', '.join(CLI_STREAMS)})", "--variant"
        )
    rng = SplitMix64(state)

    def seeds() -> Iterator[int]:
        while True:
            yield rng.next() >> 11

    return variant, seeds()


def daily(
    day: dt.date, progress: Callable[[int], None] | None = None, stream: str | None = None
) -> Puzzle:
    """The puzzle of ``day`` in the default stream or in ``stream`` (see the
    module notes)."""
    variant, seeds = daily_plan(day, stream)
    rules = get_rules(variant)
    attempts = DUEL_ATTEMPTS if variant == DUEL_STREAM else MAX_ATTEMPTS
    for attempt, seed in enumerate(seeds):
        if attempt >= attempts:
            break
        if progress is not None:
            progress(attempt)
        if variant == DUEL_STREAM:
            from .duel import make_duel_puzzle

            puzzle = make_duel_puzzle(seed)
        else:
            puzzle = make_puzzle(seed, rules)
        if puzzle is not None:
            puzzle.date = day.isoformat()
            return puzzle
    raise PuzzleError(f"no puzzle found in {attempts} seeds", day.isoformat())
