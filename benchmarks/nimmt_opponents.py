"""6 nimmt! how well do the playout policies predict a baseline's cards?

Four players of a baseline (``MCS`` by default) play single 4-player rounds
(deal seed ``500 + d``) at the given CPU time per decision; every card
decision with a choice is logged with the chooser's view. For each the
script asks how likely the card actually played is under the opponent
models of the strong player's playouts: uniformly random (``RANDOM``), and
random among the cards that take the fewest heads now (``SAFE``, mixed with
10% random so that a miss is not infinitely unlikely), the same mixed
with more random, and by the card's rank in the hand (``RANKED``, the
weights ``playout.RANK_WEIGHT``). The mean log likelihood per decision is
the measure (higher predicts better); the share of safe cards in hand shows
why random and safe are close, and how often the highest and the lowest
card of the hand is played shows what the ranked model sees.

    nice -n 10 python benchmarks/nimmt_opponents.py --deals 40 --seconds 0.005
"""

from __future__ import annotations

import argparse
import math

from thegame.analysis.nimmt.baselines import MCS, MCS100
from thegame.analysis.nimmt.playout import card_cost, rank_weights
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.state import Player, View, play_round
from thegame.models.outcome import Limit
from thegame.solver.nimmt.problem import to_slots


class Logged:
    """Wraps a player and keeps its card decisions that had a choice."""

    def __init__(self, inner: Player, log: list[tuple[View, int]]) -> None:
        self.inner = inner
        self.log = log

    def choose_card(self, view: View) -> int:
        card = self.inner.choose_card(view)
        if len(view.hand) > 1:
            self.log.append((view, card))
        return card

    def choose_row(self, view: View) -> int:
        return self.inner.choose_row(view)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=0.005)
    ap.add_argument("--baseline", choices=["mcs", "mcs100"], default="mcs")
    args = ap.parse_args()
    log: list[tuple[View, int]] = []
    for d in range(args.deals):
        seats: list[Player] = []
        for i in range(4):
            inner: Player = (
                MCS(d * 8 + i, limit=Limit(time=args.seconds))
                if args.baseline == "mcs"
                else MCS100(d * 8 + i, limit=Limit(time=args.seconds))
            )
            seats.append(Logged(inner, log))
        play_round(Deal.from_seed(500 + d, 4), seats)
    played_safe = safe_share = ll_random = ll_safe = ll_ranked = highest = lowest = 0.0
    mixes = (0.25, 0.5, 0.75)
    ll_mix = [0.0] * len(mixes)  # safe with probability q, else uniformly random
    ll_greedy = [0.0] * len(mixes)  # the greedy card with probability q
    for view, card in log:
        slots = to_slots(view.rows)
        costs = [card_cost(slots, c) // 1000 for c in view.hand]
        safe = [c for c, k in zip(view.hand, costs, strict=True) if k == min(costs)]
        n = len(view.hand)
        played_safe += card in safe
        safe_share += len(safe) / n
        ll_random += math.log(1 / n)
        ll_safe += math.log(0.9 * (card in safe) / len(safe) + 0.1 / n)
        greedy = min(view.hand, key=lambda c: card_cost(slots, c))
        weights = rank_weights(view.hand)
        ll_ranked += math.log(weights[view.hand.index(card)] / sum(weights))
        highest += card == max(view.hand)
        lowest += card == min(view.hand)
        for i, q in enumerate(mixes):
            ll_mix[i] += math.log(q * (card in safe) / len(safe) + (1 - q) / n)
            ll_greedy[i] += math.log(q * (card == greedy) + (1 - q) / n)
    m = len(log)
    print(
        f"{args.baseline} at {args.seconds:g} s, {args.deals} rounds, {m} card decisions: "
        f"played a safe card {played_safe / m:.3f}, safe share of hand {safe_share / m:.3f}; "
        f"mean log likelihood random {ll_random / m:.3f}, safe (10% random) {ll_safe / m:.3f}"
    )
    uniform = sum(1 / len(view.hand) for view, _ in log) / m
    print(
        f"  ranked {ll_ranked / m:.3f}; played the highest card {highest / m:.3f}, "
        f"the lowest {lowest / m:.3f} (uniformly random: {uniform:.3f} each)"
    )
    for i, q in enumerate(mixes):
        print(
            f"  with probability {q:g} (else random): safe {ll_mix[i] / m:.3f}, "
            f"greedy {ll_greedy[i] / m:.3f}"
        )


if __name__ == "__main__":
    main()
