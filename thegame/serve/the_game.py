"""The Game in the browser: the daily puzzle, a real game, the solver and
the review, each page and endpoint a thin call of the library."""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..models import InvalidInputError
from ..models.seeds import MAX_SEED
from ..models.the_game import Deal, Play, Record, get_rules, pile_index, variants
from ..models.the_game.notation import play_text
from ..puzzles.the_game.files import Puzzle
from . import board as boards
from . import inputs, jobs
from .background import Job, JobKind, JobState
from .base import (
    Server,
    Settings,
    _day,
    _int_param,
    _json,
    _server,
    _stream,
    api,
    page,
)

# -- the API -------------------------------------------------------------------------


@api
async def api_daily(request: Request) -> Response:
    q = request.query_params
    server = _server(request)
    day, stream = _day(q.get("date")), _stream(q.get("variant"))
    await server.puzzle(day, stream, request)
    return JSONResponse(server.puzzle_json[(day.isoformat(), stream)])


@api
async def api_solve(request: Request) -> Response:
    server, data = _server(request), await _json(request)
    s = server.settings
    record = inputs.game(data)
    seconds = inputs.seconds(data, "time_limit", s.default_time, s.time_cap)
    explain = inputs.flag(data, "explain", False)
    result = await server.run(
        request, jobs.solve_job, record, server.limit(seconds), explain, budget=seconds
    )
    return JSONResponse(result)


@api
async def api_check(request: Request) -> Response:
    data = await _json(request)
    record = inputs.record(data)
    return JSONResponse(jobs.check_job(record))  # a replay: milliseconds, no worker needed


@api
async def api_hint(request: Request) -> Response:
    server, data = _server(request), await _json(request)
    s = server.settings
    record = inputs.record(data)
    plays = inputs.plays(record.deal, data.get("plays"))
    seconds = inputs.seconds(data, "time_limit", s.hint_time, s.time_cap)
    result = await server.run(
        request, jobs.hint_job, record, plays, server.limit(seconds), budget=seconds
    )
    return JSONResponse(result)


@api
async def api_explain(request: Request) -> Response:
    data = await _json(request)
    record = inputs.record(data)
    return JSONResponse({"turns": jobs.explain_job(record)})


@api
async def api_analyze(request: Request) -> Response:
    server, data = _server(request), await _json(request)
    record = inputs.record(data)
    return JSONResponse(await _review(request, server, record, data))


# -- a game on a page ------------------------------------------------------------


@dataclass
class _Game:
    base: Record
    hidden: bool
    puzzle: Puzzle | None
    label: str


async def _game(server: Server, raw: Any, request: Request | None) -> _Game:
    """The game a page plays: a daily puzzle ``{"daily": "YYYY-MM-DD",
    "variant"}`` or a real game ``{"seed", "variant", "players"}``."""
    g = inputs.obj(raw, "game")
    if "daily" in g:
        day = _day(inputs.text(g, "daily"), "game.daily")
        stream = _stream(inputs.text(g, "variant"))
        puzzle = await server.puzzle(day, stream, request)
        label = f"{day.isoformat()}" + (f" {stream}" if stream else "")
        return _Game(Record(puzzle.deal, puzzle.position), False, puzzle, label)
    seed = inputs.integer(g, "seed", 0, MAX_SEED, None)
    if seed is None:
        raise InvalidInputError('give "daily" or "seed"', "game")
    rules = get_rules(inputs.variant_name(inputs.text(g, "variant")))
    players = inputs.integer(g, "players", 1, 5, 1)
    deal = inputs.served(Deal.from_seed(seed, rules, players))
    return _Game(Record(deal), True, None, f"seed {seed}")


def _next_of_solution(game: _Game, b: boards.Board) -> tuple[bool, Play | None]:
    """Whether the player still follows the puzzle's solution, and its next
    step then (a play, or None for the end of the turn)."""
    assert game.puzzle is not None
    solution = game.puzzle.solution
    k = len(b.turns)
    if tuple(b.turns) != solution[:k] or k >= len(solution):
        return False, None
    plays = solution[k].plays
    if tuple(b.plays) != plays[: len(b.plays)]:
        return False, None
    return True, plays[len(b.plays)] if len(b.plays) < len(plays) else None


def _share(game: _Game, b: boards.Board, helped: int) -> str:
    """The result without the cards: the day, the turns, the help taken."""
    assert game.puzzle is not None
    help_text = "no help" if helped == 0 else f"{helped} hint{'s' if helped > 1 else ''}"
    bars = " ".join(str(len(t.plays)) for t in b.turns)
    return (
        f"thegame daily {game.label} ({game.puzzle.variant}, {game.puzzle.label}): "
        f"solved in {len(b.turns)} turns, {help_text}\ncards per turn: {bars}"
    )


