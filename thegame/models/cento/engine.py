"""Old home of the Cento rules engine, kept so callers still import; the
position and its turns now live in :mod:`.state` (``State`` was ``CentoState``)."""

from .state import (
    Phase,
    TurnBuilder,
    TurnError,
    apply_turn,
    initial_state,
    legal_turns,
)
from .state import State as CentoState

__all__ = [
    "CentoState",
    "Phase",
    "TurnBuilder",
    "TurnError",
    "apply_turn",
    "initial_state",
    "legal_turns",
]
