"""Face to Face through the CLI: ``solve`` (JSON, budgets, --deck, --deal,
--record), ``analyze``, ``hint`` and ``play`` on duel records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from thegame.cli.main import cli
from thegame.models import InvalidInputError, Limit
from thegame.models.the_game import Deal, Record, Turn, get_rules, pile_index, replay
from thegame.models.the_game.state import Play
from thegame.solver.the_game.backend import own_engine
from thegame.solver.the_game.duel.api import DuelSearchEngine, DuelSolution, solve_duel
from thegame.solver.the_game.portfolio import solve_game

RULES9 = get_rules("face-to-face").with_changes(high=9, hand_sizes=(6, 6))


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def deal_file(tmp_path: Path, first: int | None = 1) -> Path:
    deck = list(range(2, 10))
    path = tmp_path / "duel.json"
    path.write_text(Deal.create(RULES9, 2, [deck, deck], first).to_json())
    return path


def test_solve_duel_json_and_record(tmp_path: Path) -> None:
    rec = tmp_path / "line.json"
    result = invoke("solve", "--deal", str(deal_file(tmp_path)), "--json", "--save", str(rec))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variant"] == "face-to-face" and data["first"] == 1
    assert data["winner"] == 1 and data["verdict"] == "win"
    assert data["proof"] and "search" in data["proof"] and "refuted" in data["proof"]
    assert data["stats"]["nodes"] >= 1 and data["stats"]["seconds"] >= 0
    assert [r["player"] for r in data["race"]] == [1, 2]
    # The record written is the principal line, and check says player 1 won.
    record = Record.from_json(rec.read_text())
    assert replay(record).winner == 1
    checked = invoke("check", str(rec), "--json")
    assert json.loads(checked.stdout)["winner"] == 1


def test_the_duel_is_solved_by_its_registered_engine() -> None:
    """``solve`` takes every game one way (``portfolio.solve_game``): the
    duel's kind of turn has its own engine in the backend registry, behind
    the ``Engine`` protocol, and the kernel's kinds have none."""
    deal = Deal.create(RULES9, 2, [list(range(2, 10))] * 2, 1)
    engine = own_engine(deal.rules)
    assert isinstance(engine, DuelSearchEngine) and engine.covers(deal)
    assert own_engine(get_rules("classic")) is None
    assert not engine.covers(Deal.from_seed(1, get_rules("classic")))
    via_path = solve_game(Record(deal), "dfs", Limit(nodes=100_000))
    direct = solve_duel(deal, Limit(nodes=100_000))
    assert isinstance(via_path, DuelSolution)
    both = [via_path.to_dict(), direct.to_dict()]
    for d in both:
        del d["stats"], d["race"]  # times
    assert both[0] == both[1]
    assert via_path.results[0].winner == 1
    with pytest.raises(InvalidInputError, match="duel search"):
        solve_game(Record(deal), "cpsat", Limit(nodes=100))


