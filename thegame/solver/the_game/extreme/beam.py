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

from ..beam import TurnSearcher
from ..dfs import Node, Searcher
from ..kernel import INF, Kernel, TurnOption
from .kernel import ExtremeKernel

# Beam settings (the compiled search, ``ckernel.search``, takes them from
# here): plays tried at each step of a turn, plays beyond what the turn
# needs only at this cost or less, children kept per parent position.
BRANCH = 4
EXTRA = 0
PER_PARENT = 16
# The widths tried in turn; with a draw pile of at most SHORT_DRAW cards only
# the short list (the complete search is cheap there). Up to 16384 since
# the compiled kernel: on seeds 1101-1140 (1, 2, 4, 5 players; kept apart
# from the benchmark sets), 5 s each, the wider beams decide what the
# narrower ones did, in the same median time, and the solo deals that 256
# left undecided at 10 s (1-200: seeds 34, 119 and 170) in under 2 s. Wider
# choices per step (BRANCH 6-8, PER_PARENT 32-64) were no better there.
WIDTHS = (1, 4, 16, 64, 256, 1024, 4096, 16384)
SHORT_WIDTHS = (1, 8)
SHORT_DRAW = 24


# The beam hands a position whose draw pile is empty to the play-level
# search. With several players that search of 4-5 hands can be huge, and a
# search cut into budget slices (a free start's rounds, ``api.solve``) then
# spends its slice there; the beam proves only wins anyway, so with several
# players its endgame gets this many discrepancies, not a complete search.
# On seeds 1101-1140 (2-5 players, 5 s each) a complete endgame left 2 deals
# undecided, 4 discrepancies none and 1 none, fastest (5 players: median
# 10 ms, against 83 ms). Solo the endgame stays complete.
ENDGAME_ALLOWANCE = 1


def endgame_allowance(k: Kernel) -> int:
    """The discrepancies of the beam's endgame search (INF: complete)."""
    return INF if k.players == 1 else ENDGAME_ALLOWANCE


def beam_widths(k: Kernel) -> tuple[int, ...]:
    """The beam widths an Extreme search from the kernel's position tries."""
    return SHORT_WIDTHS if k.total - k.pos <= SHORT_DRAW else WIDTHS


class ExtremeBeamSearcher(TurnSearcher):
    """The turn beam over an ``ExtremeKernel``, then the play-level search."""

    fire_ok = True

    def __init__(self, *args: object, **kwargs: object) -> None:
        Searcher.__init__(self, *args, **kwargs)  # type: ignore[arg-type]
        if not isinstance(self.k, ExtremeKernel):
            raise ValueError("the Extreme beam needs the Extreme kernel")
        self.branch = BRANCH
        self.per_parent = PER_PARENT
        self.extra_cost = EXTRA
        self.beam_widths = beam_widths(self.k)

    def _dfs_endgame(self) -> bool:
        return Searcher._dfs(self, endgame_allowance(self.k)) == Node.CLEAR

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        k = self.k
        assert isinstance(k, ExtremeKernel)
        return k.extreme_turns(branch, longest, extra_cost)
