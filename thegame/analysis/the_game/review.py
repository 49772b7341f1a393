"""Hindsight analysis of a played game, and hints.

With the whole deck known, an action is a mistake when the best reachable
result gets worse after it; only deviations from a known best line are
searched, each within a ``Limit``, and the bounds found along the game
tighten each other. In full: the docs page games/the-game.md ("The blind
player and the review, in full").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ...models import InvalidInputError, interrupt
from ...models.advice import Advice
from ...models.outcome import Limit, Status, Verdict
from ...models.the_game import GameKind, GameState, Play, Record, Turn
from ...models.the_game.notation import play_text
from ...models.the_game.record import replayed, turn_to_dict
from ...models.the_game.state import pile_name
from ...solver.the_game.api import PositionResult, replay_actions, search_position
from ...solver.the_game.kernel import END, Action

# Nodes per search once an analysis's total budget is spent.
SPENT_NODES = 2_000
# Seconds at most per position on the first walk along the game (see
# ``_AnalysisBudget``).
FIRST_PASS = 0.2
# The share of the per-position limit each turn start gets when the
# positions left unproven are searched again (see ``_Walk.refine``).
REFINE_SHARE = 0.4
# The default budgets: per position of an analysis, and for a hint.
POSITION_LIMIT = Limit(2.0)
HINT_LIMIT = Limit(5.0)


@dataclass
class Mistake:
    turn: int  # 0-based turn of the record
    play: int  # 0-based play in the turn; for an end of turn, the plays before it
    played: Play | None  # None: ending the turn was the mistake
    best_before: int
    best_after: int
    better: Play | None  # None: ending the turn was better
    line: list[Turn]  # a best line from the position before the mistake
    proven: bool  # best_after is a proven lower bound above a reachable best_before
    before_proven: bool = False  # best_before is the proven optimum
    after_proven: bool = False  # best_after is the proven optimum

    @property
    def exact(self) -> bool:
        """Both figures are proven optima."""
        return self.before_proven and self.after_proven


@dataclass
class Analysis:
    record: Record
    best_at_start: int
    start_proven: bool  # best_at_start is the proven optimum
    result: int  # cards left where the record ends
    mistakes: list[Mistake]
    # Best reachable result before the first action and after each action,
    # with the (turn, play) index of each action.
    curve: list[int] = field(default_factory=list)
    steps: list[tuple[int, int]] = field(default_factory=list)
    # Per curve point: the proven lower bound, and whether the point is
    # proven (the best line known reaches it).
    lower: list[int] = field(default_factory=list)
    proven: list[bool] = field(default_factory=list)
    status: Status = Status.IN_PROGRESS
    seconds: float = 0.0

    def is_proven(self, n: int) -> bool:
        """Whether curve point ``n`` is the proven optimum."""
        return self.proven[n] if n < len(self.proven) else False

    def figure(self, n: int) -> str:
        """Curve point ``n`` in words: the number when proven, else a bound."""
        return figure_text(self.curve[n], self.is_proven(n))

    @property
    def proven_share(self) -> tuple[int, int]:
        """(proven points, points) of the curve."""
        return sum(self.proven), len(self.proven)

    def _points(self) -> list[dict[str, Any]]:
        """The curve's points with their proof: ``cards_left`` is the best
        reachable (a line reaches it), ``lower_bound`` proven, and
        ``proven`` when the two meet; each after its action (turn, play)."""
        return [
            {
                "turn": None if n == 0 else self.steps[n - 1][0] + 1,
                "play": None if n == 0 else self.steps[n - 1][1] + 1,
                "cards_left": v,
                "lower_bound": min(v, self.lower[n]) if n < len(self.lower) else 0,
                "proven": self.is_proven(n),
            }
            for n, v in enumerate(self.curve)
        ]

    @property
    def cards_lost(self) -> int:
        """Cards lost to proven mistakes only: an unproven figure is a bound."""
        return sum(m.best_after - m.best_before for m in self.mistakes if m.proven)

    def to_dict(self) -> dict[str, Any]:
        rules = self.record.deal.rules

        def play_dict(p: Play | None) -> dict[str, Any]:
            if p is None:
                return {"end_turn": True, "text": "end"}
            return {
                "card": p.card,
                "pile": pile_name(rules, p.pile),
                "text": play_text(rules, p.card, p.pile),
            }

        return {
            "best_at_start": {
                "cards_left": self.best_at_start,
                "optimal": self.start_proven,
            },
            "cards_left": self.result,
            "status": self.status,
            # Only proven mistakes are summed; the others are bounds, not facts.
            "cards_lost_proven": self.cards_lost,
            "cards_lost_unproven": [
                m.best_after - m.best_before for m in self.mistakes if not m.proven
            ],
            "hindsight": True,
            "mistakes": [
                {
                    "turn": m.turn + 1,  # from 1, as on screen
                    "play": m.play + 1,
                    "played": play_dict(m.played),
                    "best_before": m.best_before,
                    "best_after": m.best_after,
                    "better": play_dict(m.better),
                    # the loss is proven (a lower bound after above a
                    # result reachable before) ...
                    "proven": m.proven,
                    # ... and both figures are proven optima
                    "optimal": m.exact,
                    "turns": [turn_to_dict(rules, t) for t in m.line],
                }
                for m in self.mistakes
            ],
            # Best reachable cards left before the first action and after
            # each, and each action's (turn, play) from 1.
            "curve": self.curve,
            "steps": [{"turn": t + 1, "play": p + 1} for t, p in self.steps],
            "points": self._points(),
            "proven_points": sum(self.proven),
            "stats": {"seconds": round(self.seconds, 3)},
        }


def figure_text(cards: int, proven: bool) -> str:
    """A hindsight figure on screen: the number when proven, else a bound."""
    return str(cards) if proven else f"<= {cards} (best found)"


def _line_turns(state: GameState, actions: list[Action]) -> list[Turn]:
    turns, _ = replay_actions(state, actions)
    return turns


def _first_play(actions: list[Action]) -> Play | None:
    a = actions[0]
    return None if a == END else Play(a[0], a[1])


@interrupt.polled
def analyze_record(
    record: Record,
    limit: Limit = POSITION_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    start_turn: int = 0,
    total: Limit | None = None,
) -> Analysis:
    """Find every mistake of ``record`` (see the module notes).

    ``limit`` is per searched position, ``total`` (its time) for the
    whole analysis; ``progress(done, n)`` is called after each action. The
    first ``start_turn`` turns are replayed without judging (a puzzle's
    given position); turn numbers stay the record's.
    """
    start = time.monotonic()
    replayed(record)  # one line naming the first illegal step, if any
    state = GameState(record.deal, first=record.first)
    for turn in record.turns[:start_turn]:
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    actions: list[tuple[int, int, Play | None]] = []
    for i, turn in enumerate(record.turns):
        if i < start_turn:
            continue
        for j, p in enumerate(turn.plays):
            actions.append((i, j, p))
        actions.append((i, len(turn.plays), None))
    budget = _AnalysisBudget(limit, None if total is None else total.deadline(start))
    walk = _Walk.along(state, actions, budget, progress)
    walk.refine(budget)
    best, proven_low = walk.bounds()
    return Analysis(
        record=record,
        best_at_start=best[0],
        start_proven=best[0] <= proven_low[0],
        result=walk.final.cards_left(),
        mistakes=walk.mistakes(best, proven_low),
        curve=best,
        steps=walk.steps,
        lower=proven_low,
        proven=[b <= lo for b, lo in zip(best, proven_low, strict=True)],
        status=walk.final.status,
        seconds=time.monotonic() - start,
    )


@dataclass(frozen=True)
class _AnalysisBudget:
    """The search of one position within an analysis: ``limit`` each, and
    with a ``deadline`` for the whole analysis, what is left of it.

    With a total, the walk along the game searches each deviation with at
    most ``FIRST_PASS`` seconds (a clear is found in milliseconds where there is one); what is
    left of the total then goes to the positions still unproven, the last
    first: late positions are proven in milliseconds, and the true best
    never improves along the game, so their figures bound the earlier ones.
    """

    limit: Limit
    deadline: float | None

    def search(self, s: GameState, first: bool = False, share: float = 1.0) -> PositionResult:
        limit = self.limit
        if first and limit.time is not None and self.deadline is not None:
            limit = replace(limit, time=min(limit.time, FIRST_PASS))
        elif share < 1.0 and limit.time is not None:
            limit = replace(limit, time=limit.time * share)
        if self.deadline is None:
            return search_position(s, limit)
        # Each search gets what is left of the total (at most ``limit``);
        # once it is spent, a small node budget still finds a line (an upper
        # bound, never called proven).
        left = self.deadline - time.monotonic()
        if left <= 0:
            return search_position(s, Limit(nodes=SPENT_NODES))
        return search_position(s, Limit(min(limit.time or left, left), limit.nodes))

    def left(self) -> bool:
        """Whether time is left for another search (without a total, every
        position had its whole ``limit`` on the walk: nothing to refine)."""
        return self.deadline is not None and self.deadline - time.monotonic() > 0


@dataclass
class _Walk:
    """The record's actions searched position by position: per position n
    (before action n) the cards left of the best line known from there,
    that line, and a proven lower bound; per action its (turn, play) and
    the play taken (None: the end of the turn)."""

    found: list[int]
    lines: list[list[Action]]
    lower: list[int]
    positions: list[GameState]
    final: GameState
    steps: list[tuple[int, int]] = field(default_factory=list)
    taken: list[Play | None] = field(default_factory=list)

    @classmethod
    def along(
        cls,
        state: GameState,
        actions: list[tuple[int, int, Play | None]],
        budget: _AnalysisBudget,
        progress: Callable[[int, int], None] | None,
    ) -> _Walk:
        res = budget.search(state, first=True)
        ref = list(res.actions)
        walk = cls([res.cards_left], [ref], [res.lower_bound], [state.copy()], state)
        for n, (i, j, play) in enumerate(actions):
            if state.over or interrupt.requested():
                break  # the last card ended the game inside its turn, or Ctrl-C: so far
            action: Action = END if play is None else (play.card, play.pile)
            before = state
            state = state.copy()
            if play is None:
                state.end_turn()
            else:
                state.play(play.card, play.pile)
            if ref and _same(before, ref[0], action):
                # The action follows the best line known: no new search.
                ref = _follow(ref, action)
                walk.found.append(walk.found[-1])
                walk.lower.append(walk.lower[-1])
            else:
                after = budget.search(state, first=True)
                ref = list(after.actions)
                walk.found.append(after.cards_left)
                walk.lower.append(after.lower_bound)
            walk.lines.append(ref)
            walk.positions.append(state)
            walk.steps.append((i, j))
            walk.taken.append(play)
            if progress is not None:
                progress(n + 1, len(actions))
        walk.final = state
        return walk

    def refine(self, budget: _AnalysisBudget) -> None:
        """Search again the positions left unproven, the last first, while
        the budget lasts (see ``_AnalysisBudget``): the lower bound proven
        at one holds at every later one, and a clear found at one makes
        every earlier one a clear. First each turn start with a share of
        the limit (cheap proofs are not kept waiting behind positions the
        whole limit would not prove either), then every position."""
        starts = {0} | {n + 1 for n, a in enumerate(self.taken) if a is None}
        for share, only in ((REFINE_SHARE, starts), (1.0, None)):
            tried: set[int] = set()
            while budget.left() and not interrupt.requested():
                best, low = self.bounds()
                todo = [n for n in range(len(best)) if best[n] > low[n] and n not in tried
                        and (only is None or n in only)]  # fmt: skip
                if not todo:
                    break
                # Round one takes the first and the last in turn: a clear
                # found early and a proof found late each settle a stretch.
                n = todo[0] if only is not None and len(tried) % 2 == 0 else todo[-1]
                tried.add(n)
                self._search_again(n, budget, share)

    def _search_again(self, n: int, budget: _AnalysisBudget, share: float) -> None:
        """Search position ``n`` again (``share`` of the limit); keep what
        improves its figures."""
        res = budget.search(self.positions[n], share=share)
        if res.cards_left < self.found[n]:
            self.found[n] = res.cards_left
            self.lines[n] = list(res.actions)
        self.lower[n] = max(self.lower[n], res.lower_bound)

    def bounds(self) -> tuple[list[int], list[int]]:
        """The best result known and the proven lower bound per position.

        The true best reachable result never improves along a game (each
        action is one of the options), so a line found later bounds every
        earlier position from above (the record's actions lead to it), and a
        lower bound proven earlier holds later too."""
        best = list(self.found)
        for n in range(len(best) - 2, -1, -1):
            best[n] = min(best[n], best[n + 1])
        proven_low = list(self.lower)
        for n in range(1, len(proven_low)):
            proven_low[n] = max(proven_low[n], proven_low[n - 1])
        return best, proven_low

    def mistakes(self, best: list[int], proven_low: list[int]) -> list[Mistake]:
        """The actions after which the best reachable result got worse."""
        out: list[Mistake] = []
        for n, (i, j) in enumerate(self.steps):
            if best[n + 1] <= best[n]:
                continue
            # best[n] < best[n + 1] <= every later line: it is the line found
            # at position n itself, and it does not start with the action taken.
            line = self.lines[n]
            out.append(
                Mistake(
                    turn=i,
                    play=j,
                    played=self.taken[n],
                    best_before=best[n],
                    best_after=best[n + 1],
                    better=_first_play(line) if line else None,
                    line=_line_turns(self.positions[n], line) if line else [],
                    proven=proven_low[n + 1] > best[n],
                    before_proven=best[n] <= proven_low[n],
                    after_proven=best[n + 1] <= proven_low[n + 1],
                )
            )
        return out


def _same(state: GameState, planned: Action, taken: Action) -> bool:
    """Whether the action taken is the planned one, up to piles of one
    direction showing the same top (interchangeable)."""
    if planned == taken:
        return True
    if planned == END or taken == END or planned[0] != taken[0]:
        return False
    rules = state.rules
    a, b = planned[1], taken[1]
    same_direction = (a < rules.asc_piles) == (b < rules.asc_piles)
    return same_direction and state.tops[a] == state.tops[b] and rules.kind is GameKind.CLASSIC


def _follow(ref: list[Action], taken: Action) -> list[Action]:
    """The rest of the best line once ``taken`` (its first action, maybe
    on the twin pile) is made: later plays on either twin swap piles."""
    planned = ref[0]
    rest = ref[1:]
    if planned == taken:
        return rest
    a, b = planned[1], taken[1]
    swap = {a: b, b: a}
    return [x if x == END else (x[0], swap.get(x[1], x[1])) for x in rest]


@dataclass
class Hint:
    play: str | None  # the play as written everywhere, '37 A1' (None: end the turn)
    action: Play | None  # the same play by pile index, for code that plays it
    verdict: Verdict  # from the position: win | loss | unknown
    cards_left: int  # what the best line reaches
    optimal: bool
    line: list[Turn]
    text: str

    def advice(self, record: Record) -> Advice:
        """The hint in the shape every game's hint has (``hint --json``):
        the move is one play, or the end of the turn."""
        rules = record.deal.rules
        state = replayed(record)
        plays = [] if self.action is None else [
            {"card": self.action.card, "pile": pile_name(rules, self.action.pile)}
        ]
        figures = {
            "cards_left": self.cards_left,
            "optimal": self.optimal,
            "turns": [turn_to_dict(rules, t) for t in self.line],
        }
        move = {"plays": plays, "end_turn": self.action is None}
        return Advice(state.current + 1, len(record.turns) + 1, move, self.verdict, self.text,
                      figures)


def hint_for(state: GameState, limit: Limit = HINT_LIMIT) -> Hint:
    """The best next action from ``state`` and what it keeps possible."""
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason})", "record")
    res = search_position(state, limit)
    if not res.actions:
        raise InvalidInputError("no legal way to finish this turn", "record")
    play = _first_play(res.actions)
    rules = state.rules
    what = "end the turn" if play is None else f"play {play_text(rules, play.card, play.pile)}"
    if res.verdict == Verdict.WIN:
        keeps = "keeps a perfect clear possible"
    elif res.optimal:
        keeps = f"no perfect clear is possible any more; best possible: {res.cards_left} left"
    elif res.verdict == Verdict.LOSS:
        keeps = (
            f"no perfect clear is possible any more; best found: {res.cards_left} left "
            f"(at least {res.lower_bound})"
        )
    else:
        keeps = f"best found: {res.cards_left} left (no proof within {limit.describe()})"
    return Hint(
        play=None if play is None else play_text(rules, play.card, play.pile),
        action=play,
        verdict=res.verdict,
        cards_left=res.cards_left,
        optimal=res.optimal,
        line=_line_turns(state, res.actions),
        text=f"{what}: {keeps}",
    )
