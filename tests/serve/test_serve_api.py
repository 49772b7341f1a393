"""The JSON API under /api/: answers in the shared vocabulary, and every bad
input a 400 with one line (413 for a body over 1 MB), never a 500."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from typing import Any

import httpx
import pytest
from conftest import DAY, LiveServer, blunder_record, http_client, refusal

from thegame.models.the_game import Deal, Record, get_rules, replay
from thegame.models.the_game.notation import play_text
from thegame.puzzles.the_game.files import Puzzle
from thegame.serve.app import Settings
from thegame.serve.pool import JobCancelled, WorkerPool

JSON = {"content-type": "application/json"}

# -- daily ------------------------------------------------------------------------


def test_daily_is_the_days_puzzle_with_a_solution_that_wins(client: httpx.Client) -> None:
    r = client.get(f"/api/daily?date={DAY}")
    assert r.status_code == 200
    data = r.json()
    assert data["date"] == DAY and data["variant"] == "classic"
    puzzle = Puzzle.from_dict(data)  # verifies that "turns" replays to a win
    assert data["cards_left"] == puzzle.start().cards_left() > 0
    assert data["turns"] and data["position"]


@pytest.mark.slow  # making an Extreme puzzle takes seconds
def test_daily_extreme_stream(client: httpx.Client) -> None:
    r = client.get(f"/api/daily?date={DAY}&variant=extreme")
    assert r.status_code == 200
    assert r.json()["variant"] == "extreme"


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("date=2026-13-01", "date: not a valid date"),
        ("date=yesterday", "date: not a valid date"),
        ("variant=nimmt", "variant: must be one of classic, extreme"),
    ],
)
def test_daily_bad_input(client: httpx.Client, query: str, words: str) -> None:
    r = client.get(f"/api/daily?{query}")
    assert r.status_code == refusal("GET", "/api/daily", query=query), r.text
    assert words in r.json()["error"]


# -- solve and check -------------------------------------------------------------------


def test_solve_a_seed_gives_a_line_that_the_referee_accepts(client: httpx.Client) -> None:
    r = client.post("/api/solve", json={"seed": 5, "time_limit": 5, "explain": True})
    assert r.status_code == 200
    sol = r.json()
    assert sol["verdict"] == "win" and sol["cards_left"] == 0 and sol["optimal"] is True
    assert set(sol["stats"]) == {"nodes", "seconds"} and sol["stats"]["nodes"] > 0
    deal = Deal.from_seed(5, get_rules("classic"), 1).with_first(sol["first"])
    record = {"deal": deal.to_dict(), "turns": sol["turns"]}
    check = client.post("/api/check", json={"record": record}).json()
    assert check == {
        "legal": True,
        "status": "won",
        "cards_left": 0,
        "error": None,
        "reason": check["reason"],
    }
    # The line as written everywhere, and the explanations counted from 1.
    first = sol["turns"][0]["plays"]
    assert sol["line"].startswith(f"{first[0]['card']} {first[0]['pile']}")
    assert [t["turn"] for t in sol["explain"]] == list(range(1, len(sol["turns"]) + 1))
    assert all(p["reasons"] for t in sol["explain"] for p in t["plays"])


def test_solve_takes_a_deal_file_text_and_a_deck(client: httpx.Client) -> None:
    deal = Deal.from_seed(5, get_rules("classic"), 1)
    by_text = client.post("/api/solve", json={"deal": deal.to_text(), "time_limit": 5})
    by_deck = client.post(
        "/api/solve", json={"deck": " ".join(map(str, deal.deck)), "time_limit": 5}
    )
    by_json = client.post("/api/solve", json={"deal": deal.to_dict(), "time_limit": 5})
    verdicts = {r.status_code: r.json()["verdict"] for r in (by_text, by_deck, by_json)}
    assert verdicts == {200: "win"}


def test_solve_on_from_a_record_keeps_its_turns(client: httpx.Client) -> None:
    record = blunder_record()
    part = Record(record.deal, record.turns[:2])
    r = client.post("/api/solve", json={"deal": part.to_dict(), "time_limit": 3})
    assert r.status_code == 200
    sol = r.json()
    assert sol["from_turn"] == 3
    assert sol["turns"][:2] == part.to_dict()["turns"]


def test_the_server_cap_wins_over_the_requests_time_limit() -> None:
    settings = Settings(workers=1, time_cap=1.0, queue_wait=5.0)
    with LiveServer(settings) as server, http_client(server) as c:
        start = time.monotonic()
        # profi-hard 108: a deal the search does not decide in seconds.
        r = c.post("/api/solve", json={"seed": 108, "variant": "profi-hard", "time_limit": 600})
        took = time.monotonic() - start
    assert r.status_code == 200
    assert r.json()["verdict"] == "unknown" and r.json()["stopped_early"] is True
    assert r.json()["stats"]["seconds"] <= 2.5 and took < 8


def test_a_complete_answer_never_says_stopped_early(client: httpx.Client) -> None:
    """The Mind's odds at 4 players and tolerance 10 (half a minute and more
    to count) come from the stored counts within the cap, complete; a won
    solve is complete too."""
    start = time.monotonic()
    r = client.get("/api/mind/odds", params={"players": 4, "tolerance": 10})
    assert r.status_code == 200, r.text
    assert time.monotonic() - start < 10  # the test server's cap
    odds = r.json()
    assert "stopped_early" not in odds and len(odds["levels"]) == 8
    assert all(abs(sum(level["lives_lost"]) - 1) < 1e-9 for level in odds["levels"])
    won = client.post("/api/solve", json={"seed": 5, "time_limit": 5}).json()
    assert won["verdict"] == "win" and "stopped_early" not in won


def test_check_names_the_first_illegal_step_counted_from_1(client: httpx.Client) -> None:
    record = blunder_record()
    data = record.to_dict()
    bad = data["turns"][1]["plays"][1]
    bad["card"] = data["turns"][0]["plays"][0]["card"]  # a card already on a pile
    r = client.post("/api/check", json={"record": data})
    assert r.status_code == 200
    out = r.json()
    assert out["legal"] is False
    assert out["error"]["turn"] == 2 and out["error"]["play"] == 2
    assert out["error"]["rule"] == "C4" and "not in player 1's hand" in out["error"]["message"]
    # The library's own replay agrees on the step (its indices count from 0).
    lib = replay(Record.from_dict(data))
    assert lib.steps_ok == 1


BAD_SOLVES: list[tuple[Any, str]] = [
    ({"seed": "x"}, "seed: must be an integer"),
    ({"seed": -1}, "seed: must be from 0"),
    ({"seed": True}, "seed: must be an integer"),
    ({"seed": 1, "deck": "1 2 3"}, "give one of seed, deck, deal, not seed and deck"),
    ({}, "give one of seed, deck, deal"),
    ({"seed": 1, "time_limit": 0}, "time_limit: must be a finite positive"),
    ({"seed": 1, "time_limit": -3}, "time_limit: must be a finite positive"),
    ({"seed": 1, "time_limit": "5"}, "time_limit: must be a number"),
    ({"seed": 1, "variant": "duel"}, "variant: must be one of classic, profi"),
    ({"seed": 1, "variant": "face-to-face"}, "variant: must be one of classic, profi"),
    ({"seed": 1, "players": 9}, "players: must be from 1 to 5"),
    ({"seed": 1, "players": 0}, "players: must be from 1 to 5"),
    ({"deck": "1 2 3"}, "deck"),
    ({"deal": {"variant": "classic"}}, "deal"),
    ({"deal": "nonsense"}, "deal"),
    ({"deal": 7}, "deal"),
    ({"seed": 1, "explain": "yes"}, "explain: must be true or false"),
    ([1, 2], "body: must be a JSON object"),
]


@pytest.mark.parametrize(("body", "words"), BAD_SOLVES)
def test_solve_bad_input_is_a_400_with_one_line(
    client: httpx.Client, body: Any, words: str
) -> None:
    r = client.post("/api/solve", json=body)
    assert r.status_code == refusal("POST", "/api/solve", body), r.text
    message = r.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"", "empty"),
        (b"{", "malformed JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"seed": 1' + b"0" * 5000 + b"}", "malformed JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "malformed JSON"),
    ],
)
def test_malformed_bodies_are_400s(client: httpx.Client, raw: bytes, words: str) -> None:
    for path in ("/api/solve", "/api/check", "/api/hint", "/api/analyze", "/api/board"):
        r = client.post(path, content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, r.text)
        assert words in r.json()["error"]


@pytest.mark.parametrize("value", [b"NaN", b"1e999", b"-Infinity"])
def test_a_time_limit_that_is_no_finite_number_is_refused(
    client: httpx.Client, value: bytes
) -> None:
    r = client.post(
        "/api/solve", content=b'{"seed": 1, "time_limit": ' + value + b"}", headers=JSON
    )
    assert r.status_code == 400
    assert "time_limit: must be a finite positive number" in r.json()["error"]


def test_a_body_over_1_mb_is_a_413(client: httpx.Client) -> None:
    big = b'{"seed": 1, "pad": "' + b"x" * (1 << 20) + b'"}'
    r = client.post("/api/solve", content=big, headers=JSON)
    assert r.status_code == 413
    assert "larger than" in r.json()["error"]

    def chunks() -> Any:  # no Content-Length: counted as it streams
        for _ in range(20):
            yield b"x" * 65536

    r = client.post("/api/check", content=chunks(), headers=JSON)
    assert r.status_code == 413
    assert "larger than" in r.json()["error"]


# -- hint, analyze, explain -----------------------------------------------------------


def test_hint_from_a_record(client: httpx.Client) -> None:
    record = blunder_record()
    part = Record(record.deal, record.turns[:3])
    r = client.post("/api/hint", json={"record": part.to_dict(), "time_limit": 2})
    assert r.status_code == 200
    h = r.json()
    assert h["verdict"] in ("win", "loss", "unknown")
    # The shape of every game's hint: who moves, in which turn, the move.
    assert (h["player"], h["turn"]) == (1, 4)
    move = h["move"]
    assert move["end_turn"] is (move["plays"] == [])
    play = move["plays"][0]
    assert play["text"] == f"{play['card']} {play['pile']}"
    assert h["text"].startswith("play " + play["text"])


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, 'missing "record"'),
        ({"record": "{"}, "malformed JSON"),
        ({"record": {"deal": {"variant": "classic"}, "turns": "x"}}, "record"),
        ({"record": {"deal": {"variant": "classic", "players": 1, "seed": 1}}}, "record"),
    ],
)
def test_record_endpoints_bad_input(client: httpx.Client, body: Any, words: str) -> None:
    for path in ("/api/check", "/api/hint", "/api/analyze", "/api/explain"):
        r = client.post(path, json=body)
        assert r.status_code == refusal("POST", path, body), (path, r.text)
        assert words in r.json()["error"]


def test_hint_of_a_finished_game_is_a_422(client: httpx.Client) -> None:
    r = client.post("/api/hint", json={"record": blunder_record().to_dict()})
    assert r.status_code == 422  # well formed; the rules allow no next play
    assert "the game is over" in r.json()["error"]


def test_analyze_marks_the_blunder_counted_from_1(client: httpx.Client) -> None:
    record = blunder_record()
    r = client.post(
        "/api/analyze",
        json={"record": record.to_dict(), "samples": 20, "hindsight": False},
    )
    assert r.status_code == 200
    review = r.json()
    assert review["status"] == "lost" and review["hindsight"] is None
    marked = [a for a in review["actions"] if a["mark"]]
    assert marked and marked[0]["turn"] == 1 and marked[0]["mark"] == "??"
    assert marked[0]["drop"]["win_chance_lost"] > 0
    assert [s["turn"] for s in review["turn_starts"]][:3] == [1, 2, 3]


def test_analyze_with_hindsight(client: httpx.Client) -> None:
    record = blunder_record()
    r = client.post(
        "/api/analyze",
        json={
            "record": record.to_dict(),
            "samples": 4,
            "time_limit": 0.2,
            "hindsight_total": 2,
        },
    )
    assert r.status_code == 200
    hs = r.json()["hindsight"]
    assert hs["curve"] and hs["steps"][0] == {"turn": 1, "play": 1}


def test_analyze_says_a_tiny_hindsight_budget_stopped_it_early(client: httpx.Client) -> None:
    """A millisecond per position cannot prove the blunder's cost (a loss
    after it): the figure is a bound, and the answer says the budget cut it."""
    record = blunder_record()
    body = {"record": record.to_dict(), "samples": 4, "time_limit": 0.001, "hindsight_total": 0.01}
    r = client.post("/api/analyze", json=body)
    assert r.status_code == 200
    review = r.json()
    hindsight = review["hindsight"]
    assert hindsight["cards_lost_unproven"] or not hindsight["best_at_start"]["optimal"]
    assert review["stopped_early"] is True
    # Without hindsight nothing was cut: no such key.
    r = client.post("/api/analyze", json={**body, "hindsight": False})
    assert r.status_code == 200 and "stopped_early" not in r.json()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"samples": 1}, "samples: must be from 2"),
        ({"samples": 2.5}, "samples: must be an integer"),
        ({"hindsight": 1}, "hindsight: must be true or false"),
        ({"time_limit": float("inf")}, "finite positive"),
    ],
)
def test_analyze_bad_options(client: httpx.Client, extra: dict[str, Any], words: str) -> None:
    body = json.dumps({"record": blunder_record().to_dict(), **extra})
    r = client.post("/api/analyze", content=body, headers=JSON)
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_explain(client: httpx.Client) -> None:
    record = blunder_record()
    r = client.post("/api/explain", json={"record": record.to_dict()})
    assert r.status_code == 200
    turns = r.json()["turns"]
    assert len(turns) == len(record.turns) and turns[0]["turn"] == 1


# -- the pages' game ----------------------------------------------------------------------


def _board(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/board", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_daily_board_solved_step_by_step(client: httpx.Client) -> None:
    game = {"daily": DAY}
    view = _board(client, {"game": game})
    assert view["state"] == "playing" and "draw_pile" in view  # a puzzle shows its deck
    puzzle = Puzzle.from_dict(client.get(f"/api/daily?date={DAY}").json())
    steps = 0
    while view["state"] == "playing":
        body = {"game": game, "turns": view["turns"], "plays": view["plays"]}
        view = _board(client, {**body, "action": "solution"})
        steps += 1
        assert steps < 200
    assert view["state"] == "solved"
    assert view["turns_taken"] == len(puzzle.solution)
    share = view["share"]
    assert f"solved in {len(puzzle.solution)} turns" in share
    assert ", 1 hint\n" in share  # the client said 0 before the last step; it counts
    # Spoiler-free: no play of the solution is named.
    rules = puzzle.deal.rules
    assert not any(
        play_text(rules, p.card, p.pile) in share for t in puzzle.solution for p in t.plays
    )


def test_board_refuses_an_illegal_play_and_keeps_the_position(client: httpx.Client) -> None:
    game = {"seed": 3, "variant": "classic", "players": 1}
    view = _board(client, {"game": game})
    assert "draw_pile" not in view  # a real game: the draw pile is face down
    hand = [c["card"] for c in view["hand"]]
    high = max(hand)
    after = _board(client, {"game": game, "action": {"play": {"card": high, "pile": "A1"}}})
    assert after["plays"] == [{"card": high, "pile": "A1"}] and after["error"] is None
    assert after["can_end"] is False  # the minimum is 2
    # Each pile's room: the cards still out it takes (every one at the start, rule C5).
    assert [p["room"] for p in view["piles"]] == [98] * 4
    room = {p["pile"]: p["room"] for p in after["piles"]}
    assert room["A1"] == sum(1 for c in range(2, 100) if c != high and (c > high or c == high - 10))
    assert room["D1"] == 97
    assert "A1" not in after["legal"].get(str(min(hand)), [])
    low = min(hand)
    refused = _board(
        client,
        {"game": game, "plays": after["plays"], "action": {"play": {"card": low, "pile": "A1"}}},
    )
    assert refused["error"]["rule"] == "C5" and refused["error"]["turn"] == 1
    assert refused["error"]["play"] == 2 and f"A1 shows {high}" in refused["error"]["message"]
    assert refused["plays"] == after["plays"] and refused["hand"] == after["hand"]
    undone = _board(client, {"game": game, "plays": after["plays"], "action": "undo"})
    assert undone["plays"] == [] and undone["hand"] == view["hand"]


def test_real_game_played_to_its_end_reveals_the_record_only_then(client: httpx.Client) -> None:
    game = {"seed": 11, "variant": "classic", "players": 1}
    view = _board(client, {"game": game})
    hint = _board(client, {"game": game, "action": "hint"})["hint"]
    assert hint["estimate"]["samples"] > 0 and 0 <= hint["estimate"]["win_chance"] <= 1
    # An estimate from what the player sees proves nothing: unknown, in the shared shape.
    assert hint["verdict"] == "unknown" and (hint["player"], hint["turn"]) == (1, 1)
    assert hint["move"]["end_turn"] is False and hint["move"]["plays"]
    turns: list[Any] = []
    while view["state"] == "playing":
        assert "record" not in view and "draw_pile" not in view
        # Always the highest legal card: a poor player, so the game ends soon.
        legal = view["legal"]
        if view["can_end"] or not legal:
            view = _board(
                client, {"game": game, "turns": turns, "plays": view["plays"], "action": "end"}
            )
        else:
            card = max(legal, key=int)
            play = {"card": int(card), "pile": legal[card][0]}
            view = _board(
                client,
                {"game": game, "turns": turns, "plays": view["plays"], "action": {"play": play}},
            )
        turns = view["turns"]
    assert view["state"] in ("lost", "solved")
    record = Record.from_dict(view["record"])
    assert replay(record).status == view["status"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "game: must be a JSON object"),
        ({"game": {}}, 'give "daily" or "seed"'),
        ({"game": {"seed": 1}, "action": "fly"}, "action: must be"),
        ({"game": {"seed": 1}, "turns": [{"player": 1, "plays": []}]}, "turn 1"),
        ({"game": {"seed": 1}, "plays": [{"card": 1000, "pile": "A1"}]}, "play 1"),
        ({"game": {"seed": 1}, "plays": [{"card": 5, "pile": "Z9"}]}, "unknown pile"),
        ({"game": {"seed": 1}, "action": {"play": {"card": "5", "pile": "A1"}}}, "card must"),
        ({"game": {"daily": "2026-02-30"}}, "not a valid date"),
        ({"game": {"seed": 1}, "helped": -1}, "helped"),
    ],
)
def test_board_bad_input(client: httpx.Client, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/board", json=body)
    assert r.status_code == refusal("POST", "/api/board", body), r.text
    assert words in r.json()["error"]


# -- the pool ---------------------------------------------------------------------------


def test_a_full_pool_answers_503_with_retry_after() -> None:
    settings = Settings(workers=1, time_cap=4.0, queue_wait=0.3)
    with LiveServer(settings) as server, http_client(server) as c:
        slow: dict[str, Any] = {}

        def long_solve() -> None:
            body = {"seed": 108, "variant": "profi-hard", "time_limit": 3}
            slow["r"] = c.post("/api/solve", json=body)

        t = threading.Thread(target=long_solve)
        t.start()
        time.sleep(1.0)
        r = c.post("/api/solve", json={"seed": 5, "time_limit": 1})
        t.join()
    assert r.status_code == 503
    assert int(r.headers["Retry-After"]) >= 1 and "busy" in r.json()["error"]
    assert slow["r"].status_code == 200


def test_a_job_whose_client_went_away_is_stopped_and_its_worker_replaced() -> None:
    from thegame.models import Limit
    from thegame.serve import jobs
    from thegame.serve.inputs import game

    async def scenario() -> tuple[float, list[int], list[int], int]:
        pool = WorkerPool(1, 60.0)  # the wait covers a fresh worker's start on a busy machine
        await pool.start()
        before = pool.pids()
        start = time.monotonic()

        async def gone() -> bool:
            return time.monotonic() - start > 0.5

        record = game({"seed": 108, "variant": "profi-hard"})
        with pytest.raises(JobCancelled):
            await pool.run(jobs.solve_job, (record, Limit(time=30.0, memory=64), False), 30.0, gone)
        took = time.monotonic() - start
        # The fresh worker (started in the background) serves the next job.
        job = (game({"seed": 5}), Limit(time=5.0, memory=64), False)
        quick = await pool.run(jobs.solve_job, job, 5.0)
        after = pool.pids()
        await pool.close()
        return took, before, after, quick["cards_left"]

    took, before, after, left = asyncio.run(scenario())
    assert took < 3 and before != after and len(after) == 1 and left == 0
    for pid in before:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
