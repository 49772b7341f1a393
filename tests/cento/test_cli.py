"""``thegame cento deal|check|solve`` through click's CliRunner: the JSON
fields the issue names, exit codes, and one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from thegame.cli.main import cli
from thegame.solver.cento import ctable


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["cento", *args], input=stdin)


def write(tmp_path: Path, content: str | dict[str, Any], name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


def assert_user_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert result.stdout == ""


def deal_json(*args: str) -> dict[str, Any]:
    result = invoke("deal", *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_deal_json_fields() -> None:
    data = deal_json("--seed", "1", "--players", "2")
    assert data["game"] == "cento" and data["players"] == 2 and data["free"] == 4
    assert data["hands"] == [[8, 11, 20, 32, 52, 85, 97], [5, 6, 26, 37, 60, 61, 88]]
    assert data["open"] == 27
    assert data["draw"][6:8] == [100, "free"]
    assert data["rules"]["hand_size"] == 7


def test_deal_text_and_rule_options() -> None:
    result = invoke("deal", "--seed", "4", "--players", "3", "--cards", "1-30", "--hand-size", "4")
    assert result.exit_code == 0
    assert "player 3:" in result.stdout and "open card:" in result.stdout
    data = deal_json("--seed", "4", "--players", "1", "--cards", "1-30", "--free", "0")
    assert max(data["draw"]) <= 30 and "free" not in data["draw"]


def test_solve_solo_json_and_record_replays(tmp_path: Path) -> None:
    deal = write(tmp_path, deal_json("--seed", "3", "--players", "1"))
    record = str(tmp_path / "line.json")
    result = invoke("solve", "--deal", deal, "--json", "--save", record)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn_count"] == 7 and data["optimal"] is True
    assert set(data["stats"]) == {"nodes", "seconds"} and "nodes" not in data
    assert len(data["turns"]) == 7
    checked = invoke("check", record, "--json")
    assert checked.exit_code == 0
    verdict = json.loads(checked.stdout)
    assert verdict["legal"] and verdict["status"] == "won" and verdict["winner"] == 1
    assert verdict["cards_left"] == 0 and verdict["hand_sizes"] == [0]
    assert verdict["error"] is None


def test_solve_keeps_the_old_record_option_hidden(tmp_path: Path) -> None:
    # --save is the name every game's solve uses; --record still works, unlisted.
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    assert invoke("solve", "--seed", "3", "--record", str(old)).exit_code == 0
    assert invoke("solve", "--seed", "3", "--save", str(new)).exit_code == 0
    assert json.loads(old.read_text()) == json.loads(new.read_text())
    assert "--record" not in invoke("solve", "--help").stdout
    both = invoke("solve", "--seed", "3", "--record", str(old), "--save", str(new))
    assert both.exit_code == 2 and "give --save once" in both.stderr


def test_solve_duel_json_small_deck() -> None:
    args = ["--seed", "2", "--players", "2", "--cards", "1-14", "--hand-size", "3", "--free", "1"]
    result = invoke("solve", *args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["optimal"] is True and data["verdict"] in ("win", "loss", "tie")
    assert set(data) >= {"players", "player", "verdict", "optimal", "turns", "stats"}
    assert data["players"] == 2 and data["player"] == 1 and "proven" not in data


def test_solve_duel_budget_gives_unknown() -> None:
    result = invoke("solve", "--seed", "1", "--players", "2", "--node-limit", "100", "--json")
    data = json.loads(result.stdout)
    assert data["optimal"] is False and data["verdict"] == "unknown"
    assert data["progress"]["proof_number"] > 0


@pytest.mark.skipif(ctable.backend() != "c", reason="the compiled table search is not in use")
def test_solve_memory_bounds_the_compiled_table() -> None:
    """--memory: a full table of the compiled search makes the answer
    unknown long before the time is up."""
    args = ("solve", "--seed", "48", "--players", "2", "--time-limit", "60", "--json")
    data = json.loads(invoke(*args, "--memory", "16").stdout)
    assert data["verdict"] == "unknown" and data["progress"]["proof_number"] > 0
    assert 0 < data["stats"]["seconds"] < 30


def test_check_illegal_names_turn_play_and_rule(tmp_path: Path) -> None:
    deal = deal_json("--seed", "1", "--players", "2")
    record = {"deal": deal, "turns": [{"player": 1, "plays": [{"card": 8}], "draw": 0}]}
    result = invoke("check", write(tmp_path, record), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["cards_left"] == 14 and data["hand_sizes"] == [7, 7]
    assert set(data["error"]) == {"turn", "play", "rule", "message"}
    assert data["error"]["turn"] == 1 and data["error"]["play"] == 1
    assert data["error"]["rule"] == "Z1"
    text = invoke("check", write(tmp_path, record))
    assert text.exit_code == 2 and text.stdout == ""
    assert text.stderr.splitlines() == [
        "illegal: turn 1, play 1: rule Z1: 8 shares no digit with the open card 27"
    ]


def test_check_free_card_as(tmp_path: Path) -> None:
    deal = deal_json("--seed", "2", "--players", "1")  # holds a free card; open 68
    ok = {"deal": deal, "turns": [{"player": 1, "plays": [{"card": "free", "as": 86}]}]}
    assert invoke("check", write(tmp_path, ok)).exit_code == 0
    bad = {"deal": deal, "turns": [{"player": 1, "plays": [{"card": "free", "as": 12}]}]}
    data = json.loads(invoke("check", write(tmp_path, bad), "--json").stdout)
    assert data["error"]["rule"] == "Z4"


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        ("{not json", ("malformed JSON",)),
        ({"turns": []}, ("deal",)),
        ({"deal": {"hands": [[1, 1, 2, 3, 4, 5, 6]], "open": 9, "draw": []}}, ("twice",)),
        ({"deal": {"hands": [[1, 2, 3]], "open": 9, "draw": [], "free": 0}}, ("holds 3 cards",)),
        ({"deal": {"hands": [[1, 2, 3, 4, 5, 6, 7]], "open": 9, "draw": []}}, ("free cards",)),
        (
            {
                "deal": {"hands": [[1, 2, 3, 4, 5, 6, 7]], "open": 9, "draw": [], "free": 0},
                "turns": [{"player": 1, "plays": [{"card": "free"}]}],
            },
            ("as",),
        ),
    ],
)
def test_bad_records_are_one_line(
    tmp_path: Path, content: str | dict[str, Any], fragments: tuple[str, ...]
) -> None:
    assert_user_error(invoke("check", write(tmp_path, content)), *fragments)


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    assert_user_error(invoke("deal", "--seed", "1", "--cards", "5-x"), "--cards")
    assert_user_error(invoke("deal", "--seed", "1", "--cards", "0-30"), "card range")
    assert_user_error(invoke("deal", "--seed", "1", "--players", "6", "--hand-size", "20"), "deck")
    assert_user_error(invoke("solve"), "--deal")
    assert_user_error(invoke("solve", "--seed", "1", "--deck", "1 2"), "--seed and --deck")
    three = write(tmp_path, deal_json("--seed", "1", "--players", "3"))
    assert_user_error(invoke("solve", "--deal", three, "--player", "4"), "not a seat of 3")
    assert_user_error(
        invoke("solve", "--deal", three, "--all-seats", "--player", "2"), "--all-seats"
    )
    assert_user_error(invoke("check", str(tmp_path / "missing.json")), "missing.json")


def test_console_script_out_of_range_players_is_one_line() -> None:
    code = "from thegame.cli.main import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, "cento", "deal", "--seed", "1", "--players", "7"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert "--players" in proc.stderr


def test_solve_table_every_seat_same_shape() -> None:
    """3 players: one answer per seat with --all-seats, each the shape of a
    single seat's answer, each line replayed by the referee."""
    small = ["--cards", "1-20", "--hand-size", "3", "--free", "0"]
    result = invoke("solve", "--seed", "5", "--players", "3", *small, "--all-seats", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and [s["player"] for s in data["seats"]] == [1, 2, 3]
    deal = deal_json("--seed", "5", "--players", "3", *small)
    for seat in data["seats"]:
        assert seat["verdict"] in ("win", "loss") and seat["line_complete"]
        assert set(seat["stats"]) == {"nodes", "seconds"}
        from thegame.models.cento import Record, check

        replay = check(Record.from_dict({"deal": deal, "turns": seat["turns"]}))
        assert replay.legal and replay.state.over
        assert (seat["player"] - 1 in replay.state.winners) == (seat["verdict"] == "win")
    one = json.loads(
        invoke("solve", "--seed", "5", "--players", "3", *small, "--player", "2", "--json").stdout
    )
    assert one["verdict"] == data["seats"][1]["verdict"]
    text = invoke("solve", "--seed", "5", "--players", "3", *small, "--player", "2")
    assert "player 2" in text.stdout.splitlines()[0]
