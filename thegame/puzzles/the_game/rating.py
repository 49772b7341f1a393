"""Difficulty of a puzzle position, measured by the solver.

The rating walks the canonical solution and decides every option at each
step: ``bits`` (how much a player must get right), ``traps`` (losing
options that look good, with their depth) and ``effort`` (the solver's
nodes), folded into a score of 0-100 and a label. The full specification,
Extreme included, is on the docs page games/puzzles.md ("The rating").
An ``Oracle`` caches the decisions of one deal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...models.outcome import Limit, Status, Verdict
from ...models.the_game import Command, GameState, Play
from ...solver.the_game import ckernel
from ...solver.the_game.api import kernel_of, search_position
from ...solver.the_game.dfs import Searcher
from ...solver.the_game.extreme.kernel import ExtremeKernel
from ...solver.the_game.kernel import END, Action
from .opening import play_cost, policy_depth, unplayed_cards

if TYPE_CHECKING:
    from ...solver.the_game._ckernel import DeadSet

LABELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
# Lowest score of each label after ``easy``.
THRESHOLDS: tuple[int, ...] = (25, 45, 65)
W_BITS = 1.0
W_TRAP = 2.0
W_DEPTH = 0.2
W_EFFORT = 4.0
SCALE = 100.0
TRAP_COST = 0  # a play of at most this cost looks good

DECIDE_NODES = 200_000  # per decision; undecided options are counted apart
DECIDE_LIMIT = Limit(nodes=DECIDE_NODES)
QUICK_NODES = 2_000  # the solver's own search first
EFFORT_NODES = 1_000_000  # the effort term's search (capped there)


def label_for(score: float) -> str:
    for name, low in zip(LABELS[1:][::-1], THRESHOLDS[::-1], strict=True):
        if score >= low:
            return name
    return LABELS[0]


def score_for(bits: float, traps: int, depth_sum: int, nodes: int) -> int:
    raw = W_BITS * bits + W_TRAP * traps + W_DEPTH * depth_sum + W_EFFORT * math.log10(1 + nodes)
    return round(100 * (1 - math.exp(-raw / SCALE)))


@dataclass
class Trap:
    step: int  # index of the step on the canonical line
    action: Action  # END or (card, pile)
    depth: int


@dataclass
class Rating:
    score: int
    label: str
    line: list[Action]  # the canonical solution (END after every turn)
    steps: int
    bits: float
    only_moves: int
    options: list[tuple[int, int]]  # (options, winning options) per step
    traps: list[Trap] = field(default_factory=list)
    nodes: int = 0
    undecided: int = 0  # options the budget left open (counted as winning)

    @property
    def trap_depth(self) -> int:
        return max((t.depth for t in self.traps), default=0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "score": self.score,
            "steps": self.steps,
            "bits": round(self.bits, 2),
            "only_moves": self.only_moves,
            "traps": len(self.traps),
            "trap_depth": self.trap_depth,
            "trap_depth_sum": sum(t.depth for t in self.traps),
            "nodes": self.nodes,
        }


def position_key(state: GameState) -> tuple[object, ...]:
    """The position up to what cannot matter for a perfect clear.

    Piles of one direction are interchangeable (with their fire deadlines),
    and the plays of the current turn matter only up to its minimum.
    """
    if state.rules.commands:
        return _extreme_key(state)
    rules = state.rules
    marked = []
    for i, top in enumerate(state.tops):
        pending = top in rules.fire_cards and state.top_turn[i] < state.turn
        marked.append((top, pending))
    return _key(state, marked, min(len(state.placed), state.turn_min), ())


def _extreme_key(state: GameState) -> tuple[object, ...]:
    """``position_key`` of an Extreme position (rules X), as the Extreme
    kernel's memo key argues it: piles of one direction are interchangeable
    together with whether this turn's cards went onto them (X4b), the
    commands of this turn's plays bind the rest of it (stop X3a, three
    X3c), and the play count matters up to max(m, 3) (X3c: exactly 3). What
    shows (X4) is read from the tops; a skull on top was laid this turn
    (an older one would have lost the game, X3b)."""
    piles = {p.pile for p in state.plays_this_turn}
    marked = [(top, i in piles) for i, top in enumerate(state.tops)]
    played = frozenset(state.deal.command(p.card) for p in state.plays_this_turn)
    count = min(len(state.placed), max(state.turn_min, 3))
    binding = (Command.STOP, Command.THREE)
    return _key(state, marked, count, tuple(sorted(k for k in played if k in binding)))


def _key(
    state: GameState, marked: list[tuple[int, bool]], count: int, turn: tuple[str, ...]
) -> tuple[object, ...]:
    """The key from the marked tops (sorted per direction), the hands, the
    draw piles, whose turn, the capped play count and the turn's commands."""
    n = state.rules.asc_piles
    return (
        tuple(sorted(marked[:n])),
        tuple(sorted(marked[n:])),
        tuple(tuple(sorted(h)) for h in state.hands),
        tuple(state.stock_pos),
        state.current,
        count,
        *((turn,) if state.rules.commands else ()),
        state.status,
    )


