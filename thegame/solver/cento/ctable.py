"""The compiled table search (the optional extension ``_ctable``, from
``csrc/``), and when it is used.

``TableSolver.prove`` spends nearly all its time making turns and keys in
Python (some 7,500 nodes a second). ``CTableSolver`` runs the same df-pn in
C: the same turns in the same order, the same children past their forced
turns, the same numbers and thresholds, so it visits exactly the nodes the
Python search does and reaches the same verdicts
(``tests/cento/test_ctable.py`` compares them node for node). Its
transposition table lives in C; the lines (``table._line``) are still made
in Python, reading it through ``lookup``. The Python search stays the
reference, and ``THEGAME_KERNEL=python`` forces it.

It keeps no children between visits of a node (the Python search's
``kids`` cache only saves work; a C copy of it measured slower). So in one
corner the two may part: when a line of a shared win (``table._line``) has
to prove a position with the first goal's search after the second's began,
a child the second search had cached in Python starts from the numbers it
had then, in C from the first search's newer losses; both are sound, and
only the node counts can differ.

Its table is bounded (``TABLE_MIB`` or ``Limit.memory``, for each goal's
search); at the bound the search stops as it does when the time is up.

Used when the extension is built, not forced off, and the deal fits its
tables (a draw pile of at most 127 cards, as the key's 7-bit draw position
needs anyway).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ...models.cento.deal import Deal
from ...models.cento.rules import HUNDRED, is_single, repdigit
from ...models.outcome import OutOfBudget
from .budget import NodeCounter
from .tablesearch import Goal, Key, TableSolver

if TYPE_CHECKING:
    from . import _ctable

try:
    from . import _ctable as _compiled

    BUILT = True
except ImportError:  # no compiler at install time: the reference only
    BUILT = False

NO_DIGIT = 255
# The MiB one search's table may take (``Limit.memory`` overrides it): at its
# bound the search ends as unknown, as at the end of its time. (The C search
# fills about 60 bytes a node for two players, some 25 MB a second; the
# Python dict fills itself a hundred times slower and has no bound.)
TABLE_MIB = 1024
ENV = "THEGAME_KERNEL"  # =python: the reference search (as for The Game's kernels)


def forced_python() -> bool:
    return os.environ.get(ENV, "").strip().lower() == "python"


def covers(deal: Deal) -> bool:
    """Whether the compiled search holds this deal."""
    return len(deal.draw) <= 127 and 2 <= deal.players <= 6


def backend() -> str:
    """For ``thegame --version``: what the table search runs on."""
    return "c" if BUILT and not forced_python() else "python"


def usable(deal: Deal) -> bool:
    return BUILT and not forced_python() and covers(deal)


class CTableSolver(TableSolver):
    """``TableSolver`` with ``prove`` and the table in C; ``share``: the
    SHARE search whose losses an ALONE search reads."""

    def __init__(
        self,
        deal: Deal,
        player: int,
        goal: Goal = Goal.SHARE,
        budget: NodeCounter | None = None,
        share: CTableSolver | None = None,
    ) -> None:
        super().__init__(deal, player, goal, budget)
        self.core: _ctable.Search = _core(self, None if share is None else share.core)

    def lookup(self, child: Key) -> tuple[int, int]:
        return self.core.lookup(child)

    def prove(self, root: Key) -> bool | None:
        b = self.budget
        limit = -1 if b.max_nodes is None else b.max_nodes
        mib = TABLE_MIB if b.limit.memory is None else b.limit.memory
        try:
            pn, dn, b.nodes = self.core.prove(root, b, b.nodes, limit, mib << 20)
        except OutOfBudget:
            b.nodes = self.core.nodes()
            pn, dn = self.lookup(root)
            self._read_progress(pn, dn)
            return None
        self._read_progress(pn, dn)
        return pn == 0

    def _read_progress(self, pn: int, dn: int) -> None:
        p = self.progress
        p.proven, p.disproven, nearest = self.core.progress()
        p.nearest = None if nearest < 0 else nearest
        p.root_pn, p.root_dn = pn, dn


def _core(s: TableSolver, losses: _ctable.Search | None) -> _ctable.Search:
    """The C search of ``s``'s deal, seat and goal, with the tables of
    ``tables.Tables`` as bytes and masks."""
    tab = s.tab
    rules = s.deal.rules
    values = range(HUNDRED + 1)
    rep = bytes(NO_DIGIT if (r := repdigit(v)) is None else r for v in values)
    return _compiled.Search(
        s.n,
        s.k,
        s.goal == Goal.SHARE,
        s.gen.special,
        s.gen.chain_all,
        rules.trick_draw,
        rules.penalty,
        bytes(s.deal.draw),
        bytes(tab.canon),
        rep,
        bytes(is_single(v) for v in values),
        tuple(tab.fit.get(v, 0) for v in values),
        tuple(bytes(tab.names.get(v, ())) for v in values),
        tab.chain_cards,
        tuple(bytes(n) for n in tab.chain_names),
        tab.singles,
        losses,
    )


def new_solver(
    deal: Deal,
    player: int,
    goal: Goal,
    budget: NodeCounter,
    share: TableSolver | None = None,
) -> TableSolver:
    """The compiled solver where it is usable, else the Python reference;
    ``share``: the SHARE search an ALONE search reads its losses from."""
    if usable(deal) and (share is None or isinstance(share, CTableSolver)):
        return CTableSolver(deal, player, goal, budget, share)
    return TableSolver(deal, player, goal, budget, None if share is None else share.tt)


__all__ = ["BUILT", "CTableSolver", "backend", "covers", "new_solver", "usable"]
