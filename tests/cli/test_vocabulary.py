"""One notation, one vocabulary, every position file accepted, limits and
interrupts: what a user reads and types is the same everywhere."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support import DATA
from tests.support.cli import run_main
from thegame.cli.main import cli
from thegame.models.the_game import Record

RUNNER = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    r = RUNNER.invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_solve_prints_plays_as_card_and_pile_and_turns_from_one() -> None:
    code, out, _ = invoke("solve", "--seed", "1", "--node-limit", "300000")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert rows[0][:4] == ["1", "1", "7", "A1,"]  # turn 1, player 1: 7 A1, ...
    assert "->" not in out and " on " not in out
    assert "1 player;" in out and "player(s)" not in out


def test_explain_counts_turns_from_one() -> None:
    code, out, _ = invoke("explain", "--seed", "2", "--time-limit", "20")
    assert code == 0
    assert "\nturn 1 - player 1 - needs 2 cards" in out and "turn 0 " not in out
    assert "play    9 A1 (on 1)" in out


def solved_record(tmp_path: Path, keep: int) -> tuple[Path, Record]:
    full = tmp_path / "full.json"
    code, _, _ = invoke("solve", "--seed", "3", "--node-limit", "300000", "--save", str(full))
    assert code == 0
    record = Record.from_json(full.read_text())
    cut = Record(record.deal, record.turns[:keep])
    path = tmp_path / "cut.json"
    path.write_text(cut.to_json())
    return path, cut


def test_solve_goes_on_from_a_record_s_position(tmp_path: Path) -> None:
    path, cut = solved_record(tmp_path, keep=10)
    written = tmp_path / "again.json"
    code, out, _ = invoke("solve", str(path), "--json", "--save", str(written))
    assert code == 0
    data = json.loads(out)
    assert data["from_turn"] == 11 and data["verdict"] == "win"
    played = Record.from_json(written.read_text())
    assert played.turns[:10] == cut.turns  # the record's turns stay as played
    code, out, _ = invoke("check", str(written), "--json")
    assert json.loads(out)["status"] == "won"
    code, text, _ = invoke("solve", "--deal", str(path))  # --deal reads a record too
    assert "from the position after 10 turns of the record" in text


def test_a_deal_only_command_refuses_a_game_in_progress(tmp_path: Path) -> None:
    path, _ = solved_record(tmp_path, keep=4)
    code, out, err = invoke("explain", "--deal", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "holds a game in progress (4 turns played)" in err


def test_puzzle_files_are_accepted_where_a_record_is() -> None:
    puzzle = str(DATA / "puzzles" / "classic-12.json")
    code, out, _ = invoke("check", puzzle, "--json")
    assert code == 0 and json.loads(out)["status"] == "in_progress"
    code, out, _ = invoke("hint", puzzle, "--json", "--time-limit", "20")
    assert code == 0 and json.loads(out)["verdict"] == "win"
    code, out, _ = invoke("solve", "--deal", puzzle, "--json", "--time-limit", "20")
    assert code == 0 and json.loads(out)["from_turn"] == 33
    code, out, _ = invoke("analyze", puzzle, "--json", "--samples", "2", "--no-hindsight")
    assert code == 0 and json.loads(out)["cards_left"] == 22


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--seed", "1", "--time-limit", "0"),
        ("explain", "--seed", "1", "--time-limit", "0"),
        ("solve-batch", "--seeds", "1-2", "--time-limit", "0"),
        ("solve", "--seed", str(2**64)),
        ("deal", "--seed", "18446744073709551617"),
        ("solve-batch", "--seeds", f"{2**64 - 1}-{2**64}"),
        ("mind", "deal", "--seed", str(2**64), "--players", "2"),
        ("solve", "--seed", "1", "--node-limit", str(2**63)),
        ("explain", "--seed", "1", "--node-limit", str(2**64)),
        ("solve-batch", "--seeds", "1-2", "--node-limit", str(2**63)),
        ("solve", "--seed", "1", "--time-limit", "1e10"),
        ("solve", "--seed", "1", "--time-limit", "inf"),
        ("survey", "run", "--seeds", "1-2", "--db", "never.sqlite", "--time-limit", "nan"),
        ("survey", "run", "--seeds", "1-2", "--db", "never.sqlite", "--time-limit", "inf"),
        ("cento", "solve", "--seed", "1", "--node-limit", str(2**63)),
    ],
)
def test_limits_and_seeds_out_of_range_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error:")


def interrupted(args: list[str], after: float) -> subprocess.CompletedProcess[str]:
    """Run ``thegame ARGS`` and press Ctrl-C (SIGINT to its process group)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from thegame.cli.main import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal does
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.parametrize("engine", ["dfs", "cpsat", "auto"])
def test_ctrl_c_in_solve_prints_no_answer_and_exits_130(engine: str) -> None:
    # Seed 108 of profi-hard is not decided within minutes: the search is busy
    # (CP-SAT's included), and a best line so far exists to be withheld.
    args = ["solve", "--seed", "108", "--variant", "profi-hard", "--engine", engine]
    start = time.monotonic()
    r = interrupted([*args, "--time-limit", "120", "--json"], after=4.0)
    assert r.returncode == 130, r.stderr
    assert r.stdout == ""  # no answer, not even a partial one
    assert r.stderr.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in r.stderr
    assert time.monotonic() - start < 4.0 + 10  # stopped at once, not run to its limit


