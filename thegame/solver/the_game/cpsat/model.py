"""The model's record of variables (``compose.py`` composes the constraint
modules over it in a fixed order).

The model is time-indexed over play slots: over a horizon of K <= N slots,
slot s is the s-th card played. Four variables per slot are shared by every
module, so ``new`` makes them before any constraint:

- ``filled[s]``: slot s is played at all (the filled slots are a prefix);
- ``end[s]``: a turn ends after slot s, so slot b starts a turn when b = 0
  or ``end[b-1]`` (``Model.start``);
- ``tb[s]``: the slot at which the turn containing s started, i.e. the
  number of cards played before that turn;
- ``card[s]``: the value of the card in slot s (0 when the slot is empty).

Every constraint module has one contract, ``add(m)``: it adds its own
variables and constraints to ``m`` and reads only what earlier modules
made. So a test can build a model up to any module and ask CP-SAT what it
admits. ``build.build`` keeps the order the engine has always used, so the
CP-SAT model it produces is the same, variable for variable and
constraint for constraint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from .shape import Shape


@dataclass
class Model:
    """The CP-SAT model and its variables; a module leaves the fields it
    does not own as they are (empty until their module runs)."""

    shape: Shape
    horizon: int  # slots in the model
    model: cp_model.CpModel
    filled: list[cp_model.IntVar]
    end: list[cp_model.IntVar]
    tb: list[cp_model.IntVar]
    card: list[cp_model.IntVar]
    clear: bool = False  # every slot filled: the perfect-clear question
    playable: list[int] = field(default_factory=list)  # deck positions with variables
    x: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (position, slot)
    on: list[list[cp_model.IntVar]] = field(default_factory=list)  # [slot][pile]
    trick: list[list[cp_model.IntVar]] = field(default_factory=list)  # [slot][pile]
    top: list[list[cp_model.IntVar]] = field(default_factory=list)  # [pile][slot]: after it
    empty: dict[int, cp_model.IntVar] = field(default_factory=dict)  # its turn had no draw pile
    who: list[list[cp_model.IntVar]] = field(default_factory=list)  # [slot][player]
    cnt: list[list[cp_model.IntVar]] = field(default_factory=list)  # [player][slot]: played
    f1: list[list[cp_model.IntVar]] = field(default_factory=list)  # [pile][slot]: fire, this turn
    f2: list[list[cp_model.IntVar]] = field(default_factory=list)  # [pile][slot]: fire now due

    @property
    def start(self) -> list[cp_model.IntVar | int]:
        """Whether each slot starts a turn: slot 0 does, slot b after a turn end."""
        return [1, *self.end[:-1]]


def new(shape: Shape, horizon: int | None = None, clear: bool = False) -> Model:
    """A model over the first ``horizon`` slots (default: all N) with the
    slot variables only and no constraint yet."""
    sh = shape
    n = sh.n if horizon is None else min(horizon, sh.n)
    if clear and n != sh.n:
        raise ValueError("the perfect-clear model needs the full horizon")
    # Deck positions that can be played within the horizon.
    playable = [i for i in range(sh.n) if sh.earliest(i) < n]
    mdl = cp_model.CpModel()
    filled = [mdl.new_bool_var(f"filled{s}") for s in range(n)]
    end = [mdl.new_bool_var(f"end{s}") for s in range(n)]
    tb = [mdl.new_int_var(0, s, f"tb{s}") for s in range(n)]
    values = sorted(sh.deck[i] for i in playable)
    card = [
        mdl.new_int_var_from_domain(cp_model.Domain.from_values([0, *values]), f"card{s}")
        for s in range(n)
    ]
    return Model(sh, n, mdl, filled, end, tb, card, clear=clear, playable=playable)
