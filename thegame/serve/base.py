"""What every page and endpoint of the server shares: its settings, its
state (the worker pool, the puzzles made), and the wrappers that turn a
user's error into a 400 with one line."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..models import InvalidInputError, Limit, ThegameError
from ..models.the_game import variants
from ..puzzles.dates import parse_date, today_utc
from ..puzzles.the_game.daily import STREAMS
from ..puzzles.the_game.files import Puzzle
from . import inputs, jobs, schema
from .background import Job, Jobs, UnknownJob
from .endpoints import ENDPOINTS
from .endpoints import MIND_TOLERANCE as MIND_TOLERANCE  # the routes import it from here
from .origin import LOOPBACK_HOSTS, _cut, _header, cross_site, host_allowed, logged
from .pool import (
    GRACE,
    JobCancelled,
    JobFailed,
    JobOverran,
    PoolBusy,
    WorkerDied,
    WorkerPool,
)

log = logging.getLogger("thegame.serve")
# One line per request (method, path, status, milliseconds): ``thegame serve``
# shows it on stderr unless ``--quiet``.
access = logging.getLogger("thegame.serve.access")

MAX_BODY = 1 << 20  # bytes: a record of the longest game is about 10 KB
PUZZLE_CACHE = 64  # daily puzzles kept (each a few KB)
# An error line at most this long: what it quotes of the input is cut short.
ERROR_CHARS = 240
# Seconds a puzzle or odds that ran past the cap are not tried again: the next
# visitors get the 503 at once instead of each starting the same job.
FAILED_FOR = 300
CSP = (
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
    "object-src 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


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
    engine_time: float = 1.0  # seconds per turn of the engine at a Cento table, and its hint
    # Seconds a daily puzzle or The Mind's odds (made once, kept) may take (None: 4 x the cap).
    make_time: float | None = None
    grace: float = GRACE  # seconds a job may overrun its budget before its worker is killed
    # Seconds the next piece of a request body may take (a stalled upload is dropped).
    read_timeout: float = 30.0
    # Seconds a request's headers may take to arrive (``connection``): a
    # client trickling header lines is dropped.
    header_timeout: float = 10.0
    # The names the server answers to (the Host header): DNS rebinding
    # reaches it under another name, which is refused.
    hosts: tuple[str, ...] = LOOPBACK_HOSTS
    any_address: bool = False  # listening on every address: any IP literal is a Host too


# -- the guards in front of every request ---------------------------------------------


def _takes_json(method: str, path: str) -> bool:
    """An endpoint declared with a JSON body: only there is the body's type
    checked (another method or path gets its 405 or 404 from the routes)."""
    spec = ENDPOINTS.get((method, path))
    return spec is not None and spec.body is not None


def _content_type(scope: Scope) -> str:
    return (_header(scope, b"content-type") or "").split(";")[0].strip().lower()


class Guard:
    """In front of everything: the Host check, the same-origin rule for
    posts (and every ``/api/`` request a browser sends from elsewhere),
    JSON bodies for the API, the security headers, and one log line per
    request. A client that leaves mid-request ends it quietly."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.monotonic()
        status = 0

        async def headed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        path: str = scope["path"]
        method: str = scope["method"]
        is_api = path.startswith("/api/") or path == "/api"
        refused: tuple[int, str] | None = None
        s = self.settings
        if not host_allowed(_header(scope, b"host"), s.hosts, s.any_address):
            refused = (403, "Host: not a name this server answers to (it serves this machine)")
        elif method not in ("GET", "HEAD", "OPTIONS") or is_api:
            why = cross_site(scope)
            if why is not None:
                refused = (403, f"refused: {why}")
            elif _takes_json(method, path) and _content_type(scope) != "application/json":
                refused = (415, "body: send it as Content-Type: application/json")
        try:
            if refused is not None:
                await _send_error(headed, refused[0], refused[1], is_api)
            else:
                await self.app(scope, receive, headed)
        except ClientDisconnect:
            status = status or 499  # gone mid-upload: nothing to answer, nothing to log but this
        finally:
            ms = (time.monotonic() - start) * 1000
            access.info(
                "%s %s %s %.0f ms", logged(method, 20), logged(path, 200), status or "-", ms
            )


