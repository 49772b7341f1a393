"""A completed loss proof in words (a solution's ``proof``)."""

from __future__ import annotations

from ...models.the_game.notation import plural
from .arguments import LossBound
from .budget import SearchStats


def loss_proof(
    starts: str,
    floor: int,
    stats: SearchStats,
    best: int,
    optimal: bool,
    lower: int,
    opt_nodes: int,
    argument: LossBound | None = None,
) -> str:
    """The kind of a completed loss proof, from ``starts`` (``floor`` > 0:
    the graph bounds, or the loss ``argument``, proved it before any search)."""
    if floor > 0 and argument is not None:
        proof = (
            f"no perfect clear: the {argument.kind.value} argument from {starts}: {argument.why}"
        )
    elif floor > 0:
        proof = (
            f"no perfect clear: the graph bounds (dead cards, fire covers) leave at least "
            f"{plural(floor, 'card')} from {starts}"
        )
    else:
        proof = (
            f"no perfect clear: exhaustive search from {starts}, {stats.dead_positions} "
            f"positions proven dead ({stats.dead_card_cuts} by the dead-card bound"
        )
        if stats.stuck_cuts:
            proof += f", {stats.stuck_cuts} by a later player stuck"
        proof += ")"
        if stats.dominated:
            proof += f", {stats.dominated} more by dominance between positions"

    if optimal:
        proof += f"; {best} left is the fewest possible: branch and bound on cards left"
        proof += f" ({opt_nodes} nodes)"
    else:
        proof += f"; fewest cards left not proven: at least {lower}, best found {best}"
    return proof
