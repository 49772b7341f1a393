"""``thegame nimmt ...`` through click's CliRunner: formats and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.cli import run_main
from tests.support.nimmt import random_record
from thegame.cli.main import cli
from thegame.models.nimmt.record import Record, replay
from thegame.solver.nimmt.problem import problem_from_record
from thegame.solver.nimmt.search import Move, line_heads


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["nimmt", *args])


def write(tmp_path: Path, content: str | dict[str, Any]) -> str:
    path = tmp_path / "round.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


def assert_user_error(result: Result, *fragments: str) -> None:
    """Exit 2, one line on stderr starting with ``error:``, no traceback."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]


def test_deal_json() -> None:
    result = invoke("deal", "--seed", "1", "--players", "4", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["game"] == "6-nimmt" and data["players"] == 4
    assert data["rows"] == [32, 85, 11, 8]
    assert data["hands"][0] == [5, 6, 20, 26, 37, 52, 60, 61, 88, 97]
    text = invoke("deal", "--seed", "1", "--players", "4")
    assert "row 1: 32" in text.stdout


def test_check_json(tmp_path: Path) -> None:
    record = random_record(8, 5)
    result = invoke("check", write(tmp_path, record.to_json()), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == {
        "legal": True,
        "status": "finished",
        "heads": replay(record).heads,
        "error": None,
    }


def test_check_illegal_names_turn_and_player(tmp_path: Path) -> None:
    data = random_record(8, 5).to_json()
    data["turns"][3]["cards"][2] = data["turns"][0]["cards"][2]  # played already
    result = invoke("check", write(tmp_path, data), "--json")
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["legal"] is False and out["status"] == "in_progress"
    assert out["error"] == {
        "turn": 4,
        "play": 3,
        "rule": "S2",
        "message": out["error"]["message"],
    }
    text = invoke("check", write(tmp_path, data))
    lines = text.stderr.splitlines()
    # The one shape of an illegal step in every game: where, the rule, the message.
    assert lines == [f"illegal: turn 4, play 3: rule S2: {out['error']['message']}"]


def test_solve_json(tmp_path: Path) -> None:
    record = random_record(21, 4)
    result = invoke("solve", write(tmp_path, record.to_json()), "--player", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"player", "verdict", "heads", "optimal", "played_heads", "turns", "stats"}
    assert data["verdict"] == ("win" if data["heads"] == 0 else "loss")
    assert set(data["stats"]) == {"nodes", "seconds"}
    assert data["player"] == 2 and data["optimal"] is True
    assert data["played_heads"] == replay(record).heads[1]
    assert data["heads"] <= data["played_heads"]
    line = [Move(t["card"], None if t["row"] is None else t["row"] - 1) for t in data["turns"]]
    assert line_heads(problem_from_record(record, 1), line) == data["heads"]
    assert sorted(t["card"] for t in data["turns"]) == list(record.deal.hands[1])


def _bad(change: Any) -> dict[str, Any]:
    data = random_record(3, 3).to_json()
    change(data)
    return data


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"deal": [1, 2', "malformed JSON"),
        (_bad(lambda d: d["deal"]["hands"][0].__setitem__(1, d["deal"]["rows"][0])), "twice"),
        (_bad(lambda d: d["deal"]["hands"][2].append(104)), "hand of 11 cards"),
        (_bad(lambda d: d["turns"][0].__setitem__("rows", {"2": 7})), "out of range"),
        (_bad(lambda d: d["turns"][1]["cards"].append(1)), "3 cards"),
    ],
)
@pytest.mark.parametrize("command", [["check"], ["solve", "--player", "1"]])
def test_bad_input_is_one_line(
    tmp_path: Path, content: str | dict[str, Any], fragment: str, command: list[str]
) -> None:
    path = write(tmp_path, content)
    result = invoke(command[0], path, *command[1:])
    assert_user_error(result, fragment)


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    assert_user_error(invoke("deal", "--seed", "1", "--players", "11"), "--players", "2 to 10")
    assert_user_error(invoke("deal", "--seed", "1", "--players", "1", "--json"), "--players")
    assert_user_error(invoke("deal"), "--seed N")
    path = write(tmp_path, random_record(3, 3).to_json())
    assert_user_error(invoke("solve", path, "--player", "4"), "--player")
    unfinished = Record.from_json(random_record(3, 3).to_json())
    short = Record(unfinished.deal, unfinished.turns[:5]).to_json()
    assert_user_error(invoke("solve", write(tmp_path, short), "--player", "1"), "5 of 10 turns")
    assert_user_error(invoke("check", str(tmp_path / "missing.json")), "missing.json")


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "soon"])
def test_a_time_budget_that_is_not_finite_and_positive_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    path = write(tmp_path, random_record(3, 3).to_json())
    args = ("nimmt", "solve", path, "--player", "1", "--time-limit", value)
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "--time-limit" in err
    assert "finite number of seconds above 0" in err or "not a number" in err


def test_the_options_are_the_shared_ones() -> None:
    # One type and one help text per meaning, as in every game's commands.
    import click

    from thegame.cli import options
    from thegame.cli.nimmt import nimmt

    def param(command: str, name: str) -> click.Parameter:
        return next(p for p in nimmt.commands[command].params if p.name == name)

    assert param("solve", "time_limit").type is options.SECONDS
    assert param("hint", "sample_seed").type is options.SEED
    for command in ("check", "solve"):
        shared = next(p for p in cli.commands["check"].params if p.name == "as_json")
        assert getattr(param(command, "as_json"), "help", None) == getattr(shared, "help", None)
    assert param("solve", "record_file").metavar == "FILE"


def test_analyze_json(tmp_path: Path) -> None:
    record = random_record(17, 3)
    path = write(tmp_path, record.to_json())
    result = invoke(
        "analyze", path, "--player", "3", "--samples", "2", "--sample-seed", "4", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player"] == 3 and data["samples"] == 2 and data["sample_seed"] == 4
    assert data["played_heads"] == replay(record).heads[2]
    assert data["lost"] == data["played_heads"] - data["heads"]  # the names of 'solve'
    assert data["optimal"] is True
    assert data["verdict"] == ("win" if data["heads"] == 0 else "loss")
    assert [t["turn"] for t in data["turns"]] == list(range(1, 11))
    assert [t["card"] for t in data["turns"]] == [t.cards[2] for t in record.turns]
    assert sum(t["lost"] for t in data["turns"]) == data["lost"]
    fields = {"card", "row", "heads", "best_card", "best_row", "best_heads", "blind_card"}
    assert fields <= set(data["turns"][0])
    assert_user_error(invoke("analyze", path, "--player", "0"), "--player")