async def _send_error(send: Send, status: int, message: str, as_json: bool = True) -> None:
    """An error answer straight from a guard (before the application)."""
    if as_json:
        body = json.dumps({"error": one_line(message)}).encode()
        kind = b"application/json"
    else:
        body = f"{status}: {one_line(message)}\n".encode()
        kind = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """413 for a request body over ``limit`` bytes, declared or streamed;
    408 for a body whose next piece takes over ``timeout`` seconds."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 30.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and (
            not declared.isascii() or not declared.isdigit() or int(declared) > self.limit
        ):
            await _too_large(self.limit, send)
            return
        seen = 0
        started = False
        complete = False

        async def counted() -> Message:
            nonlocal seen, complete
            if complete:
                return await receive()  # the body is in: a wait for the client's leaving
            try:
                message = await asyncio.wait_for(receive(), self.timeout)
            except TimeoutError:
                raise _Stalled from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                complete = not message.get("more_body", False)
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
        except _Stalled:
            log.info(
                "%s %s: the body stalled; dropped",
                logged(scope["method"], 20),
                logged(scope["path"], 200),
            )
            if not started:
                await _send_error(
                    send,
                    408,
                    f"body: no data for {self.timeout:g} s",
                    scope["path"].startswith("/api"),
                )


class _TooLarge(Exception):
    pass


class _Stalled(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    await _send_error(send, 413, f"body: larger than {limit // 1024} KB")


# -- answers ----------------------------------------------------------------------------------


def one_line(message: str) -> str:
    """A message as one line of at most ``ERROR_CHARS`` characters."""
    return _cut(" ".join(message.split()), ERROR_CHARS)


def error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status, headers=headers)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/api"


async def http_error(request: Request, exc: Exception) -> Response:
    """404, 405 and the like: JSON under ``/api/``, the error page elsewhere."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    message = {404: "no such page or endpoint", 405: f"method {request.method[:10]} not allowed"}
    text = message.get(exc.status_code, str(exc.detail))
    if _is_api(request):
        return error(f"{_cut(request.url.path, 80)}: {text}", exc.status_code, headers)
    resp = _server(request).page("error.html", exc.status_code, message=text)
    resp.headers.update(headers)
    return resp


async def server_fault(request: Request, exc: Exception) -> Response:
    """The last resort: a bug is a 500 that says so, in JSON under ``/api/``."""
    text = "internal error: a fault of the server (logged)"
    if _is_api(request):
        return error(text, 500)
    return HTMLResponse(f"<!doctype html><title>500</title><p>{text}</p>", 500)


Handler = Callable[[Request], Awaitable[Response]]


