"""A deal as the model sees it: its dimensions, its rules and the sound
limits the model puts on turns (turn splitting) and on the horizon.

Nothing here builds CP-SAT variables; the constraint modules and the hint
walk ask a ``Shape`` what they need.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....models.the_game import Deal, GameKind
from ..solution import EngineName

ENGINE = EngineName.CPSAT


def check_supported(deal: Deal) -> None:
    """Raise ``ValueError`` unless the CP-SAT model covers ``deal``."""
    rules = deal.rules
    if rules.kind is not GameKind.CLASSIC:
        raise ValueError(f"the CP-SAT model does not cover {rules.name} (only the classic family)")
    if rules.commands:
        raise ValueError(f"the CP-SAT model does not cover {rules.name}: commands (rule X)")
    if rules.fire_cards and not rules.fire_safe_at_clear:
        # The model lets the last turn of a line leave any fire card showing
        # (rule F3 as decided); the other setting is not modelled.
        raise ValueError("the CP-SAT model needs fire cards to be safe at a perfect clear (F3)")
    if len(deal.deck) < deal.players * rules.hand_size(deal.players):
        raise ValueError("the CP-SAT model needs a full hand for every player")


@dataclass(frozen=True)
class Shape:
    """The parameters of a deal the model needs."""

    deck: tuple[int, ...]
    n: int  # cards
    hand: int  # H
    m: int  # minimum while the draw pile has cards
    m_empty: int  # minimum once it is empty
    n_asc: int
    n_piles: int
    step: int
    low: int
    high: int
    players: int = 1
    fire: frozenset[int] = frozenset()  # rule F1
    first: int | None = None  # 0-based starting player; None: free (rule C3)

    @classmethod
    def of(cls, deal: Deal) -> Shape:
        check_supported(deal)
        r = deal.rules
        return cls(
            deck=deal.deck,
            n=len(deal.deck),
            hand=r.hand_size(deal.players),
            m=r.min_play,
            m_empty=r.min_play_empty,
            n_asc=r.asc_piles,
            n_piles=r.asc_piles + r.desc_piles,
            step=r.step,
            low=r.low,
            high=r.high,
            players=deal.players,
            fire=r.fire_cards,
            first=None if deal.first is None else deal.first - 1,
        )

    @property
    def simple(self) -> bool:
        """Solo without fire cards: turns split and plays commute after the
        draw pile is empty (``maximum``, ``order``). Several players
        interleave their turns and fire deadlines count turns, so neither
        shortcut holds for them."""
        return self.players == 1 and not self.fire

    @property
    def dealt(self) -> int:
        """Cards dealt before the first turn (rule C2)."""
        return self.players * self.hand

    def owner(self, i: int) -> int | None:
        """The player dealt deck position i, or None for a drawn card."""
        return i // self.hand if i < self.dealt else None

    def asc(self, p: int) -> bool:
        return p < self.n_asc

    def start_top(self, p: int) -> int:
        return self.low - 1 if self.asc(p) else self.high + 1

    def minimum(self, b: int) -> int:
        """The minimum of a turn starting with b cards played (rule C4)."""
        return self.m if self.dealt + b < self.n else self.m_empty

    def maximum(self, b: int) -> int:
        """The longest turn starting at slot b the model allows.

        Solo, a turn of k >= 2q plays with minimum q can be split into a
        turn of q plays and a turn of k-q >= q plays: the tops after each
        card are the same, the split turn has seen at least the same cards
        at every play (it drew after q plays), and both end with the same
        number of cards played, hence the same hand. The second part needs
        the minimum at its start, which is q again or ``min_play_empty``;
        so the split is legal when ``min_play_empty <= m`` (always in the
        presets). After the draw pile is empty nothing is drawn and the
        minimum stays ``min_play_empty``. So turns of q..2q-1 plays lose
        nothing. With ``min_play_empty > m`` only the hand size caps a turn,
        and so it does with several players or fire cards (``simple``).
        """
        q = self.minimum(b)
        if not self.simple:
            return self.hand
        if self.hand + b >= self.n or self.m_empty <= self.m:
            return min(2 * q - 1, self.hand)
        return self.hand

    def longest(self) -> int:
        """The longest turn the model allows anywhere."""
        return max(self.maximum(b) for b in range(self.n))

    def earliest(self, i: int) -> int:
        """The first slot in which deck position i can be played: after
        ``need(i)`` plays, and for a drawn card after the first turn."""
        if i < self.dealt:
            return 0
        return max(self.need(i), self.minimum(0))

    def settled(self, horizon: int, played: int) -> bool:
        """Whether an optimum of ``played`` cards within ``horizon`` slots is
        the optimum of the whole game.

        A line of more than K = ``horizon`` cards, cut after its last turn
        that ends within K slots, keeps more than K - L cards (L =
        ``longest()``: the cut turn is at most L long) and is a line of the
        K-slot model. So a K-slot optimum <= K - L is the global optimum
        (and a proven K-slot bound <= K - L a global bound).
        """
        return horizon >= self.n or played <= horizon - self.longest()

    def need(self, i: int) -> int:
        """Cards that must be played before the turn in which deck position
        i can be played: it has been drawn at a turn start after b plays iff
        i < P*H + b (rules C2, C6: every turn's plays are drawn back from the
        one shared draw pile, in order)."""
        return max(0, i - self.dealt + 1)


def start_player(shape: Shape, first: int | None) -> int:
    """The 0-based player a line starts from: the deal's fixed start, else
    ``first`` when it is a seat, else player 0."""
    if shape.first is not None:
        return shape.first
    return first if first is not None and 0 <= first < shape.players else 0
