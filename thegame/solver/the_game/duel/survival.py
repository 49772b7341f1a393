"""How many more turns a player can take: the survival bounds of the duel search.

Most duels end with a player who cannot play 2 cards (D6), long before
anyone has played all 58; the race bounds (``race.py``) only see finishing.
These bounds see the other end: a player who will be stuck soon whatever
they do, against one who can keep playing that long whatever is laid on
their piles.

Two counts over one player's own state (``Solo``: hand, draw-pile position,
own tops), each capped at the turns asked about:
- ``Endurance(relaxed=True)``, an upper bound on the turns the player can
  still take while the opponent lays nothing on their piles: their turns
  with the one card for the opponent (D2) allowed to be any card of the
  hand, whether or not it would improve an opponent's pile (D4). Every real
  turn is such a turn (the own plays are the same, D3; the card laid on the
  opponent leaves the hand and the refill is the same, D5), so the player
  cannot take more real turns than relaxed ones.
- ``Endurance(relaxed=False)``, a lower bound on the turns the player
  surely takes: their robust turns on their own piles (``solo_turns``),
  which stay legal whatever single card the opponent lays on each pile
  between them, and which lay nothing on the opponent's piles.

A turn that plays the player's last card wins the duel at once (D6), so
it counts as lasting for ever (``FOREVER``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ....models.outcome import OutOfBudget
from ....models.the_game.placement import accepts
from . import ccore
from .position import DuelGame, Solo, cards_of, solo_turns

if TYPE_CHECKING:
    from . import _cduel

FOREVER = 1 << 20
# Memo entries kept per player before the memo starts afresh.
MEMO_LIMIT = 200_000


def relaxed_turns(game: DuelGame, p: int, solo: Solo) -> list[Solo | None]:
    """Player p's distinct states after a relaxed turn (None: all played).

    Own plays as in D3; then either the turn ends with at least the minimum
    played, drawing 2 (D5), or one card of the hand, any card, leaves for
    the opponent after at least one own play (D2) and the player refills to
    the hand size (D5)."""
    hand0, at, a0, d0 = solo
    deck = game.decks[p]
    stock = len(deck) - at
    m = game.min_play if stock else game.min_play_empty
    step = game.step
    seen: set[tuple[int, int, int]] = set()
    out: set[Solo | None] = set()

    def draw(hand: int, want: int) -> tuple[int, int]:
        take = max(0, min(want, stock))
        for c in deck[at : at + take]:
            hand |= 1 << c
        return hand, at + take

    def visit(hand: int, a: int, d: int, n: int) -> None:
        if (hand, a, d) in seen:
            return
        seen.add((hand, a, d))
        if n >= m:
            if hand == 0 and not stock:
                out.add(None)
                return
            h, t = draw(hand, game.draw_own)
            out.add((h, t, a, d))
        if n >= 1 and n + 1 >= m:
            for c in cards_of(hand):
                rest = hand & ~(1 << c)
                if rest == 0 and not stock:
                    out.add(None)
                    continue
                h, t = draw(rest, game.hand_size - rest.bit_count())
                out.add((h, t, a, d))
        for c in cards_of(hand):
            rest = hand & ~(1 << c)
            if accepts(True, a, c, step):
                visit(rest, c, d, n + 1)
            if accepts(False, d, c, step):
                visit(rest, a, c, n + 1)

    visit(hand0, a0, d0, 0)
    return list(out)


def listing(
    game: DuelGame, p: int, relaxed: bool, compiled: _cduel.Game | None
) -> Callable[[Solo], list[Solo | None]]:
    """Player p's relaxed (else robust) turn results, compiled when given.
    The compiled listings hold the same states (tests/the_game/duel/test_survival.py);
    ``Endurance`` sorts them, so both search alike, listing for listing."""
    c = compiled
    if relaxed:
        if c is not None:
            return lambda solo: c.relaxed_turns(p, solo)
        return lambda solo: relaxed_turns(game, p, solo)
    if c is not None:
        return lambda solo: [after for _plays, after in c.solo_turns(p, solo, True)]
    return lambda solo: [after for _plays, after in solo_turns(game, p, solo, True)]


class Endurance:
    """How many turns in a row player p can take alone, capped, memoised
    across calls (``relaxed``: the upper bound; else the robust lower bound)."""

    def __init__(
        self, game: DuelGame, p: int, relaxed: bool, compiled: _cduel.Game | None = None
    ) -> None:
        self.game = game
        self.p = p
        self.relaxed = relaxed
        c = compiled if compiled is not None else ccore.compiled(game)
        self.turns = listing(game, p, relaxed, c)
        # solo -> (turns, exact): exact, or a lower bound when not exact.
        self.memo: dict[Solo, tuple[int, bool]] = {}
        self.nodes = 0
        self.node_limit = 0

    def lasts(self, solo: Solo, k: int, nodes: int) -> int:
        """min(k, the most turns in a row from ``solo``); ``OutOfBudget``
        after ``nodes`` more turn listings."""
        self.node_limit = self.nodes + nodes
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        return self._lasts(solo, k)

    def _lasts(self, solo: Solo, k: int) -> int:
        if k <= 0:
            return 0
        got = self.memo.get(solo)
        if got is not None:
            value, exact = got
            if exact or value >= k:
                return min(value, k)
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfBudget
        best = 0
        for after in sorted(self.turns(solo), key=_order):
            value = FOREVER if after is None else 1 + self._lasts(after, k - 1)
            if value > best:
                best = value
                if best >= k:
                    break
        self.memo[solo] = (best, best < k)
        return min(best, k)


def _order(after: Solo | None) -> tuple[int, ...]:
    """A turn that wins first, then a fixed order (the same for both backends)."""
    return () if after is None else after
