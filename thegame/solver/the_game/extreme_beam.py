"""Extreme (rules X): the beam over whole turns, then the complete search.

As ``beam.TurnSearcher`` does for the classic solo game, the beam ranks
whole turns (all command-keeping turn results the kernel lists, ``ExtremeKernel.
extreme_turns``) and keeps the ``w`` best positions per turn; it is
incomplete and proves nothing but a win it finds. Here for 1-5 players:
each turn is the player to move's, so the beam simply follows the seat
order. What the beam proves nothing about, the play-level
limited-discrepancy search (``dfs.Searcher``, complete) decides.
"""

from __future__ import annotations

from .beam import TurnSearcher
from .dfs import Searcher
from .extreme_kernel import ExtremeKernel
from .kernel import INF, TurnOption


class ExtremeBeamSearcher(TurnSearcher):
    """The turn beam over an ``ExtremeKernel``, then the play-level search."""

    fire_ok = True

    def __init__(self, *args: object, **kwargs: object) -> None:
        Searcher.__init__(self, *args, **kwargs)  # type: ignore[arg-type]
        if not isinstance(self.k, ExtremeKernel):
            raise ValueError("the Extreme beam needs the Extreme kernel")
        self.branch = 4
        self.per_parent = 16
        self.extra_cost = 0
        self.beam_widths = (1, 4, 16, 64, 256)
        if self.k.total - self.k.pos <= 24:
            self.beam_widths = (1, 8)

    def _dfs(self, allowance: int) -> int:
        return Searcher._dfs(self, allowance)

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        k = self.k
        assert isinstance(k, ExtremeKernel)
        return k.extreme_turns(branch, longest, extra_cost)
