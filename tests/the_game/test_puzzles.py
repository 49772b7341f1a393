"""Daily puzzles, generated puzzles, the rating and interactive play."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support import DATA as TEST_DATA
from thegame.cli.main import cli
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Record, get_rules, pile_name, replay
from thegame.puzzles.dates import parse_date
from thegame.puzzles.the_game.daily import daily_plan, daily_variant
from thegame.puzzles.the_game.files import Puzzle, PuzzleError
from thegame.puzzles.the_game.make import candidates, make_puzzle, puzzle_deal
from thegame.puzzles.the_game.opening import opening, policy_depth
from thegame.puzzles.the_game.rating import Oracle, label_for, options, rate, score_for

DATA = TEST_DATA / "puzzles"
PUZZLE = DATA / "classic-12.json"  # seed 12, 22 cards left
DATE = "2025-01-06"  # a Monday: classic


@pytest.fixture(scope="module")
def daily_json() -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["daily", "--date", DATE, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def _check_won(tmp_path: Path, data: dict[str, Any]) -> None:
    """deal + position + solution is a record that ``thegame check`` calls won."""
    record = {"deal": data["deal"], "turns": data["position"] + data["turns"]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "legal": True,
        "status": "won",
        "cards_left": 0,
        "reason": "all cards played: a perfect clear (rule C7)",
        "error": None,
    }


# -- the frozen parts ------------------------------------------------------------


def test_opening_policy_is_frozen() -> None:
    # Pinned: changing the policy would change every published daily puzzle.
    state = GameState(Deal.from_seed(1, get_rules("classic"), 1, 1))
    turns = opening(state, 3)
    rules = state.rules
    got = [[(p.card, pile_name(rules, p.pile)) for p in t.plays] for t in turns]
    assert got == PINNED_OPENING


PINNED_OPENING = [[(4, "A1"), (7, "A1")], [(8, "A1"), (94, "D1")], [(3, "A2"), (86, "D1")]]


def test_daily_plan_is_pinned() -> None:
    day = dt.date(2025, 1, 6)
    variant, seeds = daily_plan(day)
    assert variant == "classic"
    assert [next(seeds) for _ in range(3)] == PINNED_SEEDS
    assert daily_variant(dt.date(2025, 1, 11)) == "profi"  # Saturday
    assert daily_variant(dt.date(2025, 1, 12)) == "on-fire"  # Sunday


PINNED_SEEDS = [696062567722483, 8338261474446703, 3662632937155807]


def test_daily_same_in_process(daily_json: dict[str, Any]) -> None:
    again = CliRunner().invoke(cli, ["daily", "--date", DATE, "--json"])
    assert json.loads(again.output) == daily_json
    assert daily_json["date"] == DATE
    assert daily_json["variant"] == "classic"
    assert daily_json["seed"] == PINNED_DAILY_SEED
    assert daily_json["cards_left"] == PINNED_DAILY_CARDS
    assert daily_json["difficulty"]["label"] in ("easy", "medium", "hard", "expert")
    assert 0 <= daily_json["difficulty"]["score"] <= 100


PINNED_DAILY_SEED = 8338261474446703  # the first seed was rejected
PINNED_DAILY_CARDS = 27


def test_daily_same_across_processes(daily_json: dict[str, Any]) -> None:
    code = "from thegame.cli.main import main; main()"
    outputs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", code, "daily", "--date", DATE, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        outputs.append(json.loads(proc.stdout))
    assert outputs[0] == outputs[1] == daily_json


def test_daily_record_checks_as_won(daily_json: dict[str, Any], tmp_path: Path) -> None:
    _check_won(tmp_path, daily_json)
    puzzle = Puzzle.from_dict(daily_json)
    assert puzzle.start().cards_left() == daily_json["cards_left"]


def test_daily_text_output() -> None:
    result = CliRunner().invoke(cli, ["daily", "--date", DATE, "--solution"])
    assert result.exit_code == 0, result.output
    assert f"daily puzzle {DATE}" in result.output
    assert "difficulty:" in result.output
    assert "solution:" in result.output


@pytest.mark.parametrize("bad", ["2025-13-01", "yesterday", "2025-1-6", "2025-02-30"])
def test_daily_bad_date(bad: str) -> None:
    result = CliRunner().invoke(cli, ["daily", "--date", bad])
    assert result.exit_code == 2
    assert result.output.startswith("error: --date:")
    assert len(result.output.strip().splitlines()) == 1


def test_parse_date() -> None:
    assert parse_date("2024-02-29") == dt.date(2024, 2, 29)
    with pytest.raises(ValueError):
        parse_date("2023-02-29")


# -- puzzles and files -------------------------------------------------------------


def test_stored_puzzle_replays_to_a_win(tmp_path: Path) -> None:
    data = json.loads(PUZZLE.read_text())
    puzzle = Puzzle.from_dict(data)
    puzzle.verify()
    assert puzzle.record().to_dict()["turns"] == data["position"] + data["turns"]
    _check_won(tmp_path, data)


def without_effort(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as JSON minus what depends on the solver's version: the
    search effort (nodes) and the score and label it feeds."""
    data = puzzle.to_dict()
    data["difficulty"] = {
        k: v for k, v in data["difficulty"].items() if k not in ("nodes", "score", "label")
    }
    return data


