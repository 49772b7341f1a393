"""The Mind (seed 003, rules M1-M6): rules, deals, level records and their referee."""

from .campaign import Campaign
from .deal import GAME, LevelDeal
from .level import Collision, LevelState, LevelStatus
from .record import CheckResult, Event, LevelRecord, Play, Star, check, event_from_dict
from .rules import (
    HIGH,
    LEVELS,
    MAX_LIVES,
    MAX_STARS,
    START_STARS,
    MindRules,
    reward_after,
    with_reward,
)

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
    "Event",
    "LevelDeal",
    "LevelRecord",
    "LevelState",
    "LevelStatus",
    "MindRules",
    "Play",
    "Star",
    "check",
    "event_from_dict",
    "reward_after",
    "with_reward",
]