class _Memo(set[tuple[int, ...]]):
    """The dead-position memo of one search, backed by a shared one.

    A kernel key with no play made in the turn (last field 0) proven dead
    is a fact about the position: every search of the deal may reuse it.
    Keys inside a turn are proven under the search's solo turn cap (rule
    C4 turn splitting, argued in ``Kernel._max_turn``), which depends on
    where that search started, so they stay local.
    """

    def __init__(self, shared: set[tuple[int, ...]]) -> None:
        super().__init__()
        self.shared = shared

    def add(self, key: tuple[int, ...]) -> None:
        if key[-1] == 0:
            self.shared.add(key)
        else:
            super().add(key)

    def __contains__(self, key: object) -> bool:
        return key in self.shared or super().__contains__(key)


class Oracle:
    """Cached decisions "a perfect clear is still possible" for positions of
    one deal; searches share the positions proven dead at a turn start."""

    def __init__(self, limit: Limit = DECIDE_LIMIT) -> None:
        self.limit = limit
        self.cache: dict[tuple[object, ...], bool | None] = {}
        self.dead: set[tuple[int, ...]] = set()
        self.c_dead: DeadSet | None = None  # the same, for the compiled search
        self.nodes = 0

    def wins(self, state: GameState, limit: Limit | None = None) -> bool | None:
        """True / False when decided, None when the budget (``limit``, else
        the oracle's) ran out.

        First the solver's own search with a small budget (its beam finds
        most wins at once), then, for the rest, a limited-discrepancy DFS
        without the beam (cheaper on losses) that shares the dead memo.
        """
        if state.over:
            return state.status == Status.WON
        key = position_key(state)
        if key in self.cache:
            return self.cache[key]
        kernel = kernel_of(state)  # Extreme's knows the commands (X)
        if kernel.unplayed == 0:
            # Every card is down in this turn: ending it clears (C7), unless
            # a command forbids the end (X3b, X3c), and then nothing can.
            return kernel.won()
        quick = search_position(state, Limit(nodes=QUICK_NODES), optimize=False)
        self.nodes += quick.stats.nodes
        if quick.verdict == Verdict.WIN:
            self.mark_line(state, quick.actions)
            return True
        if quick.verdict == Verdict.LOSS:
            self.cache[key] = False
            return False
        limit = limit or self.limit
        if isinstance(kernel, ExtremeKernel) and not ckernel.use_compiled(kernel):
            # The Extreme kernel has no solo turn cap (``max_turn`` is INF,
            # see its module notes), so every position its complete search
            # proves dead, inside a turn or not, is a fact about the
            # position: all of them are shared.
            searcher = Searcher(kernel, limit, None)
            searcher.dead = self.dead
            res = searcher.run()
        elif ckernel.use_compiled(kernel):
            # The same search in C, sharing turn-start dead positions as _Memo
            # does (Extreme: all of them, as the branch above).
            if self.c_dead is None:
                self.c_dead = ckernel.new_dead_set(kernel)
            res, _ = ckernel.search(kernel, limit, None, play_level=True, shared=self.c_dead)
        else:
            searcher = Searcher(kernel, limit, None)
            searcher.dead = _Memo(self.dead)
            res = searcher.run()
        self.nodes += res.stats.nodes
        if res.win:
            self.mark_line(state, res.actions)
            return True
        verdict = False if res.proven else None
        self.cache[key] = verdict
        return verdict

    def mark_line(self, state: GameState, actions: list[Action]) -> None:
        """Every position on a winning line is winning (replayed by the engine)."""
        s = state.copy()
        self.cache[position_key(s)] = True
        for a in actions:
            if a == END:
                if s.over:
                    break
                s.end_turn()
            else:
                s.play(*a)
            self.cache[position_key(s)] = True


