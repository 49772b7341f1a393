"""Extreme puzzles (rules X): the frozen Extreme opening policy, the rating
under commands, ``generate --variant extreme`` and the Extreme daily stream."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support import DATA as TEST_DATA
from tests.support.cli import run_main
from tests.support.the_game import extreme_deal
from thegame.cli.main import cli
from thegame.models.outcome import Status
from thegame.models.the_game import GameState, Record, get_rules, pile_name, replay
from thegame.puzzles.the_game.daily import daily_plan
from thegame.puzzles.the_game.files import Puzzle, PuzzleError
from thegame.puzzles.the_game.make import candidates, make_puzzle, puzzle_deal
from thegame.puzzles.the_game.opening import can_finish_turn, opening, policy_turn
from thegame.puzzles.the_game.rating import Oracle, position_key

EXTREME = get_rules("extreme")
DATA = TEST_DATA / "puzzles"
PUZZLE = DATA / "extreme-15.json"  # seed 15, 12 cards left
SEED = 15
DATE = "2026-11-23"  # its Extreme daily is found quickly (seed 70 of the stream)


def without_effort(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle minus what depends on the solver's version (the effort)."""
    data = puzzle.to_dict()
    data["difficulty"] = {
        k: v for k, v in data["difficulty"].items() if k not in ("nodes", "score", "label")
    }
    return data


def _plays(state: GameState, turns: list[Any]) -> list[list[str]]:
    return [[f"{p.card} {pile_name(state.rules, p.pile)}" for p in t.plays] for t in turns]


# -- the frozen Extreme policy ----------------------------------------------------


def test_policy_keeps_stop_and_three() -> None:
    # X3a: a stop played first ends the turn (one card although m = 2).
    state = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {2: "stop"}))
    assert _plays(state, opening(state, 1)) == [["2 A1"]]
    # X3c: a three turn has exactly 3 cards, though more cost nothing.
    state = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {2: "three"}))
    assert _plays(state, opening(state, 1)) == [["2 A1", "3 A1", "4 A1"]]
    # Without commands the policy plays on while plays cost nothing.
    state = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {}))
    assert len(opening(state, 1)[0].plays) == 8


def test_policy_covers_its_skull() -> None:
    # X3b: 2 is the cheapest play, a skull; it needs a cover in the same
    # turn, and 3 on A1 (costing nothing) is it.
    state = GameState(extreme_deal([2, 3, 60, 61, 62, 63, 64, 65], {2: "skull", 3: "stop"}))
    turn = opening(state, 1)[0]
    assert _plays(state, [turn]) == [["2 A1", "3 A1"]]  # the stop ends it (X3a)


def test_can_finish_turn() -> None:
    # X3b: a skull laid this turn must be covered in it. 99 on A1 can be
    # covered only by a higher card or by 89 (a backward trick): none in hand.
    state = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 99], {99: "skull"}))
    state.play(99, 0)
    assert not can_finish_turn(state)
    state.undo_play()
    state.play(99, 2)  # on D1 every lower card covers it
    assert can_finish_turn(state)
    assert not state.can_end_turn()


def test_policy_turns_replay_and_keep_every_command() -> None:
    # X2: the policy never breaks a command: its turns replay through the
    # engine as a game still in progress.
    for seed in range(1, 9):
        deal = puzzle_deal(seed, EXTREME)
        state = GameState(deal)
        turns = opening(state)
        assert turns
        result = replay(Record(deal, tuple(turns)))
        assert result.legal and result.status == Status.IN_PROGRESS
        assert result.state.key() == state.key()
        assert policy_turn(state.copy()) is None  # where the policy stops


def test_extreme_position_key_sees_the_turn() -> None:
    # The rating's key tells apart what binds the rest of a turn: a stop
    # or a three played (X3a, X3c), and the piles played under one-pile (X4b).
    a = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {2: "stop"}))
    b = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {2: "three"}))
    c = GameState(extreme_deal([2, 3, 4, 5, 6, 7, 8, 9], {}))
    for s in (a, b, c):
        s.play(2, 0)
    assert len({position_key(a), position_key(b), position_key(c)}) == 3
    d, e = c.copy(), c.copy()
    d.play(3, 0)
    e.play(3, 1)
    assert position_key(d) != position_key(e)


# -- puzzles ----------------------------------------------------------------------


def test_extreme_puzzle_is_verified_deterministic_and_stored() -> None:
    a = make_puzzle(SEED, EXTREME)
    b = make_puzzle(SEED, EXTREME)
    assert a is not None and b is not None
    assert a.to_dict() == b.to_dict()
    data = a.to_dict()
    assert data["variant"] == "extreme"
    assert len(data["deal"]["commands"]) == 28  # the file carries the commands (X1)
    # The solution replays through the engine, with the commands, to a clear.
    a.verify()
    assert replay(a.record()).status == Status.WON
    # Pinned: the stored file is a fact of the frozen policy and the rules.
    stored = Puzzle.from_json(PUZZLE.read_text())
    assert without_effort(a) == without_effort(stored)
    assert stored.start().cards_left() == 12


def test_extreme_puzzle_is_the_last_position_with_a_clear() -> None:
    puzzle = Puzzle.from_json(PUZZLE.read_text())
    start = puzzle.start()
    oracle = Oracle()
    assert oracle.wins(start) is True
    # The policy's next turn loses the clear (proven: an exhausted search).
    after = start.copy()
    assert policy_turn(after) is not None
    assert oracle.wins(after) is False
    # And the puzzle is a position on the policy's path.
    path = candidates(puzzle.deal, 12, 36)
    assert any(s.key() == start.key() for s, _ in path)


