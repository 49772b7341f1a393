"""Loss arguments measured beside the solver's, kept as kernels the search can run.

``held_cards_loss`` (too many cards held at once, solo) is the solver's
held-cards bound without the order pairs, as a yes/no; ``HeldKernel`` and
``ArgumentKernel`` add it, or the solver's own turn-start arguments, as
cuts in the Python reference kernel. ``benchmarks/loss_arguments.py``
measures what they save; the tests check them against a brute force.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from .arguments import held_cards_bound, turn_start_bound
from .kernel import Kernel


def held_cards_loss(k: Kernel) -> bool:
    """Solo, at a turn start: too many cards must be held at once.

    Say s more cards have been played from here, at a turn start while the
    draw pile still has cards. Every card played so far, and every card of
    the turn that starts then, came from the cards drawn by then: the hand
    now and the next s cards of the draw pile (solo, a turn draws what it
    played). ``Kernel.reach`` over those cards alone bounds where the piles can
    be in that turn, so a card among them that no pile can take in that
    bound (a value region the draw pile reaches too late) is still in the
    hand and stays there through that turn. With ``stuck`` such cards, the
    turn plays at most hand - stuck cards and needs the minimum m: the
    turns that can start form a path 0 -> s + j, m <= j <= hand - stuck.
    If no path gets past the draw pile, no line clears. It is the solver's
    ``held_cards_bound`` without the order pairs.
    """
    return held_cards_bound(k, pairs=False) is not None


class HeldKernel(Kernel):
    """The reference kernel with ``held_cards_loss`` beside the dead-card bound."""

    def dead_card(self) -> bool:
        return super().dead_card() or held_cards_loss(self)


class ArgumentKernel(Kernel):
    """The reference kernel with the solver's turn-start loss arguments
    (``turn_start_bound``) as a cut beside the dead-card bound, at turn
    starts where neither the dead-card bound nor ``stuck_ahead`` fires
    (those keep their own counts); ``fired`` counts the cuts by kind."""

    fired: ClassVar[Counter[str]] = Counter()

    def dead_card(self) -> bool:
        if super().dead_card():
            return True
        if self.t != 0 or self.stuck_ahead():
            return False
        bound = turn_start_bound(self)
        if bound is None:
            return False
        ArgumentKernel.fired[bound.kind.value] += 1
        return True
