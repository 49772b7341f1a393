"""The annotated review of a played game: fair first, hindsight second.

*Fair* judges each action with what the player knew: the played action and
the better player's choice are played out over the same sampled orders of
the unseen cards, and the drop is marked ``?!``, ``?`` or ``??`` only where
its paired interval excludes zero. *Hindsight* (the deck's order known,
``review.analyze_record``) is the second column; a game played with the draw
pile in view is judged by hindsight alone. In full: the docs page games/the-
game.md ("The blind player and the review, in full").
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ...models import interrupt
from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play, Record, Rules
from ...models.the_game.record import replayed
from ...solver.the_game.kernel import END, Action
from .blind import check_family
from .hindsight_review import full_view_review, hindsight_columns, hindsight_only
from .judgement import (
    HINDSIGHT_LIMIT as HINDSIGHT_LIMIT,
)
from .judgement import (
    HINDSIGHT_TOTAL as HINDSIGHT_TOTAL,
)
from .judgement import (
    MARK_NAMES as MARK_NAMES,
)
from .judgement import (
    MARK_WORDS as MARK_WORDS,
)
from .judgement import (
    MARKS as MARKS,
)
from .judgement import (
    MAX_SAMPLES as MAX_SAMPLES,
)
from .judgement import (
    NEAR_ZERO as NEAR_ZERO,
)
from .judgement import (
    REVIEW_BUDGET as REVIEW_BUDGET,
)
from .judgement import (
    REVIEW_PLAYOUTS_TOTAL as REVIEW_PLAYOUTS_TOTAL,
)
from .judgement import (
    TURN_START_SAMPLES as TURN_START_SAMPLES,
)
from .judgement import (
    TURN_STARTS_BY as TURN_STARTS_BY,
)
from .judgement import (
    Annotation as Annotation,
)
from .judgement import (
    Drop as Drop,
)
from .judgement import (
    Estimate as Estimate,
)
from .judgement import (  # the names importers find here too
    MarkThresholds as MarkThresholds,
)
from .judgement import (
    Review as Review,
)
from .judgement import (
    _action,
    _apply,
    _drop,
    _estimate,
)
from .judgement import (
    mark_of as mark_of,
)
from .review import POSITION_LIMIT, _follow, _same, analyze_record
from .rollout import SharedOrders, playouts
from .rollout import plan as policy_plan
from .strong import Level, StrongPlayer


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
    hindsight_total: Limit | None = HINDSIGHT_LIMIT,
    level: Level = Level.STRONG,
    budget: Limit = REVIEW_BUDGET,
    full_view: bool | None = None,
) -> Review:
    """Judge every action of ``record`` from the player's view (see the
    module notes); ``hindsight`` None skips the hindsight column. The first
    ``start_turn`` turns are replayed without judging. ``level``: who
    chooses the better action (the strong player within ``budget`` per
    choice, or the default policy). ``hindsight_total``: the whole
    hindsight column's budget (its time). ``full_view``: whether the player saw
    the draw pile (None: as the record says)."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be in 1..{MAX_SAMPLES}")
    start = time.monotonic()
    replayed(record)  # one line naming the first illegal step, if any
    if record.full_view if full_view is None else full_view:
        return full_view_review(record, samples, seed, hindsight, start_turn, start,
                                hindsight_total)  # fmt: skip

    gap = blind_gap(record.deal.rules)
    if gap is not None:
        # Extreme's commands: no blind policy, so hindsight alone.
        return hindsight_only(record, samples, seed, hindsight, start_turn, gap, start,
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
    orders = SharedOrders(state, samples, seed)

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
        hindsight_columns(annotations, analysis)
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

    def __init__(self, level: Level, budget: Limit, seed: int, total: int) -> None:
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
