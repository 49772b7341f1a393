"""Rules as data: one frozen ``Rules`` per variant, presets looked up by name.

Rule ids refer to the rulebook, ``docs/rules/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from ..errors import InvalidInputError


class Command(StrEnum):
    """An Extreme command kind (rule X1), in the fixed order used everywhere;
    the value is its JSON and notation spelling (``37=stop``)."""

    STOP = "stop"  # X3a
    SKULL = "skull"  # X3b
    THREE = "three"  # X3c
    NO_TRICK = "no-trick"  # X4a
    ONE_PILE = "one-pile"  # X4b
    DRAW_ONE = "draw-one"  # X4c
    NO_TALK = "no-talk"  # X4d


COMMAND_KINDS: tuple[Command, ...] = tuple(Command)
COMMANDS_PER_KIND = 4  # rule X1: 7 kinds, 4 cards each


class GameKind(StrEnum):
    """The family a variant belongs to: the cooperative game and its
    variants (C, P, F, X) or Face to Face (D)."""

    CLASSIC = "classic"
    DUEL = "duel"


class TurnKind(StrEnum):
    """Which rules shape a turn, each with its own state class (and search
    kernel): classic (C, P, F), Extreme (X) or the duel (D)."""

    CLASSIC = "classic"
    EXTREME = "extreme"
    DUEL = "duel"



@dataclass(frozen=True)
class Rules:
    """Parameters of one variant (rule C10: the official game is one preset).

    ``kind`` is the family: the cooperative game and its variants, or
    Face to Face (rules D1-D6).
    """

    name: str
    kind: GameKind = GameKind.CLASSIC
    low: int = 2  # C1: lowest card
    high: int = 99  # C1: highest card
    asc_piles: int = 2  # C1
    desc_piles: int = 2  # C1
    step: int = 10  # C5: the backward trick is exactly this far
    # C2: hand size by number of players (index 0 = one player).
    hand_sizes: tuple[int, ...] = (8, 7, 6, 6, 6)
    min_play: int = 2  # C4 / P1: minimum while the draw pile has cards
    min_play_empty: int = 1  # C4: minimum once the draw pile is empty
    min_play_rule: str = "C4"  # the rule id a too-short turn breaks (P1 in Profi)
    fire_cards: frozenset[int] = field(default_factory=frozenset)  # F1
    fire_safe_at_clear: bool = True  # F3 decision
    commands: bool = False  # X1: cards may carry commands
    min_players: int = 1
    max_players: int = 5

    @property
    def turn_kind(self) -> TurnKind:
        """Which rules shape a turn (each has its own state class)."""
        if self.kind is GameKind.DUEL:
            return TurnKind.DUEL
        return TurnKind.EXTREME if self.commands else TurnKind.CLASSIC

    @property
    def is_duel(self) -> bool:
        return self.kind is GameKind.DUEL

    @property
    def cards(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def n_cards(self) -> int:
        return self.high - self.low + 1

    @property
    def n_piles(self) -> int:
        """Piles on the table (duel: both players' piles)."""
        per = self.asc_piles + self.desc_piles
        return 2 * per if self.kind is GameKind.DUEL else per

    @property
    def asc_start(self) -> int:
        return self.low - 1

    @property
    def desc_start(self) -> int:
        return self.high + 1

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        return self.hand_sizes[players - 1]

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                allowed = str(self.min_players)
            else:
                allowed = f"{self.min_players}-{self.max_players}"
            raise InvalidInputError(
                f"{self.name} is for {allowed} {'player' if allowed == '1' else 'players'}, "
                f"not {players}",
                "players",
            )

    def with_changes(self, **changes: object) -> Rules:
        return replace(self, **changes)  # type: ignore[arg-type]


def _duel() -> Rules:
    # D1: each player has cards 2..59, an ascending pile from 1 and a
    # descending pile from 60; hand 6; D2: at least 2 cards, always.
    return Rules(
        name="face-to-face",
        kind=GameKind.DUEL,
        low=2,
        high=59,
        asc_piles=1,
        desc_piles=1,
        hand_sizes=(6, 6),
        min_play=2,
        min_play_empty=2,
        min_play_rule="D2",
        min_players=2,
        max_players=2,
    )


PRESETS: dict[str, Rules] = {
    "classic": Rules(name="classic"),
    "profi": Rules(name="profi", min_play=3, min_play_rule="P1"),
    "profi-hard": Rules(
        name="profi-hard", min_play=3, min_play_rule="P1", hand_sizes=(7, 6, 5, 5, 5)
    ),  # P2
    "on-fire": Rules(name="on-fire", fire_cards=frozenset({22, 33, 44, 55, 66, 77})),  # F1
    "extreme": Rules(name="extreme", commands=True),  # X1
    "face-to-face": _duel(),
}


def get_rules(name: str) -> Rules:
    """The preset called ``name`` (``InvalidInputError`` if unknown)."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise InvalidInputError(f"unknown variant {name!r} (known: {known})", "variant") from None


# Fields a deal may override on its preset (rule C10), with JSON names.
OVERRIDABLE: tuple[str, ...] = (
    "low",
    "high",
    "asc_piles",
    "desc_piles",
    "step",
    "hand_sizes",
    "min_play",
    "min_play_empty",
    "fire_cards",
)
# Bounds on generalised parameters: beyond them a game is no longer a
# variant of The Game but a way to make the engine allocate without end.
MAX_CARD = 1000
MAX_PILES = 8
MAX_MIN_PLAY = 20


def overrides_of(rules: Rules) -> dict[str, object]:
    """The generalised parameters where ``rules`` differs from its preset."""
    base = get_rules(rules.name)
    out: dict[str, object] = {}
    for key in OVERRIDABLE:
        value = getattr(rules, key)
        if value != getattr(base, key):
            if isinstance(value, frozenset):
                out[key] = sorted(value)
            elif isinstance(value, tuple):
                out[key] = list(value)
            else:
                out[key] = value
    return out


def small_rules(
    high: int = 20,
    asc_piles: int = 1,
    desc_piles: int = 1,
    hand: int = 3,
    min_play: int = 2,
    step: int = 10,
) -> Rules:
    """A small generalised classic game (rule C10), for exhaustive tests."""
    return PRESETS["classic"].with_changes(
        high=high,
        asc_piles=asc_piles,
        desc_piles=desc_piles,
        hand_sizes=(hand,) * 5,
        min_play=min_play,
        step=step,
    )