def child(state: GameState, action: Action) -> GameState:
    s = state.copy()
    if action == END:
        s.end_turn()
    else:
        s.play(*action)
    return s


def options(state: GameState) -> list[tuple[Action, GameState]]:
    """Distinct options from ``state`` in canonical order: END, then plays by
    (cost, card, pile). Options reaching the same position count once."""
    out: list[tuple[Action, GameState]] = []
    seen: set[tuple[object, ...]] = set()
    if state.can_end_turn():
        s = child(state, END)
        seen.add(position_key(s))
        out.append((END, s))
    unplayed = unplayed_cards(state)
    plays = sorted(
        state.legal_plays(), key=lambda p: (play_cost(state, p, unplayed), p.card, p.pile)
    )
    for p in plays:
        s = child(state, (p.card, p.pile))
        key = position_key(s)
        if key in seen:
            continue
        seen.add(key)
        out.append(((p.card, p.pile), s))
    return out


def looks_good(state: GameState, action: Action) -> bool:
    if action == END:
        return True
    return play_cost(state, Play(*action), unplayed_cards(state)) <= TRAP_COST


Option = tuple[Action, GameState]


def _by_verdict(oracle: Oracle, opts: list[Option]) -> tuple[list[Option], list[Option], int]:
    """The options that keep a clear (or may: undecided ones count as
    winning), those that lose it, and how many the oracle left undecided."""
    winning: list[Option] = []
    losing: list[Option] = []
    undecided = 0
    for action, s in opts:
        verdict = oracle.wins(s)
        if verdict is None:
            undecided += 1
        if verdict is False:
            losing.append((action, s))
        else:
            winning.append((action, s))
    return winning, losing, undecided


def rate(state: GameState, oracle: Oracle | None = None) -> Rating | None:
    """Rate the position ``state`` (start of a turn or mid-turn).

    None when the position has no perfect clear (or the budget could not
    find one). The canonical line in the result replays to a win.
    """
    oracle = oracle or Oracle()
    state = state.copy()
    # Effort: the solver's own search (its node count is the effort term).
    first = search_position(state, Limit(nodes=EFFORT_NODES), optimize=False)
    oracle.nodes += first.stats.nodes
    if first.verdict == Verdict.WIN:
        oracle.mark_line(state, first.actions)
    elif not oracle.wins(state):
        return None
    line: list[Action] = []
    counts: list[tuple[int, int]] = []
    traps: list[Trap] = []
    seen_traps: set[object] = set()
    undecided = 0
    while not state.over:
        opts = options(state)
        winning, losing, unsure = _by_verdict(oracle, opts)
        undecided += unsure
        # The oracle's first answer says a clear exists, so some option wins
        # unless every winning option was undecided.
        step = len(line)
        counts.append((len(opts), len(winning)))
        for action, s in losing:
            # A trap counts once: the same losing play offered again at a
            # later step (or ending the same turn later) is not a new trap.
            trap_key = (END, state.turn) if action == END else action
            if trap_key not in seen_traps and looks_good(state, action):
                seen_traps.add(trap_key)
                traps.append(Trap(step, action, policy_depth(s)))
        if not winning:
            return None  # an undecided option taken earlier was lost
        decided = [w for w in winning if oracle.cache.get(position_key(w[1]), True) is True]
        action, state = (decided or winning)[0]
        line.append(action)
    if state.status != Status.WON:
        return None
    bits = sum(math.log2(n / w) for n, w in counts if w)
    only = sum(1 for n, w in counts if w == 1 and n > 1)
    depth_sum = sum(t.depth for t in traps)
    score = score_for(bits, len(traps), depth_sum, first.stats.nodes)
    return Rating(
        score=score,
        label=label_for(score),
        line=line,
        steps=len(counts),
        bits=bits,
        only_moves=only,
        options=counts,
        traps=traps,
        nodes=first.stats.nodes,
        undecided=undecided,
    )
