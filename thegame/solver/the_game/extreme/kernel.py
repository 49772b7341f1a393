"""The search kernel of The Game: Extreme (rules X1-X6), 1-5 players.

A subclass of ``Kernel`` that knows the commands, so that the classic
kernel's code paths (and node counts) stay exactly as they are. The
searches (``dfs.Searcher``, ``optimum.Optimizer``) use it unchanged; they
only ever make moves that keep every command (rule X2: a solver never makes
a move that breaks one, so a line that would need one ends where the rules
engine says no legal turn is left, X5).

Turn state (beyond the tops, hands and draw pile), packed into the base
class's ``pending`` int so that the base undo records carry it:
- bits ``0..n_piles-1``: the piles this turn's cards went onto (X4b);
- ``STOP``: a stop card was played this turn (X3a: nothing more);
- ``THREE``: a three card was played this turn (X3c: exactly 3 cards).
What shows on the tops (no-trick X4a, one-pile X4b, draw-one X4c, a skull
X3b) is read from the tops themselves: commands belong to cards.

The classic shortcuts, one by one (see ``Kernel``):
- dominance between plays of the same card: OFF. It compares piles by what
  they accept; a dominated play may be the one that covers a skull (X3b) or
  a no-trick/one-pile card, or the one that keeps the turn on one pile.
- solo turn splitting (``max_turn``): OFF. A split turn may break a three
  (exactly 3 cards), leave a skull uncovered at the split, or draw more
  cards than one turn under draw-one.
- single-play turns once the solo draw pile is empty (``auto_end``): OFF
  for the same reasons (a skull needs its cover in the same turn, a three
  needs 3 cards, one-pile binds a turn, not a play).
- pile symmetry in the memo key: ON, argued in ``key``; equal tops are
  branched once: ON, argued in ``moves``.
- the dead-card bound: ON and stronger, argued in ``dead_mask``.

This module and ``extreme.beam`` are the reference for the compiled
kernel's Extreme mode (``_ckernel.c``, ported line by line: the same moves,
keys, dead masks and turn lists); a change here must be made there too, and
``tests/the_game/extreme/test_ckernel.py`` will say so.
"""

from __future__ import annotations

from ....models.the_game import Command, Deal, GameState, Rules, TurnKind
from ....models.the_game.placement import accepts, is_trick
from ..kernel import INF, Kernel, KernelUndo

# Flags of the packed turn state (above any pile bit: at most 16 piles).
STOP = 1 << 20
THREE = 1 << 21


def covers(rules: Rules) -> bool:
    """Extreme without fire cards (an On Fire + Extreme mix is not modelled)."""
    return rules.turn_kind is TurnKind.EXTREME and not rules.fire_cards


