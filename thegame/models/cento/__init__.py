"""Cento game 2 ("Das große Ziffernspiel"): rules, seeded deal, records and the referee."""

from .deal import CentoDeal
from .engine import CentoState, TurnBuilder, apply_turn, initial_state, legal_turns
from .record import CentoPlay, CentoRecord, CentoTurn
from .referee import CheckResult, check
from .rules import FREE, CentoRules, CentoStatus, HundredMode

__all__ = [
    "FREE",
    "CentoDeal",
    "CentoPlay",
    "CentoRecord",
    "CentoRules",
    "CentoState",
    "CentoStatus",
    "CentoTurn",
    "CheckResult",
    "HundredMode",
    "TurnBuilder",
    "apply_turn",
    "check",
    "initial_state",
    "legal_turns",
]
