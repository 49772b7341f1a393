"""Cento at a table of 2 to 6 players with everything known: can seat K
force a win, whatever every other player does?

The others are taken as one coalition that plays against K (a game of 3 or
more players has no single value; this question has one). A win is being
among the winners of rule Z1: emptying the hand first, or holding the fewest
cards when every player has passed in a row (a shared win counts). With
``Goal.ALONE`` only a win that nobody shares counts; two players use both
goals to tell a win from a shared win.

The search is depth-first proof-number search (df-pn) over whole turns: an
OR node where K moves (one proven turn suffices), an AND node where a
member of the coalition moves (every turn must be proven). The
transposition table is keyed on the position: every hand as a set (a bit
mask and a count of free cards), the open card's class, the draw pile's
position, the rule Z2 binding, the rule Z5 immunities, the passes in a row
and the player to move. The game has no cycles (every turn plays or draws a
card, or is one of the passes in a row that end it), so the proof is exact;
rule Z1's end by passes is a terminal node judged by the cards left.
Children are first seen with proof and disproof numbers from a cheap
evaluation (the cards K holds against the fewest any other player holds),
which orders the search; the numbers only steer, never prune. A child
whose mover has a single turn is keyed by the first position after it with a
choice (a forced turn has its child's value), and a child whose mover can
empty their hand at once is an end before it is searched: a bit-mask test
says when a position surely has a choice, so only the others have their
turns made early.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ...models.cento.deal import Deal
from ...models.cento.rules import FREE
from ...models.cento.state import State
from ...models.outcome import NO_LIMIT, OutOfBudget
from .budget import NodeCounter
from .moves import Outcome, TurnGen, add_cards
from .tables import BIT100, tables

INF = 1 << 40
FREE_SHIFT = 101  # a hand is one int: the mask of number cards, then the free cards above
NUMBERS = (1 << FREE_SHIFT) - 1
KIDS_CACHE = 200_000  # expanded nodes kept (df-pn comes back to a node many times)

# The small fields of a position packed in one int (see ``_pack``), then one
# int per hand in seat order.
Key = tuple[int, ...]


class Goal(Enum):
    """What counts as a win for the seat asked about."""

    SHARE = "among the winners"  # a shared win at rule Z1's all-pass end counts
    ALONE = "the only winner"


class TableVerdict(Enum):
    """The answer for one seat: ``TIE`` (two players only) is a shared win
    that the seat can force but not better."""

    WIN = "win"
    LOSS = "loss"
    TIE = "tie"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


def _pack(to_move: int, open_c: int, pos: int, obliged: bool, passes: int, immune: int) -> int:
    return to_move | open_c << 3 | pos << 10 | obliged << 17 | passes << 18 | immune << 21


def _cards(hand: int) -> int:
    return (hand & NUMBERS).bit_count() + (hand >> FREE_SHIFT)


@dataclass
class Progress:
    """How far a search got: the root's proof and disproof numbers (0 when
    decided), the positions proven either way, and the nearest turn from
    the start at which a position was decided."""

    root_pn: int = 1
    root_dn: int = 1
    proven: int = 0
    disproven: int = 0
    nearest: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "proof_number": min(self.root_pn, INF),
            "disproof_number": min(self.root_dn, INF),
            "positions_won": self.proven,
            "positions_lost": self.disproven,
            "nearest_decided_turn": self.nearest,
        }


class TableSolver:
    """One goal for one seat (0-based ``player``) of a deal, df-pn with a
    table of proof and disproof numbers kept for the whole search."""

    def __init__(
        self,
        deal: Deal,
        player: int,
        goal: Goal = Goal.SHARE,
        budget: NodeCounter | None = None,
        losses: dict[Key, tuple[int, int]] | None = None,
    ) -> None:
        if not 2 <= deal.players <= 6:
            raise ValueError(f"the table search takes 2 to 6 players, not {deal.players}")
        if not 0 <= player < deal.players:
            raise ValueError(f"player {player + 1} is not a seat of {deal.players}")
        self.deal = deal
        self.n = deal.players
        self.k = player
        self.goal = goal
        self.tab = tables(deal.rules)
        self.gen = TurnGen(self.tab, deal.draw)
        self.budget = budget or NodeCounter(NO_LIMIT)
        self.tt: dict[Key, tuple[int, int]] = {}
        self.kids: dict[Key, list[tuple[Key | None, int, int, int]]] = {}
        self.opts: dict[Key, list[tuple[Outcome, Key | None, bool]]] = {}
        # A weaker goal's table: a position where K cannot even share the
        # win is lost for ALONE too.
        self.losses = losses
        self.progress = Progress()
        self.trick_draw = deal.rules.trick_draw

    def key_of(self, state: State) -> Key:
        hands = tuple(m | f << FREE_SHIFT for m, f in (add_cards(0, 0, h) for h in state.hands))
        immune = sum(1 << i for i, im in enumerate(state.immune) if im)
        small = _pack(
            state.to_move,
            self.tab.canon[state.open],
            state.draw_pos,
            state.obliged,
            state.passes,
            immune,
        )
        return (small, *hands)

    def _wins(self, hands: list[int]) -> bool:
        """Rule Z1's all-pass end: the fewest cards win (a tie shares)."""
        counts = [_cards(h) for h in hands]
        mine = counts[self.k]
        others = min(c for i, c in enumerate(counts) if i != self.k)
        return mine < others or (mine == others and self.goal == Goal.SHARE)

    def expand(self, key: Key) -> list[tuple[Outcome, Key | None, bool]]:
        """Each distinct turn with its child, or None and whether K wins when
        the turn ends the game. A turn that decides the node alone is
        returned by itself."""
        small = key[0]
        mover = small & 7
        open_c = small >> 3 & 127
        pos = small >> 10 & 127
        obliged = bool(small >> 17 & 1)
        passes = small >> 18 & 7
        immune = small >> 21
        n = self.n
        hand = key[1 + mover]
        me_imm = bool(immune >> mover & 1)
        mine = mover == self.k
        draw = self.deal.draw
        out: list[tuple[Outcome, Key | None, bool]] = []
        seen: set[Key] = set()
        nxt = (mover + 1) % n
        for o in self.gen.outcomes(
            hand & NUMBERS, hand >> FREE_SHIFT, open_c, pos, obliged and not me_imm, me_imm, n - 1
        ):
            if o.won:  # rule Z1: the mover emptied their hand and wins alone
                return [(o, None, mine)]
            hands = list(key[1:])
            hands[mover] = o.mask | o.free << FREE_SHIFT
            if o.trick:  # rule Z5: every other player draws, in seat order
                p = pos
                for j in range(1, n):
                    seat = (mover + j) % n
                    got = draw[p : min(p + self.trick_draw, o.trick_pos)]
                    p += len(got)
                    m, f = add_cards(hands[seat] & NUMBERS, hands[seat] >> FREE_SHIFT, got)
                    hands[seat] = m | f << FREE_SHIFT
            p2 = passes + 1 if o.passed else 0
            if p2 >= n:  # rule Z1: every player passed in a row
                won = self._wins(hands)
                if won == mine:
                    return [(o, None, won)]
                out.append((o, None, won))
                continue
            imm2 = immune | (o.immune << mover)
            child = (_pack(nxt, o.open, o.pos, o.obliged, p2, imm2), *hands)
            if child not in seen:
                seen.add(child)
                out.append((o, child, False))
        return out

    def _init(self, child: Key) -> tuple[int, int]:
        """Proof and disproof numbers of an unseen position: the cards K
        still has to shed against the fewest any other player holds."""
        k1 = self.k + 1
        mine = 0
        other = INF
        for i in range(1, len(child)):
            h = child[i]
            c = (h & NUMBERS).bit_count() + (h >> FREE_SHIFT)
            if i == k1:
                mine = c
            elif c < other:
                other = c
        return 1 + mine // 2, 1 + other // 2

    def lookup(self, child: Key) -> tuple[int, int]:
        e = self.tt.get(child)
        if e is not None:
            return e
        if self.losses is not None:
            w = self.losses.get(child)
            if w is not None and w[0] >= INF:
                return w
        return self._init(child)

    def _options(self, key: Key) -> list[tuple[Outcome, Key | None, bool]]:
        """``expand`` kept while the cache has room (a node's children are
        looked at once from the parent and again when the node is searched)."""
        got = self.opts.get(key)
        if got is None:
            got = self.expand(key)
            if len(self.opts) >= KIDS_CACHE:
                self.opts.clear()
            self.opts[key] = got
        return got

    def resolve(self, key: Key) -> tuple[Key | None, int, int, int]:
        """Follow forced turns: a position with one turn has its child's value,
        so the search keys it by the first position with a choice (or the
        game's end, with its numbers 0/INF), and the turns followed. This
        looks one turn ahead of every child: a mover who can empty their hand
        at once is seen before the child is searched."""
        steps = 0
        while True:
            if key not in self.opts and self._has_choice(key):
                return key, 0, 0, steps
            options = self._options(key)
            if len(options) != 1:
                return key, 0, 0, steps
            _, nxt, won = options[0]
            steps += 1
            if nxt is None:
                return (None, 0, INF, steps) if won else (None, INF, 0, steps)
            key = nxt

    def _has_choice(self, key: Key) -> bool:
        """True when the mover surely has more than one turn and cannot empty
        their hand this turn (a test on bit masks, without making the turns);
        False when the turns must be made to tell."""
        small = key[0]
        mover = small & 7
        hand = key[1 + mover]
        mask = hand & NUMBERS
        free = hand >> FREE_SHIFT
        tab = self.tab
        if (mask & BIT100 and self.gen.special) or mask.bit_count() + free <= 1:
            return False
        # Emptying a hand of two or more cards takes a chain (rule Z3): every
        # number card shares one digit.
        for cards in tab.chain_cards:
            if not mask & ~cards:
                return False
        if small >> 17 & 1 and not small >> (21 + mover) & 1:  # bound by rule Z2
            return bool(mask & tab.singles or free)
        open_c = small >> 3 & 127
        fitting = mask & tab.fit[open_c]
        if fitting or free:
            return bool(free or fitting & (fitting - 1))
        pos = small >> 10 & 127
        if pos < len(self.deal.draw):  # the drawn card may be played when it fits
            x = self.deal.draw[pos]
            return x == FREE or bool(tab.fit[open_c] >> x & 1)
        return False

    def children(self, key: Key) -> list[tuple[Key | None, int, int, int]]:
        """The node's children with the numbers an unseen child starts from
        (a decided end: 0 or INF), each past its forced turns, kept while the
        cache has room."""
        got = self.kids.get(key)
        if got is not None:
            return got
        got = []
        losses = self.losses
        for _, child, won in self._options(key):
            if child is None:
                got.append((None, 0, INF, 1) if won else (None, INF, 0, 1))
                continue
            child, pn, dn, steps = self.resolve(child)
            if child is not None:
                pn, dn = self._init(child)
                if losses is not None:
                    w = losses.get(child)
                    if w is not None and w[0] >= INF:
                        pn, dn = w
            got.append((child, pn, dn, steps + 1))
        if len(self.kids) >= KIDS_CACHE:
            self.kids.clear()
        self.kids[key] = got
        return got

    def mid(self, key: Key, th_pn: int, th_dn: int, depth: int) -> tuple[int, int]:
        """Search ``key`` until its proof number reaches ``th_pn`` or its
        disproof number ``th_dn``; returns both."""
        self.budget.tick()
        is_or = (key[0] & 7) == self.k
        children = self.children(key)
        th_phi, th_delta = (th_pn, th_dn) if is_or else (th_dn, th_pn)
        tt = self.tt
        while True:
            phi = INF
            delta = 0
            best: Key | None = None
            phi2 = INF
            best_delta = 0
            best_steps = 1
            for child, ipn, idn, steps in children:
                if child is None:
                    cpn, cdn = ipn, idn
                else:
                    e = tt.get(child)
                    cpn, cdn = e if e is not None else (ipn, idn)
                a, b = (cpn, cdn) if is_or else (cdn, cpn)
                delta += b
                if a < phi:
                    phi2 = phi
                    phi = a
                    best = child
                    best_delta = b
                    best_steps = steps
                elif a < phi2:
                    phi2 = a
            if delta > INF:
                delta = INF
            if phi == 0:
                delta = INF
            pn, dn = (phi, delta) if is_or else (delta, phi)
            tt[key] = (pn, dn)
            if pn == 0 or dn == 0:
                self._decided(pn == 0, depth)
                return pn, dn
            if phi >= th_phi or delta >= th_delta or best is None:
                return pn, dn
            # The 1+epsilon threshold: stay below the second-best child by a
            # quarter more, so the search switches branches less often.
            ca = min(th_phi, phi2 + (phi2 >> 2) + 1)
            cb = min(INF, th_delta - delta + best_delta)
            if is_or:
                self.mid(best, ca, cb, depth + best_steps)
            else:
                self.mid(best, cb, ca, depth + best_steps)

    def _decided(self, won: bool, depth: int) -> None:
        p = self.progress
        if won:
            p.proven += 1
        else:
            p.disproven += 1
        if depth > 0 and (p.nearest is None or depth < p.nearest):
            p.nearest = depth

    def prove(self, root: Key) -> bool | None:
        """True: K wins (the goal) with best play; False: the coalition stops
        K; None: the budget ran out."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            pn, dn = self.lookup(root)
            while pn and dn:
                pn, dn = self.mid(root, INF, INF, 0)
        except OutOfBudget:
            pn, dn = self.lookup(root)
            self.progress.root_pn, self.progress.root_dn = pn, dn
            return None
        finally:
            sys.setrecursionlimit(old)
        self.progress.root_pn, self.progress.root_dn = pn, dn
        return pn == 0

    def value(self, key: Key) -> bool | None:
        """True/False when the table holds a proof, else None."""
        node, pn, dn, _ = self.resolve(key)
        if node is not None:
            pn, dn = self.lookup(node)
        if pn == 0:
            return True
        if dn == 0:
            return False
        return None
