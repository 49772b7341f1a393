"""What a played Face to Face duel teaches: every turn judged, the turn that
threw a won duel away, and the best next turn (rules D1-D7).

With both decks known the duel has a value at every turn start: the player
to move either has a forced win or a forced loss (``solver.the_game.duel``).
Where the exact search reaches, that value is proven; elsewhere the duel
engine (``duel.engine``) estimates the mover's win chance by its playouts.
``analyze_duel`` judges each turn by the player's win chance before it (the
engine's best turn) and after the turn played, and marks the drop
(``MARKS``). A turn that went from a proven win to a proven loss is the
proven mistake (``mistake``, the first one); an estimate never makes a
proven mistake.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...models import InvalidInputError, Limit, Verdict
from ...models.advice import Advice
from ...models.the_game import GameState, Play, Record, Turn
from ...models.the_game.notation import plays_text
from ...models.the_game.record import replayed, turn_to_dict
from ...models.the_game.state import pile_name
from ...solver.the_game.duel.api import (
    DuelResult,
    Estimate,
    decide,
    decide_or_estimate,
    engine_for,
    first_guess,
    session,
)
from ...solver.the_game.duel.engine import DuelEngine
from ...solver.the_game.duel.pns import ProofNumberSearch
from .duel_fair import FAIR_SAMPLES, FairJudgement, fair_review

POSITION_LIMIT = Limit(1.0)
HINT_LIMIT = Limit(5.0)
# The engine's share of a hint's time when the exact search does not decide,
# at most HINT_ENGINE_SECONDS: a longer hint gives the rest to the exact
# search, whose reach grows with its time (a minute: 50 s for the proof,
# 10 s for the estimate; the default 5 s: half each).
HINT_ENGINE_SHARE = 0.5
HINT_ENGINE_SECONDS = 10.0
# The engine's share of a position's time (the exact search has the rest
# first; a position it proves leaves its time to the earlier ones).
ENGINE_SHARE = 0.7
# The marks on a turn's drop in the player's win chance, largest first:
# (least drop, mark). Set from the estimates' noise at the default 1 s a
# position (``benchmarks/duel_engine.py --noise``: two estimates of the same
# position, some 90 playouts each, differed by 0.15 or more in 5 of 24
# positions, by 0.22 or more in 3, never by more than 0.25): a ``?!`` may
# be noise, a ``??`` is beyond the noise seen. A turn the engine would have
# played itself (the same position after it) is never marked.
MARKS = ((0.30, "??"), (0.22, "?"), (0.15, "?!"))


@dataclass
class DuelMistake:
    turn: int  # 0-based turn of the record
    player: int  # 1-based
    played: Turn
    better: Turn  # a winning turn instead
    line: list[Turn]  # the winning line from the position before the mistake
    proven: bool  # both verdicts (before and after) are proven by a complete search


@dataclass
class TurnJudgement:
    """One turn of the record judged: the player's win chance before it
    (with the engine's best turn) and after the turn played; each is 1 or 0
    when proven, else the engine's estimate from ``playouts`` playouts."""

    turn: int  # 0-based turn of the record
    player: int  # 1-based
    before: float
    after: float
    proven_before: bool
    proven_after: bool
    better: Turn | None  # the engine's turn at that position (None: the one played)
    playouts: int  # behind ``before`` (0 when proven)
    mark: str  # "", "?!", "?" or "??"

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    def to_dict(self, rules: Any) -> dict[str, Any]:
        return {
            "turn": self.turn + 1,
            "player": self.player,
            "win_chance_before": round(self.before, 3),
            "win_chance_after": round(self.after, 3),
            "proven_before": self.proven_before,
            "proven_after": self.proven_after,
            "drop": round(self.drop, 3),
            "mark": self.mark,
            "playouts": self.playouts,
            "better": None if self.better is None else turn_to_dict(rules, self.better),
        }


def mark_for(drop: float, proven: bool) -> str:
    """The mark of a drop in win chance (``MARKS``); a proven win thrown
    into a proven loss is always ``??``."""
    if proven:
        return "??"
    for least, mark in MARKS:
        if drop >= least:
            return mark
    return ""


@dataclass
class DuelAnalysis:
    record: Record
    # The verdict for the player to move at each turn start of the record
    # (and where it ends), with that player: win, loss or unknown.
    values: list[tuple[int, Verdict]] = field(default_factory=list)
    mistake: DuelMistake | None = None
    winner: int | None = None  # where the record ends, if it is over
    seconds: float = 0.0
    judgements: list[TurnJudgement] = field(default_factory=list)
    # The draw piles were in view (judged by hindsight alone); else each
    # turn is judged from what its player saw too (``fair``).
    full_view: bool = True
    fair: list[FairJudgement] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        rules = self.record.deal.rules
        m = self.mistake
        fair = {} if self.full_view else {
            "fair": [j.to_dict(rules) for j in self.fair], "fair_samples": FAIR_SAMPLES,
        }  # fmt: skip
        return {
            "variant": rules.name,
            "full_view": self.full_view,
            **fair,
            "hindsight": True,
            "values": [
                # The start of turn i + 1 (from 1, as on screen); after the
                # last turn of a finished duel, its end.
                {"turn": i + 1, "player": p, "verdict": v}
                for i, (p, v) in enumerate(self.values)
            ],
            "first_mistake": None
            if m is None
            else {
                "turn": m.turn + 1,
                "player": m.player,
                "played": turn_to_dict(rules, m.played),
                "better": turn_to_dict(rules, m.better),
                "proven": m.proven,
                "turns": [turn_to_dict(rules, t) for t in m.line],
            },
            "winner": self.winner,
            "review": [j.to_dict(rules) for j in self.judgements],
            "marks": {mark: least for least, mark in MARKS},
            "stats": {"seconds": round(self.seconds, 3)},
        }

    def review_lines(self) -> list[str]:
        """The judged turns as text lines, counted from 1 (for the terminal)."""
        rules = self.record.deal.rules
        out = []
        for j in self.judgements:
            played = self.record.turns[j.turn]
            text = (
                f"{j.turn + 1:>3} P{j.player} {_words(rules, played):<28} "
                f"{_pct(j.before, j.proven_before):>5} -> {_pct(j.after, j.proven_after):<5}"
                f" {j.mark:<2}"
            )
            if j.mark and j.better is not None:
                text += f"  better: {_words(rules, j.better)}"
            out.append(text.rstrip())
        return out

    def fair_lines(self) -> list[str]:
        """The turns judged from what their player saw, as text lines."""
        rules = self.record.deal.rules
        out = []
        for j in self.fair:
            played = self.record.turns[j.turn]
            text = (
                f"{j.turn + 1:>3} P{j.player} {_words(rules, played):<28} "
                f"{j.best:>4.0%} -> {j.played:<4.0%} {j.mark:<2}"
            )
            if j.mark and j.better is not None:
                text += f"  better: {_words(rules, j.better)}"
            out.append(text.rstrip())
        return out


def analyze_duel(
    record: Record,
    limit: Limit = POSITION_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    start_turn: int = 0,
    full_view: bool | None = None,
    jobs: int = 1,
) -> DuelAnalysis:
    """Judge every turn start of a duel record (see the module notes); the
    first ``start_turn`` turns are replayed without judging. ``full_view``
    (default: the record's): the draw piles were in view, so hindsight
    alone judges; otherwise each turn is judged from what its player saw
    too (``duel_fair``), on the same budget a turn start. ``jobs`` 2 or
    more: each turn start's proof raced by two worker processes
    (``decide_or_estimate``), each with a table of its own, so what one
    turn start proved is not known at the next."""
    t0 = time.monotonic()
    replayed(record)  # one line naming the first illegal step, if any
    states = _turn_starts(record)
    end = states[-1]
    view = record.full_view if full_view is None else full_view
    out = DuelAnalysis(record, winner=end.winner if end.over else None, full_view=view)
    if not view:
        half = _half(progress, 0)
        out.fair = fair_review(record, states, limit, mark_for, half, start_turn=start_turn)
        progress = _half(progress, 1)
    engine = engine_for(record.deal)
    # The hindsight budget starts after the fair review (which has its own).
    results = _values(states, limit, engine, start_turn, progress, time.monotonic(), jobs)
    for n in range(start_turn, len(states)):
        res = results[n]
        assert res is not None
        out.values.append((states[n].current + 1, res.verdict))
    for i, turn in enumerate(record.turns):
        before, after = results[i], results[i + 1]
        if before is None or after is None:
            continue
        out.judgements.append(_judge(engine, i, turn, states[i], before, after))
        lost = after.winner is not None and after.winner != turn.player
        if out.mistake is None and before.verdict == Verdict.WIN and lost and before.turns:
            out.mistake = DuelMistake(
                turn=i,
                player=turn.player,
                played=turn,
                better=before.turns[0],
                line=before.turns,
                proven=True,  # both are complete searches: unknown never gets here
            )
    out.seconds = time.monotonic() - t0
    return out


def _values(
    states: list[GameState],
    limit: Limit,
    engine: DuelEngine,
    start_turn: int,
    progress: Callable[[int, int], None] | None,
    t0: float,
    jobs: int = 1,
) -> list[DuelResult | None]:
    """Each turn start's result from ``start_turn`` on (None before it)."""
    from ...solver.the_game.duel.parallel import decider  # processes: loaded when asked
    results: list[DuelResult | None] = [None] * len(states)
    total = len(states) - start_turn
    # The last turn start first, all on one engine and one table: every
    # position proven near the end is known when the search reaches it
    # again from earlier turn starts, and the engine's tree of later
    # positions is a subtree of the earlier ones. Each position gets the
    # exact search first, then the engine on the rest of its share; time a
    # quick proof leaves over goes to the earlier positions.
    budget_end = None if limit.time is None else t0 + limit.time * total
    for k, n in enumerate(range(len(states) - 1, start_turn - 1, -1)):
        deadline = None
        if budget_end is not None:
            now = time.monotonic()
            deadline = now + max(0.0, budget_end - now) / (total - k)
        if states[n].over:
            results[n] = decide(states[n], limit, search=engine.search)
        else:
            results[n] = decide_or_estimate(
                states[n], limit, limit.nodes, deadline, engine.search, engine, ENGINE_SHARE,
                decider(jobs),
            )
        if progress is not None:
            progress(k + 1, total)
    return results


def _half(
    progress: Callable[[int, int], None] | None, which: int
) -> Callable[[int, int], None] | None:
    """``progress`` for one of two halves of the work (0: the first)."""
    if progress is None:
        return None
    report = progress

    def half(done: int, total: int) -> None:
        report(which * total + done, 2 * total)

    return half


def _turn_starts(record: Record) -> list[GameState]:
    """The position at the start of each turn of a legal record, and where
    it ends."""
    state = GameState(record.deal, first=record.first)
    states: list[GameState] = []
    for turn in record.turns:
        states.append(state.copy())
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    states.append(state)
    return states


def chance_of(res: DuelResult, player: int) -> tuple[float, bool, int]:
    """``player``'s win chance at a position, whether it is proven, and
    the playouts behind it."""
    if res.winner is not None:
        return (1.0 if res.winner == player else 0.0), True, 0
    est = res.estimate
    if est is None:
        return 0.5, False, 0  # nothing known: no drop can be read from it
    chance = est.win_chance if est.player == player else 1.0 - est.win_chance
    return chance, False, est.playouts


def _judge(
    engine: DuelEngine,
    i: int,
    turn: Turn,
    state: GameState,
    before: DuelResult,
    after: DuelResult,
) -> TurnJudgement:
    p = turn.player
    b, b_proven, playouts = chance_of(before, p)
    a, a_proven, _ = chance_of(after, p)
    best = before.turns[0] if before.turns else None
    if best is None and before.estimate is not None:
        best = before.estimate.turn
    if best is not None and _same_result(engine, state, best, turn):
        best = None
    mark = ""
    if best is not None:
        if b_proven and a_proven:
            mark = mark_for(b - a, proven=True) if b > a else ""
        elif not (b_proven and b == 0.0):
            mark = mark_for(b - a, proven=False)
    return TurnJudgement(i, p, b, a, b_proven, a_proven, best, playouts, mark)


def _same_result(engine: DuelEngine, state: GameState, x: Turn, y: Turn) -> bool:
    """Whether two turns from ``state`` lead to the same position."""
    ends = []
    for t in (x, y):
        s = state.copy()
        for play in t.plays:
            s.play(play.card, play.pile)
        if not s.over:
            s.end_turn()
        ends.append((s.over, s.winner, None if s.over else engine.game.from_state(s)))
    return ends[0] == ends[1]


def _pct(value: float, proven: bool) -> str:
    if proven:
        return "won" if value == 1.0 else "lost"
    return f"{value:.0%}"


def _words(rules: Any, turn: Turn) -> str:
    return ", ".join(f"{p.card} {pile_name(rules, p.pile)}" for p in turn.plays)


@dataclass
class DuelHint:
    turn: Turn  # the rest of the current turn (all of it at a turn start)
    verdict: Verdict  # for the player to move
    line: list[Turn]
    text: str
    estimate: Estimate | None = None  # the engine's, when not proven

    def advice(self, record: Record) -> Advice:
        """The hint in the shape every game's hint has (``hint --json``):
        the move is the rest of the turn, which it ends."""
        rules = record.deal.rules
        figures: dict[str, Any] = {"turns": [turn_to_dict(rules, t) for t in self.line]}
        if self.estimate is not None:
            figures["estimate"] = self.estimate.to_dict(rules)
        move = {"plays": turn_to_dict(rules, self.turn)["plays"], "end_turn": True}
        return Advice(self.turn.player, len(record.turns) + 1, move, self.verdict, self.text,
                      figures)

    def to_dict(self, record: Record) -> dict[str, Any]:
        return self.advice(record).to_dict()


def turn_words(state: GameState, plays: tuple[Play, ...]) -> str:
    return plays_text(state.rules, plays)


def engine_share(deadline: float | None) -> float:
    """The engine's share of a hint's time left until ``deadline``
    (``HINT_ENGINE_SHARE``, at most ``HINT_ENGINE_SECONDS`` of it)."""
    if deadline is None:
        return HINT_ENGINE_SHARE
    left = deadline - time.monotonic()
    if left * HINT_ENGINE_SHARE <= HINT_ENGINE_SECONDS:
        return HINT_ENGINE_SHARE
    return HINT_ENGINE_SECONDS / left


def duel_hint(
    state: GameState,
    limit: Limit = HINT_LIMIT,
    search: ProofNumberSearch | None = None,
    jobs: int = 1,
) -> DuelHint:
    """The best next turn for the player to move (inside a turn: the rest of
    it): proven by the exact search where it reaches, else the duel
    engine's turn with its estimate; ``search``: a session of the same deal
    (``play`` keeps one); ``jobs`` 2 or more: a turn start's proof raced by
    two worker processes (``decide_or_estimate``)."""
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason})", "record")
    from ...solver.the_game.duel.parallel import decider  # processes: loaded when asked

    if search is None:
        search = session(state.deal)
    deadline = limit.deadline()
    share = engine_share(deadline)
    res = decide_or_estimate(
        state, limit, limit.nodes, deadline, search, share=share, decider=decider(jobs)
    )
    made = len(state.placed)
    est = res.estimate
    if res.turns:
        turn = res.turns[0]
        rest = turn.plays[made:]
        if res.verdict == Verdict.WIN:
            keeps = "keeps a forced win"
        else:
            keeps = f"every turn loses against best play; player {res.winner} wins"
    elif est is not None and est.turn is not None:
        turn = est.turn
        rest = turn.plays[made:]
        keeps = (
            f"not proven within {limit.describe()}; the engine's turn, an estimated "
            f"{est.win_chance:.0%} win chance over {est.playouts:,} playouts"
        )
    else:
        guess = first_guess(state)
        if guess is None:
            raise InvalidInputError("no legal way to finish this turn", "record")
        turn = Turn(state.current + 1, (*state.plays_this_turn, *guess))
        rest = guess
        keeps = f"not decided within {limit.describe()} (the search's first choice)"
    text = f"play {turn_words(state, tuple(rest))}: {keeps}"
    return DuelHint(turn, res.verdict, res.turns, text, est)
