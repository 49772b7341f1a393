"""The annotated review of a played game: fair first, hindsight second.

*Fair* judges each action with what the player knew when making it: the
cards they could see, not the order of the draw pile or the other hands.
At each action the blind policy (``blind.py``) plays the game out from the
position after the action played and from the position after the policy's
own choice, over the same sampled orders of the unseen cards (common
random numbers), so the two estimates are compared sample by sample. The
policy's choice is "the better action"; when the player made it, nothing
is lost by definition and no playout is needed.

At the strong level (the default) the better action is the strong blind
player's (``strong.py``): its turn, chosen by comparing the policy's
candidate turns over samples of its own (another seed than the review's,
so the comparison below is not flattered by the choice), within a fixed
playout budget per choice, so a review is the same on every run. The
better action's estimate is then that whole turn, followed by the policy.
While the player follows the strong turn, its next play is the next
better action (no new choice is made).

The drop between the two is the action's cost: a win chance lost (in
percentage points) and expected cards left gained. An action is marked like
a move in a chess review, ``?!`` inaccuracy, ``?`` mistake, ``??`` blunder,
when a drop reaches the thresholds of ``MARKS`` *and* its paired 95%
interval excludes zero, so sampling noise alone does not mark anything.

*Hindsight* (``review.analyze_record``: the deck's order known) is the second
column; only mistakes it proves are summed into cards lost.

A game played with the draw pile in view (``Record.full_view``: a puzzle, a
known-order game) is judged by hindsight alone: the player saw what
hindsight sees, so an action is marked only where the best reachable
result got worse, proven (``hindsight_mark``), and there is no fair column.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...models import interrupt
from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play, Record, Rules, pile_name
from ...models.the_game.notation import action_text
from ...models.the_game.record import replayed
from ...solver.the_game.kernel import END, Action
from .blind import check_family
from .review import POSITION_LIMIT, Analysis, Mistake, _follow, _same, analyze_record
from .rollout import hidden_cards, playouts
from .rollout import plan as policy_plan
from .strong import Budget, Level, StrongPlayer

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
# Samples of the win-chance curve at each turn start (the actions get all).
TURN_START_SAMPLES = 50
# The strong player's budget per choice in a review: a fixed number of
# playouts (deterministic), some 0.05-0.1 s of CPU; and for
# all its choices in one review (a game the player keeps leaving the strong
# turn asks for a choice at almost every action), past which the policy
# names the better action (``Annotation.better_by`` says whose it is), so a
# whole solo review stays within seconds.
REVIEW_BUDGET = Budget(playouts=60)
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
            "continuation": [] if self.no_better else [
                _play_dict(rules, p) for p in self.continuation],
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
    budget: Budget | None = None
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
            "better_budget": None if self.budget is None else {
                "playouts": self.budget.playouts, "seconds": self.budget.seconds},
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


class _TurnSamples:
    """The playouts of one turn's positions on that turn's samples, each
    position (by its action index in the turn) played out once."""

    def __init__(self, orders: list[list[int]]) -> None:
        self.orders = orders
        self.done: dict[int, list[tuple[bool, int]]] = {}

    def at(self, state: GameState, j: int, n: int | None = None) -> list[tuple[bool, int]]:
        """The outcomes of position j on the first ``n`` samples (all by
        default); samples played before are not played again."""
        want = len(self.orders) if n is None else min(n, len(self.orders))
        have = self.done.setdefault(j, [])
        if len(have) < want:
            have.extend(playouts(state, self.orders[len(have) : want]))
        return have[:want]


def _end_outcomes(state: GameState, orders: list[list[int]]) -> list[tuple[bool, int]]:
    """Playouts that end the turn first, on the same samples: in each sample
    the player draws from that sample's draw pile (rule C6)."""
    return playouts(state, orders, end_first=True)


def blind_gap(rules: Rules) -> str | None:
    """Why the blind policy cannot play the variant (None: it can)."""
    try:
        check_family(rules)
    except ValueError as e:
        return str(e)
    return None