async def _help(
    request: Request, server: Server, game: _Game, b: boards.Board, solution: bool
) -> dict[str, Any]:
    """A hint for the board's position, or (``solution``) a puzzle's next
    step taken on the board: its line's, or off the line the solver's."""
    s, deal, now = server.settings, game.base.deal, b.record
    if game.hidden:
        hint = await server.run(
            request, jobs.blind_hint_job, now, tuple(b.plays), s.hint_time, budget=s.hint_time
        )
        return {"hint": hint}
    if not solution:
        hint = await server.run(
            request, jobs.hint_job, now, tuple(b.plays), server.limit(s.hint_time),
            budget=s.hint_time,
        )  # fmt: skip
        return {"hint": hint}
    on_line, step = _next_of_solution(game, b)
    if not on_line:
        # Off the puzzle's line: the solver's line from here.
        h = await server.run(
            request, jobs.hint_job, now, tuple(b.plays), server.limit(s.hint_time),
            budget=s.hint_time,
        )  # fmt: skip
        p = h["play"]
        step = None if p is None else Play(p["card"], pile_index(deal.rules, p["pile"]))
    text = "end" if step is None else play_text(deal.rules, step.card, step.pile)
    if step is None:
        boards.end_turn(b)
    else:
        boards.play(b, step)
    return {"step": text}


@api
async def api_board(request: Request) -> Response:
    """One action on a page's game (see ``board``): ``play``, ``end``,
    ``undo``, ``hint``, ``solution`` (a puzzle's next step), or none."""
    server, data = _server(request), await _json(request)
    game = await _game(server, data.get("game"), request)
    deal = game.base.deal
    b = boards.open_board(
        game.base, inputs.turns(deal, data.get("turns")), inputs.plays(deal, data.get("plays")),
        game.hidden,
    )  # fmt: skip
    helped = inputs.integer(data, "helped", 0, 10_000, 0) or 0
    action = data.get("action")
    extra: dict[str, Any] = {}
    if isinstance(action, dict) and set(action) == {"play"}:
        boards.play(b, inputs.one_play(deal, action["play"], "action.play"))
    elif action == "end":
        boards.end_turn(b)
    elif action == "undo":
        boards.undo(b)
    elif action in ("hint", "solution"):
        if b.state.over:
            raise InvalidInputError("the game is over", "action")
        helped += 1  # counted in the share text of a puzzle this step solves
        extra = await _help(request, server, game, b, action == "solution")
    elif action is not None:
        raise InvalidInputError(
            'must be {"play": {"card": N, "pile": "A1"}}, "end", "undo", "hint" or "solution"',
            "action",
        )
    out = boards.view(b)
    out.update(extra)
    if game.puzzle is not None:
        out["puzzle"] = {
            "date": game.puzzle.date,
            "variant": game.puzzle.variant,
            "label": game.puzzle.label,
            "turns_in_solution": len(game.puzzle.solution),
        }
        if out["state"] == "solved":
            out["share"] = _share(game, b, helped)
    return JSONResponse(out)


# -- pages ------------------------------------------------------------------------------


@page
async def daily_page(request: Request) -> Response:
    server = _server(request)
    day = _day(request.path_params.get("date"))
    stream = _stream(request.query_params.get("variant"))
    # A day's puzzle not made yet is made while the page shows its wait (an
    # Extreme one can take half a minute): the page does not wait for it.
    puzzle = server.puzzles.get((day.isoformat(), stream))
    game = {"daily": day.isoformat(), "variant": stream or variants.DEFAULT}
    named = f" ({variants.variant(stream).title})" if stream else ""
    title = f"Daily puzzle {day.isoformat()}{named}"
    suffix = f"?variant={stream}" if stream else ""
    # The first and last days the calendar has link no further (no day before 0001-01-01).
    prev_day = None if day == dt.date.min else f"/daily/{day - dt.timedelta(days=1)}{suffix}"
    next_day = None if day == dt.date.max else f"/daily/{day + dt.timedelta(days=1)}{suffix}"
    return server.page(
        "board.html",
        title=title,
        mode="daily",
        game=json.dumps(game),
        subtitle="making the day's puzzle…"
        if puzzle is None
        else f"{puzzle.variant}, {puzzle.label} ({puzzle.score:g}/100): clear the last "
        f"{puzzle.start().cards_left()} cards",
        prev=prev_day,
        making=puzzle is None,
        next=next_day,
    )