class Unavailable(Exception):
    """A job that ran past the cap lately: not started again for a while."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Server:
    """The application's state: settings, the pool, the daily puzzles made."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = WorkerPool(settings.workers, settings.queue_wait, settings.grace)
        self.puzzles: OrderedDict[tuple[str, str | None], Puzzle] = OrderedDict()
        self.puzzle_json: dict[tuple[str, str | None], dict[str, Any]] = {}
        self.mind_odds: dict[tuple[int, int], dict[str, Any]] = {}
        self.cento_puzzles: dict[str, Any] = {}  # Cento's daily puzzles (serve.cento)
        # The jobs a page watches (their user-facing errors: the API's 400s and 503s).
        self.jobs = Jobs((ThegameError, PoolBusy, Unavailable, JobOverran, WorkerDied))
        self._making: dict[Any, asyncio.Lock] = {}
        self._failed: dict[Any, tuple[float, str]] = {}
        self.templates = Environment(
            loader=PackageLoader("thegame.serve", "templates"),
            autoescape=select_autoescape(["html"]),
        )
        # Every page's menu: the default stream, then each served one (the registry's).
        self.templates.globals["streams"] = [variants.variant(variants.DEFAULT)] + [
            variants.variant(name) for name in STREAMS
        ]

    # -- running jobs ------------------------------------------------------------

    def limit(self, seconds: float) -> Limit:
        """A request's budget: its seconds (already under the cap), the memory cap."""
        return Limit(time=seconds, memory=self.settings.memory)

    @property
    def make_time(self) -> float:
        """Seconds a puzzle or odds made once and kept may take."""
        s = self.settings
        return s.time_cap * 4 if s.make_time is None else s.make_time

    async def run(
        self,
        request: Request | None,
        func: Callable[..., Any],
        *args: Any,
        budget: float,
        watch: Job | None = None,
    ) -> Any:
        """``func(*args)`` in a worker; it stops when its client goes away,
        or (``watch``: a job a page watches) when that job is given up."""
        if watch is not None:
            return await self.pool.run(func, args, budget, watch.gone, watch.heard)
        gone = None if request is None else request.is_disconnected
        return await self.pool.run(func, args, budget, gone)

    @contextlib.asynccontextmanager
    async def making(self, key: Any, what: str) -> AsyncIterator[None]:
        """Made once: one request makes ``key`` while the others wait for it;
        one that ran past the cap is not made again for ``FAILED_FOR`` s."""
        lock = self._making.setdefault(key, asyncio.Lock())
        async with lock:
            failed = self._failed.get(key)
            if failed is not None:
                left = failed[0] - time.monotonic()
                if left > 0:
                    raise Unavailable(failed[1], max(1, round(left)))
                del self._failed[key]
            try:
                yield
            except JobOverran:
                message = f"{what} takes longer than this server's cap to make"
                self._failed[key] = (time.monotonic() + FAILED_FOR, message)
                raise Unavailable(message, FAILED_FOR) from None

    async def puzzle(
        self, day: dt.date, stream: str | None, request: Request | None, watch: Job | None = None
    ) -> Puzzle:
        """The day's puzzle, made once in a worker and kept (``watch``: the
        job a page watches it being made by)."""
        key = (day.isoformat(), stream)
        if key not in self.puzzles:
            async with self.making(
                ("daily", key), f"the puzzle of {key[0]} ({stream or variants.DEFAULT})"
            ):
                if key not in self.puzzles:
                    data = await self.run(
                        request, jobs.daily_job, key[0], stream, watch is not None,
                        budget=self.make_time, watch=watch,
                    )  # fmt: skip
                    self.keep_puzzle(key, data)
        self.puzzles.move_to_end(key)
        return self.puzzles[key]

    def keep_puzzle(self, key: tuple[str, str | None], data: dict[str, Any]) -> None:
        """Keep the day's puzzle ``data`` (``thegame daily --json``) for ``key`` (day, stream)."""
        self.puzzles[key] = Puzzle.from_dict(data, "daily")
        self.puzzles[key].date = key[0]
        self.puzzle_json[key] = data
        while len(self.puzzles) > PUZZLE_CACHE:
            old, _ = self.puzzles.popitem(last=False)
            self.puzzle_json.pop(old, None)

    # -- pages -------------------------------------------------------------------

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.templates.get_template(name).render(**context)
        return HTMLResponse(html, status)


def _advice(request: Request) -> str:
    spec = ENDPOINTS.get((_method(request), request.url.path))
    if spec is not None and spec.time_limit:
        return "try a smaller time_limit"
    return "try again later"


def _method(request: Request) -> str:
    return "GET" if request.method == "HEAD" else request.method


async def _declared(request: Request) -> None:
    """The request against its endpoint's declaration (``endpoints``)."""
    spec = ENDPOINTS.get((_method(request), request.url.path))
    if spec is None:
        return
    schema.check_query(spec.query, request.query_params)
    if spec.body is None:
        schema.check_required(spec.required, request.query_params)
    else:
        data = await _json(request)
        schema.check_required(spec.required, data)
        schema.check_fields(spec.body, data)
        schema.check_one_of(spec.one_of, data)


