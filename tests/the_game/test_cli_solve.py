"""``thegame solve`` and ``thegame solve-batch`` through click's CliRunner."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from thegame.cli.main import cli, main
from thegame.models import Limit
from thegame.models.the_game import Deal, Record, get_rules, replay, small_rules


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_solve_json_win_replays(tmp_path: Path) -> None:
    record_path = tmp_path / "line.json"
    result = invoke(
        "solve", "--seed", "3", "--json", "--time-limit", "30", "--save", str(record_path)
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"verdict", "first", "cards_left", "turns", "proof", "stats"}
    assert data["verdict"] == "win" and data["cards_left"] == 0 and data["proof"] is None
    assert data["first"] == 1
    assert sum(len(t["plays"]) for t in data["turns"]) == 98
    assert data["stats"]["nodes"] > 0
    # The written record is what the JSON says, and check accepts it as won.
    record = Record.from_json(record_path.read_text())
    assert replay(record).status == "won"
    read = Record.from_dict({"deal": record.deal.to_dict(), "turns": data["turns"]})
    assert read.turns == record.turns and record.full_view  # a known-order game
    checked = invoke("check", str(record_path), "--json")
    assert checked.exit_code == 0
    assert json.loads(checked.stdout)["status"] == "won"


def test_solve_text_shows_verdict_and_line() -> None:
    result = invoke("solve", "--seed", "3", "--time-limit", "30")
    assert result.exit_code == 0
    assert result.stdout.startswith("WIN - a perfect clear exists")
    assert "first: player 1" in result.stdout
    assert "cards left: 0" in result.stdout


def test_solve_loss_with_proof(tmp_path: Path) -> None:
    # Cards 2..6, one pile each way, hand 2, minimum 2, no trick: the
    # minimum forces 3 and 5, then 2 and 6, and 4 is left with no pile.
    rules = small_rules(high=6, hand=2, min_play=2, step=10)
    deal = Deal.create(rules, 1, [[3, 5, 2, 6, 4]])
    path = tmp_path / "deal.json"
    path.write_text(deal.to_json())
    result = invoke("solve", "--deal", str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["verdict"] == "loss"
    assert data["proof"]
    assert data["cards_left"] > 0


def test_solve_node_limit_gives_unknown_with_best_line() -> None:
    result = invoke("solve", "--seed", "1", "--node-limit", "5", "--json", "--engine", "dfs")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown"
    assert data["proof"] is None
    assert 0 < data["cards_left"] <= 98


def test_solve_bad_input_is_one_line() -> None:
    result = invoke("solve", "--deck", "2 3 4")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


def test_solve_memory_reaches_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from thegame.solver.the_game import ckernel

    asked: list[int | None] = []
    real = ckernel.memo_bytes

    def spy(limit: Limit) -> int:
        asked.append(limit.memory)
        return real(limit)

    monkeypatch.setattr(ckernel, "memo_bytes", spy)
    result = invoke("solve", "--seed", "3", "--players", "3", "--memory", "64", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == "win"
    # every start's search of the portfolio got it, the slices too
    assert asked and set(asked) == {64}


@pytest.mark.parametrize("value", ["8", "lots", "0"])
def test_solve_memory_out_of_range_is_one_line(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["thegame", "solve", "--seed", "1", "--memory", value])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    got = capsys.readouterr().err
    assert got.startswith("error: ") and len(got.splitlines()) == 1 and "--memory" in got


def test_solve_batch_json_lines() -> None:
    result = invoke("solve-batch", "--seeds", "2-3", "--players", "4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["seed"] for line in lines] == [2, 3]
    for line in lines:
        assert line["verdict"] == "win"
        deal = Deal.from_dict(line["deal"])
        assert deal.players == 4
        record = Record.from_dict(
            {"deal": deal.with_first(line["first"]).to_dict(), "turns": line["turns"]}
        )
        assert replay(record).status == "won"


def test_solve_batch_needs_one_source() -> None:
    result = invoke("solve-batch")
    assert result.exit_code == 2
    assert "--seeds" in result.stderr


def test_solve_uncovered_variant_is_one_line(tmp_path: Path) -> None:
    # Every preset is covered now (Face to Face by its own search); an
    # Extreme deal with fire cards (a rules override) is not.
    data = Deal.from_seed(1, get_rules("extreme")).to_dict()
    data["rules"] = {"fire_cards": [22, 33]}
    path = tmp_path / "extreme-fire.json"
    path.write_text(json.dumps(data))
    result = invoke("solve", "--deal", str(path))
    assert result.exit_code == 2
    expected = "error: variant: the solver does not cover extreme deals with fire cards\n"
    assert result.stderr == expected


def test_solve_extreme_json_replays(tmp_path: Path) -> None:
    # Extreme is covered (rules X): the same JSON as classic, a line that
    # 'check' accepts; a generalised deal small enough to be decided.
    deal = Deal.from_seed(
        2,
        get_rules("extreme").with_changes(high=30, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5),
    )
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(deal.to_json())
    record_path = tmp_path / "line.json"
    result = invoke(
        "solve",
        "--deal",
        str(deal_path),
        "--json",
        "--save",
        str(record_path),
        "--node-limit",
        "300000",
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["verdict"] in ("win", "loss")
    assert {"verdict", "cards_left", "optimal", "turns", "proof", "stats"} <= set(data)
    checked = json.loads(invoke("check", str(record_path), "--json").stdout)
    assert checked["legal"] is True
    assert checked["cards_left"] == data["cards_left"]
    assert checked["status"] == ("won" if data["verdict"] == "win" else "lost")
