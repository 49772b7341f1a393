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
from ..models.the_game import Play, Record, replay
from ..puzzles.the_game.daily import MAX_ATTEMPTS, daily
from ..solver.the_game.portfolio import solve_game
from ..solver.the_game.solution import EngineName, Solution
from .board import open_board
from .pool import report
from .views import check_dict, explain_list, hint_dict, play_dict, solution_dict

# Sampled orders of the unseen cards behind a hint from what the player sees.
BLIND_SAMPLES = 200


def _cut(out: dict[str, Any], unproven: bool = False) -> dict[str, Any]:
    """``out`` with ``"stopped_early": true`` when a budget cut it short: the
    search did not prove its answer, or the job's budget ran out (the
    worker's alarm raised the stop flag) while the job was still running."""
    if unproven or interrupt.requested():
        out["stopped_early"] = True
    return out


def daily_job(day: str, stream: str | None, watched: bool = False) -> dict[str, Any]:
    """The day's puzzle as ``thegame daily --json`` gives it (its solution
    under ``turns``); ``watched``: the deals tried so far reported."""
    tried = (lambda attempt: report(attempt + 1, MAX_ATTEMPTS)) if watched else None
    return daily(dt.date.fromisoformat(day), tried, stream).to_dict()


def solve_job(record: Record, limit: Limit, explain: bool) -> dict[str, Any]:
    """``solve``: from the deal, or on from the turns a record holds, by the
    command's own path (``solve_game``); one CP-SAT thread: the pool already
    gives each core its own worker."""
    sol = solve_game(record, EngineName.AUTO, limit, workers=1)
    assert isinstance(sol, Solution)  # the server plays no duel (the registry's ``served``)
    out = solution_dict(sol)
    # Not proven (a win is always proven): the budget or the memory cap cut it.
    _cut(out, not sol.optimal)
    if explain:
        out["explain"] = explain_list(sol.deal.rules, explain_record(sol.record(), "solution"))
    return out


def check_job(record: Record) -> dict[str, Any]:
    return check_dict(replay(record))


def hint_job(record: Record, plays: tuple[Play, ...], limit: Limit) -> dict[str, Any]:
    """The best next action with the whole deal known (``hint``)."""
    board = open_board(record, (), plays, hidden=False)
    if board.state.over:
        raise InvalidInputError(f"the game is over ({board.state.reason}): no next play", "record")
    hint = hint_for(board.state, limit)
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
    h = blind_hint(state, BLIND_SAMPLES, Limit(seconds))
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
        record, samples, sample_seed, limit, progress=progress, hindsight_total=Limit(total)
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
