"""The variants of The Game, each declared once with what it supports:
served by the web app, its daily puzzle stream, the survey, solo puzzles,
a duel, command cards. Every list of variants (the server's, the
survey's, the puzzle maker's, the daily streams, the pages' menus and the
error messages naming them) is made from here, so adding a preset is one
entry here and one in ``rules.PRESETS``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..errors import InvalidInputError
from .rules import PRESETS, Rules


class Daily(StrEnum):
    """A variant's daily puzzle stream."""

    NONE = "none"
    DEFAULT = "default"  # the stream when none is named (the web app's too)
    SERVED = "served"  # a stream of its own, on the command line and the web app
    CLI = "cli"  # a stream of its own, on the command line only


@dataclass(frozen=True)
class Variant:
    name: str
    title: str  # as a page or a help text names it
    served: bool  # the web app plays and solves it
    daily: Daily
    survey: bool  # 'thegame survey' runs it (its deals are decided exactly)
    puzzles: bool  # 'thegame generate' makes solo puzzles of it
    duel: bool  # two players against each other (Face to Face)
    commands: bool  # command cards (Extreme, rule X1)

    @property
    def rules(self) -> Rules:
        return PRESETS[self.name]


VARIANTS: tuple[Variant, ...] = (
    Variant("classic", "The Game", served=True, daily=Daily.DEFAULT, survey=True, puzzles=True,
            duel=False, commands=False),
    Variant("profi", "Profi", served=True, daily=Daily.NONE, survey=True, puzzles=True,
            duel=False, commands=False),
    Variant("profi-hard", "Profi (hard)", served=True, daily=Daily.NONE, survey=True,
            puzzles=False, duel=False, commands=False),
    Variant("on-fire", "On Fire", served=True, daily=Daily.NONE, survey=True, puzzles=True,
            duel=False, commands=False),
    Variant("extreme", "Extreme", served=True, daily=Daily.SERVED, survey=False, puzzles=True,
            duel=False, commands=True),
    Variant("face-to-face", "Face to Face", served=False, daily=Daily.CLI, survey=False,
            puzzles=False, duel=True, commands=False),
)  # fmt: skip
BY_NAME = {v.name: v for v in VARIANTS}
# The variant when none is named: the one whose daily stream is the default.
DEFAULT: str = next(v.name for v in VARIANTS if v.daily is Daily.DEFAULT)


def variant(name: str) -> Variant:
    """The variant called ``name`` (``InvalidInputError`` naming them all)."""
    try:
        return BY_NAME[name]
    except KeyError:
        known = ", ".join(BY_NAME)
        raise InvalidInputError(f"unknown variant {name!r} (known: {known})", "variant") from None


def names(**wanted: bool) -> tuple[str, ...]:
    """The variants with every capability given, ``names(served=True)``."""
    return tuple(v.name for v in VARIANTS if all(getattr(v, k) == w for k, w in wanted.items()))


def streams(*kinds: Daily) -> tuple[str, ...]:
    """The variants whose daily stream is one of ``kinds``."""
    return tuple(v.name for v in VARIANTS if v.daily in kinds)
