"""Cento at a table of 2 to 6 through the API: the person in seat 1, the
engine in the others. The page never learns another hand or the draw
pile's order; every engine turn is legal (the record replays); a hint is a
legal turn for seat 1 from what it sees, labelled as an estimate; a card
drawn stays drawn; the review at the end judges every turn."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from thegame.models.cento.deal import Deal
from thegame.models.cento.record import Record, check
from thegame.models.cento.state import Turn, apply_turn

GAME = {"seed": 3, "players": 4}


def board(client: httpx.Client, d: dict[str, Any] | None, action: Any, game: Any = GAME) -> Any:
    body: dict[str, Any] = {"game": game, "action": action}
    if d is not None:
        body.update(turns=d["turns"], steps=d["steps"])
    r = client.post("/api/cento/board", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def next_action(d: dict[str, Any]) -> Any:
    """The first card the rules allow, else a draw, else the end of the turn."""
    if d["playable"]:
        card = d["playable"][0]
        return {"play": "free", "as": d["free_values"][0]} if card == "free" else {"play": card}
    for a in ("draw", "end", "treat", "trick"):
        if d["can"][a]:
            return a
    raise AssertionError(f"no step allowed: {d}")


def record_of(d: dict[str, Any], game: dict[str, int] = GAME) -> Record:
    deal = Deal.from_seed(game["seed"], game["players"])
    return Record(deal, tuple(Turn.from_dict(t, "turn") for t in d["turns"]))


def play_to_the_end(client: httpx.Client) -> dict[str, Any]:
    d = board(client, None, None)
    for _ in range(400):
        if d["state"] != "playing":
            return d
        d = board(client, d, next_action(d))
        # Only what seat 1 sees: its hand, the others' sizes, the pile's count.
        assert "draw_next" not in d and set(d["seats"][1]) == {"player", "cards", "you"}
    raise AssertionError("the game did not end")


def test_a_four_player_game_against_the_engine_to_its_end(client: httpx.Client) -> None:
    d = play_to_the_end(client)
    replayed = check(record_of(d))
    assert replayed.legal, replayed.error  # every engine turn obeyed the rules
    state = replayed.state
    assert state.over and d["state"] == "over"
    assert d["winners"] == [w + 1 for w in state.winners]
    assert d["you"] == ("win" if state.winners == (0,) else "shared" if 0 in state.winners
                        else "loss")  # fmt: skip
    assert [s["cards"] for s in d["seats"]] == [len(h) for h in state.hands]
    assert d["hand"] == [c if c else "free" for c in state.hands[0]]
    players = {t["player"] for t in d["turns"]}
    assert players == {1, 2, 3, 4}


def test_a_hint_is_a_legal_turn_from_what_seat_one_sees(client: httpx.Client) -> None:
    d = board(client, None, "hint")
    hint = d["hint"]["hint"]
    assert hint["player"] == 1 and d["hint"]["player"] == 1 and d["hint"]["turn"] == 1
    deal = Deal.from_seed(GAME["seed"], GAME["players"])
    rec = check(Record(deal, ()))
    apply_turn(deal, rec.state, Turn.from_dict(hint, "hint"))  # legal: no TurnError
    if "estimate" in d["hint"]:  # none for the only legal turn
        e = d["hint"]["estimate"]
        assert 0 <= e["win_share"] <= 1 and e["worlds"] >= 1


@pytest.mark.parametrize("players", [2, 6])
def test_every_table_size_deals_and_the_engine_answers(client: httpx.Client, players: int) -> None:
    game = {"seed": 8, "players": players}
    d = board(client, None, None, game)
    assert len(d["seats"]) == players and d["players"] == players
    d = board(client, d, next_action(d), game)
    assert check(record_of(d, game)).legal


def test_a_drawn_card_stays_drawn_and_there_is_no_solution(client: httpx.Client) -> None:
    d = board(client, None, None)
    r = client.post("/api/cento/board", json={"game": GAME, "action": "solution"})
    assert r.status_code == 422 and "ask for a hint" in r.json()["error"]  # well formed
    for _ in range(200):
        if d["state"] != "playing":
            pytest.skip("the game ended before seat 1 had to draw")
        if not d["playable"] and d["can"]["draw"]:
            break
        d = board(client, d, next_action(d))
    d = board(client, d, "draw")
    if d["steps"]:  # the drawn card can go on: the turn is still open
        body = {"game": GAME, "turns": d["turns"], "steps": d["steps"], "action": "undo"}
        r = client.post("/api/cento/board", json=body)
        assert r.status_code == 422 and "stays" in r.json()["error"]


def test_the_review_of_a_table_game_judges_every_turn(client: httpx.Client) -> None:
    d = play_to_the_end(client)
    body = {"cento_review": {"game": GAME, "turns": d["turns"]}}
    job = client.post("/api/jobs", json=body).json()
    assert job["unit"] == "turns" and job["total"] == len(d["turns"])
    for _ in range(600):
        if job["status"] != "running":
            break
        time.sleep(0.2)
        job = client.get("/api/job", params={"id": job["job"]}).json()
    assert job["status"] == "done", job
    r = job["result"]
    assert r["players"] == 4 and len(r["turns"]) == len(d["turns"])
    assert [t["player"] for t in r["turns"]] == [t["player"] for t in d["turns"]]
    for t in r["turns"]:
        # A proven loss of the win names the better turn; undecided ones carry the estimate.
        assert not t["lost_win"] or t["win_before"] is True
        if t["win_before"] is None or t["win_after"] is None:
            assert t.get("estimate") is None or t["estimate"]["worlds"] >= 1


def test_the_table_page_deals_a_seed(client: httpx.Client) -> None:
    r = client.get("/cento/table?players=5", follow_redirects=False)
    assert r.status_code == 303 and "players=5&seed=" in r.headers["location"]
    page = client.get("/cento/table?players=5&seed=4")
    assert (
        page.status_code == 200
        and 'data-game="{&#34;seed&#34;: 4, &#34;players&#34;: 5}"' in page.text
    )
    assert client.get("/cento/table?players=7&seed=4").status_code == 400
