"""Cento game 2 ("Das große Ziffernspiel"): rules, seeded deal, the position and
its turns, records and the referee."""

from .deal import Deal
from .record import CheckResult, Record, check
from .rules import FREE, CentoStatus, HundredMode, Rules
from .state import Play, State, Turn, TurnBuilder, apply_turn, initial_state, legal_turns

# The names before every game's room had the same class names, kept for the
# callers not yet moved to the new ones.
CentoDeal = Deal
CentoPlay = Play
CentoRecord = Record
CentoRules = Rules
CentoState = State
CentoTurn = Turn

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
    "Deal",
    "HundredMode",
    "Play",
    "Record",
    "Rules",
    "State",
    "Turn",
    "TurnBuilder",
    "apply_turn",
    "check",
    "initial_state",
    "legal_turns",
]
