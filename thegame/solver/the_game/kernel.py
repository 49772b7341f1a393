"""The search kernel of the classic family: the compact state every engine
searches over, and the one place that enumerates plays and turns.

Covers ``classic`` (1-5 players), ``profi``, ``profi-hard``, ``on-fire`` and
their generalised forms (rule C10). It is the reference for the compiled
kernel (``ckernel.py``, ``_ckernel.c``: this module, ``dfs`` and ``beam``
ported to C line by line; a change here must be made there too, and
``tests/the_game/test_ckernel.py`` will say so). ``tests/the_game/test_kernel_conformance.py``
holds what any implementation must pass (perft counts, move and turn lists,
memo keys, verdicts).

Glossary (the hot code uses short names):
- a card ``c`` is an int; a set of cards is an int bitmask (bit c = card c):
  ``hands[p]``, ``unplayed`` (hands and draw pile), ``fire`` (fire cards, F1);
- ``tops[i]``: pile i's top; piles ``0..n_asc-1`` ascend, the rest descend;
- ``pos``: cards dealt so far from ``deck`` (the draw pile is ``deck[pos:]``);
- ``cur``: the player to move (0-based); ``t``: plays made this turn;
- ``turn_min``: the turn's minimum m (C4/P1), fixed at the turn's start;
- ``pending``: bit i set when pile i shows a fire card laid in an earlier
  turn, which must be covered before this turn ends (F2);
- ``max_turn``: the longest turn worth trying (solo turn splitting);
- an action is ``(card, pile)`` for a play or ``END`` for a turn end;
- ``btw[a][b]``: the cards strictly between a and b, as a mask.

Placement (rule C5) comes from ``models.the_game.placement``; sound
shortcuts are argued where they are applied: pile symmetry in the memo key
and in branching (``key``, ``moves``), dominance between plays of the same
card (``moves``), turn splitting in solo (``_max_turn``), single-play turns
once the solo draw pile is empty (``auto_end``), the dead-card bound
(``dead_mask``).
"""

from __future__ import annotations

from ...models.the_game import Deal, GameState, Rules, TurnKind
from ...models.the_game.placement import accepts
from .records import (
    END,
    FIRE_MARK,
    INF,
    W2,
    W3,
    Action,
    KernelSnapshot,
    KernelUndo,
    Position,
    TurnOption,
    TurnUndo,
)
from .tables import PlacementTable, between_table, placement_table
from .turns import TurnLister

__all__ = [
    "END",
    "FIRE_MARK",
    "INF",
    "W2",
    "W3",
    "Action",
    "Kernel",
    "KernelSnapshot",
    "KernelUndo",
    "PlacementTable",
    "Position",
    "TurnOption",
    "TurnUndo",
]

