"""One protocol for the exact engines of The Game family.

An engine answers one question, "what is the best result of this deal?",
within a ``Limit``: a ``Solution`` whose verdict is ``win`` (with a line the
rules engine replays as won), ``loss`` (with a proof) or ``unknown`` (with
the best line found and the bound proven). ``covers`` says which deals it
models. The portfolio (``portfolio.solve_with``) chooses among them.
Face to Face answers the duel's question ("who wins under best play?")
behind the same protocol, ``duel.api.DuelSearchEngine``, with a
``DuelSolution``; ``backend`` registers it for the duel's kind of turn and
``portfolio.solve_game`` takes every game the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...models.errors import InvalidInputError
from ...models.outcome import Limit
from ...models.the_game import Deal
from .api import covered, solve
from .solution import EngineName, Solution

if TYPE_CHECKING:
    from .duel.api import DuelSolution


class Engine(Protocol):
    name: EngineName

    def covers(self, deal: Deal) -> bool: ...

    def solve(self, deal: Deal, limit: Limit) -> Solution | DuelSolution: ...


class SearchEngine:
    """The search: beam and limited-discrepancy search, then the branch and
    bound on cards left (``api.solve``)."""

    name = EngineName.DFS

    def covers(self, deal: Deal) -> bool:
        try:
            covered(deal)
        except InvalidInputError:
            return False
        return True

    def solve(self, deal: Deal, limit: Limit) -> Solution:
        return solve(deal, limit)


class CpSatEngine:
    """The CP-SAT model (``cpsat``): the second, independent exact engine."""

    name = EngineName.CPSAT

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers

    def covers(self, deal: Deal) -> bool:
        # Imported here: OR-Tools costs a second to load and most runs never
        # reach CP-SAT.
        from .cpsat import check_supported

        try:
            check_supported(deal)
        except ValueError:
            return False
        return True

    def solve(self, deal: Deal, limit: Limit) -> Solution:
        from .cpsat import solve_cpsat

        return solve_cpsat(deal, limit, workers=self.workers)
