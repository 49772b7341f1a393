"""The Mind (seed 003, rules M1-M6): rules, deals, level records and their referee."""

from ..check import CheckResult
from .campaign import Campaign
from .deal import GAME, Deal
from .record import Event, Play, Record, Star, check, event_from_dict
from .rules import (
    HIGH,
    LEVELS,
    MAX_LIVES,
    MAX_STARS,
    START_STARS,
    Rules,
    reward_after,
    with_reward,
)
from .state import Collision, LevelStatus, State

__all__ = [
    "GAME",
    "HIGH",
    "LEVELS",
    "MAX_LIVES",
    "MAX_STARS",
    "START_STARS",
    "Campaign",
    "CheckResult",
    "Collision",
    "Deal",
    "Event",
    "LevelStatus",
    "Play",
    "Record",
    "Rules",
    "Star",
    "State",
    "check",
    "event_from_dict",
    "reward_after",
    "with_reward",
]
