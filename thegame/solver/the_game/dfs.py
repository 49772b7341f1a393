"""Limited-discrepancy depth-first search with memo over single plays.

Each node is a position inside a turn: the tops, every hand, how many cards
have been drawn, whose turn it is and how many cards were played this turn
(capped at the minimum). Children are single plays and, once the minimum is
met, ending the turn. The first child in the kernel's order is free, every
later child costs one discrepancy. Iterations raise the allowance; the last
one is unlimited, which makes the search complete. Two memos: ``dead`` holds
positions proven to have no perfect clear (sound for every later iteration),
``tried`` the largest allowance with which a position already failed (saves
repeated work only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from ...models.outcome import Limit, OutOfBudget
from ...models.the_game.placement import takes_all_of
from .arguments import turn_cut
from .budget import Budgeted, SearchStats
from .kernel import END, FIRE_MARK, INF, Action, Kernel

# The iterations' allowances are 0, 1, 3, then unlimited. Longer ladders
# (0, 1, 3, ..., 63) found no more wins on the benchmark sets, where the
# beams find nearly all of them, and in a loss proof each rung searches
# again what the unlimited round searches anyway: on profi-hard seed 28
# with 3 players, from turn 9 of its best line, the solver proves the loss
# in 34 million nodes instead of 189 million (benchmarks/RESULTS.md).
LAST_ALLOWANCE = 3


class Node(IntEnum):
    """What the search of one node proved (not a game's outcome)."""

    CLEAR = 1  # a perfect clear from here; the line is in ``path``
    DEAD = 0  # proven: no perfect clear from here
    OPEN = -1  # neither: the allowance cut some child


@dataclass
class SearchResult:
    win: bool
    proven: bool  # True: ``win`` is proven (a line, or an exhausted search)
    actions: list[Action]  # the winning line, or the best line found
    best_left: int  # cards left at the end of ``actions``
    stats: SearchStats = field(default_factory=SearchStats)


class Searcher(Budgeted[Kernel]):
    """Limited-discrepancy DFS with memo, node and time budgets."""

    def __init__(self, kernel: Kernel, limit: Limit, deadline: float | None) -> None:
        super().__init__(kernel, limit, deadline)
        self.dead: set[tuple[int, ...]] = set()
        # The tops of the positions this search proved dead, by the rest of
        # their key (hands, draw pile, player, plays this turn): ``_is_dead``.
        self.buried: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        self.tried: dict[tuple[int, ...], int] = {}
        self.path: list[Action] = []
        self.best_left = INF
        self.best_path: list[Action] = []
        self.beam_widths: tuple[int, ...] = ()

    def beam(self, width: int) -> bool:
        """Incomplete search for a quick win; searchers over turns have one."""
        raise NotImplementedError

    def _bury(self, key: tuple[int, ...]) -> None:
        """Store a position proven to have no perfect clear."""
        self.dead.add(key)
        if self.k.tops_dominate:
            n = self.k.n_piles
            self.buried.setdefault(key[n:], []).append(key[:n])

    def _is_dead(self, key: tuple[int, ...]) -> bool:
        """Proven dead: stored, or dominated by a position this search proved
        dead (dominance between positions).

        The key of the current position, and a dead key with the same rest:
        the same hands, draw pile, player and plays this turn, so the same
        cards unplayed and the same moves to come. If each dead top takes
        every card the current one takes, now and after any same plays
        (``placement.takes_all_of``; the tops are paired in the key's
        sorted order per direction, one pairing of the interchangeable
        piles), every line from here replays card for card from the dead
        position, which has no perfect clear: neither has this one. A top
        with a fire card due (marked in the key) pairs only with itself:
        its deadline (F2) is a duty the other top lacks.
        """
        if key in self.dead:
            return True
        k = self.k
        n = k.n_piles
        group = self.buried.get(key[n:]) if k.tops_dominate else None
        if not group:
            return False
        tops = key[:n]
        un = k.unplayed
        n_asc = k.n_asc
        step = k.step
        for dead in group:
            for i in range(n):
                a, b = dead[i], tops[i]
                if a != b and (
                    a >= FIRE_MARK or b >= FIRE_MARK or not takes_all_of(i < n_asc, a, b, step, un)
                ):
                    break
            else:
                self.stats.dominated += 1
                return True
        return False

    def _note_turn_end(self) -> None:
        left = self.k.unplayed.bit_count()
        if left < self.best_left:
            self.best_left = left
            self.best_path = list(self.path)

    def run(self) -> SearchResult:
        """Iterate the allowance 0, 1, 3, then unlimited."""
        self._note_turn_end()
        allowance = 0
        proven = False
        win = False
        try:
            for width in self.beam_widths:
                self.stats.iterations += 1
                if self.beam(width):
                    win = proven = True
                    break
            while not win:
                self.stats.iterations += 1
                r = self._dfs(allowance)
                if r == Node.CLEAR:
                    win = proven = True
                    break
                if r == Node.DEAD:
                    proven = True
                    break
                allowance = allowance * 2 + 1 if allowance < LAST_ALLOWANCE else INF
                self.tried.clear()
        except OutOfBudget:
            pass
        self.stats.dead_positions = len(self.dead)
        if win:
            return SearchResult(True, True, list(self.path), 0, self.stats)
        return SearchResult(False, proven, self.best_path, self.best_left, self.stats)

    def _dfs(self, allowance: int) -> int:
        """CLEAR leaves the line in ``self.path``; DEAD is a proof; OPEN is neither."""
        k = self.k
        self._tick()
        key = k.key()
        if self._is_dead(key):
            return Node.DEAD
        if self.tried.get(key, -1) >= allowance:
            return Node.OPEN
        if k.dead_card():
            self.stats.dead_card_cuts += 1
            self._bury(key)
            return Node.DEAD
        if k.stuck_ahead() or turn_cut(k):
            self.stats.stuck_cuts += 1
            self._bury(key)
            return Node.DEAD
        children: list[tuple[int, int, int]] = []
        if k.t < k.max_turn or k.pos >= k.total:
            children = k.moves()
        end_ok = k.t > 0 and k.can_end()
        # Ending the turn goes first unless some play costs nothing.
        end_first = end_ok and (not children or children[0][0] > 0)
        order: list[tuple[int, int, int]] = []
        if end_first:
            order.append((0, -1, -1))
        order.extend(children)
        if end_ok and not end_first:
            order.append((0, -1, -1))
        complete = True
        auto = k.auto_end()
        for rank, (_, c, pile) in enumerate(order):
            cost = 0 if rank == 0 else 1
            if cost > allowance:
                complete = False
                break
            if c < 0:
                r = self._child_end(allowance - cost)
                if r == Node.CLEAR:
                    return Node.CLEAR
            else:
                saved = k.play(c, pile)
                self.path.append((c, pile))
                if k.won():
                    self.path.append(END)
                    return Node.CLEAR
                r = self._child_end(allowance - cost) if auto else self._dfs(allowance - cost)
                if r == Node.CLEAR:
                    return Node.CLEAR
                self.path.pop()
                k.unplay(c, pile, saved)
            if r == Node.OPEN:
                complete = False
        if complete:
            self._bury(key)
            return Node.DEAD
        self.tried[key] = allowance
        return Node.OPEN

    def _child_end(self, allowance: int) -> int:
        k = self.k
        saved = k.end_turn()
        self.path.append(END)
        self._note_turn_end()
        r = self._dfs(allowance)
        if r == Node.CLEAR:
            return Node.CLEAR
        self.path.pop()
        k.unend_turn(saved)
        return r
