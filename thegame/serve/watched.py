"""The jobs a page watches (``background``) as the API starts, reports and
cancels them; each kind is started by its game's module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..models import InvalidInputError
from . import cento, inputs, mind, the_game
from .background import Job, JobKind
from .base import (
    Server,
    _json,
    _server,
    api,
)

# Each kind of watched job, started by its game's module.
STARTS: dict[JobKind, Callable[[Server, dict[str, Any]], Job]] = {
    JobKind.ANALYZE: the_game.start_review,
    JobKind.DAILY: the_game.start_daily,
    JobKind.MIND_ODDS: mind.start_odds,
    JobKind.CENTO_REVIEW: cento.start_review,
}


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
    job = STARTS[kind](server, body)
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
