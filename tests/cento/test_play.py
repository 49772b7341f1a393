"""``thegame cento play``, ``analyze``, ``explain`` and the command shape:
scripted games to the end whose saved records pass ``check``, the reviews'
invariants, Ctrl-C and impossible ranges in ``generate`` and ``daily``."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from tests.support.cli import run_main
from thegame.cli.main import cli
from thegame.models import interrupt
from thegame.models.cento import (
    CentoStatus,
    Deal,
    Record,
    Rules,
    Turn,
    apply_turn,
    check,
    initial_state,
    legal_turns,
)
from thegame.models.errors import InvalidInputError
from thegame.models.outcome import Limit
from thegame.puzzles.cento.puzzles import daily, generate
from thegame.solver.cento.duel import solve_duel
from thegame.solver.cento.solo import solve_solo

SMALL = ["--cards", "1-20", "--hand-size", "3", "--free", "0"]


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["cento", *args], input=stdin)


def one_line_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def brute_script(cards: int, rounds: int = 40) -> str:
    """Lines that a player may type, tried in turn: every card, then a draw
    and an end. The illegal ones are refused (the game goes on), so this
    plays some legal game to its end whatever the solver does."""
    words = [str(c) for c in range(1, cards + 1)] + ["draw", "end"]
    return "\n".join(words * rounds) + "\n"


@pytest.fixture
def no_interrupt() -> Any:
    interrupt.reset()
    yield
    interrupt.reset()


# -- play ------------------------------------------------------------------------


def test_solo_play_scripted_to_the_end_and_saved_record_checks(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    args = ["play", "--seed", "5", *SMALL, "--save", str(save)]
    result = invoke(*args, stdin=brute_script(20))
    assert result.exit_code == 0, result.output
    assert "hand empty in" in result.stdout or "blocked" in result.stdout
    checked = invoke("check", str(save), "--json")
    assert checked.exit_code == 0, checked.output
    data = json.loads(checked.stdout)
    assert data["legal"] and data["status"] in ("won", "blocked")
    record = Record.from_dict(json.loads(save.read_text()))
    if data["status"] == "won":  # the ending compares with the proven fewest
        fewest = solve_solo(record.deal).turn_count
        assert f"the fewest is {fewest}" in result.stdout
        assert len(record.turns) >= fewest


@pytest.mark.parametrize("seat", [1, 2])
def test_duel_play_against_the_solver_to_the_end(tmp_path: Path, seat: int) -> None:
    save = tmp_path / "duel.json"
    args = ["play", "--seed", "8", "--players", "2", *SMALL, "--seat", str(seat)]
    result = invoke(*args, "--save", str(save), stdin=brute_script(20))
    assert result.exit_code == 0, result.output
    assert any(w in result.stdout for w in ("you win", "(the solver) wins", "shared win"))
    data = json.loads(invoke("check", str(save), "--json").stdout)
    assert data["legal"] and data["status"] in ("won", "blocked")
    record = Record.from_dict(json.loads(save.read_text()))
    solver_seat = 3 - seat
    assert any(t.player == solver_seat for t in record.turns)


def test_play_refuses_an_illegal_step_and_goes_on(tmp_path: Path) -> None:
    # Seed 3 alone (printed rules): player 1 does not hold 99.
    assert 99 not in Deal.from_seed(3, 1).hands[0]
    result = invoke("play", "--seed", "3", stdin="99\nquit\n")
    assert result.exit_code == 0
    assert "not allowed" in result.stdout and "rule Z1" in result.stdout
    assert "game left after 0 turns" in result.stdout


def test_play_end_of_input_and_bad_save_path(tmp_path: Path) -> None:
    result = invoke("play", "--seed", "3", stdin="")
    assert result.exit_code == 0 and "game left" in result.stdout
    bad = invoke("play", "--seed", "3", "--save", str(tmp_path / "no" / "dir.json"), stdin="")
    one_line_error(bad)
    one_line_error(invoke("play", stdin=""), "--seed N")
    one_line_error(invoke("play", "--seed", "3", "--date", "2026-01-01", stdin=""), "--daily")


def test_play_ctrl_c_saves_and_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import thegame.cli.cento.play as cento_cli

    lines = iter(["draw"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(cento_cli, "read_line", read)
    save = tmp_path / "g.json"
    result = invoke("play", "--seed", "3", "--save", str(save))
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and str(save) in result.stderr
    assert invoke("check", str(save)).exit_code == 0


# -- analyze and explain ------------------------------------------------------------


def random_record(deal: Deal, seed: int) -> Record:
    """A whole game with a uniformly random legal turn each time."""
    rnd = random.Random(seed)
    state, turns = initial_state(deal), []
    while not state.over:
        turn, state = rnd.choice(legal_turns(deal, state))
        turns.append(turn)
    return Record(deal, tuple(turns))


def small_rules() -> Rules:
    return Rules(low=1, high=20, hand_size=3, free_cards=0)


def detour_then_best(deal: Deal, seed: int, detour: int) -> Record:
    """A won solo game: up to ``detour`` random turns that keep the hand
    winnable, then the solver's fewest-turns line."""
    rnd = random.Random(seed)
    state, turns = initial_state(deal), []
    for _ in range(detour):
        options = [
            (t, s)
            for t, s in legal_turns(deal, state)
            if s.over or solve_solo(deal, Limit(), s).turn_count
        ]
        if not options:
            break
        turn, state = rnd.choice(options)
        turns.append(turn)
        if state.over:
            break
    if not state.over:
        turns.extend(solve_solo(deal, Limit(), state).turns)
    return Record(deal, tuple(turns))


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_solo_analyze_counts_the_wasted_turns(tmp_path: Path, seed: int) -> None:
    rules = Rules(low=1, high=30, hand_size=5, free_cards=1)
    deal = Deal.from_seed(seed, 1, rules)
    fewest = solve_solo(deal).turn_count  # checked against brute force elsewhere
    if fewest is None:
        pytest.skip("this hand cannot be emptied")
    record = detour_then_best(deal, seed, 3)
    assert check(record).status == CentoStatus.WON
    path = tmp_path / "r.json"
    path.write_text(record.to_json())
    result = invoke("analyze", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn_count"] == fewest and data["optimal"] is True
    assert [t["turn"] for t in data["turns"]] == list(range(1, len(record.turns) + 1))
    assert data["wasted"] == len(record.turns) - fewest
    # Each turn is priced with best play after it: the losses add up.
    assert sum(t["wasted"] for t in data["turns"]) == data["wasted"]
    mistakes = [t["turn"] for t in data["turns"] if t["wasted"]]
    assert data["first_mistake"] == (mistakes[0] if mistakes else None)
    for t in data["turns"]:
        assert (t["best"] is not None) == bool(t["wasted"])


def test_solo_analyze_of_a_blocked_game_names_the_turn_that_lost(tmp_path: Path) -> None:
    rules = Rules(low=1, high=20, hand_size=3, free_cards=0)
    for seed in range(1, 40):
        deal = Deal.from_seed(seed, 1, rules)
        record = random_record(deal, seed)
        if solve_solo(deal).turn_count is not None and check(record).status != CentoStatus.WON:
            break
    else:
        pytest.fail("no blocked game of a winnable deal among the seeds")
    path = tmp_path / "r.json"
    path.write_text(record.to_json())
    data = json.loads(invoke("analyze", str(path), "--json").stdout)
    assert data["status"] == "blocked" and data["wasted"] is None
    lost = [t for t in data["turns"] if t["lost_win"]]
    assert len(lost) == 1 and data["first_mistake"] <= lost[0]["turn"]
    assert lost[0]["fewest_after"] is None and lost[0]["best"] is not None


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 6])
def test_duel_analyze_first_thrown_win_and_a_winning_turn_instead(
    tmp_path: Path, seed: int
) -> None:
    rules = Rules(low=1, high=16, hand_size=3, free_cards=0)
    deal = Deal.from_seed(seed, 2, rules)
    record = random_record(deal, seed)
    path = tmp_path / "r.json"
    path.write_text(record.to_json())
    data = json.loads(invoke("analyze", str(path), "--json").stdout)
    assert data["optimal"] is True and data["undecided"] == 0
    thrown = [t for t in data["turns"] if t["lost_win"]]
    assert data["first_mistake"] == (thrown[0]["turn"] if thrown else None)
    state = initial_state(deal)
    for played, t in zip(record.turns, data["turns"], strict=True):
        if t["lost_win"]:
            assert t["value_before"] == 1 and t["value_after"] < 1
            best = Turn.from_dict(t["best"], "best")
            after = apply_turn(deal, state, best)
            if after.over:
                assert after.winners == (state.to_move,)
            else:  # the turn instead keeps the forced win
                value = solve_duel(deal, Limit(), after).value
                assert value == (1 if state.to_move == 0 else -1)
        state = apply_turn(deal, state, played)


