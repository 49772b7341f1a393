"""Solo search over whole turns: a beam first, then a complete search.

Ordering single plays cannot see that a costly play enables a backward
trick right after it; ordering whole turns (as the kernel lists them) by
their total cost can. The beam keeps the ``w`` best positions per turn
(ranked by ``Kernel.evaluate``); it is incomplete and proves nothing but a
win it finds. The complete search that follows is the play-level one
(``dfs.Searcher``): it memoizes positions inside turns as well, and a
discrepancy there is one play, not one whole turn, so a loss proof is
several times cheaper than over turns (profi-hard seed 108, from turn 11 of
its best line: 18.7 million nodes instead of 78.5 million; RESULTS.md),
while the beams find every win of the benchmark sets either way.
"""

from __future__ import annotations

import time

from ...models.outcome import Limit
from .dfs import Node, Searcher
from .kernel import END, INF, Action, Kernel, KernelSnapshot, TurnOption

# Beam settings, tuned on solo seeds 1-60 (wins per width, median time);
# they only steer the incomplete beam, never what is proven.
# Plays tried at each step of a turn (best first by cost).
BRANCH = 4
# Plays beyond the minimum only when they cost at most this (free or a trick).
EXTRA = 0
# Children kept per parent position.
PER_PARENT = 16
# Draw pile sizes up to this get only narrow beams (``TurnSearcher``).
SHORT_DRAW = 24
# The beam widths tried in turn before the complete search. Past 1024 the
# widths grow 4 times a step: the profi-hard deals 24, 69 and 71, undecided
# by the complete search in 25 minutes, are wins the beams of 4096-65536
# find within 3 s.
WIDTHS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384, 65536)
# Few turns to go (an endgame, a puzzle): the complete search is cheap
# there, and wide beams only repeat its work, which is all waste on a
# position without a perfect clear.
SHORT_WIDTHS = (1, 8)


# One more width for long budgets: the profi-hard deals 577, 896 and 975,
# undecided after the beams above and a minute of complete search, are
# wins a beam of 262144 finds in 3-6 minutes (peak 979 MiB). It runs
# only when the budget leaves that much time (and nodes), so that a shorter
# budget keeps its time for the complete search, as before.
WIDEST = 262_144
LONG_SECONDS = 240.0
LONG_NODES = 200_000_000
LONG = Limit(LONG_SECONDS, LONG_NODES)

# Broad beams for long budgets (the split search runs them after the
# beams of that width): more plays tried at each step of a turn, as a
# different beam rather than a wider one. Profi-hard solo 577, 896 and
# 975, which need the beam of 262144 at the usual branching, are wins a
# beam of 16384 trying 6 plays finds (about 22 million nodes each), and
# so are 3 players 179 (from start 3) and 753 (start 3; unknown after 300
# s of the solver and a beam of 262144 from start 1).
BROAD_WIDTH = 16_384
BROAD_BRANCH = 6


def broad_beams(k: Kernel, limit: Limit, deadline: float | None) -> bool:
    """Whether a search from the kernel's position within ``limit`` and
    ``deadline`` also runs the broad beams (``BROAD_BRANCH``): the budget
    leaves room for the widest beam."""
    return k.total - k.pos > SHORT_DRAW and _long(limit, deadline)


# A position of the beam: its score, the line to it, the position.
BeamEntry = tuple[int, list[Action], KernelSnapshot]
Plays = list[tuple[int, int]]  # a turn's plays, (card, pile) each


def beam_widths(
    k: Kernel, limit: Limit | None = None, deadline: float | None = None
) -> tuple[int, ...]:
    """The beam widths a search from the kernel's position tries (solo, or
    several players: ``MULTI_WIDTHS``) within ``limit`` and ``deadline``
    (none given: the usual widths)."""
    if k.total - k.pos <= SHORT_DRAW:
        return SHORT_WIDTHS
    widths: tuple[int, ...]
    if k.players == 1:
        widths, widest, long = WIDTHS, WIDEST, LONG
    else:
        widths, widest, long = MULTI_WIDTHS, MULTI_WIDEST, MULTI_LONG
    if limit is None or not _long(limit, deadline, long):
        return widths
    if k.players != 1 and _long(limit, deadline):
        return (*widths, widest, MULTI_WIDER)
    return (*widths, widest)


def _long(limit: Limit, deadline: float | None, least: Limit | None = None) -> bool:
    """Whether the budget (``limit``, its time ending at ``deadline``)
    leaves at least ``least``'s time and nodes (default ``LONG``)."""
    least = LONG if least is None else least
    seconds_ok = deadline is None or deadline - time.monotonic() >= (least.time or 0.0)
    return seconds_ok and (limit.nodes is None or limit.nodes >= (least.nodes or 0))


