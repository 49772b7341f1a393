"""Cento in the browser: the daily solo puzzle played by clicks, with a hint
and the solution step by step, and the solver on a seed.

The page keeps the turns played and the steps of the turn being built; each
click sends them with the action to ``/api/cento/board``, which replays them
through the rules engine (``analysis.cento.session``) and answers with the
position and the steps the rules allow next.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..analysis.cento.session import (
    Session,
    Step,
    StepKind,
    parse_steps,
    session_of,
    step_text,
    turn_steps,
)
from ..models import InvalidInputError
from ..models.cento.deal import Deal
from ..models.cento.record import Record
from ..models.cento.rules import FREE, MAX_NAMED
from ..models.cento.state import Turn, TurnError
from ..models.seeds import MAX_SEED
from ..puzzles.cento.puzzles import SoloPuzzle
from . import cento_view, game_jobs, inputs
from .background import Job, JobKind
from .base import Server, _day, _int_param, _json, _server, api, page
from .cento_view import board_view

# Turns a client may send: a solo game ends long before (every turn plays or draws).
MAX_TURNS = 1000
MAX_PLAYERS = 6  # rule Z1: Cento game 2 seats 2 to 6 (one: the solo puzzle)


async def puzzle(server: Server, day: dt.date, request: Request | None) -> SoloPuzzle:
    """The day's puzzle, made once in a worker and kept (a few a server)."""
    key = day.isoformat()
    cache = server.cento_puzzles
    if key not in cache:
        async with server.making(("cento", key), f"Cento's puzzle of {key}"):
            if key not in cache:
                data = await server.run(
                    request, game_jobs.cento_daily_job, key, budget=server.make_time
                )
                deal = Deal.from_dict(data["deal"])
                turns = tuple(Turn.from_dict(t, f"turns[{i}]") for i, t in enumerate(data["turns"]))
                if len(cache) >= 32:
                    cache.pop(next(iter(cache)))
                cache[key] = SoloPuzzle(data["seed"], deal, data["turn_count"], turns, key)
    found: SoloPuzzle = cache[key]
    return found


