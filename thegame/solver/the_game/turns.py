"""The turns of a kernel position, for the beams over whole turns
(``beam``): every distinct result of the mover's turn, cheapest first.

``TurnLister`` is the part of ``Kernel`` that lists them; it names what of
the kernel it reads (see the glossary in ``kernel``).
"""

from __future__ import annotations

from .records import INF, KernelUndo, TurnOption
from .tables import PlacementTable


class TurnLister:
    """Whole turns from a kernel position (a base of ``Kernel``)."""

    tops: list[int]
    hands: list[int]
    unplayed: int
    pending: int
    cur: int
    t: int
    turn_min: int
    max_turn: int
    n_asc: int
    btw: list[list[int]]
    place: PlacementTable

    def moves(self) -> list[tuple[int, int, int]]:
        raise NotImplementedError

    def play(self, c: int, pile: int) -> KernelUndo:
        raise NotImplementedError

    def unplay(self, c: int, pile: int, saved: KernelUndo) -> None:
        raise NotImplementedError

    def turn_span(self, longest: int = INF) -> tuple[int, int]:
        """The fewest and most plays left to make in the mover's turn (the
        most capped at ``longest``). From a position inside a turn (an
        analysed game) the plays made count; ending at once is a candidate
        when the minimum is met."""
        lo = max(self.turn_min - self.t, 0) if self.t else self.turn_min
        return lo, min(self.max_turn - self.t, longest)

    def solo_turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        """Distinct turn results, cheapest first: (cost, plays).

        ``branch`` keeps only that many of the best plays at each step and
        ``longest`` caps the turn length: for the beam, which is incomplete
        anyway; complete search passes neither.
        """
        k = self
        lo, hi = k.turn_span(longest)
        found: dict[tuple[int, ...], tuple[int, list[tuple[int, int]]]] = {}
        plays: list[tuple[int, int]] = []
        n_asc = k.n_asc
        tops = k.tops
        btw = k.btw
        trick_up, trick_down = k.place.trick_top

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
                delta = (un & (btw[top][c] if c > top else btw[c][top])).bit_count()
                if top == (trick_up if pile < n_asc else trick_down)[c]:
                    delta = -delta - 1  # a trick
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
        # A child whose every line is a dead card is pruned in the child.
        return sorted(found.values(), key=lambda x: x[0])

    def fire_turns(
        self, branch: int = INF, longest: int = INF, extra_cost: int = INF
    ) -> list[TurnOption]:
        """The mover's turns listed through ``play``, which keeps the fire
        deadlines: a turn ends only with every due fire card covered (F2).
        Solo with fire cards, and every turn of several players (no solo
        turn cap). Arguments as in ``solo_turns``."""
        k = self
        lo, hi = k.turn_span(longest)
        found: dict[tuple[int, ...], tuple[int, list[tuple[int, int]]]] = {}
        expanded: dict[tuple[int, ...], int] = {}
        plays: list[tuple[int, int]] = []

        def rec(depth: int, cost: int) -> None:
            # Fire deadlines are per pile: no pile symmetry in this key.
            key = (*k.tops, k.pending, k.hands[k.cur])
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
