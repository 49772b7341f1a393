"""The campaign under rule M6 as a Markov decision process, solved exactly.

A state is (level, lives, stars) at the start of a level; the one decision is
whether to throw a star before any card is played (rule M6). The level then
costs k lives with the exact probabilities of ``level_odds``. **Decision:**
the game is lost at once when the last life goes, mid-level included, so a
level costing k >= lives loses. Otherwise the rewards of rule M5 and the caps
of rule M1 give the next state; completing the last level wins. Backward
induction over the finitely many states gives the best chance to win
exactly (fractions); ties keep the star.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ...models.mind import MAX_LIVES, MAX_STARS, START_STARS, Rules, with_reward

# level -> (P(k lives lost) without a star, with a star at the start)
Odds = Mapping[int, tuple[Sequence[Fraction], Sequence[Fraction]]]


@dataclass(frozen=True)
class PolicyEntry:
    level: int
    lives: int
    stars: int
    use_star: bool
    p_win_star: Fraction
    p_win_keep: Fraction
    reachable: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "lives": self.lives,
            "stars": self.stars,
            "use_star": self.use_star,
            "p_win_if_star": float(self.p_win_star),
            "p_win_if_keep": float(self.p_win_keep),
            "reachable": self.reachable,
        }


@dataclass(frozen=True)
class CampaignSolution:
    p_win: Fraction
    p_win_without_stars: Fraction
    policy: tuple[PolicyEntry, ...]
    completed: tuple[Fraction, ...]  # P(level n is completed) with the best policy

    @property
    def median_levels(self) -> int:
        """The most levels a team completes in at least half of its games."""
        return sum(1 for p in self.completed if p >= Fraction(1, 2))

    def to_dict(self) -> dict[str, Any]:
        return {
            "p_win": float(self.p_win),
            "p_win_without_stars": float(self.p_win_without_stars),
            "star_policy": [e.to_dict() for e in self.policy],
            "p_complete_level": [float(p) for p in self.completed],
        }


def _survive(dist: Sequence[Fraction], lives: int, then: Callable[[int], Fraction]) -> Fraction:
    """Sum over k < lives of P(k lost) * value with lives - k left."""
    return sum((p * then(lives - k) for k, p in enumerate(dist[:lives]) if p), Fraction(0))


def solve_campaign(rules: Rules, odds: Odds) -> CampaignSolution:
    last = rules.levels

    def after(level: int, lives: int, stars: int, value: Callable[..., Fraction]) -> Fraction:
        if level == last:
            return Fraction(1)  # rule M5: the last level completed wins
        nl, ns = with_reward(level, lives, stars)
        return Fraction(value(level + 1, nl, ns))

    def options(level: int, lives: int, stars: int,
                value: Callable[..., Fraction]) -> tuple[Fraction, Fraction | None]:
        plain, starred = odds[level]
        keep = _survive(plain, lives, lambda left: after(level, left, stars, value))
        if stars == 0:
            return keep, None
        star = _survive(starred, lives, lambda left: after(level, left, stars - 1, value))
        return keep, star

    @cache
    def best(level: int, lives: int, stars: int) -> Fraction:
        keep, star = options(level, lives, stars, best)
        return keep if star is None or star <= keep else star

    @cache
    def never(level: int, lives: int, stars: int) -> Fraction:
        return options(level, lives, 0, never)[0]

    def decide(level: int, lives: int, stars: int) -> tuple[bool, Fraction, Fraction]:
        keep, star = options(level, lives, stars, best)
        if star is None:
            return False, keep, keep
        return star > keep, star, keep

    start = (1, rules.start_lives, START_STARS)
    reachable, completed = _forward(rules, odds, start, lambda *s: decide(*s)[0])
    policy = []
    for level in range(1, last + 1):
        for lives in range(1, MAX_LIVES + 1):
            for stars in range(1, MAX_STARS + 1):
                use, star, keep = decide(level, lives, stars)
                policy.append(PolicyEntry(level, lives, stars, use, star, keep,
                                          (level, lives, stars) in reachable))
    return CampaignSolution(best(*start), never(*start), tuple(policy), tuple(completed))


def _forward(
    rules: Rules,
    odds: Odds,
    start: tuple[int, int, int],
    use_star: Callable[[int, int, int], bool],
) -> tuple[set[tuple[int, int, int]], list[Fraction]]:
    """Follow the policy forward: the states met with positive probability, and
    the chance to complete each level."""
    seen = {start}
    dist = {start[1:]: Fraction(1)}
    completed = []
    for level in range(1, rules.levels + 1):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (lives, stars), p in dist.items():
            seen.add((level, lives, stars))
            use = stars > 0 and use_star(level, lives, stars)
            probs = odds[level][1] if use else odds[level][0]
            for k, q in enumerate(probs[:lives]):
                if q:
                    state = with_reward(level, lives - k, stars - use)
                    if level == rules.levels:
                        state = (0, 0)  # won: the rewards no longer matter
                    nxt[state] = nxt.get(state, Fraction(0)) + p * q
        dist = nxt
        completed.append(sum(dist.values(), Fraction(0)))
    return seen, completed