class ExtremeKernel(Kernel):
    """The compact state of an Extreme game."""

    def __init__(self, deal: Deal, first: int) -> None:
        rules = deal.rules
        if not covers(rules):
            raise ValueError(f"the Extreme kernel does not cover {rules.name}")
        # The base constructor refuses commands: build as the classic game
        # of the same parameters, then add the commands.
        super().__init__(
            Deal.create(rules.with_changes(commands=False), deal.players, [list(deal.deck)]),
            first,
        )
        self.rules = rules
        self.cmd: dict[Command, int] = {}  # command kind -> bitmask of its cards
        for card, kind in deal.commands:
            self.cmd[kind] = self.cmd.get(kind, 0) | 1 << card
        self.stop = self.cmd.get(Command.STOP, 0)
        self.skull = self.cmd.get(Command.SKULL, 0)
        self.three = self.cmd.get(Command.THREE, 0)
        self.no_trick = self.cmd.get(Command.NO_TRICK, 0)
        self.one_pile = self.cmd.get(Command.ONE_PILE, 0)
        self.draw_one = self.cmd.get(Command.DRAW_ONE, 0)
        self.pending = 0
        # Turn splitting is off (module notes): no turn length cap.
        self.max_turn = self.base_max_turn = INF

    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        """The kernel of an Extreme position, possibly mid-turn."""
        if state.over:
            raise ValueError("the game is over")
        k = cls(state.deal, state.current)
        k.load_cards(state)
        k.pending = 0
        for played in state.plays_this_turn:
            k.pending |= k._turn_bits(played.card, played.pile)
        return k

    # -- what shows ----------------------------------------------------------

    def _showing(self, mask: int) -> bool:
        """X4: an infinity command holds while one of its cards is on top."""
        shown = 0
        for t in self.tops:
            shown |= 1 << t
        return bool(shown & mask)

    def _turn_bits(self, c: int, pile: int) -> int:
        bits = 1 << pile
        if self.stop >> c & 1:
            bits |= STOP
        if self.three >> c & 1:
            bits |= THREE
        return bits

    # -- rules ---------------------------------------------------------------

    def _max_turn(self) -> int:
        return INF  # no turn splitting under commands (module notes)

    def auto_end(self) -> bool:
        return False  # a turn is not a row of single plays (module notes)

    def _keeps(self, c: int, pile: int, no_trick: bool, one_pile: bool) -> bool:
        """Whether playing c on pile keeps every command (X3, X4a, X4b);
        placement (C5) is checked by the caller."""
        st = self.pending
        if st & STOP:
            return False  # X3a: the stop ended the turn
        three = st & THREE or self.three >> c & 1
        if three and self.t >= 3:
            return False  # X3c: exactly 3 cards
        if three and self.stop >> c & 1 and self.t != 2:
            return False  # X3c: stop only as the third card
        if one_pile and st & ~(STOP | THREE) & ~(1 << pile):
            return False  # X4b: this turn's cards went onto another pile
        # X4a: no backward trick while a no-trick card shows.
        return not (no_trick and is_trick(pile < self.n_asc, self.tops[pile], c, self.step))

    def can_end(self) -> bool:
        """The turn may end now and the game go on (X2: never a losing end)."""
        st = self.pending
        if st & THREE:
            if self.t != 3:
                return False  # X3c
        elif not st & STOP and self.t < self.turn_min:
            return False  # C4 (waived by a stop, X3a)
        # X3b: a skull on top was played this turn (older ones were covered).
        return not self._showing(self.skull)

    def min_met(self) -> bool:
        return self.can_end()

    def end_loses(self) -> bool:
        return False  # the solver never ends a turn that breaks a command

    def won(self) -> bool:
        # C7 with X3b/X3c: the last card's turn must end keeping the commands.
        return self.unplayed == 0 and self.can_end()

    def key(self) -> tuple[int, ...]:
        """Canonical memo key.

        Piles of one direction are interchangeable (C1): the rules treat them
        alike and commands belong to cards, not piles, so permuting them
        together with their per-pile turn data (whether this turn's cards
        went there, X4b) gives an equivalent position. The play count
        matters up to max(m, 3): beyond that every three play breaks X3c and
        the minimum is met, whatever the exact count.
        """
        st = self.pending
        tops = self.tops
        marked = [tops[i] * 2 + (st >> i & 1) for i in range(self.n_piles)]
        asc = sorted(marked[: self.n_asc])
        desc = sorted(marked[self.n_asc :])
        t = min(self.t, max(self.turn_min, 3))
        return (*asc, *desc, *self.hands, self.pos, self.cur, t, st >> 20)

    def reach(self, cards: int | None = None) -> tuple[int, int]:
        """As ``Kernel.reach``; when a no-trick card shows that no card can
        ever cover, no backward trick is ever legal again (X4a: the trick
        onto it is forbidden as well, so only a normal play could cover it),
        and each pile reaches only the cards beyond its top."""
        if self._permanent_no_trick():
            lo = min((self.tops[i] + 1 for i in range(self.n_asc)), default=INF)
            hi = max((self.tops[i] - 1 for i in range(self.n_asc, self.n_piles)), default=-1)
            return lo, hi
        return super().reach(cards)

    # Commands forbid plays by the tops (X3, X4a, X4b): a top further on may
    # lose a play another allows, so tops do not dominate here.
    tops_dominate = False

    def stuck_ahead(self) -> bool:
        """Not applied: commands change who moves and how many cards a turn
        needs (X3, X4), which the classic argument takes as fixed."""
        return False

    def _permanent_no_trick(self) -> bool:
        un = self.unplayed
        for i, t in enumerate(self.tops):
            if self.no_trick >> t & 1:
                above = un >> (t + 1) if i < self.n_asc else un & ((1 << t) - 1)
                if not above:
                    return True
        return False

    def dead_mask(self) -> int:
        """Unplayed cards no line that keeps the commands can ever play.

        - the classic bound (``Kernel.dead_mask``) over ``reach``: commands
          only forbid plays (X3, X4a, X4b) and change when cards are drawn
          (X4c), never add a placement, so the classic over-approximation of
          what a pile can reach still holds; with a no-trick card showing
          that nothing can cover, without backward tricks (``reach``);
        - a skull s (X3b) must be covered on its pile in its own turn, so it
          needs a direction where some pile can still take it (s at or
          above the ascending reach, at or below the descending reach) and
          another unplayed card that can follow it on that direction (above
          it or exactly ``step`` below on an ascending pile; the mirror on a
          descending one). A skull with neither is never played by a line
          that keeps the commands: dead. (Dead cards cover nothing.)
        - a draw-one card (X4c) that shows for good: the draw pile's bottom
          is never drawn (``_draw_one_limit``).
        """
        lo, hi = self.reach()
        lo = min(lo, self.total + self.rules.low + 1)  # no ascending pile: no bound
        un = self.unplayed
        dead = 0
        if hi + 1 < lo:
            dead = un & ((1 << lo) - 1) & ~((1 << (hi + 1)) - 1)
        sk = un & self.skull & ~dead
        step = self.step
        while sk:
            low = sk & -sk
            s = low.bit_length() - 1
            sk ^= low
            others = un & ~low & ~dead
            up = s >= lo and (others >> (s + 1) or (s > step and others >> (s - step) & 1))
            down = s <= hi and (others & ((1 << s) - 1) or others >> (s + step) & 1)
            if not up and not down:
                dead |= low
        limit = self._draw_one_limit()
        for c in self.deck[limit:]:
            dead |= 1 << c
        return dead

    def _draw_one_limit(self) -> int:
        """The deck index from which no card is ever drawn (``total``: no
        such bound).

        A draw-one card on top of a pile that no unplayed card can follow
        (nothing beyond it, no card exactly ``step`` back) shows for the
        rest of the game, so every turn from now on ends by drawing one card
        (X4c). A turn with a draw plays at least m = 2 cards (C4) unless its
        first card is a stop (X3a: a one-card turn, net 0), so each other
        turn shrinks its player's hand by at least one, and a player down to
        one card goes on only with a stop first (X5). So a player holding h
        cards at a turn start takes at most h - 1 more turns that are not
        stop-first; the player to move, part-way through a turn, at most
        this one and then h more from the h + 1 cards it may hold after it;
        every stop-first turn uses up one of the unplayed stop cards. Each
        of those turns draws one card, so at most that many more are drawn.
        """
        if self.pos >= self.total or not self.draw_one or self.min_play < 2:
            return self.total  # (with m = 1, C10, a one-card turn nets 0)
        un = self.unplayed
        step = self.step
        for i, top in enumerate(self.tops):
            if not self.draw_one >> top & 1:
                continue
            if i < self.n_asc:
                follows = un >> (top + 1) or (top > step and un >> (top - step) & 1)
            else:
                follows = un & ((1 << max(top, 0)) - 1) or un >> (top + step) & 1
            if not follows:
                break
        else:
            return self.total  # every draw-one card showing may still be covered
        draws = (un & self.stop).bit_count()
        for p, hand in enumerate(self.hands):
            h = hand.bit_count()
            draws += 1 + h if p == self.cur and self.t > 0 else max(h - 1, 0)
        return min(self.total, self.pos + draws)

    # -- moves ---------------------------------------------------------------

    def moves(self) -> list[tuple[int, int, int]]:
        """Every play that keeps the commands, as (cost, card, pile), best
        first; no dominance (module notes). Equal tops of one direction are
        branched once: only the start values repeat (a played card is on one
        pile only), and a pile still at its start value took no card this
        turn, so the two piles are alike in every respect (``key``).
        Covering a skull played this turn comes first, then backward
        tricks, then the smallest jumps. (The bit-parallel form of
        ``_keeps`` and C5; ``legal_plays`` is the plain one.)"""
        cards = self._allowed_cards()
        if not cards:
            return []
        st = self.pending
        tops = self.tops
        showing = 0
        for top in tops:
            showing |= 1 << top
        no_trick = showing & self.no_trick
        piles_played = st & ~(STOP | THREE)
        only = -1
        if showing & self.one_pile and piles_played:
            if piles_played & (piles_played - 1):
                return []  # X4b: cards already on two piles
            only = piles_played.bit_length() - 1
        step = self.step
        un = self.unplayed
        btw = self.btw
        skull = self.skull
        n_asc = self.n_asc
        out: list[tuple[int, int, int]] = []
        seen: set[tuple[bool, int]] = set()
        for i, top in enumerate(tops):
            if only >= 0 and i != only:
                continue
            asc = i < n_asc
            if (asc, top) in seen:
                continue
            seen.add((asc, top))
            bonus = -100 if skull >> top & 1 else 0  # X3b: cover the skull
            if asc:
                normal = cards >> (top + 1) << (top + 1)
                back = top - step
            else:
                normal = cards & ((1 << max(top, 0)) - 1)
                back = top + step
            h = normal
            while h:
                low = h & -h
                c = low.bit_length() - 1
                h ^= low
                between = btw[top][c] if asc else btw[c][top]
                out.append(((un & between).bit_count() + bonus, c, i))
            if not no_trick and back > 0 and cards >> back & 1:
                out.append((bonus - step, back, i))
        out.sort()
        return out

    def _allowed_cards(self) -> int:
        """The cards of the mover's hand that the turn's stop and three
        commands still allow (as a mask; 0: none)."""
        hand = self.hands[self.cur]
        st = self.pending
        if not hand or st & STOP:
            return 0  # X3a
        t = self.t
        if st & THREE:
            if t >= 3:
                return 0  # X3c: exactly 3 cards
            return hand if t == 2 else hand & ~self.stop  # X3c: stop only third
        # X3c: a three card needs the turn to end at 3 cards in total,
        # and a stop in that turn only as the third card.
        return hand if t < 3 else hand & ~self.three

    def legal_plays(self) -> list[tuple[int, int]]:
        """Every play that keeps the commands (the engine's ``legal_plays``)."""
        hand = self.hands[self.cur]
        no_trick = self._showing(self.no_trick)
        one_pile = self._showing(self.one_pile)
        return [
            (c, i)
            for c in range(hand.bit_length())
            if hand >> c & 1
            for i, t in enumerate(self.tops)
            if accepts(i < self.n_asc, t, c, self.step) and self._keeps(c, i, no_trick, one_pile)
        ]

    def play(self, c: int, pile: int) -> KernelUndo:
        bit = 1 << c
        saved = KernelUndo(self.tops[pile], self.pending)
        self.hands[self.cur] ^= bit
        self.unplayed ^= bit
        self.tops[pile] = c
        self.pending |= self._turn_bits(c, pile)
        self.t += 1
        return saved

    def draw_need(self, hand: int) -> int:
        """X4c: one card while a draw-one card shows, else back to H (C6).
        ``end_turn`` is the base kernel's: with no fire cards (refused in
        Extreme) it leaves no deadline pending, and ``max_turn`` stays INF."""
        if self._showing(self.draw_one):
            return 1
        return super().draw_need(hand)

    # -- turns (the beam over whole turns) -------------------------------------

    def extreme_turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[tuple[int, list[tuple[int, int]]]]:
        """Distinct results of whole turns that keep every command, cheapest
        first, listed through ``play`` (for the beam, which is incomplete:
        ``branch`` plays per step, turns of about ``longest`` plays, beyond
        what the turn needs only plays costing at most ``extra_cost``). A
        turn that cannot end yet (a skull to cover, a three to complete)
        may run up to 3 plays past ``longest``."""
        k = self
        found: dict[tuple[int, ...], tuple[int, list[tuple[int, int]]]] = {}
        expanded: dict[tuple[int, ...], int] = {}
        plays: list[tuple[int, int]] = []

        def rec(depth: int, cost: int) -> None:
            key = (*k.tops, k.pending, k.t, k.hands[k.cur])
            seen = expanded.get(key)
            if seen is not None and seen <= cost:
                return
            expanded[key] = cost
            ends = k.t > 0 and k.can_end()
            if ends or k.won():
                found[key] = (cost, plays[:])
            if k.unplayed == 0 or depth >= longest + 3 or (depth >= longest and ends):
                return
            for cost_hint, c, pile in k.moves()[:branch]:
                if ends and cost_hint > extra_cost:
                    break
                saved = k.play(c, pile)
                plays.append((c, pile))
                rec(depth + 1, cost + cost_hint)
                plays.pop()
                k.unplay(c, pile, saved)

        rec(0, 0)
        return sorted(found.values(), key=lambda x: x[0])