@interrupt.polled
def annotate_record(
    record: Record,
    samples: int = 100,
    seed: int = 0,
    hindsight: Limit | None = POSITION_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    start_turn: int = 0,
    marks: MarkThresholds = MARKS,
    hindsight_total: float | None = HINDSIGHT_TOTAL,
    level: Level = Level.STRONG,
    budget: Budget = REVIEW_BUDGET,
    full_view: bool | None = None,
) -> Review:
    """Judge every action of ``record`` from the player's view (see the
    module notes); ``hindsight`` None skips the hindsight column. The first
    ``start_turn`` turns are replayed without judging. ``level``: who
    chooses the better action (the strong player within ``budget`` per
    choice, or the default policy). ``full_view``: whether the player saw
    the draw pile (None: as the record says)."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be in 1..{MAX_SAMPLES}")
    start = time.monotonic()
    replayed(record)  # one line naming the first illegal step, if any
    if record.full_view if full_view is None else full_view:
        return _full_view(record, samples, seed, hindsight, start_turn, start, hindsight_total)
    gap = blind_gap(record.deal.rules)
    if gap is not None:
        # Extreme's commands: no blind policy, so hindsight alone.
        return _hindsight_only(record, samples, seed, hindsight, start_turn, gap, start,
                               hindsight_total)  # fmt: skip
    # The turns before ``start_turn``, as played (not judged).
    state = replayed(Record(record.deal.with_first(record.first), record.turns[:start_turn]))
    annotations: list[Annotation] = []
    turn_starts: list[tuple[int, Estimate]] = []
    total = sum(len(t.plays) + 1 for t in record.turns[start_turn:])
    chooser = _Better(level, budget, seed, REVIEW_PLAYOUTS_TOTAL)
    # The same sampled orders at every turn start: each turn's orders are
    # these permutations of every card not yet played, kept to the cards
    # hidden then (a uniform order of them), so the curve moves with the
    # game, not with new samples.
    orders = _Orders(state, samples, seed)

    def judged(ann: Annotation) -> None:
        annotations.append(ann)
        if progress is not None:
            progress(len(annotations), total)

    for i, turn in enumerate(record.turns[start_turn:], start_turn):
        if state.over or interrupt.requested():
            break  # Ctrl-C: the review so far
        # One set of orders per turn: the hidden set does not change inside
        # a turn, so every action of the turn is judged on the same samples.
        samples_of = _TurnSamples(orders.at(state))
        # The turn starts only draw the curve: fewer samples do (they are the
        # first samples of the turn, reused if the first action is judged).
        turn_starts.append((i, _estimate(samples_of.at(state, 0, TURN_START_SAMPLES))))
        state = _judge_turn(state, i, [*turn.plays, None], samples_of, marks, judged, chooser)
    analysis = None
    if hindsight is not None and not interrupt.requested():
        analysis = analyze_record(record, hindsight, start_turn=start_turn, total=hindsight_total)
        _hindsight_columns(annotations, analysis)
    return Review(
        record=record,
        annotations=annotations,
        samples=samples,
        seed=seed,
        turn_starts=turn_starts,
        hindsight=analysis,
        cards_left=state.cards_left(),
        status=state.status,
        seconds=time.monotonic() - start,
        marks=marks,
        level=level,
        budget=budget if level is Level.STRONG else None,
    )


class _Better:
    """Who names the better action: the default policy's plan at every
    action, or the strong player's turn, chosen again only where the player
    left it (see the module notes)."""

    def __init__(self, level: Level, budget: Budget, seed: int, total: int) -> None:
        self.level = level
        # Another seed than the review's samples (see the module notes).
        self.player = StrongPlayer(budget, seed=seed + 1) if level is Level.STRONG else None
        self.kept: tuple[tuple[int, int], list[Play]] | None = None
        self.left = total  # playouts left for the strong player's choices
        self.by = Level.DEFAULT  # who named the last plan

    def plan(self, state: GameState, at: tuple[int, int]) -> list[Play]:
        """The rest of the turn the better player would play from ``state``,
        the position before action ``at`` (turn, play)."""
        if self.kept is not None and self.kept[0] == at:
            return self.kept[1]
        if self.player is None or self.left <= 0:
            self.by = Level.DEFAULT
            return policy_plan(state)
        choice = self.player.choose(state)
        self.left -= choice.playouts
        self.by = choice.level
        return choice.plays

    def taken(self, state: GameState, at: tuple[int, int], plan: list[Play], same: bool,
              action: Action) -> None:  # fmt: skip
        """The player made ``action`` at ``at``: keep the rest of the plan
        when it was the plan's first play."""
        self.kept = None
        if self.by is Level.DEFAULT or not same or not plan or action == END:
            return
        rest = _follow([_action(p) for p in plan], action)
        self.kept = ((at[0], at[1] + 1), [Play(a[0], a[1]) for a in rest if a != END])

    def is_policy(self, state: GameState, plan: list[Play]) -> bool:
        """Whether ``plan`` is the default policy's own rest of the turn."""
        return self.by is Level.DEFAULT or plan == policy_plan(state)


