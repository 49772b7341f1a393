"""Solving a deal: the growing horizon, the verdict and its checks.

A model over the first K slots whose optimum is at most K - L (L the
longest turn) has found the optimum of the whole game (``Shape.settled``),
so the horizon grows from ``FIRST_HORIZON`` until it settles or reaches
all N cards, and a deal where few cards can be played is decided on a
small model.

Only OPTIMAL and INFEASIBLE statuses, or a proven objective bound that
settles the game below N, count as proofs. Every line, won or lost, is
replayed through the rules engine; a line that does not replay, or whose
count disagrees with the model, is a ``SolverBug``, never a verdict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ....models import IllegalMoveError, interrupt
from ....models.outcome import NO_LIMIT, Limit, Status, Verdict
from ....models.the_game import Deal, GameState, Play, Turn
from ....models.words import plural
from ..bounds import state_lower_bound
from ..kernel import Action
from ..solution import Solution, SolverBug
from . import objective
from .compose import build
from .hint import hint_values, normalise
from .shape import ENGINE, Shape, start_player
from .stage import CpStatus, Stage, run

FIRST_HORIZON = 24


def grow(horizon: int, n: int) -> int:
    """The next horizon: doubled, or all N once that is most of the deal."""
    nxt = 2 * horizon
    return n if 4 * nxt >= 3 * n else nxt


@interrupt.polled
def solve_cpsat(
    deal: Deal,
    limit: Limit = NO_LIMIT,
    workers: int = 2,
    hint: list[Action] | None = None,
    clear: bool = False,
    seed: int = 0,
    first_horizon: int = FIRST_HORIZON,
    hint_first: int | None = None,
) -> Solution:
    """Decide ``deal`` (classic family, 1-5 players, fire cards) with CP-SAT.

    The model maximises the cards played. It is solved over a growing
    horizon (``first_horizon`` slots, doubled up to all N): a horizon-K
    optimum that is at most K - L (L the longest turn) is the optimum of the
    whole game (``Shape.settled``), so a deal where few cards can be played
    is decided on a small model. A stage below N stops as soon as it finds
    a line of more than K - L cards, and its line hints the next stage.

    ``clear=True`` asks only whether a perfect clear exists (every slot
    filled, full horizon): INFEASIBLE proves a loss without an optimum.
    ``hint`` is a kernel line (e.g. the search's best line) from the
    1-based player ``hint_first`` (default: the deal's, else player 1); its
    legal complete turns become a complete hint for every variable. With a
    free start (rule C3) the model chooses the starting player.

    Verdicts: ``win`` with a line of N cards that replays as won; ``loss``
    when CP-SAT proved that fewer than N cards can be played (OPTIMAL below
    N, INFEASIBLE, or a proven objective bound below N at the time limit);
    ``unknown`` otherwise. ``details['optimum_proven']`` says whether the
    line's cards played are the proven optimum (then ``cards_left`` is the
    proven optimum of cards left).
    """
    begin = time.monotonic()
    shape = Shape.of(deal)
    start = start_player(shape, None if hint_first is None else hint_first - 1)
    hinted = normalise(shape, hint, start) if hint else []
    horizon = shape.n if clear else min(shape.n, max(1, first_horizon))
    run_ = _Runs(deal, shape, limit.deadline(begin), workers, seed, clear)
    stages, line = run_.growing(horizon, (start, hinted))
    return _report(deal, shape, stages, line, hinted, workers, begin)


@dataclass(frozen=True)
class _Runs:
    """The CP-SAT runs of one deal over growing horizons."""

    deal: Deal
    shape: Shape
    deadline: float | None
    workers: int
    seed: int
    clear: bool

    def growing(
        self, horizon: int, hint: tuple[int, list[list[tuple[int, int]]]]
    ) -> tuple[list[Stage], tuple[int, list[list[tuple[int, int]]]]]:
        """Run from ``horizon`` on, each stage hinted with the best line so
        far (first ``hint``), until one decides or time runs out; the stages
        and the best line (its 0-based starting player and turns)."""
        deal, shape, deadline, clear = self.deal, self.shape, self.deadline, self.clear
        n = shape.n
        best_first, best = hint
        hinted = best
        stages: list[Stage] = []
        # A horizon that the hint already overfills cannot settle: skip it.
        while horizon < n and sum(len(t) for t in hinted) > horizon - shape.longest():
            horizon = grow(horizon, n)
        # The graph bounds on cards left at the start (``bounds``), for the
        # objective: sound for every starting player the model may choose.
        floor = min(state_lower_bound(GameState(deal, first=f)) for f in deal.starting_players())
        while True:
            m = build(shape, horizon, clear=clear)
            if floor:
                objective.at_most(m, n - floor)
            if best:
                hint_values(m, best, best_first)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            final = horizon >= n
            target = horizon - shape.longest()
            stop = None if final else target
            stage = run(m, Limit(left), self.workers, self.seed, stop_above=stop)
            interrupt.check()  # Ctrl-C stopped the run: nothing it found is kept
            stages.append(stage)
            if stage.played > sum(len(t) for t in best):
                best, best_first = stage.turns, stage.first
            if final or stage.played <= target:
                # Decided (a win, or an optimum or bound that settles the
                # game), or out of time within this horizon.
                break
            # A line longer than the horizon can settle: look further.
            if interrupt.requested() or (deadline is not None and time.monotonic() >= deadline):
                break
            horizon = grow(horizon, n)
        return stages, (best_first, best)


def _replay(
    deal: Deal, first: int, line: list[list[tuple[int, int]]]
) -> tuple[list[Turn], GameState]:
    """Replay a CP-SAT line through the rules engine (players filled in);
    a line that does not replay is a ``SolverBug``, never a verdict."""
    state = GameState(deal, first=first)
    turns: list[Turn] = []
    for i, t in enumerate(line):
        player = state.current + 1
        try:
            for c, p in t:
                state.play(c, p)
            state.end_turn()
        except IllegalMoveError as err:
            raise SolverBug(f"the CP-SAT line does not replay at turn {i}: {err}") from None
        turns.append(Turn(player, tuple(Play(c, p) for c, p in t)))
    return turns, state


def _verdict(shape: Shape, last: Stage, played: int) -> tuple[Verdict, str | None, bool]:
    """What the last stage proves with a line of ``played`` cards: the
    verdict, the proof in words, and whether the line is the optimum."""
    n = shape.n
    settled = shape.settled(last.horizon, last.bound)
    if played == n:
        return Verdict.WIN, None, True
    if last.status is CpStatus.OPTIMAL and settled:
        where = "" if last.horizon >= n else f" (settled on the first {last.horizon} slots)"
        most = plural(played, "card")
        proof = f"CP-SAT optimal: at most {most} can be played, {n - played} left{where}"
        return Verdict.LOSS, proof, True
    if last.status is CpStatus.INFEASIBLE and last.horizon >= n:
        return Verdict.LOSS, "CP-SAT: the perfect clear is infeasible", False
    if last.bound < n and settled:
        most = plural(last.bound, "card")
        return Verdict.LOSS, f"CP-SAT bound: at most {most} can be played (no perfect clear)", False
    return Verdict.UNKNOWN, None, False


def _report(
    deal: Deal,
    shape: Shape,
    stages: list[Stage],
    line: tuple[int, list[list[tuple[int, int]]]],
    hinted: list[list[tuple[int, int]]],
    workers: int,
    begin: float,
) -> Solution:
    n = shape.n
    first, best = line
    last = stages[-1]
    played = sum(len(t) for t in best)
    settled = shape.settled(last.horizon, last.bound)
    verdict, proof, optimum = _verdict(shape, last, played)
    turns, final = _replay(deal, first + 1, best)
    if final.cards_left() != n - played:
        raise SolverBug(
            f"the CP-SAT line leaves {final.cards_left()} cards, the model says {n - played}"
        )
    if verdict == Verdict.WIN and final.status != Status.WON:
        raise SolverBug(f"the CP-SAT winning line ends {final.status}, not won")
    lower = n - last.bound if settled and verdict == Verdict.LOSS else 0
    sol = Solution(
        verdict=verdict,
        deal=deal,
        first=first + 1,
        turns=turns,
        cards_left=n - played,
        proof=proof,
        nodes=sum(s.branches for s in stages),
        seconds=time.monotonic() - begin,
        optimal=optimum,
        lower_bound=max(lower, 1 if verdict == Verdict.LOSS else 0),
    )
    sol.engine = ENGINE
    sol.details = {
        "status": last.status,
        "played": played,
        "bound": last.bound if settled else n,
        "optimum_proven": optimum,
        "hinted_cards": sum(len(t) for t in hinted),
        "conflicts": sum(s.conflicts for s in stages),
        "workers": workers,
        "stages": [s.summary() for s in stages],
    }
    return sol