def test_extreme_puzzle_file_with_a_broken_command_is_an_error() -> None:
    data = json.loads(PUZZLE.read_text())
    puzzle = Puzzle.from_dict(data)
    # Move a skull from a card the opening played onto the last card of the
    # solution's first turn: the opening still replays (a skull removed only
    # lifts a duty), and that turn now leaves a skull uncovered (X3b).
    last = puzzle.solution[0].plays[-1].card
    commands = data["deal"]["commands"]
    assert str(last) not in commands
    played = {p.card for t in puzzle.position for p in t.plays}
    skull = next(c for c, k in commands.items() if k == "skull" and int(c) in played)
    commands[str(last)] = commands.pop(skull)
    Puzzle.from_dict({**data, "turns": []})  # the position is still fine
    with pytest.raises(PuzzleError, match="X3b"):
        Puzzle.from_dict(data)


# -- the command line ---------------------------------------------------------------


def _check_won(tmp_path: Path, data: dict[str, Any]) -> None:
    record = {"deal": data["deal"], "turns": data["position"] + data["turns"]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "won"


def test_generate_extreme_writes_files_that_check_hint_and_solve_accept(
    tmp_path: Path,
) -> None:
    out_dir = tmp_path / "out"
    args = ["generate", "--count", "1", "--variant", "extreme", "--out", str(out_dir)]
    args += ["--seed-start", str(SEED), "--cards", "12-24", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 1
    data = lines[0]
    path = out_dir / f"extreme-{SEED}-{data['difficulty']['label']}.json"
    assert json.loads(path.read_text()) == data
    assert data["deal"]["commands"]
    _check_won(tmp_path, data)
    for command in (["check"], ["hint"], ["solve", "--deal"]):
        result = CliRunner().invoke(cli, [*command, str(path)])
        assert result.exit_code == 0, result.output
    hint = CliRunner().invoke(cli, ["hint", str(path), "--json"])
    assert json.loads(hint.output)


@pytest.fixture(scope="module")
def extreme_daily() -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["daily", "--variant", "extreme", "--date", DATE, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_extreme_daily_is_pinned_and_verified(
    extreme_daily: dict[str, Any], tmp_path: Path
) -> None:
    assert extreme_daily["date"] == DATE
    assert extreme_daily["variant"] == "extreme"
    assert extreme_daily["seed"] == PINNED_EXTREME_SEED
    assert extreme_daily["cards_left"] == PINNED_EXTREME_CARDS
    assert extreme_daily["deal"]["commands"]
    _check_won(tmp_path, extreme_daily)
    # Stable for the date: the seed remade gives the same puzzle.
    again = make_puzzle(PINNED_EXTREME_SEED, EXTREME)
    assert again is not None
    again.date = DATE
    assert again.to_dict() == extreme_daily


def test_extreme_daily_same_in_another_process(extreme_daily: dict[str, Any]) -> None:
    # Another process has another hash seed: nothing may depend on it.
    code = "from thegame.cli.main import main; main()"
    args = ["daily", "--variant", "extreme", "--date", DATE, "--json"]
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert json.loads(proc.stdout) == extreme_daily


PINNED_EXTREME_SEED = 2893955110176359
PINNED_EXTREME_CARDS = 18


def test_extreme_stream_is_apart_from_the_default_one() -> None:
    day = dt.date.fromisoformat(DATE)
    variant, seeds = daily_plan(day, "extreme")
    assert variant == "extreme"
    default_variant, default_seeds = daily_plan(day)
    assert default_variant == "classic"  # a Monday: the default stream as it was
    ours = [next(seeds) for _ in range(50)]
    theirs = [next(default_seeds) for _ in range(50)]
    assert not set(ours) & set(theirs)
    # Pinned: the stream's first seeds.
    assert ours[:3] == [5248486263194737, 2484675458291972, 8243407308587835]


@pytest.fixture
def daily_made_once(extreme_daily: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The Extreme daily of DATE, made once (``extreme_daily``): the CLI tests
    below get it from there instead of making it again."""
    import thegame.puzzles.the_game.daily as module

    real = module.daily

    def daily(day: dt.date, progress: Any = None, stream: str | None = None) -> Puzzle:
        if day.isoformat() == DATE and stream == "extreme":
            return Puzzle.from_dict(extreme_daily)
        return real(day, progress, stream)

    monkeypatch.setattr(module, "daily", daily)


@pytest.mark.usefixtures("daily_made_once")
def test_extreme_daily_text_shows_the_commands() -> None:
    result = CliRunner().invoke(cli, ["daily", "--variant", "extreme", "--date", DATE])
    assert result.exit_code == 0, result.output
    assert f"daily puzzle {DATE}" in result.output
    assert "extreme" in result.output
    assert "commands showing:" in result.output
    assert "[K] skull" in result.output
    assert "thegame play --daily --variant extreme" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["daily", "--variant", "classic"], "--variant"),
        (["daily", "--variant", "extreme", "--date", "2026-02-30"], "--date"),
        (["play", "--daily", "--variant", "profi"], "daily streams"),
        (["generate", "--variant", "duel", "--out", "x"], "--variant"),
    ],
)
def test_bad_extreme_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


@pytest.mark.usefixtures("daily_made_once")
def test_play_extreme_daily_solution_wins(extreme_daily: dict[str, Any]) -> None:
    puzzle = Puzzle.from_dict(extreme_daily)
    lines = []
    for turn in puzzle.solution:
        lines += [f"{p.card} {pile_name(puzzle.deal.rules, p.pile)}" for p in turn.plays]
        lines.append("end")
    args = ["play", "--daily", "--variant", "extreme", "--date", DATE, "--no-review"]
    result = CliRunner().invoke(cli, args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "commands showing:" in result.output
    assert "won: a perfect clear" in result.output
