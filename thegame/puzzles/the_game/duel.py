"""Face to Face endgame puzzles (rules D1-D7): a position of a played duel
where the player to move forces a win within a few of their own turns and
only a few of their turns do.

Made deterministically (node budgets, never the clock) from the policy's
duel of a seed; the solution replays through the rules engine. The steps
and the rating: docs page games/puzzles.md ("Face to Face endgame puzzles").
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...models import Verdict, interrupt
from ...models.outcome import OutOfBudget
from ...models.the_game import Deal, GameState, Play, Rules, Turn, get_rules
from ...solver.the_game.duel import ccore
from ...solver.the_game.duel.api import check_duel, replay_duel
from ...solver.the_game.duel.api import policy_duel as api_policy_duel
from ...solver.the_game.duel.nodes import NO_TURN, WINS_NOW, undominated
from ...solver.the_game.duel.position import CUR, DuelGame, Plays, Pos
from ...solver.the_game.duel.search import DuelSearch
from .files import Puzzle, PuzzleError
from .rating import label_for

VARIANT = "face-to-face"
MAX_DEPTH = 3  # the mover's turns to the win, at most
MAX_WINNING = 3  # winning first turns, at most
MIN_CHOICES = 6  # undominated first turns, at least
LOOK_BACK = 10  # candidates: the turn starts of the policy's last 10 turns
NODES = 2_000  # node expansions per candidate
DEPTH_WEIGHT = 30
BITS_WEIGHT = 8

Child = tuple[Pos, int, bool]  # position after, ordering score, opponent has a turn


class Endgame:
    """Depth-limited exact search over whole turns: whether the player to
    move forces a win within ``n`` of their own turns (rules D2-D6)."""

    def __init__(self, game: DuelGame, nodes: int = NODES) -> None:
        self.game = game
        self.nodes = 0
        self.limit = nodes
        self.memo: dict[tuple[Pos, int], bool] = {}
        self._compiled = ccore.compiled(game)
        self._search = DuelSearch(game) if self._compiled is None else None

    def expand(self, pos: Pos) -> tuple[int, list[Child]]:
        """``NO_TURN``, ``WINS_NOW`` (a turn plays every card, D6) or the
        undominated turn results, best first by the search's order."""
        self.nodes += 1
        if self.nodes > self.limit or interrupt.requested():
            raise OutOfBudget  # nothing is proven
        if self._compiled is not None:
            status, kids = self._compiled.expand(pos)
            return status, sorted(kids, key=lambda k: k[1])
        assert self._search is not None
        children = self.game.turns(pos)
        if not children:
            return NO_TURN, []
        if any(after is None for _plays, after in children):
            return WINS_NOW, []
        out: list[Child] = []
        for plays, after in undominated(self.game, pos, children):
            assert after is not None
            score = self._search.score(pos, plays, after)
            out.append((after, score, self.game.has_turn(after)))
        return 2, sorted(out, key=lambda k: k[1])

    def wins_within(self, pos: Pos, n: int) -> bool:
        """Whether the mover at ``pos`` forces a win within ``n`` own turns."""
        if n < 1:
            return False
        key = (pos, n)
        got = self.memo.get(key)
        if got is not None:
            return got
        status, kids = self.expand(pos)
        if status == NO_TURN:
            value = False  # D6: no legal turn, the mover loses
        elif status == WINS_NOW:
            value = True  # D6: every card played
        else:
            value = any(self.turn_wins(after, stuck, n) for after, _s, stuck in kids)
        self.memo[key] = value
        return value

    def turn_wins(self, after: Pos, opponent_moves: bool, n: int) -> bool:
        """Whether the mover's turn to ``after`` forces the win within ``n``
        of their turns (this one included)."""
        if not opponent_moves:
            return True  # D6: the opponent has no legal turn
        if n < 2:
            return False
        status, replies = self.expand(after)
        if status == WINS_NOW:
            return False  # the opponent plays every card (D6)
        return all(self.wins_within(reply, n - 1) for reply, _s, _t in replies)

    def depth(self, pos: Pos, most: int = MAX_DEPTH) -> int | None:
        """The fewest own turns in which the mover forces the win (None:
        not within ``most``)."""
        for n in range(1, most + 1):
            if self.wins_within(pos, n):
                return n
        return None

    def line(self, pos: Pos, n: int) -> list[tuple[int, Plays]]:
        """A winning line from ``pos`` (won within ``n``): the mover's first
        winning turn in the search's order, the reply that resists longest
        (the most turns still needed, then the search's order), and so on
        to the end of the duel."""
        game = self.game
        mover = pos[CUR]
        turns = {after: plays for plays, after in game.turns(pos)}
        if None in turns:
            return [(mover, turns[None])]  # D6: every card played
        _status, kids = self.expand(pos)
        for after, _s, moves in kids:
            if not self.turn_wins(after, moves, n):
                continue
            first = [(mover, turns[after])]
            if not moves:
                return first  # the opponent is left without a turn
            replies = {a: p for p, a in game.turns(after)}
            if None in replies:
                raise PuzzleError("a reply wins at once after a winning turn", "solution")
            _st, kids2 = self.expand(after)
            worst = max(kids2, key=lambda k: (self.depth(k[0], n - 1) or n, -k[1]))
            return [*first, (1 - mover, replies[worst[0]]), *self.line(worst[0], n - 1)]
        raise PuzzleError("no winning turn to follow", "solution")


