"""6 nimmt! and Cento over HTTP: /api/nimmt/table and /api/nimmt/review,
/api/cento/daily, /api/cento/board and /api/cento/solve, their pages, and
every bad input a 400 with one line."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from conftest import DAY, refusal

from thegame.analysis.cento.session import step_text, turn_steps
from thegame.analysis.nimmt.players import LEVELS
from thegame.models.cento.deal import Deal as CentoDeal
from thegame.models.cento.record import Record as CentoRecord
from thegame.models.cento.record import check
from thegame.models.cento.rules import CentoStatus
from thegame.models.cento.state import Turn as CentoTurn
from thegame.models.nimmt.record import GameRecord, Record, RoundStatus, replay, replay_game
from thegame.models.nimmt.state import round_deals

ROUND = {"seed": 3, "players": 3, "level": "easy", "whole": False}


def table(client: httpx.Client, game: dict[str, Any], rounds: Any, action: Any) -> httpx.Response:
    return client.post("/api/nimmt/table", json={"game": game, "rounds": rounds, "action": action})


def one_line_refusal(r: httpx.Response, *words: str) -> str:
    """A refusal in one line: a 400 where the schema refuses the request,
    a 422 where the game's rules do (``refusal``)."""
    req = r.request
    body = json.loads(req.content) if req.content else None
    assert r.status_code == refusal(req.method, req.url.path, body, req.url.query.decode()), (
        r.text[:300]
    )
    message: str = r.json()["error"]
    assert message and "\n" not in message
    for w in words:
        assert w in message, message
    return message


def play_round(client: httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    """Play the lowest card every turn, taking row 1 when rule S3 asks."""
    d = table(client, game, [], None).json()
    chose = False
    while d["state"] != "over":
        card = d["hand"][0]["card"]
        r = table(client, game, d["rounds"], {"card": card})
        assert r.status_code == 200, r.text
        if r.json()["state"] == "choose-row":
            trick = r.json()["trick"]
            assert trick[0] == card == min(trick)  # the person's, the lowest: rule S3
            r = table(client, game, d["rounds"], {"card": card, "row": 1})
            assert r.status_code == 200, r.text
            chose = True
        before = len(d["hand"])
        d = r.json()
        if d["state"] != "over":
            assert len(d["hand"]) == before - 1
    assert chose or game["seed"] != 3  # seed 3 has a row to take
    return d


# -- 6 nimmt! ------------------------------------------------------------------------


def test_nimmt_round_played_to_its_end_gives_a_record_the_referee_accepts(
    client: httpx.Client,
) -> None:
    d = play_round(client, ROUND)
    record = Record.from_json(d["record"])
    assert record.deal == next(round_deals(3, 3))  # the seed's first deal
    result = replay(record)
    assert result.legal and result.status == RoundStatus.FINISHED
    assert d["heads"] == result.heads == d["result"]["totals"]
    assert d["result"]["you"] in ("win", "shared", "loss")
    low = min(result.heads)
    assert d["result"]["winners"] == [p + 1 for p, h in enumerate(result.heads) if h == low]
    # The row the person took on turn 1 is in the record (rule S3).
    assert record.turns[0].choices == {0: 0}


def test_nimmt_review_of_the_round(client: httpx.Client) -> None:
    d = play_round(client, ROUND)
    r = client.post("/api/nimmt/review", json={"record": d["record"], "samples": 4})
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["player"] == 1 and len(review["turns"]) == 10
    assert review["played_heads"] == d["heads"][0]
    assert review["lost"] == review["played_heads"] - review["heads"] >= 0
    assert sum(t["lost"] for t in review["turns"]) == review["lost"]


def test_nimmt_the_others_choose_the_same_cards_whatever_the_person_plays(
    client: httpx.Client,
) -> None:
    """The others choose face down (rule S2): their cards do not depend on the person's."""
    d = table(client, ROUND, [], None).json()
    a = table(client, ROUND, [], {"card": d["hand"][-1]["card"]}).json()
    b = table(client, ROUND, [], {"card": d["hand"][-2]["card"]}).json()
    assert a["last"]["cards"][1:] == b["last"]["cards"][1:]


def test_nimmt_a_whole_game_goes_on_to_the_next_round(client: httpx.Client) -> None:
    game = {**ROUND, "whole": True}
    d = table(client, game, [], None).json()
    for _ in range(10):
        card = d["hand"][0]["card"]
        r = table(client, game, d["rounds"], {"card": card})
        if r.json()["state"] == "choose-row":
            r = table(client, game, d["rounds"], {"card": card, "row": 2})
        d = r.json()
    assert d["round"] == 2 and d["turn"] == 1 and len(d["hand"]) == 10
    assert d["points"] == d["totals"] and sum(d["points"]) > 0
    assert d["last"]["turn"] == 10  # the last turn of round 1 is still shown
    checked = replay_game(
        GameRecord(
            tuple(
                Record.from_json({"deal": deal.to_json(), "turns": turns})
                for deal, turns in zip(round_deals(3, 3), d["rounds"][:1], strict=False)
            )
        )
    )
    assert checked.legal and checked.scores == d["points"]


def test_nimmt_hint_is_a_card_of_the_hand(client: httpx.Client) -> None:
    d = table(client, ROUND, [], None).json()
    r = table(client, ROUND, [], "hint")
    assert r.status_code == 200, r.text
    assert r.json()["hint"]["move"]["card"] in [c["card"] for c in d["hand"]]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ["game"]),
        ({"game": {"players": 3}}, ["seed"]),
        ({"game": {**ROUND, "players": 11}}, ["players", "11"]),
        ({"game": {**ROUND, "level": "godlike"}}, ["level", "easy"]),
        ({"game": {**ROUND, "whole": "yes"}}, ["whole"]),
        ({"game": ROUND, "rounds": "x"}, ["rounds"]),
        ({"game": ROUND, "rounds": [[{"cards": [1, 2]}]]}, ["rounds[1]"]),
        ({"game": ROUND, "rounds": [[{"cards": [104, 103, 102]}]]}, ["S2"]),
        ({"game": ROUND, "rounds": [[], []]}, ["rounds"]),
        ({"game": ROUND, "action": {"card": 104}}, ["not in your hand"]),
        ({"game": ROUND, "action": {"card": "1"}}, ["card"]),
        ({"game": ROUND, "action": {"card": 1, "row": 5}}, ["row"]),
        ({"game": ROUND, "action": {"row": 1}}, ["action"]),
        ({"game": ROUND, "action": "pass"}, ["action"]),
    ],
)
def test_nimmt_table_bad_input(
    client: httpx.Client, body: dict[str, Any], words: list[str]
) -> None:
    one_line_refusal(client.post("/api/nimmt/table", json=body), *words)


