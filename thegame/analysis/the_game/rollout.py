"""Many blind-policy playouts of one position: the hidden cards in given orders.

Two implementations make the same choices game by game: the reference,
``playouts_python``, and the compiled extension ``_crollout``
(``playouts_c``, about two orders of magnitude faster). Both take a
``Limit`` in which a playout is a node (in C the shared ``Budget``); the
results are those of the orders played before it stopped them, a prefix.
``THEGAME_ROLLOUT=python`` forces the reference. In full: the docs page
games/the-game.md ("The blind player and the review, in full").
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from enum import StrEnum

from ...models import interrupt
from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play, TurnKind, is_ascending
from ...solver.the_game.ckernel import CBudget, c_budget
from .blind import BlindParams, BlindPolicy, check_family, deal_hidden, play_out

try:
    from . import _crollout

    HAVE_C = True
except ImportError:  # no compiler at install time (or no POPCNT): the reference only
    HAVE_C = False

# What the extension's fixed-size arrays and masks hold (see csrc/rollout.h).
C_MAX_CARD = 127  # cards and pile tops are bits of an unsigned __int128
C_MAX_PILES = 16
C_MAX_HAND = 32
C_MAX_PLAYERS = 8
C_MAX_DEPTH = 8  # entries of cover_cost / hand_cost
C_MAX_OPTIONS = 64  # ways to finish a turn turn_options_c lists, at most
_C_MAX_INT = 1 << 30  # gap limits stay far from int overflow


def budget_stops(limit: Limit | None, deadline: float | None, done: int) -> bool:
    """Whether the budget stops the playouts after ``done`` of them, as the
    extension asks it (csrc/module.c's ``budget_stops``: the checks of
    thegame/csrc/budget.h at every playout, a playout a node). None: no
    budget, every order is played."""
    if limit is None:
        return False
    if limit.nodes is not None and done >= limit.nodes:
        return True
    if deadline is not None and time.monotonic() > deadline:
        return True
    if limit.progress is not None:
        limit.progress(done)
    return interrupt.requested()


def hidden_cards(state: GameState) -> list[int]:
    """The cards the player to move cannot see (the other players' hands and
    the draw pile), sorted: which cards they are is public, not their places."""
    me = state.current
    return sorted([c for i, h in enumerate(state.hands) if i != me for c in h] + state.draw_pile())


def sample_orders(state: GameState, n: int, seed: int) -> list[list[int]]:
    """``n`` random orders of ``hidden_cards(state)``, drawn by
    ``random.Random(seed)``: they depend only on the seed and on which cards
    are hidden, so every alternative of a position gets the same orders
    (common random numbers). These are exactly the orders ``rate_plays``
    draws for the same seed."""
    if n < 0:
        raise ValueError("n must not be negative")
    hidden = hidden_cards(state)
    rng = random.Random(seed)
    orders = []
    for _ in range(n):
        cards = list(hidden)
        rng.shuffle(cards)
        orders.append(cards)
    return orders


def arrangement(state: GameState) -> list[int]:
    """The order ``deal_hidden`` reads: ``deal_hidden(s, arrangement(s))`` is ``s``."""
    me = state.current
    cards = [c for i, h in enumerate(state.hands) if i != me for c in sorted(h)]
    return cards + state.draw_pile()


def _checked(state: GameState, orders: Sequence[Sequence[int]]) -> list[list[int]]:
    check_family(state.rules)
    hidden = hidden_cards(state)
    out = []
    for k, order in enumerate(orders):
        cards = list(order)
        if sorted(cards) != hidden:
            raise ValueError(f"order {k} is not a permutation of the hidden cards")
        out.append(cards)
    return out


def playouts_python(
    state: GameState,
    orders: Sequence[Sequence[int]],
    params: BlindParams | None = None,
    end_first: bool = False,
    limit: Limit | None = None,
) -> list[tuple[bool, int]]:
    """The reference: for each order, ``blind.play_out`` of the state with
    the hidden cards in that order; (won, cards left) per order played
    within ``limit``."""
    checked = _checked(state, orders)
    _check_end(state, end_first)
    policy = BlindPolicy(params)
    results: list[tuple[bool, int]] = []
    deadline = None if limit is None else limit.deadline()
    for cards in checked:
        if budget_stops(limit, deadline, len(results)):
            break
        s = deal_hidden(state, cards)
        if end_first:
            s.end_turn()  # C6: the draw comes from this order's draw pile
        final = s if s.over else play_out(s, policy)
        results.append((final.status == Status.WON, final.cards_left()))
    return results


def _check_end(state: GameState, end_first: bool) -> None:
    if end_first and len(state.placed) < state.turn_min:
        raise ValueError("the turn cannot end before its minimum (rule C4)")


def c_covers(state: GameState, params: BlindParams | None = None) -> bool:
    """Whether the compiled playouts are available and cover this position."""
    if not HAVE_C:
        return False
    rules = state.rules
    p = params or BlindParams()
    return (
        type(state) is GameState  # not a variant's class with its own hooks
        and rules.turn_kind is TurnKind.CLASSIC
        and not state.over
        and len(state.stocks) == 1
        and 1 <= rules.low <= rules.high <= C_MAX_CARD
        and 1 <= rules.step <= C_MAX_CARD
        and rules.n_piles <= C_MAX_PILES
        and all(is_ascending(rules, i) == (i < rules.asc_piles) for i in range(rules.n_piles))
        and 1 <= state.players <= C_MAX_PLAYERS
        and rules.hand_size(state.players) <= C_MAX_HAND
        and all(len(h) <= C_MAX_HAND for h in state.hands)
        and rules.min_play >= 1
        and rules.min_play_empty >= 1
        and all(rules.low <= f <= rules.high for f in rules.fire_cards)
        and max(len(p.cover_cost), len(p.hand_cost)) <= C_MAX_DEPTH
        and abs(p.free_gap) < _C_MAX_INT
        and abs(p.forced_slack) < _C_MAX_INT
        and abs(state.turn) < _C_MAX_INT
    )


def playouts_c(
    state: GameState,
    orders: Sequence[Sequence[int]],
    params: BlindParams | None = None,
    end_first: bool = False,
    limit: Limit | None = None,
    deadline: float | None = None,
) -> list[tuple[bool, int]]:
    """The same playouts by the compiled extension, within ``limit`` (its
    time ends at ``deadline`` when one is given); ``RuntimeError`` when the
    extension is missing or does not cover the position (``c_covers``)."""
    checked = _checked(state, orders)
    _check_end(state, end_first)
    flat = bytes(c for cards in checked for c in cards)
    budget = _budget(limit, deadline)
    return _crollout.playouts(*_c_position(state, params, end_first), flat, len(checked), budget)


def _budget(limit: Limit | None, deadline: float | None) -> CBudget | None:
    """The extension's Budget of ``limit``: one Limit, one C struct, filled
    as the classic search's (its progress carries the Ctrl-C check). None:
    no budget (every order is played; Ctrl-C raises between them)."""
    if limit is None:
        return None
    return c_budget(limit, limit.deadline() if deadline is None else deadline)


def _halves(limit: Limit | None, half: int) -> tuple[Limit | None, Limit | None]:
    """``limit`` for the first ``half`` orders and for the rest: the node
    limit split so that the two play what one would (the first N orders)."""
    if limit is None or limit.nodes is None:
        return limit, limit
    return replace(limit, nodes=min(limit.nodes, half)), replace(
        limit, nodes=max(0, limit.nodes - half)
    )


def _joined(
    head: list[tuple[bool, int]], tail: list[tuple[bool, int]], half: int
) -> list[tuple[bool, int]]:
    """Two halves' results as one prefix of the orders: the second half's
    count only after a whole first half (the clock may stop one, not the other)."""
    return head + tail if len(head) == half else head


def plan_c(state: GameState, params: BlindParams | None = None) -> list[Play]:
    """``BlindPolicy(params).choose_turn(state)`` by the compiled extension
    (the same plays: ``tests/the_game/test_rollout.py``); ``RuntimeError`` as
    ``playouts_c``."""
    if state.over:
        return []
    order = bytes(arrangement(state))  # fills the hidden places; the policy never reads them
    plays = _crollout.plan(*_c_position(state, params, False), order, 1)
    return [Play(c, i) for c, i in plays]


def turn_options_c(
    state: GameState, params: BlindParams | None = None, k: int = 8
) -> list[tuple[float, list[Play]]]:
    """``BlindPolicy(params).turn_options(state)[:k]`` by the compiled
    extension (the same entries: ``tests/the_game/test_rollout.py``), for
    ``k`` up to 64; ``RuntimeError`` as ``playouts_c``."""
    if not 1 <= k <= C_MAX_OPTIONS:
        raise ValueError(f"k must be 1 to {C_MAX_OPTIONS}")
    if state.over:
        return []
    order = bytes(arrangement(state))  # fills the hidden places; the policy never reads them
    ends = _crollout.options(*_c_position(state, params, False), order, 1, k)
    return [(cost, [Play(c, i) for c, i in plays]) for cost, plays in ends]


def turn_options(
    state: GameState, params: BlindParams | None = None, k: int = 8
) -> list[tuple[float, list[Play]]]:
    """The policy's first ``k`` ways to finish the turn
    (``BlindPolicy.turn_options``), compiled when possible (``backend``)."""
    # An extension built before it listed options lacks ``options``.
    compiled = HAVE_C and hasattr(_crollout, "options")
    if compiled and k <= C_MAX_OPTIONS and backend(state, params) is Backend.C:
        return turn_options_c(state, params, k)
    return BlindPolicy(params).turn_options(state)[:k]


# The extension's arguments before the orders (``_c_position``).
_CPosition = tuple[
    tuple[int, ...],
    tuple[float, ...],
    bytes,
    tuple[int, ...],
    bytes,
    tuple[int, ...],
    bytes,
    tuple[int, ...],
]


def _c_position(state: GameState, params: BlindParams | None, end_first: bool) -> _CPosition:
    """The extension's arguments before the orders, positional: the rules
    and the pruning limits as 11 ints; the score's weights (trick_hand,
    trick_unseen, play_bonus, fire_cost, then the out steps and the hand
    steps); the fire cards; (players, current player, turn, turn minimum,
    plays made this turn, whether to end the turn first); the pile tops and
    the turn each was laid; the player's hand; each player's hand size."""
    if not c_covers(state, params):
        raise RuntimeError("the compiled playouts are not available for this position")
    policy = BlindPolicy(params)
    p = policy.params
    rules = state.rules
    me = state.current
    ints = (
        rules.low,
        rules.high,
        rules.step,
        rules.asc_piles,
        rules.desc_piles,
        rules.hand_size(state.players),
        rules.min_play,
        rules.min_play_empty,
        int(rules.fire_safe_at_clear),
        p.free_gap,
        p.forced_slack,
    )
    # The policy's own step tables, so that the extension adds the very same
    # doubles (BlindPolicy.__init__ computes them once).
    floats = (
        float(p.trick_hand),
        float(p.trick_unseen),
        float(p.play_bonus),
        float(p.fire_cost),
        *(float(w) for w in policy.out_steps),
        *(float(w) for w in policy.hand_steps),
    )
    position = (state.players, me, state.turn, state.turn_min, len(state.placed), int(end_first))
    return (
        ints,
        floats,
        bytes(sorted(rules.fire_cards)),
        position,
        bytes(state.tops),
        tuple(state.top_turn),
        bytes(sorted(state.hands[me])),
        tuple(len(h) for h in state.hands),
    )


class Backend(StrEnum):
    """An implementation of the playouts."""

    C = "c"  # the extension
    PYTHON = "python"  # the reference


def backend(state: GameState | None = None, params: BlindParams | None = None) -> Backend:
    """Which implementation ``playouts`` uses for ``state``. Without a state:
    C when the extension is built and not turned off (what every position
    it covers gets)."""
    if os.environ.get("THEGAME_ROLLOUT", "").lower() == Backend.PYTHON:
        return Backend.PYTHON
    if state is None:
        return Backend.C if HAVE_C else Backend.PYTHON
    return Backend.C if c_covers(state, params) else Backend.PYTHON


def playouts(
    state: GameState,
    orders: Sequence[Sequence[int]],
    params: BlindParams | None = None,
    end_first: bool = False,
    limit: Limit | None = None,
) -> list[tuple[bool, int]]:
    """For each order of ``hidden_cards(state)``: deal the hidden cards in
    that order (the other players' hands in seat order, then the draw pile,
    top first; ``deal_hidden``), play the game to its end with the blind
    policy from ``state`` (which may be inside a turn), and report (won,
    cards left). ``end_first``: the player ends the turn before the policy
    plays (drawing from each order's draw pile). ``limit``: a playout a
    node; the results of the orders played before it stopped them. Compiled
    when possible (``backend``), identical either way."""
    if backend(state, params) is Backend.C:
        deadline = None if limit is None else limit.deadline()
        if len(orders) < SPLIT_AT or _CORES < 2:
            return playouts_c(state, orders, params, end_first, limit, deadline)
        # The extension releases the GIL while it plays: a second thread
        # takes half the orders (each playout is independent of the others,
        # so the results are the same, in the same order).
        half = len(orders) // 2
        first, rest = _halves(limit, half)
        later = _helper().submit(
            playouts_c, state, orders[half:], params, end_first, rest, deadline
        )
        head = playouts_c(state, orders[:half], params, end_first, first, deadline)
        return _joined(head, later.result(), half)
    return playouts_python(state, orders, params, end_first, limit)


def plan(state: GameState, params: BlindParams | None = None) -> list[Play]:
    """The blind policy's plays for the rest of the turn
    (``BlindPolicy.choose_turn``), compiled when possible (``backend``)."""
    if backend(state, params) is Backend.C:
        return plan_c(state, params)
    return BlindPolicy(params).choose_turn(state)


# Fewer orders than this are not worth a second thread.
SPLIT_AT = 16
_CORES = min(2, os.cpu_count() or 1)
_POOL: list[ThreadPoolExecutor] = []


def _helper() -> ThreadPoolExecutor:
    """One helper thread for the whole process, made on first use."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="playouts"))
    return _POOL[0]


class SampleSet:
    """Orders of one position's hidden cards, checked and packed once, for
    many playouts from positions that share those hidden cards (the plays
    of one turn come from the player's own hand, so every position inside
    the turn hides the same cards): what a search over the turns of a
    position replays again and again."""

    def __init__(self, state: GameState, orders: Sequence[Sequence[int]]) -> None:
        self.hidden = hidden_cards(state)
        self.orders = _checked(state, orders)
        self.width = len(self.hidden)
        self._flat = bytes(c for cards in self.orders for c in cards)
        self._rng: random.Random | None = None

    @classmethod
    def drawn(cls, state: GameState, seed: int) -> SampleSet:
        """An empty set that ``grow`` fills with ``sample_orders(state, n,
        seed)``, drawing only the orders it does not hold yet (the first
        orders of a seed do not depend on how many are drawn)."""
        samples = cls(state, [])
        samples._rng = random.Random(seed)
        return samples

    def grow(self, n: int) -> None:
        """Draw orders until there are ``n`` (a set made by ``drawn``)."""
        if self._rng is None:
            raise ValueError("only a drawn sample set grows")
        if n <= len(self.orders):
            return
        new = []
        for _ in range(n - len(self.orders)):
            cards = list(self.hidden)
            self._rng.shuffle(cards)
            new.append(cards)
        self.orders.extend(new)
        self._flat += bytes(c for cards in new for c in cards)

    def __len__(self) -> int:
        return len(self.orders)

    def runner(
        self,
        state: GameState,
        params: BlindParams | None = None,
        end_first: bool = False,
        limit: Limit | None = None,
    ) -> Callable[[int, int], list[tuple[bool, int]]]:
        """``lambda start, stop: self.playouts(state, start, stop, params,
        end_first, limit)``, with the position checked and converted once:
        for a position whose playouts are asked for again and again (the
        limit's time counts from each call)."""
        if hidden_cards(state) != self.hidden:
            raise ValueError("the position hides other cards than the samples'")
        _check_end(state, end_first)
        if backend(state, params) is not Backend.C:
            return lambda a, b: playouts_python(state, self.orders[a:b], params, end_first, limit)
        args = _c_position(state, params, end_first)
        return lambda a, b: self._run_c(args, a, b, limit)

    def _run_c(
        self, args: _CPosition, start: int, stop: int, limit: Limit | None
    ) -> list[tuple[bool, int]]:
        """The compiled playouts of orders ``start:stop`` from the position
        ``args`` describes (``_c_position``) within ``limit``; two threads
        for many."""
        stop = min(stop, len(self.orders))
        if start >= stop:
            return []
        w = self.width
        deadline = None if limit is None else limit.deadline()

        def run(a: int, b: int, part: Limit | None) -> list[tuple[bool, int]]:
            flat = self._flat[a * w : b * w]
            return _crollout.playouts(*args, flat, b - a, _budget(part, deadline))

        if stop - start < SPLIT_AT or _CORES < 2:
            return run(start, stop, limit)
        mid = (start + stop) // 2
        first, rest = _halves(limit, mid - start)
        later = _helper().submit(run, mid, stop, rest)
        return _joined(run(start, mid, first), later.result(), mid - start)

    def playouts(
        self,
        state: GameState,
        start: int,
        stop: int,
        params: BlindParams | None = None,
        end_first: bool = False,
        limit: Limit | None = None,
    ) -> list[tuple[bool, int]]:
        """``playouts(state, orders[start:stop], params, end_first, limit)``:
        the same results, without checking and packing the orders again."""
        if hidden_cards(state) != self.hidden:
            raise ValueError("the position hides other cards than the samples'")
        stop = min(stop, len(self.orders))
        if start >= stop:
            return []
        if backend(state, params) is not Backend.C:
            return playouts_python(state, self.orders[start:stop], params, end_first, limit)
        _check_end(state, end_first)
        return self._run_c(_c_position(state, params, end_first), start, stop, limit)


class SharedOrders:
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