def _judge_turn(
    state: GameState,
    i: int,
    actions: list[Play | None],
    samples_of: _TurnSamples,
    marks: MarkThresholds,
    judged: Callable[[Annotation], None],
    chooser: _Better,
) -> GameState:
    """Turn ``i``'s actions (None: the end of the turn) judged one by one
    from the turn's start (each annotation to ``judged``) until the game
    ends or Ctrl-C asks to stop: the position reached."""
    for j, p in enumerate(actions):
        if state.over or interrupt.requested():
            break
        ann, state = _judged(state, i, j, p, samples_of, marks, chooser)
        judged(ann)
    return state


def _judged(
    state: GameState,
    i: int,
    j: int,
    p: Play | None,
    samples_of: _TurnSamples,
    marks: MarkThresholds,
    chooser: _Better,
) -> tuple[Annotation, GameState]:
    """The annotation of action ``j`` of turn ``i`` (``p``; None: the end of
    the turn) against the better player's choice, and the position after it."""
    taken = _action(p)
    plan = chooser.plan(state, (i, j))
    better = plan[0] if plan else None
    same = _same(state, _action(better), taken)
    chooser.taken(state, (i, j), plan, same, taken)
    ann = Annotation(
        turn=i,
        play=j,
        player=state.current + 1,
        played=p,
        better=better,
        same=same,
        tops=tuple(state.tops),
        hand=tuple(sorted(state.hands[state.current])),
        draw_left=state.stock_left(),
        continuation=list(plan),
        better_by=chooser.by,
    )
    after = _apply(state, taken)
    if not same:
        best_out = (
            samples_of.at(state, j)
            if chooser.is_policy(state, plan)
            else _plan_outcomes(state, plan, samples_of.orders)
        )
        # After a play the position is still inside this turn (key j + 1,
        # shared with the next action); after the end of the turn it is
        # judged on this turn's samples too.
        played_out = (
            samples_of.at(after, j + 1)
            if p is not None
            else _end_outcomes(state, samples_of.orders)
        )
        ann.after_better = _estimate(best_out)
        ann.after_played = _estimate(played_out)
        ann.drop = _drop(best_out, played_out)
        if _measures_better(ann.drop):
            ann.mark = mark_of(ann.drop, marks)
        else:
            ann.no_better = True  # no "better" that measured no better
    return ann, after


def _measures_better(drop: Drop) -> bool:
    """Whether the better player's choice measured better than the action
    played on the same samples: neither measure worse, one of them better."""
    return drop.win >= 0 and drop.left >= 0 and (drop.win > 0 or drop.left > 0)


class _Orders:
    """Sampled orders shared by every turn of a review: permutations of the
    cards not on a pile at the review's start, each kept to the cards hidden
    at a turn's start (the restriction of a uniform permutation is uniform)."""

    def __init__(self, state: GameState, n: int, seed: int) -> None:
        cards = sorted(set(hidden_cards(state)) | {c for h in state.hands for c in h})
        rng = random.Random(seed)
        self.perms: list[list[int]] = []
        for _ in range(n):
            if interrupt.requested():
                break  # Ctrl-C while sampling: the review stops at once
            perm = list(cards)
            rng.shuffle(perm)
            self.perms.append(perm)

    def at(self, state: GameState) -> list[list[int]]:
        hidden = set(hidden_cards(state))
        out = []
        for perm in self.perms:
            if interrupt.requested():
                break
            out.append([c for c in perm if c in hidden])
        return out


