"""What every page and endpoint of the server shares: its settings, its
state (the worker pool, the puzzles made), the wrappers that turn a user's
error into a 400 with one line, and the readers of a query's numbers and
dates. Bad input is a 400 with the command line's one line as
``{"error": ...}``; a body over ``max_body`` bytes a 413; a full pool a 503
with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..models import InvalidInputError, ThegameError
from ..puzzles.dates import parse_date, today_utc
from ..puzzles.the_game.daily import STREAMS
from ..puzzles.the_game.files import Puzzle
from . import inputs, jobs
from .pool import JobCancelled, JobFailed, JobOverran, PoolBusy, WorkerPool

log = logging.getLogger("thegame.serve")

MAX_BODY = 1 << 20  # bytes: a record of the longest game is about 10 KB
PUZZLE_CACHE = 64  # daily puzzles kept (each a few KB)
# The Mind's odds: the largest tolerance served (the count grows with it).
MIND_TOLERANCE = 10


@dataclass(frozen=True)
class Settings:
    """The server's limits (``thegame serve`` options)."""

    workers: int = os.cpu_count() or 1
    time_cap: float = 30.0  # seconds: no search runs longer, whatever a request asks
    # Seconds a request waits for a free worker before a 503: 50 clients on 2
    # workers wait up to about 40 s for searches of a fraction of a second.
    queue_wait: float = 120.0
    memory: int | None = 256  # MiB of search tables per worker
    max_body: int = MAX_BODY
    default_time: float = 10.0  # a solve's budget when the request names none
    hint_time: float = 3.0
    hindsight_time: float = 1.0  # per position of a review's hindsight column
    hindsight_total: float = 6.0


class BodyLimit:
    """413 for a request body over ``limit`` bytes, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit, send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await _too_large(self.limit, send)


class _TooLarge(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    body = json.dumps({"error": f"body: larger than {limit // 1024} KB"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=headers)


Handler = Callable[[Request], Awaitable[Response]]


class Server:
    """The application's state: settings, the pool, the daily puzzles made."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = WorkerPool(settings.workers, settings.queue_wait)
        self.puzzles: OrderedDict[tuple[str, str | None], Puzzle] = OrderedDict()
        self.puzzle_json: dict[tuple[str, str | None], dict[str, Any]] = {}
        self.mind_odds: dict[tuple[int, int], dict[str, Any]] = {}
        self.cento_puzzles: dict[str, Any] = {}  # Cento's daily puzzles (serve.cento)
        self._making: dict[tuple[str, str | None], asyncio.Lock] = {}
        self.templates = Environment(
            loader=PackageLoader("thegame.serve", "templates"),
            autoescape=select_autoescape(["html"]),
        )

    # -- running jobs ------------------------------------------------------------

    async def run(
        self, request: Request | None, func: Callable[..., Any], *args: Any, budget: float
    ) -> Any:
        gone = None if request is None else request.is_disconnected
        return await self.pool.run(func, args, budget, gone)

    async def puzzle(self, day: dt.date, stream: str | None, request: Request | None) -> Puzzle:
        """The day's puzzle, made once in a worker and kept."""
        key = (day.isoformat(), stream)
        lock = self._making.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self.puzzles:
                data = await self.run(
                    request, jobs.daily_job, key[0], stream, budget=self.settings.time_cap * 4
                )
                self.puzzles[key] = Puzzle.from_dict(data, "daily")
                self.puzzles[key].date = key[0]
                self.puzzle_json[key] = data
                while len(self.puzzles) > PUZZLE_CACHE:
                    old, _ = self.puzzles.popitem(last=False)
                    self.puzzle_json.pop(old, None)
            self.puzzles.move_to_end(key)
            return self.puzzles[key]

    # -- pages -------------------------------------------------------------------

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.templates.get_template(name).render(**context)
        return HTMLResponse(html, status)


def api(handler: Handler) -> Handler:
    """An API route: user errors are 400s with one line, never tracebacks."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ThegameError as e:
            return error(str(e))
        except PoolBusy as e:
            return error(str(e), 503, {"Retry-After": str(e.retry_after)})
        except JobOverran as e:
            return error(f"{e}; try a smaller time_limit", 503, {"Retry-After": "1"})
        except JobCancelled:
            return error("cancelled: the client went away", 499)
        except JobFailed as e:
            log.error("server fault: %s", e)
            return error(f"internal error: {e}", 500)

    return wrapped


def page(handler: Handler) -> Handler:
    """A page route: user errors show the page with the message (400)."""

    async def wrapped(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            return await handler(request)
        except ThegameError as e:
            return server.page("error.html", 400, message=str(e))
        except PoolBusy as e:
            resp = server.page("error.html", 503, message=str(e))
            resp.headers["Retry-After"] = str(e.retry_after)
            return resp
        except (JobOverran, JobCancelled) as e:
            return server.page("error.html", 503, message=str(e))
        except JobFailed as e:
            log.error("server fault: %s", e)
            return server.page("error.html", 500, message=f"internal error: {e}")

    return wrapped


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def _json(request: Request) -> dict[str, Any]:
    return inputs.body_json(await request.body())


def _stream(name: str | None) -> str | None:
    """A daily stream: None (the default one) or one of ``STREAMS``."""
    if name in (None, "", "classic"):
        return None
    if name not in STREAMS:
        raise InvalidInputError(
            f"no daily stream {name!r} (streams: classic, {', '.join(STREAMS)})", "variant"
        )
    return name


def _day(text: str | None) -> dt.date:
    return today_utc() if text in (None, "") else parse_date(text or "")


def _int_param(raw: str | None, name: str, low: int, high: int, default: int) -> int:
    """A whole number from a query string, from ``low`` to ``high``."""
    if raw in (None, ""):
        return default
    assert raw is not None
    text = raw.strip()
    # ASCII digits only: str.isdigit also takes "²", which int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise InvalidInputError(f"must be a whole number, not {_shown(raw)}", name)
    # Longer than the bound's digits is out of range, and not parsed: int() refuses
    # strings of thousands of digits.
    value = int(text) if len(text.lstrip("0")) <= len(str(high)) else None
    if value is None or not low <= value <= high:
        shown = text if len(text) <= 24 else text[:24] + "…"
        raise InvalidInputError(f"must be from {low} to {high}, not {shown}", name)
    return value


def _shown(raw: str, most: int = 24) -> str:
    """A value quoted in a message, cut short."""
    return repr(raw) if len(raw) <= most else repr(raw[:most]) + "…"
