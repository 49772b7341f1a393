"""The search backend of each kind of turn (``Rules.turn_kind``): its
kernel, its decision search and the variants it covers, in one registry;
and the kinds a search of their own answers instead (the duel).

A backend's decision search runs compiled (``ckernel``: the same search in
C, same nodes, same line) where that is built and covers the kernel, and
in Python otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...models import InvalidInputError, Limit
from ...models.the_game import Deal, GameState, Rules, TurnKind, variants
from . import ckernel
from .beam import FireBeamSearcher, MultiBeamSearcher, TurnSearcher
from .dfs import Searcher, SearchResult
from .extreme.beam import ExtremeBeamSearcher
from .extreme.kernel import ExtremeKernel
from .extreme.kernel import covers as extreme_covers
from .kernel import Kernel
from .optimum import BoundKernel

if TYPE_CHECKING:
    from .duel.api import DuelSearchEngine


@dataclass(frozen=True)
class Backend:
    """How positions of one kind of turn are searched."""

    kernel: type[Kernel]
    # The decision search for a kernel (``ckernel.search`` ports each one).
    searcher: Callable[[Kernel], type[Searcher]]
    covers: Callable[[Rules], bool]
    refusal: str  # why a variant of this kind is not covered ({name}: its name)


def _classic_searcher(kernel: Kernel) -> type[Searcher]:
    if kernel.players == 1:
        return FireBeamSearcher if kernel.fire else TurnSearcher
    return MultiBeamSearcher


def _extreme_searcher(kernel: Kernel) -> type[Searcher]:
    # The classic turn beams list turns without the commands (X).
    return ExtremeBeamSearcher


BACKENDS: dict[TurnKind, Backend] = {
    TurnKind.CLASSIC: Backend(Kernel, _classic_searcher, lambda rules: True, ""),
    # Extreme's kernel knows the commands (X); fire cards with commands
    # (an On Fire + Extreme mix) are not modelled.
    TurnKind.EXTREME: Backend(
        ExtremeKernel,
        _extreme_searcher,
        extreme_covers,
        "the solver does not cover {name} deals with fire cards",
    ),
}


def _duel_engine() -> DuelSearchEngine:
    # Imported here: the duel's search has modules of its own, which a
    # solve of the classic family never needs to load.
    from .duel.api import DuelSearchEngine

    return DuelSearchEngine()


# Kinds of turn whose deals and positions a search of their own answers,
# not the kernel search above (``portfolio.solve_game`` asks here first):
# Face to Face, decided over whole turns with both decks known (``duel``).
OWN_ENGINES: dict[TurnKind, Callable[[], DuelSearchEngine]] = {TurnKind.DUEL: _duel_engine}


def own_engine(rules: Rules) -> DuelSearchEngine | None:
    """The engine of a kind of turn with a search of its own (None: the
    kernel search's kind)."""
    make = OWN_ENGINES.get(rules.turn_kind)
    return None if make is None else make()


def covered(deal: Deal) -> None:
    """Raise ``InvalidInputError`` unless the search covers the deal's variant."""
    rules = deal.rules
    backend = BACKENDS.get(rules.turn_kind)
    if backend is None:
        raise InvalidInputError(
            f"the solver covers {', '.join(variants.names(duel=False))}, not {rules.name}",
            "variant",
        )
    if not backend.covers(rules):
        raise InvalidInputError(backend.refusal.format(name=rules.name), "variant")


def kernel_of(state: GameState) -> Kernel:
    """The search kernel of a position."""
    backend = BACKENDS.get(state.rules.turn_kind)
    if backend is None:
        raise ValueError(f"the search solver does not cover {state.rules.name}")
    return backend.kernel.from_state(state)


def searcher_of(kernel: Kernel) -> type[Searcher]:
    """The decision search (in Python) for ``kernel``."""
    return BACKENDS[kernel.rules.turn_kind].searcher(kernel)


def decide(
    kernel: Kernel, limit: Limit, deadline: float | None
) -> tuple[SearchResult, Container[tuple[int, ...]]]:
    """Run the decision search from the kernel's position: its result and
    the positions it proved dead (asked by memo key)."""
    if ckernel.use_compiled(kernel):
        return ckernel.search(kernel, limit, deadline)
    searcher = searcher_of(kernel)(kernel, limit, deadline)
    res = searcher.run()
    return res, searcher.dead


def walker(kernel: Kernel) -> BoundKernel:
    """A kernel to walk from Python after the decision search: the compiled
    one answers faster, with the same answers (the same greedy line, the
    same branch and bound)."""
    return ckernel.CKernel.of(kernel) if ckernel.use_compiled(kernel) else kernel
