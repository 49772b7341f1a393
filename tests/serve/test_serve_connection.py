"""The server as a hostile client meets it below the application: log lines
that echo a request cannot be forged or colour the terminal, an Origin must
match in scheme, host and port, a request's headers have a deadline, and
the HTTP parser's own 400s carry the security headers."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from conftest import LiveServer, http_client, read_answer

from thegame.serve.app import Settings
from thegame.serve.origin import logged


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def access_lines() -> Iterator[list[str]]:
    lg = logging.getLogger("thegame.serve.access")
    kept, level = Kept(), lg.level
    lg.addHandler(kept)
    lg.setLevel(logging.INFO)
    try:
        yield kept.lines
    finally:
        lg.removeHandler(kept)
        lg.setLevel(level)


def test_a_path_cannot_forge_a_log_line_or_colour_the_terminal(
    client: httpx.Client, access_lines: list[str]
) -> None:
    forged = "/api/x%0A20:28:00 GET /api/admin 200 1 ms"
    coloured = "/static/%1b%5b31mred%1b%5b0m.png"
    for path in (forged, coloured, "/caf%C3%A9%E2%80%A8"):
        client.get(path)
    deadline = time.monotonic() + 5
    while len(access_lines) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)  # a line is logged once its answer is sent
    # What the handlers write: one line each, no control character.
    assert len(access_lines) == 3, access_lines
    for line in access_lines:
        assert line.isprintable(), repr(line)
    assert "x\\n20:28:00 GET /api/admin" in access_lines[0]
    assert "\\x1b[31mred" in access_lines[1]
    assert "café\\u2028" in access_lines[2]  # printable text kept as it is


def test_logged_cuts_after_escaping() -> None:
    assert logged("a\nb") == "a\\nb"
    assert logged("\x00" * 100, 10) == "\\x00\\x00\\…"
    assert len(logged("é" * 500)) == 200


def test_an_origin_must_match_scheme_host_and_port(client: httpx.Client) -> None:
    port = client.base_url.port
    body = json.dumps({"record": "{}"})
    headers = {"content-type": "application/json"}
    for origin in (
        f"https://127.0.0.1:{port}",  # the scheme: this server speaks http
        f"http://127.0.0.1:{port + 1}",
        "http://127.0.0.1",  # port 80
        f"http://localhost:{port}",  # another host than the request's Host
        f"http://127.0.0.1:{port}/path",
        f"http://user@127.0.0.1:{port}",
        f"ws://127.0.0.1:{port}",
        "127.0.0.1",
    ):
        r = client.post("/api/check", content=body, headers={**headers, "origin": origin})
        assert r.status_code == 403, origin
        assert r.json()["error"].startswith("refused: a request from another origin"), origin
    for origin in (f"http://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}"):
        r = client.post("/api/check", content=body, headers={**headers, "origin": origin})
        # Served: the record, well formed but no game, refused by the rules.
        assert r.status_code == 422 and "record" in r.json()["error"], origin


@pytest.fixture(scope="module")
def quick_server() -> Iterator[LiveServer]:
    with LiveServer(Settings(workers=1, time_cap=2.0, header_timeout=1.0)) as server:
        yield server


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def test_a_client_trickling_headers_is_dropped(quick_server: LiveServer) -> None:
    s = _connect(quick_server.port)
    s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{quick_server.port}\r\n".encode())
    start = time.monotonic()
    closed = False
    for i in range(20):  # a header line every 0.3 s, for up to 6 s
        time.sleep(0.3)
        try:
            s.sendall(f"X-Slow-{i}: 1\r\n".encode())
        except OSError:
            closed = True
            break
        s.settimeout(0.01)
        try:
            if s.recv(1) == b"":
                closed = True
                break
        except TimeoutError:
            pass
        except OSError:
            closed = True
            break
    s.close()
    assert closed and time.monotonic() - start < 3, time.monotonic() - start
    # Headers sent in time, on a connection kept alive: served, each request.
    with http_client(quick_server) as c:
        for _ in range(2):
            assert c.get("/rules").status_code == 200
            time.sleep(0.6)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\r\n\r\n",  # no Host
        b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n"
        b"Content-Length: 2\r\n\r\n{}",
        b"GET /a\x00b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ],
    ids=["no-host", "two-content-lengths", "nul-in-target"],
)
def test_the_parsers_own_400s_carry_the_security_headers(
    quick_server: LiveServer, request_bytes: bytes
) -> None:
    s = _connect(quick_server.port)
    s.sendall(request_bytes)
    answer = read_answer(s)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), answer[:200]
    lower = head.lower()
    for header in (b"content-security-policy:", b"x-content-type-options: nosniff",
                   b"x-frame-options: deny", b"content-type: application/json"):  # fmt: skip
        assert header in lower, (header, head)
    assert json.loads(body)["error"].startswith("request: not a valid HTTP/1.1 request")
