"""Every distinct outcome of one Cento turn, on bitmask hands (the solvers' move generator).

Distinct means: two turns that leave the same hand, open-card class, draw
position, rule Z2 binding and rule Z5 immunity are one outcome (the first
found is kept, with its record turn). A free card is named one value per
class of values (``Tables.names``): the other values of a class give the same
outcome. Chains (rule Z3) are enumerated as a subset of the cards containing
the digit, a number of free cards, and the last card (it alone decides the
open card and the binding of rule Z2); the order of the others does not matter.
"""

from __future__ import annotations

from typing import NamedTuple

from ...models.cento.rules import FREE, is_single, repdigit
from .tables import BIT100, Tables, bits

Play = tuple[int, int | None]  # (card, named value of a free card)


class Outcome(NamedTuple):
    """Where one turn leaves the mover, and the turn that gets there (built by
    keyword with ``_Turn.outcome``; the flags after ``drew`` are off unless given)."""

    mask: int
    free: int
    open: int  # canonical class value
    pos: int  # draw position after the turn
    immune: bool  # the mover is immune after the turn (rule Z5 Treat)
    trick_pos: int  # draw position after the other players drew for a Trick
    trick: bool
    drew: int
    obliged: bool = False  # the next player is bound by rule Z2
    won: bool = False
    passed: bool = False
    treat: bool = False
    plays: tuple[Play, ...] = ()


class _Turn:
    """What every outcome of one turn shares once its Trick and draws are known."""

    __slots__ = ("drew", "immune", "pos", "trick", "trick_pos")

    def __init__(self, trick: bool, trick_pos: int, immune: bool, pos: int, drew: int) -> None:
        self.trick = trick  # the turn began with a Trick (rule Z5)
        self.trick_pos = trick_pos
        self.immune = immune
        self.pos = pos  # draw position so far
        self.drew = drew  # cards drawn so far this turn (rule Z1 or Z2)

    def after_draw(self, k: int) -> _Turn:
        return _Turn(self.trick, self.trick_pos, self.immune, self.pos + k, self.drew + k)

    def outcome(
        self,
        *,
        mask: int,
        free: int,
        open: int,
        obliged: bool = False,
        won: bool = False,
        passed: bool = False,
        treat: bool = False,
        plays: tuple[Play, ...] = (),
    ) -> Outcome:
        """The outcome with this turn's shared fields. The solvers build one per
        child: ``tuple.__new__`` in field order here, the one place that knows
        the order, costs a third of the NamedTuple's keyword constructor."""
        return _new(
            Outcome,
            (
                mask,
                free,
                open,
                self.pos,
                self.immune,
                self.trick_pos,
                self.trick,
                self.drew,
                obliged,
                won,
                passed,
                treat,
                plays,
            ),
        )


_new = tuple.__new__


def add_cards(mask: int, free: int, cards: tuple[int, ...]) -> tuple[int, int]:
    for c in cards:
        if c == FREE:
            free += 1
        else:
            mask |= 1 << c
    return mask, free