def test_nimmt_row_named_when_rule_s3_asks_none(client: httpx.Client) -> None:
    d = table(client, ROUND, [], None).json()
    high = d["hand"][-1]["card"]  # 101: above a row's end, no choice
    one_line_refusal(table(client, ROUND, [], {"card": high, "row": 1}), "S3")


def test_nimmt_no_turn_after_the_end(client: httpx.Client) -> None:
    d = play_round(client, ROUND)
    one_line_refusal(table(client, ROUND, d["rounds"], {"card": 1}), "over")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ["record"]),
        ({"record": {"deal": {}}}, ["deal"]),
        ({"record": {"deal": next(round_deals(3, 3)).to_json(), "turns": []}}, []),
        ({"record": "x"}, ["record"]),
    ],
)
def test_nimmt_review_bad_input(
    client: httpx.Client, body: dict[str, Any], words: list[str]
) -> None:
    one_line_refusal(client.post("/api/nimmt/review", json=body), *words)


def test_nimmt_page_lists_the_levels_and_redirects_to_a_seed(client: httpx.Client) -> None:
    r = client.get("/nimmt", follow_redirects=False)
    assert r.status_code == 303 and "seed=" in r.headers["location"]
    r = client.get("/nimmt?seed=3&players=3&level=easy&round=1")
    assert r.status_code == 200
    for level in LEVELS:
        assert f'<option value="{level}"' in r.text
    assert client.get("/nimmt?seed=3&level=nope").status_code == 400
    assert client.get("/nimmt?seed=3&players=1").status_code == 400


# -- Cento ---------------------------------------------------------------------------


def cento(client: httpx.Client, d: dict[str, Any] | None, action: Any) -> httpx.Response:
    body = {"game": {"daily": DAY}, "turns": [], "steps": [], "action": action}
    if d is not None:
        body.update(turns=d["turns"], steps=d["steps"])
    return client.post("/api/cento/board", json=body)


def test_cento_daily_is_the_libraries_puzzle(client: httpx.Client) -> None:
    r = client.get(f"/api/cento/daily?date={DAY}")
    assert r.status_code == 200
    data = r.json()
    assert data["date"] == DAY and data["optimal"] is True
    record = CentoRecord.from_dict({"deal": data["deal"], "turns": data["turns"]})
    result = check(record)
    assert result.legal and result.state.status == CentoStatus.WON
    assert len(data["turns"]) == data["turn_count"]


