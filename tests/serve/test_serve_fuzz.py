"""Odd query strings never make the server fail: every page and endpoint,
with seeds out of range, unknown variants, dates that do not exist, huge
and non-ASCII numbers, answers 200 (or a redirect) or a 400 with one line,
never a 500. Then what the schema-driven fuzzing (``test_schema.py``) cannot
express: foreign Host headers, cross-site posts, raw sockets that stall or
vanish mid-body, a puzzle that runs past the cap."""

from __future__ import annotations

import json
import logging
import random
import socket
import time

import httpx
import pytest
from conftest import DAY, LiveServer, http_client, read_answer, refusal

from thegame.serve.app import Settings

# Values a user can type into the address bar; each parameter's valid ones
# are few, and cheap (no new puzzle of the Extreme stream, no new odds).
SEEDS = ["-1", "18446744073709551616", "9" * 5000, "1e3", "0x10", "²", "٣", " 7 ", "", "abc", "4"]
VARIANTS = [
    "nope", "face-to-face", "mind", "CLASSIC", "extreme ", "", "../etc", "<b>x</b>", "on-fire",
    "classic", "profi",
]  # fmt: skip
DATES = [
    "2026-02-30", "2026-13-01", "0000-01-01", "10000-01-01", "2026-1-1", "yesterday", "",
    "2026-11-26T00:00", DAY, "9999-12-31", "0001-01-01",
    "\uff12\uff10\uff12\uff16-11-26",  # full-width digits (a regex's \\d takes them)
]  # fmt: skip
PLAYERS = ["0", "6", "99999999999999999999", "-1", "1.5", "9" * 5000, "²", "", "2", "5"]
TOLERANCES = ["0", "11", "x", "9" * 400, "-3", "3"]
PARAMS = {
    "seed": SEEDS,
    "variant": VARIANTS,
    "date": DATES,
    "players": PLAYERS,
    "tolerance": TOLERANCES,
    "first": ["0", "9", "x"],
    "time_limit": ["NaN", "-1", "1e999"],
    "level": ["", "godlike", "EASY", "<i>", "easy"],
    "round": ["1", "0", "x"],
}
GETS = [
    "/", "/daily", "/play", "/solve", "/review", "/mind", "/api/daily", "/api/mind/odds",
    "/nimmt", "/cento", "/api/cento/daily",
]  # fmt: skip
POSTS = [
    "/api/solve", "/api/check", "/api/hint", "/api/analyze", "/api/explain", "/api/board",
    "/api/nimmt/table", "/api/nimmt/review", "/api/cento/board", "/api/cento/solve",
]  # fmt: skip
# Requests in the random part (each a page or an endpoint with 1-3 odd parameters).
ROUNDS = 160


def odd_query(rng: random.Random) -> dict[str, str]:
    names = rng.sample(sorted(PARAMS), rng.randint(1, 3))
    query = {name: rng.choice(PARAMS[name]) for name in names}
    if query.get("variant", "").strip() == "extreme":
        query.pop("date", None)  # a new Extreme daily takes many seconds: today's only
    if "tolerance" in query:
        query["players"] = "2"  # a new (players, tolerance) costs its odds: one pair
    return query


def assert_answered(r: httpx.Response, what: str) -> None:
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text[:300]}"
    assert r.status_code in (200, 303, 400, 404, 422), what
    assert "Traceback" not in r.text, what
    json_error = r.headers.get("content-type", "").startswith("application/json")
    if r.status_code in (400, 422) and json_error:
        message = r.json()["error"]
        assert message and "\n" not in message, what


def test_odd_query_strings_on_every_page_and_endpoint(client: httpx.Client) -> None:
    rng = random.Random(20261126)
    # Every route once with every value of every parameter alone, then mixes.
    for path in GETS:
        for name, values in PARAMS.items():
            for value in values:
                if path.endswith("daily") and name == "date" and value in ("9999-12-31",):
                    continue  # made once below, with its checks
                r = client.get(path, params={name: value}, follow_redirects=False)
                assert_answered(r, f"GET {path}?{name}={value[:30]}")
    for _ in range(ROUNDS):
        query = odd_query(rng)
        if rng.random() < 0.25:
            path = rng.choice(POSTS)
            body = rng.choice([{}, [], {"seed": "1"}])
            r = client.post(path, params=query, json=body)
            wanted = refusal("POST", path, body)
            assert r.status_code == wanted, f"POST {path} {query}: {r.status_code}"
        else:
            path = rng.choice(GETS)
            r = client.get(path, params=query, follow_redirects=False)
        assert_answered(r, f"{path} {query}")


