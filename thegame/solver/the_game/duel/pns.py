"""Depth-first proof-number search (df-pn) of a Face to Face duel.

The same game, pieces and proofs as ``search.DuelSearch`` (``nodes``: the
table of proven values, dominance between positions, the race bounds, the
turn dominance); what differs is which child is searched next. The depth-first
AND-OR search settles one child completely before it looks at the next, so
one hard child that the ordering put first costs its whole proof even when
a sibling is easy. Proof-number search instead always works below the child
that looks cheapest to settle, judged by proof and disproof numbers: how
many positions at least must still be proven to show the mover wins (phi)
or loses (delta). df-pn (Nagai, 2002) does this depth first, with the
numbers of unsettled positions kept in a table and thresholds that send the
search back up once a sibling looks cheaper; so its memory is a table, as
for the depth-first search.

Glossary: ``phi``/``delta`` are a position's proof and disproof numbers
from the view of its player to move; a child's phi is the opponent's, so
for a position ``phi = min(delta(child))`` and ``delta = sum(phi(child))``.
A proven win is (0, INF), a proven loss (INF, 0). ``th_phi``/``th_delta``
are the thresholds: ``_mid`` returns once a number reaches its threshold.

Neither search is ahead everywhere: near the end of a printed duel df-pn
settles turn starts the depth-first search does not within 20 s, while on
whole small duels the depth-first search, whose many settled values feed
dominance between positions, decides deals df-pn does not (cards 2..32,
hand 3: 10 of 10 against 5 of 10 at 10 s). So ``decide`` runs both on one
table (``portfolio``), taking turns in slices that double.

Only settled values go into the table of proven positions, and each is
settled exactly as in ``DuelSearch``: a win by one child proven lost for
the opponent, a loss when every child is proven won for them (the children
proven won drop out of the sums as they are found). The numbers only steer.

Two backends run the same search: ``_mid`` here (and ``search.and_or_wins``
for the depth-first slices) is the reference, and ``_cduel.Solver``
(``duel/csrc/solver.c``, ``dfpn.c``) runs the whole search compiled: the
node (dominance, the race and survival bounds, the children in order), both
searches and the table of proven positions, which is then the search's
``tt``; its budget is one C ``Budget`` (``budget.h``). Both open the same
positions and store the same values in the same order
(``tests/the_game/duel/test_csolver.py``). ``native`` chooses, by default
the compiled search wherever the compiled expansion is used (``ccore``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import astuple
from enum import Enum
from heapq import nsmallest
from typing import TYPE_CHECKING, TypeVar

from ....models import interrupt
from ....models.outcome import OutOfBudget
from ..budget import DEFAULT_MEMORY_MIB
from ..ckernel import _ticker, forced_python
from . import ccore
from .nodes import DuelNodes, DuelStats
from .position import CUR, DuelGame, Pos
from .search import and_or_wins

if TYPE_CHECKING:
    from . import _cduel

INF = 1 << 40
T = TypeVar("T")
# Widening of the second-best threshold (the 1 + epsilon trick of Pawlewicz
# and Lew): fewer returns to the parent when two children are close. On by
# default; ``ProofNumberSearch.epsilon`` 0 turns it off (for measuring).
EPSILON = 0.25
# Unsettled numbers kept at most; the table is cleared when full (it only
# steers, so this costs re-expansion, never soundness).
NUMBERS_LIMIT = 500_000
# A child not yet searched starts at phi 1 and delta 1 + ORDER_WEIGHT * its
# rank in the search order (``_sift``: immediate threats, then the static
# score), so the search follows the ordering until the numbers say a later
# child is cheaper. Plain (1, 1) leaves the ordering unused: on the deepest
# decided turn starts of the policy duels, 32 takes 6-20x fewer visits
# (seed 1, 9 from the end: 552,870 -> 28,256; seed 2, 14: 117,728 -> 19,693;
# seed 3, 11: 27,201 -> 1,527).
ORDER_WEIGHT = 32
# With ``Init.EVAL``, a new child's numbers also weigh its cards left (hand
# and draw pile) against the other player's, this much a card: its phi
# grows with the cards its mover has more, its delta with the cards they
# have fewer (evaluation-function proof numbers, Winands et al.).
EVAL_WEIGHT = 8
# ``portfolio``'s first slice, by budget: visits (no deadline), seconds.
# Small, so that a question one search settles at once costs little more.
FIRST_SLICE = (4_000, 0.1)
NAMES = ("depth-first AND-OR search", "proof-number search (df-pn)")


class Init(Enum):
    """How df-pn numbers a child it has not searched yet."""

    RANK = "rank"  # (1, 1 + ORDER_WEIGHT * rank): the search order alone
    EVAL = "eval"  # the rank plus the cards-left evaluation (EVAL_WEIGHT)


class ProofNumberSearch(DuelNodes):
    """The duel's nodes (``DuelNodes``) searched by df-pn from the position
    asked (``wins``), or depth first in ``portfolio``'s slices."""

    def __init__(
        self, game: DuelGame, node_limit: int | None = None, deadline: float | None = None
    ) -> None:
        super().__init__(game, node_limit, deadline)
        # The numbers of positions searched but not settled (settled ones
        # are in ``tt``), at most ``numbers_limit`` of them.
        self.numbers: dict[Pos, tuple[int, int]] = {}
        self.numbers_limit = NUMBERS_LIMIT
        # While set, ``wins`` is the depth-first search (``portfolio``).
        self.depth_first = False
        self.settled_by = NAMES[1]  # what ``portfolio`` ended with
        # The options (both backends): the second-best threshold's widening
        # and how new children are numbered.
        self.epsilon = EPSILON
        self.init = Init.RANK
        # The backend: the whole search compiled (``_cduel.Solver``, whose
        # table is then ``tt``) or the Python reference (``_mid``).
        self._tt_python = self.tt
        self._solver: _cduel.Solver | None = None
        if ccore.BUILT and not forced_python() and self.compiled is not None:
            self._solver = ccore.solver(
                self.compiled,
                2 * self.table_limit,
                self.numbers_limit,
                ORDER_WEIGHT,
                INF,
            )
        self.native = True

    @property
    def native(self) -> bool:
        """Whether the compiled search runs (where it is built)."""
        return self._native_on

    @native.setter
    def native(self, on: bool) -> None:
        self._native_on = on and self._solver is not None
        self.tt = self._solver if self._native_on else self._tt_python  # type: ignore[assignment]

    def numbers_kept(self) -> dict[Pos, tuple[int, int]]:
        """The unsettled positions' numbers, of whichever backend ran."""
        if self._native_on and self._solver is not None:
            return self._solver.numbers()
        return dict(self.numbers)

    def _compiled(self, call: Callable[[_cduel.Solver], T]) -> T:
        """``call`` on the compiled search, with the statistics and the
        options carried over both ways."""
        c = self._solver
        assert c is not None
        s = self.stats
        c.stats = (s.nodes, s.bound_cuts, s.survival_cuts, s.stuck_cuts, s.tt_hits, s.dominated)
        c.configure(
            self.dominance, self.alone, self.relaxed_race, self.survival, self.survival_turns,
            1 + self.epsilon, EVAL_WEIGHT if self.init is Init.EVAL else 0,
            self.table_limit, self.numbers_limit, astuple(self.sizes),
        )  # fmt: skip
        try:
            return call(c)
        finally:
            self.stats = DuelStats(*c.stats)

    def _budget(self) -> tuple[int, float | None, int, Callable[[int], bool]]:
        """The C ``Budget`` of the search as it stands (``ckernel.c_budget``'s
        form): its node limit, deadline, memory and progress with Ctrl-C."""
        memory = DEFAULT_MEMORY_MIB << 20
        return (self.node_limit, self.deadline, memory, _ticker(self.progress))

    def _store(self, pos: Pos, value: bool) -> None:
        if self._native_on:
            self._compiled(lambda c: c.store(pos, value))
        else:
            super()._store(pos, value)

    def _first_look(self, pos: Pos) -> bool | None:
        if self._native_on:
            return self._compiled(lambda c: c.first_look(pos))
        return super()._first_look(pos)

    def _open(self, pos: Pos) -> bool | list[Pos]:
        if self._native_on:
            return self._compiled(lambda c: c.open(pos))
        return super()._open(pos)

    def portfolio(self, run: Callable[[], bool], first: float | None = None) -> bool:
        """``run()`` (a question put to ``wins``) answered by the depth-first
        search and df-pn taking turns on one table, each for a slice of the
        budget that doubles every round: in seconds when the budget has a
        deadline, else in visits (``first``: the first slice, by default
        ``FIRST_SLICE``). Each search starts from every value the other
        proved, and each comes back to its own work: the depth-first search
        finds its settled children in the table, df-pn its numbers. So the
        answer costs at most about twice what the faster search alone
        needs. ``OutOfBudget`` when the whole budget runs out."""
        node_limit, deadline = self.node_limit, self.deadline
        size = first if first is not None else FIRST_SLICE[deadline is not None]
        rounds = 0
        try:
            while True:
                self.depth_first = rounds % 2 == 0
                rounds += 1
                if deadline is not None:
                    self.deadline = min(deadline, time.monotonic() + size)
                else:
                    self.node_limit = min(node_limit, self.stats.nodes + max(1, int(size)))
                try:
                    value = run()
                except OutOfBudget:
                    if (
                        interrupt.requested()
                        or self.stats.nodes >= node_limit
                        or (deadline is not None and time.monotonic() >= deadline)
                    ):
                        raise
                else:
                    name, other = NAMES if self.depth_first else NAMES[::-1]
                    turns = f" (in slice {rounds}, taking turns with the {other})"
                    self.settled_by = name + (turns if rounds > 1 else "")
                    return value
                if not self.depth_first:
                    size *= 2
        finally:
            self.depth_first = False
            self.node_limit, self.deadline = node_limit, deadline

    def wins(self, pos: Pos) -> bool:
        if self._native_on:
            depth_first = self.depth_first
            got = self._compiled(lambda c: c.wins(pos, depth_first, self._budget()))
            if got is None:
                raise OutOfBudget
            return got
        if self.depth_first:
            return and_or_wins(self, pos)
        got = self.tt.get(pos)
        if got is not None:
            self.stats.tt_hits += 1
            return got
        phi, delta = self._mid(pos, INF, INF)
        assert phi == 0 or delta == 0, "df-pn from infinite thresholds settles the position"
        return phi == 0

    def _settle(self, pos: Pos, value: bool) -> tuple[int, int]:
        self._store(pos, value)
        self.numbers.pop(pos, None)
        return (0, INF) if value else (INF, 0)

    def _read(self, kids: list[Pos]) -> tuple[list[int], list[int]]:
        """Each child's phi and delta (its mover's view): settled ones from
        the table, searched ones from ``numbers``, new ones by their rank
        (``ORDER_WEIGHT``); ``_cduel.Game.numbers`` does the same in C."""
        c = self.compiled
        if c is not None and self.init is Init.RANK:
            return c.numbers(kids, self.tt, self.numbers, ORDER_WEIGHT, INF)
        k_phi: list[int] = []
        k_delta: list[int] = []
        for rank, kid in enumerate(kids):
            won = self.tt.get(kid)
            if won is not None:
                f, d = (0, INF) if won else (INF, 0)
            else:
                f, d = self.numbers.get(kid) or self._fresh(kid, rank)
            k_phi.append(f)
            k_delta.append(d)
        return k_phi, k_delta

    def _fresh(self, kid: Pos, rank: int) -> tuple[int, int]:
        """The numbers of a child not searched yet (``Init``)."""
        phi, delta = 1, 1 + ORDER_WEIGHT * rank
        if self.init is Init.EVAL:
            q = kid[CUR]
            more = self.game.cards_left(kid, q) - self.game.cards_left(kid, 1 - q)
            phi += EVAL_WEIGHT * max(0, more)
            delta += EVAL_WEIGHT * max(0, -more)
        return phi, delta

    def _mid(self, pos: Pos, th_phi: int, th_delta: int) -> tuple[int, int]:
        """Search below ``pos`` until its phi reaches ``th_phi`` or its
        delta reaches ``th_delta`` (one of them 0 when it is settled)."""
        got = self.tt.get(pos)
        if got is not None:
            return (0, INF) if got else (INF, 0)
        self._tick()
        if pos not in self.numbers:
            first = self._first_look(pos)
            if first is not None:
                return self._settle(pos, first)
        kids = self._open(pos)
        if isinstance(kids, bool):
            return self._settle(pos, kids)
        # The children's numbers, read from the tables once on entry and
        # then kept here: the child searched last returns its new numbers.
        k_phi, k_delta = self._read(kids)
        while True:
            phi = min(k_delta)
            if phi == 0:
                return self._settle(pos, True)  # a child proven lost for the opponent
            delta = sum(k_phi)
            if delta == 0:
                return self._settle(pos, False)  # every child proven won for them
            delta = min(delta, INF - 1)
            if phi >= th_phi or delta >= th_delta:
                if len(self.numbers) >= self.numbers_limit:
                    self.numbers.clear()
                self.numbers[pos] = (phi, delta)
                return phi, delta
            i = k_delta.index(phi)
            second = nsmallest(2, k_delta)[1] if len(kids) > 1 else INF
            kid_th_phi = th_delta - (delta - k_phi[i])
            kid_th_delta = min(th_phi, int(second * (1 + self.epsilon)) + 1)
            k_phi[i], k_delta[i] = self._mid(kids[i], kid_th_phi, kid_th_delta)
