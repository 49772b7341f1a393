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
    mask: int
    free: int
    open: int  # canonical class value
    pos: int  # draw position after the turn
    obliged: bool  # the next player is bound by rule Z2
    immune: bool  # the mover is immune after the turn (rule Z5 Treat)
    won: bool
    passed: bool
    trick_pos: int  # draw position after the other players drew for a Trick
    trick: bool
    treat: bool
    drew: int
    plays: tuple[Play, ...]


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
        self._rest(out, False, mask, free, open_c, pos, pos, bound, immune)
        if self.special and mask & BIT100:
            m = mask & ~BIT100
            tp = min(len(self.draw), pos + self.tab.rules.trick_draw * others)
            if m == 0 and free == 0:  # the 100 was the last card: the hand is empty
                out.append(
                    Outcome(0, 0, open_c, tp, False, immune, True, False, tp, True, False, 0, ())
                )
            else:
                self._rest(out, True, m, free, open_c, tp, tp, bound, immune)
        return out

    def _rest(
        self,
        out: list[Outcome],
        trick: bool,
        mask: int,
        free: int,
        open_c: int,
        pos: int,
        tp: int,
        bound: bool,
        immune: bool,
    ) -> None:
        tab = self.tab
        if bound:  # rule Z2: a single-digit card, or the penalty
            for c in bits(mask & tab.singles):
                m = mask ^ (1 << c)
                out.append(
                    Outcome(
                        m,
                        free,
                        c,
                        pos,
                        True,
                        immune,
                        m == 0 and free == 0,
                        False,
                        tp,
                        trick,
                        False,
                        0,
                        ((c, None),),
                    )
                )
            if free:
                for v in range(1, 10):
                    out.append(
                        Outcome(
                            mask,
                            free - 1,
                            v,
                            pos,
                            True,
                            immune,
                            mask == 0 and free == 1,
                            False,
                            tp,
                            trick,
                            False,
                            0,
                            ((FREE, v),),
                        )
                    )
            k = min(self.tab.rules.penalty, len(self.draw) - pos)
            m, f = add_cards(mask, free, self.draw[pos : pos + k])
            out.append(
                Outcome(m, f, open_c, pos + k, False, immune, False, False, tp, trick, False, k, ())
            )
            return
        if not trick and self.special and mask & BIT100:  # rule Z5 Treat
            m = mask & ~BIT100
            out.append(
                Outcome(
                    m,
                    free,
                    open_c,
                    pos,
                    False,
                    True,
                    m == 0 and free == 0,
                    False,
                    tp,
                    False,
                    True,
                    0,
                    (),
                )
            )
        if mask & tab.fit[open_c] or free:
            self._plays(out, trick, mask, free, open_c, pos, tp, immune, None, 0)
        elif pos < len(self.draw):  # rule Z1: draw one, play it if it fits
            x = self.draw[pos]
            m, f = add_cards(mask, free, (x,))
            out.append(
                Outcome(m, f, open_c, pos + 1, False, immune, False, False, tp, trick, False, 1, ())
            )
            self._plays(out, trick, m, f, open_c, pos + 1, tp, immune, x, 1)
        else:  # rule Z1: nothing fits, nothing to draw
            out.append(
                Outcome(
                    mask, free, open_c, pos, False, immune, False, True, tp, trick, False, 0, ()
                )
            )

    def _plays(
        self,
        out: list[Outcome],
        trick: bool,
        mask: int,
        free: int,
        open_c: int,
        pos: int,
        tp: int,
        immune: bool,
        only: int | None,
        drew: int,
    ) -> None:
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
            if m1 == 0 and f1 == 0:
                out.append(
                    Outcome(
                        0,
                        0,
                        tab.canon[value],
                        pos,
                        False,
                        immune,
                        True,
                        False,
                        tp,
                        trick,
                        False,
                        drew,
                        head,
                    )
                )
                continue
            d = repdigit(value)
            if d is None:
                out.append(
                    Outcome(
                        m1,
                        f1,
                        tab.canon[value],
                        pos,
                        is_single(value),
                        immune,
                        False,
                        False,
                        tp,
                        trick,
                        False,
                        drew,
                        head,
                    )
                )
            else:
                self._chain(out, trick, m1, f1, d, value, pos, tp, immune, drew, head)

    def _chain(
        self,
        out: list[Outcome],
        trick: bool,
        mask: int,
        free: int,
        d: int,
        value: int,
        pos: int,
        tp: int,
        immune: bool,
        drew: int,
        head: tuple[Play, ...],
    ) -> None:
        """Rule Z3: after the repdigit, any subset of the cards with digit ``d``."""
        tab = self.tab
        cand = mask & tab.chain_cards[d]
        dd = 11 * d
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
                won = m2 == 0 and f2 == 0
                if not cards and f == 0:
                    out.append(
                        Outcome(
                            m2,
                            f2,
                            tab.canon[value],
                            pos,
                            False,
                            immune,
                            won,
                            False,
                            tp,
                            trick,
                            False,
                            drew,
                            head,
                        )
                    )
                    continue
                seen: set[int] = set()
                for last in cards:
                    key = tab.canon[last]
                    if key in seen:
                        continue
                    seen.add(key)
                    rest = tuple((c, None) for c in cards if c != last)
                    plays = head + rest + ((FREE, dd),) * f + ((last, None),)
                    out.append(
                        Outcome(
                            m2,
                            f2,
                            key,
                            pos,
                            is_single(last),
                            immune,
                            won,
                            False,
                            tp,
                            trick,
                            False,
                            drew,
                            plays,
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
                            Outcome(
                                m2,
                                f2,
                                key,
                                pos,
                                is_single(name),
                                immune,
                                won,
                                False,
                                tp,
                                trick,
                                False,
                                drew,
                                plays,
                            )
                        )
                        if won:
                            break
