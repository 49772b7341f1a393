"""The rules of The Game family: cards, rules presets, deals, states, moves, records."""

from .deal import Deal
from .errors import IllegalMoveError, InvalidInputError, ThegameError
from .record import CheckResult, Record, Turn, replay
from .rules import COMMAND_KINDS, PRESETS, Rules, get_rules, small_rules
from .seeds import SplitMix64
from .state import IN_PROGRESS, LOST, WON, GameState, Play, is_ascending, pile_index, pile_name

__all__ = [
    "COMMAND_KINDS",
    "IN_PROGRESS",
    "LOST",
    "PRESETS",
    "WON",
    "CheckResult",
    "Deal",
    "GameState",
    "IllegalMoveError",
    "InvalidInputError",
    "Play",
    "Record",
    "Rules",
    "SplitMix64",
    "ThegameError",
    "Turn",
    "get_rules",
    "is_ascending",
    "pile_index",
    "pile_name",
    "replay",
    "small_rules",
]