@dataclass
class DuelPuzzleResult:
    """A duel endgame: the position, its winning turns, rating, solution."""

    deal: Deal
    opening: list[Turn]
    state: GameState
    depth: int
    choices: list[tuple[Play, ...]]  # the undominated first turns
    winning: list[tuple[Play, ...]]  # those that force the win within depth
    solution: list[Turn]
    nodes: int
    seconds: float
    details: dict[str, Any] = field(default_factory=dict)


def undominated_turns(state: GameState) -> list[tuple[Plays, Pos | None]]:
    """The mover's undominated whole turns at a turn start (the search's)."""
    game = check_duel(state.deal)
    pos = game.from_state(state)
    return undominated(game, pos, game.turns(pos))


def winning_turns(
    state: GameState, depth: int, nodes: int = NODES
) -> list[tuple[Play, ...]] | None:
    """The mover's undominated turns that force a win within ``depth`` of
    their turns (None: the node budget ran out)."""
    game = check_duel(state.deal)
    eg = Endgame(game, nodes)
    try:
        return _winning(eg, state, depth)
    except OutOfBudget:
        return None


def _winning(
    eg: Endgame, state: GameState, depth: int, most: int | None = None
) -> list[tuple[Play, ...]]:
    """The winning turns; with ``most``, it stops after ``most + 1``."""
    out = []
    for plays, after in undominated_turns(state):
        if after is None or eg.turn_wins(after, eg.game.has_turn(after), depth):
            out.append(tuple(Play(c, p) for c, p in plays))
            if most is not None and len(out) > most:
                break
    return out


def duel_puzzle_deal(seed: int, rules: Rules | None = None) -> Deal:
    """The deal of ``seed``: the printed game, or ``rules`` (a generalised
    duel, D7)."""
    return Deal.from_seed(seed, rules or get_rules(VARIANT), players=2, first=1)


def policy_duel(deal: Deal) -> tuple[list[GameState], list[Turn]]:
    """The fixed policy's duel: its turn starts and its turns."""
    played = api_policy_duel(GameState(deal))
    return [start for start, _ in played], [turn for _, turn in played]


def find_endgame(
    deal: Deal, look_back: int = LOOK_BACK, nodes: int = NODES
) -> DuelPuzzleResult | None:
    """The puzzle of the policy's duel on ``deal`` (see the module notes)."""
    t0 = time.monotonic()
    game = check_duel(deal)
    starts, turns = policy_duel(deal)
    final = starts[-1].copy() if starts else None
    if final is not None:
        for p in turns[-1].plays:
            final.play(p.card, p.pile)
        if not final.over:
            final.end_turn()
    first = max(0, len(starts) - look_back)
    for i in range(first, len(starts)):
        state = starts[i]
        if final is None or state.current + 1 != final.winner:
            # A choice of where to look, not a claim: the policy duel's
            # winner is the side likely to have a forced win near its end.
            continue
        pos = game.from_state(state)
        eg = Endgame(game, nodes)
        try:
            kids = undominated_turns(state)
            if len(kids) < MIN_CHOICES:
                continue
            depth = eg.depth(pos)
            if depth is None:
                continue
            winning = _winning(eg, state, depth, MAX_WINNING)
            if not 0 < len(winning) <= MAX_WINNING:
                continue
            line = eg.line(pos, depth)
        except OutOfBudget:
            if interrupt.requested():
                raise KeyboardInterrupt from None
            continue
        solution, final = replay_duel(state, line)
        if final.winner != state.current + 1:
            raise PuzzleError("the solution does not replay to the mover's win", "solution")
        choices = [tuple(Play(c, p) for c, p in plays) for plays, _after in kids]
        return DuelPuzzleResult(
            deal, turns[:i], state, depth, choices, winning, solution, eg.nodes,
            time.monotonic() - t0, {"candidate": i + 1},
        )  # fmt: skip
    return None


def rating(depth: int, choices: int, winning: int) -> dict[str, Any]:
    """The difficulty (see the module notes)."""
    bits = math.log2(choices / winning)
    score = min(100, round(DEPTH_WEIGHT * (depth - 1) + BITS_WEIGHT * bits))
    return {
        "label": label_for(score),
        "score": score,
        "depth": depth,
        "choices": choices,
        "winning": winning,
        "choice_bits": round(bits, 2),
        "how": f"{DEPTH_WEIGHT} x (depth - 1) + {BITS_WEIGHT} x log2(choices / winning), "
        "at most 100",
    }


def make_duel_puzzle(seed: int, nodes: int = NODES, rules: Rules | None = None) -> Puzzle | None:
    """The duel puzzle of ``seed``, or None (see the module notes)."""
    found = find_endgame(duel_puzzle_deal(seed, rules), nodes=nodes)
    if interrupt.requested():
        raise KeyboardInterrupt
    if found is None:
        return None
    puzzle = Puzzle(
        found.deal,
        tuple(found.opening),
        tuple(found.solution),
        rating(found.depth, len(found.choices), len(found.winning)),
        seed,
        verdict=Verdict.WIN,
        answers=tuple(Turn(found.state.current + 1, w) for w in found.winning),
        stats={"nodes": found.nodes, "seconds": round(found.seconds, 3)},
    )
    puzzle.verify()
    return puzzle


def generate_duel(seed_start: int = 1) -> Iterator[tuple[int, Puzzle | None]]:
    """Duel puzzles from seeds ``seed_start, seed_start + 1, ...`` without end."""
    seed = seed_start
    while True:
        yield seed, make_duel_puzzle(seed)
        seed += 1