def test_solve_duel_each_start_when_free(tmp_path: Path) -> None:
    result = invoke("solve", "--deal", str(deal_file(tmp_path, None)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["first"] is None
    assert [(s["first"], s["winner"]) for s in data["starts"]] == [(1, 1), (2, 2)]


def test_solve_duel_unknown_when_the_budget_runs_out() -> None:
    result = invoke(
        "solve", "--variant", "face-to-face", "--seed", "4", "--first", "1",
        "--node-limit", "30", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown" and data["winner"] is None
    assert data["turns"] == [] and data["proof"] is None


def test_solve_duel_by_deck_and_text_output() -> None:
    # --deck takes both decks of the printed game, separated by '/'.
    d1 = " ".join(map(str, range(2, 60)))
    d2 = " ".join(map(str, range(59, 1, -1)))
    result = invoke(
        "solve", "--variant", "face-to-face", "--deck", f"{d1} / {d2}", "--first", "1",
        "--node-limit", "200",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "player 1 starts" in result.output
    assert "player 1 alone" in result.output


def test_solve_duel_bad_input_is_one_line() -> None:
    result = invoke("solve", "--variant", "face-to-face", "--deck", "2 3 4 / 5 6")
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1


def _record(tmp_path: Path, turns: list[tuple[int, list[tuple[int, str]]]]) -> Path:
    deck = list(range(2, 10))
    deal = Deal.create(RULES9, 2, [deck, deck], 1)
    ts = tuple(
        Turn(p, tuple(Play(c, pile_index(RULES9, name)) for c, name in plays)) for p, plays in turns
    )
    path = tmp_path / "game.json"
    path.write_text(Record(deal, ts).to_json())
    return path


def test_analyze_duel_names_the_turn_that_threw_the_win_away(tmp_path: Path) -> None:
    # Player 1 could lay 2..7 now and 8, 9 next turn (a forced win). Laying
    # 7 on the ascending and 2 on the descending pile instead leaves 3..6
    # dead on both piles: player 1 can never play them alone, while player 2
    # plays 2..7 now and 8, 9 next turn and wins first.
    path = _record(tmp_path, [(1, [(7, "A1"), (2, "D1")])])
    result = invoke("analyze", str(path), "--json", "--time-limit", "10")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["values"] == [
        {"turn": 1, "player": 1, "verdict": "win"},
        {"turn": 2, "player": 2, "verdict": "win"},
    ]
    m = data["first_mistake"]
    assert m["turn"] == 1 and m["player"] == 1 and m["proven"]
    assert m["played"]["plays"] == [{"card": 7, "pile": "A1"}, {"card": 2, "pile": "D1"}]
    assert m["better"]["player"] == 1 and m["turns"][-1]["player"] == 1
    # The judged turn: a proven win thrown into a proven loss is ``??``,
    # with the engine's (winning) turn as the better one.
    (judged,) = data["review"]
    assert judged["turn"] == 1 and judged["player"] == 1 and judged["mark"] == "??"
    assert judged["proven_before"] and judged["proven_after"]
    assert judged["win_chance_before"] == 1.0 and judged["win_chance_after"] == 0.0
    assert judged["better"] == m["better"]
    text = invoke("analyze", str(path), "--time-limit", "10")
    assert "turn 1: player 1 went from a forced win" in text.output
    # turn starts on screen count from 1, like every other turn shown
    assert "1:P1+ 2:P2+" in " ".join(text.output.split())


def test_analyze_duel_without_a_mistake(tmp_path: Path) -> None:
    path = _record(tmp_path, [(1, [(2, "A1"), (3, "A1")])])
    data = json.loads(invoke("analyze", str(path), "--json").stdout)
    assert data["first_mistake"] is None
    # A winning turn kept the win: no mark.
    assert [(r["mark"], r["win_chance_after"]) for r in data["review"]] == [("", 1.0)]
    assert [v["verdict"] for v in data["values"]] == ["win", "loss"]


def test_hint_on_a_duel_record(tmp_path: Path) -> None:
    path = _record(tmp_path, [])
    result = invoke("hint", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "win" and data["player"] == 1 and data["turn"] == 1
    assert data["move"]["end_turn"] is True and data["move"]["plays"]
    assert data["turns"]


def test_play_a_duel_hint_and_solve_do_not_quit(tmp_path: Path) -> None:
    path = _record(tmp_path, [])
    result = invoke("play", str(path), stdin="hint\nsolve\nquit\n")
    assert result.exit_code == 0, result.output
    assert "hint: play" in result.output
    assert "with best play from here" in result.output


def _policy_record(tmp_path: Path, seed: int, keep_from_end: int) -> tuple[Path, int]:
    """A printed policy duel cut ``keep_from_end`` turns before its end."""
    from thegame.models.the_game import GameState
    from thegame.solver.the_game.duel.api import first_guess

    deal = Deal.from_seed(seed, get_rules("face-to-face"), first=1)
    state = GameState(deal)
    turns: list[Turn] = []
    while not state.over:
        plays = first_guess(state)
        assert plays is not None
        turns.append(Turn(state.current + 1, plays))
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    kept = turns[: len(turns) - keep_from_end]
    path = tmp_path / "policy.json"
    path.write_text(Record(deal, tuple(kept)).to_json())
    return path, len(kept)


def test_solve_a_duel_record_from_its_position(tmp_path: Path) -> None:
    path, played = _policy_record(tmp_path, 1, 3)
    rec = tmp_path / "line.json"
    result = invoke(
        "solve", "--deal", str(path), "--json", "--time-limit", "20", "--record", str(rec)
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["at_turn"] == played + 1 and data["verdict"] in ("win", "loss")
    # The record written is the record's turns, then the proven line.
    record = Record.from_json(rec.read_text())
    assert len(record.turns) > played
    final = replay(record)
    assert final.error is None and final.state.over and final.state.winner == data["winner"]


def test_solve_a_printed_duel_shows_the_estimate(tmp_path: Path) -> None:
    result = invoke("solve", "--variant", "face-to-face", "--seed", "6", "--first", "2",
                    "--time-limit", "2", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown" and data["winner"] is None
    est = data["estimate"]
    assert est["player"] == 2 and 0 <= est["win_chance"] <= 1 and est["turn"]["player"] == 2
    text = invoke("solve", "--variant", "face-to-face", "--seed", "6", "--first", "2",
                  "--time-limit", "2")  # fmt: skip
    assert "estimate (not a proof): player 2 wins" in " ".join(text.output.split())


def test_analyze_judges_every_duel_turn(tmp_path: Path) -> None:
    path, played = _policy_record(tmp_path, 2, 0)
    result = invoke("analyze", str(path), "--json", "--time-limit", "0.2", "--view", "full")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    review = data["review"]
    assert [r["turn"] for r in review] == list(range(1, played + 1))
    assert all(0 <= r["win_chance_before"] <= 1 and r["mark"] in ("", "?!", "?", "??")
               for r in review)  # fmt: skip
    # The last turn wins the duel: proven after it, for its player.
    assert review[-1]["proven_after"] and review[-1]["win_chance_after"] == 1.0
    marked = [r for r in review if r["mark"]]
    assert all(r["better"] is not None for r in marked)


def test_ctrl_c_stops_the_compiled_proof_search(tmp_path: Path) -> None:
    # 20 turns from the end the proof search runs for minutes; a Ctrl-C
    # stops it: exit 130, "interrupted", no answer.
    import os
    import signal
    import subprocess
    import sys
    import time

    path, _played = _policy_record(tmp_path, 1, 20)
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = ["solve", "--deal", str(path), "--time-limit", "120", "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "thegame.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    time.sleep(6.0)  # past the start-up and the races, into the search
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("interrupted") and out == ""
