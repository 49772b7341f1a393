"""The jobs a page watches (``background``) as the API starts, reports and
cancels them: a review of a game of The Game, The Mind's odds, the review
of a Cento table's game; and the readers they share with the pages."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..models import InvalidInputError
from ..models.seeds import MAX_SEED
from ..models.the_game import variants
from . import cento, inputs, jobs
from .background import Job, JobKind
from .base import (
    MIND_TOLERANCE,
    Server,
    Settings,
    _day,
    _int_param,
    _json,
    _server,
    _stream,
    api,
)


def analyze_options(data: dict[str, Any], s: Settings) -> tuple[int, int, float | None, float]:
    samples = inputs.integer(data, "samples", 2, 1000, 100)
    seed = inputs.integer(data, "sample_seed", 0, MAX_SEED, 0)
    hindsight = inputs.flag(data, "hindsight", True)
    per = inputs.seconds(data, "time_limit", s.hindsight_time, s.time_cap)
    total = inputs.seconds(data, "hindsight_total", s.hindsight_total, s.time_cap)
    assert samples is not None and seed is not None
    return samples, seed, per if hindsight else None, total


def mind_key(players_raw: Any, d_raw: Any) -> tuple[int, int]:
    """The Mind's odds asked for: (players, tolerance), from a query or a body."""
    players = _int_param(None if players_raw is None else str(players_raw), "players", 2, 4, 2)
    d = None if d_raw is None else str(d_raw)
    return players, _int_param(d, "tolerance", 1, MIND_TOLERANCE, 3)


async def mind_odds(
    server: Server, key: tuple[int, int], request: Request | None, watch: Job | None = None
) -> Any:
    players, tolerance = key
    if key not in server.mind_odds:
        what = f"The Mind's odds for {players} players, tolerance {tolerance},"
        async with server.making(("mind", key), what):
            if key not in server.mind_odds:
                server.mind_odds[key] = await server.run(
                    request, jobs.mind_odds_job, players, tolerance, watch is not None,
                    budget=server.make_time, watch=watch,
                )  # fmt: skip
    return server.mind_odds[key]


def _start_review(server: Server, data: dict[str, Any]) -> Job:
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


def _start_daily(server: Server, body: dict[str, Any]) -> Job:
    """A day's puzzle made (or found made) while its page shows the deals tried."""
    day = _day(inputs.text(body, "date"), "daily.date")
    stream = _stream(inputs.text(body, "variant"))

    async def work(job: Job) -> Any:
        await server.puzzle(day, stream, None, job)
        return {"date": day.isoformat(), "variant": stream or variants.DEFAULT}

    return server.jobs.start(JobKind.DAILY, "deals", work)


@api
async def api_jobs(request: Request) -> Response:
    """Start a job a page watches: ``{"analyze": {...}}`` (the body of
    ``/api/analyze``), ``{"mind_odds": {"players", "tolerance"}}`` or
    ``{"cento_review": {"game", "turns"}}`` (a Cento table's game)."""
    server, data = _server(request), await _json(request)
    kinds = [k for k in JobKind if k.value in data]
    if len(kinds) != 1:
        raise InvalidInputError(f"give one of {', '.join(repr(k.value) for k in JobKind)}", "body")
    kind = kinds[0]
    body = inputs.obj(data[kind.value], kind.value)
    if kind is JobKind.ANALYZE:
        job = _start_review(server, body)
    elif kind is JobKind.CENTO_REVIEW:
        job = cento.start_review(server, body)
    elif kind is JobKind.DAILY:
        job = _start_daily(server, body)
    else:
        key = mind_key(body.get("players"), body.get("tolerance"))

        async def work(job: Job) -> Any:
            return await mind_odds(server, key, None, job)

        job = server.jobs.start(JobKind.MIND_ODDS, "levels", work, {"key": key})
    return JSONResponse(job.to_dict())


@api
async def api_job(request: Request) -> Response:
    job_id = request.query_params.get("id") or ""
    return JSONResponse(_server(request).jobs.get(job_id).to_dict())


@api
async def api_job_cancel(request: Request) -> Response:
    data = await _json(request)
    job = await _server(request).jobs.cancel(inputs.text(data, "id") or "")
    return JSONResponse(job.to_dict())
