"""``thegame nimmt play`` driven by scripted input, the whole-game records it
saves (checked by rule S5), ``hint``, ``by_level`` and the command shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.cli import run_main
from tests.support.nimmt import random_record
from thegame.analysis.nimmt.players import LEVELS, BlindPlayer, RandomPlayer, by_level
from thegame.cli.main import cli
from thegame.models.errors import InvalidInputError
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import GameRecord, Record, replay, replay_game
from thegame.models.nimmt.rules import GAME_END
from thegame.models.nimmt.state import play_game


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["nimmt", *args], input=stdin)


def one_line_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def every_card(times: int) -> str:
    """Every card 1..104 in turn, again and again: the ones not in hand are
    refused, so this plays a legal card each turn; a row choice takes the
    first of them that is a row number (1)."""
    return "\n".join(str(c) for _ in range(times) for c in range(1, 105)) + "\n"


def test_a_whole_game_to_66_scripted_and_its_record_checks(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "--seed", "3", "--players", "3", "--strength", "easy", "--save", str(save)]
    result = invoke(*args, stdin=every_card(60))
    assert result.exit_code == 0, result.output
    assert "round 1;" in result.stdout and ("win" in result.stdout)
    data = json.loads(invoke("check", str(save), "--json").stdout)
    assert data["legal"] and data["status"] == "finished" and data["error"] is None
    assert (
        max(data["scores"])
        >= GAME_END
        > max(sum(r["heads"][p] for r in data["rounds"][:-1]) for p in range(3))
    )
    assert f"points: you {data['scores'][0]}" not in result.stdout  # the end shows the total
    game = GameRecord.from_json(json.loads(save.read_text()))
    # Round 1 is the seeded deal (rule S6), the others follow from the same seed.
    assert game.rounds[0].deal == Deal.from_seed(3, 3) and game.seed == 3
    review = invoke("analyze", str(save), "--player", "1", "--round", "1", "--samples", "1")
    assert review.exit_code == 0, review.output
    assert review.stdout.startswith("round 1: player 1: took")
    # Without --round: the game's last round, as in hint and solve, named on screen.
    last = invoke("analyze", str(save), "--player", "1", "--samples", "1")
    assert last.exit_code == 0, last.output
    assert last.stdout.startswith(f"round {len(game.rounds)}: player 1: took")


def test_one_round_and_the_row_choice_of_rule_s3(tmp_path: Path) -> None:
    # Rows end 50 60 70 80; you hold 1..10; the other player 90..99.
    deck = [50, 60, 70, 80, *range(1, 11), *range(90, 100)]
    save = tmp_path / "round.json"
    args = ["play", "--deck", " ".join(map(str, deck)), "--players", "2", "--strength", "easy"]
    script = "1\n7\n2\n" + every_card(12)  # play 1, a row that is no row, then row 2
    result = invoke(*args, "--save", str(save), stdin=script)
    assert result.exit_code == 0, result.output
    assert "lower than every row's end: take a row (rule S3)" in result.stdout
    assert "type a row number 1-4" in result.stdout
    record = Record.from_json(json.loads(save.read_text()))
    assert record.turns[0].cards[0] == 1 and record.turns[0].choices == {0: 1}
    assert len(record.turns) == 10
    checked = json.loads(invoke("check", str(save), "--json").stdout)
    assert checked["legal"] and checked["status"] == "finished"


def test_one_round_against_the_default_player(tmp_path: Path) -> None:
    """The default opponent is the strong player, the one measured against
    the published agent."""
    save = tmp_path / "round.json"
    args = ["play", "--seed", "5", "--players", "2", "--one-round", "--save", str(save)]
    result = invoke(*args, stdin=every_card(12))
    assert result.exit_code == 0, result.output
    assert "(strong)" in result.stdout
    assert invoke("check", str(save)).exit_code == 0


def test_quit_and_end_of_input_keep_the_game_so_far(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "--seed", "4", "--players", "2", "--strength", "easy", "--save", str(save)]
    hand = Deal.from_seed(4, 2).hands[0]  # rows end 15 87 70 62: 98 and 101 take no row
    result = invoke(*args, stdin=f"{hand[-1]}\n{hand[-2]}\nquit\n")
    assert result.exit_code == 0 and "game left" in result.stdout
    data = json.loads(invoke("check", str(save), "--json").stdout)
    assert data["legal"] and data["status"] == "in_progress"
    assert len(json.loads(save.read_text())["rounds"][0]["turns"]) == 2
    assert invoke(*args, stdin="").exit_code == 0  # the end of input: the same


def test_undo_is_refused_with_why_and_the_turn_goes_on(tmp_path: Path) -> None:
    # The cards of a turn are revealed the moment yours is chosen (rule S2):
    # nothing is left to take back, so 'undo' says why and asks again.
    save = tmp_path / "g.json"
    args = ["play", "--seed", "4", "--players", "2", "--strength", "easy", "--one-round"]
    hand = Deal.from_seed(4, 2).hands[0]
    result = invoke(*args, "--save", str(save), stdin=f"undo\n{hand[-1]}\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("no undo in 6 nimmt!") == 2 and "rule S2" in result.stdout
    record = Record.from_json(json.loads(save.read_text()))
    assert [t.cards[0] for t in record.turns] == [hand[-1]]


def test_ctrl_c_exits_130_with_the_game_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import thegame.cli.nimmt.play as nimmt_cli

    hand = iter(Deal.from_seed(4, 2).hands[0][-1:])

    def read(prompt: str) -> str:
        for card in hand:
            return str(card)
        raise KeyboardInterrupt

    monkeypatch.setattr(nimmt_cli, "read_line", read)
    save = tmp_path / "g.json"
    args = ["play", "--seed", "4", "--players", "2", "--level", "easy", "--one-round"]
    result = invoke(*args, "--save", str(save))
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert len(Record.from_json(json.loads(save.read_text())).turns) == 1


def test_play_options_are_checked_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run_main(capsys, "nimmt", "play", "--seed", "1", "--strength", "hard")
    assert out == ""
    assert code == 2 and err.count("\n") == 1 and "--strength" in err and "'normal'" in err
    one_line_error(invoke("play", "--seed", "1", "--players", "11"), "2 to 10")
    one_line_error(invoke("play", "--seed", "1", "--save", str(tmp_path / "no/such.json")))
    help_text = invoke("play", "--help").stdout
    assert "easy|normal" in help_text and "--one-round" in help_text and "--save" in help_text
    assert "--round " not in help_text  # "which round" is --round N, in solve, hint, analyze


# -- levels ------------------------------------------------------------------------------


def test_by_level_names_the_players() -> None:
    assert isinstance(by_level("easy", 1), RandomPlayer)
    assert isinstance(by_level("normal", 1), BlindPlayer)
    assert list(LEVELS)[:2] == ["easy", "normal"]
    with pytest.raises(InvalidInputError, match="easy, normal"):
        by_level("impossible", 1)


def test_levels_are_seeded() -> None:
    a = play_game([by_level("easy", s) for s in (1, 2, 3)], seed=9)
    b = play_game([by_level("easy", s) for s in (1, 2, 3)], seed=9)
    assert a == b and max(a.scores) >= GAME_END


# -- whole-game records (rule S5) -----------------------------------------------------


def _game(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_game_check_applies_rule_s5(tmp_path: Path) -> None:
    played = play_game([by_level("easy", s) for s in (1, 2)], seed=2)
    game = GameRecord(played.rounds, 2)
    assert replay_game(game).legal and replay_game(game).scores == list(played.scores)
    data = game.to_json()
    extra = {**data, "rounds": [*data["rounds"], random_record(5, 2).to_json()]}
    result = invoke("check", _game(tmp_path, extra), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["round"] == len(data["rounds"]) + 1 and error["rule"] == "S5"
    assert set(error) == {"round", "turn", "play", "rule", "message"}
    short = random_record(5, 2).to_json()
    short["turns"] = short["turns"][:3]
    broken = {**data, "rounds": [short, *data["rounds"]]}
    result = invoke("check", _game(tmp_path, broken), "--json")
    error = json.loads(result.stdout)["error"]
    assert (error["round"], error["turn"], error["rule"]) == (1, 4, "S5")
    text = invoke("check", _game(tmp_path, broken))
    assert "illegal: round 1, turn 4: rule S5" in text.stderr


# -- hint and the command shape ------------------------------------------------------------


def test_hint_by_what_the_player_has_seen(tmp_path: Path) -> None:
    record = random_record(11, 4)
    part = Record(record.deal, record.turns[:6])
    path = tmp_path / "part.json"
    path.write_text(json.dumps(part.to_json()))
    args = ["hint", str(path), "--player", "2", "--samples", "3", "--sample-seed", "1"]
    data = json.loads(invoke(*args, "--json").stdout)
    left = set(record.deal.hands[1]) - {t.cards[1] for t in part.turns}
    assert data["turn"] == 7 and data["player"] == 2 and data["move"]["card"] in left
    assert data["verdict"] == "unknown"  # sampled: an estimate, not a proof
    assert sorted(c["card"] for c in data["cards"]) == sorted(left)
    assert data["cards"][0]["card"] == data["move"]["card"] and data["sample_seed"] == 1
    assert json.loads(invoke(*args, "--json").stdout) == data  # seeded
    full = tmp_path / "full.json"
    full.write_text(json.dumps(record.to_json()))
    one_line_error(invoke("hint", str(full), "--player", "1"), "round is over")


def test_deal_by_deck_and_by_seed_agree() -> None:
    seeded = json.loads(invoke("deal", "--seed", "7", "--players", "2", "--json").stdout)
    deck = seeded["rows"] + [c for h in seeded["hands"] for c in h]
    by_deck = invoke("deal", "--deck", ",".join(map(str, deck)), "--players", "2", "--json")
    assert json.loads(by_deck.stdout) == seeded
    one_line_error(invoke("deal", "--deck", "1 2 3", "--players", "2"), "need 24")
    one_line_error(invoke("deal", "--seed", "1", "--deck", "1 2"), "--seed and --deck")


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-2"])
def test_solve_budget_must_be_finite_and_positive(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(random_record(3, 3).to_json()))
    code, out, err = run_main(
        capsys, "nimmt", "solve", str(path), "--player", "1", f"--time-limit={value}"
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "--time-limit" in err


def test_solve_json_and_a_budget_that_runs_out(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(random_record(21, 4).to_json()))
    full = json.loads(invoke("solve", str(path), "--player", "2", "--json").stdout)
    assert full["optimal"] is True and full["stats"]["nodes"] > 0
    if full["stats"]["nodes"] > 2048:  # the node budget is checked every 1,024 nodes
        cut = invoke("solve", str(path), "--player", "2", "--node-limit", "1", "--json")
        data = json.loads(cut.stdout)
        assert data["optimal"] is False and data["heads"] is None and data["turns"] == []


def test_every_option_has_help() -> None:
    from thegame.cli.nimmt import nimmt

    for name, command in nimmt.commands.items():
        for param in command.params:
            if param.param_type_name == "option":
                assert getattr(param, "help", None), (name, param.name)


def test_the_save_line_names_commands_that_read_the_file(tmp_path: Path) -> None:
    """A round left half played is for 'hint' ('analyze' needs it finished):
    every command the save line names runs on the file."""
    save = tmp_path / "part.json"
    args = ["play", "--seed", "1", "--players", "3", "--strength", "easy", "--one-round"]
    result = invoke(*args, "--save", str(save), stdin="97\n88\nquit\n")
    assert result.exit_code == 0, result.output
    line = result.stdout.split(f"saved to {save}: ")[1].splitlines()[0]
    commands = [c.split()[2:] for c in line.split("; ")]
    assert [c[0] for c in commands] == ["check", "hint"]
    for command in commands:
        ran = invoke(*command, "--samples", "2") if command[0] == "hint" else invoke(*command)
        assert ran.exit_code == 0, (command, ran.output)


@pytest.mark.parametrize("players", range(2, 11))
def test_play_at_every_table_size(tmp_path: Path, players: int) -> None:
    """``nimmt play --players N`` plays a round at every size rule S1 allows:
    N seats, ten turns, a saved record that checks, every seat's heads."""
    save = tmp_path / "round.json"
    args = ["play", "--seed", str(players), "--players", str(players), "--strength", "easy"]
    result = invoke(*args, "--one-round", "--save", str(save), stdin=every_card(12))
    assert result.exit_code == 0, result.output
    assert f"you and {players - 1} player" in result.stdout
    record = Record.from_json(json.loads(save.read_text()))
    assert record.deal == Deal.from_seed(players, players) and len(record.turns) == 10
    checked = json.loads(invoke("check", str(save), "--json").stdout)
    assert checked["legal"] and checked["status"] == "finished"
    assert len(checked["heads"]) == players


@pytest.mark.slow
def test_a_round_against_nine_strong_players(tmp_path: Path) -> None:
    """The full table against the strong level (0.3 s of CPU a decision)."""
    save = tmp_path / "round.json"
    args = ["play", "--seed", "8", "--players", "10", "--strength", "strong", "--one-round"]
    result = invoke(*args, "--save", str(save), stdin=every_card(12))
    assert result.exit_code == 0, result.output
    assert "you and 9 players (strong)" in result.stdout
    record = Record.from_json(json.loads(save.read_text()))
    assert len(record.deal.hands) == 10 and len(record.turns) == 10
    assert sum(replay(record).heads) > 0
