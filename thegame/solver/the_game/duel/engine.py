"""The duel engine: plays and evaluates any Face to Face position within a
budget (rules D1-D7).

Monte-Carlo tree search over whole turns with the exact search inside it
(MCTS-Solver, Winands, Bjoernsson and Saito, 2008):

- The tree's moves are the undominated whole turns the exact search lists
  (``DuelNodes._open``: a turn that wins at once, a reply that leaves the
  opponent without a turn and children already proven settle a node before
  it has children), best first in the search's order. A node is keyed by
  its exact position (``Pos``), so transpositions share their statistics.
- A node widens progressively: it considers its first ``2 + sqrt(visits)``
  children in that order (the printed game has 100-400 turns a position,
  far more than a second's playouts could try), chosen by UCB1.
- Each new node is first looked at by the exact search's bounds
  (dominance, the races, survival: ``DuelNodes._first_look``); a node
  visited often gets a short proof-number search (``pns``) now and then,
  with a budget that grows with its visits.
- A playout plays the duel to its end with the fast policy: a turn that
  wins at once or leaves the opponent without a turn, else the best static
  score among the undominated turns, and now and then (one time in
  ``NOISE_ONE_IN``) one of the next best, so that repeated playouts differ;
  its draws come from a ``SplitMix64`` stream. A position already proven
  ends a playout with its proven value. Compiled (``_cduel.Game.playout``),
  the whole playout is one call; ``_playout_python`` is its reference, over
  the same expansion, draw for draw.
- Proven values propagate up: a node with a child proven lost for the
  opponent is won, one whose every child is proven won for the opponent is
  lost. Every proven value goes into the exact search's table, which the
  exact search and the lines read (``nodes.DuelNodes.line``).

A proven verdict is only ever a value the exact search's rules settled
(one child lost for the opponent, every child won for them, D6 at a leaf);
the playouts only give the estimate, which is always labelled as one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from heapq import nsmallest

from ....models import interrupt
from ....models.outcome import Limit, OutOfBudget
from ....models.seeds import SplitMix64
from ..budget import NO_NODE_LIMIT
from .nodes import NO_TURN, SEARCH, WINS_NOW, DuelNodes
from .pns import ProofNumberSearch
from .position import CUR, DuelGame, Plays, Pos

# UCB1's exploration constant (win rates in [0, 1]).
EXPLORE = 0.6
# Progressive widening: a node with n visits considers its first
# WIDEN_BASE + sqrt(n) children (the exact search's order).
WIDEN_BASE = 2
# One playout turn in NOISE_ONE_IN is one of the NOISE_WIDTH best (by
# static score) rather than the best: repeated playouts from one node then
# differ. (csrc/playout.c has the same constants.)
NOISE_ONE_IN = 5
NOISE_WIDTH = 3
# A node gets a proof-number probe when its visits reach PROBE_FROM, then
# each time they double, with PROBE_SHARE proof-number visits per visit.
# Far from the end of a printed duel the probes prove nothing and take a
# third to a half of a question's time; making them wait for a proven
# position (``DuelEngine.probe_waits``) or giving them a quarter of the
# visits gave ``analyze`` 25-80% more playouts an estimate but fewer proven
# turn starts (``benchmarks/duel_playout.py probes``), so they stay as they
# were: a proof is worth more than a closer estimate.
PROBE_FROM = 8
PROBE_SHARE = 1.0
# Turns a playout plays at most (a duel of 58 cards each has fewer).
PLAYOUT_TURNS = 200
# Lines follow the tree while a node has at least this many visits.
LINE_VISITS = 2


@dataclass
class Node:
    """A position of the tree, from the view of its player to move."""

    kids: list[Pos] | None = None  # None: not expanded (or settled at once)
    visits: int = 0
    wins: float = 0.0  # playouts through it won by its player to move
    proven: bool | None = None  # its player to move wins (True) or loses
    next_probe: int = PROBE_FROM
    # A turn start, whose proven value goes into the exact search's table
    # (False: the root of a question asked inside a turn).
    table: bool = True


@dataclass
class Answer:
    """The engine's answer for the player to move at a turn start.

    ``proven``: the verdict is a proof (``win_chance`` is then 1 or 0);
    otherwise ``win_chance`` is an estimate from ``playouts`` playouts.
    ``line``: the principal line, each turn with its player (0-based),
    the first the move; the estimate's line ends where the tree thins out.
    """

    move: Plays | None
    win_chance: float
    playouts: int
    proven: bool
    line: list[tuple[int, Plays]]
    seconds: float
    nodes: int  # positions the exact search visited inside the tree
    tree: int  # positions in the tree
    # All the positions the question examined (``DuelEngine.work``): what a
    # node budget counts.
    work: int = 0


@dataclass
class EngineStats:
    playouts: int = 0
    probes: int = 0
    probe_proofs: int = 0
    bound_proofs: int = 0
    playout_turns: int = 0  # turns the playouts played (a position each)


def bound_nodes(search: DuelNodes) -> int:
    """Positions the bounds' own searches (the races and survival of
    ``DuelNodes._first_look``) have examined so far: the work a search
    position costs beyond itself, which a node budget counts too."""
    races = sum(r.nodes for r in search.robust) + sum(r.nodes for r in search.fewest_relaxed)
    return races + sum(e.nodes for e in search.relaxed) + sum(e.nodes for e in search.sure)


class DuelEngine:
    """The tree, the exact search and its table, kept across questions of
    one duel (a position's value and statistics do not depend on how it was
    reached, so later questions start from them). ``probe_waits``: no
    probe before a descent of the question ends at a proven position (off:
    see ``PROBE_FROM``)."""

    probe_waits = False

    def __init__(
        self, game: DuelGame, search: ProofNumberSearch | None = None, seed: int = 0
    ) -> None:
        self.game = game
        self.search = search if search is not None else ProofNumberSearch(game)
        if self.search.game != game:
            raise ValueError("the engine's search must be of the same duel")
        self.compiled = self.search.compiled
        self.tree: dict[Pos, Node] = {}
        self.rng = SplitMix64(seed)
        self.stats = EngineStats()
        self.deadline: float | None = None
        # The ``work`` at which the question under way must stop (None: no node budget).
        self.work_end: int | None = None
        # Whether a descent of the question under way ended at a proven
        # position (with probe_waits, probes wait for one).
        self._proofs_met = False
        # A question asked inside a turn: each way to finish the turn by the
        # position it leads to (None: a win at once).
        self._rest: dict[Pos | None, Plays] = {}

    # -- the question -------------------------------------------------------------

    def work(self) -> int:
        """Every position examined so far: the exact search's, its bounds'
        and the playouts' turns (the unit of a node budget)."""
        return self.search.stats.nodes + bound_nodes(self.search) + self.stats.playout_turns

    def _spent(self, work0: int, iterations: int) -> bool:
        """Whether the node budget would be passed by two more iterations
        of the mean cost so far (a playout plays some 20-40 turns)."""
        if self.work_end is None:
            return False
        work = self.work()
        ahead = 2 * (work - work0) // max(1, iterations)
        return work + ahead >= self.work_end

    def think(
        self,
        pos: Pos,
        limit: Limit | None = None,
        playouts: int | None = None,
        done: int = 0,
        dumped: bool = False,
    ) -> Answer:
        """Search from ``pos`` until ``limit`` (its time, its ``nodes``:
        positions examined, ``work``) or ``playouts`` ends it, whichever
        first (Ctrl-C ends it too), and answer; ``limit.progress`` hears the
        playouts. ``done``/``dumped``: a turn under way
        (``DuelGame.turns``); the move is then its rest."""
        limit = limit if limit is not None else Limit()
        seconds, nodes, progress = limit.time, limit.nodes, limit.progress
        if seconds is None and playouts is None and nodes is None:
            raise ValueError("the engine needs a time, a playout or a node budget")
        t0 = time.monotonic()
        work0 = self.work()
        self.work_end = None if nodes is None else work0 + nodes
        self.deadline = None if seconds is None else t0 + seconds
        self._proofs_met = False
        nodes0 = self.search.stats.nodes
        self._rest = {}
        root = self._node(pos) if done == 0 and not dumped else self._inside(pos, done, dumped)
        done = 0
        while root.proven is None:
            if playouts is not None and done >= playouts:
                break
            if self.deadline is not None and time.monotonic() >= self.deadline:
                break
            if interrupt.requested() or self._spent(work0, done):
                break
            self._iterate(pos, root)
            done += 1
            if progress is not None and done & 15 == 0:
                progress(done)
        work = self.work() - work0
        self.work_end = None
        line = self.line(pos, root=root)
        chance = self.chance(pos, root)
        return Answer(
            line[0][1] if line else None,
            chance,
            root.visits,
            root.proven is not None,
            line,
            time.monotonic() - t0,
            self.search.stats.nodes - nodes0,
            len(self.tree),
            work,
        )

    def _inside(self, pos: Pos, done: int, dumped: bool) -> Node:
        """The root of a question asked inside a turn: its children are the
        ways to finish the turn (kept apart from the tree and the table,
        which hold turn starts)."""
        node = Node(table=False)
        results = self.game.turns(pos, done, dumped)
        for plays, after in results:
            self._rest.setdefault(after, plays)
        if not results:
            node.proven = False  # D6: the turn cannot be finished
        elif None in self._rest or any(
            after is not None and not self.game.has_turn(after) for _p, after in results
        ):
            node.proven = True  # D6: wins at once, or the opponent is left stuck
        else:
            s = self.search
            scored = sorted(
                (s.score(pos, plays, after), after) for plays, after in results if after is not None
            )
            node.kids = list(dict.fromkeys(after for _score, after in scored))
        return node

    def chance(self, pos: Pos, node: Node | None = None) -> float:
        """The mover's win chance at ``pos``: 1 or 0 when proven, else the
        estimate of the turn the engine would play (its most visited child)."""
        if node is None:
            node = self._node(pos)
        if node.proven is not None:
            return 1.0 if node.proven else 0.0
        best = self._best_kid(node)
        if best is None:
            return node.wins / node.visits if node.visits else 0.5
        kid = self.tree[best]
        return 1.0 - kid.wins / kid.visits

    # -- one iteration ------------------------------------------------------------

    def _iterate(self, pos: Pos, root: Node) -> None:
        path: list[tuple[Pos, Node]] = [(pos, root)]
        node = root
        here = pos
        winner: int | None = None  # 0-based
        while True:
            if node.proven is not None:
                winner = here[CUR] if node.proven else 1 - here[CUR]
                break
            assert node.kids is not None
            nxt = self._select(node)
            if nxt is None:  # every child proven won for the opponent
                self._prove(here, node, False)
                winner = 1 - here[CUR]
                break
            fresh = nxt not in self.tree
            child = self._node(nxt)
            path.append((nxt, child))
            here, node = nxt, child
            if fresh and child.proven is None:
                winner = self._playout(nxt)
                break
        for p, n in path:
            n.visits += 1
            if p[CUR] == winner:
                n.wins += 1
        self.stats.playouts += 1
        self._back_up(path)
        if self.probe_waits and not self._proofs_met:
            if path[-1][1].proven is None:
                return  # no probe before a descent ends at a proven position
            self._proofs_met = True
        # The exact search where the tree is thick: a short df-pn now and then.
        for p, n in path:
            if n.proven is None and n.table and n.visits >= n.next_probe:
                n.next_probe *= 2
                self._probe(p, n)
                if n.proven is not None:
                    self._back_up(path)
                    break

    def _select(self, node: Node) -> Pos | None:
        """The child to descend into: UCB1 over the first children in the
        search's order (progressive widening), proven wins for the opponent
        skipped; None when every child is such a win."""
        assert node.kids is not None
        width = WIDEN_BASE + int(math.sqrt(node.visits))
        best: Pos | None = None
        best_value = -1.0
        log_n = math.log(node.visits + 1)
        seen = 0
        for kid in node.kids:
            k = self.tree.get(kid)
            if k is None:
                if self.search.tt.get(kid) is True:
                    continue
                return kid  # the first child not yet tried, in the search's order
            if k.proven is True:
                continue
            if k.proven is False:
                return kid  # a proven win: _back_up settles the node on the way back
            if k.visits == 0:
                # In the tree but never visited: the root of an earlier
                # question whose budget ended before its first playout.
                return kid
            value = 1.0 - k.wins / k.visits + EXPLORE * math.sqrt(log_n / k.visits)
            if value > best_value:
                best, best_value = kid, value
            seen += 1
            if seen >= width:
                break
        return best

    def _node(self, pos: Pos) -> Node:
        """The tree's node of ``pos``, made (and looked at by the exact
        search: the table, the bounds, the turns) if new."""
        node = self.tree.get(pos)
        if node is not None:
            return node
        node = Node()
        self.tree[pos] = node
        s = self.search
        known = s.tt.get(pos)
        if known is None:
            known = s._first_look(pos)
            if known is None:
                kids = s._open(pos)
                if isinstance(kids, bool):
                    known = kids
                else:
                    node.kids = kids
            if known is not None:
                self.stats.bound_proofs += 1
                s._store(pos, known)
        node.proven = known
        return node

    def _prove(self, pos: Pos, node: Node, value: bool) -> None:
        node.proven = value
        if node.table:
            self.search._store(pos, value)

    def _back_up(self, path: list[tuple[Pos, Node]]) -> None:
        """MCTS-Solver: carry proven values up the path as far as they go."""
        for i in range(len(path) - 2, -1, -1):
            pos, node = path[i]
            if node.proven is not None:
                continue
            child = path[i + 1][1]
            if child.proven is False:
                self._prove(pos, node, True)
            elif child.proven is True and self._all_won_for_them(node):
                self._prove(pos, node, False)
            else:
                return

    def _all_won_for_them(self, node: Node) -> bool:
        assert node.kids is not None
        tt = self.search.tt
        for kid in node.kids:
            k = self.tree.get(kid)
            won = k.proven if k is not None else tt.get(kid)
            if won is not True:
                return False
        return True

    def _probe(self, pos: Pos, node: Node) -> None:
        """A short proof-number search from ``pos`` (budget: its visits)."""
        s = self.search
        budget = max(1, int(node.visits * PROBE_SHARE))
        if self.work_end is not None:
            budget = min(budget, self.work_end - self.work())
            if budget <= 0:
                return
        old = s.node_limit, s.deadline
        s.node_limit = s.stats.nodes + budget
        s.deadline = self.deadline
        self.stats.probes += 1
        try:
            value = s.wins(pos)
        except OutOfBudget:
            return
        finally:
            s.node_limit, s.deadline = old
        self.stats.probe_proofs += 1
        self._prove(pos, node, value)

    # -- the playout ---------------------------------------------------------------

    def _playout(self, pos: Pos) -> int:
        """Play to the end with the fast policy; the winner (0-based)."""
        c = self.compiled
        if c is None:
            winner, turns = self._playout_python(pos, self._expand)
        else:
            winner, self.rng.state, turns = c.playout(pos, self.search.tt, self.rng.state)
        self.stats.playout_turns += turns
        return winner

    def _playout_python(
        self, pos: Pos, expand: Callable[[Pos], tuple[int, list[tuple[Pos, int, bool]]]]
    ) -> tuple[int, int]:
        """``_playout`` in Python, the turns listed by ``expand`` (the
        compiled ``Game.expand`` or ``_expand``): (winner, turns played)."""
        tt = self.search.tt
        rng = self.rng
        for turns in range(PLAYOUT_TURNS):
            known = tt.get(pos)
            mover = pos[CUR]
            if known is not None:
                return (mover if known else 1 - mover), turns
            status, kids = expand(pos)
            if status == NO_TURN:
                return 1 - mover, turns  # D6: cannot play the minimum
            if status == WINS_NOW:
                return mover, turns  # D6: all cards played
            assert status == SEARCH
            afters, scores, has = zip(*kids, strict=True)
            if not all(has):
                return mover, turns  # the opponent is left without a turn (D6)
            pos = afters[policy_index(scores, rng)]
        return 0, PLAYOUT_TURNS  # not reached on any duel of the rules

    def _expand(self, pos: Pos) -> tuple[int, list[tuple[Pos, int, bool]]]:
        """``_cduel.Game.expand`` in Python (no compiled extension)."""
        s = self.search
        status, children = s._children(pos)
        kids = []
        for plays, after in children:
            assert after is not None
            kids.append((after, s.score(pos, plays, after), self.game.has_turn(after)))
        return status, kids

    # -- the line -----------------------------------------------------------------

    def _best_kid(self, node: Node) -> Pos | None:
        """The turn to play: a proven win, else the most visited child not
        proven lost, else any."""
        if node.kids is None:
            return None
        best: Pos | None = None
        most = 0
        for kid in node.kids:
            k = self.tree.get(kid)
            if k is None:
                continue
            if k.proven is False:
                return kid
            if k.proven is True:
                continue
            if k.visits > most:
                best, most = kid, k.visits
        return best

    def line(
        self, pos: Pos, max_turns: int = 200, root: Node | None = None
    ) -> list[tuple[int, Plays]]:
        """The principal line: from a proven position the exact search's
        line to the end, else the tree's most visited turns while the tree
        is thick (``LINE_VISITS``), then the proven line if one is reached.
        ``root``: the node of a question asked inside a turn (its first
        turn is the rest of that turn)."""
        out: list[tuple[int, Plays]] = []
        if root is not None and not root.table:
            first = self._first_inside(pos, root)
            if first is None:
                return out
            plays, pos2 = first
            out.append((pos[CUR], plays))
            if pos2 is None:
                return out
            pos = pos2
        for _ in range(max_turns):
            node = self.tree.get(pos)
            known = self.search.tt.get(pos)
            if known is not None or (node is not None and node.proven is not None):
                return out + self._unbounded_line(pos)
            if node is None or node.kids is None:
                return out
            kid = self._best_kid(node) if node.visits >= LINE_VISITS else None
            if kid is None:
                if out:
                    return out
                # The move is always given: with too few playouts to tell,
                # the exact search's first choice.
                kid = node.kids[0]
            plays = self.plays_to(pos, kid)
            out.append((pos[CUR], plays))
            pos = kid
        return out

    def _first_inside(self, pos: Pos, root: Node) -> tuple[Plays, Pos | None] | None:
        """The rest of a turn under way: a win at once, a reply that leaves
        the opponent stuck, a child proven lost for them, else the most
        visited."""
        if None in self._rest:
            return self._rest[None], None
        for after, plays in self._rest.items():
            if after is None:
                continue
            k = self.tree.get(after)
            lost = k.proven if k is not None else self.search.tt.get(after)
            if lost is False or (root.proven is True and not self.game.has_turn(after)):
                return plays, after
        if root.proven is True:
            # Proven by a stuck reply (``_inside``).
            for after, plays in self._rest.items():
                if after is not None and not self.game.has_turn(after):
                    return plays, after
        kid = self._best_kid(root)
        if kid is None and root.kids:
            kid = root.kids[0]
        if kid is None:
            if not self._rest:
                return None
            after, plays = next(iter(self._rest.items()))
            return plays, after
        return self._rest[kid], kid

    def _unbounded_line(self, pos: Pos) -> list[tuple[int, Plays]]:
        """The exact search's line from a proven position; reading it has no
        budget (as in ``api.decide``)."""
        s = self.search
        old = s.node_limit, s.deadline
        s.node_limit, s.deadline = NO_NODE_LIMIT, None
        try:
            return s.line(pos)
        finally:
            s.node_limit, s.deadline = old

    def plays_to(self, pos: Pos, after: Pos | None) -> Plays:
        """The plays of a turn from ``pos`` that leads to ``after``."""
        for plays, got in self.game.turns(pos):
            if got == after:
                return plays
        raise ValueError("no turn leads there")


def policy_index(scores: tuple[int, ...], rng: SplitMix64 | None) -> int:
    """The fast policy's turn among ``expand``'s children (none of which
    leaves the opponent stuck), by their static scores: the best, the first
    of equals (``api.first_guess``'s choice); with ``rng``, one of the
    ``NOISE_WIDTH`` best one time in ``NOISE_ONE_IN``."""
    if rng is not None and len(scores) > 1 and rng.below(NOISE_ONE_IN) == 0:
        ranked = nsmallest(NOISE_WIDTH, range(len(scores)), key=scores.__getitem__)
        return ranked[rng.below(len(ranked))]
    return scores.index(min(scores))
