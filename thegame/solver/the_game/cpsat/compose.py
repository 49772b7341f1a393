"""``build``: the whole CP-SAT model, the constraint modules in their order."""

from __future__ import annotations

from . import cards, fire, hand, objective, order, piles, players, turns
from .model import Model, new
from .shape import Shape


def build(shape: Shape, horizon: int | None = None, clear: bool = False) -> Model:
    """The whole model over the first ``horizon`` slots (default: all N).

    With a horizon K < N the model plays at most K cards: its optimum is
    the most cards a line of complete turns within K slots plays (see
    ``Shape.settled``). ``clear`` fixes every slot filled (the
    perfect-clear question; only with the full horizon).
    """
    m = new(shape, horizon, clear)
    # The hand rule is added slot by slot inside the cards module's loop:
    # that is where it has always been, and it keeps the model identical.
    cards.add(m, per_slot=hand.add_at)
    turns.add(m)
    piles.add(m)
    order.add(m)
    players.add(m)
    fire.add(m)
    objective.add(m)
    return m
