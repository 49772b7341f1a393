"""A search kernel held against the rules engine: random walks that drive a
kernel and the engine (or two kernels) side by side, the move check at one
position, and perft-style path counts through either."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from tests.support.brute import describe
from thegame.models.outcome import Status
from thegame.models.the_game import (
    Deal,
    GameState,
    Play,
    is_ascending,
)
from thegame.solver.the_game.arguments import turn_cut
from thegame.solver.the_game.ckernel import CKernel
from thegame.solver.the_game.kernel import Kernel


def mask(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


Visit = Callable[[GameState, Kernel], None]


def gap(state: GameState, play: Play) -> int:
    """How far a play moves its pile (a backward trick counts as negative)."""
    top = state.tops[play.pile]
    if is_ascending(state.rules, play.pile):
        return play.card - top if play.card > top else -state.rules.step
    return top - play.card if play.card < top else -state.rules.step


def walk(deal: Deal, rng: random.Random, visit: Visit, greed: float = 0.7) -> None:
    """A random legal playout through the engine; a fresh kernel is driven by
    the same plays and turn ends, and ``visit`` sees every position. With
    probability ``greed`` a step takes the play that moves its pile least,
    so that games last and reach late positions."""
    state = GameState(deal)
    kernel = Kernel(deal, state.first - 1)
    while not state.over:
        visit(state, kernel)
        plays = state.legal_plays()
        can_end = bool(state.placed) and state.can_end_turn()
        if can_end and (not plays or rng.random() < 0.4):
            state.end_turn()
            if state.status == Status.LOST and "F2" in (state.reason or ""):
                break  # the kernel refused this end (checked in the visit)
            kernel.end_turn()
            continue
        if not plays:
            break  # the turn cannot be completed (the engine ends the game only at its start)
        if rng.random() < greed:
            choice = min(plays, key=lambda p: gap(state, p))
        else:
            choice = rng.choice(plays)
        state.play(choice.card, choice.pile)
        kernel.play(choice.card, choice.pile)
    if state.status == Status.WON:
        assert kernel.won()


def ending_loses_by_fire(state: GameState) -> bool:
    after = state.copy()
    after.end_turn()
    return after.status == Status.LOST and "F2" in (after.reason or "")


def check_moves(state: GameState, kernel: Kernel) -> int:
    """Compare the kernel with the engine at one position; returns how many
    legal plays the kernel left out (by dominance)."""
    rules = state.rules
    where = f"{describe(state.deal)} at tops {state.tops}, hand {state.hand()}, " + (
        f"plays {state.plays_this_turn}"
    )
    # The kernel tracks the same position.
    assert kernel.tops == state.tops, where
    assert kernel.cur == state.current, where
    assert kernel.t == len(state.placed), where
    assert kernel.hands == [mask(h) for h in state.hands], where
    unplayed = mask(c for h in state.hands for c in h) | mask(state.draw_pile())
    assert kernel.unplayed == unplayed, where
    # Every kernel move is legal in the engine ...
    moves = {(c, p) for _, c, p in kernel.moves()}
    legal = {(p.card, p.pile) for p in state.legal_plays()}
    assert moves <= legal, f"illegal kernel moves {sorted(moves - legal)}: {where}"
    # ... and an omitted legal play is dominated by a play of the same card
    # on a pile of the same direction.
    for c, p in sorted(legal - moves):
        up = is_ascending(rules, p)
        assert any(c == c2 and is_ascending(rules, q) == up for c2, q in moves), (
            f"kernel omits {c} on pile {p} without a same-direction alternative: {where}"
        )
    # Ending the turn: the engine's rule, minus the fire deadline (F2) that
    # the kernel checks before the end rather than losing at it. After the
    # last card the kernel stops at once (``won``; rule F3: no deadline).
    if state.placed:
        engine_end = state.can_end_turn() and not ending_loses_by_fire(state)
        kernel_end = kernel.can_end() or kernel.won()
        assert kernel_end == engine_end, f"kernel can end: {kernel_end}: {where}"
        assert kernel.won() == (state.cards_left() == 0), where
    return len(legal - moves)


def same_position(py: Kernel, c: CKernel) -> None:
    """Every observable of the two kernels agrees at this position."""
    assert c.tops == py.tops
    assert c.hands == py.hands
    assert (c.pos, c.unplayed, c.cur, c.t) == (py.pos, py.unplayed, py.cur, py.t)
    assert (c.pending, c.turn_min, c.max_turn) == (py.pending, py.turn_min, py.max_turn)
    assert c.key() == py.key()
    assert c.moves() == py.moves()
    assert c.legal_plays() == py.legal_plays()
    assert (c.won(), c.can_end(), c.min_met()) == (py.won(), py.can_end(), py.min_met())
    assert (c.end_loses(), c.auto_end()) == (py.end_loses(), py.auto_end())
    assert (c.dead_mask(), c.dead_card()) == (py.dead_mask(), py.dead_card())
    assert c.reach() == py.reach()
    assert c.stuck_ahead() == py.stuck_ahead()
    assert c.turn_cut() == turn_cut(py)
    assert c.evaluate() == py.evaluate()
    assert c.snapshot() == py.snapshot()


def walk_kernels(
    py: Kernel,
    c: CKernel,
    rng: random.Random,
    check: Callable[[Kernel, CKernel], None],
    pick: Callable[[list[tuple[int, int, int]]], tuple[int, int, int]],
) -> int:
    """Walk both kernels through one random game: ``check`` at every
    position, ``same_position`` after each action and after undoing it; the
    turn ends with chance 0.4 when it may, else ``pick`` chooses among the
    Python kernel's moves. Returns the positions checked."""
    seen = 0
    while True:
        check(py, c)
        seen += 1
        moves = py.moves()
        if py.won():
            break
        if py.t > 0 and py.can_end() and (not moves or rng.random() < 0.4):
            undo_p, undo_c = py.end_turn(), c.end_turn()
            same_position(py, c)
            py.unend_turn(undo_p)
            c.unend_turn(undo_c)
            same_position(py, c)
            py.end_turn()
            c.end_turn()
            continue
        if not moves:
            break  # stuck (Extreme: no turn keeps the commands, X5)
        _, card, pile = pick(moves)
        saved_p, saved_c = py.play(card, pile), c.play(card, pile)
        same_position(py, c)
        py.unplay(card, pile, saved_p)
        c.unplay(card, pile, saved_c)
        same_position(py, c)
        py.play(card, pile)
        c.play(card, pile)
    return seen


