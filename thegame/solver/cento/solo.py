"""Solo Cento: the fewest turns to empty the hand, with the draw pile known.

Iterative deepening on the number of turns (IDA*). A state is the hand (mask
and free cards), the open card's class, the draw position, the rule Z2
binding and the rule Z5 immunity; the draw pile order is part of the deal,
so this is everything the future depends on. Complete because every
distinct outcome of a turn is generated (``moves``) and pruning is only by
(a) an admissible lower bound and (b) a memo of states already proven to
need more than the remaining turns. The game is finite (every turn plays or
draws a card, except a bound turn with an empty pile, which follows a play),
so if a whole bound completes without any cut-off, no line empties the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from ...models import interrupt
from ...models.cento.deal import Deal
from ...models.cento.state import Play, State, Turn, initial_state
from ...models.outcome import NO_LIMIT, Limit, OutOfBudget, Verdict
from .budget import NodeCounter
from .moves import Outcome, TurnGen, add_cards
from .tables import BIT100, Tables, bits, tables

INF = 1 << 30
Key = tuple[int, int, int, int, bool, bool]


@dataclass(frozen=True)
class SoloResult:
    """``turn_count`` is the proven minimum when the verdict is win; None when
    the hand cannot be emptied (verdict loss) or the budget ran out (unknown).
    ``optimal``: the verdict is proven (a win's line is the fewest turns)."""

    verdict: Verdict
    turn_count: int | None
    optimal: bool
    turns: tuple[Turn, ...]
    lower_bound: int
    nodes: int
    seconds: float
    deal: Deal = field(compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "turn_count": self.turn_count,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "turns": [t.to_dict() for t in self.turns],
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


@lru_cache(maxsize=4096)
def _hitting(masks: frozenset[int]) -> int:
    """The fewest digits such that every card has one of them."""
    if not masks:
        return 0
    union = 0
    for m in masks:
        union |= m
    ds = [d for d in range(10) if union >> d & 1]
    for k in range(1, len(ds) + 1):
        for combo in combinations(ds, k):
            hit = sum(1 << d for d in combo)
            if all(m & hit for m in masks):
                return k
    return len(ds)


def lower_bound(tab: Tables, mask: int, free: int) -> int:
    """Every turn sheds number cards that share one digit (one card, or a
    rule Z3 chain), so the turns needed are at least the fewest digits that
    hit every number card in hand; at least 1 while anything is held."""
    if mask == 0 and free == 0:
        return 0
    numbers = mask & ~BIT100
    return max(1, _hitting(frozenset(tab.digit_mask[c] for c in bits(numbers))))


def to_turn(player: int, o: Outcome) -> Turn:
    return Turn(player, tuple(Play(c, n) for c, n in o.plays), o.drew, o.trick, o.treat)


class SoloSolver:
    def __init__(self, deal: Deal, limit: Limit = NO_LIMIT) -> None:
        if deal.players != 1:
            raise ValueError("the solo solver takes a one-player deal")
        self.deal = deal
        self.tab = tables(deal.rules)
        self.gen = TurnGen(self.tab, deal.draw)
        self.budget = NodeCounter(limit)
        self.failed: dict[Key, int] = {}  # state -> turns proven not enough (INF: never)

    def root(self) -> Key:
        return self.key_of(initial_state(self.deal))

    def key_of(self, state: State) -> Key:
        """The solver's key of an engine position (player 1 to move)."""
        mask, free = add_cards(0, 0, state.hands[0])
        return (
            mask,
            free,
            self.tab.canon[state.open],
            state.draw_pos,
            state.obliged,
            state.immune[0],
        )

    def children(self, key: Key) -> list[tuple[Key, Outcome]]:
        mask, free, open_c, pos, obliged, immune = key
        seen: dict[Key, Outcome] = {}
        for o in self.gen.outcomes(mask, free, open_c, pos, obliged and not immune, immune, 0):
            k = (o.mask, o.free, o.open, o.pos, o.obliged, o.immune)
            if o.won:
                return [(k, o)]  # emptying the hand now cannot be beaten
            if not o.passed and k not in seen:
                seen[k] = o
        return sorted(seen.items(), key=lambda kv: lower_bound(self.tab, kv[0][0], kv[0][1]))

    def dfs(self, key: Key, budget: int) -> tuple[list[Outcome] | None, bool]:
        """A line of at most ``budget`` turns, or None and whether the bound cut."""
        self.budget.tick()
        if key[0] == 0 and key[1] == 0:
            return [], False
        if self.failed.get(key, -1) >= budget:
            return None, self.failed[key] < INF
        if lower_bound(self.tab, key[0], key[1]) > budget:
            return None, True
        cut = False
        for child, o in self.children(key):
            if o.won:
                return [o], False
            line, c = self.dfs(child, budget - 1)
            if line is not None:
                return [o, *line], False
            cut = cut or c
        self.failed[key] = budget if cut else INF
        return None, cut

    def solve(self, state: State | None = None) -> SoloResult:
        """From the deal, or from a position of it (a record replayed so far)."""
        root = self.root() if state is None else self.key_of(state)
        bound = lower_bound(self.tab, root[0], root[1])
        try:
            while True:
                line, cut = self.dfs(root, bound)
                if line is not None:
                    turns = tuple(to_turn(1, o) for o in line)
                    return self._result(Verdict.WIN, len(turns), True, turns, len(turns))
                if not cut:
                    return self._result(Verdict.LOSS, None, True, (), bound + 1)
                bound += 1
        except OutOfBudget:
            return self._result(Verdict.UNKNOWN, None, False, (), bound)

    def _result(
        self,
        verdict: Verdict,
        need: int | None,
        optimal: bool,
        turns: tuple[Turn, ...],
        lb: int,
    ) -> SoloResult:
        return SoloResult(
            verdict, need, optimal, turns, lb, self.budget.nodes, self.budget.seconds, self.deal
        )


@interrupt.polled
def solve_solo(deal: Deal, limit: Limit = NO_LIMIT, state: State | None = None) -> SoloResult:
    """The fewest turns to empty the single player's hand, proven."""
    return SoloSolver(deal, limit).solve(state)
