"""A hint for a real game, where the draw pile is hidden: only what the player knows.

``play`` with a hidden draw pile must not answer ``hint`` from the order of
the draw pile (that would tell the player what comes next). This hint asks
the blind policy (``blind.py``), which reads only the player's own hand, the
pile tops and which cards are still out, for the rest of the turn, and
estimates how the game goes on from here: the policy plays on over sampled
orders of the cards the player cannot see (the draw pile and the other
hands). The samples are drawn from the *sorted* hidden cards by a fixed
seed, so the answer is the same for every order of the draw pile:
``tests/the_game/test_play_real.py`` checks that.

At the strong level (``strong.py``) the turn is the strong blind player's:
the policy's candidate turns compared over sampled orders within a budget
of playouts (at most ``STRONG_PLAYOUTS``, and half the time limit). The
estimate then plays on from after that turn, on samples of its own, within
what is left of the budget (a ``Limit``, a playout a node).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ...models import interrupt
from ...models.outcome import NO_LIMIT, Limit, Status
from ...models.the_game import GameState, Play
from .blind import choose_turn
from .rollout import SampleSet, playouts, sample_orders
from .strong import Level, StrongPlayer

# The samples' seed: fixed, so asking twice gives the same answer.
HINT_SEED = 0
# The strong player's playouts for one hint, at most (with a time limit it
# gets half of it, whichever ends first): enough to separate the close
# candidates, bounded so that a long time limit stays deterministic.
STRONG_PLAYOUTS = 2000


def blind_hint_covers(state: GameState) -> bool:
    """Whether the blind policy plays this variant: the classic family
    (C, P, F); not Extreme's commands (X) nor the Face to Face duel (D)."""
    rules = state.rules
    return not rules.is_duel and not rules.commands


@dataclass(frozen=True)
class BlindHint:
    """The blind policy's way to finish the turn and how it fares from here."""

    plays: list[Play]  # the rest of the turn (may be empty: end it now)
    can_finish: bool  # False: no legal way to finish this turn was found
    win_rate: float  # over ``samples`` orders of the hidden cards
    expected_left: float
    samples: int
    # Who chose the turn: the strong player only when it compared candidates
    # (with one way to finish, or no budget, the policy's choice stands).
    level: Level = Level.DEFAULT
    candidates: int = 1  # turns compared
    choice_playouts: int = 0  # playouts the comparison spent


@interrupt.polled
def blind_hint(
    state: GameState,
    samples: int,
    limit: Limit = NO_LIMIT,
    seed: int = HINT_SEED,
    level: Level = Level.DEFAULT,
) -> BlindHint:
    """The blind player's rest of the turn from ``state`` and its win chance.

    ``samples`` orders of the hidden cards are played out by the policy
    after that turn (from ``state`` itself at the default level, which is
    the same); within ``limit`` (a playout a node; its time counts from the
    call) the sampling stops early once it is used up (at least one sample
    is always taken), and ``samples`` in the answer says how many were
    used. ``level`` STRONG: the turn is the strong player's (see the module
    notes).
    """
    if not blind_hint_covers(state):
        raise ValueError(f"the blind policy does not cover {state.rules.name}")
    if state.over:
        raise ValueError("the game is over")
    deadline = limit.deadline()
    strong = None
    if level is Level.STRONG:
        half = None if limit.time is None else limit.time / 2
        # A playout a node: the limit's nodes cap the choice's playouts too.
        cap = STRONG_PLAYOUTS if limit.nodes is None else min(STRONG_PLAYOUTS, limit.nodes)
        budget = Limit(half, cap)
        # Its own samples (another seed): the estimate below is not the
        # one the choice was made on, so it is not flattered by the choice.
        strong = StrongPlayer(budget, seed=seed + 1).choose(state)
        plays = strong.plays
    else:
        plays = choose_turn(state)
    trial = state.copy()
    for p in plays:
        trial.play(p.card, p.pile)
    can_finish = trial.over or trial.can_end_turn()
    # Drawn from the sorted hidden cards: the samples depend on which cards
    # are hidden, never on their order (as in ``blind.rate_plays``).
    orders = sample_orders(state, max(1, samples), seed)
    results: list[tuple[bool, int]] = []
    if trial.over:  # the turn clears the game
        results = [(trial.status == Status.WON, trial.cards_left())]
    else:
        results = _estimate(state, trial, orders, strong is None or not can_finish, limit, deadline)
    done = len(results)
    wins = sum(w for w, _ in results)
    left = sum(n for _, n in results)
    if strong is None:
        return BlindHint(plays, can_finish, wins / done, left / done, done)
    return BlindHint(plays, can_finish, wins / done, left / done, done,
                     strong.level, strong.candidates, strong.playouts)  # fmt: skip


def _estimate(
    state: GameState,
    trial: GameState,
    orders: list[list[int]],
    from_state: bool,
    limit: Limit,
    deadline: float | None,
) -> list[tuple[bool, int]]:
    """The playouts of the estimate within what is left of ``limit`` (the
    compiled playouts stop at its deadline themselves); at least one."""
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    rest = replace(limit, time=left)
    for budget in (rest, Limit(nodes=1)):  # the budget spent: one sample still
        if from_state:
            results = playouts(state, orders, limit=budget)
        else:
            results = SampleSet(state, orders).playouts(trial, 0, len(orders), None, True, budget)
        if results:
            return results
    raise KeyboardInterrupt  # asked to stop (Ctrl-C, a spent job) before any sample
