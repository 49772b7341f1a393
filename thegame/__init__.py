"""thegame: an exact solver and puzzle analyzer for The Game and its family.

The library's front door (see the Library API page of the documentation)::

    import thegame
    deal = thegame.Deal.from_seed(1)                   # variant=..., players=...
    sol = thegame.solve(deal, thegame.Limit(time=10))  # .verdict .turns .cards_left .to_dict()
    thegame.explain(sol)                               # the line with its reasons
    thegame.analyze(thegame.load("game.json"))         # the annotated review
    thegame.daily("2026-12-01")                        # the puzzle of the day

The other games: :mod:`thegame.mind`, :mod:`thegame.nimmt`, :mod:`thegame.cento`.
Names are imported on first use, so ``import thegame`` stays cheap.
"""

from __future__ import annotations

import importlib

# Not ``typing`` (it loads ``re``): the console script's first lines, which
# make a Ctrl-C during start-up quiet, come right after this module.
TYPE_CHECKING = False
__version__ = "0.1.0"

if TYPE_CHECKING:
    from typing import Any

    from . import cento, mind, nimmt
    from .api.the_game import (
        NO_LIMIT,
        Deal,
        IllegalMoveError,
        InvalidInputError,
        Limit,
        Record,
        Status,
        Verdict,
        analyze,
        analyze_duel,
        check,
        daily,
        explain,
        hint,
        load,
        solve,
        solve_duel,
    )

__all__ = [
    "NO_LIMIT",
    "Deal",
    "IllegalMoveError",
    "InvalidInputError",
    "Limit",
    "Record",
    "Status",
    "Verdict",
    "__version__",
    "analyze",
    "analyze_duel",
    "cento",
    "check",
    "daily",
    "explain",
    "hint",
    "load",
    "mind",
    "nimmt",
    "solve",
    "solve_duel",
]
_GAMES = ("mind", "nimmt", "cento")


def __getattr__(name: str) -> Any:
    """Import a name of the API when it is first used (PEP 562)."""
    if name in _GAMES:
        return importlib.import_module(f".{name}", __name__)
    if name in __all__:
        return getattr(importlib.import_module(".api.the_game", __name__), name)
    raise AttributeError(f"module 'thegame' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