class TurnGen:
    """The outcome generator for one deal's tables and draw pile."""

    def __init__(self, tab: Tables, draw: tuple[int, ...]) -> None:
        self.tab = tab
        self.draw = draw
        self.special = tab.rules.special_hundred
        self.chain_all = tab.rules.chain_all

    def outcomes(
        self, mask: int, free: int, open_c: int, pos: int, bound: bool, immune: bool, others: int
    ) -> list[Outcome]:
        """``bound``: the mover is bound by rule Z2 (and not immune); ``others``:
        how many other players draw on a Trick."""
        out: list[Outcome] = []
        self._rest(out, _Turn(False, pos, immune, pos, 0), mask, free, open_c, bound)
        if self.special and mask & BIT100:
            m = mask & ~BIT100
            tp = min(len(self.draw), pos + self.tab.rules.trick_draw * others)
            trick = _Turn(True, tp, immune, tp, 0)
            if m == 0 and free == 0:  # the 100 was the last card: the hand is empty
                out.append(trick.outcome(mask=0, free=0, open=open_c, won=True))
            else:
                self._rest(out, trick, m, free, open_c, bound)
        return out

    def _rest(
        self, out: list[Outcome], t: _Turn, mask: int, free: int, open_c: int, bound: bool
    ) -> None:
        """The turn after its optional Trick: bound, a Treat, plays, a draw or a pass."""
        if bound:
            self._bound(out, t, mask, free, open_c)
            return
        if not t.trick and self.special and mask & BIT100:  # rule Z5 Treat
            m = mask & ~BIT100
            treat = _Turn(False, t.trick_pos, True, t.pos, 0)
            out.append(
                treat.outcome(mask=m, free=free, open=open_c, won=m == 0 and free == 0, treat=True)
            )
        if mask & self.tab.fit[open_c] or free:
            self._plays(out, t, mask, free, open_c, None)
        elif t.pos < len(self.draw):  # rule Z1: draw one, play it if it fits
            x = self.draw[t.pos]
            m, f = add_cards(mask, free, (x,))
            drawn = t.after_draw(1)
            out.append(drawn.outcome(mask=m, free=f, open=open_c))
            self._plays(out, drawn, m, f, open_c, x)
        else:  # rule Z1: nothing fits, nothing to draw
            out.append(t.outcome(mask=mask, free=free, open=open_c, passed=True))

    def _bound(self, out: list[Outcome], t: _Turn, mask: int, free: int, open_c: int) -> None:
        """Rule Z2: a single-digit card (it binds the next player in turn), or the penalty."""
        for c in bits(mask & self.tab.singles):
            m = mask ^ (1 << c)
            out.append(
                t.outcome(
                    mask=m,
                    free=free,
                    open=c,
                    obliged=True,
                    won=m == 0 and free == 0,
                    plays=((c, None),),
                )
            )
        if free:
            for v in range(1, 10):
                out.append(
                    t.outcome(
                        mask=mask,
                        free=free - 1,
                        open=v,
                        obliged=True,
                        won=mask == 0 and free == 1,
                        plays=((FREE, v),),
                    )
                )
        k = min(self.tab.rules.penalty, len(self.draw) - t.pos)
        m, f = add_cards(mask, free, self.draw[t.pos : t.pos + k])
        out.append(t.after_draw(k).outcome(mask=m, free=f, open=open_c))

    def _plays(
        self, out: list[Outcome], t: _Turn, mask: int, free: int, open_c: int, only: int | None
    ) -> None:
        """Every first card that fits (only ``only``, the card just drawn, if given)."""
        tab = self.tab
        firsts: list[tuple[int, int | None, int]] = []
        if only is None or only != FREE:
            fitting = mask & tab.fit[open_c]
            if only is not None:
                fitting &= 1 << only
            firsts.extend((c, None, c) for c in bits(fitting))
        if free and (only is None or only == FREE):
            firsts.extend((FREE, v, v) for v in tab.names[open_c])
        for card, named, value in firsts:
            m1 = mask ^ (1 << card) if card != FREE else mask
            f1 = free - 1 if card == FREE else free
            head: tuple[Play, ...] = ((card, named),)
            d = repdigit(value)
            if m1 == 0 and f1 == 0:
                out.append(t.outcome(mask=0, free=0, open=tab.canon[value], won=True, plays=head))
            elif d is None:
                out.append(
                    t.outcome(
                        mask=m1,
                        free=f1,
                        open=tab.canon[value],
                        obliged=is_single(value),
                        plays=head,
                    )
                )
            else:
                self._chain(out, t, m1, f1, d, value, head)

    def _chain(
        self,
        out: list[Outcome],
        t: _Turn,
        mask: int,
        free: int,
        d: int,
        value: int,
        head: tuple[Play, ...],
    ) -> None:
        """Rule Z3: after the repdigit, any subset of the cards with digit ``d``
        and any number of free cards."""
        tab = self.tab
        cand = mask & tab.chain_cards[d]
        subsets = [cand]
        if not self.chain_all:
            s = cand
            while s:
                s = (s - 1) & cand
                subsets.append(s)
        for sub in subsets:
            cards = bits(sub)
            m2 = mask ^ sub
            for f in range(free + 1):
                f2 = free - f
                if not cards and f == 0:  # the repdigit alone
                    out.append(
                        t.outcome(
                            mask=m2,
                            free=f2,
                            open=tab.canon[value],
                            won=m2 == 0 and f2 == 0,
                            plays=head,
                        )
                    )
                else:
                    self._chain_ends(out, t, m2, f2, d, head, cards, f)

    def _chain_ends(
        self,
        out: list[Outcome],
        t: _Turn,
        mask: int,
        free: int,
        d: int,
        head: tuple[Play, ...],
        cards: list[int],
        f: int,
    ) -> None:
        """One chain (``cards`` and ``f`` free cards after the repdigit ``head``),
        once per class of its last card: a card of the chain, or a free card
        naming a value with digit ``d``."""
        tab = self.tab
        dd = 11 * d
        won = mask == 0 and free == 0
        seen: set[int] = set()
        for last in cards:
            key = tab.canon[last]
            if key in seen:
                continue
            seen.add(key)
            rest = tuple((c, None) for c in cards if c != last)
            plays = head + rest + ((FREE, dd),) * f + ((last, None),)
            out.append(
                t.outcome(
                    mask=mask, free=free, open=key, obliged=is_single(last), won=won, plays=plays
                )
            )
            if won:
                break
        if f and not (won and seen):
            for name in tab.chain_names[d]:
                key = tab.canon[name]
                if key in seen:
                    continue
                seen.add(key)
                plays = (
                    head
                    + tuple((c, None) for c in cards)
                    + ((FREE, dd),) * (f - 1)
                    + ((FREE, name),)
                )
                out.append(
                    t.outcome(
                        mask=mask,
                        free=free,
                        open=key,
                        obliged=is_single(name),
                        won=won,
                        plays=plays,
                    )
                )
                if won:
                    break
