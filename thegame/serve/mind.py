"""The Mind in the browser: the exact odds of every level and the best
star policy, counted once in a worker and kept."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import game_jobs
from .background import Job, JobKind
from .base import MIND_TOLERANCE, Server, _int_param, _server, api, page


@api
async def api_mind_odds(request: Request) -> Response:
    q = request.query_params
    key = mind_key(q.get("players"), q.get("tolerance"))
    return JSONResponse(await mind_odds(_server(request), key, request))


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
                    request, game_jobs.mind_odds_job, players, tolerance, watch is not None,
                    budget=server.make_time, watch=watch,
                )  # fmt: skip
    return server.mind_odds[key]


def start_odds(server: Server, body: dict[str, Any]) -> Job:
    """The odds counted while their page shows the levels done."""
    key = mind_key(body.get("players"), body.get("tolerance"))

    async def work(job: Job) -> Any:
        return await mind_odds(server, key, None, job)

    return server.jobs.start(JobKind.MIND_ODDS, "levels", work, {"key": key})


@page
async def mind_page(request: Request) -> Response:
    server, q = _server(request), request.query_params
    key = mind_key(q.get("players"), q.get("tolerance"))
    if key not in server.mind_odds and q.get("wait") != "1":
        # Not counted yet: the page shows the count's progress (mind.js
        # starts it as a job) and comes back when the odds are in.
        return server.page("mind.html", odds=None, players=key[0], tolerance=key[1])
    odds = await mind_odds(server, key, request)
    from .charts import mind_context

    return server.page("mind.html", players=key[0], tolerance=key[1], **mind_context(odds))


PAGES = (Route("/mind", mind_page),)
