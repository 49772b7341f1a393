"""The ``thegame`` command line (``deal`` and ``check``) through click's
CliRunner. Bad input must give exit code 2 and exactly one line on stderr
that starts with ``error:`` - never a traceback."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.cli import run_main
from tests.support.the_game import EXTREME
from thegame.cli.main import cli
from thegame.models.the_game import Deal, Play, Record, Turn, get_rules, small_rules

SEED_1_HAND = "4 7 19 35 40 49 52 94"  # sorted first 8 cards of seed 1 (rule C2)


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def write(tmp_path: Path, content: str | dict[str, Any], name: str = "in.json") -> str:
    path = tmp_path / name
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
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
    assert "Traceback" not in result.output
    assert result.stdout == ""


# -- thegame deal ----------------------------------------------------------------


def test_deal_seed_1_shows_hand_and_draw_pile() -> None:
    result = invoke("deal", "--seed", "1")
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    assert "classic, 1 player, seed 1, first: free (rule C3)" in out
    assert "player 1 hand" in out and SEED_1_HAND in out
    assert "draw pile (top first)" in out
    assert "8 69 86 3 99" in out  # the draw pile, top first


def test_deal_seed_1_json() -> None:
    result = invoke("deal", "--seed", "1", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    deal = Deal.from_seed(1, get_rules("classic"))
    assert data == deal.to_dict()
    assert Deal.from_dict(data) == deal


def test_deal_seed_1_text() -> None:
    result = invoke("deal", "--seed", "1", "--text")
    assert result.exit_code == 0
    assert result.stdout == Deal.from_seed(1, get_rules("classic")).to_text() + "\n"


@pytest.mark.parametrize("variant", ["profi", "on-fire", "extreme", "face-to-face"])
def test_deal_variants_json(variant: str) -> None:
    result = invoke("deal", "--seed", "3", "--variant", variant, "--json")
    assert result.exit_code == 0
    assert Deal.from_dict(json.loads(result.stdout)) == Deal.from_seed(3, get_rules(variant))


def test_deal_extreme_table_shows_commands_and_legend() -> None:
    result = invoke("deal", "--seed", "7", "--variant", "extreme")
    assert result.exit_code == 0
    assert "77[T]" in result.stdout  # a no-talk card (X4d: shown in output)
    assert "no-talk" in result.stdout


def test_deal_players_and_first() -> None:
    result = invoke("deal", "--seed", "1", "--players", "3", "--first", "2", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["players"] == 3
    assert json.loads(result.stdout)["first"] == 2


def test_deal_from_deck_option() -> None:
    deck = " ".join(str(c) for c in range(99, 1, -1))
    result = invoke("deal", "--deck", deck, "--text")
    assert result.exit_code == 0
    assert result.stdout.strip() == "classic 1p : " + deck


@pytest.mark.parametrize("form", ["json", "text", "record"])
def test_deal_from_file(tmp_path: Path, form: str) -> None:
    deal = Deal.from_seed(9, get_rules("on-fire"), 2)
    content: str | dict[str, Any] = {
        "json": deal.to_json(),
        "text": deal.to_text() + "\n",
        "record": Record(deal).to_json(),
    }[form]
    result = invoke("deal", "--deal", write(tmp_path, content), "--json")
    assert result.exit_code == 0
    assert Deal.from_dict(json.loads(result.stdout)) == deal


def test_deal_from_stdin() -> None:
    deal = Deal.from_seed(4, get_rules("classic"))
    result = invoke("deal", "--deal", "-", "--text", stdin=deal.to_text())
    assert result.exit_code == 0
    assert result.stdout.strip() == deal.to_text()


# -- thegame check ------------------------------------------------------------------

SMALL = small_rules(high=11, hand=3)
SMALL_DEAL = Deal.create(SMALL, 1, [list(range(2, 12))])


def _turn(*cards: int, pile: int = 0) -> Turn:
    return Turn(1, tuple(Play(c, pile) for c in cards))


WON = Record(SMALL_DEAL, (_turn(2, 3, 4), _turn(5, 6, 7), _turn(8, 9, 10), _turn(11)))
ILLEGAL = Record(SMALL_DEAL, (_turn(2, 3, 4), _turn(6, 5)))


def test_check_legal_record(tmp_path: Path) -> None:
    result = invoke("check", write(tmp_path, WON.to_json()))
    assert result.exit_code == 0
    assert " ".join(result.stdout.split()) == (
        "legal (4 turns): won - all cards played: a perfect clear (rule C7); cards left: 0"
    )
    assert result.stderr == ""


def test_check_legal_result_is_one_line(tmp_path: Path) -> None:
    result = invoke("check", write(tmp_path, WON.to_json()))
    assert len(result.stdout.splitlines()) == 1


def test_check_json_output_shape(tmp_path: Path) -> None:
    result = invoke("check", write(tmp_path, WON.to_json()), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "legal": True,
        "status": "won",
        "cards_left": 0,
        "reason": "all cards played: a perfect clear (rule C7)",
        "error": None,
    }


def test_check_in_progress_json(tmp_path: Path) -> None:
    record = Record(SMALL_DEAL, WON.turns[:1])
    result = invoke("check", write(tmp_path, record.to_json()), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "legal": True,
        "status": "in_progress",
        "cards_left": 7,
        "reason": None,
        "error": None,
    }


def test_check_illegal_record_json(tmp_path: Path) -> None:
    result = invoke("check", write(tmp_path, ILLEGAL.to_json()), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert set(data) == {"legal", "status", "cards_left", "reason", "error"}
    assert data["legal"] is False and data["status"] == "in_progress"
    assert {k: data["error"][k] for k in ("turn", "play", "rule")} == {
        "turn": 2,
        "play": 2,
        "rule": "C5",
    }


def test_check_illegal_record_text(tmp_path: Path) -> None:
    result = invoke("check", write(tmp_path, ILLEGAL.to_json()))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("illegal: turn 2, play 2: rule C5: 5 A1: A1 shows 6")


def test_check_duel_json_names_the_winner(tmp_path: Path) -> None:
    rules = get_rules("face-to-face").with_changes(high=7)
    deal = Deal.create(rules, 2, [list(range(2, 8))] * 2)
    record = Record(deal, (Turn(1, tuple(Play(c, 0) for c in range(2, 8))),))
    result = invoke("check", write(tmp_path, record.to_json()), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "legal": True,
        "status": "won",
        "cards_left": 6,
        "reason": "player 1 played all their cards (rule D6)",
        "error": None,
        "winner": 1,
    }


# -- bad input -------------------------------------------------------------------------


def _record(**deal_changes: Any) -> dict[str, Any]:
    deal = Deal.from_seed(1, get_rules("classic")).to_dict()
    deal.update(deal_changes)
    return {"deal": deal, "turns": []}


def _deck_with(change: Any) -> dict[str, Any]:
    deck = list(Deal.from_seed(1, get_rules("classic")).deck)
    change(deck)
    return _record(deck=deck)


def _extreme_record(drop: int) -> dict[str, Any]:
    deal = Deal.from_seed(1, EXTREME).to_dict()
    stops = [c for c, k in deal["commands"].items() if k == "stop"]
    del deal["commands"][stops[drop]]
    return {"deal": deal, "turns": []}


def _with_turn(player: int, pile: str) -> dict[str, Any]:
    data = _record()
    data["turns"] = [{"player": player, "plays": [{"card": 4, "pile": pile}]}]
    return data


BAD_RECORDS: list[tuple[str, str | dict[str, Any], tuple[str, ...]]] = [
    ("malformed-json", '{"deal": {"variant": "classic",', ("malformed JSON",)),
    ("not-json", "classic 1p : 2 3", ("malformed JSON",)),
    ("empty", "", ("the file is empty",)),
    ("blank", " \n", ("the file is empty",)),
    ("too-few-cards", _deck_with(lambda d: d.pop()), ("97 cards, expected 98",)),
    ("too-many-cards", _deck_with(lambda d: d.append(d[0])), ("appears twice",)),
    ("duplicate-card", _deck_with(lambda d: d.__setitem__(5, d[0])), ("card 7 appears twice",)),
    ("card-100", _deck_with(lambda d: d.__setitem__(0, 100)), ("card 100", "out of range")),
    ("card-1", _deck_with(lambda d: d.__setitem__(0, 1)), ("card 1", "out of range")),
    ("card-not-int", _deck_with(lambda d: d.__setitem__(0, "7")), ("'7' is not a card number",)),
    ("unknown-variant", _record(variant="classik"), ("unknown variant 'classik'",)),
    ("unknown-pile", _with_turn(1, "Z9"), ("unknown pile 'Z9'", "turns[1].plays[1].pile")),
    ("extreme-3-stops", _extreme_record(0), ("need 4 cards of each of the 7 kinds", "stop: 3")),
    ("turn-player-out-of-range", _with_turn(3, "A1"), ("player 3 does not exist",)),
    ("first-out-of-range", _record(first=2), ("player 2 does not exist",)),
    ("players-out-of-range", _record(players=6), ("classic is for 1-5 players, not 6",)),
    ("huge-number", '{"deal": {"deck": [' + "9" * 5000 + "]}}", ("malformed JSON",)),
    ("deep-nesting", "[" * 50_000, ("malformed JSON",)),
]


@pytest.mark.parametrize(
    ("content", "fragments"),
    [(c, f) for _, c, f in BAD_RECORDS],
    ids=[name for name, _, _ in BAD_RECORDS],
)
def test_check_bad_input(tmp_path: Path, content: Any, fragments: tuple[str, ...]) -> None:
    for extra in ([], ["--json"]):
        result = invoke("check", write(tmp_path, content), *extra)
        assert_user_error(result, *fragments)


def test_check_missing_file(tmp_path: Path) -> None:
    result = invoke("check", str(tmp_path / "nope.json"))
    assert_user_error(result, "nope.json", "No such file")


def test_check_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00")
    assert_user_error(invoke("check", str(path)), "not a UTF-8 text file")


BAD_DEAL_FILES: list[tuple[str, str | dict[str, Any], tuple[str, ...]]] = [
    ("malformed-json", '{"variant": ', ("malformed JSON",)),
    ("wrong-count", "classic 1p : 2 3 4", ("3 cards, expected 98",)),
    ("duplicate", "classic 1p : 2 2 " + " ".join(map(str, range(3, 99))), ("appears twice",)),
    ("out-of-range", "classic 1p : " + " ".join(map(str, range(2, 101))), ("card 100",)),
    ("unknown-variant", "classik 1p : 2", ("unknown variant 'classik'",)),
    ("extreme-commands", "extreme 1p : 2=stop " + " ".join(map(str, range(3, 100))), ("need 4",)),
    ("players", "classic 9p : " + " ".join(map(str, range(2, 100))), ("not 9",)),
    ("two-lines", "classic 1p : 2\nclassic 1p : 3", ("a text deal is one line",)),
    ("empty", "  \n", ("the file is empty",)),
]


@pytest.mark.parametrize(
    ("content", "fragments"),
    [(c, f) for _, c, f in BAD_DEAL_FILES],
    ids=[name for name, _, _ in BAD_DEAL_FILES],
)
def test_deal_bad_file(tmp_path: Path, content: Any, fragments: tuple[str, ...]) -> None:
    assert_user_error(invoke("deal", "--deal", write(tmp_path, content)), *fragments)


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--seed", "1", "--variant", "face-to-face", "--players", "1"], ("for 2 players",)),
        (["--seed", "1", "--first", "2"], ("player 2 does not exist",)),
        (["--seed", "1", "--deck", "2 3"], ("give one deal source",)),
        ([], ("no deal given",)),
        (["--deck", "2 3 x"], ("'x' is not a number",)),
        (["--deck", "2 3 4"], ("3 cards, expected 98",)),
    ],
)
def test_deal_bad_options(args: list[str], fragments: tuple[str, ...]) -> None:
    assert_user_error(invoke("deal", *args), *fragments)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--seed", "1", "--variant", "nope"], "'nope' is not one of 'classic', 'profi'"),
        (["--seed", "1", "--players", "6"], "'--players': 6 is not in the range 1<=x<=5"),
    ],
)
def test_deal_options_out_of_their_choices_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, out, err = run_main(capsys, "deal", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and fragment in err


def test_deal_file_contradicting_options(tmp_path: Path) -> None:
    path = write(tmp_path, Deal.from_seed(1, get_rules("classic")).to_text())
    assert_user_error(invoke("deal", "--deal", path, "--variant", "extreme"), "contradicts")
    assert_user_error(invoke("deal", "--deal", path, "--players", "3"), "contradicts")


def test_deal_file_with_huge_number_is_a_user_error(tmp_path: Path) -> None:
    path = write(tmp_path, '{"deck": [' + "9" * 5000 + "]}")
    assert_user_error(invoke("deal", "--deal", path), "malformed JSON")


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    """write_atomic goes through a private temporary file; the result must
    still be readable by others under the usual umask."""
    from thegame.cli.common import write_atomic

    old = os.umask(0o022)
    try:
        target = tmp_path / "out.json"
        write_atomic(str(target), "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert target.read_text() == "{}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--seed", "-1"], "--seed"),
        (["solve", "--seed", "2", "--bogus"], "--bogus"),
        (["nosuch"], "nosuch"),
    ],
)
def test_console_script_usage_errors_are_one_line(argv: list[str], message: str) -> None:
    """The installed command turns click's usage errors into one line on
    stderr with exit code 2 (CliRunner would show click's own format)."""
    import subprocess
    import sys

    code = "from thegame.cli.main import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert message in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("content", "fragment"),
    [("", "the file is empty"), ('{"a": 1}', "unknown key 'a'"),
     ('{"game": "the-mind", "players": 2}', "'thegame mind check' reads it")],
)
def test_play_points_to_deal_only_for_a_deal(tmp_path: Path, content: str, fragment: str) -> None:
    path = write(tmp_path, content)
    result = invoke("play", path, stdin="quit\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and fragment in result.stderr
    assert "--deal" not in result.stderr  # 'play --deal FILE' would fail as well


def test_a_deal_only_command_names_a_finished_game_as_finished(tmp_path: Path) -> None:
    full = tmp_path / "full.json"
    solved = invoke("solve", "--seed", "1", "--node-limit", "300000", "--save", str(full))
    assert solved.exit_code == 0
    result = invoke("explain", "--deal", str(full))
    assert result.exit_code == 2 and "holds a finished game (won after" in result.stderr
    assert "in progress" not in result.stderr and f"'thegame analyze {full}'" in result.stderr


def test_deal_refuses_json_and_text_together() -> None:
    result = invoke("deal", "--seed", "1", "--json", "--text")
    assert result.exit_code == 2 and result.stdout == "" and "--json or --text" in result.stderr
