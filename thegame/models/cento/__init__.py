"""Cento game 2 ("Das große Ziffernspiel"): rules, seeded deal, the position and
its turns, records and the referee."""

from .deal import Deal
from .record import Record, check
from .rules import FREE, CentoStatus, HundredMode, Rules
from .state import Play, State, Turn, TurnBuilder, apply_turn, initial_state, legal_turns

__all__ = [
    "FREE",
    "CentoStatus",
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