def test_ctrl_c_in_solve_batch_leaves_no_worker_traceback() -> None:
    args = ["solve-batch", "--seeds", "20-40", "--variant", "profi-hard", "--jobs", "2"]
    r = interrupted([*args, "--time-limit", "60"], after=8.0)
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr
    for line in r.stdout.splitlines():
        assert json.loads(line)["verdict"] in ("win", "loss", "unknown")


# A writer that fills the pipe, then gets Ctrl-C while blocked mid-line:
# the handler only sets a flag, as ``interrupt.handler`` does while polling.
_FULL_PIPE_WRITER = """
import signal
from thegame.cli.common import print_json
signal.signal(signal.SIGINT, lambda signum, frame: None)
for i in range(30):
    print_json({"i": i, "pad": "x" * 4300})
"""


def test_json_lines_stay_whole_when_ctrl_c_lands_on_a_full_pipe() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _FULL_PIPE_WRITER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.0)  # the pipe (64 KiB) is full after about 15 lines
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [json.loads(line)["i"] for line in out.splitlines()] == list(range(30))


# -- one line format everywhere: 37 A1, 40 A1 | 90 D1 --------------------------------------


def _joined(out: str, label: str) -> str:
    """The text after ``label``, its wrapped lines joined again."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(label))
    text = [lines[start][len(label) :]]
    for line in lines[start + 1 :]:
        if not line.startswith(" " * len(label)):
            break
        text.append(line.strip())
    return " ".join(t.strip() for t in text)


def test_line_text_joins_plays_with_commas_and_turns_with_bars() -> None:
    from thegame.models.the_game import Play, Turn, get_rules
    from thegame.models.the_game.notation import line_text

    turns = [Turn(1, (Play(37, 0), Play(40, 0))), Turn(1, (Play(90, 2),))]
    assert line_text(get_rules("classic"), turns) == "37 A1, 40 A1 | 90 D1"
    marked = line_text(get_rules("classic"), turns, lambda c: f"{c}*")
    assert marked == "37* A1, 40* A1 | 90* D1"


def test_hint_explain_and_daily_print_the_line_with_line_text(tmp_path: Path) -> None:
    from thegame.models.the_game.notation import line_text
    from thegame.puzzles.the_game.files import Puzzle

    puzzle = str(DATA / "puzzles" / "classic-12.json")
    code, out, _ = invoke("hint", puzzle, "--json", "--time-limit", "20")
    data = json.loads(out)
    deal = Puzzle.from_json(Path(puzzle).read_text()).deal
    line = Record.from_dict({"deal": deal.to_dict(), "turns": data["turns"]}).turns
    code, out, _ = invoke("hint", puzzle, "--time-limit", "20")
    assert code == 0 and _joined(out, "line: ") == line_text(deal.rules, line)
    path, cut = solved_record(tmp_path, keep=6)
    code, out, _ = invoke("explain", str(path))
    assert code == 0 and _joined(out, "line: ") == line_text(cut.deal.rules, cut.turns)
    code, out, _ = invoke("daily", "--date", "2026-01-05", "--solution")
    assert code == 0
    code, js, _ = invoke("daily", "--date", "2026-01-05", "--json")
    daily = Puzzle.from_dict(json.loads(js))
    assert _joined(out, "solution: ") == line_text(daily.deal.rules, daily.solution)


def test_check_counts_from_one_on_screen_and_in_json(tmp_path: Path) -> None:
    path, _ = solved_record(tmp_path, keep=3)
    data = json.loads(path.read_text())
    data["turns"][1]["plays"][0]["card"] = 200  # not a card of the deal
    path.write_text(json.dumps(data))
    code, out, _ = invoke("check", str(path), "--json")
    error = json.loads(out)["error"]
    assert code == 2 and set(error) == {"turn", "play", "rule", "message"}
    assert (error["turn"], error["play"]) == (2, 1)
    code, _, err = invoke("check", str(path))
    assert code == 2 and err.startswith("illegal: turn 2, play 1: rule ")


LINE = re.compile(r"^(legal \(\d+ (turn|event|round)s?\): [a-z ]+( - .+)?(; .+)?"
                  r"|illegal: (round \d+, )?(turn \d+(, play \d+)?|event \d+): rule \w+: .+)$")


def _game_files(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    """A legal and an illegal record of The Game, The Mind and 6 nimmt!."""
    from tests.support.nimmt import random_record

    full, _ = solved_record(tmp_path, keep=4)
    game = json.loads(full.read_text())
    game["turns"][1]["plays"][0]["card"] = 100  # not in the hand (rule C4)
    mind_deal = {"game": "the-mind", "players": 2, "level": 1, "hands": [[10], [20]]}
    mind = {"deal": mind_deal, "events": [{"player": 1, "card": 10}]}
    nimmt = random_record(8, 5).to_json()
    files: dict[str, tuple[Path, Path]] = {}
    for name, good in (("game", full), ("mind", None), ("nimmt", None)):
        bad_data = {"game": game, "mind": {**mind, "events": [{"player": 1, "card": 20}]},
                    "nimmt": json.loads(json.dumps(nimmt))}[name]
        if name == "nimmt":
            bad_data["turns"][3]["cards"][2] = bad_data["turns"][0]["cards"][2]
        good_path = good or tmp_path / f"{name}.json"
        if good is None:
            good_path.write_text(json.dumps(mind if name == "mind" else nimmt))
        bad_path = tmp_path / f"{name}-bad.json"
        bad_path.write_text(json.dumps(bad_data))
        files[name] = (good_path, bad_path)
    return files


def test_every_game_says_a_check_in_one_line_of_one_shape(tmp_path: Path) -> None:
    for name, (good, bad) in _game_files(tmp_path).items():
        group = {"game": [], "mind": ["mind"], "nimmt": ["nimmt"]}[name]
        code, out, err = invoke(*group, "check", str(good))
        assert code == 0 and err == "" and out.count("\n") == 1, (name, out)
        assert LINE.match(out.strip()), (name, out)
        assert "_" not in out.split(":")[1].split(";")[0], out  # 'in progress', one spelling
        code, out, err = invoke(*group, "check", str(bad))
        assert code == 2 and out == "" and err.count("\n") == 1, (name, err)
        assert LINE.match(err.strip()) and err.startswith("illegal: "), (name, err)


def test_error_paths_count_from_1_after_the_file_name(tmp_path: Path) -> None:
    full, _ = solved_record(tmp_path, keep=4)
    data = json.loads(full.read_text())
    data["turns"][1]["plays"][0]["card"] = "x"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    for command in ("check", "solve", "hint", "analyze"):
        code, out, err = invoke(command, str(bad))
        assert code == 2 and out == "", command
        assert err == f"error: {bad}: turns[2].plays[1].card: card must be an integer\n", command
    # The same truncated file: the same place in every command.
    cut = tmp_path / "cut.json"
    cut.write_text(full.read_text()[:300] + " ")
    errors = {invoke(command, str(cut))[2] for command in ("check", "solve", "hint")}
    assert len(errors) == 1 and "malformed JSON" in errors.pop()


def test_turns_read_alone_are_not_named_twice() -> None:
    """The server reads "turns" without a record around them: ``turns[2]``,
    not ``turns.turns[1]``."""
    from thegame import Deal
    from thegame.models import InvalidInputError
    from thegame.models.the_game.record import turns_from_list

    deal = Deal.from_seed(1)
    raw = [{"player": 1, "plays": []}, {"player": 1, "plays": [{"card": 1, "pile": "Z9"}]}]
    with pytest.raises(InvalidInputError) as info:
        turns_from_list(deal, raw, "turns")
    assert info.value.where == "turns[2].plays[1].pile"


def test_a_file_of_another_game_names_its_game_and_command(tmp_path: Path) -> None:
    from tests.support.nimmt import random_record

    full, _ = solved_record(tmp_path, keep=4)
    assert json.loads(full.read_text())["deal"]["game"] == "the-game"
    nimmt = tmp_path / "round.json"
    nimmt.write_text(json.dumps(random_record(8, 5).to_json()))
    mind = tmp_path / "level.json"
    mind.write_text(json.dumps({"deal": {"game": "the-mind", "players": 2, "level": 1,
                                         "hands": [[10], [20]]}, "events": []}))
    cases = [
        ((), nimmt, "a file of 6 nimmt!, not of The Game: 'thegame nimmt check' reads it"),
        (("mind",), full, "a file of The Game, not of The Mind: 'thegame check' reads it"),
        (("nimmt",), mind, "a file of The Mind, not of 6 nimmt!: 'thegame mind check' reads it"),
    ]
    for group, path, message in cases:
        code, out, err = invoke(*group, "check", str(path))
        assert code == 2 and out == "" and err == f"error: {path}: {message}\n"
    old = json.loads(full.read_text())
    del old["deal"]["game"]  # written before deals named their game: still read
    full.write_text(json.dumps(old))
    assert invoke("check", str(full))[0] == 0


def test_the_api_page_shows_no_raw_markup_of_another_doc_tool() -> None:
    """mkdocstrings renders Markdown: a reST role (``:class:`X```) would show
    as it is typed on the API page."""
    import importlib
    import inspect

    root = Path(__file__).resolve().parents[2]
    modules = re.findall(r"^::: ([\w.]+)", (root / "docs" / "api.md").read_text(), re.M)
    assert modules
    role = re.compile(r":(class|func|meth|attr|mod|exc):`")
    for name in modules:
        module = importlib.import_module(name)
        for member_name in getattr(module, "__all__", dir(module)):
            member = getattr(module, member_name)
            doc = inspect.getdoc(member) or ""
            assert not role.search(doc), f"{name}.{member_name}"
            for attr in vars(member).values() if inspect.isclass(member) else ():
                assert not role.search(inspect.getdoc(attr) or ""), f"{name}.{member_name}"