def test_explain_gives_reasons_with_rule_ids(tmp_path: Path) -> None:
    result = invoke("explain", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn_count"] == 7 and data["optimal"] is True
    assert [t["turn"] for t in data["turns"]] == list(range(1, 8))
    assert all(re.search(r"\(rules? Z\d", " ".join(t["reasons"])) for t in data["turns"])
    text = invoke("explain", "--seed", "3")
    assert "turn 1: player 1: plays" in text.stdout and "(rule Z1)" in text.stdout


# -- the command shape and the bugs ------------------------------------------------


def test_deck_deals_like_the_seed() -> None:
    seeded = json.loads(invoke("deal", "--seed", "4", "--players", "1", *SMALL, "--json").stdout)
    deck = seeded["hands"][0] + [seeded["open"]] + seeded["draw"]
    by_deck = invoke("deal", "--deck", " ".join(map(str, deck)), "--players", "1", *SMALL, "--json")
    data = json.loads(by_deck.stdout)
    assert data["hands"] == seeded["hands"] and data["draw"] == seeded["draw"]
    one_line_error(invoke("deal", "--deck", "1 2 3", *SMALL), "--deck")


def test_solve_a_record_file_goes_on_from_its_position(tmp_path: Path) -> None:
    line = tmp_path / "line.json"
    assert invoke("solve", "--seed", "3", "--save", str(line)).exit_code == 0
    full = json.loads(line.read_text())
    full["turns"] = full["turns"][:2]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(full))
    data = json.loads(invoke("solve", str(path), "--json").stdout)
    assert data["turn_count"] == 5 and data["optimal"] is True
    # A deal option on a record with turns: refused, pointing to the FILE form.
    one_line_error(invoke("solve", "--deal", str(path)), "2 turns played", "cento solve")


