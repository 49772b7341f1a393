"""``thegame mind ...`` through click's CliRunner: JSON fields, text, and bad input
as one line on stderr with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support import cli as support
from thegame.cli.main import cli

BOOKLET = {"game": "the-mind", "players": 3, "level": 2,
           "hands": [[28, 32], [15, 100], [11, 50]]}


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["mind", *args], input=stdin)


def write(tmp_path: Path, content: str | dict[str, Any], name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``thegame mind ARGV`` in-process: click's usage errors become one line too."""
    return support.run_main(capsys, "mind", *argv)


def assert_usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> None:
    code, stdout, stderr = run_main(capsys, *argv)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and stderr.startswith("error: "), stderr
    assert "Traceback" not in stderr


def assert_user_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in result.output


def test_deal_json_is_the_pinned_seed() -> None:
    result = invoke("deal", "--seed", "1", "--players", "3", "--level", "4", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "game": "the-mind", "players": 3, "level": 4,
        "hands": [[29, 33, 36, 43], [4, 22, 82, 87], [17, 62, 64, 68]],
    }
    text = invoke("deal", "--seed", "1", "--players", "3", "--level", "4").stdout
    assert "player 2: 4 22 82 87" in text


def test_deal_takes_a_deck_or_a_deal_file_as_every_game_does(tmp_path: Path) -> None:
    seeded = invoke("deal", "--seed", "1", "--players", "3", "--level", "4", "--json").stdout
    # The same cards in deal order: player 1's four, then player 2's, then 3's.
    deck = "43 29 36 33 87 82 4 22 17 62 64 68"
    by_deck = invoke("deal", "--deck", deck, "--players", "3", "--level", "4", "--json")
    assert by_deck.exit_code == 0 and json.loads(by_deck.stdout) == json.loads(seeded)
    path = tmp_path / "deal.json"
    path.write_text(seeded)
    by_file = invoke("deal", "--deal", str(path), "--json")
    assert json.loads(by_file.stdout) == json.loads(seeded)
    for args, fragment in [
        (["--deck", "1 2 3", "--players", "2", "--level", "2"], "3 cards"),
        (["--deck", "1 2 2 3", "--players", "2", "--level", "2"], "dealt twice"),
        (["--deck", "1 2 3 4"], "needs --players and --level"),
        (["--seed", "1", "--deal", str(path)], "give one deal"),
    ]:
        result = invoke("deal", *args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, args
        assert fragment in result.stderr, (args, result.stderr)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--seed", "1", "--players", "5", "--level", "1"], "--players"),
        (["--seed", "1", "--players", "4", "--level", "9"], "level must be 1..8"),
        (["--seed", "-1", "--players", "2", "--level", "1"], "--seed"),
    ],
)
def test_deal_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    assert_usage_error(capsys, "deal", *args)
    assert fragment in run_main(capsys, "deal", *args)[2]


def test_check_json_fields_and_exit_codes(tmp_path: Path) -> None:
    record = {"deal": BOOKLET, "events": [{"player": 2, "card": 15}, {"star": True},
                                          {"player": 1, "card": 32}]}
    result = invoke("check", write(tmp_path, record), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "legal": True, "status": "cleared", "lives_lost": 1,
        "discarded": [11, 28, 50, 100], "stars_used": 1, "error": None,
    }
    record["events"] = [{"player": 1, "card": 15}]
    bad = invoke("check", write(tmp_path, record), "--json")
    assert bad.exit_code == 2
    assert json.loads(bad.stdout)["error"] == {
        "event": 1, "rule": "M2", "message": "player 1 does not hold 15"}
    text = invoke("check", write(tmp_path, record))
    assert text.exit_code == 2 and "event 1: rule M2" in text.stderr


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        ("{not json", ["malformed JSON"]),
        ({"deal": {**BOOKLET, "hands": [[28, 32], [15, 100], [11]]}, "events": []},
         ["deal.hands[3]", "player 3 holds 1 card; level 2 deals 2 to each"]),
        ({"deal": {**BOOKLET, "hands": [[28, 32], [15, 100], [11, 28]]}, "events": []},
         ["dealt twice"]),
        ({"deal": BOOKLET, "events": [{"player": 4, "card": 11}]},
         ["events[1].player", "1..3"]),
        ({"deal": BOOKLET, "events": [{"player": 1, "card": 101}]}, ["events[1].card"]),
        ({"deal": BOOKLET, "events": "x"}, ["events must be a list"]),
        ({"deal": {**BOOKLET, "game": "6-nimmt"}},
         ["a file of 6 nimmt!, not of The Mind", "'thegame nimmt check' reads it"]),
    ],
)
def test_check_bad_input_is_one_line(tmp_path: Path, content: Any, fragments: list[str]) -> None:
    assert_user_error(invoke("check", write(tmp_path, content)), *fragments)


def test_check_missing_file_is_one_line() -> None:
    assert_user_error(invoke("check", "/nonexistent/mind.json"), "mind.json")