@page
async def play_page(request: Request) -> Response:
    server, q = _server(request), request.query_params
    variant = inputs.variant_name(q.get("variant"))
    players = _int_param(q.get("players"), "players", 1, 5, 1)
    if q.get("seed") in (None, ""):
        seed = random.SystemRandom().randrange(1 << 32)
        return RedirectResponse(f"/play?seed={seed}&variant={variant}&players={players}", 303)
    seed = _int_param(q.get("seed"), "seed", 0, MAX_SEED, 0)
    inputs.served(Deal.from_seed(seed, get_rules(variant), players))
    game = {"seed": seed, "variant": variant, "players": players}
    return server.page(
        "board.html",
        title=f"Play: {variant}, seed {seed}",
        mode="play",
        game=json.dumps(game),
        subtitle=f"{players} player{'s' if players > 1 else ''}; the draw pile is face down",
        prev=None,
        next=None,
    )


@page
async def solve_page(request: Request) -> Response:
    s = _server(request).settings
    return _server(request).page("solve.html", time_cap=s.time_cap, variants=inputs.SERVED)


def _watched_review(server: Server, job_id: str) -> Response:
    """The review a page watched being made (``/review?job=``)."""
    job = server.jobs.get(job_id)
    if job.kind is not JobKind.ANALYZE:
        raise InvalidInputError("not a review's job", "job")
    if job.error is not None:
        raise InvalidInputError(job.error, "review")
    if job.state is not JobState.DONE:
        raise InvalidInputError(f"the review is {job.state}, not done", "review")
    from .charts import review_context

    record = job.context["record"]
    return server.page(
        "review.html", review=review_context(record, job.result), record_text=job.context["text"]
    )


@page
async def review_page(request: Request) -> Response:
    server = _server(request)
    if request.method == "GET":
        job_id = request.query_params.get("job")
        if job_id:
            return _watched_review(server, job_id)
        return server.page("review.html", review=None, record_text="")
    form = await request.form()
    raw = form.get("record")
    text = raw if isinstance(raw, str) else ""
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInputError("not a UTF-8 text file", upload.filename) from None
    if not text.strip():
        raise InvalidInputError("paste a record or choose a file", "record")
    options = {
        # A form sends text: ASCII digits become a number ("²" or thousands of
        # digits stay text, which the check of the number refuses in one line).
        k: int(v) if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 18 else v
        for k, v in form.items()
        if k in ("samples",) and v != ""
    }
    record = inputs.record({"record": text})
    review = await _review(request, server, record, options)
    from .charts import review_context

    return server.page("review.html", review=review_context(record, review), record_text=text)


async def _review(
    request: Request, server: Server, record: Record, options: dict[str, Any]
) -> dict[str, Any]:
    """The review of ``record`` (``analyze --json``'s object), for the API and the page alike."""
    samples, seed, per, total = analyze_options(options, server.settings)
    result: dict[str, Any] = await server.run(
        request, jobs.analyze_job, record, samples, seed, per, total,
        budget=server.settings.time_cap,
    )  # fmt: skip
    return result


# -- jobs a page watches ------------------------------------------------------------


def analyze_options(data: dict[str, Any], s: Settings) -> tuple[int, int, float | None, float]:
    samples = inputs.integer(data, "samples", 2, 1000, 100)
    seed = inputs.integer(data, "sample_seed", 0, MAX_SEED, 0)
    hindsight = inputs.flag(data, "hindsight", True)
    per = inputs.seconds(data, "time_limit", s.hindsight_time, s.time_cap)
    total = inputs.seconds(data, "hindsight_total", s.hindsight_total, s.time_cap)
    assert samples is not None and seed is not None
    return samples, seed, per if hindsight else None, total


def start_review(server: Server, data: dict[str, Any]) -> Job:
    record = inputs.record(data)
    samples, seed, per, total = analyze_options(data, server.settings)
    text = data["record"] if isinstance(data.get("record"), str) else record.to_json()

    async def work(job: Job) -> Any:
        return await server.run(
            None, jobs.analyze_job, record, samples, seed, per, total, True,
            budget=server.settings.time_cap, watch=job,
        )  # fmt: skip

    job = server.jobs.start(JobKind.ANALYZE, "turns", work, {"record": record, "text": text})
    job.total = len(record.turns)
    return job


def start_daily(server: Server, body: dict[str, Any]) -> Job:
    """A day's puzzle made (or found made) while its page shows the deals tried."""
    day = _day(inputs.text(body, "date"), "daily.date")
    stream = _stream(inputs.text(body, "variant"))

    async def work(job: Job) -> Any:
        await server.puzzle(day, stream, None, job)
        return {"date": day.isoformat(), "variant": stream or variants.DEFAULT}

    return server.jobs.start(JobKind.DAILY, "deals", work)


PAGES = (
    Route("/daily", daily_page),
    Route("/daily/{date}", daily_page),
    Route("/play", play_page),
    Route("/solve", solve_page),
    Route("/review", review_page, methods=["GET", "POST"]),
)