def test_solve_deal_of_a_record_with_an_illegal_turn_names_turn_and_rule(
    tmp_path: Path,
) -> None:
    deal = Deal.from_seed(1, 2).to_dict()  # open 27; player 1 holds 8
    record = {"deal": deal, "turns": [{"player": 1, "plays": [{"card": 8}], "draw": 0}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    for args in (["solve", "--deal", str(path)], ["solve", str(path)]):
        result = invoke(*args, "--json")
        one_line_error(result, "turn 1, play 1", "rule Z1")


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
@pytest.mark.parametrize(
    "command",
    [["solve", "--seed", "1"], ["generate"], ["hint", "x.json"], ["play", "--seed", "1"]],
)
def test_budgets_must_be_finite_and_positive(
    capsys: pytest.CaptureFixture[str], value: str, command: list[str]
) -> None:
    option = "--think" if command[0] == "play" else "--time-limit"
    code, out, err = run_main(capsys, "cento", *command, f"{option}={value}")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error:") and option in err


def test_generate_refuses_an_impossible_range_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="--min-turns 50"):
        generate(1, Rules(), Limit(time=1.0), 50, 10)  # not even one seed is tried
    out = tmp_path / "puzzles"
    result = invoke("generate", "--min-turns", "50", "--max-turns", "10", "--out", str(out))
    one_line_error(result, "--max-turns 10")
    assert not out.exists()


def test_ctrl_c_stops_generate_and_daily_without_another_answer(no_interrupt: None) -> None:
    interrupt.request()  # what the first Ctrl-C does while a search polls
    puzzles = generate(1, small_rules(), Limit(time=5.0), 1, 1000)
    with pytest.raises(KeyboardInterrupt):
        next(puzzles)
    with pytest.raises(KeyboardInterrupt):
        daily(dt.date(2026, 12, 1), Limit(time=60.0))


_READY = (
    "import sys; from thegame.cli.main import main; "
    "sys.stderr.write('ready\\n'); sys.stderr.flush(); main()"
)


def _interrupted(args: list[str], after: float) -> subprocess.CompletedProcess[str]:
    """Run ``thegame ARGS``; press Ctrl-C ``after`` seconds once it is imported."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _READY, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    assert proc.stderr.readline() == "ready\n"
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal does
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the first Ctrl-C did not stop the command")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def test_first_ctrl_c_stops_generate_at_once() -> None:
    r = _interrupted(["cento", "generate", "--count", "500", "--min-turns", "25"], after=1.0)
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and "interrupted" in r.stderr


def test_ctrl_c_in_daily_prints_nothing_but_the_days_answer() -> None:
    day = json.loads(invoke("daily", "--date", "2026-12-01", "--json").stdout)
    r = _interrupted(["cento", "daily", "--date", "2026-12-01", "--json"], after=0.2)
    if r.returncode == 0:  # it was done before the Ctrl-C: the day's puzzle
        assert json.loads(r.stdout) == day
    else:  # stopped: nothing, or the complete answer if Ctrl-C came after it
        assert r.returncode == 130, (r.returncode, r.stderr)
        assert r.stdout == "" or json.loads(r.stdout) == day, r.stdout
        assert "Traceback" not in r.stderr


def test_every_option_has_help_and_choices_are_listed() -> None:
    from thegame.cli.cento import cento

    for name, command in cento.commands.items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert param.help, (name, param.name)
    assert "trick_treat|plain" in invoke("solve", "--help").stdout


@pytest.mark.parametrize("date", ["x", "2026-02-30"])
def test_a_bad_date_is_refused_in_the_same_words_as_the_game_daily(date: str) -> None:
    ours = CliRunner().invoke(cli, ["cento", "daily", "--date", date])
    theirs = CliRunner().invoke(cli, ["daily", "--date", date])
    assert ours.exit_code == theirs.exit_code == 2
    assert ours.output == theirs.output
    assert ours.output.startswith(f"error: --date: '{date}' is not a")
