"""What a review is made of: the mark thresholds, the estimates and their
paired drops, each judged action (``Annotation``) and the whole review
(``Review``) with their JSON; ``annotate`` judges, this module holds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play, Record, Rules, pile_name
from ...models.the_game.notation import action_text
from ...solver.the_game.kernel import END, Action
from .review import Analysis
from .strong import Level

# z of a two-sided 95% interval.
Z95 = 1.96


@dataclass(frozen=True)
class MarkThresholds:
    """Drops that earn ``?!``, ``?`` and ``??`` (either measure suffices).

    Checked on blind-policy games of solo classic seeds 500-519 with one
    random legal play swapped in per game (``benchmarks/annotate.py``,
    figures in benchmarks/RESULTS.md): a random play costs a median of 5
    points of win chance and 5.4 expected cards; the levels mark 14 of the
    20 swaps (9 ``??``, 4 ``?``, 1 ``?!``), leave the 6 that cost about a
    card or less (or whose cost is within the noise) unmarked, and mark none
    of the policy's own actions.
    """

    win: tuple[float, float, float] = (0.03, 0.08, 0.20)  # win chance lost
    left: tuple[float, float, float] = (1.0, 3.0, 8.0)  # expected cards left gained


MARKS = MarkThresholds()
# Seconds for the whole hindsight column (each searched position gets at
# most the per-position limit): a lost game has many positions whose
# optimum is slow to prove, and the review should take seconds, not minutes.
HINDSIGHT_TOTAL = 6.0
HINDSIGHT_LIMIT = Limit(HINDSIGHT_TOTAL)
# Samples of the win-chance curve at each turn start (the actions get all).
TURN_START_SAMPLES = 50
# The strong player's budget per choice in a review: a fixed number of
# playouts (deterministic), some 0.05-0.1 s of CPU; and for
# all its choices in one review (a game the player keeps leaving the strong
# turn asks for a choice at almost every action), past which the policy
# names the better action (``Annotation.better_by`` says whose it is), so a
# whole solo review stays within seconds.
REVIEW_BUDGET = Limit(nodes=60)  # a playout a node
REVIEW_PLAYOUTS_TOTAL = 1500
MARK_NAMES = ("", "?!", "?", "??")
# Who plays the win-chance curve on from each turn start.
TURN_STARTS_BY = "policy"
# A win chance this low, and the player won: the review says so.
NEAR_ZERO = 0.05
# The most samples a review takes: the playouts' memory grows with them.
MAX_SAMPLES = 100_000
MARK_WORDS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}


@dataclass(frozen=True)
class Estimate:
    """Win chance and expected cards left over ``samples`` playouts."""

    win: float
    left: float
    samples: int

    @property
    def win_interval(self) -> tuple[float, float]:
        """Wilson's 95% interval of the win chance."""
        n, p = self.samples, self.win
        if n == 0:
            return (0.0, 1.0)
        centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.win_interval
        return {
            "win_chance": round(self.win, 4),
            "win_chance_interval": [round(lo, 4), round(hi, 4)],
            "expected_cards_left": round(self.left, 3),
            "samples": self.samples,
        }


def _estimate(results: Sequence[tuple[bool, int]]) -> Estimate:
    n = len(results)
    return Estimate(sum(w for w, _ in results) / n, sum(x for _, x in results) / n, n)


@dataclass(frozen=True)
class Drop:
    """The paired difference best - played over the same samples."""

    win: float  # win chance lost (>= 0 is worse)
    win_half: float  # half-width of its 95% interval
    left: float  # expected cards left gained
    left_half: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "win_chance_lost": round(self.win, 4),
            "win_chance_lost_margin": round(self.win_half, 4),
            "cards_left_gained": round(self.left, 3),
            "cards_left_gained_margin": round(self.left_half, 3),
        }


