"""Memoized depth-first search over plays for the classic family.

Covers ``classic`` (1-5 players), ``profi``, ``profi-hard``, ``on-fire`` and
their generalised forms (rule C10). The kernel keeps its own compact state
(hands as int bitmasks, pile tops as ints) for speed; every line it finds is
replayed through the rules engine by ``thegame.solver.api`` before it is
reported, and tests compare its move generation with the engine's.

Each node is a position inside a turn: the tops, every hand, how many cards
have been drawn, whose turn it is and how many cards were played this turn
(capped at the minimum). Children are single plays and, once the minimum is
met, ending the turn. The search is a limited-discrepancy DFS: the first
child in heuristic order is free, every later child costs one discrepancy.
Iterations raise the allowance; the last one is unlimited, which makes the
search complete. Two memos: ``dead`` holds positions proven to have no
perfect clear (sound for every later iteration), ``tried`` the largest
allowance with which a position already failed (saves repeated work only).

Sound shortcuts, each argued where it is applied:
- pile symmetry in the memo key and in branching (``_key``, ``_moves``);
- dominance between plays of the same card (``_moves``);
- turn splitting in solo (``max_turn``);
- single-play turns once the solo draw pile is empty (``_auto_end``);
- the dead-card bound (``_dead_card``).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..models import Deal, GameState, Rules


class Budget(Exception):
    """The node or time budget ran out."""


WIN, DEAD, OPEN = 1, 0, -1  # OPEN: not proven either way (allowance cut)

INF = 1 << 30
# Beam settings, tuned on solo seeds 1-60 (wins per width, median time);
# they only steer the incomplete beam, never what is proven.
# Weights of cards blocked by two and by three piles in ``Kernel.evaluate``.
W2 = 1
W3 = 8
# Plays tried at each step of a turn (best first by cost).
BRANCH = 4
# Plays beyond the minimum only when they cost at most this (free or a trick).
EXTRA = 0
# Children kept per parent position.
PER_PARENT = 16
# Draw pile sizes up to this get only narrow beams (``TurnSearcher``).
SHORT_DRAW = 24


@dataclass
class SearchStats:
    nodes: int = 0
    iterations: int = 0
    dead_positions: int = 0
    dead_card_cuts: int = 0


# An action on the line: (card, pile) for a play, END for the end of a turn.
END = (-1, -1)
Action = tuple[int, int]


@dataclass
class SearchResult:
    win: bool
    proven: bool  # True: ``win`` is proven (a line, or an exhausted search)
    actions: list[Action]  # the winning line, or the best line found
    best_left: int  # cards left at the end of ``actions``
    stats: SearchStats = field(default_factory=SearchStats)


@functools.cache
def _between_table(size: int) -> list[list[int]]:
    """btw[a][b]: mask of card values strictly between a and b (a < b).
    Shared by every kernel of a card range (analysis and puzzles build
    hundreds); never mutated."""
    return [
        [((1 << b) - 1) & ~((1 << (a + 1)) - 1) if b > a + 1 else 0 for b in range(size + 1)]
        for a in range(size + 1)
    ]


class Kernel:
    """The compact state of one game and the search over it."""

    def __init__(self, deal: Deal, first: int) -> None:
        rules: Rules = deal.rules
        if rules.kind != "classic" or rules.commands:
            raise ValueError(f"the search solver does not cover {rules.name}")
        self.rules = rules
        self.deck = list(deal.deck)
        self.players = deal.players
        self.hand_size = rules.hand_size(deal.players)
        self.n_asc = rules.asc_piles
        self.n_piles = rules.asc_piles + rules.desc_piles
        self.step = rules.step
        self.min_play = rules.min_play
        self.min_empty = rules.min_play_empty
        self.fire = 0
        for c in rules.fire_cards:
            self.fire |= 1 << c
        self.total = len(self.deck)
        self.tops = [rules.asc_start] * self.n_asc + [rules.desc_start] * rules.desc_piles
        # Pending fire (rule F2): bit i set when pile i shows a fire card
        # laid in an earlier turn, which must be covered before this turn ends.
        self.pending = 0
        self.hands = [0] * self.players
        h = self.hand_size
        for p in range(self.players):
            for c in self.deck[p * h : (p + 1) * h]:
                self.hands[p] |= 1 << c
        self.pos = self.players * h
        self.unplayed = 0
        for c in self.deck:
            self.unplayed |= 1 << c
        self.cur = first
        self.t = 0  # plays this turn
        self.turn_min = self._minimum()
        # Solo turn splitting (argued in the module notes of ``max_turn``).
        self.max_turn = self._max_turn()
        self.base_max_turn = self.max_turn  # ``max_turn`` may be larger in a first, mid turn
        self.btw = _between_table(rules.high + 2)

    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        """The kernel of a position reached in a game, possibly mid-turn."""
        if state.over:
            raise ValueError("the game is over")
        k = cls(state.deal, state.current)
        rules = k.rules
        k.tops = list(state.tops)
        # F2: a fire card laid in an earlier turn must be covered this turn;
        # one laid this turn has the next turn as its deadline.
        k.pending = 0
        for i, top in enumerate(state.tops):
            if top in rules.fire_cards and state.top_turn[i] < state.turn:
                k.pending |= 1 << i
        k.hands = [0] * k.players
        for p, hand in enumerate(state.hands):
            for c in hand:
                k.hands[p] |= 1 << c
        k.pos = state.stock_pos[0]
        k.unplayed = 0
        for h in k.hands:
            k.unplayed |= h
        for c in k.deck[k.pos :]:
            k.unplayed |= 1 << c
        k.t = len(state.placed)
        k.turn_min = state.turn_min
        # Mid-turn, with t plays fixed: a turn of k >= max(2m, t+m) plays
        # still splits into k-m and m plays (the first part keeps the fixed
        # plays and meets the minimum), so this turn may need t+m-1 plays.
        if k.max_turn != INF:
            k.max_turn = max(k.base_max_turn, k.t + k.min_play - 1)
        return k

    # -- rules ---------------------------------------------------------------

    def _minimum(self) -> int:
        return self.min_play if self.pos < self.total else self.min_empty

    def _max_turn(self) -> int:
        """Longest turn worth trying while the draw pile has cards.

        Solo, minimum m: a turn of k >= 2m plays can be split into a turn of
        m plays and a turn of k-m plays (>= m, so legal, and the draw pile
        still has cards or the minimum dropped). Both end in the same tops
        and the same hand, having seen more cards in between. So turns of
        m..2m-1 plays suffice. Not with fire cards: a split moves a fire
        deadline (rule F2), and not with several players, whose turns
        interleave.
        """
        if self.players == 1 and not self.fire:
            return 2 * self.min_play - 1
        return INF

    def _auto_end(self) -> bool:
        """Solo, draw pile empty, no fire: a turn of k plays is k turns of
        one play (nothing is drawn, the minimum is 1), so every play ends
        its turn and the turn count drops out of the key."""
        return self.players == 1 and self.pos >= self.total and not self.fire

    def key(self) -> tuple[int, ...]:
        """Canonical memo key: piles of one direction are interchangeable."""
        tops = self.tops
        pend = self.pending
        # A pending fire top is a different state from the same plain top.
        marked = [tops[i] + (1000 if pend >> i & 1 else 0) for i in range(self.n_piles)]
        asc = sorted(marked[: self.n_asc])
        desc = sorted(marked[self.n_asc :])
        # The turn count matters only up to the minimum (the cards drawn
        # follow from the hand), except under the solo turn cap, where a
        # position after 3 plays has fewer options than after 2.
        t = self.t
        if t > self.turn_min and (self.max_turn == INF or self.pos >= self.total):
            t = self.turn_min
        return (*asc, *desc, *self.hands, self.pos, self.cur, t)

    def between(self, a: int, b: int) -> int:
        """Bitmask of card values strictly between a and b (a < b)."""
        return self.btw[a][b]

    def reach(self) -> tuple[int, int]:
        """(lowest card any ascending pile can ever take, highest card any
        descending pile can ever take).

        An ascending pile with top t takes any unplayed card above t, and
        from its top or from any card it can take it may go back by a
        backward trick onto an unplayed card exactly one step lower; after
        that every unplayed card above the new low is takeable too. Repeat
        until nothing changes: ``lo`` is the lowest card the pile can ever
        take. (Descending piles mirror this.) This over-approximates what is
        reachable (piles compete for cards, timing is ignored), so a card
        below every ascending ``lo`` and above every descending ``hi`` can
        never be played: the perfect clear is impossible.
        """
        step = self.step
        un = self.unplayed
        lo = INF  # lowest card some ascending pile can ever take
        for i in range(self.n_asc):
            t = self.tops[i]
            low = t + 1
            while True:
                src = ((un >> low) << low) | (1 << t)
                tgt = (src >> step) & un & ((1 << low) - 1)
                if not tgt:
                    break
                low = (tgt & -tgt).bit_length() - 1
            lo = min(lo, low)
        hi = -1  # highest card some descending pile can ever take
        for i in range(self.n_asc, self.n_piles):
            t = self.tops[i]
            high = t - 1
            while True:
                src = (un & ((1 << (high + 1)) - 1)) | (1 << t)
                tgt = (src << step) & un & ~((1 << (high + 1)) - 1)
                if not tgt:
                    break
                high = tgt.bit_length() - 1
            hi = max(hi, high)
        return lo, hi

    def dead_card(self) -> bool:
        """True if some unplayed card can never be placed again (a sound loss):
        one below every ascending reach and above every descending reach."""
        return bool(self.dead_mask())

    def dead_mask(self) -> int:
        """The unplayed cards that no pile can ever take again."""
        lo, hi = self.reach()
        lo = min(lo, self.total + self.rules.low + 1)  # no ascending pile: no bound
        if hi + 1 >= lo:
            return 0
        # cards strictly between hi and lo (hi may be -1 without descending piles)
        return self.unplayed & ((1 << lo) - 1) & ~((1 << (hi + 1)) - 1)

    # -- moves ---------------------------------------------------------------

    def moves(self) -> list[tuple[int, int, int]]:
        """Legal plays as (cost, card, pile), best first.

        Dominance between plays of the same card c on piles of one
        direction (ascending shown; descending mirrors it):
        - a backward trick c = a-s dominates any normal play of c on another
          ascending pile with top b < c: afterwards the trick pile shows c
          and the other keeps b, versus b replaced by c and a kept; b < a
          and a-s = c is gone, so the kept pile accepts everything a would;
        - two normal plays, tops b < a < c: playing on a (keeping b)
          dominates playing on b (keeping a) when a-s is already played or
          a-s > b, since then every card a accepts, b accepts too.
        Either way the dominated child can only do worse with the same cards
        drawn at the same times. Equal tops of one direction: branch once.
        """
        if self.fire:
            return self._all_moves()
        hand = self.hands[self.cur]
        tops = self.tops
        step = self.step
        un = self.unplayed
        n_asc = self.n_asc
        n_piles = self.n_piles
        btw = self.btw
        out: list[tuple[int, int, int]] = []
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            # Bonus: the card one step back is in hand, a free trick follows.
            up_bonus = (hand >> (c - step) & 1) if c > step else 0
            down_bonus = hand >> (c + step) & 1
            # ascending piles
            trick = -1
            best = -1  # pile with the highest top below c
            for i in range(n_asc):
                t = tops[i]
                if t == c + step:
                    trick = i
                    break
                if t < c and (best < 0 or t > tops[best]):
                    best = i
            if trick >= 0:
                out.append((-step, c, trick))
            elif best >= 0:
                a = tops[best]
                out.append(((un & btw[a][c]).bit_count() - up_bonus, c, best))
                if n_asc > 1:
                    # playing on b is dominated unless a-s is unplayed and
                    # not above b (then only pile a could take it)
                    keep_ok = a - step > 0 and un >> (a - step) & 1
                    seen = a
                    for i in range(n_asc):
                        b = tops[i]
                        if b < c and b != seen and keep_ok and a - step <= b:
                            seen = b
                            out.append(((un & btw[b][c]).bit_count() - up_bonus, c, i))
            # descending piles
            trick = -1
            best = -1
            for i in range(n_asc, n_piles):
                t = tops[i]
                if t == c - step:
                    trick = i
                    break
                if t > c and (best < 0 or t < tops[best]):
                    best = i
            if trick >= 0:
                out.append((-step, c, trick))
            elif best >= 0:
                a = tops[best]
                out.append(((un & btw[c][a]).bit_count() - down_bonus, c, best))
                if n_piles - n_asc > 1:
                    keep_ok = un >> (a + step) & 1
                    seen = a
                    for i in range(n_asc, n_piles):
                        b = tops[i]
                        if b > c and b != seen and keep_ok and a + step >= b:
                            seen = b
                            out.append(((un & btw[c][b]).bit_count() - down_bonus, c, i))
        out.sort()
        return out

    def _all_moves(self) -> list[tuple[int, int, int]]:
        """Every legal play, without dominance, best first.

        With fire cards the dominance arguments fail: the pile a dominated
        play would cover may show a fire card that must be covered (rule
        F2). Equal tops are still branched once (only start values repeat,
        and they are never fire cards).
        """
        hand = self.hands[self.cur]
        tops = self.tops
        step = self.step
        un = self.unplayed
        btw = self.btw
        out: list[tuple[int, int, int]] = []
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            seen: set[tuple[bool, int]] = set()
            for i, t in enumerate(tops):
                asc = i < self.n_asc
                if (asc, t) in seen:
                    continue
                seen.add((asc, t))
                if asc:
                    if c > t:
                        out.append(((un & btw[t][c]).bit_count(), c, i))
                    elif c == t - step:
                        out.append((-step, c, i))
                elif c < t:
                    out.append(((un & btw[c][t]).bit_count(), c, i))
                elif c == t + step:
                    out.append((-step, c, i))
        out.sort()
        return out

    def evaluate(self) -> int:
        """How endangered the unplayed cards are (lower is better).

        For each pile, the unplayed cards it cannot take now (neither a
        normal play nor a backward trick). A card blocked by several piles
        costs more than one blocked by one: once every pile is blocked it is
        dead. Used to rank beam positions only, never to prune.
        """
        un = self.unplayed
        step = self.step
        blocked = []
        for i, t in enumerate(self.tops):
            if i < self.n_asc:
                b = un & ((1 << (t + 1)) - 1)
                if t > step:
                    b &= ~(1 << (t - step))
            else:
                b = un & ~((1 << t) - 1)
                b &= ~(1 << (t + step))
            blocked.append(b)
        score = 0
        n = len(blocked)
        for i in range(n):
            bi = blocked[i]
            score += bi.bit_count()
            for j in range(i + 1, n):
                bij = bi & blocked[j]
                score += W2 * bij.bit_count()
                for m in range(j + 1, n):
                    score += W3 * (bij & blocked[m]).bit_count()
        return score

    def play(self, c: int, pile: int) -> tuple[int, int]:
        """Apply a play; returns what ``unplay`` needs."""
        bit = 1 << c
        saved = (self.tops[pile], self.pending)
        self.hands[self.cur] ^= bit
        self.unplayed ^= bit
        self.tops[pile] = c
        self.pending &= ~(1 << pile)  # covering clears the pile's deadline
        self.t += 1
        return saved

    def unplay(self, c: int, pile: int, saved: tuple[int, int]) -> None:
        bit = 1 << c
        self.hands[self.cur] ^= bit
        self.unplayed ^= bit
        self.tops[pile], self.pending = saved
        self.t -= 1

    def can_end(self) -> bool:
        # F2: a fire card laid in an earlier turn must be covered by now.
        return self.t >= self.turn_min and not self.pending

    def end_turn(self) -> tuple[int, int, int, int, int, int, int]:
        """Draw back to H (rule C6), move to the next player (C7)."""
        saved = (
            self.cur,
            self.t,
            self.pos,
            self.hands[self.cur],
            self.pending,
            self.turn_min,
            self.max_turn,
        )
        self.max_turn = self.base_max_turn
        hand = self.hands[self.cur]
        need = self.hand_size - hand.bit_count()
        pos = self.pos
        end = min(self.total, pos + need)
        for c in self.deck[pos:end]:
            hand |= 1 << c
        self.hands[self.cur] = hand
        self.pos = end
        # Every fire card showing now must be covered in the next turn.
        pend = 0
        if self.fire:
            for i, t in enumerate(self.tops):
                if self.fire >> t & 1:
                    pend |= 1 << i
        self.pending = pend
        nxt = (self.cur + 1) % self.players
        if end >= self.total:
            for _ in range(self.players):
                if self.hands[nxt]:
                    break
                nxt = (nxt + 1) % self.players
        self.cur = nxt
        self.t = 0
        self.turn_min = self._minimum()
        return saved

    def unend_turn(self, saved: tuple[int, int, int, int, int, int, int]) -> None:
        cur, t, pos, hand, pend, tmin, cap = saved
        self.cur, self.t, self.pos, self.pending, self.turn_min = cur, t, pos, pend, tmin
        self.max_turn = cap
        self.hands[cur] = hand

    def snapshot(self) -> tuple[object, ...]:
        return (
            list(self.tops),
            list(self.hands),
            self.pos,
            self.unplayed,
            self.cur,
            self.t,
            self.pending,
            self.turn_min,
            self.max_turn,
        )

    def restore(self, snap: tuple[object, ...]) -> None:
        tops, hands, pos, un, cur, t, pend, tmin, cap = snap
        self.tops = list(tops)  # type: ignore[call-overload]
        self.hands = list(hands)  # type: ignore[call-overload]
        self.pos, self.unplayed, self.cur, self.t = pos, un, cur, t  # type: ignore[assignment]
        self.pending, self.turn_min, self.max_turn = pend, tmin, cap  # type: ignore[assignment]

    def won(self) -> bool:
        # F3 decision: a fire card showing after the last card does not lose.
        return self.unplayed == 0


class Budgeted:
    """A search over a kernel with a node and a time budget (``Budget`` is
    raised when either runs out) and a progress callback."""

    def __init__(
        self,
        kernel: Kernel,
        node_limit: int | None = None,
        deadline: float | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.k = kernel
        self.node_limit = node_limit if node_limit is not None else INF
        self.deadline = deadline
        self.progress = progress
        self.stats = SearchStats()

    def _tick(self) -> None:
        self.stats.nodes += 1
        if self.stats.nodes >= self.node_limit:
            raise Budget
        if self.stats.nodes & 63 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise Budget
            if self.progress is not None:
                self.progress(self.stats.nodes)


class Searcher(Budgeted):
    """Limited-discrepancy DFS with memo, node and time budgets."""

    def __init__(
        self,
        kernel: Kernel,
        node_limit: int | None = None,
        deadline: float | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(kernel, node_limit, deadline, progress)
        self.dead: set[tuple[int, ...]] = set()
        self.tried: dict[tuple[int, ...], int] = {}
        self.path: list[Action] = []
        self.best_left = INF
        self.best_path: list[Action] = []
        self.beam_widths: tuple[int, ...] = ()

    def beam(self, width: int) -> bool:
        """Incomplete search for a quick win; searchers over turns have one."""
        raise NotImplementedError

    def _note_turn_end(self) -> None:
        left = self.k.unplayed.bit_count()
        if left < self.best_left:
            self.best_left = left
            self.best_path = list(self.path)

    def run(self) -> SearchResult:
        """Iterate the allowance 0, 1, 2, 4, ... then unlimited."""
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
                if r == WIN:
                    win = proven = True
                    break
                if r == DEAD:
                    proven = True
                    break
                allowance = allowance * 2 + 1 if allowance < 64 else INF
                self.tried.clear()
        except Budget:
            pass
        self.stats.dead_positions = len(self.dead)
        if win:
            return SearchResult(True, True, list(self.path), 0, self.stats)
        return SearchResult(False, proven, self.best_path, self.best_left, self.stats)

    def _dfs(self, allowance: int) -> int:
        """WIN leaves the line in ``self.path``; DEAD is a proof; OPEN is neither."""
        k = self.k
        self._tick()
        key = k.key()
        if key in self.dead:
            return DEAD
        if self.tried.get(key, -1) >= allowance:
            return OPEN
        if k.dead_card():
            self.stats.dead_card_cuts += 1
            self.dead.add(key)
            return DEAD
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
        auto = k._auto_end()
        for rank, (_, c, pile) in enumerate(order):
            cost = 0 if rank == 0 else 1
            if cost > allowance:
                complete = False
                break
            if c < 0:
                r = self._child_end(allowance - cost)
                if r == WIN:
                    return WIN
            else:
                saved = k.play(c, pile)
                self.path.append((c, pile))
                if k.won():
                    self.path.append(END)
                    return WIN
                r = self._child_end(allowance - cost) if auto else self._dfs(allowance - cost)
                if r == WIN:
                    return WIN
                self.path.pop()
                k.unplay(c, pile, saved)
            if r == OPEN:
                complete = False
        if complete:
            self.dead.add(key)
            return DEAD
        self.tried[key] = allowance
        return OPEN

    def _child_end(self, allowance: int) -> int:
        k = self.k
        saved = k.end_turn()
        self.path.append(END)
        self._note_turn_end()
        r = self._dfs(allowance)
        if r == WIN:
            return WIN
        self.path.pop()
        k.unend_turn(saved)
        return r


class TurnSearcher(Searcher):
    """Solo search over whole turns while the draw pile lasts.

    Ordering single plays cannot see that a costly play enables a backward
    trick right after it; ordering whole turns (all distinct results of
    m..2m-1 plays, the solo turn cap) by their total cost can. Discrepancies
    count per turn. Once the draw pile is empty the play-level search
    finishes the hand exactly (complete, so the endgame needs no allowance).
    """

    fire_ok = False  # see ``FireBeamSearcher``

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        k = self.k
        if k.players != 1 or (k.fire and not self.fire_ok):
            raise ValueError("turn-level search is for solo games without fire cards")
        self.branch = BRANCH
        self.per_parent = PER_PARENT
        self.extra_cost = EXTRA
        self.beam_widths = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
        if k.total - k.pos <= SHORT_DRAW:
            # Few turns to go (an endgame, a puzzle): the complete search
            # is cheap there, and wide beams only repeat its work, which
            # is all waste on a position without a perfect clear.
            self.beam_widths = (1, 8)

    def _dfs(self, allowance: int) -> int:
        k = self.k
        if k.pos >= k.total:
            return super()._dfs(INF)
        self._tick()
        key = k.key()
        if key in self.dead:
            return DEAD
        if self.tried.get(key, -1) >= allowance:
            return OPEN
        if k.dead_card():
            self.stats.dead_card_cuts += 1
            self.dead.add(key)
            return DEAD
        complete = True
        for rank, (_, plays) in enumerate(self._turns()):
            cost = 0 if rank == 0 else 1
            if cost > allowance:
                complete = False
                break
            saved = [k.play(c, p) for c, p in plays]
            self.path.extend(plays)
            if k.won():
                self.path.append(END)
                return WIN
            r = self._child_end(allowance - cost)
            if r == WIN:
                return WIN
            if plays:
                del self.path[-len(plays) :]
            for (c, p), s in zip(reversed(plays), reversed(saved), strict=True):
                k.unplay(c, p, s)
            if r == OPEN:
                complete = False
        if complete:
            self.dead.add(key)
            return DEAD
        self.tried[key] = allowance
        return OPEN

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[tuple[int, list[tuple[int, int]]]]:
        """Distinct turn results, cheapest first: (cost, plays).

        ``branch`` keeps only that many of the best plays at each step and
        ``longest`` caps the turn length: for the beam, which is incomplete
        anyway; complete search passes neither.
        """
        k = self.k
        # From a position inside a turn (an analysed game), count the plays
        # still to make; ending at once is a candidate when the minimum is met.
        lo = max(k.turn_min - k.t, 0) if k.t else k.turn_min
        hi = min(k.max_turn - k.t, longest)
        found: dict[tuple[int, ...], tuple[int, list[tuple[int, int]]]] = {}
        plays: list[tuple[int, int]] = []
        n_asc = k.n_asc
        tops = k.tops
        btw = k.btw

        # Solo without fire: a play changes only a top, the hand and the
        # unplayed set, so it is applied inline here (the hot loop).
        # Plays on different piles commute, so the same position recurs
        # within a turn; it is expanded once, at its lowest cost (the hand
        # in the key fixes the depth).
        expanded: dict[tuple[int, ...], int] = {}

        def rec(depth: int, cost: int) -> None:
            key = (*sorted(tops[:n_asc]), *sorted(tops[n_asc:]), k.hands[0])
            seen = expanded.get(key)
            if seen is not None and seen <= cost:
                return
            expanded[key] = cost
            if depth >= lo:
                found[key] = (cost, plays[:])
            if depth >= hi:
                return
            for cost_hint, c, pile in k.moves()[:branch]:
                if depth >= lo and cost_hint > extra_cost:
                    break
                top = tops[pile]
                un = k.unplayed
                # Score change: a normal play loses the unplayed cards it
                # jumps over; a backward trick wins back the ones between
                # its card and the old top (and is preferred on ties).
                if (pile < n_asc) == (c > top):
                    delta = (un & (btw[top][c] if c > top else btw[c][top])).bit_count()
                else:
                    delta = -(un & (btw[c][top] if c < top else btw[top][c])).bit_count() - 1
                bit = 1 << c
                k.hands[0] ^= bit
                k.unplayed = un ^ bit
                tops[pile] = c
                plays.append((c, pile))
                rec(depth + 1, cost + delta)
                plays.pop()
                tops[pile] = top
                k.unplayed = un
                k.hands[0] ^= bit

        rec(0, 0)
        out = sorted(found.values(), key=lambda x: x[0])
        # A child whose every line is a dead card is pruned in the child.
        return out

    def beam(self, width: int) -> bool:
        """Beam search over turns, keeping the ``width`` cheapest positions.

        Incomplete by design: it finds wins that an early greedy mistake
        hides from depth-first search. A win leaves the line in ``path``.
        """
        k = self.k
        root = k.snapshot()
        beam: list[tuple[int, list[Action], tuple[object, ...]]] = [(0, [], root)]
        while beam:
            cands: list[tuple[int, int, tuple[int, ...], int, list[tuple[int, int]]]] = []
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
                    if key not in seen and key not in self.dead and not k.dead_card():
                        seen.add(key)
                        taken += 1
                        cands.append((k.evaluate(), n, key, idx, plays))
                    k.unend_turn(ended)
                    for (c, p), s in zip(reversed(plays), reversed(saved), strict=True):
                        k.unplay(c, p, s)
            cands.sort(key=lambda x: (x[0], x[1]))
            nxt = []
            for score, _, _, idx, plays in cands[:width]:
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
            beam = nxt
        k.restore(root)
        self.path = []
        return False

    def _dfs_endgame(self) -> bool:
        r = Searcher._dfs(self, INF)
        return r == WIN


class FireBeamSearcher(TurnSearcher):
    """Solo with fire cards: the beam over whole turns, then the play-level
    limited-discrepancy search (complete).

    The solo turn cap and the inline turn enumeration assume no fire (a
    split would move a fire deadline, rule F2), so here turns are listed
    through ``Kernel.play``, which keeps the deadlines, and a turn may end
    only with every due fire card covered. The beam is incomplete anyway;
    what it proves nothing about, the play-level search decides.
    """

    fire_ok = True

    def _dfs(self, allowance: int) -> int:
        return Searcher._dfs(self, allowance)

    def _turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[tuple[int, list[tuple[int, int]]]]:
        k = self.k
        lo = max(k.turn_min - k.t, 0) if k.t else k.turn_min
        hi = min(k.max_turn - k.t, longest)
        found: dict[tuple[int, ...], tuple[int, list[tuple[int, int]]]] = {}
        expanded: dict[tuple[int, ...], int] = {}
        plays: list[tuple[int, int]] = []

        def rec(depth: int, cost: int) -> None:
            # Fire deadlines are per pile: no pile symmetry in this key.
            key = (*k.tops, k.pending, k.hands[0])
            seen = expanded.get(key)
            if seen is not None and seen <= cost:
                return
            expanded[key] = cost
            if k.unplayed == 0 or (depth >= lo and k.t > 0 and not k.pending):
                found[key] = (cost, plays[:])
            if depth >= hi or k.unplayed == 0:
                return
            for cost_hint, c, pile in k.moves()[:branch]:
                # Beyond the minimum only cheap plays, unless a fire card
                # still has to be covered.
                if depth >= lo and cost_hint > extra_cost and not k.pending:
                    break
                saved = k.play(c, pile)
                plays.append((c, pile))
                rec(depth + 1, cost + cost_hint)
                plays.pop()
                k.unplay(c, pile, saved)

        rec(0, 0)
        return sorted(found.values(), key=lambda x: x[0])
