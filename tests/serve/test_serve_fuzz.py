"""Odd query strings never make the server fail: every page and endpoint,
with seeds out of range, unknown variants, dates that do not exist, huge
and non-ASCII numbers, answers 200 (or a redirect) or a 400 with one line,
never a 500."""

from __future__ import annotations

import random

import httpx
import pytest
from conftest import DAY

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
    assert r.status_code in (200, 303, 400, 404), what
    assert "Traceback" not in r.text, what
    if r.status_code == 400 and r.headers["content-type"].startswith("application/json"):
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
            r = client.post(path, params=query, json=rng.choice([{}, [], {"seed": "1"}]))
            assert r.status_code == 400, f"POST {path} {query}: {r.status_code}"
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