def test_solve_json_fields(tmp_path: Path) -> None:
    result = invoke("solve", "--deal", write(tmp_path, BOOKLET), "--tolerance", "5", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["lives_lost"] == 1
    assert data["collisions"] == [{"player": 2, "played": 15, "discarded": [11],
                                   "holders": [3]}]
    assert data["events"][0] == {"player": 2, "card": 15}
    seeded = invoke("solve", "--seed", "1", "--players", "3", "--level", "4", "-d", "3")
    assert seeded.exit_code == 0 and "0 lives lost" in seeded.stdout
    record = {"deal": BOOKLET, "events": []}
    from_record = invoke("solve", "--deal", "-", "-d", "5", "--star", stdin=json.dumps(record))
    assert from_record.exit_code == 0 and "star at the start" in from_record.stdout


@pytest.mark.parametrize(
    "args",
    [["-d", "2"], ["--deal", "x.json", "--seed", "1", "-d", "2"], ["--seed", "1", "-d", "0"]],
)
def test_solve_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert_usage_error(capsys, "solve", *args)


def test_odds_json_small_deck() -> None:
    result = invoke("odds", "--players", "2", "--tolerance", "2", "--high", "12", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["players"], data["tolerance"], len(data["levels"])) == (2, 2, 6)
    first = data["levels"][0]
    assert first["level"] == 1 and first["exact"] is True
    # level 1, 2 cards of 1..12: they collide iff adjacent: 11 of 66 pairs
    assert first["lives_lost"] == pytest.approx([55 / 66, 11 / 66])
    assert first["lives_lost_with_star"] == [1.0]
    campaign = data["campaign"]
    assert 0 < campaign["p_win_without_stars"] <= campaign["p_win"] < 1
    assert len(campaign["star_policy"]) == 6 * 5 * 3
    assert set(campaign["star_policy"][0]) == {
        "level", "lives", "stars", "use_star", "p_win_if_star", "p_win_if_keep", "reachable"}


def test_odds_text_and_simulation() -> None:
    result = invoke("odds", "--players", "3", "-d", "3", "--high", "15")
    assert result.exit_code == 0
    assert "chance to win the campaign" in result.stdout
    assert "Best star policy" in result.stdout
    sim = invoke("odds", "--players", "2", "-d", "2", "--high", "10", "--simulate", "2000",
                 "--json")
    level = json.loads(sim.stdout)["levels"][0]["simulated"]
    assert level["exact"] is False and level["samples"] == 2000
    lo, hi = level["interval95"][0]
    p = level["lives_lost"][0]
    assert lo < p < hi and hi - lo < 0.04
    assert abs(p - 36 / 45) < 5 * (0.8 * 0.2 / 2000) ** 0.5  # 9 adjacent pairs of 45


@pytest.mark.parametrize(
    "args", [["--players", "1", "-d", "2"], ["--players", "2", "-d", "0"],
             ["--players", "2", "-d", "2", "--high", "1"]]
)
def test_odds_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert_usage_error(capsys, "odds", *args)


def test_analyze_names_the_early_player_and_the_star_what_if(tmp_path: Path) -> None:
    record = {"deal": BOOKLET, "events": [{"player": 2, "card": 15}, {"player": 1, "card": 28},
                                          {"player": 1, "card": 32}, {"player": 3, "card": 50},
                                          {"player": 2, "card": 100}]}
    result = invoke("analyze", write(tmp_path, record), "--json", "-d", "5", "-d", "4")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["collisions"] == [{"event": 1, "player": 2, "played": 15,
                                   "lower": [{"player": 3, "card": 11}], "waited": [3]}]
    assert data["star_at_start"] == [
        {"tolerance": 5, "lives_lost_without_star": 1, "lives_lost_with_star": 0,
         "star_changes_outcome": True, "lives_saved_by_star": 1},
        {"tolerance": 4, "lives_lost_without_star": 0, "lives_lost_with_star": 0,
         "star_changes_outcome": False, "lives_saved_by_star": 0},
    ]
    text = invoke("analyze", write(tmp_path, record))
    assert "player 2 played 15 too early" in text.stdout
    assert_user_error(invoke("analyze", write(tmp_path, "[]")), "record")


def test_play_a_whole_campaign_at_one_keyboard() -> None:
    """Rules M1, M2, M5 through the terminal: every level played in order wins."""
    from thegame.models.mind import Campaign, Rules

    game = Campaign(Rules(4), seed=4)
    lines = ["hand 1", "9 9", "bogus"]
    while game.status == "in_progress":
        hands = game.current.hands
        card = min(c for h in hands for c in h)
        player = next(i for i, h in enumerate(hands, 1) if card in h)
        lines.append(f"{player} {card}")
        game.play(player, card)
    result = invoke("play", "--players", "4", "--seed", "4", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "game won at level 8" in result.stdout
    assert "not possible: play: no player 9" in result.stdout
    assert "commands:" in result.stdout


def test_play_early_cards_lose_lives_then_the_game() -> None:
    """Rule M3 and the Decision: the last life gone mid-level loses at once."""
    from thegame.models.mind import Campaign, Rules

    game = Campaign(Rules(2), seed=3)
    lines = []
    for rank in (-1, -2):  # level 1: the higher card; level 2: the second highest
        hands = game.current.hands
        card = sorted(c for h in hands for c in h)[rank]
        player = next(i for i, h in enumerate(hands, 1) if card in h)
        lines.append(f"{player} {card}")
        game.play(player, card)
    result = invoke("play", "--players", "2", "--seed", "3", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0
    assert result.stdout.count("too early! a life is lost") == 2
    assert "game lost at level 2" in result.stdout
    quit_ = invoke("play", "--players", "2", "--seed", "3", stdin="quit\n")
    assert quit_.exit_code == 0 and "game" not in quit_.stdout.splitlines()[-1]


def _winning_lines(players: int, seed: int) -> list[str]:
    """What the table types to win the campaign: the lowest card each time."""
    from thegame.models.mind import Campaign, Rules

    game = Campaign(Rules(players), seed=seed)
    lines = []
    while game.status == "in_progress":
        hands = game.current.hands
        card = min(c for h in hands for c in h)
        player = next(i for i, h in enumerate(hands, 1) if card in h)
        lines.append(f"{player} {card}")
        game.play(player, card)
    return lines


def test_play_save_writes_level_records_that_check_and_analyze_accept(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["star", *_winning_lines(2, 5)]  # a star first: level 1 is cleared by it
    result = invoke("play", "--players", "2", "--seed", "5", "--save", str(save),
                    stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "game won at level 12" in result.stdout
    assert f"saved to {save}" in result.stdout
    # The last level in FILE, every finished level beside it.
    last = json.loads(save.read_text())
    assert last["deal"]["level"] == 12 and len(last["events"]) == 24
    first = tmp_path / "game-level1.json"
    assert json.loads(first.read_text())["events"] == [{"star": True}]
    for path in (save, first, tmp_path / "game-level7.json"):
        checked = invoke("check", str(path), "--json")
        assert checked.exit_code == 0, checked.output
        assert json.loads(checked.stdout)["status"] == "cleared"
        analysed = invoke("analyze", str(path), "--json")
        assert analysed.exit_code == 0 and json.loads(analysed.stdout)["legal"] is True


@pytest.mark.parametrize(("then", "code"), [(KeyboardInterrupt, 130), (EOFError, 0)],
                         ids=["ctrl-c", "ctrl-d"])
def test_play_ctrl_c_exits_130_and_ctrl_d_quits_with_a_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    then: type[BaseException], code: int,
) -> None:
    import thegame.cli.mind as mind_module

    first = _winning_lines(2, 5)[:1]

    def feed() -> Any:
        yield from first
        raise then

    lines = feed()
    monkeypatch.setattr(mind_module, "read_line", lambda prompt: next(lines))
    save = tmp_path / "g.json"
    got, out, err = run_main(capsys, "play", "--players", "2", "--seed", "5", "--save", str(save))
    assert got == code and "Traceback" not in err
    if code == 130:
        assert err.strip().endswith(f"interrupted; the level so far is saved to {save}")
        assert "game" not in out.splitlines()[-1]
    else:
        assert "end of input: quit at level" in out
    data = json.loads(save.read_text())
    assert len(data["events"]) == 1 or data["deal"]["level"] == 2


def test_analyze_of_an_illegal_record_exits_2_like_check(tmp_path: Path) -> None:
    record = {"deal": BOOKLET, "events": [{"player": 1, "card": 15}]}
    path = write(tmp_path, record)
    for command in ("check", "analyze"):
        result = invoke(command, path)
        assert result.exit_code == 2, command
        assert "event 1: rule M2: player 1 does not hold 15" in result.stderr
        assert result.stdout == ""
    data = json.loads(invoke("analyze", path, "--json").stdout)
    assert data["error"] == {"event": 1, "rule": "M2", "message": "player 1 does not hold 15"}


def test_play_a_real_ctrl_c_exits_130_and_keeps_the_level(tmp_path: Path) -> None:
    """The real signal, in a child process waiting for the next command."""
    import signal
    import subprocess
    import sys
    import time

    save = tmp_path / "g.json"
    command = "from thegame.cli.main import main; main()"
    args = ["mind", "play", "--players", "2", "--seed", "5", "--save", str(save)]
    child = subprocess.Popen([sys.executable, "-c", command, *args], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdin is not None
    child.stdin.write(_winning_lines(2, 5)[0] + "\n")
    child.stdin.flush()
    deadline = time.monotonic() + 60  # the first event saved: the child waits for the next
    while time.monotonic() < deadline:
        if save.exists() and json.loads(save.read_text() or "{}").get("events"):
            break
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted; the level so far is saved" in stderr
    assert stdout.endswith("> ")  # nothing after the open prompt: no ending but Ctrl-C's
    assert len(json.loads(save.read_text())["events"]) == 1
