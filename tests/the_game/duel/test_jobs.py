"""``--jobs`` on Face to Face's ``hint``, ``solve`` and ``analyze``: 2 or
more race each turn start's proof over two worker processes
(``parallel.race_decide``), with the serial search's answer; Ctrl-C leaves
no worker behind."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import run_main
from tests.support.the_game import DUEL, turn_starts
from tests.the_game.duel.test_cli import _policy_record, _record, invoke
from thegame.analysis.the_game.duel import duel_hint
from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, GameState, Record, get_rules, replay
from thegame.models.the_game.record import replayed
from thegame.solver.the_game.duel.api import decide_or_estimate, session
from thegame.solver.the_game.duel.parallel import decider, race_decide

NODES = 200_000


def test_the_race_answers_each_question_as_the_serial_search() -> None:
    # Small duels: the verdict, the winner and a line that replays, from
    # both ways; the race's own figures say two workers answered.
    rnd = random.Random(3)
    rules = DUEL.with_changes(high=16, hand_sizes=(3, 3))
    cards = list(rules.cards)
    deal = Deal.create(rules, 2, [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))], 1)
    seen = set()
    for state, _plays in list(turn_starts(deal, 0))[:4]:
        serial = decide_or_estimate(state, Limit(), NODES, None, session(deal))
        raced = decide_or_estimate(state, Limit(), NODES, None, session(deal), decider=race_decide)
        assert raced.verdict == serial.verdict != Verdict.UNKNOWN
        assert raced.winner == serial.winner and raced.turns and raced.proof
        assert raced.details["workers"] == 2 and raced.nodes >= raced.details["answer_nodes"]
        assert "workers" not in serial.details
        seen.add(raced.verdict)
    assert seen == {Verdict.WIN, Verdict.LOSS}
    # Neither worker decided: the race names no answering search.
    start = GameState(deal)
    spent = decide_or_estimate(start, Limit(), 40, None, session(deal), decider=race_decide)
    assert spent.details["workers"] == 2 and "answer_nodes" not in spent.details


def test_jobs_name_the_decider() -> None:
    assert decider(1) is None and decider(2) is decider(8) is race_decide


def test_a_printed_hint_near_the_end_is_the_serial_one(tmp_path: Path) -> None:
    path, _played = _policy_record(tmp_path, 1, 5)
    state = replayed(Record.from_json(path.read_text()))
    serial = duel_hint(state, Limit(20.0))
    raced = duel_hint(state, Limit(20.0), jobs=2)
    assert serial.verdict != Verdict.UNKNOWN
    assert raced.verdict == serial.verdict and raced.line and raced.line[-1].player == (
        serial.line[-1].player
    )


def test_inside_a_turn_the_serial_search_answers() -> None:
    # The race decides turn starts; a turn under way stays the serial search's.
    rnd = random.Random(5)
    rules = DUEL.with_changes(high=16, hand_sizes=(3, 3))
    cards = list(rules.cards)
    deal = Deal.create(rules, 2, [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))], 1)
    state, plays = next(turn_starts(deal, 1))
    state.play(*plays[0])
    res = decide_or_estimate(state, Limit(), NODES, None, session(deal), decider=race_decide)
    assert res.verdict != Verdict.UNKNOWN and "workers" not in res.details


def test_cli_jobs_two(tmp_path: Path) -> None:
    path, played = _policy_record(tmp_path, 1, 5)
    one = invoke("hint", str(path), "--json", "--time-limit", "20", "--jobs", "1")
    two = invoke("hint", str(path), "--json", "--time-limit", "20", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a.keys() == b.keys() and b["verdict"] == a["verdict"] != "unknown"
    # solve: the same shape; stats.nodes counts both workers' positions
    solved = invoke("solve", "--deal", str(path), "--json", "--time-limit", "20", "--jobs", "2")
    assert solved.exit_code == 0, solved.output
    data = json.loads(solved.stdout)
    assert data["at_turn"] == played + 1 and data["verdict"] == b["verdict"]
    stats = data["stats"]
    assert stats["workers"] == 2 and stats["nodes"] >= stats["start_nodes"] > 0
    assert stats["start_nodes"] >= stats["answer_nodes"] > 0
    # analyze: every turn start raced, the same values as one process gives
    small = _record(tmp_path, [(1, [(7, "A1"), (2, "D1")])])
    values = [
        json.loads(invoke("analyze", str(small), "--json", "--jobs", j).stdout)["values"]
        for j in ("1", "2")
    ]
    assert values[0] == values[1] and len(values[0]) == 2


def test_bad_jobs_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _played = _policy_record(tmp_path, 1, 5)
    for args in (["hint", str(path), "--jobs", "0"], ["analyze", str(path), "--jobs", "x"],
                 ["solve", "--deal", str(path), "--jobs", "-1"]):  # fmt: skip
        code, out, err = run_main(capsys, *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and "--jobs" in err, err
    # The team game's hint searches in one process: --jobs 2 is refused, not ignored.
    classic = tmp_path / "classic.json"
    classic.write_text(Record(Deal.from_seed(1, get_rules("classic"))).to_json())
    result = invoke("hint", str(classic), "--jobs", "2")
    assert result.exit_code == 2 and "--jobs" in result.output
    assert len(result.output.strip().splitlines()) == 1


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (from /proc)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
                pids.append(int(entry))
    return pids


def test_ctrl_c_stops_the_race_and_its_workers(tmp_path: Path) -> None:
    # 20 turns from the end the race runs for minutes; a Ctrl-C: exit 130,
    # no answer, and neither worker left running.
    path, _played = _policy_record(tmp_path, 1, 20)
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = ["hint", str(path), "--time-limit", "120", "--jobs", "2", "--json"]
    proc = subprocess.Popen([sys.executable, "-m", "thegame.cli.main", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=env)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(_group(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(_group(proc.pid)) >= 3, "the command and its two workers"
        time.sleep(2.0)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert err.strip().splitlines()[-1].startswith("interrupted") and out == ""
        gone = time.monotonic() + 10
        while _group(proc.pid) and time.monotonic() < gone:
            time.sleep(0.2)
        assert _group(proc.pid) == [], "no worker outlives the command"
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_finished_line_replays(tmp_path: Path) -> None:
    # The record --save writes after a raced solve replays to the proven winner.
    path, _played = _policy_record(tmp_path, 2, 4)
    rec = tmp_path / "line.json"
    result = invoke("solve", "--deal", str(path), "--json", "--time-limit", "20", "--jobs", "2",
                    "--save", str(rec))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    final = replay(Record.from_json(rec.read_text()))
    assert data["verdict"] != "unknown" and final.state.winner == data["winner"]
