"""Loss arguments at a turn start: bounds that prove a position has no
perfect clear before the search reaches the end of the game.

Each argument over-approximates what the piles can ever take, so what it
calls lost is lost (``tests/the_game/solver/test_arguments.py`` checks each
against the engine-only brute force on small deals):

- **dead cards** (``dead_cards_bound``): the unplayed cards, in any hand or
  in the draw pile, that no pile can take any more (``Kernel.dead_mask``);
  their count is a lower bound on the cards left.
- **order pairs** (``order_pairs``): two cards only one pile can ever take,
  where laying the first kills the second (an ascending pile that shows y
  can never come back down to a lower x, no chain of backward tricks
  reaching it). The pile must take x before y, so y waits in its hand
  until x has been drawn.
- **held cards** (``held_cards_bound``): the turn minimum against the cards
  that can still be laid. Solo, at each future turn start, the cards that
  cannot be laid in that turn (out of the reach of the cards drawn by then,
  or waiting for the other card of an order pair) stay in the hand, and the
  turn needs the minimum from the rest; when no sequence of turns gets past
  the draw pile, no line clears. With several players, the same count for
  the player to move and the players after them in this round, over the
  cards that can be laid before their turn ends (``Kernel.stuck_ahead``
  with the order pairs added).

These run at the turn starts the split search hands out (``parallel``),
at the root of ``api.search_position``, and, as a cut, at the turn starts
of the complete search near the end (``turn_start_cut`` through
``arguments.turn_cut``; the compiled kernel's is the same, node for node).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...models.the_game.notation import plural
from .extreme.kernel import ExtremeKernel
from .kernel import Kernel


class LossKind(StrEnum):
    """How a loss was proven (a solution's ``proof_kind``)."""

    DEAD_CARDS = "dead-cards"  # cards no pile can take any more
    HELD_CARDS = "held-cards"  # the turn minimum against the cards that can be laid
    ORDER_PAIRS = "order-pairs"  # held cards, with cards waiting for their pair
    GRAPH = "graph"  # the graph bounds at the start (dead cards, fire covers)
    SEARCH = "search"  # an exhaustive search


@dataclass(frozen=True)
class LossBound:
    """A proven loss at a position: its kind, at least ``cards`` cards are
    left, and why, in words."""

    kind: LossKind
    cards: int
    why: str


def pile_low(k: Kernel, top: int, un: int) -> int:
    """The lowest card an ascending pile showing ``top`` can ever take when
    only the cards of ``un`` are ever played (``Kernel.reach``, one pile)."""
    step = k.step
    low = top + 1
    while True:
        src = ((un >> low) << low) | (1 << top)
        tgt = (src >> step) & un & ((1 << low) - 1)
        if not tgt:
            return low
        low = (tgt & -tgt).bit_length() - 1


def pile_high(k: Kernel, top: int, un: int) -> int:
    """The highest card a descending pile showing ``top`` can ever take
    (``pile_low`` mirrored)."""
    step = k.step
    high = top - 1
    while True:
        src = (un & ((1 << (high + 1)) - 1)) | (1 << top)
        tgt = (src << step) & un & ~((1 << (high + 1)) - 1)
        if not tgt:
            return high
        high = tgt.bit_length() - 1


def takers(k: Kernel) -> dict[int, int]:
    """For each unplayed card, the piles (a bitmask) that can ever take it."""
    un = k.unplayed
    reach = []
    for i in range(k.n_piles):
        if i < k.n_asc:
            low = pile_low(k, k.tops[i], un)
            reach.append(un & ~((1 << low) - 1))
        else:
            high = pile_high(k, k.tops[i], un)
            reach.append(un & ((1 << (high + 1)) - 1))
    out: dict[int, int] = {}
    rest = un
    while rest:
        c = (rest & -rest).bit_length() - 1
        rest &= rest - 1
        out[c] = sum(1 << i for i in range(k.n_piles) if reach[i] >> c & 1)
    return out


def pair_masks(k: Kernel) -> list[tuple[int, int, int]]:
    """The order pairs by their second card: (y, xs, pile), the cards x of
    ``xs`` (a bitmask) each make an order pair (x, y, pile) (``order_pairs``).
    Computed over bitmasks, as the search asks at every turn start."""
    un = k.unplayed
    reach = []
    for i in range(k.n_piles):
        if i < k.n_asc:
            reach.append(un & ~((1 << pile_low(k, k.tops[i], un)) - 1))
        else:
            reach.append(un & ((1 << (pile_high(k, k.tops[i], un) + 1)) - 1))
    out: list[tuple[int, int, int]] = []
    for pile, can in enumerate(reach):
        only = can
        for other, more in enumerate(reach):
            if other != pile:
                only &= ~more
        rest_only = only
        while rest_only:
            y = (rest_only & -rest_only).bit_length() - 1
            rest_only &= rest_only - 1
            rest = un & ~(1 << y)
            if pile < k.n_asc:
                xs = only & ((1 << pile_low(k, y, rest)) - 1)
            else:
                xs = only & ~((1 << (pile_high(k, y, rest) + 1)) - 1)
            xs &= ~(1 << y)
            if xs:
                out.append((y, xs, pile))
    return out


def order_pairs(k: Kernel) -> list[tuple[int, int, int]]:
    """(x, y, pile): x and y are cards only ``pile`` can ever take, and once
    the pile shows y it can never take x (an ascending pile: x < y and no
    chain of backward tricks from y over the unplayed cards reaches x). So
    every perfect clear lays x before y."""
    out: list[tuple[int, int, int]] = []
    for y, xs, pile in pair_masks(k):
        out.extend((x, y, pile) for x in range(xs.bit_length()) if xs >> x & 1)
    return out


def dead_cards_bound(k: Kernel) -> LossBound | None:
    """The cards no pile can take any more, in the hands and in the draw
    pile: at least that many are left."""
    dead = k.dead_mask()
    if not dead:
        return None
    cards = [c for c in range(dead.bit_length()) if dead >> c & 1]
    held = 0
    for h in k.hands:
        held |= h
    in_hand = [c for c in cards if held >> c & 1]
    where = f"{len(in_hand)} in hand, {len(cards) - len(in_hand)} in the draw pile"
    why = (
        f"no pile can take {_cards_text(cards)} any more ({where}): "
        f"at least {plural(len(cards), 'card')} left"
    )
    return LossBound(LossKind.DEAD_CARDS, len(cards), why)


def _cards_text(cards: list[int]) -> str:
    if len(cards) <= 6:
        return ", ".join(map(str, cards))
    return ", ".join(map(str, cards[:6])) + f" and {len(cards) - 6} more"


def _waits(k: Kernel, pairs: list[tuple[int, int, int]]) -> dict[int, int]:
    """For each card y of an order pair (``pair_masks``), the number of
    cards to draw before y can be laid (its x drawn): y waits in its hand
    until then."""
    held = 0
    for h in k.hands:
        held |= h
    wait: dict[int, int] = {}
    for y, xs, _ in pairs:
        drawn = xs & ~held  # an x in a hand may go down at once
        if drawn:
            wait[y] = max(i for i in range(k.pos, k.total) if drawn >> k.deck[i] & 1) - k.pos + 1
    return wait


def held_cards_bound(k: Kernel, pairs: bool = True) -> LossBound | None:
    """Solo, at a turn start with cards to draw: no sequence of turns gets
    past the draw pile when the cards each turn cannot lay leave fewer than
    the minimum to play (module notes). ``pairs``: count the cards waiting
    for the other card of an order pair as held too."""
    if k.players != 1 or k.t != 0 or k.pos >= k.total:
        return None
    draw = k.deck[k.pos :]
    cards = k.hands[0]
    hand = cards.bit_count()  # solo, while the draw pile lasts: always full
    wait = _waits(k, pair_masks(k)) if pairs else {}
    no_asc_bound = k.total + k.rules.low + 1
    can_start = [False] * (len(draw) + hand + 1)
    can_start[0] = True
    used_pairs = False
    for s in range(len(draw)):
        if s:
            cards |= 1 << draw[s - 1]
        if not can_start[s]:
            continue
        lo, hi = k.reach(cards)
        lo = min(lo, no_asc_bound)
        out = 0
        if hi + 1 < lo:
            out = cards & ((1 << lo) - 1) & ~((1 << (hi + 1)) - 1)
        waiting = sum(1 << y for y, d in wait.items() if s < d and cards >> y & 1) & ~out
        used_pairs = used_pairs or bool(waiting)
        stuck = (out | waiting).bit_count()
        for j in range(k.min_play, hand - stuck + 1):
            if s + j >= len(draw):
                return None  # some line gets past the draw pile: no proof
            can_start[s + j] = True
    kind = LossKind.ORDER_PAIRS if used_pairs else LossKind.HELD_CARDS
    why = (
        f"the turn minimum of {k.min_play} cannot be met before the draw pile runs out: "
        "at some turn the hand holds too many cards that cannot be laid yet"
    )
    if used_pairs:
        why += " (some wait for a card only the same pile can take first)"
    return LossBound(kind, 1, why)


def stuck_with_pairs(k: Kernel) -> LossBound | None:
    """Several players, at a turn start: the player to move or a later one
    of this round cannot make the minimum in their turn (``stuck_ahead``),
    counting also the cards that wait for the other card of an order pair
    that cannot be laid before that turn ends."""
    if k.players == 1 or k.t != 0:
        return None
    pairs = pair_masks(k)
    left = k.total - k.pos
    before = 0
    no_asc_bound = k.total + k.rules.low + 1
    for i in range(k.players):
        if i:
            before |= k.hands[(k.cur + i - 1) % k.players]
        if left <= before.bit_count():
            return None  # the draw pile may run out first: the minimum may drop
        q = (k.cur + i) % k.players
        hand = k.hands[q]
        avail = before | hand
        lo, hi = k.reach(avail)
        lo = min(lo, no_asc_bound)
        out = ((1 << lo) - 1) & ~((1 << (hi + 1)) - 1) if hi + 1 < lo else 0
        waiting = 0
        for y, xs, _ in pairs:
            if hand >> y & 1 and xs & ~avail:
                waiting |= 1 << y  # an x cannot be laid before q's turn ends
        playable = hand & ~out & ~waiting
        if playable.bit_count() < k.min_play:
            kind = LossKind.ORDER_PAIRS if waiting & hand & ~out else LossKind.HELD_CARDS
            why = (
                f"player {q + 1} cannot lay the minimum of {k.min_play} in their turn: "
                f"only {plural(playable.bit_count(), 'card')} of their hand can be laid by then"
            )
            if kind is LossKind.ORDER_PAIRS:
                why += " (others wait for a card only the same pile can take first)"
            return LossBound(kind, 1, why)
    return None


# The complete search's cut runs where the draw pile holds at most this many
# cards (kernel.h's CUT_HORIZON too). There it pays: from the turn starts
# 11-20 of profi-hard seed 108's stored best line it saves 22-28% of the
# compiled search's nodes and 17-34% of its time; with a long draw pile it
# seldom fires and costs more than it saves, and in the beams too
# (docs/c-kernels.md).
CUT_HORIZON = 40


def turn_start_cut(k: Kernel) -> bool:
    """The complete search's cut at a turn start (``arguments.turn_cut``, in
    C too), where at most ``CUT_HORIZON`` cards are left to draw: held cards
    with order pairs solo, a player of this round stuck with them with
    several players. Not for Extreme (commands change what a pile takes)."""
    if isinstance(k, ExtremeKernel) or k.total - k.pos > CUT_HORIZON:
        return False
    if k.players == 1:
        return held_cards_bound(k) is not None
    return stuck_with_pairs(k) is not None


def turn_cut(k: Kernel) -> bool:
    """The complete search's cut (``dfs.Searcher``; C ``turn_cut``): at a
    turn start, ``turn_start_cut``, unless the kernel class turns it off
    (``Kernel.turn_cuts``, for a baseline). A compiled kernel searched by
    the Python searcher (``CKernel``, not a ``Kernel``) asks its own C cut,
    the same node for node."""
    if not isinstance(k, Kernel):
        return bool(k.turn_cut())  # type: ignore[unreachable]
    return k.t == 0 and k.turn_cuts and turn_start_cut(k)


def turn_start_bound(k: Kernel) -> LossBound | None:
    """The first loss argument that holds at this turn start (dead cards
    first: it also counts the cards left), or None."""
    if isinstance(k, ExtremeKernel):
        return None  # Extreme's commands change what a pile takes (X)
    # Fire cards (F2-F4) only add duties: what the plain rules cannot do,
    # a game with fire cards cannot either.
    if k.t != 0:
        return dead_cards_bound(k)
    return dead_cards_bound(k) or held_cards_bound(k) or stuck_with_pairs(k)


def bound_of(k: Kernel) -> int:
    """The cards the arguments prove left at this turn start (0: none)."""
    b = turn_start_bound(k)
    return 0 if b is None else b.cards


__all__ = [
    "CUT_HORIZON",
    "LossBound",
    "LossKind",
    "bound_of",
    "dead_cards_bound",
    "held_cards_bound",
    "order_pairs",
    "pair_masks",
    "stuck_with_pairs",
    "takers",
    "turn_cut",
    "turn_start_bound",
    "turn_start_cut",
]