@pytest.mark.parametrize(
    "date", ["2026-02-30", "2026-13-01", "0000-01-01", "10000-01-01", "2026-1-1", "x", "%20"]
)
def test_a_daily_page_of_no_real_date_is_a_400(client: httpx.Client, date: str) -> None:
    r = client.get(f"/daily/{date}")
    assert r.status_code in (400, 404)
    if r.status_code == 400:
        assert "date" in r.text


@pytest.mark.parametrize(
    ("date", "missing"), [("9999-12-31", "next day"), ("0001-01-01", "previous day")]
)
def test_the_calendars_first_and_last_days_link_no_further(
    client: httpx.Client, date: str, missing: str
) -> None:
    r = client.get(f"/daily/{date}")
    assert r.status_code == 200, r.text[:300]
    assert missing not in r.text
    other = "previous day" if missing == "next day" else "next day"
    assert other in r.text


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"seed": "²"}, "seed: must be a whole number"),
        ({"seed": "9" * 5000}, "seed: must be from 0 to"),
        ({"seed": "1", "players": "9" * 5000}, "players: must be from 1 to 5"),
    ],
)
def test_numbers_python_would_choke_on_are_one_line_400s(
    client: httpx.Client, query: dict[str, str], words: str
) -> None:
    r = client.get("/play", params=query)
    assert r.status_code == 400
    assert words in r.text and len(r.text) < 20_000  # the value is quoted cut short


def test_a_review_form_with_odd_samples_is_a_400(client: httpx.Client) -> None:
    for samples in ("²", "9" * 5000, "-4"):
        r = client.post("/review", data={"record": "{}", "samples": samples})
        assert r.status_code == 400, samples


# -- what Schemathesis cannot express: Host, Origin, raw sockets ------------------------

API_POSTS = {
    "/api/solve": {"seed": 5, "time_limit": 0.5},
    "/api/check": {"record": "{}"},
}


def test_a_foreign_host_is_refused_and_localhost_served(client: httpx.Client) -> None:
    """DNS rebinding: another name that resolves to 127.0.0.1 is refused."""
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example", ""):
        for path in ("/api/daily", "/daily", "/static/style.css"):
            r = client.get(path, headers={"host": host})
            assert r.status_code in (400, 403), (host, path, r.status_code)
        r = client.get("/api/daily", headers={"host": host})
        if r.status_code == 403:
            assert "Host" in r.json()["error"]
    port = client.base_url.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "LOCALHOST"):
        assert client.get("/", headers={"host": host}).status_code == 200, host


@pytest.mark.parametrize("path", sorted(API_POSTS))
def test_a_cross_site_post_is_refused_before_any_work(client: httpx.Client, path: str) -> None:
    body = json.dumps(API_POSTS[path])
    cross = [
        {"origin": "http://evil.example", "content-type": "text/plain"},
        {"origin": "http://evil.example", "content-type": "application/json"},
        {"origin": "null", "content-type": "application/json"},
        {"sec-fetch-site": "cross-site", "content-type": "application/json"},
        {"sec-fetch-site": "same-site", "content-type": "application/json"},
    ]
    for headers in cross:
        r = client.post(path, content=body, headers=headers)
        assert r.status_code == 403, (headers, r.status_code)
        assert r.json()["error"].startswith("refused: a request from")
    # No browser headers (a script), or the page's own: served.
    port = client.base_url.port
    same = [
        {},
        {"origin": f"http://127.0.0.1:{port}"},
        {"origin": "null", "sec-fetch-site": "same-origin"},
    ]
    for headers in same:
        r = client.post(path, content=body, headers={**headers, "content-type": "application/json"})
        assert r.status_code in (200, 400, 422), (headers, r.status_code, r.text[:200])
    # Not JSON: a 415 even without an Origin (a form or text/plain post).
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        r = client.post(path, content=body, headers={"content-type": kind})
        assert r.status_code == 415 and "application/json" in r.json()["error"], kind