def api(handler: Handler) -> Handler:
    """An API route: its declared fields checked first (``schema``), a
    request they refuse a 400; one they allow but the game's rules refuse
    (a deck that is not one, an illegal play) a 422; a busy or overrun
    pool a 503 with Retry-After, and nothing a client sends a 500."""

    async def wrapped(request: Request) -> Response:
        try:
            try:
                await _declared(request)
            except ThegameError as e:
                return error(str(e), 400)
            return await handler(request)
        except ThegameError as e:
            return error(str(e), 404 if isinstance(e, UnknownJob) else 422)
        except PoolBusy as e:
            return error(str(e), 503, {"Retry-After": str(e.retry_after)})
        except Unavailable as e:
            return error(f"{e}; try again later", 503, {"Retry-After": str(e.retry_after)})
        except JobOverran as e:
            return error(f"{e}; {_advice(request)}", 503, {"Retry-After": "1"})
        except WorkerDied as e:
            log.error("%s %s: %s", logged(request.method, 20), logged(request.url.path), e)
            return error(f"{e}; try again", 503, {"Retry-After": "1"})
        except JobCancelled:
            return error("cancelled: the client went away", 499)
        except (ClientDisconnect, _TooLarge, _Stalled):
            raise  # the body's guards answer these (or nobody is left to answer)
        except JobFailed as e:
            log.error("server fault: %s", e)
            return error("internal error: a fault of the server (logged)", 500)
        except Exception:
            log.exception(
                "server fault in %s %s", logged(request.method, 20), logged(request.url.path)
            )
            return error("internal error: a fault of the server (logged)", 500)

    return wrapped


def page(handler: Handler) -> Handler:
    """A page route: user errors show the page with the message (400)."""

    async def wrapped(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            return await handler(request)
        except ThegameError as e:
            return server.page("error.html", 400, message=one_line(str(e)))
        except (PoolBusy, Unavailable) as e:
            resp = server.page("error.html", 503, message=str(e))
            resp.headers["Retry-After"] = str(e.retry_after)
            return resp
        except (JobOverran, JobCancelled, WorkerDied) as e:
            resp = server.page("error.html", 503, message=str(e))
            resp.headers["Retry-After"] = "1"
            return resp
        except JobFailed as e:
            log.error("server fault: %s", e)
            return server.page("error.html", 500, message="internal error (logged)")

    return wrapped


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def _json(request: Request) -> dict[str, Any]:
    """The body, one JSON object (parsed once a request)."""
    cached: dict[str, Any] | None = getattr(request.state, "body", None)
    if cached is None:
        cached = inputs.body_json(await request.body())
        request.state.body = cached
    return cached


def _stream(name: str | None) -> str | None:
    """A daily stream: None (the default one) or one of ``STREAMS``."""
    if name in (None, variants.DEFAULT):
        return None
    if name not in STREAMS:
        known = ", ".join((variants.DEFAULT, *STREAMS))
        raise InvalidInputError(f"no daily stream {name!r} (streams: {known})", "variant")
    return name


def _day(text: str | None, where: str = "date") -> dt.date:
    """A day ``YYYY-MM-DD`` (today, UTC, when none), the error naming ``where``."""
    if text in (None, ""):
        return today_utc()
    try:
        return parse_date(text or "")
    except InvalidInputError as e:
        message = e.message.replace(repr(text), _shown(text or ""))
        raise InvalidInputError(message, where) from None


def _int_param(raw: str | None, name: str, low: int, high: int, default: int) -> int:
    """A whole number from a query string, from ``low`` to ``high``."""
    if raw in (None, ""):
        return default
    assert raw is not None
    text = raw.strip()
    whole, point, zeros = text.partition(".")
    if point and zeros and not zeros.strip("0"):
        text = whole  # 3.0 is the whole number 3
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