def test_make_puzzle_is_deterministic_and_verified() -> None:
    a = make_puzzle(12, get_rules("classic"), 12, 24)
    b = make_puzzle(12, get_rules("classic"), 12, 24)
    assert a is not None and b is not None
    assert a.to_dict() == b.to_dict()
    # The stored file was made by an earlier solver: everything but the
    # effort term is a fact about the deal and must not move.
    assert without_effort(a) == without_effort(Puzzle.from_json(PUZZLE.read_text()))
    assert replay(a.record()).status == Status.WON


def test_candidates_are_policy_positions() -> None:
    deal = puzzle_deal(12, get_rules("classic"))
    path = candidates(deal, 12, 36)
    assert path
    for state, turns in path:
        assert 12 <= state.cards_left() <= 36
        assert replay(Record(deal, tuple(turns))).state.key() == state.key()


def test_generate_writes_verified_files(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    args = ["generate", "--count", "2", "--variant", "classic", "--out", str(out_dir)]
    args += ["--seed-start", "12", "--cards-left", "12-24", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    files = sorted(out_dir.iterdir())
    assert len(lines) == 2
    assert len(files) == 2  # no temporary files left behind
    for data in lines:
        name = f"classic-{data['seed']}-{data['difficulty']['label']}.json"
        assert json.loads((out_dir / name).read_text()) == data
        assert data["date"] is None
        _check_won(tmp_path, data)


def test_generate_filters_by_label(tmp_path: Path) -> None:
    args = ["generate", "--count", "1", "--difficulty", "easy", "--out", str(tmp_path)]
    args += ["--seed-start", "12", "--cards-left", "12-24", "--max-seeds", "3"]
    result = CliRunner().invoke(cli, args)
    files = list(tmp_path.iterdir())
    # exit 1 when the 3 seeds held no easy puzzle (then nothing is written)
    assert result.exit_code == (0 if files else 1), result.output
    for f in files:
        assert json.loads(f.read_text())["difficulty"]["label"] == "easy"


def test_generate_that_finds_fewer_than_asked_exits_1(tmp_path: Path) -> None:
    args = ["generate", "--count", "3", "--out", str(tmp_path)]
    args += ["--seed-start", "12", "--cards", "12-24", "--max-seeds", "2"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert "raise --max-seeds" in result.output
    assert len(list(tmp_path.iterdir())) <= 2  # what was found is kept


def test_puzzle_files_before_the_rename_still_load() -> None:
    # Until 0.2 the solution was stored as "solution"; both names read the same.
    data = json.loads(PUZZLE.read_text())
    old = {("solution" if k == "turns" else k): v for k, v in data.items()}
    assert Puzzle.from_dict(old) == Puzzle.from_dict(data)
    with pytest.raises(PuzzleError, match="once"):
        Puzzle.from_dict({**data, "solution": data["turns"]})


def test_tampered_puzzle_is_an_error(tmp_path: Path) -> None:
    data = json.loads(PUZZLE.read_text())
    data["turns"] = data["turns"][:-1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PuzzleError):
        Puzzle.from_dict(data)
    result = CliRunner().invoke(cli, ["play", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert "not won" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "No such file"), ("{", "malformed JSON"), ('{"deal": 3}', "deal")],
)
def test_play_bad_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "p.json"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(cli, ["play", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_play_needs_one_source() -> None:
    for args in (["play"], ["play", str(PUZZLE), "--daily"], ["play", str(PUZZLE), "--date", DATE]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2
        assert result.output.startswith("error: ")


# -- the rating -------------------------------------------------------------------

# Small deals (rule C10): cards 2..20, one pile each way, hands of 3. EASY
# is made by hand so that the cards come in the order the piles want them;
# HARD is the small seed with the most traps among seeds 1-150.
SMALL = "classic 1p first=1 high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
EASY = SMALL + " : 2 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"
HARD = SMALL + " : 12 16 18 19 10 5 6 17 7 14 11 13 3 20 2 8 4 15 9"  # small seed 49


def test_rating_orders_easy_and_hard() -> None:
    easy = rate(GameState(Deal.from_text(EASY)))
    hard = rate(GameState(Deal.from_text(HARD)))
    assert easy is not None and hard is not None
    assert easy.score < hard.score
    assert LABELS_ORDER.index(easy.label) < LABELS_ORDER.index(hard.label)
    assert easy.bits < hard.bits
    assert len(easy.traps) <= len(hard.traps)


LABELS_ORDER = ["easy", "medium", "hard", "expert"]


def test_rating_line_wins_and_counts_are_consistent() -> None:
    state = GameState(Deal.from_text(HARD))
    oracle = Oracle()
    rating = rate(state, oracle)
    assert rating is not None
    s = state.copy()
    for action, (n, w) in zip(rating.line, rating.options, strict=True):
        opts = options(s)
        assert len(opts) == n
        assert sum(1 for _, c in opts if oracle.wins(c)) == w
        if action == (-1, -1):
            s.end_turn()
        else:
            s.play(*action)
    assert s.status == Status.WON


def test_score_and_labels() -> None:
    assert score_for(0, 0, 0, 0) == 0
    assert score_for(10, 2, 10, 1000) < score_for(40, 5, 40, 10_000) <= 100
    assert [label_for(x) for x in (0, 24, 25, 44, 45, 64, 65, 100)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
        "expert",
        "expert",
    ]


def test_policy_depth_counts_cards() -> None:
    state = GameState(Deal.from_text(EASY))
    assert policy_depth(state) == state.cards_left()  # the policy clears it


# -- interactive play ----------------------------------------------------------------


def _script(puzzle: Puzzle) -> list[str]:
    rules = puzzle.deal.rules
    lines = []
    for turn in puzzle.solution:
        lines += [f"{p.card} {pile_name(rules, p.pile)}" for p in turn.plays]
        lines.append("end")
    return lines


def _play(args: list[str], lines: list[str]) -> Any:
    return CliRunner().invoke(cli, ["play", *args], input="\n".join(lines) + "\n")


def test_play_winning_script_with_illegal_input_undo_and_hint() -> None:
    puzzle = Puzzle.from_json(PUZZLE.read_text())
    state = puzzle.start()
    script = _script(puzzle)
    hand = state.hand()
    missing = next(c for c in range(2, 100) if c not in hand and c not in state.draw_pile())
    # An illegal play by rule C5: the lowest hand card on a descending pile
    # below it is impossible only if ... pick one the engine refuses.
    refused = next(
        f"{c} {pile_name(state.rules, p)}"
        for c in hand
        for p in range(state.rules.n_piles)
        if not state.is_legal(c, p)
    )
    first_play = script[0]
    lines = [
        f"{missing} A1",  # not in hand
        refused,  # against rule C5
        "37 X9" if 37 in hand else f"{hand[0]} X9",  # unknown pile
        "end",  # too few cards this turn
        "bogus",
        first_play,
        "undo",
        "undo",  # nothing left to undo
        "hint",
        *script,
    ]
    result = _play([str(PUZZLE), "--analysis-time", "0.5"], lines)
    assert result.exit_code == 0, result.output
    text = result.output
    assert f"invalid: {missing} is not in your hand" in text
    assert "illegal: rule C5" in text
    assert "unknown pile" in text
    assert "illegal: rule C4: a turn needs at least 2 cards" in text
    assert "invalid: unknown command 'bogus'" in text
    assert "took back" in text
    assert "nothing to undo" in text
    assert "hint: " in text
    assert "won: a perfect clear!" in text
    assert "Hindsight analysis" in text
    assert "every action kept the best result reachable" in text


def test_play_undo_across_turns_and_quit() -> None:
    puzzle = Puzzle.from_json(PUZZLE.read_text())
    script = _script(puzzle)
    end = script.index("end")
    first_turn = script[: end + 1]
    lines = [*first_turn, "undo", "undo", "undo", *first_turn, "quit"]
    result = _play([str(PUZZLE)], lines)
    assert result.exit_code == 0, result.output
    assert "took back the end of the turn" in result.output
    assert result.output.count("turn ended") == 2
    assert "quit with" in result.output
    # One turn completed: the analysis of the player's part is shown.
    assert "Hindsight analysis" in result.output


def test_play_quit_at_once_and_end_of_input() -> None:
    puzzle = Puzzle.from_json(PUZZLE.read_text())
    cards = puzzle.start().cards_left()
    for lines in (["quit"], []):
        result = _play([str(PUZZLE)], lines)
        assert result.exit_code == 0, result.output
        assert f"quit with {cards} cards left" in result.output
        assert "nothing to analyse" in result.output


def test_play_solve_command() -> None:
    result = _play([str(PUZZLE)], ["solve", "quit"])
    assert result.exit_code == 0, result.output
    assert "a perfect clear from here:" in result.output