def _paired(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def _drop(best: Sequence[tuple[bool, int]], played: Sequence[tuple[bool, int]]) -> Drop:
    win, win_half = _paired([float(b[0]) - float(p[0]) for b, p in zip(best, played, strict=True)])
    left, left_half = _paired([float(p[1] - b[1]) for b, p in zip(best, played, strict=True)])
    return Drop(win, win_half, left, left_half)


def mark_of(drop: Drop, marks: MarkThresholds = MARKS) -> str:
    """``""``, ``?!``, ``?`` or ``??``: the highest level either measure
    reaches, counting a measure only when its interval excludes zero."""
    level = 0
    for k in range(3):
        if drop.win >= marks.win[k] and drop.win - drop.win_half > 0:
            level = k + 1
        if drop.left >= marks.left[k] and drop.left - drop.left_half > 0:
            level = max(level, k + 1)
    return MARK_NAMES[level]


@dataclass
class Annotation:
    """One action of the record, judged."""

    turn: int  # 0-based turn of the record
    play: int  # 0-based play in the turn; for an end of turn, the plays before it
    player: int  # 1-based
    played: Play | None  # None: the end of the turn
    better: Play | None  # the blind policy's choice (None: end the turn)
    same: bool  # the player made the policy's choice (or its twin)
    tops: tuple[int, ...]  # the position before the action
    hand: tuple[int, ...]
    draw_left: int
    continuation: list[Play]  # the better player's plays from here to the end of the turn
    better_by: Level = Level.DEFAULT  # who named ``better``
    after_played: Estimate | None = None  # None when ``same``
    after_better: Estimate | None = None
    drop: Drop | None = None
    mark: str = ""
    hindsight_before: int | None = None  # best reachable cards left, the order known
    hindsight_after: int | None = None
    hindsight_proven: bool = False  # both hindsight figures are proven optima
    hindsight_mistake_proven: bool = False  # the action provably lost cards
    # The better player's choice measured no better than the action played
    # on the same samples: no "better" is named and no mark given.
    no_better: bool = False
    by_hindsight: bool = False  # a full-view game: the better action is hindsight's

    def to_dict(self, rules: Rules) -> dict[str, Any]:
        """The action in JSON (``analyze --json``, the server's review), in
        the shared vocabulary: counted from 1, proven is ``optimal``."""
        return {
            "turn": self.turn + 1,
            "play": self.play + 1,
            "player": self.player,
            "played": _play_dict(rules, self.played),
            # null where nothing measured better (``same`` tells whether the
            # player made the better player's choice)
            "better": None if self.no_better else _play_dict(rules, self.better),
            "better_by": "hindsight" if self.by_hindsight else str(self.better_by),
            "same": self.same,
            "mark": self.mark,
            "position": {
                "piles": {pile_name(rules, i): top for i, top in enumerate(self.tops)},
                "hand": list(self.hand),
                "draw_left": self.draw_left,
            },
            "after_played": None if self.after_played is None else self.after_played.to_dict(),
            "after_better": None if self.after_better is None else self.after_better.to_dict(),
            "drop": None if self.drop is None else self.drop.to_dict(),
            "continuation": []
            if self.no_better
            else [_play_dict(rules, p) for p in self.continuation],
            "hindsight_before": self.hindsight_before,
            "hindsight_after": self.hindsight_after,
            "hindsight_proven": self.hindsight_proven,
            "hindsight_mistake_proven": self.hindsight_mistake_proven,
        }


@dataclass
class Review:
    record: Record
    annotations: list[Annotation]
    samples: int
    seed: int
    # Win chance and expected cards left at the start of each judged turn.
    turn_starts: list[tuple[int, Estimate]]
    hindsight: Analysis | None
    cards_left: int
    status: str
    seconds: float = 0.0
    marks: MarkThresholds = field(default_factory=MarkThresholds)
    # Why there is no fair column (a variant the blind policy does not play).
    fair_unavailable: str | None = None
    # Who chooses the better action, and its budget per choice (strong only).
    level: Level = Level.DEFAULT
    budget: Limit | None = None
    # The draw pile was in view: judged by hindsight alone (no fair column).
    full_view: bool = False

    @property
    def beyond_estimate(self) -> list[tuple[int, Estimate]]:
        """The turn starts (0-based turn, estimate) the player went on to win
        from while the blind policy's estimate put the win near 0% (at most
        ``NEAR_ZERO``): the player found what the estimate did not."""
        if self.status != Status.WON:
            return []
        return [(t, e) for t, e in self.turn_starts if e.win <= NEAR_ZERO]

    @property
    def marked(self) -> list[Annotation]:
        return [a for a in self.annotations if a.mark]

    def to_dict(self) -> dict[str, Any]:
        rules = self.record.deal.rules
        hs = self.hindsight
        return {
            "cards_left": self.cards_left,
            "status": self.status,
            "fair_unavailable": self.fair_unavailable,
            "samples": self.samples,
            "sample_seed": self.seed,
            "level": str(self.level),
            "better_budget": None
            if self.budget is None
            else {"playouts": self.budget.nodes, "seconds": self.budget.time},
            "marks": {
                "win_chance_lost": list(self.marks.win),
                "cards_left_gained": list(self.marks.left),
            },
            "full_view": self.full_view,
            # Turns and plays count from 1 in JSON, as on screen.
            "turn_starts": [{"turn": t + 1, **e.to_dict()} for t, e in self.turn_starts],
            # Who plays on from each turn start (the curve): the blind policy.
            "turn_starts_by": TURN_STARTS_BY,
            "beyond_estimate": [
                {"turn": t + 1, "win_chance": round(e.win, 4)} for t, e in self.beyond_estimate
            ],
            "actions": [a.to_dict(rules) for a in self.annotations],
            "hindsight": None if hs is None else hs.to_dict(),
            "stats": {"seconds": round(self.seconds, 3)},
        }


def _play_dict(rules: Rules, play: Play | None) -> dict[str, Any]:
    if play is None:
        return {"end_turn": True, "text": "end"}
    return {
        "card": play.card,
        "pile": pile_name(rules, play.pile),
        "text": action_text(rules, (play.card, play.pile)),
    }


def _action(play: Play | None) -> Action:
    return END if play is None else (play.card, play.pile)


def _apply(state: GameState, action: Action) -> GameState:
    new = state.copy()
    if action == END:
        new.end_turn()
    else:
        new.play(*action)
    return new
