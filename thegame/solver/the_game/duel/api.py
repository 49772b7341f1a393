"""``solve_duel``: who wins a Face to Face deal under best play, with the
principal line replayed through the rules engine and each player's race alone;
where the search does not decide, the duel engine's estimate beside the
verdict ``unknown`` (``Estimate``, ``engine_answer``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ....models import IllegalMoveError, InvalidInputError, Limit, Status, Verdict, interrupt
from ....models.outcome import NO_LIMIT, OutOfBudget
from ....models.the_game import Deal, GameState, Play, Record, Turn
from ....models.the_game.record import replayed, turn_to_dict
from ..budget import DEFAULT_MEMORY_MIB, NO_NODE_LIMIT, node_limit
from ..solution import EngineName
from .engine import Answer, DuelEngine, bound_nodes
from .nodes import TABLE_LIMIT, DuelNodes, DuelStats
from .pns import NUMBERS_LIMIT, ProofNumberSearch
from .policy import check_duel as check_duel  # re-exported: the duel check
from .policy import first_guess as first_guess  # re-exported: the policy's old home
from .policy import policy_duel as policy_duel
from .position import DuelGame, Plays, Pos, solo_of
from .race import Race, race_alone

# Share of the budget the two races alone get (they are reports, not the verdict).
RACE_SHARE = 0.4
# Share of a start's budget the engine's estimate gets when the exact
# search leaves the start undecided (the search runs first on the rest).
ESTIMATE_SHARE = 0.25
# Playouts of an estimate when the budget has no time (a node limit only).
ESTIMATE_PLAYOUTS = 200
# Decides a turn start within a budget, in place of ``decide`` (``parallel.decider``).
Decider = Callable[[GameState, Limit], "DuelResult"]


class DuelSolverBug(RuntimeError):
    """A line the search reported did not replay as claimed: never a verdict."""


@dataclass
class Estimate:
    """The engine's estimate where no proof was reached: never a verdict.

    ``win_chance``: the share of ``playouts`` the player ``player`` won,
    through the turn the engine would play (``turn``); ``turns``: the
    engine's principal line from there while its tree is thick, replayed
    through the rules engine."""

    player: int  # 1-based: whose chance
    win_chance: float
    playouts: int
    turn: Turn | None
    turns: list[Turn]
    seconds: float

    def to_dict(self, rules: Any) -> dict[str, Any]:
        return {
            "player": self.player,
            "win_chance": round(self.win_chance, 3),
            "playouts": self.playouts,
            "turn": None if self.turn is None else turn_to_dict(rules, self.turn),
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            "seconds": round(self.seconds, 3),
        }

    def summary(self) -> str:
        """One line for the terminal, labelled as an estimate."""
        return (
            f"estimate (not a proof): player {self.player} wins {self.win_chance:.0%} of "
            f"{self.playouts:,} playouts"
        )


@dataclass
class DuelResult:
    """The verdict for one starting player (``first``, 1-based); solved
    from a later position (``at_turn``, 1-based), ``first`` is the player
    to move there."""

    deal: Deal
    first: int
    verdict: Verdict  # from the starting player's view
    winner: int | None  # 1-based; None only when unknown
    proof: str | None
    turns: list[Turn]
    nodes: int
    seconds: float
    details: dict[str, int] = field(default_factory=dict)
    estimate: Estimate | None = None  # only with the verdict unknown
    at_turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        rules = self.deal.rules
        out: dict[str, Any] = {
            "variant": rules.name,
            "first": self.first,
            "winner": self.winner,
            "verdict": self.verdict,
            "proof": self.proof,
            "turns": [turn_to_dict(rules, t) for t in self.turns],
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4), **self.details},
        }
        if self.at_turn is not None:
            out["at_turn"] = self.at_turn
        if self.estimate is not None:
            out["estimate"] = self.estimate.to_dict(rules)
        return out


@dataclass
class DuelSolution:
    """``solve_duel``: one result per start tried and both races alone;
    ``solve_duel_at``: the result from a record's position (``played``: the
    turns the record holds)."""

    deal: Deal
    results: list[DuelResult]
    races: list[Race]
    seconds: float
    played: tuple[Turn, ...] = ()

    def record(self) -> Record:
        """The duel as a record: the turns played, then the line found (one
        start only)."""
        if len(self.results) != 1:
            raise InvalidInputError("--save needs one start: give --first 1 or --first 2")
        res = self.results[0]
        first = res.first if res.at_turn is None else self.deal.first
        return Record(self.deal.with_first(first), (*self.played, *res.turns), full_view=True)

    @property
    def nodes(self) -> int:
        """Every position examined: the races', each start's (its bounds'
        and its estimate's included)."""
        return sum(r.nodes for r in self.races) + sum(r.nodes for r in self.results)

    @property
    def stopped_early(self) -> bool:
        """Whether the budget cut a figure: a start unknown or a race unproven."""
        unknown = any(r.verdict == Verdict.UNKNOWN for r in self.results)
        return unknown or not all(r.proven for r in self.races)

    def to_dict(self) -> dict[str, Any]:
        races = [r.to_dict() for r in self.races]
        cut = {"stopped_early": True} if self.stopped_early else {}
        if len(self.results) == 1:
            out = {**self.results[0].to_dict(), "race": races, **cut}
            # Its own positions stay in ``start_nodes``; ``nodes`` is the whole budget's.
            stats = out["stats"]
            out["stats"] = {**stats, "nodes": self.nodes, "start_nodes": stats["nodes"]}
            return out
        return {
            "variant": self.deal.rules.name,
            "first": None,
            "starts": [r.to_dict() for r in self.results],
            "race": races,
            **cut,
            "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


def race_deadline(start: float, limit: Limit, p: int) -> float | None:
    """When player p's race alone (0-based, run in turn) must stop: the first
    by half the races' share of the budget, the second by the whole share,
    so that it also gets what the first left."""
    if limit.time is None:
        return None
    return start + limit.time * RACE_SHARE * (p + 1) / 2


@interrupt.polled
def solve_duel(
    deal: Deal, limit: Limit = NO_LIMIT, races: bool = True, decider: Decider | None = None
) -> DuelSolution:
    """Decide the duel for the deal's start, or for each start when it is
    free (rule C3; the printed game draws the start by lot); ``decider`` as
    ``decide_or_estimate`` takes it."""
    game = check_duel(deal)
    start = time.monotonic()
    deadline = limit.deadline(start)
    race_list: list[Race] = []
    if races:
        race_nodes = None if limit.nodes is None else max(1, int(limit.nodes * RACE_SHARE / 2))
        pos = game.start(1)
        for p in (0, 1):
            race_list.append(
                race_alone(game, p, solo_of(pos, p), race_nodes, race_deadline(start, limit, p))
            )
    firsts = deal.starting_players()
    results: list[DuelResult] = []
    # One table for both starts: after a turn each, positions of the two
    # starts meet whenever neither turn touched the other's piles.
    shared = session(deal)
    used = sum(r.nodes for r in race_list)
    for n, first in enumerate(firsts):
        share_nodes = None
        if limit.nodes is not None:
            share_nodes = max(1, (limit.nodes - used) // (len(firsts) - n))
        share_deadline = None
        if deadline is not None:
            now = time.monotonic()
            share_deadline = now + max(0.0, deadline - now) / (len(firsts) - n)
        state = GameState(deal, first=first)
        res = decide_or_estimate(state, limit, share_nodes, share_deadline, shared, decider=decider)
        used += res.nodes
        results.append(res)
    return DuelSolution(deal, results, race_list, time.monotonic() - start)


@interrupt.polled
def solve_duel_at(
    record: Record, limit: Limit = NO_LIMIT, decider: Decider | None = None
) -> DuelSolution:
    """``solve_duel`` from the position a record reaches (its turns as
    played): who wins from there, for the player to move, with the engine's
    estimate when the search does not decide it."""
    game = check_duel(record.deal)
    start = time.monotonic()
    state = replayed(record)
    if state.over:
        raise InvalidInputError(f"the duel is over ({state.reason})", "record")
    deadline = limit.deadline(start)
    race_list: list[Race] = []
    pos = game.from_state(state)
    race_nodes = None if limit.nodes is None else max(1, int(limit.nodes * RACE_SHARE / 2))
    for p in (0, 1):
        race_list.append(
            race_alone(game, p, solo_of(pos, p), race_nodes, race_deadline(start, limit, p))
        )
    used = sum(r.nodes for r in race_list)
    nodes = None if limit.nodes is None else max(1, limit.nodes - used)
    res = decide_or_estimate(state, limit, nodes, deadline, session(record.deal), decider=decider)
    res.at_turn = len(record.turns) + 1
    return DuelSolution(record.deal, [res], race_list, time.monotonic() - start, record.turns)


class DuelSearchEngine:
    """Face to Face behind the ``Engine`` protocol: who wins the duel under
    best play, searched over whole turns (``solve_duel``), for a deal's
    start or a record's position (``solve_record``)."""

    name = EngineName.DFS

    def covers(self, deal: Deal) -> bool:
        try:
            check_duel(deal)
        except InvalidInputError:
            return False
        return True

    def solve(self, deal: Deal, limit: Limit) -> DuelSolution:
        return solve_duel(deal, limit)

    def solve_record(
        self, record: Record, limit: Limit, decider: Decider | None = None
    ) -> DuelSolution:
        if record.turns:
            return solve_duel_at(record, limit, decider)
        return solve_duel(record.deal, limit, decider=decider)


def decide_or_estimate(
    state: GameState,
    limit: Limit,
    nodes: int | None,
    deadline: float | None,
    search: ProofNumberSearch,
    engine: DuelEngine | None = None,
    share: float = ESTIMATE_SHARE,
    decider: Decider | None = None,
) -> DuelResult:
    """``decide`` on most of the budget (``nodes`` positions in all, every
    position counted, and ``deadline``); when it ends unknown, the engine's
    estimate on the rest (``share`` of it) on the same table (``engine``: one
    whose search is ``search``, to keep its tree). With neither budget the
    estimate gets ``ESTIMATE_PLAYOUTS`` playouts. ``decider``: decides a
    turn start instead of ``decide`` (``parallel.decider``: the race of two
    worker processes, whose tables stay theirs: ``search`` keeps none of it)."""
    exact_deadline = deadline
    if deadline is not None:
        left = max(0.0, deadline - time.monotonic())
        exact_deadline = deadline - left * share
    exact_nodes = None if nodes is None else max(1, int(nodes * (1 - share)))
    exact = Limit(None, exact_nodes, limit.progress, limit.memory)
    if decider and not state.over and search.game.turn_under_way(state) == (0, False):
        wall = None if exact_deadline is None else max(0.0, exact_deadline - time.monotonic())
        res = decider(state, replace(exact, time=wall))
    else:
        res = decide(state, exact, exact_deadline, search, whole=True)
    if res.verdict != Verdict.UNKNOWN or interrupt.requested():
        return res
    if engine is None:
        engine = DuelEngine(search.game, search)
    elif engine.search is not search:
        raise ValueError("the engine must run on the same search")
    seconds = None if deadline is None else max(0.001, deadline - time.monotonic())
    rest = None if nodes is None else max(1, nodes - res.nodes)
    playouts = ESTIMATE_PLAYOUTS if rest is None and seconds is None else None
    answer = engine_answer(state, Limit(seconds, rest, limit.progress), engine, playouts)
    if answer.verdict != Verdict.UNKNOWN:
        # The engine's exact search settled what the search alone did not.
        answer.nodes += res.nodes
        return answer
    res.estimate = answer.estimate
    res.seconds += answer.seconds
    res.nodes += answer.nodes
    for key in ("search_nodes", "bound_nodes", "playout_turns"):
        res.details[key] = res.details.get(key, 0) + answer.details.get(key, 0)
    return res


def engine_for(deal: Deal, search: ProofNumberSearch | None = None) -> DuelEngine:
    """An engine for several questions on one deal (its tree and table stay)."""
    return DuelEngine(check_duel(deal), search if search is not None else session(deal))


@interrupt.polled
def engine_answer(
    state: GameState,
    limit: Limit,
    engine: DuelEngine | None = None,
    playouts: int | None = None,
) -> DuelResult:
    """The engine's answer from ``state`` (a turn start or inside a turn),
    for the player to move: ``win``/``loss`` when its exact search proves
    it (the line to the end, replayed, as ``decide`` gives), else
    ``unknown`` with the estimate (``Estimate``: the turn to play, its win
    chance and playouts, the line while the tree is thick, replayed).
    ``limit.time``: seconds; ``playouts``: at most that many;
    ``limit.nodes``: positions examined in all (``DuelEngine.work``); with
    no budget at all, ``ESTIMATE_PLAYOUTS`` playouts. ``nodes`` in the
    answer counts every position examined."""
    game = check_duel(state.deal)
    if engine is None:
        engine = engine_for(state.deal)
    elif engine.game != game:
        raise ValueError("an engine answers for its own deal only")
    mover = state.current + 1
    if state.over:
        return decide(state, limit)
    if limit.time is None and playouts is None and limit.nodes is None:
        playouts = ESTIMATE_PLAYOUTS
    pos = game.from_state(state)
    done, dumped = game.turn_under_way(state)
    turns0 = engine.stats.playout_turns
    answer = engine.think(pos, limit, playouts, done, dumped)
    details = {
        "tree": answer.tree,
        "search_nodes": answer.nodes,
        "bound_nodes": answer.work - answer.nodes - (engine.stats.playout_turns - turns0),
        "playout_turns": engine.stats.playout_turns - turns0,
    }
    if answer.proven:
        return _proven(state, answer, details)
    turns, _final = replay_duel(state, answer.line, to_end=False)
    est = Estimate(
        mover, answer.win_chance, answer.playouts, turns[0] if turns else None, turns,
        answer.seconds,
    )  # fmt: skip
    return DuelResult(
        state.deal, mover, Verdict.UNKNOWN, None, None, [], answer.work, answer.seconds,
        details, est,
    )  # fmt: skip


def _proven(state: GameState, answer: Answer, details: dict[str, int]) -> DuelResult:
    """The engine's proven answer, its line replayed to the end."""
    mover = state.current + 1
    win = answer.win_chance == 1.0
    turns, final = replay_duel(state, answer.line)
    winner = mover if win else 3 - mover
    if final.winner != winner:
        raise DuelSolverBug(f"the engine's line ends with winner {final.winner}, not {winner}")
    proof = (
        f"the duel engine's exact search inside its tree (MCTS-Solver): every turn of "
        f"player {3 - winner} refuted ({answer.nodes} positions visited by the exact "
        f"search, {answer.playouts} playouts)"
    )
    return DuelResult(
        state.deal, mover, Verdict.WIN if win else Verdict.LOSS, winner, proof, turns,
        answer.work, answer.seconds, details,
    )  # fmt: skip


@interrupt.polled
def decide(
    state: GameState,
    limit: Limit,
    deadline: float | None = None,
    search: ProofNumberSearch | None = None,
    whole: bool = False,
) -> DuelResult:
    """Who wins from ``state`` (a turn start or inside a turn) under best play.

    ``verdict`` is from the view of the player to move; the turns continue
    the game (the first may finish the turn under way). ``search``: one made
    by ``session`` for the same deal, to keep its table of proven positions
    from one question to the next (its statistics restart). ``whole``: the
    node budget and ``nodes`` count every position examined, the bounds'
    own searches' too (``bound_nodes``: what the entry points use);
    otherwise only the positions the search visits."""
    game = check_duel(state.deal)
    t0 = time.monotonic()
    if deadline is None:
        deadline = limit.deadline(t0)
    mover = state.current + 1
    if state.over:
        winner = state.winner
        verdict = Verdict.WIN if winner == mover else Verdict.LOSS
        return DuelResult(state.deal, mover, verdict, winner, state.reason, [], 0, 0.0)
    search = _ready(search, game, limit, deadline)
    pos = game.from_state(state)
    done, dumped = game.turn_under_way(state)
    base = bound_nodes(search) if whole else None
    if base is not None:
        search.progress = _whole_budget(search, limit, base)
    try:
        # The depth-first search and df-pn in turns on one table (``portfolio``):
        # each is far ahead of the other on some duels (README, RESULTS).
        win = search.portfolio(lambda: _root_wins(search, pos, done, dumped))
    except (OutOfBudget, WorkSpent):
        return DuelResult(
            state.deal, mover, Verdict.UNKNOWN, None, None, [], _nodes(search, base),
            time.monotonic() - t0, _details(search, base),
        )  # fmt: skip
    finally:
        search.progress = limit.progress
    # The line is read from the table; no budget applies to reading it.
    search.node_limit, search.deadline = NO_NODE_LIMIT, None
    line = _root_line(search, pos, done, dumped, win)
    turns, final = replay_duel(state, line)
    winner = mover if win else 3 - mover
    if final.winner != winner:
        raise DuelSolverBug(f"the principal line ends with winner {final.winner}, not {winner}")
    return DuelResult(
        state.deal,
        mover,
        Verdict.WIN if win else Verdict.LOSS,
        winner,
        _proof(search, winner),
        turns,
        _nodes(search, base),
        time.monotonic() - t0,
        _details(search, base),
    )


class WorkSpent(Exception):
    """A whole node budget (``decide(whole=True)``) ran out: raised from the
    search's progress call and caught by ``decide`` alone, so that the
    portfolio does not take it for the end of a slice."""


# The search reports progress every 8 positions: stop when 8 more of the
# mean cost would pass the budget, so that it is kept rather than overrun.
PROGRESS_EVERY = 8


def _whole_budget(search: DuelNodes, limit: Limit, base: int) -> Callable[[int], None]:
    """The search's progress call under a whole node budget: every
    position counted (the bounds' ``base`` and on), ``WorkSpent`` before
    the budget would be passed; ``limit.progress`` hears the whole count."""
    user = limit.progress

    def progress(visited: int) -> None:
        spent = visited + bound_nodes(search) - base
        ahead = PROGRESS_EVERY * spent // max(1, visited)
        if limit.nodes is not None and spent + ahead >= limit.nodes:
            raise WorkSpent
        if user is not None:
            user(spent)

    return progress


def _nodes(search: DuelNodes, base: int | None) -> int:
    """The positions a question examined: the search's (``base`` None), or
    every one, the bounds' included."""
    extra = 0 if base is None else bound_nodes(search) - base
    return search.stats.nodes + extra


def _ready(
    search: ProofNumberSearch | None, game: DuelGame, limit: Limit, deadline: float | None
) -> ProofNumberSearch:
    """The search for one question within ``limit``: a new one, or the
    session's (``search``) with its budget renewed and its table kept."""
    if search is None:
        search = ProofNumberSearch(game, limit.nodes, deadline)
    else:
        if search.game != game:
            raise ValueError("a search session answers for its own deal only")
        search.node_limit = node_limit(limit)
        search.deadline = deadline
        search.stats = DuelStats()
    search.progress = limit.progress
    search.table_limit, search.numbers_limit = scaled_limits(limit.memory)
    return search


def _proof(search: ProofNumberSearch, winner: int) -> str:
    """The proof of a settled duel, worded with the search's statistics."""
    s = search.stats
    dominated = f", {s.dominated} read by dominance between positions" if s.dominated else ""
    return (
        f"{search.settled_by} over whole turns: every turn of player {3 - winner} refuted "
        f"({s.nodes} positions visited, {len(search.tt)} in the table, "
        f"{s.bound_cuts} ended by the race bounds, "
        f"{s.survival_cuts} by the survival bounds{dominated})"
    )


def scaled_limits(memory: int | None) -> tuple[int, int]:
    """The table limits (proven positions, df-pn numbers) for ``memory`` MiB
    (None: the defaults, sized for ``DEFAULT_MEMORY_MIB``)."""
    mib = DEFAULT_MEMORY_MIB if memory is None else memory
    return TABLE_LIMIT * mib // DEFAULT_MEMORY_MIB, NUMBERS_LIMIT * mib // DEFAULT_MEMORY_MIB


def session(deal: Deal) -> ProofNumberSearch:
    """A search to pass to ``decide`` for several positions of one deal: the
    values it proves hold for every question (a position's value does not
    depend on how it was reached), so later questions start from them."""
    return ProofNumberSearch(check_duel(deal))


def _details(search: DuelNodes, base: int | None = None) -> dict[str, int]:
    s = search.stats
    counts = {}
    if base is not None:
        counts = {"search_nodes": s.nodes, "bound_nodes": bound_nodes(search) - base}
    return {
        **counts,
        "table": len(search.tt),
        "bound_cuts": s.bound_cuts,
        "survival_cuts": s.survival_cuts,
        "stuck_cuts": s.stuck_cuts,
        "dominated": s.dominated,
    }


def _root_wins(search: DuelNodes, pos: Pos, done: int, dumped: bool) -> bool:
    if done == 0 and not dumped:
        return search.wins(pos)
    # Inside a turn: the rest of the turn, then the opponent's position.
    return any(
        after is None or not search.wins(after)
        for _plays, after in search.game.turns(pos, done, dumped)
    )


def _root_line(
    search: DuelNodes, pos: Pos, done: int, dumped: bool, win: bool
) -> list[tuple[int, Plays]]:
    if done == 0 and not dumped:
        return search.line(pos)
    mover = pos[8]
    children = search.game.turns(pos, done, dumped)
    if not children:
        return []
    pick = children[0]
    for plays, after in children:
        if win and (after is None or not search.wins(after)):
            pick = (plays, after)
            break
    first = [(mover, pick[0])]
    return first if pick[1] is None else first + search.line(pick[1])


def replay_duel(
    state: GameState, line: list[tuple[int, Plays]], to_end: bool = True
) -> tuple[list[Turn], GameState]:
    """Play the line through the engine from ``state``; each turn must be
    legal and (``to_end``) the last must end the duel. A line that does not
    replay is a ``DuelSolverBug``, never a verdict."""
    s = state.copy()
    turns: list[Turn] = []
    for i, (player, plays) in enumerate(line):
        if s.over or s.current != player:
            raise DuelSolverBug(f"turn {i} of the line is not player {player + 1}'s")
        try:
            for card, pile in plays:
                s.play(card, pile)
            if not s.over:
                s.end_turn()
        except IllegalMoveError as err:
            raise DuelSolverBug(f"the line does not replay at turn {i}: {err}") from None
        # The first turn may finish a turn under way: record all its plays.
        made = tuple(u for u in state.plays_this_turn) if i == 0 else ()
        turns.append(Turn(player + 1, (*made, *(Play(c, p) for c, p in plays))))
    if not to_end:
        return turns, s
    if line and not s.over:
        raise DuelSolverBug("the principal line does not reach the end of the duel")
    if line and s.status not in (Status.WON, Status.LOST):
        raise DuelSolverBug("the line ends in no result")
    return turns, s
