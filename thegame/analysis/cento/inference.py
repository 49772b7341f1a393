"""What the turns played tell one seat of the other hands, for dealing worlds.

Each other hand is a list of *slots*, one a card it holds, each with the
mask of the cards it cannot be and the turn it arrived (-1: dealt). A
player who draws under rule Z1 (or passes, the pile empty) held nothing
that fitted the open card and no free card; one who takes the rule Z2
penalty held no single-digit card and no free card (a player with one
lays it: three cards are a heavy price). A card drawn under rule Z1 and
kept did not fit either (a greedy player lays it if it does). A card
played is taken from the most constrained slot it can have come from; a
drawn card laid at once never was a slot.

The opponents the engine meets play greedily, and a greedy turn is
decided by the hand: so each turn another player laid cards is a *check*
a world must pass. A world's hand, less the cards of slots that arrived
after the turn, plus the cards laid since from slots present then, is the
hand of that turn, and its turn must be the greedy one there. A turn is
checked only where that hand is certain: no card laid since may have come
from a slot dealt before the turn as well as from one drawn after it. A
world that fails a check is dealt again (up to ``sampler.TRIES`` times,
else the one failing fewest is kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...models.cento.deal import Deal
from ...models.cento.rules import FREE, HUNDRED
from ...models.cento.state import Turn, apply_turn, initial_state
from ...solver.cento.table import FREE_SHIFT, TableSolver
from ...solver.cento.tables import tables

FREE_BIT = 1 << FREE  # a free card in an exclusion mask (the number cards are bits 1..100)
MAX_CHECKS = 256  # the compiled search's bound on the checks

# seat, small fields before the turn, slots to leave out (bits of the global
# slot order), cards back, cards after, open card after
Check = tuple[int, int, int, int, int, int]


@dataclass
class Slot:
    mask: int  # the cards it cannot be
    arrived: int  # the turn it was drawn, -1 dealt


@dataclass(frozen=True)
class Observed:
    """Per other seat its slots' masks (the checks number the slots seat by
    seat), the checks of the others' turns and when each slot arrived."""

    slots: dict[int, list[int]]
    checks: tuple[Check, ...]
    arrived: dict[int, list[int]]  # per other seat, the turn each slot arrived (-1: dealt)


def _card_bit(card: int) -> int:
    return 1 << FREE_SHIFT if card == FREE else 1 << card


def _take(slots: list[Slot], card: int) -> tuple[int, int, int]:
    """Remove the slot ``card`` most likely filled (the most constrained that
    allows it): the turn that slot arrived, and the first and the last turn
    a slot that allows it arrived (it may have come from any of them)."""
    bit = 1 << card
    best = -1
    lo, hi = 1 << 30, -2
    for i, s in enumerate(slots):
        if not s.mask & bit:
            lo, hi = min(lo, s.arrived), max(hi, s.arrived)
            if best < 0 or s.mask.bit_count() > slots[best].mask.bit_count():
                best = i
    got = slots.pop(best if best >= 0 else 0).arrived
    return (got, lo, hi) if best >= 0 else (got, got, got)


def observe(
    deal: Deal, history: Sequence[Turn], seat: int, whole: bool = True, greedy: bool = True
) -> Observed:
    """What ``history`` tells ``seat``; ``whole``: check every turn another
    player laid cards (else only those since it last took a card unseen);
    ``greedy``: read the others as greedy players (else only what any legal
    play tells: no checks, and a drawn card kept may fit)."""
    tab = tables(deal.rules)
    solver = TableSolver(deal, seat)
    n = deal.players
    slots = {i: [Slot(0, -1) for _ in deal.hands[i]] for i in range(n) if i != seat}
    # turn, card, arrived, first and last arrival it may have
    laid: dict[int, list[tuple[int, int, int, int, int]]] = {i: [] for i in slots}
    turns: list[tuple[int, int, int, int]] = []  # seat, turn, small, open after
    state = initial_state(deal)
    for t, turn in enumerate(history):
        p = turn.player - 1
        pos = state.draw_pos
        nxt = apply_turn(deal, state, turn)
        if turn.trick:  # rule Z5: every other player draws, in seat order
            for j in range(1, n):
                q = (p + j) % n
                got = min(deal.rules.trick_draw, len(deal.draw) - pos)
                pos += got
                if q != seat:
                    slots[q].extend(Slot(0, t) for _ in range(got))
        if p != seat:
            mine = slots[p]
            cards = [play.card for play in turn.plays]
            if turn.trick or turn.treat:
                laid[p].append((t, HUNDRED, *_take(mine, HUNDRED)))
            if turn.draw or not (turn.plays or turn.treat):  # it drew, or passed
                penalty = state.obliged and not state.immune[p]
                out = (tab.singles if penalty else tab.fit[tab.canon[state.open]]) | FREE_BIT
                for s in mine:
                    s.mask |= out
                if turn.draw == 1 and cards:  # the drawn card laid at once
                    cards = cards[1:]
                else:  # a card drawn under rule Z1 and kept: greedy play lays one that fits
                    new = 0 if penalty or not greedy else out
                    mine.extend(Slot(new, t) for _ in range(turn.draw))
            laid[p].extend((t, c, *_take(mine, c)) for c in cards)
            if greedy and not turn.draw and (turn.plays or turn.treat):
                key = solver.key_of(nxt)
                turns.append((p, t, solver.key_of(state)[0], key[0] >> 3 & 127))
        state = nxt
    return Observed(
        {i: [s.mask for s in v] for i, v in slots.items()},
        _checks(slots, laid, turns, whole),
        {i: [s.arrived for s in v] for i, v in slots.items()},
    )


def _checks(
    slots: dict[int, list[Slot]],
    laid: dict[int, list[tuple[int, int, int, int, int]]],
    turns: list[tuple[int, int, int, int]],
    whole: bool,
) -> tuple[Check, ...]:
    base: dict[int, int] = {}
    at = 0
    for i in sorted(slots):
        base[i] = at
        at += len(slots[i])
    out: list[Check] = []
    for p, t, small, open_c in turns:
        skip = 0
        for j, s in enumerate(slots[p]):
            if s.arrived > t:
                skip |= 1 << (base[p] + j)
        back = sum(_card_bit(c) for tc, c, a, _, _ in laid[p] if tc >= t and a <= t)
        after = sum(_card_bit(c) for tc, c, a, _, _ in laid[p] if tc > t and a <= t)
        # a card laid since that may have been dealt before the turn or drawn
        # after it: the hand of the turn is not known
        if any(tc >= t and lo <= t < hi for tc, _, _, lo, hi in laid[p]):
            continue
        later = skip or any(a > t for _, _, a, _, _ in laid[p])
        if whole or not later:
            out.append((p, small, skip, back, after, open_c))
    return tuple(out[-MAX_CHECKS:])


__all__ = ["MAX_CHECKS", "Check", "Observed", "observe"]