class TurnSearcher(Searcher):
    """Solo: beams over whole turns, then the play-level search (complete).

    Ordering single plays cannot see that a costly play enables a backward
    trick right after it; ordering whole turns (all distinct results of
    m..2m-1 plays, the solo turn cap) by their total cost can, and the beam
    ranks them so. Once the draw pile is empty the play-level search
    finishes the hand exactly (complete, so the beam's endgame needs no
    allowance).
    """

    fire_ok = False  # see ``FireBeamSearcher``

    def __init__(self, kernel: Kernel, limit: Limit, deadline: float | None) -> None:
        super().__init__(kernel, limit, deadline)
        k = self.k
        if k.players != 1 or (k.fire and not self.fire_ok):
            raise ValueError("turn-level search is for solo games without fire cards")
        self.branch = BRANCH
        self.per_parent = PER_PARENT
        self.extra_cost = EXTRA
        self.beam_widths = beam_widths(k, limit, deadline)

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        return self.k.solo_turns(branch, longest, extra_cost)

    def beam(self, width: int) -> bool:
        """Beam search over turns, keeping the ``width`` cheapest positions.

        Incomplete by design: it finds wins that an early greedy mistake
        hides from depth-first search. A win leaves the line in ``path``.
        """
        k = self.k
        root = k.snapshot()
        beam: list[BeamEntry] = [(0, [], root)]
        while beam:
            cands: list[tuple[int, int, tuple[int, ...], int, Plays]] = []
            seen: set[tuple[int, ...]] = set()
            for idx, (_score, line, snap) in enumerate(beam):
                k.restore(snap)
                if k.pos >= k.total:
                    # Endgame: the play-level search decides it exactly.
                    self.path = list(line)
                    if self._dfs_endgame():
                        return True
                    continue
                # The global cut keeps at most ``width`` children of one
                # parent, and they are its cheapest: look no further.
                taken = 0
                for n, (_cost, plays) in enumerate(
                    self._turns(self.branch, k.turn_min + 1, self.extra_cost)
                ):
                    if taken >= min(width, self.per_parent):
                        break
                    self._tick()
                    saved = [k.play(c, p) for c, p in plays]
                    if k.won():
                        self.path = [*line, *plays, END]
                        return True
                    ended = k.end_turn()
                    key = k.key()
                    if (
                        key not in seen
                        and not self._is_dead(key)
                        and not k.dead_card()
                        and not k.stuck_ahead()
                    ):
                        seen.add(key)
                        taken += 1
                        cands.append((k.evaluate(), n, key, idx, plays))
                    k.unend_turn(ended)
                    for (c, p), s in zip(reversed(plays), reversed(saved), strict=True):
                        k.unplay(c, p, s)
            cands.sort(key=lambda x: (x[0], x[1]))
            beam = self._next_beam(beam, cands[:width])
        k.restore(root)
        self.path = []
        return False

    def _next_beam(
        self, beam: list[BeamEntry], kept: list[tuple[int, int, tuple[int, ...], int, Plays]]
    ) -> list[BeamEntry]:
        """The positions after the ``kept`` candidates (score, rank, key,
        parent index, turn), each with its line; the best line so far is
        kept for an undecided answer."""
        k = self.k
        nxt = []
        for score, _, _, idx, plays in kept:
            _, line, snap = beam[idx]
            k.restore(snap)
            for c, p in plays:
                k.play(c, p)
            k.end_turn()
            new_line = [*line, *plays, END]
            left = k.unplayed.bit_count()
            if left < self.best_left:
                self.best_left, self.best_path = left, new_line
            nxt.append((score, new_line, k.snapshot()))
        return nxt

    def _dfs_endgame(self) -> bool:
        r = Searcher._dfs(self, INF)
        return r == Node.CLEAR


class FireBeamSearcher(TurnSearcher):
    """Solo with fire cards: the beam over whole turns, then the play-level
    limited-discrepancy search (complete), as without them.

    The solo turn cap and the inline turn enumeration assume no fire (a
    split would move a fire deadline, rule F2), so here turns are listed
    through ``Kernel.play``, which keeps the deadlines, and a turn may end
    only with every due fire card covered. The beam is incomplete anyway;
    what it proves nothing about, the play-level search decides.
    """

    fire_ok = True

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        return self.k.fire_turns(branch, longest, extra_cost)


# Several players (the classic family): beam widths and the discrepancies
# of the beam's endgame search. Before the beam, the play-level search alone
# left most profi deals of 3 players and profi-hard deals of 2-5 players
# undecided (seeds 1-30 at 3 s: 5 of 30 and 19-30 of 30), with best lines
# leaving up to 33 cards; those tried were wins a beam of 64-256 finds.
# The endgame gets few discrepancies, as in Extreme (``extreme.beam``): a
# complete search of several hands there eats the budget slice of a start.
MULTI_WIDTHS = (1, 4, 16, 64, 256, 1024, 4096, 16384)
MULTI_ENDGAME = 1
# One more width when the search has at least a minute: profi-hard 3
# players seed 631, unknown at 60 s, is a win a beam of 65536 finds from
# start 1 in 29 s (start 3 in 31 s). With shorter budgets the complete
# search keeps the time it had.
MULTI_WIDEST = 65_536
MULTI_LONG_SECONDS = 60.0
MULTI_LONG_NODES = 50_000_000
MULTI_LONG = Limit(MULTI_LONG_SECONDS, MULTI_LONG_NODES)
# And one more for long searches, as solo's ``WIDEST``: profi-hard 3
# players seeds 179 and 519, unknown at 300 s and after 301 s of the split
# search, are wins a beam of 262144 finds (179 from start 1, 519 from
# start 3, 117 million nodes, peak 1 GiB).
MULTI_WIDER = WIDEST


class MultiBeamSearcher(FireBeamSearcher):
    """Several players: the beam over whole turns of the player to move
    (the seat order is the beam's order; fire cards kept as in
    ``FireBeamSearcher``), then the play-level search, complete."""

    def __init__(self, kernel: Kernel, limit: Limit, deadline: float | None) -> None:
        Searcher.__init__(self, kernel, limit, deadline)
        if self.k.players == 1:
            raise ValueError("the beam of several players needs several players")
        self.branch = BRANCH
        self.per_parent = PER_PARENT
        self.extra_cost = EXTRA
        self.beam_widths = beam_widths(self.k, limit, deadline)

    def _dfs_endgame(self) -> bool:
        return Searcher._dfs(self, MULTI_ENDGAME) == Node.CLEAR
