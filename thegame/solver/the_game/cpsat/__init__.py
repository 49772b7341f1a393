"""A second, independent exact engine: a CP-SAT model of a known-order deal.

Covers the classic family with 1-5 players, with or without fire cards
(rules F1-F4, when fire is safe at a perfect clear), but not commands:
``classic``, ``profi``, ``profi-hard``, ``on-fire`` and their generalised
forms (rule C10). It shares nothing with the search (``dfs``) but the form
of its line, and every line it reports is replayed through the rules
engine, so a verdict confirmed by both engines is confirmed twice.

The model is time-indexed over play slots (slot s is the s-th card played)
and maximises the cards played. It is made of small constraint modules,
each adding its variables and constraints to one ``Model`` with one
function, ``add(m)``, and each testable on its own; ``compose.build`` adds
them in this order:

- ``cards``: which card each slot holds, each card at most once, the
  filled slots a prefix; with it, slot by slot, ``hand`` (C2, C6: a card
  is played only once drawn);
- ``turns``: turn ends and starts, minimum (C4, P1), whole turns only (C8)
  and the longest useful turn (turn splitting);
- ``piles``: tops and placement (C1, C5), pile symmetry;
- ``order``: one order for plays that commute;
- ``players``: whose turn each slot is in, ownership, skipping (C3, C6, C7);
- ``fire``: fire deadlines (F2-F4);
- ``objective``: the cards played.

``shape`` holds the deal as the model sees it and the sound shortcuts'
arguments; ``hint`` brings a line (e.g. the search's) into the model's
form; ``stage`` runs CP-SAT once; ``solve`` grows the horizon, decides and
checks the verdict. Only proven statuses count as proofs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compose import build
    from .hint import canonical, hint_values, line_turns, normalise, turns_actions
    from .model import Model
    from .shape import ENGINE, Shape, check_supported
    from .solve import FIRST_HORIZON, grow, solve_cpsat
    from .stage import Stage, run

# Each name and its module, imported on first use (no name is also a
# module's: the import system would bind the module in its place): OR-Tools takes a few
# tenths of a second to load, and ``check_supported`` (which needs only
# ``shape``) is asked of every deal, most never solved by CP-SAT.
_HOME = {
    "build": "compose",
    "canonical": "hint",
    "hint_values": "hint",
    "line_turns": "hint",
    "normalise": "hint",
    "turns_actions": "hint",
    "Model": "model",
    "ENGINE": "shape",
    "Shape": "shape",
    "check_supported": "shape",
    "FIRST_HORIZON": "solve",
    "grow": "solve",
    "solve_cpsat": "solve",
    "Stage": "stage",
    "run": "stage",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)


__all__ = [
    "ENGINE",
    "FIRST_HORIZON",
    "Model",
    "Shape",
    "Stage",
    "build",
    "canonical",
    "check_supported",
    "grow",
    "hint_values",
    "line_turns",
    "normalise",
    "run",
    "solve_cpsat",
    "turns_actions",
]
