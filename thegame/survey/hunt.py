"""The hunt for an unwinnable deal: a climb over deck orders, and margins.

A deal of The Game is unwinnable when no order of play clears it. Random
deals are almost always winnable (the survey's tables), so the hunt climbs:
it changes a deck a little at a time and keeps a change that makes the deal
no easier. "Easier" is measured by the *hand margin*: the smallest hand with
which the same card order is still cleared (rule C10 lets the hand size
vary). A deal that needs the full hand of rule C2 is one card from being
unwinnable; one that needs more than the full hand is unwinnable. Ties are
broken by the bound the search found with the largest hand that did not
clear (the fewest cards left on its best line: more is closer to a loss),
then by the search's effort (nodes).

A hand size is *cleared* only with a line the solver found (replayed by the
referee inside ``solve``), *lost* only with a completed proof; otherwise it
stays open, and an open hand counts as not cleared for the climb's score
only, never in what is reported as proven.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..models.outcome import Limit, Verdict
from ..models.the_game import Deal, Rules
from ..solver.the_game.api import solve

# How far below the rules' hand the margin is measured: a random full deal
# is cleared with two cards fewer about half the time, so looking further
# down costs loss searches and tells the climb nothing.
MARGIN_DEPTH = 2


@dataclass(frozen=True)
class Probe:
    """One hand size tried: its verdict, the fewest cards left on the best
    line found (0 for a clear) and the search's nodes."""

    hand: int
    verdict: Verdict
    cards_left: int
    nodes: int


@dataclass(frozen=True)
class Margin:
    """The smallest hand that clears a deck order, as far as proven.

    ``cleared_with``: the smallest hand tried with a winning line (None: no
    hand tried up to the rules' own was cleared). ``probes`` holds every
    hand tried, smallest first.
    """

    cleared_with: int | None
    probes: tuple[Probe, ...]

    def score(self, full_hand: int) -> tuple[int, int, int]:
        """The climb's order: a larger needed hand first, then more cards
        left on the best line found with the largest hand that did not
        clear, then more nodes."""
        need = full_hand + 1 if self.cleared_with is None else self.cleared_with
        short = [p.cards_left for p in self.probes if p.verdict is not Verdict.WIN]
        return need, short[-1] if short else 0, sum(p.nodes for p in self.probes)

    def proven_lost(self, hand: int) -> bool:
        return any(p.hand == hand and p.verdict is Verdict.LOSS for p in self.probes)


def with_hand(rules: Rules, hand: int) -> Rules:
    """The same rules with every table size's hand set to ``hand`` (rule C10)."""
    return rules.with_changes(hand_sizes=(hand,) * len(rules.hand_sizes))


def margin(
    deck: Sequence[int],
    rules: Rules,
    players: int,
    limit: Limit,
    depth: int = MARGIN_DEPTH,
    lowest: int = 1,
) -> Margin:
    """Try hands from ``depth`` below the rules' hand (and not below
    ``lowest``) up to it; stop at the first cleared one."""
    full = rules.hand_size(players)
    probes: list[Probe] = []
    for hand in range(min(full, max(1, full - depth, lowest)), full + 1):
        deal = Deal.create(with_hand(rules, hand), players, [list(deck)])
        sol = solve(deal, limit, optimize=False)
        probes.append(Probe(hand, Verdict(sol.verdict), sol.cards_left, sol.nodes))
        if sol.verdict == Verdict.WIN:
            return Margin(hand, tuple(probes))
    return Margin(None, tuple(probes))


def mutate(deck: Sequence[int], rng: random.Random) -> list[int]:
    """A small change to a deck order: swap two cards, move one, or reverse
    a short run (the three keep every card once)."""
    out = list(deck)
    n = len(out)
    kind = rng.random()
    if kind < 0.5:
        i, j = rng.randrange(n), rng.randrange(n)
        out[i], out[j] = out[j], out[i]
    elif kind < 0.8:
        card = out.pop(rng.randrange(n))
        out.insert(rng.randrange(n), card)
    else:
        i = rng.randrange(max(1, n - 6))
        j = min(n, i + rng.randint(2, 6))
        out[i:j] = reversed(out[i:j])
    return out


@dataclass
class Climb:
    """Where a climb stands: the hardest deck so far and what it took."""

    rules: Rules
    players: int
    deck: list[int]
    margin: Margin
    steps: int = 0
    kept: int = 0
    # step, and the score kept there: need, cards left short of it, nodes
    history: list[tuple[int, int, int, int]] = field(default_factory=list)

    @property
    def score(self) -> tuple[int, int, int]:
        return self.margin.score(self.rules.hand_size(self.players))

    @property
    def unwinnable(self) -> bool:
        """A completed loss proof at the rules' own hand."""
        return self.margin.proven_lost(self.rules.hand_size(self.players))


def climb(
    rules: Rules,
    players: int,
    steps: int,
    seed: int,
    limit: Limit,
    progress: Callable[[Climb], None] | None = None,
    start: Sequence[int] | None = None,
) -> Climb:
    """Hill-climb over deck orders from a shuffled deck (``seed``) or
    ``start``; stop after ``steps`` tries or at a proven unwinnable deal."""
    rng = random.Random(seed)
    deck = list(start) if start is not None else list(rules.cards)
    if start is None:
        rng.shuffle(deck)
    state = Climb(rules, players, deck, margin(deck, rules, players, limit))
    full = rules.hand_size(players)
    while state.steps < steps and not state.unwinnable:
        state.steps += 1
        candidate = mutate(state.deck, rng)
        # A candidate cleared with a smaller hand than the kept deck needs,
        # less one, is thrown away whatever else it scores: start there.
        found = margin(candidate, rules, players, limit, lowest=state.score[0] - 1)
        if found.score(full) >= state.score:
            if found.score(full) > state.score:
                state.history.append((state.steps, *found.score(full)))
            state.deck, state.margin = candidate, found
            state.kept += 1
        if progress is not None:
            progress(state)
    return state


def seed_margin(seed: int, rules: Rules, players: int, limit: Limit, depth: int) -> Margin:
    """The hand margin of the deal of ``seed`` (``Deal.from_seed``'s order)."""
    deck = Deal.from_seed(seed, rules, players).decks[0]
    return margin(deck, rules, players, limit, depth)
