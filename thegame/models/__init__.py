"""The rules of every game, one room per game, and what the games share.

Shared here: errors (``errors``), the frozen seed generator (``seeds``), named
outcomes and the budget every engine takes (``outcome``). The games' rooms:
``the_game`` (The Game family), then ``mind``, ``nimmt``, ``cento``.
"""

from .errors import IllegalMoveError, InvalidInputError, ThegameError
from .outcome import NO_LIMIT, Backend, Limit, OutOfBudget, Status, Verdict
from .seeds import SplitMix64

__all__ = [
    "NO_LIMIT",
    "Backend",
    "IllegalMoveError",
    "InvalidInputError",
    "Limit",
    "OutOfBudget",
    "SplitMix64",
    "Status",
    "ThegameError",
    "Verdict",
]
