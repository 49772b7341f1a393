"""The strong blind player: the blind policy improved by looking ahead.

It knows what the blind policy knows, lists the policy's best-scored ways to
finish the turn and plays the leading ones out over sampled orders of the
hidden cards (the same orders for each), by successive halving within a
``Limit`` per turn (its nodes are playouts); near the end it counts every
order, and alone with one or two cards to draw it searches for a certain win
(``strong_exact``). In full: the docs page games/the-game.md ("The blind
player and the review, in full").
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play
from . import strong_exact
from .blind import BlindParams, BlindPolicy
from .rollout import SampleSet, turn_options

# Up to this many hidden cards the playouts take every order of them
# (5! = 120), not samples.
EVERY_ORDER = 5

# A turn's budget where none is given (the survey): about 0.2 s of CPU a turn
# at the compiled playouts' speed, the benchmark's middle budget.
TURN_PLAYOUTS = 200


class Level(StrEnum):
    """Which blind player decides: the fast policy or the one that looks ahead."""

    DEFAULT = "default"
    STRONG = "strong"


def describe(budget: Limit) -> str:
    """A strong player's budget in words, e.g. ``60 playouts a turn``."""
    parts = []
    if budget.nodes is not None:
        parts.append(f"{budget.nodes} playouts")
    if budget.time is not None:
        parts.append(f"{budget.time:g} s")
    return " or ".join(parts or ["no limit"]) + " a turn"


@dataclass(frozen=True)
class StrongParams:
    """The look-ahead's settings. Chosen on solo classic seeds 100001 on,
    never on the benchmark seeds."""

    # Candidate turns looked at (the policy's best-scored first), at most;
    # a playout budget looks at fewer, so that each gets ``per_candidate``.
    candidates: int = 8
    per_candidate: int = 10
    # Value of a sample: won (1 or 0) less this much per card left.
    left_weight: float = 0.02
    # Samples per candidate in the first round (a time budget measures the
    # playouts' speed on it).
    first_samples: int = 4
    # Another turn replaces the policy's own choice only when its mean value
    # is higher by this many standard errors of the paired difference (the
    # policy's score is a good prior; a lucky streak on few samples is not
    # enough to leave it).
    switch_z: float = 1.0


@dataclass(frozen=True)
class TurnChoice:
    """A turn chosen, by whom, and what the choice rests on."""

    plays: list[Play]
    level: Level  # who chose: STRONG only when candidates were compared
    candidates: int  # ways to finish the turn compared (1: nothing to compare)
    playouts: int  # playouts spent on the choice
    samples: int  # samples the chosen turn's estimate rests on (0: none)
    win: float | None  # the chosen turn's win chance over those samples
    left: float | None  # and its mean cards left
    seconds: float
    # The samples were every order of the hidden cards (or the endgame's
    # search weighed every draw): ``win`` is exact, not an estimate.
    exact: bool = False