def _turns(deal: Deal, raw: Any) -> tuple[Turn, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InvalidInputError("must be a list of turns", "turns")
    if len(raw) > MAX_TURNS:
        raise InvalidInputError(f"{len(raw)} turns; at most {MAX_TURNS}", "turns")
    return Record.from_dict({"deal": deal.to_dict(), "turns": raw}).turns


def _steps(raw: Any) -> list[Step]:
    """The steps of the turn being built, as ``parse_steps`` reads them."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw) or len(raw) > 200:
        raise InvalidInputError('must be a list of steps like "37", "free 45", "draw"', "steps")
    return parse_steps(" ".join(raw))


def _action(raw: Any) -> Step | str | None:
    """A step (``{"play": 37}``, ``{"play": "free", "as": 45}``, ``"draw"``,
    ``"trick"``, ``"treat"``) or a command (``end``, ``undo``, ``hint``,
    ``solution``)."""
    if raw is None or raw in ("end", "undo", "hint", "solution"):
        return raw  # type: ignore[no-any-return]
    if raw in ("draw", "trick", "treat"):
        return Step(StepKind(raw))
    if isinstance(raw, dict) and "play" in raw and set(raw) <= {"play", "as"}:
        card = raw["play"]
        if card == "free":
            named = inputs.integer(raw, "as", 1, MAX_NAMED, None)
            if named is None:
                raise InvalidInputError('a free card is named a value: {"as": 45}', "action")
            return Step(StepKind.PLAY, FREE, named)
        if "as" in raw:
            raise InvalidInputError('only a free card is named with "as"', "action")
        value = inputs.integer(raw, "play", 1, 100, None)
        assert value is not None
        return Step(StepKind.PLAY, value)
    raise InvalidInputError(
        'must be {"play": 37}, {"play": "free", "as": 45}, "draw", "trick", "treat", '
        '"end", "undo", "hint" or "solution"',
        "action",
    )


def _apply(session: Session, steps: list[Step]) -> bool:
    """The steps on the session; True when they ended the turn."""
    if not steps:
        return False
    return session.step(steps)


async def _game(server: Server, raw: Any, request: Request) -> tuple[Deal, SoloPuzzle | None]:
    g = inputs.obj(raw, "game")
    if "daily" in g:
        p = await puzzle(server, _day(inputs.text(g, "daily"), "game.daily"), request)
        return p.deal, p
    return _seeded(g), None


def _seeded(g: dict[str, Any]) -> Deal:
    """A seed's deal: alone (open), or a table of 2 to 6 (``players``)."""
    seed = inputs.integer(g, "seed", 0, MAX_SEED, None, "game.seed")
    if seed is None:
        raise InvalidInputError('give "daily" or "seed"', "game")
    players = inputs.integer(g, "players", 1, MAX_PLAYERS, 1, "game.players")
    assert players is not None
    return Deal.from_seed(seed, players)


def _engine_time(server: Server) -> float:
    s = server.settings
    return min(s.engine_time, s.time_cap)


async def _table(request: Request, server: Server, deal: Deal, data: dict[str, Any]) -> Any:
    """A step of seat 1 at a table against the engine, and the engine's turns after it."""
    record = Record(deal, _turns(deal, data.get("turns")))
    steps = _steps(data.get("steps"))
    action = _action(data.get("action"))
    if action == "solution":
        raise InvalidInputError("a table has no solution to show: ask for a hint", "action")
    t = _engine_time(server)
    # The engine's turns (one a seat) and a hint, each within t seconds.
    return await server.run(
        request, cento_view.cento_table_job, record, steps, action, t,
        budget=t * (deal.players + 1) + 2,
    )  # fmt: skip


def start_review(server: Server, body: dict[str, Any]) -> Job:
    """The review of a table's game (``cento analyze``), as a job a page watches."""
    deal = _seeded(inputs.obj(body.get("game"), "game"))
    record = Record(deal, _turns(deal, body.get("turns")))
    cap = server.settings.time_cap

    async def work(job: Job) -> Any:
        return await server.run(
            None, cento_view.cento_review_job, record, cap, True, budget=cap, watch=job
        )

    job = server.jobs.start(JobKind.CENTO_REVIEW, "turns", work)
    job.total = len(record.turns)
    return job


def _next_step(
    puzzle_: SoloPuzzle | None, session: Session, steps: list[Step]
) -> tuple[bool, Step | None]:
    """Whether the person still follows the puzzle's line, and its next step
    then (None: the turn ends)."""
    if puzzle_ is None:
        return False, None
    k = len(session.turns)
    if tuple(session.turns) != puzzle_.turns[:k] or k >= len(puzzle_.turns):
        return False, None
    line = turn_steps(puzzle_.turns[k])
    if steps != line[: len(steps)]:
        return False, None
    return True, line[len(steps)] if len(steps) < len(line) else None


async def _help(
    request: Request,
    server: Server,
    puzzle_: SoloPuzzle | None,
    session: Session,
    steps: list[Step],
    solution: bool,
) -> tuple[dict[str, Any], list[Step]]:
    """A hint for a whole turn, or (``solution``) a puzzle's next step taken
    in the session: its line's, or off the line the solver's; with the
    steps of the turn being built after it."""
    s = server.settings
    on_line, step = _next_step(puzzle_, session, steps)
    if not solution or not on_line:
        if steps and not solution:
            raise InvalidInputError(
                "a hint is for a whole turn: undo this turn's steps first", "action"
            )
        record = session.record
        h = await server.run(
            request, game_jobs.cento_hint_job, record, s.hint_time, budget=s.hint_time
        )
        if not solution:
            return {"hint": h}, steps
        if h["hint"] is None:
            raise InvalidInputError(f"no proven line from here within {s.hint_time:g} s", "action")
        line = turn_steps(Turn.from_dict(h["hint"], "hint"))
        if steps and steps != line[: len(steps)]:
            raise InvalidInputError("off the solution in this turn: undo its steps first", "action")
        step = line[len(steps)] if len(steps) < len(line) else None
    extra = {"step": "end" if step is None else step_text(step)}
    if step is None:
        session.end_turn()
        steps = []
    elif session.step([step]):
        steps = []
    else:
        steps = [*steps, step]
    return extra, steps


@api
async def api_board(request: Request) -> Response:
    server, data = _server(request), await _json(request)
    deal, puzzle_ = await _game(server, data.get("game"), request)
    if deal.players > 1:
        return JSONResponse(await _table(request, server, deal, data))
    try:
        session = session_of(Record(deal, _turns(deal, data.get("turns"))), frozenset({0}))
        steps = _steps(data.get("steps"))
        if _apply(session, steps):
            raise InvalidInputError("the steps end the turn: send it under turns", "steps")
    except TurnError as e:
        raise InvalidInputError(str(e), "turns") from None
    action = _action(data.get("action"))
    extra: dict[str, Any] = {}
    if action is not None and session.over and action != "undo":
        raise InvalidInputError("the game is over", "action")
    if isinstance(action, Step):
        try:
            steps = [] if session.step([action]) else [*steps, action]
        except TurnError as e:
            raise InvalidInputError(str(e), "action") from None
    elif action == "end":
        try:
            session.end_turn()
        except TurnError as e:
            raise InvalidInputError(str(e), "action") from None
        steps = []
    elif action == "undo":
        if steps:
            steps = steps[:-1]
            session.builder = None
            _apply(session, steps)
        elif not session.undo():
            raise InvalidInputError("nothing to take back", "action")
    elif action in ("hint", "solution"):
        extra, steps = await _help(request, server, puzzle_, session, steps, action == "solution")
    out = board_view(session, steps)
    out.update(extra)
    if puzzle_ is not None:
        out["puzzle"] = {
            "date": puzzle_.date,
            "seed": puzzle_.seed,
            "turns_in_solution": puzzle_.turn_count,
        }
        if out["state"] == "solved":
            done = len(session.turns)
            out["share"] = (
                f"thegame cento daily {puzzle_.date}: hand emptied in {done} turns "
                f"(fewest {puzzle_.turn_count})"
            )
    return JSONResponse(out)


@api
async def api_daily(request: Request) -> Response:
    server = _server(request)
    p = await puzzle(server, _day(request.query_params.get("date")), request)
    return JSONResponse(p.to_dict())


@api
async def api_solve(request: Request) -> Response:
    """A seed (``seed``, ``players`` 1 or 2) or a record (``record``): the
    verdict, the line and the reasons of every turn."""
    server, data = _server(request), await _json(request)
    s = server.settings
    if ("seed" in data) == ("record" in data):
        raise InvalidInputError('give "seed" or "record", one of them', "body")
    if "record" in data:
        record = Record.from_dict(data["record"])
        if record.deal.players > 2:
            raise InvalidInputError(f"solve takes 1 or 2 players, not {record.deal.players}",
                                    "record")  # fmt: skip
    else:
        seed = inputs.integer(data, "seed", 0, MAX_SEED, None)
        players = inputs.integer(data, "players", 1, 2, 1)
        assert seed is not None and players is not None
        record = Record(Deal.from_seed(seed, players), ())
    seconds = inputs.seconds(data, "time_limit", s.default_time, s.time_cap)
    out = await server.run(request, game_jobs.cento_solve_job, record, seconds, budget=seconds)
    return JSONResponse(out)


@page
async def cento_page(request: Request) -> Response:
    server = _server(request)
    day = _day(request.path_params.get("date"))
    p = await puzzle(server, day, request)
    prev_day = None if day == dt.date.min else f"/cento/{day - dt.timedelta(days=1)}"
    next_day = None if day == dt.date.max else f"/cento/{day + dt.timedelta(days=1)}"
    return server.page(
        "cento.html",
        title=f"Cento: the puzzle of {day.isoformat()}",
        game=json.dumps({"daily": day.isoformat()}),
        subtitle=f"alone: empty your hand in {p.turn_count} turns (the proven fewest)",
        prev=prev_day,
        next=next_day,
        time_cap=server.settings.time_cap,
        default_time=server.settings.default_time,
    )


@page
async def table_page(request: Request) -> Response:
    """A game at a table of 2 to 6: the person in seat 1, the engine in the others."""
    server, q = _server(request), request.query_params
    players = _int_param(q.get("players"), "players", 2, MAX_PLAYERS, 4)
    if q.get("seed") in (None, ""):
        seed = random.SystemRandom().randrange(1 << 32)
        return RedirectResponse(f"/cento/table?players={players}&seed={seed}", 303)
    seed = _int_param(q.get("seed"), "seed", 0, MAX_SEED, 0)
    return server.page(
        "cento.html",
        title=f"Cento at a table of {players}",
        game=json.dumps({"seed": seed, "players": players}),
        table=True,
        players=players,
        subtitle=f"seed {seed}: you are player 1, the engine plays players 2 to {players} "
        "from what each seat sees; first to empty their hand wins (rule Z1)",
        prev=None,
        next=None,
        time_cap=server.settings.time_cap,
        default_time=server.settings.default_time,
    )


PAGES = (
    Route("/cento", cento_page),
    Route("/cento/table", table_page),
    Route("/cento/{date}", cento_page),
)
