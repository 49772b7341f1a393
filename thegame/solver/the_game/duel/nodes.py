"""The pieces every search of a Face to Face duel shares at a node.

Both searches (``search.DuelSearch``, depth first, and
``pns.ProofNumberSearch``, df-pn) run on ``DuelNodes``: the table of proven
values (exact positions, and groups for dominance between positions), the
budget (``OutOfBudget`` when the node or time budget runs out; no value is
stored for a node whose search was cut), the first look that settles a
node without its children (dominance, the race bounds ``_decide``, the
survival bounds ``_survival``), its children (turn dominance,
``undominated``) in search order (immediate wins, replies that leave the
opponent without a legal turn, children already proven, then a static
score), and the principal line read from the settled values. The searches
differ only in which child they search next.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from ....models import interrupt
from ....models.outcome import OutOfBudget
from ....models.the_game.placement import takes_all_of
from ..budget import NO_NODE_LIMIT
from . import ccore
from .position import A0, CUR, D0, H0, P0, DuelGame, Plays, Pos, TurnResult, cards_of, solo_of
from .race import INF, RaceSolver, RelaxedRace, alone_floor, dead_cards, fewest_turns
from .survival import Endurance

# The robust race is searched only for players with at most this many cards
# left, with at most this many nodes per call: it is a bound, not the search.
ROBUST_CARDS = 16
ROBUST_NODES = 400
# Likewise the relaxed race (the stronger floor of the race bounds).
RELAXED_CARDS = 16
RELAXED_NODES = 100
# Proven positions kept at most (the table and its dominance groups cost
# some 400 bytes a position in Python): beyond it, new values are not kept,
# which costs speed, never soundness, and keeps a worker under 1 GiB at any
# budget (860 MB at 60 s on the printed game, 2.4 M positions).
# It and df-pn's limit are sized for ``budget.DEFAULT_MEMORY_MIB``;
# ``api.scaled_limits`` scales them to another ``Limit.memory``.
TABLE_LIMIT = 2_000_000
# The survival bounds look this many turns ahead, with at most this many
# turn listings per call.
SURVIVAL_TURNS = 6
SURVIVAL_NODES = 400


@dataclass
class BoundSizes:
    """How far the bounds of a node look (``DuelNodes.sizes``; the
    defaults above): a race is asked only for a player with at most so many
    cards left, each bound call within so many nodes of its own."""

    robust_cards: int = ROBUST_CARDS
    robust_nodes: int = ROBUST_NODES
    relaxed_cards: int = RELAXED_CARDS
    relaxed_nodes: int = RELAXED_NODES
    survival_nodes: int = SURVIVAL_NODES


# What ``DuelNodes._children`` says of a node (``_cduel.Game.expand`` too),
# and ``_sift`` of its children (``_cduel.Game.sift``).
NO_TURN, WINS_NOW, SEARCH, REFUTED, STUCK = 0, 1, 2, 3, 4


@dataclass
class DuelStats:
    nodes: int = 0
    bound_cuts: int = 0  # positions the race bounds settle
    survival_cuts: int = 0  # positions the survival bounds settle
    stuck_cuts: int = 0
    tt_hits: int = 0
    dominated: int = 0  # values read from a dominating or dominated position


class DuelNodes:
    """What a search of the duel does at a node, whatever it searches next:
    the table of proven values, the budget, the look that settles a node
    without its children, its children in order, and the line read from the
    settled values. A search says how it answers ``wins``."""

    def __init__(
        self, game: DuelGame, node_limit: int | None = None, deadline: float | None = None
    ) -> None:
        self.game = game
        self.node_limit = node_limit if node_limit is not None else NO_NODE_LIMIT
        self.deadline = deadline
        self.tt: dict[Pos, bool] = {}
        # The proven positions again, grouped by what dominance compares
        # within (``_cards``): both hands, both draw piles, the mover.
        self.by_cards: dict[tuple[int, ...], list[tuple[Pos, bool]]] = {}
        self.dominance = True  # dominance between positions (off: for measuring)
        self.table_limit = TABLE_LIMIT
        # The floor alone in the race bounds (``_decide``; off: fewest_turns).
        self.alone = True
        self.stats = DuelStats()
        self.progress: Callable[[int], None] | None = None
        # The compiled node expansion (``ccore``), None: the Python pieces.
        self.compiled = ccore.compiled(game)
        self.robust = [RaceSolver(game, q, True, self.compiled) for q in (0, 1)]
        # The relaxed race as the floor of the race bounds where the weaker
        # floor leaves them undecided (``_decide``; off: for measuring).
        self.relaxed_race = True
        self.fewest_relaxed = [RelaxedRace(game, q, self.compiled) for q in (0, 1)]
        # The survival bounds (``_survival``; off: for measuring) and how
        # many turns ahead they look.
        self.survival = True
        self.survival_turns = SURVIVAL_TURNS
        self.sizes = BoundSizes()
        self.relaxed = [Endurance(game, q, True, self.compiled) for q in (0, 1)]
        self.sure = [Endurance(game, q, False, self.compiled) for q in (0, 1)]

    # -- the pieces of a node ------------------------------------------------------

    def wins(self, pos: Pos) -> bool:
        """Whether the player to move wins with best play from both sides
        (each search answers it its own way)."""
        raise NotImplementedError

    def _store(self, pos: Pos, value: bool) -> None:
        if len(self.tt) >= self.table_limit:
            return  # full: a value not kept is searched again if needed
        self.tt[pos] = value
        self.by_cards.setdefault(_cards(pos), []).append((pos, value))

    def _by_dominance(self, pos: Pos) -> bool | None:
        """The value of ``pos`` read from a proven position with the same
        cards in play (``by_dominance``), compiled when ``ccore`` says so."""
        known = self.by_cards.get(_cards(pos))
        if not known:
            return None
        if self.compiled is not None:
            return self.compiled.dominance(pos, known)
        return by_dominance(self.game, pos, known)

    def _first_look(self, pos: Pos) -> bool | None:
        """The value of ``pos`` without its children, when dominance, the
        race bounds or the survival bounds give it (None: open it)."""
        got = self._by_dominance(pos) if self.dominance else None
        if got is not None:
            self.stats.dominated += 1
            return got
        decided = self._decide(pos)
        if decided is not None:
            self.stats.bound_cuts += 1
            return decided
        if self.survival:
            decided = self._survival(pos)
            self.stats.survival_cuts += decided is not None
        return decided

    def _lost_at_once(self, pos: Pos) -> bool:
        """Whether ``_first_look`` settles ``pos`` as lost for its mover; a
        look, not a visit, so the statistics stay as they were."""
        s = self.stats
        counts = s.bound_cuts, s.survival_cuts, s.dominated
        lost = self._first_look(pos) is False
        s.bound_cuts, s.survival_cuts, s.dominated = counts
        return lost

    def _open(self, pos: Pos) -> bool | list[Pos]:
        """The value of ``pos`` when its turns settle it at once, else the
        positions after its turns that are still to search, best first."""
        c = self.compiled
        if c is not None:
            status, kids = c.expand(pos)
        else:
            status, children = self._children(pos)
        if status == NO_TURN:
            return False  # D6: the player to move cannot play 2 cards and loses
        if status == WINS_NOW:
            return True  # D6: a turn that plays all their cards
        # The mover cannot finish this turn, so they need two turns at least;
        # if the opponent finishes in one robust turn (legal whatever card
        # the mover lays on their piles now, ``solo_turns``), the mover loses.
        o = 1 - pos[CUR]
        up_o = self._robust(pos, o, 1)
        if up_o is not None and up_o <= 1:
            self.stats.bound_cuts += 1
            return False
        by_cards = self.by_cards if self.dominance else None
        if c is not None:
            found, got, dominated, hits = c.sift(kids, self.tt, by_cards)
        else:
            found, got, dominated, hits = self._sift(pos, children, by_cards)
        self.stats.dominated += dominated
        self.stats.tt_hits += hits
        if found == REFUTED:
            return True  # a child proven lost for the opponent
        if found == STUCK:
            assert isinstance(got, tuple)
            self.stats.stuck_cuts += 1
            self._store(got, False)  # D6: the opponent cannot play 2 cards
            return True
        assert isinstance(got, list)
        # Empty: every turn leads to a proven win for the opponent.
        return got if got else False

    def _children(self, pos: Pos) -> tuple[int, list[TurnResult]]:
        """The node's status and, for ``SEARCH``, its undominated turn
        results in ``DuelGame.turns`` order (``_cduel.Game.expand`` gives
        the same, with each one's score and whether the opponent then has a
        turn)."""
        children = self.game.turns(pos)
        if not children:
            return NO_TURN, []
        if any(after is None for _plays, after in children):
            return WINS_NOW, []
        return SEARCH, undominated(self.game, pos, children)

    def _sift(
        self,
        pos: Pos,
        children: list[TurnResult],
        by_cards: dict[tuple[int, ...], list[tuple[Pos, bool]]] | None,
    ) -> tuple[int, Pos | list[Pos], int, int]:
        """What the children already say (``_cduel.Game.sift`` does the same
        over ``expand``'s children). In order: a child proven lost for the
        opponent, in the table or by dominance (``by_cards``, None: not
        used), ends the node (``REFUTED``); one proven won for them is
        skipped; one where they have no turn ends it (``STUCK``); the rest
        come back best score first (``SEARCH``). Also the values read by
        dominance and the table hits."""
        later: list[tuple[int, Pos]] = []
        dominated = 0
        for plays, after in children:
            assert after is not None
            known = self.tt.get(after)
            hit = known is not None
            if known is None and by_cards is not None:
                group = by_cards.get(_cards(after))
                known = by_dominance(self.game, after, group) if group else None
                dominated += known is not None
            if known is False:
                return REFUTED, after, dominated, int(hit)
            if known is True:
                continue  # a win for the opponent: no use trying
            if not self.game.has_turn(after):
                return STUCK, after, dominated, 0
            later.append((self.score(pos, plays, after), after))
        later.sort(key=lambda sa: sa[0])
        return SEARCH, [after for _score, after in later], dominated, 0

    def _tick(self) -> None:
        self.stats.nodes += 1
        if self.stats.nodes >= self.node_limit:
            raise OutOfBudget
        # A node lists up to a few hundred turns: look at the clock often.
        if self.stats.nodes & 7 == 0:
            if interrupt.requested() or (
                self.deadline is not None and time.monotonic() > self.deadline
            ):
                raise OutOfBudget
            if self.progress is not None:
                self.progress(self.stats.nodes)

    # -- bounds ---------------------------------------------------------------------

    def _decide(self, pos: Pos) -> bool | None:
        """Sound early ends from the races (None: search on).

        Let p move and o be the opponent; ``U`` is the robust race (the
        player finishes within U own turns on their own piles whatever the
        opponent lays on them, never stuck on the way: ``solo_turns``) and
        ``L`` is ``alone_floor`` (the player cannot finish sooner while the
        other lays nothing on their piles; with ``alone`` off, the weaker
        ``fewest_turns``, which holds whatever anyone does); where that
        decides nothing, the relaxed race (``RelaxedRace``, the same promise,
        stronger; 36% fewer df-pn nodes on the benchmark's turn starts).
        - U_p <= L_o: p wins. p follows the robust plan, which lays nothing
          on o's piles, so L_o holds: p's U_p-th turn comes before o's
          U_p-th, and o cannot finish before their L_o-th >= U_p-th turn.
        - L_p > U_o: p loses. o follows the robust plan, laying nothing on
          p's piles, and finishes at their U_o-th turn, which follows p's
          U_o-th turn; p cannot finish by then, nor stop o's plan.
        """
        g = self.game
        p = pos[CUR]
        o = 1 - p
        if self.alone:
            c = self.compiled
            low = [
                alone_floor(g, pos, q, None if c is None else c.dead_cards(q, solo_of(pos, q)))
                for q in (0, 1)
            ]
        else:
            low = [fewest_turns(g, pos[H0 + q].bit_count(), g.stock_left(pos, q)) for q in (0, 1)]
        up_p = self._robust(pos, p, low[o])
        if up_p is not None and up_p <= low[o]:
            return True
        if up_p is not None and self._relaxed_floor(pos, o) >= up_p:
            return True
        up_o = self._robust(pos, o, low[p] - 1)
        if up_o is not None and low[p] > up_o:
            return False
        if up_o is None and self.alone and self.relaxed_race:
            # The relaxed race may lift p's floor to where o's robust race
            # is worth asking for.
            up_o = self._robust(pos, o, self._relaxed_floor(pos, p) - 1)
        if up_o is not None and self._relaxed_floor(pos, p) > up_o:
            return False
        return None

    def _relaxed_floor(self, pos: Pos, q: int) -> int:
        """The relaxed race of q (``RelaxedRace``, a floor in place of
        ``alone_floor`` in ``_decide``'s two rules) when cheap, else 0."""
        cheap = self.game.cards_left(pos, q) <= self.sizes.relaxed_cards
        if not (self.alone and self.relaxed_race and cheap):
            return 0
        try:
            return self.fewest_relaxed[q].fewest(solo_of(pos, q), self.sizes.relaxed_nodes)
        except OutOfBudget:
            return 0

    def _survival(self, pos: Pos) -> bool | None:
        """Sound early ends from how long each player can keep playing
        (``survival.py``; None: search on). Let p move and o be the other.
        - o takes at most s < K relaxed turns alone and p surely takes s + 1
          turns: p wins. p plays the robust turns, laying nothing on o's
          piles, so o's real turns are relaxed ones and o, who cannot finish
          in them, is stuck at one of their first s + 1 turns, each of which
          follows a turn p surely has.
        - p takes at most s < K relaxed turns alone and o surely takes s
          turns: p loses, stuck at one of their first s + 1 turns while o's
          robust turns before each are legal."""
        p = pos[CUR]
        o = 1 - p
        k, n = self.survival_turns, self.sizes.survival_nodes
        mine, theirs = solo_of(pos, p), solo_of(pos, o)
        try:
            s = self.relaxed[o].lasts(theirs, k, n)
            if s < k and self.sure[p].lasts(mine, s + 1, n) > s:
                return True
            s = self.relaxed[p].lasts(mine, k, n)
            if s < k and self.sure[o].lasts(theirs, s, n) >= s:
                return False
        except OutOfBudget:
            return None
        return None

    def _robust(self, pos: Pos, q: int, useful: int) -> int | None:
        """Player q's robust race from ``pos`` when cheap, else None. Only
        worth it when the floor ``fewest_turns`` of q is at most ``useful``."""
        g = self.game
        if g.cards_left(pos, q) > self.sizes.robust_cards:
            return None
        if fewest_turns(g, pos[H0 + q].bit_count(), g.stock_left(pos, q)) > useful:
            return None
        solver = self.robust[q]
        try:
            value = solver.fewest(solo_of(pos, q), self.sizes.robust_nodes)
        except OutOfBudget:
            return None
        return None if value >= INF else value

    # -- ordering ---------------------------------------------------------------------

    def score(self, pos: Pos, plays: Plays, after: Pos) -> int:
        """Lower first. The mover's cards that their piles no longer take as
        they stand (each costs a future turn or a rescue), what a card onto
        the opponent gave them, fewer cards left first, more of the
        opponent's cards dead on their own piles first. A heuristic only:
        every child is searched before a loss is stored."""
        p = pos[CUR]
        o = 1 - p
        g = self.game
        a, d = after[A0 + 2 * p], after[D0 + 2 * p]
        mine = after[H0 + p]
        stuck = sum(1 for c in cards_of(mine) if d <= c <= a)
        rest = g.decks[p][after[P0 + p] :]
        stuck += sum(1 for c in rest if d <= c <= a)
        oa0, od0 = pos[A0 + 2 * o], pos[D0 + 2 * o]
        oa, od = after[A0 + 2 * o], after[D0 + 2 * o]
        gift = (oa0 - oa) + (od - od0)
        # The opponent's cards dead on their own piles (each costs them a
        # turn, ``alone_floor``): 6-42% fewer nodes on the printed game.
        their_dead = dead_cards(g, o, solo_of(after, o))
        return (
            8 * stuck + gift + 2 * g.cards_left(after, p) + _jumps(pos, after, p) - 4 * their_dead
        )

    # -- the line -----------------------------------------------------------------

    def line(self, pos: Pos, max_turns: int = 1000) -> list[tuple[int, Plays]]:
        """The principal line from a solved position: the winner plays a
        proven winning turn, the loser a turn that lasts (every one loses).
        Each turn comes with its player (0-based)."""
        out: list[tuple[int, Plays]] = []
        for _ in range(max_turns):
            children = self.game.turns(pos)
            if not children:
                return out
            win = self.wins(pos)
            pick: TurnResult | None = None
            if win:
                # A child already proven lost for the opponent first (the
                # search's own refutation); searching another could be long.
                known = [t for t in children if t[1] is None or self.tt.get(t[1]) is False]
                # Then one the bounds settle at once: where a bound decided
                # this position, the turn of its plan (a robust turn) is
                # such a child, and any other may need a long search.
                settled = (t for t in children if t[1] is not None and self._lost_at_once(t[1]))
                for plays, after in chain(known, settled, children):
                    if after is None or not self.wins(after):
                        pick = (plays, after)
                        break
            else:
                # Every turn loses; show the one that leaves the loser the
                # fewest cards to play (the stoutest resistance by count).
                pick = max(children, key=lambda t: _resist(self.game, t))
            assert pick is not None, "a proven win has a winning turn"
            out.append((pos[CUR], pick[0]))
            if pick[1] is None:
                return out
            pos = pick[1]
        return out


def undominated(game: DuelGame, pos: Pos, children: list[TurnResult]) -> list[TurnResult]:
    """The turns of the player to move that no other turn dominates.

    Turn Y dominates turn X when both leave the same hands and draw piles,
    Y leaves the mover's own piles at least as good (``takes_all_of``: each
    takes every card the other takes, now and later) and the
    opponent's piles no better for the opponent than X does. From Y the
    mover has every option X gives (own plays, D3; a card on the opponent,
    D4 only needs the opponent's tops high or low enough), the opponent
    only options X gives them too (their own piles, D3; a card on the
    mover's piles, D4), and the same move leaves both positions related the
    same way. So if X wins for the mover, Y does: only the undominated turns
    need searching. The relation is transitive, so every dropped turn is
    dominated by one that is kept.
    """
    p = pos[CUR]
    o = 1 - p
    groups: dict[tuple[int, ...], list[Pos]] = {}
    for _plays, after in children:
        if after is not None:  # a win at once (D6) is kept
            groups.setdefault(_cards(after), []).append(after)
    dominated: set[Pos] = set()
    for group in groups.values():
        if len(group) < 2:
            continue
        un_p, un_o = _unplayed(game, group[0], p), _unplayed(game, group[0], o)
        for x in group:
            for y in group:
                if y is not x and at_least_as_good(game.step, p, y, x, un_p, un_o):
                    dominated.add(x)
                    break
    if not dominated:
        return children
    return [t for t in children if t[1] is None or t[1] not in dominated]


def by_dominance(game: DuelGame, pos: Pos, known: list[tuple[Pos, bool]]) -> bool | None:
    """The value of ``pos`` for its mover, read from ``known`` (proven
    positions with the same cards in play, ``_cards``, and whether their
    mover wins): a win when ``pos`` is at least as good for its mover as a
    won one, a loss when a lost one is at least as good as ``pos``; None:
    neither. Sound by the argument at ``undominated``: the better position
    gives its mover every option of the worse one, move for move, and the
    opponent none the worse one did not."""
    p = pos[CUR]
    un_p, un_o = _unplayed(game, pos, p), _unplayed(game, pos, 1 - p)
    for other, won in known:
        if won:
            if at_least_as_good(game.step, p, pos, other, un_p, un_o):
                return True
        elif at_least_as_good(game.step, p, other, pos, un_p, un_o):
            return False
    return None


def at_least_as_good(step: int, q: int, y: Pos, x: Pos, un_q: int, un_o: int) -> bool:
    """Whether ``y`` is at least as good as ``x`` for player q, two
    positions with the same cards in play (``_cards``): each of q's piles in
    ``y`` takes every card the same pile in ``x`` takes, now and later, and
    each of the opponent's piles in ``x`` takes every card it takes in ``y``
    (``takes_all_of``; ``un_q``, ``un_o``: each player's cards still to play)."""
    o = 1 - q
    return (
        takes_all_of(True, y[A0 + 2 * q], x[A0 + 2 * q], step, un_q)
        and takes_all_of(False, y[D0 + 2 * q], x[D0 + 2 * q], step, un_q)
        and takes_all_of(True, x[A0 + 2 * o], y[A0 + 2 * o], step, un_o)
        and takes_all_of(False, x[D0 + 2 * o], y[D0 + 2 * o], step, un_o)
    )


def _cards(pos: Pos) -> tuple[int, ...]:
    """What two positions must share for dominance to compare them: both
    hands, both draw-pile positions (``H0:A0``) and the player to move."""
    return (*pos[H0:A0], pos[CUR])


def _unplayed(game: DuelGame, pos: Pos, q: int) -> int:
    """Player q's cards still to play, as a mask: hand and draw pile."""
    un = pos[H0 + q]
    for c in game.decks[q][pos[P0 + q] :]:
        un |= 1 << c
    return un


def _jumps(pos: Pos, after: Pos, p: int) -> int:
    """How far the mover's own tops moved towards their dead ends."""
    a0, d0 = pos[A0 + 2 * p], pos[D0 + 2 * p]
    a, d = after[A0 + 2 * p], after[D0 + 2 * p]
    return max(0, a - a0) + max(0, d0 - d)


def _resist(game: DuelGame, turn: TurnResult) -> int:
    after = turn[1]
    if after is None:
        return INF
    p = 1 - after[CUR]
    return -game.cards_left(after, p)
