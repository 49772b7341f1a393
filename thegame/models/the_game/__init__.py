"""The Game family (classic, Profi, On Fire, Extreme, Face to Face): rules,
deals, placement (C5/D3/D4), the engine and records."""

from ..check import CheckResult
from . import placement
from .deal import Deal

# The variants' state classes register themselves with ``GameState``.
from .duel import DuelState
from .extreme import ExtremeState
from .record import Record, Turn, replay
from .rules import (
    COMMAND_KINDS,
    PRESETS,
    Command,
    GameKind,
    Rules,
    TurnKind,
    get_rules,
    small_rules,
)
from .state import GameState, Play, is_ascending, pile_index, pile_name

__all__ = [
    "COMMAND_KINDS",
    "PRESETS",
    "CheckResult",
    "Command",
    "Deal",
    "DuelState",
    "ExtremeState",
    "GameKind",
    "GameState",
    "Play",
    "Record",
    "Rules",
    "Turn",
    "TurnKind",
    "get_rules",
    "is_ascending",
    "pile_index",
    "pile_name",
    "placement",
    "replay",
    "small_rules",
]