def test_cento_daily_solved_by_its_own_steps_then_solution_steps(client: httpx.Client) -> None:
    """The first turn played as the puzzle's line says, card by card; the
    rest by 'solution' steps; it ends solved in the fewest turns."""
    data = client.get(f"/api/cento/daily?date={DAY}").json()
    first = CentoTurn.from_dict(data["turns"][0], "turns[0]")
    d = cento(client, None, None).json()
    assert d["state"] == "playing" and d["turn"] == 1
    for step in turn_steps(first):
        action: Any = step_text(step)
        if action.isdigit():
            assert int(action) in d["playable"]
            action = {"play": int(action)}
        r = cento(client, d, action)
        assert r.status_code == 200, r.text
        d = r.json()
    assert d["turn"] == 2 and d["turns"] == [first.to_dict()]
    while d["state"] == "playing":
        r = cento(client, d, "solution")
        assert r.status_code == 200, r.text
        d = r.json()
    assert d["state"] == "solved" and len(d["turns"]) == data["turn_count"]
    assert d["cards_left"] == 0 and "14 turns" in d["share"]


def test_cento_undo_takes_back_a_step_then_a_turn(client: httpx.Client) -> None:
    d = cento(client, None, None).json()
    card = d["playable"][0]
    after = cento(client, d, {"play": card}).json()
    back = cento(client, after, "undo").json()
    assert back["turns"] == [] and back["steps"] == [] and back["hand"] == d["hand"]
    one_line_refusal(cento(client, d, "undo"), "nothing to take back")


def test_cento_hint_is_the_first_turn_of_a_fewest_line(client: httpx.Client) -> None:
    r = cento(client, None, "hint")
    assert r.status_code == 200, r.text
    h = r.json()["hint"]
    assert h["verdict"] == "win" and h["optimal"] and h["turn_count"] == 14
    assert h["hint"]["player"] == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ["game"]),
        ({"game": {"daily": "2026-02-30"}}, ["date"]),
        ({"game": {"seed": -1}}, ["seed"]),
        ({"game": {"daily": DAY}, "action": {"play": 99}}, ["Z1"]),
        ({"game": {"daily": DAY}, "action": {"play": 22}}, ["Z1", "91"]),
        ({"game": {"daily": DAY}, "action": "draw"}, ["Z1"]),
        ({"game": {"daily": DAY}, "action": "end"}, ["Z1"]),
        ({"game": {"daily": DAY}, "action": "trick"}, ["Z5"]),
        ({"game": {"daily": DAY}, "action": {"play": "free"}}, ["as"]),
        ({"game": {"daily": DAY}, "action": {"play": "free", "as": 100}}, ["as"]),
        ({"game": {"daily": DAY}, "action": {"play": 15, "as": 3}}, ["free"]),
        ({"game": {"daily": DAY}, "action": "jump"}, ["action"]),
        ({"game": {"daily": DAY}, "turns": "x"}, ["turns"]),
        ({"game": {"daily": DAY}, "turns": [{"player": 1, "plays": [{"card": 5}]}]}, ["turn 1"]),
        ({"game": {"daily": DAY}, "steps": ["37x"]}, ["37x"]),
        ({"game": {"daily": DAY}, "steps": [5]}, ["steps"]),
    ],
)
def test_cento_board_bad_input(
    client: httpx.Client, body: dict[str, Any], words: list[str]
) -> None:
    one_line_refusal(client.post("/api/cento/board", json=body), *words)


def test_cento_solve_a_seed_gives_the_verdict_and_a_line_that_replays(
    client: httpx.Client,
) -> None:
    r = client.post("/api/cento/solve", json={"seed": 7, "players": 1, "time_limit": 5})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["verdict"] in ("win", "loss", "unknown") and data["headline"]
    if data["verdict"] == "win":
        turns = [
            {k: v for k, v in t.items() if k not in ("turn", "reasons")} for t in data["turns"]
        ]
        record = CentoRecord(CentoDeal.from_seed(7, 1), ())
        line = CentoRecord.from_dict({"deal": record.deal.to_dict(), "turns": turns})
        assert check(line).state.status == CentoStatus.WON
        assert len(turns) == data["turn_count"] and all(t["reasons"] for t in data["turns"])


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ["seed", "record"]),
        ({"seed": 1, "record": {}}, ["seed", "record"]),
        ({"seed": 1, "players": 3}, ["players"]),
        ({"seed": 1, "time_limit": "NaN"}, ["time_limit"]),
        ({"seed": 1, "time_limit": 0}, ["time_limit"]),
        ({"record": {"deal": "x"}}, ["deal"]),
    ],
)
def test_cento_solve_bad_input(
    client: httpx.Client, body: dict[str, Any], words: list[str]
) -> None:
    one_line_refusal(client.post("/api/cento/solve", json=body), *words)


def test_cento_pages(client: httpx.Client) -> None:
    r = client.get(f"/cento/{DAY}")
    assert r.status_code == 200 and "14 turns" in r.text and 'data-action="solution"' in r.text
    assert client.get("/cento/2026-02-30").status_code == 400
    assert client.get("/api/cento/daily?date=x").status_code == 400
