"""``thegame play --variant face-to-face --vs engine``: whole games against
the duel engine by scripted input (both seats), the saved record, the
engine's hidden hand, its labelled estimate, bad options and Ctrl-C."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import thegame.cli.the_game.play as play_module
from tests.support.cli import run_main
from thegame.cli.main import cli
from thegame.models.the_game import Record, pile_name
from thegame.models.the_game.notation import plays_text
from thegame.models.the_game.record import replayed
from thegame.solver.the_game.duel.api import first_guess

# Cards 2..12, hand 3: the engine proves its turns at once.
SMALL = "face-to-face 2p first=1 high=12 hand_sizes=3,3 : "
DECKS = "2 9 4 12 6 3 8 5 10 7 11 / 11 3 7 2 10 5 9 12 4 6 8"


def deal_file(tmp_path: Path) -> Path:
    path = tmp_path / "duel.txt"
    path.write_text(SMALL + DECKS + "\n")
    return path


def scripted_player(save: Path, seen: list[str]) -> Iterator[str]:
    """The human: at each of their turn starts, reads the saved record (the
    engine's turns included), and types the fixed policy's turn."""
    while True:
        record = Record.from_json(save.read_text())
        state = replayed(record)
        plays = first_guess(state)
        assert plays is not None, "the game would be over"
        seen.append(plays_text(state.rules, plays))
        for p in plays:
            yield f"{p.card} {pile_name(state.rules, p.pile)}"
        yield "end"


def play_against_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[Result, Path, list[str]]:
    save = tmp_path / "game.json"
    human: list[str] = []
    feed = scripted_player(save, human)
    monkeypatch.setattr(play_module, "read_line", lambda prompt: next(feed))
    argv = ["play", "--deal", str(deal_file(tmp_path)), "--vs", "engine", "--seconds", "0.2"]
    argv += ["--save", str(save), "--no-review", *args]
    return CliRunner().invoke(cli, argv), save, human


@pytest.mark.parametrize("seat", [1, 2])
def test_a_whole_game_against_the_engine_is_saved_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seat: int
) -> None:
    result, save, human = play_against_engine(tmp_path, monkeypatch, "--seat", str(seat))
    assert result.exit_code == 0, result.output
    text = result.output
    engine = 3 - seat
    assert f"you are player {seat}; the duel engine is player {engine}" in text
    record = Record.from_json(save.read_text())
    check = CliRunner().invoke(cli, ["check", str(save), "--json"])
    data = json.loads(check.stdout)
    assert data["legal"] and data["status"] in ("won", "lost") and data["winner"] in (1, 2)
    final = replayed(record)
    assert final.over and final.winner == data["winner"]
    rules = record.deal.rules
    # Every engine turn is shown as its line, exactly as the record has it,
    # with a proven verdict or an estimate labelled as one.
    shown = re.findall(rf"player {engine} \(engine\): (.+?) - (proven|estimate)", text)
    played = [plays_text(rules, t.plays) for t in record.turns if t.player == engine]
    assert [line for line, _ in shown] == played and played
    assert [plays_text(rules, t.plays) for t in record.turns if t.player == seat] == human
    # The player's turns and the engine's alternate from the start (player 1).
    assert [t.player for t in record.turns] == [1 + i % 2 for i in range(len(record.turns))]
    # The engine's hand is never on screen; no hot-seat hand-over either.
    for line in text.splitlines():
        if line.startswith(f"player {engine}'s hand:"):
            assert line.endswith("(hidden)"), line
    assert f"player {seat}'s hand:" in text
    assert "pass the keyboard" not in text
    who = "(the engine)" if data["winner"] == engine else "(you)"
    assert f"player {data['winner']} {who} wins" in text


def test_on_the_printed_game_the_engine_says_its_estimate(tmp_path: Path) -> None:
    args = ["play", "--variant", "face-to-face", "--seed", "5", "--vs", "engine", "--seat", "2"]
    result = CliRunner().invoke(cli, [*args, "--seconds", "0.3", "--no-review"], input="quit\n")
    assert result.exit_code == 0, result.output
    line = re.search(r"player 1 \(engine\): (.+) - (.+)", result.output)
    assert line is not None, result.output
    assert re.fullmatch(
        r"estimate \(not a proof\): player 1 wins \d+% of [\d,]+ playouts", line.group(2)
    )
    # How many cards the engine holds depends on how many it played (its
    # turn depends on its playouts, so on the machine's speed): not the cards.
    assert re.search(r"^player 1's hand: \d cards \(hidden\)$", result.output, re.MULTILINE)
    assert "player 2's hand: " in result.output


def test_without_a_deal_the_engine_game_names_its_random_seed() -> None:
    args = ["play", "--variant", "face-to-face", "--vs", "engine", "--no-review"]
    result = CliRunner().invoke(cli, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert re.search(r"face-to-face, 2 players, seed \d+ - player 1 starts", result.output)


def test_ctrl_c_exits_130_and_keeps_the_turns_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "g.json"

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_module, "read_line", interrupted)
    argv = ["play", "--deal", str(deal_file(tmp_path)), "--vs", "engine", "--seat", "2"]
    result = CliRunner().invoke(cli, [*argv, "--seconds", "0.1", "--save", str(save)])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    # The engine (player 1) had played its first turn: it is in the record.
    assert [t.player for t in Record.from_json(save.read_text()).turns] == [1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "1", "--variant", "face-to-face", "--seat", "2"], "--seat goes with --vs"),
        (["--seed", "1", "--variant", "face-to-face", "--seconds", "2"], "--seconds goes with"),
        (["--seed", "1", "--vs", "engine"], "--vs engine plays Face to Face"),
        (["--variant", "face-to-face", "--vs", "engine", "--seconds", "0"], "above 0"),
        (["--variant", "face-to-face", "--vs", "engine", "--seconds", "x"], "not a number"),
        (["--variant", "face-to-face", "--vs", "engine", "--seat", "3"], "1<=x<=2"),
        (["--vs", "robot"], "'robot' is not 'engine'"),
        (["--daily", "--vs", "engine"], "--vs engine plays a real game"),
    ],
)
def test_bad_engine_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run_main(capsys, "play", *args)
    assert code == 2, out + err
    assert out == "" and err.startswith("error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_ctrl_c_while_the_engine_thinks_stops_before_its_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import thegame.solver.the_game.duel.api as duel_api
    from thegame.models import interrupt

    real = duel_api.decide

    def interrupted(*args: object, **kwargs: object) -> object:
        interrupt.request()  # what the first Ctrl-C does while a search polls
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(duel_api, "decide", interrupted)
    save = tmp_path / "g.json"
    argv = ["play", "--deal", str(deal_file(tmp_path)), "--vs", "engine", "--seat", "2"]
    try:
        result = CliRunner().invoke(cli, [*argv, "--save", str(save)])
    finally:
        interrupt.reset()
    assert result.exit_code == 130, result.output
    assert "(engine):" not in result.output  # its turn was not played
    assert Record.from_json(save.read_text()).turns == ()
