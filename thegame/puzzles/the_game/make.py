"""Puzzles: a seeded deal, played by the frozen opening to a position that is
proven to have a perfect clear, with a rating and a verified solution.

The puzzle is the last position of the opening's path (12-36 cards left)
from which a perfect clear is still possible, found by a binary search of
decisions that are facts (a replayed line, or an exhausted search). The
steps in full: docs page games/puzzles.md ("Making a puzzle from a seed").
"""

from __future__ import annotations

from collections.abc import Iterator

from ...models import interrupt
from ...models.outcome import Limit, Status
from ...models.the_game import Deal, GameState, Rules, Turn, get_rules, variants
from ...solver.the_game.api import replay_actions
from ...solver.the_game.kernel import Action
from .files import Puzzle, PuzzleError
from .opening import policy_turn
from .rating import Oracle, Rating, rate

CARDS_LOW = 12  # candidates: positions with 12..36 cards left
CARDS_HIGH = 36
SELECT_NODES = 2_000_000
SELECT_LIMIT = Limit(nodes=SELECT_NODES)  # a node budget: the same on every machine
# The solver covers these; each makes solo puzzles (Extreme: 1 player, the
# deal's 28 commands in the file, X1).
VARIANTS: tuple[str, ...] = variants.names(puzzles=True)


def puzzle_deal(seed: int, rules: Rules) -> Deal:
    return Deal.from_seed(seed, rules, players=1, first=1)


def candidates(deal: Deal, low: int, high: int) -> list[tuple[GameState, list[Turn]]]:
    """The policy's turn-start positions with ``low..high`` cards left, in
    order, each with the opening turns that lead to it."""
    state = GameState(deal)
    turns: list[Turn] = []
    out: list[tuple[GameState, list[Turn]]] = []
    while state.cards_left() >= low:
        if state.cards_left() <= high:
            out.append((state.copy(), list(turns)))
        turn = policy_turn(state)
        if turn is None:
            break
        turns.append(turn)
    return out


def make_puzzle(
    seed: int,
    rules: Rules,
    low: int = CARDS_LOW,
    high: int = CARDS_HIGH,
    select: Limit = SELECT_LIMIT,
    oracle: Oracle | None = None,
) -> Puzzle | None:
    """The puzzle of ``seed``, or None (see the module notes); ``select``
    bounds each decision of the binary search."""
    puzzle = _make_puzzle(seed, rules, low, high, select, oracle)
    # Searches cut short by Ctrl-C prove nothing: no puzzle may come of them.
    if interrupt.requested():
        raise KeyboardInterrupt
    return puzzle


def _make_puzzle(
    seed: int,
    rules: Rules,
    low: int,
    high: int,
    select: Limit,
    oracle: Oracle | None,
) -> Puzzle | None:
    deal = puzzle_deal(seed, rules)
    path = candidates(deal, low, high)
    if not path:
        return None

    oracle = oracle or Oracle()

    def wins(i: int) -> bool | None:
        return oracle.wins(path[i][0], select)

    first = wins(0)
    if not first:
        return None
    lo, hi = 0, len(path)  # path[lo] wins; path[hi] (if any) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = wins(mid)
        if verdict is None:
            return None
        if verdict:
            lo = mid
        else:
            hi = mid
    state, opening_turns = path[lo]
    rating = rate(state, oracle)
    if rating is None:
        return None
    return finish(deal, opening_turns, state, rating.line, rating, seed)


def finish(
    deal: Deal,
    opening_turns: list[Turn],
    state: GameState,
    line: list[Action],
    rating: Rating,
    seed: int | None,
    date: str | None = None,
) -> Puzzle:
    """Build the puzzle and verify that its solution replays to a win."""
    solution, final = replay_actions(state, line)
    if final.status != Status.WON:
        raise PuzzleError("the canonical line does not win", "solution")
    puzzle = Puzzle(
        deal, tuple(opening_turns), tuple(solution), rating.to_dict(), seed, date, rating
    )
    puzzle.verify()
    return puzzle


def generate(
    variant: str, seed_start: int = 1, low: int = CARDS_LOW, high: int = CARDS_HIGH
) -> Iterator[tuple[int, Puzzle | None]]:
    """Candidates from seeds ``seed_start, seed_start + 1, ...`` without end:
    ``(seed, puzzle or None)``."""
    rules = get_rules(variant)
    seed = seed_start
    while True:
        yield seed, make_puzzle(seed, rules, low, high)
        seed += 1