def _plan_outcomes(
    state: GameState, plan: list[Play], orders: list[list[int]]
) -> list[tuple[bool, int]]:
    """The turn ``plan`` played from ``state``, then the policy, on the
    turn's samples (the plays come from the player's own hand, so the same
    cards stay hidden)."""
    after = state.copy()
    for p in plan:
        after.play(p.card, p.pile)
    if after.over:  # the plan clears the game: the same outcome on every sample
        return [(after.status == Status.WON, after.cards_left())] * len(orders)
    if not after.can_end_turn():  # not reachable: the player plans whole turns
        return playouts(state, orders)
    return playouts(after, orders, end_first=True)


def _hindsight_only(
    record: Record,
    samples: int,
    seed: int,
    hindsight: Limit | None,
    start_turn: int,
    gap: str,
    start: float,
    total: float | None,
) -> Review:
    final = replayed(record)
    analysis = None
    if hindsight is not None:
        analysis = analyze_record(record, hindsight, start_turn=start_turn, total=total)
    return Review(
        record=record,
        annotations=[],
        samples=samples,
        seed=seed,
        turn_starts=[],
        hindsight=analysis,
        cards_left=final.cards_left(),
        status=final.status,
        seconds=time.monotonic() - start,
        fair_unavailable=gap,
    )


def _hindsight_columns(annotations: list[Annotation], analysis: Analysis) -> None:
    """Copy the hindsight curve (best reachable cards left with the order
    known, before and after each action) onto the annotations."""
    at = {step: n for n, step in enumerate(analysis.steps)}
    proven = {(m.turn, m.play) for m in analysis.mistakes if m.proven}
    for a in annotations:
        n = at.get((a.turn, a.play))
        if n is None:
            continue
        a.hindsight_before = analysis.curve[n]
        a.hindsight_after = analysis.curve[n + 1]
        a.hindsight_proven = analysis.is_proven(n) and analysis.is_proven(n + 1)
        a.hindsight_mistake_proven = (a.turn, a.play) in proven


def hindsight_mark(mistake: Mistake, marks: MarkThresholds = MARKS) -> str:
    """The mark of a proven hindsight mistake (a full-view game): by the
    cards it provably lost, on the thresholds of expected cards left; one
    that threw a perfect clear away is at least ``?``."""
    if not mistake.proven:
        return ""
    lost = mistake.best_after - mistake.best_before
    level = max(1, sum(1 for t in marks.left if lost >= t))
    if mistake.best_before == 0:
        level = max(level, 2)
    return MARK_NAMES[min(level, 3)]


def _full_view(
    record: Record,
    samples: int,
    seed: int,
    hindsight: Limit | None,
    start_turn: int,
    start: float,
    total: float | None,
) -> Review:
    """The review of a game played with the draw pile in view: hindsight
    alone, every action listed, marked only where it provably lost cards."""
    analysis = None
    if hindsight is not None:
        analysis = analyze_record(record, hindsight, start_turn=start_turn, total=total)
    mistakes = {} if analysis is None else {(m.turn, m.play): m for m in analysis.mistakes}
    state = replayed(Record(record.deal.with_first(record.first), record.turns[:start_turn]))
    annotations: list[Annotation] = []
    for i, turn in enumerate(record.turns[start_turn:], start_turn):
        for j, p in enumerate([*turn.plays, None]):
            if state.over:
                break
            m = mistakes.get((i, j))
            proven = m is not None and m.proven
            annotations.append(Annotation(
                turn=i, play=j, player=state.current + 1, played=p,
                better=m.better if m is not None and proven else None,
                same=not proven,
                tops=tuple(state.tops), hand=tuple(sorted(state.hands[state.current])),
                draw_left=state.stock_left(),
                continuation=[],
                better_by=Level.DEFAULT,
                mark=hindsight_mark(m) if m is not None else "",
                no_better=not proven,  # nothing proven better: no "better"
                by_hindsight=True,
            ))  # fmt: skip
            state = _apply(state, _action(p))
    if analysis is not None:
        _hindsight_columns(annotations, analysis)
    return Review(
        record=record,
        annotations=annotations,
        samples=samples,
        seed=seed,
        turn_starts=[],
        hindsight=analysis,
        cards_left=state.cards_left(),
        status=state.status,
        seconds=time.monotonic() - start,
        full_view=True,
    )
