"""Fixtures of the server's tests: a real server on a free port with a small
worker pool (the HTTP tests talk to it with httpx, the browser tests with
Chromium), and game records made with the library.

The HTTP tests use httpx against the running server rather than Starlette's
TestClient: the TestClient warns that it is moving from httpx to another
package, and a real server is what users get (uvicorn, its lifespan, a
client that can go away)."""

from __future__ import annotations

import contextlib
import importlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The server's packages are in the base install; httpx is the test extra's.
for _module in ("starlette", "uvicorn", "jinja2", "multipart", "httpx"):
    pytest.importorskip(_module, reason='needs the test extra: pip install -e ".[test]"')

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from thegame.analysis.the_game.blind import choose_turn  # noqa: E402
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, get_rules  # noqa: E402
from thegame.serve.app import Settings, create_app  # noqa: E402
from thegame.serve.connection import uvicorn_config  # noqa: E402

# A day whose puzzles the tests play (any day would do; one keeps it cached).
DAY = "2026-11-26"
# Two workers; the review page's hindsight column kept short (a second in all),
# the Cento engine's turns too (a fifth of a second each).
SETTINGS = Settings(
    workers=2,
    time_cap=10.0,
    queue_wait=20.0,
    hindsight_time=0.5,
    hindsight_total=1.0,
    engine_time=0.2,
)


def blunder_record(seed: int = 2) -> Record:
    """A whole solo classic game: the two highest cards of the hand onto an
    ascending pile in turn 1 (a blunder the review marks), then the blind
    policy to the end."""
    deal = Deal.from_seed(seed, get_rules("classic"), 1)
    state = GameState(deal)
    hand = state.hand()
    first = (Play(hand[-2], 0), Play(hand[-1], 0))
    turns = []
    plays: tuple[Play, ...] = first
    while True:
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            if not state.can_end_turn():
                break
            state.end_turn()
        turns.append(Turn(1, plays))
        if state.over:
            break
        plays = tuple(choose_turn(state))
    return Record(deal, tuple(turns))


def record_json(record: Record) -> dict[str, Any]:
    return record.to_dict()


class LiveServer:
    """uvicorn on 127.0.0.1 in a thread, stopped at the end of the session."""

    def __init__(self, settings: Settings) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(settings)
        # The configuration 'thegame serve' runs with (its protocol's guards included).
        config = uvicorn_config(self.app, settings, host="127.0.0.1", port=self.port)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        # Its workers import the engines first: minutes on a machine loaded far past its cores.
        deadline = time.monotonic() + 180
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    with LiveServer(SETTINGS) as server:
        yield server


def read_answer(s: socket.socket) -> bytes:
    """Everything the server sends on a raw socket until it closes (or
    resets, or the socket's timeout passes); the socket is then closed."""
    chunks = []
    while True:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    s.close()
    return b"".join(chunks)


def http_client(server: LiveServer) -> httpx.Client:
    """A client of ``server``; searches may take a while on a busy machine."""
    return httpx.Client(base_url=server.url, timeout=120)


@pytest.fixture(scope="session")
def client(live_server: LiveServer) -> Iterator[httpx.Client]:
    with http_client(live_server) as c:
        yield c


# The browser tests: Debian's chromium (nothing is downloaded), started as
# the machine's closed network wants it (no background connections).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def browser_missing(modules: tuple[str, ...]) -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is absent (apt-get install chromium)"
    for module in ("playwright.sync_api", *modules):
        try:
            importlib.import_module(module)
        except ImportError:
            return f"{module} is not installed (the test extra)"
    return None


def launch_browser(modules: tuple[str, ...] = ()) -> Iterator[Any]:
    """One headless Chromium for a test module. Where it cannot run the
    tests skip with the reason, except in CI (``CI=true``), where a skip
    would hide a broken page and fails instead."""
    reason = browser_missing(modules)
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def refusal(method: str, path: str, body: Any = None, query: str = "") -> int:
    """The status a refused request gets by the published schema: 400 when
    ``/api/openapi.json`` refuses it (a field missing, empty, of the wrong
    type or range), 422 when it allows it and the game's rules refuse it."""
    import json as _json
    from urllib.parse import parse_qsl

    from jsonschema import Draft202012Validator

    from thegame import __version__
    from thegame.serve.endpoints import ENDPOINTS
    from thegame.serve.schema import operation

    op = operation(method, path, ENDPOINTS[(method, path)])
    checks: list[tuple[dict[str, Any], Any]] = []
    if "requestBody" in op:
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        checks.append((schema, body))
    for name, raw in parse_qsl(query, keep_blank_values=True):
        param = next((p for p in op.get("parameters", ()) if p["name"] == name), None)
        if param is not None:
            value: Any = raw
            if param["schema"].get("type") == "integer":
                with contextlib.suppress(ValueError):
                    value = _json.loads(raw)
            checks.append((param["schema"], value))
    assert __version__  # the document's version is the package's; the schemas are the same
    for schema, value in checks:
        validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        if not validator.is_valid(value):
            return 400
    return 422