class Kernel(TurnLister):
    """The compact state of one game of the classic family."""

    # Placement is rule C5 alone, so a position whose tops each take every
    # card another's take (``placement.takes_all_of``), all else equal, is
    # at least as good: the dead memo answers such positions too (``dfs``).
    tops_dominate = True
    # The complete search's turn-start cut (``arguments.turn_cut``); off in
    # a benchmark's baseline
    turn_cuts = True

    def __init__(self, deal: Deal, first: int) -> None:
        rules: Rules = deal.rules
        if rules.turn_kind is not TurnKind.CLASSIC:
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
        self.btw = between_table(rules.high + 2)
        self.size = rules.high + 2  # card values and start tops lie below this
        self.place = placement_table(self.step, self.size)

    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        """The kernel of a position reached in a game, possibly mid-turn."""
        if state.over:
            raise ValueError("the game is over")
        k = cls(state.deal, state.current)
        k.load_cards(state)
        # F2: a fire card laid in an earlier turn must be covered this turn;
        # one laid this turn has the next turn as its deadline.
        k.pending = 0
        for i, top in enumerate(state.tops):
            if top in k.rules.fire_cards and state.top_turn[i] < state.turn:
                k.pending |= 1 << i
        # Mid-turn, with t plays fixed: a turn of k >= max(2m, t+m) plays
        # still splits into k-m and m plays (the first part keeps the fixed
        # plays and meets the minimum), so this turn may need t+m-1 plays.
        if k.max_turn != INF:
            k.max_turn = max(k.base_max_turn, k.t + k.min_play - 1)
        return k

    def load_cards(self, state: GameState) -> None:
        """Take the tops, hands, draw pile and this turn's count from ``state``
        (what every kernel of the family shares; deadlines are the caller's)."""
        self.tops = list(state.tops)
        self.hands = [0] * self.players
        for p, hand in enumerate(state.hands):
            for c in hand:
                self.hands[p] |= 1 << c
        self.pos = state.stock_pos[0]
        self.unplayed = 0
        for h in self.hands:
            self.unplayed |= h
        for c in self.deck[self.pos :]:
            self.unplayed |= 1 << c
        self.t = len(state.placed)
        self.turn_min = state.turn_min

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

    def auto_end(self) -> bool:
        """Solo, draw pile empty, no fire: a turn of k plays is k turns of
        one play (nothing is drawn, the minimum is 1), so every play ends
        its turn and the turn count drops out of the key."""
        return self.players == 1 and self.pos >= self.total and not self.fire

    def key(self) -> tuple[int, ...]:
        """Canonical memo key: piles of one direction are interchangeable."""
        tops = self.tops
        pend = self.pending
        # A pending fire top is a different state from the same plain top.
        marked = [tops[i] + (FIRE_MARK if pend >> i & 1 else 0) for i in range(self.n_piles)]
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

    def reach(self, cards: int | None = None) -> tuple[int, int]:
        """(lowest card any ascending pile can ever take, highest card any
        descending pile can ever take), as if only ``cards`` (a bitmask;
        default: every unplayed card) could ever be played.

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
        un = self.unplayed if cards is None else cards
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

    def stuck_ahead(self) -> bool:
        """True if a later player of this round cannot play their minimum
        when their turn comes (a sound loss with several players).

        Let q move after the players ``cur .. q-1``. Until q's turn, q's
        hand stays as it is, and the only cards played are those the players
        before q hold now: what they draw goes to their own hands and comes
        out only after q's turn. So ``reach`` over those cards and q's hand
        bounds every card a pile can take up to the end of q's turn, and q
        can play only the cards of their hand within it (C5). A player draws
        at most what they play in a turn (C6): ``cur`` the ``t`` cards played
        so far and at most their hand, the others at most their hands. While
        the draw pile holds more than that it still has cards when q's turn
        starts, and q's minimum is m (C4, P1). Fewer than m cards of q's hand
        within reach: q cannot complete that turn, and the game ends there
        with cards left (C8). Too many cards held at once in one round is
        the "too many cards held" loss argument, for several players.
        """
        if self.players == 1:
            return False
        left = self.total - self.pos - self.t
        before = 0  # the cards the players moving before q hold
        for i in range(1, self.players):
            before |= self.hands[(self.cur + i - 1) % self.players]
            if left <= before.bit_count():
                return False  # the draw pile may run out first: m may drop to 1
            hand = self.hands[(self.cur + i) % self.players]
            lo, hi = self.reach(before | hand)
            lo = min(lo, self.total + self.rules.low + 1)  # no ascending pile: no bound
            # q's cards strictly between hi and lo: out of reach (as ``dead_mask``)
            out = ((1 << lo) - 1) & ~((1 << (hi + 1)) - 1) if hi + 1 < lo else 0
            if (hand & ~out).bit_count() < self.min_play:
                return True
        return False

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
        out: list[tuple[int, int, int]] = []
        self._ascending_moves(hand, out)
        self._descending_moves(hand, out)
        out.sort()
        return out

    def _ascending_moves(self, hand: int, out: list[tuple[int, int, int]]) -> None:
        """The undominated plays of ``hand`` on the ascending piles, appended
        to ``out`` (``moves``; rule C5 through the placement table)."""
        tops = self.tops
        step = self.step
        un = self.unplayed
        n_asc = self.n_asc
        btw = self.btw
        trick_up = self.place.trick_top[0]
        first_beyond = self.place.first_beyond
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            # Bonus: the card one step back is in hand, a free trick follows.
            bonus = (hand >> (c - step) & 1) if c > step else 0
            back = trick_up[c]
            trick = -1
            best = -1  # pile with the highest top below c
            for i in range(n_asc):
                t = tops[i]
                if t == back:
                    trick = i
                    break
                if c >= first_beyond[t] and (best < 0 or t > tops[best]):
                    best = i
            if trick >= 0:
                out.append((-step, c, trick))
            elif best >= 0:
                a = tops[best]
                out.append(((un & btw[a][c]).bit_count() - bonus, c, best))
                if n_asc > 1:
                    # playing on b is dominated unless a-s is unplayed and
                    # not above b (then only pile a could take it)
                    keep_ok = a - step > 0 and un >> (a - step) & 1
                    seen = a
                    for i in range(n_asc):
                        b = tops[i]
                        if c >= first_beyond[b] and b != seen and keep_ok and a - step <= b:
                            seen = b
                            out.append(((un & btw[b][c]).bit_count() - bonus, c, i))

    def _descending_moves(self, hand: int, out: list[tuple[int, int, int]]) -> None:
        """``_ascending_moves`` mirrored: the plays on the descending piles."""
        tops = self.tops
        step = self.step
        un = self.unplayed
        n_asc = self.n_asc
        n_piles = self.n_piles
        btw = self.btw
        trick_down = self.place.trick_top[1]
        last_beyond = self.place.last_beyond
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            bonus = hand >> (c + step) & 1
            back = trick_down[c]
            trick = -1
            best = -1  # pile with the lowest top above c
            for i in range(n_asc, n_piles):
                t = tops[i]
                if t == back:
                    trick = i
                    break
                if c <= last_beyond[t] and (best < 0 or t < tops[best]):
                    best = i
            if trick >= 0:
                out.append((-step, c, trick))
            elif best >= 0:
                a = tops[best]
                out.append(((un & btw[c][a]).bit_count() - bonus, c, best))
                if n_piles - n_asc > 1:
                    keep_ok = un >> (a + step) & 1
                    seen = a
                    for i in range(n_asc, n_piles):
                        b = tops[i]
                        if c <= last_beyond[b] and b != seen and keep_ok and a + step >= b:
                            seen = b
                            out.append(((un & btw[c][b]).bit_count() - bonus, c, i))

    def legal_plays(self) -> list[tuple[int, int]]:
        """Every legal play (card, pile) of the player to move, sorted: the
        rules' view, with no dominance and no pile symmetry (``moves`` is the
        searches' view). For conformance tests and analyses, not the hot path."""
        hand = self.hands[self.cur]
        return [
            (c, i)
            for c in range(hand.bit_length())
            if hand >> c & 1
            for i, t in enumerate(self.tops)
            if accepts(i < self.n_asc, t, c, self.step)
        ]

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
        accepted, trick_top = self.place.accepted, self.place.trick_top
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
                d = 0 if asc else 1
                if not accepted[d][t] >> c & 1:
                    continue
                if t == trick_top[d][c]:
                    out.append((-step, c, i))
                else:
                    between = btw[t][c] if asc else btw[c][t]
                    out.append(((un & between).bit_count(), c, i))
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
        blocked = []
        up, down = self.place.accepted
        n_asc = self.n_asc
        for i, t in enumerate(self.tops):
            blocked.append(un & ~(up[t] if i < n_asc else down[t]))
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

    def play(self, c: int, pile: int) -> KernelUndo:
        """Apply a play; returns what ``unplay`` needs."""
        bit = 1 << c
        saved = KernelUndo(self.tops[pile], self.pending)
        self.hands[self.cur] ^= bit
        self.unplayed ^= bit
        self.tops[pile] = c
        self.pending &= ~(1 << pile)  # covering clears the pile's deadline
        self.t += 1
        return saved

    def unplay(self, c: int, pile: int, saved: KernelUndo) -> None:
        bit = 1 << c
        self.hands[self.cur] ^= bit
        self.unplayed ^= bit
        self.tops[pile], self.pending = saved
        self.t -= 1

    def can_end(self) -> bool:
        # F2: a fire card laid in an earlier turn must be covered by now.
        return self.t >= self.turn_min and not self.pending

    def min_met(self) -> bool:
        """The turn has its cards (C4/P1): ending it is allowed, though with
        a fire card due it loses (``end_loses``). For the branch and bound,
        whose lines may end with that loss (F2)."""
        return self.t >= self.turn_min

    def end_loses(self) -> bool:
        """Ending the turn now loses at once (F2: a due fire card uncovered)."""
        return bool(self.pending)

    def draw_need(self, hand: int) -> int:
        """Cards to draw at the end of the turn: back to H (rule C6)."""
        return self.hand_size - hand.bit_count()

    def end_turn(self) -> TurnUndo:
        """Draw back to H (rule C6), move to the next player (C7)."""
        saved = TurnUndo(
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
        need = self.draw_need(hand)
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

    def unend_turn(self, saved: TurnUndo) -> None:
        self.cur, self.t, self.pos = saved.player, saved.plays, saved.pos
        self.pending, self.turn_min, self.max_turn = saved.pending, saved.turn_min, saved.max_turn
        self.hands[saved.player] = saved.hand

    def snapshot(self) -> KernelSnapshot:
        return KernelSnapshot.of(self)

    def restore(self, snap: KernelSnapshot) -> None:
        self.tops = list(snap.tops)
        self.hands = list(snap.hands)
        self.pos, self.unplayed, self.cur, self.t = snap.pos, snap.unplayed, snap.player, snap.plays
        self.pending, self.turn_min, self.max_turn = snap.pending, snap.turn_min, snap.max_turn

    def won(self) -> bool:
        # F3 decision: a fire card showing after the last card does not lose.
        return self.unplayed == 0
