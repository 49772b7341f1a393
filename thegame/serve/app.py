"""The web application: one module per game (``the_game``, ``mind``,
``nimmt``, ``cento``: its API handlers, its pages, the jobs its pages watch),
the pages they share, and the routes made from them and ``endpoints``."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__
from . import cento, mind, nimmt, rulebook, schema, the_game
from .base import (
    BodyLimit,
    Guard,
    Server,
    _day,
    _server,
    api,
    http_error,
    page,
    server_fault,
)
from .base import Settings as Settings  # the server's options: callers import them from here
from .endpoints import ENDPOINTS

# -- pages every game shares ------------------------------------------------------------


@page
async def index(request: Request) -> Response:
    # ?date= shows that day's puzzles (the pages link to it); today's by default.
    day = _day(request.query_params.get("date"))
    return _server(request).page("index.html", today=day.isoformat())


@page
async def rules_page(request: Request) -> Response:
    """A page of the rulebook, every rule id an anchor (``/rules/the-game#C5``)."""
    name = request.path_params.get("name", "the-game")
    title, html = rulebook.page(name)
    return _server(request).page("rules.html", title=title, html=html, pages=rulebook.PAGES)


# One module per game, the same shape in each: its API handlers, its pages
# (``PAGES``), the jobs its pages watch.
GAMES = (the_game, mind, nimmt, cento)


def create_app(settings: Settings | None = None) -> Starlette:
    server = Server(settings or Settings())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.pool.start()
        try:
            yield
        finally:
            await server.jobs.close()
            await server.pool.close()

    # The web referee (web/referee.js) is the static site's and the pages' alike.
    static = StaticFiles(packages=[("thegame.serve", "static"), ("thegame", "web")])
    routes = [
        Route("/", index),
        Route("/rules", rules_page),
        Route("/rules/{name}", rules_page),
        *(route for game in GAMES for route in game.PAGES),
        *declared_routes(),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(Guard, settings=server.settings),
            Middleware(
                BodyLimit, limit=server.settings.max_body, timeout=server.settings.read_timeout
            ),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_fault},
    )
    app.state.server = server
    return app


def declared_routes() -> list[Route]:
    """The ``/api/`` routes, one per declared endpoint (``endpoints``): its
    path, its method and the handler it names."""
    routes = []
    for (method, path), spec in ENDPOINTS.items():
        module, name = spec.handler.split(":")
        handler = getattr(importlib.import_module(f"thegame.serve.{module}"), name)
        routes.append(Route(path, handler, methods=[method]))
    return routes


@api
async def api_openapi(request: Request) -> Response:
    """The OpenAPI 3 document of the API, built from the route table and the
    fields each endpoint declares (``schema``)."""
    return JSONResponse(schema.openapi(ENDPOINTS, __version__))
