"""The fewest cards left: branch and bound over the search kernel.

``Optimizer`` runs after the decision search has proven that no perfect
clear exists (or as a continuation of an undecided one) and looks for the
finished game with the fewest cards left. A line here is always a whole
game: it ends when the player to move has no legal turn (rule C8), or when a
turn ends with a fire card left uncovered (rule F2), never inside a turn.

Lower bounds, both sound:
- the cards no pile can ever take again (``Kernel.dead_mask``) stay unplayed;
- a position the decision search proved dead has no perfect clear, so at
  least one card stays.
A position's memo holds the best lower bound found for it; a node is cut as
soon as its bound reaches the best finished game so far. When the search
ends without running out of budget, the best game is optimal.

The shortcuts of the decision search stay sound here because each one
argues that the pruned child can reach no position the kept one cannot,
with the same cards played (dominance, the solo turn cap, single-play
turns after the solo draw pile is empty, pile symmetry).
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import Any, Protocol

from ...models.outcome import NO_LIMIT, Limit, OutOfBudget
from .budget import Budgeted
from .kernel import END, INF, Action


@dataclass
class OptimumResult:
    best_left: int  # cards left at the end of ``actions``
    actions: list[Action]  # a whole game from the start position
    proven: bool  # the search finished: ``best_left`` is the optimum
    lower_bound: int  # proven: no game from here ends with fewer cards left
    nodes: int


class BoundKernel(Protocol):
    """What the branch and bound and ``finish_greedily`` ask of a kernel:
    ``Kernel``, or the compiled ``ckernel.CKernel`` (same answers, faster)."""

    @property
    def unplayed(self) -> int: ...
    @property
    def t(self) -> int: ...
    @property
    def max_turn(self) -> int: ...
    @property
    def pos(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def pending(self) -> int: ...
    def won(self) -> bool: ...
    def key(self) -> tuple[int, ...]: ...
    def dead_mask(self) -> int: ...
    def moves(self) -> list[tuple[int, int, int]]: ...
    def min_met(self) -> bool: ...
    def end_loses(self) -> bool: ...
    def auto_end(self) -> bool: ...
    def play(self, c: int, pile: int) -> Any: ...
    def unplay(self, c: int, pile: int, saved: Any) -> None: ...
    def end_turn(self) -> Any: ...
    def unend_turn(self, saved: Any) -> None: ...
    def restore(self, snap: Any) -> None: ...


class Optimizer(Budgeted[BoundKernel]):
    """Depth-first branch and bound on cards left."""

    def __init__(
        self,
        kernel: BoundKernel,
        limit: Limit = NO_LIMIT,
        deadline: float | None = None,
        no_clear: Container[tuple[int, ...]] | None = None,
    ) -> None:
        super().__init__(kernel, limit, deadline)
        # Positions the decision search proved to have no perfect clear.
        self.no_clear: Container[tuple[int, ...]] = no_clear if no_clear is not None else set()
        self.memo: dict[tuple[int, ...], int] = {}
        self.best = INF
        self.best_line: list[Action] = []
        self.path: list[Action] = []

    def run(
        self, incumbent: tuple[list[Action], int] | None = None, floor: int = 0
    ) -> OptimumResult:
        """Search from the kernel's position; ``incumbent`` is a known whole
        game from it and its cards left (say, a greedy one) to beat;
        ``floor`` a lower bound proven elsewhere (the graph bounds)."""
        root_bound = max(self._bound(), floor)
        if incumbent is not None:
            self.best_line, self.best = list(incumbent[0]), incumbent[1]
        proven = False
        bound = root_bound
        try:
            if self.best > root_bound:
                bound = self._dfs()
            proven = True
        except OutOfBudget:
            pass
        if proven:
            bound = self.best
        return OptimumResult(
            self.best, self.best_line, proven, min(bound, self.best), self.stats.nodes
        )

    def _bound(self) -> int:
        k = self.k
        lb = k.dead_mask().bit_count()
        if lb == 0 and k.unplayed and k.key() in self.no_clear:
            lb = 1
        return lb

    def _finished(self, left: int) -> int:
        """The game ends here with ``left`` cards unplayed."""
        if left < self.best:
            self.best = left
            self.best_line = list(self.path)
        return left

    def _dfs(self) -> int:
        """A lower bound on the cards left of any whole game from here
        (INF: no legal way to finish the current turn); exact when no
        child was cut."""
        k = self.k
        self._tick()
        if k.won():
            return self._finished(0)
        key = k.key()
        known = self.memo.get(key, -1)
        if known >= self.best:
            return known
        lb = max(known, self._bound())
        if lb >= self.best:
            self.memo[key] = lb
            return lb
        value = INF
        children: list[tuple[int, int, int]] = []
        if k.t < k.max_turn or k.pos >= k.total:
            children = k.moves()
        can_end = k.t > 0 and k.min_met()
        # Ending a turn with a fire card uncovered loses at once (rule F2).
        if can_end and k.end_loses():
            self.path.append(END)
            value = self._finished(k.unplayed.bit_count())
            self.path.pop()
            can_end = False
        if can_end and (not children or children[0][0] > 0):
            value = min(value, self._end_child())
        auto = k.auto_end()
        for _, c, pile in children:
            if value <= lb or lb >= self.best:
                break
            saved = k.play(c, pile)
            self.path.append((c, pile))
            if k.won():
                self.path.append(END)
                v = self._finished(0)
                self.path.pop()
            else:
                v = self._end_child() if auto else self._dfs()
            self.path.pop()
            k.unplay(c, pile, saved)
            value = min(value, v)
        if can_end and children and children[0][0] <= 0 and value > lb and lb < self.best:
            value = min(value, self._end_child())
        if value == INF and k.t == 0:
            # No legal turn: the game is over here (rule C8).
            value = self._finished(k.unplayed.bit_count())
        self.memo[key] = max(lb, value) if value != INF else INF
        return value

    def _end_child(self) -> int:
        k = self.k
        saved = k.end_turn()
        self.path.append(END)
        v = self._dfs()
        self.path.pop()
        k.unend_turn(saved)
        return v


def finish_greedily(k: BoundKernel) -> list[Action]:
    """Play on from the kernel's position to the end of the game, each turn
    the first complete one in the search's move order; the kernel is left
    at the end. Used to turn a partial best line into a whole game."""
    line: list[Action] = []
    while k.unplayed:
        turn = _first_turn(k, allow_fire_loss=False)
        lost = False
        if turn is None and k.pending:
            # No turn covers the fire card: play what can be played, then
            # the end of the turn loses (rule F2).
            turn = _first_turn(k, allow_fire_loss=True)
            lost = True
        if turn is None:
            break  # no legal turn: the game is over (rule C8)
        for c, pile in turn:
            k.play(c, pile)
        line.extend(turn)
        line.append(END)
        if lost and k.pending and k.unplayed:
            break
        k.end_turn()
    return line


def _first_turn(k: BoundKernel, allow_fire_loss: bool) -> list[tuple[int, int]] | None:
    """The first way, in move order, to finish the current turn legally
    (``allow_fire_loss``: also ending with a fire card uncovered)."""
    plays: list[tuple[int, int]] = []
    failed: set[tuple[int, ...]] = set()  # plays commute: positions recur

    def rec() -> bool:
        if k.won():
            return True
        if k.t > 0 and k.min_met() and (allow_fire_loss or not k.end_loses()):
            return True
        if k.t >= k.max_turn and k.pos < k.total:
            return False
        key = k.key()
        if key in failed:
            return False
        failed.add(key)
        for _, c, pile in k.moves():
            saved = k.play(c, pile)
            plays.append((c, pile))
            found = rec()
            k.unplay(c, pile, saved)
            if found:
                return True
            plays.pop()
        return False

    return list(plays) if rec() else None