def engine_paths(state: GameState, depth: int) -> int:
    """Play sequences of exactly ``depth`` plays; a legal turn end may come
    between plays (it is not a play). A game that is over has none."""
    if depth == 0:
        return 1
    total = 0
    for p in state.legal_plays():
        after = state.copy()
        after.play(p.card, p.pile)
        total += engine_paths(after, depth - 1)
        if depth > 1 and not after.over and after.can_end_turn():
            ended = after.copy()
            ended.end_turn()
            if not ended.over:
                total += engine_paths(ended, depth - 1)
    return total


def kernel_has_turn(k: Any) -> bool:
    """Rule C8 through the kernel's interface: some plays end the turn."""
    for c, pile in k.legal_plays():
        saved = k.play(c, pile)
        found = k.won() or k.can_end() or kernel_has_turn(k)
        k.unplay(c, pile, saved)
        if found:
            return True
    return False


def kernel_paths(k: Any, depth: int) -> int:
    """``engine_paths`` through the kernel; the kernel does not end a game
    itself, so a turn start with no legal turn (C8) is asked for here."""
    if depth == 0:
        return 1
    total = 0
    for c, pile in k.legal_plays():
        saved = k.play(c, pile)
        total += kernel_paths(k, depth - 1)
        if depth > 1 and not k.won() and k.can_end():
            undo = k.end_turn()
            if kernel_has_turn(k):
                total += kernel_paths(k, depth - 1)
            k.unend_turn(undo)
        k.unplay(c, pile, saved)
    return total