def test_the_review_form_takes_posts_from_its_page_only(client: httpx.Client) -> None:
    port = client.base_url.port
    form = {"record": "{}"}
    r = client.post("/review", data=form, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post("/review", data=form, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    for headers in ({"origin": f"http://127.0.0.1:{port}"}, {}):
        r = client.post("/review", data=form, headers=headers)
        assert r.status_code == 400 and "record" in r.text  # served: the record is refused


def test_every_answer_carries_the_security_headers(client: httpx.Client) -> None:
    for path in ("/", "/daily", "/solve", "/api/daily", "/static/page.js", "/nope", "/api/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/nope", 404),
        ("GET", "/api", 404),
        ("POST", "/api/daily", 405),
        ("DELETE", "/api/solve", 405),
        ("PUT", "/api/cento/board", 405),
        ("GET", "/api/solve", 405),
    ],
)
def test_api_misses_are_json(client: httpx.Client, method: str, path: str, status: int) -> None:
    r = client.request(method, path, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.headers["content-type"] == "application/json"
    assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
    if status == 405:
        assert r.headers["allow"]


def test_nulls_and_wrong_types_in_every_declared_field_are_400s(client: httpx.Client) -> None:
    """Every body field every endpoint declares, sent as null and as each
    JSON type it is not: a one-line 400 naming the field, never a 500."""
    from thegame.serve.endpoints import ENDPOINTS
    from thegame.serve.schema import json_type

    samples: list[object] = [None, True, 7, 1.5, "x", [], {}]
    for (method, path), spec in ENDPOINTS.items():
        for field in spec.body or ():
            for value in samples:
                kind = json_type(value)
                if kind in field.kinds or (kind == "integer" and "number" in field.kinds):
                    continue
                if value is None and field.nullable:
                    continue
                r = client.request(method, path, json={field.name: value})
                assert r.status_code == 400, (path, field.name, value, r.text[:200])
                assert r.json()["error"].startswith(f"{field.name}: must be"), r.text
            for sub in field.fields:
                parent = {} if "object" in field.kinds else None
                if parent is None:
                    continue
                r = client.request(method, path, json={field.name: {sub.name: None}})
                assert r.status_code == 400, (path, field.name, sub.name, r.text[:200])
                assert f"{field.name}.{sub.name}: must be" in r.json()["error"]


def test_error_lines_quote_input_cut_short(client: httpx.Client) -> None:
    huge = "9" * 5000
    for r in (
        client.get("/api/daily", params={"date": huge}),
        client.get("/api/mind/odds", params={"players": huge}),
        client.post("/api/solve", json={"seed": 1, "variant": huge}),
        client.post("/api/cento/board", json={"game": {"daily": huge}}),
        client.post("/api/board", json={"game": {"seed": 1}, "action": huge}),
    ):
        assert r.status_code == 400
        message = r.json()["error"]
        assert len(message) <= 240 and "--" not in message, message


def _raw(port: int, data: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(data)
    return s


def test_a_stalled_body_is_dropped_and_a_vanished_client_leaves_no_traceback() -> None:
    settings = Settings(workers=1, time_cap=2.0, queue_wait=20.0, read_timeout=1.0)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(logging.DEBUG)
    watched = [logging.getLogger(n) for n in ("uvicorn.error", "thegame.serve", "uvicorn")]
    for lg in watched:
        lg.addHandler(keep)
    try:
        with LiveServer(settings) as server:
            head = (
                "POST {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: {}\r\n"
                "Content-Length: 5000\r\n\r\n"
            )
            start = time.monotonic()
            s = _raw(server.port, head.format("/api/solve", server.port, "application/json")
                     .encode() + b'{"seed": ')  # fmt: skip
            answer = read_answer(s)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
            assert b'{"error":' in answer and time.monotonic() - start < 10
            # The review form's upload, abandoned half way.
            form = head.format("/review", server.port, "multipart/form-data; boundary=b")
            s = _raw(server.port, form.encode() + b"--b\r\nContent-Disposition: form-data; ")
            s.close()
            s = _raw(server.port, head.format("/api/check", server.port, "application/json")
                     .encode() + b'{"record": ')  # fmt: skip
            s.close()
            time.sleep(1.5)
            with http_client(server) as c:  # still serving
                assert c.get("/api/daily", params={"date": "x"}).status_code == 400
    finally:
        for lg in watched:
            lg.removeHandler(keep)
    assert not [r for r in records if r.exc_info or r.levelno >= logging.ERROR], [
        r.getMessage() for r in records
    ]


def test_a_puzzle_past_the_cap_is_a_503_once_not_a_dead_worker_per_visitor() -> None:
    """An Extreme daily takes seconds to make; with a make budget of 0.3 s
    the maker stops at the budget (its KeyboardInterrupt caught where the
    job ends, the worker kept), the answer is a 503 with Retry-After, and
    the next visitors get it at once instead of starting the job again."""
    settings = Settings(workers=1, time_cap=0.3, make_time=0.3, queue_wait=20.0)
    with LiveServer(settings) as server, http_client(server) as c:
        pids = server.app.state.server.pool.pids()
        url = "/api/daily?date=2026-12-07&variant=extreme"
        first = c.get(url)
        assert first.status_code == 503, first.text
        assert int(first.headers["retry-after"]) >= 60
        start = time.monotonic()
        again = [c.get(url) for _ in range(5)]
        assert all(r.status_code == 503 for r in again) and time.monotonic() - start < 2
        board = c.post("/api/board", json={"game": {"daily": "2026-12-07", "variant": "extreme"}})
        assert board.status_code == 503 and "retry-after" in board.headers
        assert server.app.state.server.pool.pids() == pids  # no worker was killed