class StrongPlayer:
    """The strong blind player (see the module notes); ``choose`` answers
    with what the choice rests on, ``choose_turn`` (and calling the player)
    with the plays alone, so it plugs into ``blind.play_out``."""

    def __init__(
        self,
        budget: Limit,
        seed: int = 0,
        params: StrongParams | None = None,
        blind: BlindParams | None = None,
    ) -> None:
        if budget.nodes is None and budget.time is None:
            raise ValueError("a strong player's budget needs playouts (nodes) or seconds")
        self.budget = budget
        self.seed = seed
        self.params = params or StrongParams()
        self.blind = blind
        self.policy = BlindPolicy(blind)

    def __call__(self, state: GameState) -> list[Play]:
        return self.choose_turn(state)

    def choose_turn(self, state: GameState) -> list[Play]:
        return self.choose(state).plays

    def choose(self, state: GameState) -> TurnChoice:
        """The plays that finish the current turn (see the module notes)."""
        start = time.monotonic()
        b = self.budget
        k = self.params.candidates
        if b.nodes is not None:
            k = min(k, max(2, b.nodes // max(1, self.params.per_candidate)))
        options = turn_options(state, self.blind, max(1, k))
        if not options:
            return TurnChoice([], Level.DEFAULT, 0, 0, 0, None, None, 0.0)
        cands = [plays for _, plays in options]
        too_small = b.nodes is not None and b.nodes < 2 * len(cands)
        if len(cands) == 1 or too_small or b.time == 0:
            return TurnChoice(cands[0], Level.DEFAULT, len(cands), 0, 0, None, None,
                              time.monotonic() - start)  # fmt: skip
        if strong_exact.covers(state):
            won = self._certain_win(state, cands, start)
            if won is not None:
                return won
        return _Halving(self, state, cands, start).run()

    def _certain_win(
        self, state: GameState, turns: list[list[Play]], start: float
    ) -> TurnChoice | None:
        """The first candidate turn that wins whatever the draw brings
        (``strong_exact``), within the budget (a search for a line that
        plays out the hand counted as a playout); None when none does or
        the budget ran out first (the playouts decide)."""
        b = self.budget
        limit = b.nodes if b.nodes is not None else 1 << 30
        deadline = None if b.time is None else start + b.time
        search = strong_exact.ExactEndgame(self.policy, limit, deadline)
        k, _ = search.first_win(state, turns)
        if k is None:
            return None
        # STRONG even for the policy's own turn: the candidates were weighed.
        return TurnChoice(turns[k], Level.STRONG, len(turns), search.nodes, 0, 1.0, 0.0,
                          time.monotonic() - start, exact=True)  # fmt: skip


class _Cut(Exception):
    """A stop request cut a candidate's playouts short."""


def _after(state: GameState, plays: Sequence[Play]) -> GameState:
    st = state.copy()
    for p in plays:
        st.play(p.card, p.pile)
    return st


class _Halving:
    """Successive halving over one position's candidate turns."""

    def __init__(
        self, player: StrongPlayer, state: GameState, cands: list[list[Play]], start: float
    ) -> None:
        self.player = player
        self.cands = cands
        self.start = start
        self.afters = [_after(state, c) for c in cands]
        self.results: list[list[tuple[bool, int]]] = [[] for _ in cands]
        self.used = 0
        b = player.budget
        self.deadline = None if b.time is None else start + b.time
        # The orders are drawn as the rounds ask for them.
        self.state = state
        self.seed = player.seed * 1_000_003 + state.turn
        self.samples = SampleSet.drawn(state, self.seed)
        width = len(self.samples.hidden)
        # Few hidden cards: every order of them, in an order drawn by the
        # seed (so the first rounds still see a fair sample of them), and a
        # comparison over all of them is exact.
        self.exhaustive = 0 < width <= EVERY_ORDER
        if self.exhaustive:
            orders = [list(o) for o in itertools.permutations(self.samples.hidden)]
            random.Random(self.seed).shuffle(orders)
            self.samples = SampleSet(state, orders)
        # Each candidate's playouts, its position converted once.
        self.runners: list[Callable[[int, int], list[tuple[bool, int]]] | None] = [
            None for _ in cands
        ]
        # Samples worth playing: with nothing hidden every order is the same
        # (empty) one, and one sample is the certain outcome.
        self.limit: float = 1 if not width else len(self.samples) if self.exhaustive else math.inf

    def _ensure(self, n: int) -> None:
        # The first orders of a seed do not depend on how many are drawn:
        # drawing more later gives the same first ones.
        if not self.exhaustive:
            self.samples.grow(min(n, int(min(self.limit, 1 << 20))))

    def _extend(self, k: int, n: int) -> None:
        """Candidate k's outcomes on the first ``n`` samples."""
        have = self.results[k]
        n = int(min(n, self.limit))
        if len(have) >= n:
            return
        self._ensure(n)
        after = self.afters[k]
        if after.over:  # the turn itself ends the game
            won = after.status == Status.WON
            new = [(won, after.cards_left())] * (n - len(have))
        else:
            run = self.runners[k]
            if run is None:
                # A budget of no limit of its own: only Ctrl-C (or a
                # server's stop) cuts these playouts short.
                run = self.runners[k] = self.samples.runner(after, self.player.blind, True, Limit())
            new = run(len(have), n)
        self.used += len(new)
        have.extend(new)
        if len(have) < n:
            raise _Cut

    def _value(self, k: int, n: int) -> float:
        w = self.player.params.left_weight
        rs = self.results[k][:n]
        return sum(float(won) - w * left for won, left in rs) / max(1, len(rs))

    def run(self) -> TurnChoice:
        """The halving's choice; the policy's own turn when a stop request
        cut the playouts short (the candidates no longer compare fairly)."""
        try:
            return self._rounds()
        except _Cut:
            return TurnChoice(self.cands[0], Level.DEFAULT, len(self.cands), self.used, 0,
                              None, None, time.monotonic() - self.start)  # fmt: skip

    def _rounds(self) -> TurnChoice:
        p = self.player.params
        alive = list(range(len(self.cands)))
        rounds = max(1, math.ceil(math.log2(len(alive))))
        b = self.player.budget
        n = max(1, p.first_samples)
        total: float = b.nodes if b.nodes is not None else math.inf
        for r in range(rounds):
            if r > 0:
                if r == 1 and b.time is not None:
                    # The first round's speed turns the seconds into playouts.
                    spent = max(1e-6, time.monotonic() - self.start)
                    rate = self.used / spent
                    total = min(total, int(rate * b.time))
                per = int((total - self.used) / ((rounds - r) * len(alive)))
                if per < 1 or self._late():
                    break
                n += per
            elif b.nodes is not None:
                # An even share per round; at least one sample each (the
                # budget is at least two per candidate).
                n = max(1, b.nodes // (rounds * len(alive)))
            for k in alive:
                self._extend(k, n)
            n = min(n, int(min(self.limit, n)))
            # Ties keep the policy's order (its better score first). The
            # policy's own choice (0) stays in: it is what a challenger must beat.
            if r == rounds - 1 or n >= self.limit:
                break
            rest = sorted((k for k in alive if k), key=lambda k: (-self._value(k, n), k))
            alive = [0, *rest[: max(1, len(alive) // 2 - 1)]]
        best = max((k for k in alive if k), key=lambda k: (self._value(k, n), -k), default=0)
        if best and not self._beats(best, n):
            best = 0
        rs = self.results[best][:n]
        return TurnChoice(
            plays=self.cands[best],
            level=Level.STRONG,
            candidates=len(self.cands),
            playouts=self.used,
            samples=len(rs),
            win=sum(w for w, _ in rs) / len(rs),
            left=sum(x for _, x in rs) / len(rs),
            seconds=time.monotonic() - self.start,
            exact=len(rs) >= self.limit,
        )

    def _beats(self, k: int, n: int) -> bool:
        """Whether candidate k's value beats the policy's choice (0) by
        ``switch_z`` standard errors of their paired difference over the
        first ``n`` samples."""
        w = self.player.params.left_weight
        diffs = [
            (float(a[0]) - w * a[1]) - (float(b[0]) - w * b[1])
            for a, b in zip(self.results[k][:n], self.results[0][:n], strict=True)
        ]
        m = len(diffs)
        mean = sum(diffs) / m
        if m < 2 or m >= self.limit:
            return mean > 0  # nothing hidden, or every order weighed: no noise
        var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
        return mean > self.player.params.switch_z * math.sqrt(var / m)

    def _late(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline
