"""The work the server hands to its worker processes: each function takes
plain values (deals, records, budgets), calls the library and returns the
API's JSON. A ``ThegameError`` is the user's bad input (400); anything else
is a fault of the server."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from ..analysis.the_game.annotate import annotate_record
from ..analysis.the_game.explain import explain_record
from ..analysis.the_game.hidden_hint import blind_hint, blind_hint_covers
from ..analysis.the_game.review import hint_for
from ..models import InvalidInputError, Limit, Verdict, interrupt
from ..models.advice import Advice
from ..models.mind import Rules as MindRules
from ..models.the_game import Play, Record, replay
from ..puzzles.the_game.daily import MAX_ATTEMPTS, daily
from ..solver.mind.campaign import solve_campaign
from ..solver.mind.gap import check_tolerance
from ..solver.mind.table import campaign_odds_once
from ..solver.the_game.api import solve_record
from ..solver.the_game.portfolio import solve_with
from .board import open_board
from .pool import report
from .views import check_dict, explain_list, hint_dict, play_dict, solution_dict

# Seconds under which a solve uses the search alone (see ``solve_job``).
SHORT_SOLVE = 2.0
# Sampled orders of the unseen cards behind a hint from what the player sees.
BLIND_SAMPLES = 200


def _cut(out: dict[str, Any], unproven: bool = False) -> dict[str, Any]:
    """``out`` with ``"stopped_early": true`` when a budget cut it short: the
    search did not prove its answer, or the job's budget ran out (the
    worker's alarm raised the stop flag) while the job was still running."""
    if unproven or interrupt.requested():
        out["stopped_early"] = True
    return out


def _stop_when_asked(_: int) -> None:
    """A count with no partial answer: the budget's stop flag ends it here."""
    if interrupt.requested():
        raise KeyboardInterrupt


def daily_job(day: str, stream: str | None, watched: bool = False) -> dict[str, Any]:
    """The day's puzzle as ``thegame daily --json`` gives it (its solution
    under ``turns``); ``watched``: the deals tried so far reported."""
    tried = (lambda attempt: report(attempt + 1, MAX_ATTEMPTS)) if watched else None
    return daily(dt.date.fromisoformat(day), tried, stream).to_dict()


def solve_job(record: Record, seconds: float, memory: int | None, explain: bool) -> dict[str, Any]:
    """``solve``: from the deal, or on from the turns a record holds."""
    limit = Limit(seconds, None, None, memory)
    # The portfolio gives CP-SAT at least a second after the search's share:
    # under SHORT_SOLVE seconds the search alone keeps the budget. One CP-SAT
    # thread: the pool already gives each core its own worker.
    engine = "auto" if seconds >= SHORT_SOLVE else "dfs"
    sol = solve_record(record, limit) if record.turns else solve_with(record.deal, engine, limit, 1)
    out = solution_dict(sol)
    # Not proven (a win is always proven): the budget or the memory cap cut it.
    _cut(out, not sol.optimal)
    if explain:
        out["explain"] = explain_list(sol.deal.rules, explain_record(sol.record(), "solution"))
    return out


def check_job(record: Record) -> dict[str, Any]:
    return check_dict(replay(record))


def hint_job(
    record: Record, plays: tuple[Play, ...], seconds: float, memory: int | None
) -> dict[str, Any]:
    """The best next action with the whole deal known (``hint``)."""
    board = open_board(record, (), plays, hidden=False)
    if board.state.over:
        raise InvalidInputError(f"the game is over ({board.state.reason}): no next play", "record")
    hint = hint_for(board.state, Limit(seconds, None, None, memory))
    out = hint_dict(board.state, len(record.turns) + 1, hint)
    return _cut(out, not out.get("optimal", True))


def blind_hint_job(record: Record, plays: tuple[Play, ...], seconds: float) -> dict[str, Any]:
    """A hint from what the player sees (a real game: the draw pile hidden)."""
    board = open_board(record, (), plays, hidden=True)
    state = board.state
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason}): no next play", "record")
    if not blind_hint_covers(state):
        raise InvalidInputError(
            f"hints from what a player sees cover the classic family, not {state.rules.name}",
            "hint",
        )
    h = blind_hint(state, BLIND_SAMPLES, seconds)
    rules = state.rules
    plays_out = [play_dict(rules, p) for p in h.plays]
    if not h.can_finish:
        text = "no legal way to finish this turn was found"
    elif h.plays:
        text = "play " + ", ".join(p["text"] for p in plays_out) + ", then end the turn"
    else:
        text = "end the turn"
    # The shared hint shape; an estimate over sampled orders of the unseen
    # cards rests on no proof, so its verdict is unknown, labelled as one.
    advice = Advice(
        state.current + 1,
        len(record.turns) + 1,
        {"plays": plays_out, "end_turn": not h.plays and h.can_finish},
        Verdict.UNKNOWN,
        text,
        {
            "estimate": {
                "win_chance": round(h.win_rate, 4),
                "expected_cards_left": round(h.expected_left, 3),
                "samples": h.samples,
            }
        },
    )
    out = advice.to_dict()
    return _cut(out, h.samples < BLIND_SAMPLES)  # fewer samples: the budget ran out


def explain_job(record: Record) -> list[dict[str, Any]]:
    return explain_list(record.deal.rules, explain_record(record))


def _turns_judged(record: Record) -> Callable[[int, int], None]:
    """The review's progress (actions judged) reported as whole turns judged."""
    ends = list(itertools.accumulate(len(t.plays) + 1 for t in record.turns))

    def progress(done: int, _total: int) -> None:
        report(bisect_right(ends, done), len(ends))

    return progress


def analyze_job(
    record: Record,
    samples: int,
    sample_seed: int,
    hindsight: float | None,
    total: float,
    watched: bool = False,
) -> dict[str, Any]:
    """``analyze``: the fair review, then hindsight (``hindsight`` None:
    skipped); ``watched``: the turns judged so far reported to the server."""
    start = time.monotonic()
    limit = None if hindsight is None else Limit(hindsight)
    progress = _turns_judged(record) if watched else None
    review = annotate_record(
        record, samples, sample_seed, limit, progress=progress, hindsight_total=total
    )
    out = review.to_dict()  # the JSON of 'thegame analyze --json', the same object
    out["stats"]["seconds"] = round(time.monotonic() - start, 3)
    out["turns_played"] = len(record.turns)
    return _cut(out, _hindsight_unproven(out))


def _hindsight_unproven(review: dict[str, Any]) -> bool:
    """A hindsight figure of ``review`` (``analyze --json``) left unproven,
    the best at the start or a mistake's: with the whole deck known only a
    budget leaves one so."""
    hindsight = review.get("hindsight")
    if not hindsight:
        return False
    return not hindsight["best_at_start"]["optimal"] or bool(hindsight["cards_lost_unproven"])


def mind_odds_job(players: int, tolerance: int, watched: bool = False) -> dict[str, Any]:
    """The Mind: the exact odds of every level, without and with a star at
    its start, and the best star policy over the campaign (``mind odds``);
    ``watched``: the levels counted so far reported to the server."""
    check_tolerance(tolerance)
    rules = MindRules(players)
    # Each level is counted twice (without and with a star), a tick per card value.
    per_level = 2 * rules.high
    ticks = itertools.count(1)

    def tick(v: int) -> None:
        _stop_when_asked(v)
        if watched:
            report(next(ticks) // per_level, rules.levels)

    # The slow ones counted once, stored.
    levels = campaign_odds_once(rules, tolerance, tick)
    sol = solve_campaign(
        rules, {n: (a.probabilities(), b.probabilities()) for n, (a, b) in levels.items()}
    )
    return {
        "players": players,
        "tolerance": tolerance,
        "levels": [
            {
                "level": n,
                "lives_lost": plain.floats(),
                "lives_lost_with_star": starred.floats(),
                "exact": True,
            }
            for n, (plain, starred) in levels.items()
        ],
        "campaign": sol.to_dict(),
    }
