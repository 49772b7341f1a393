"""The options every command shares: one name, one type, one help text;
budgets that are not finite positive numbers are refused before any work,
and a node budget is honoured by every engine."""

from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path
from typing import Any

import click
import pytest

from tests.support.cli import run_main
from thegame.cli.main import cli
from thegame.models import InvalidInputError, Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.portfolio import solve_with

# The commands of The Game family and of The Mind (the other games' groups
# are checked by their own tests).
GROUPS = ("mind",)
OTHER_GAMES = ("nimmt", "cento", "survey")


def commands() -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name, cmd in cli.commands.items():
        if name in OTHER_GAMES:
            continue
        if isinstance(cmd, click.Group):
            found += [(f"{name} {sub}", c) for sub, c in cmd.commands.items()]
        else:
            found.append((name, cmd))
    return found


@pytest.mark.parametrize(("name", "command"), commands(), ids=[n for n, _ in commands()])
def test_every_option_has_help_and_lists_its_choices(name: str, command: click.Command) -> None:
    ctx = click.Context(command, info_name=name)
    for param in command.params:
        if not isinstance(param, click.Option) or param.hidden:
            continue
        record = param.get_help_record(ctx)
        assert record is not None and record[1].strip(), f"{name} {param.opts[0]} has no help"
        if isinstance(param.type, click.Choice):
            assert "|".join(map(str, param.type.choices)) in record[0]


def test_the_variant_help_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "solve", "--help")
    assert code == 0
    assert "--variant [classic|profi|profi-hard|on-fire|extreme|face-to-face]" in out


def test_the_top_level_help_says_where_the_documentation_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_main(capsys, "--help")
    assert code == 0
    assert "docs/" in out and "mkdocs build" in out


BAD_SECONDS = ("nan", "inf", "-inf", "0", "-1", "1e400", "soon")


@pytest.mark.parametrize("value", BAD_SECONDS)
@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--seed", "1", "--time-limit"),
        ("explain", "--seed", "1", "--time-limit"),
        ("solve-batch", "--seeds", "1-2", "--time-limit"),
        ("hint", "tests/data/puzzles/classic-12.json", "--time-limit"),
        ("analyze", "tests/data/puzzles/classic-12.json", "--time-limit"),
        ("play", "--seed", "1", "--hint-time"),
    ],
    ids=["solve", "explain", "solve-batch", "hint", "analyze", "play"],
)
def test_a_budget_that_is_not_a_finite_positive_number_is_refused(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], value: str
) -> None:
    code, out, err = run_main(capsys, *args, value)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "finite number of seconds above 0" in err or "not a number" in err


def test_a_node_budget_stops_the_default_engine(capsys: pytest.CaptureFixture[str]) -> None:
    # CP-SAT counts no nodes: under 'auto' a node budget is the search's alone.
    start = time.monotonic()
    code, out, _ = run_main(capsys, "solve", "--seed", "1", "--node-limit", "1000", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["engine"] == "dfs" and data["stats"]["nodes"] <= 1000
    assert time.monotonic() - start < 10


def test_a_node_budget_ends_the_portfolio_without_a_time_budget() -> None:
    deal = Deal.from_seed(1, get_rules("classic"))
    start = time.monotonic()
    sol = solve_with(deal, "auto", Limit(None, 1000))
    assert sol.nodes <= 1000 and time.monotonic() - start < 10


@pytest.mark.parametrize(
    "kwargs",
    [{"time": math.nan}, {"time": -1}, {"time": math.inf}, {"time": 1e10}, {"nodes": 2**63},
     {"nodes": 2**64}, {"nodes": -1}, {"memory": 0}, {"memory": 1 << 20}, {"time": "5"}],
)  # fmt: skip
def test_a_budget_out_of_range_is_refused_by_the_library(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError) as e:
        Limit(**kwargs)
    assert isinstance(e.value, ValueError) and "Limit." in str(e.value)


def test_the_largest_node_budget_runs() -> None:
    import thegame

    deal = thegame.Deal.from_seed(1)
    with pytest.raises(ValueError):
        thegame.solve(deal, thegame.Limit(nodes=2**64))
    sol = thegame.solve(deal, thegame.Limit(time=0.5, nodes=2**63 - 1))
    assert sol.verdict in ("win", "loss", "unknown") and sol.nodes > 0


def test_cpsat_refuses_a_node_budget_it_cannot_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "solve", "--seed", "1", "--engine", "cpsat", "--node-limit", "100"
    )
    assert code == 2 and out == "" and "CP-SAT counts no search nodes" in err
    with pytest.raises(InvalidInputError):
        solve_with(Deal.from_seed(1, get_rules("classic")), "cpsat", Limit(5, 100))


def test_save_to_a_folder_fails_at_once_naming_the_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    start = time.monotonic()
    # Seed 108 of profi-hard is not decided within minutes: only a check
    # before the search makes this quick.
    args = ("--seed", "108", "--variant", "profi-hard", "--engine", "dfs", "--time-limit", "60")
    code, out, err = run_main(capsys, "solve", *args, "--save", str(folder))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{folder}: is a directory" in err
    assert time.monotonic() - start < 10
    missing = tmp_path / "no" / "such" / "file.json"
    code, _, err = run_main(capsys, "solve", *args, "--save", str(missing))
    assert code == 2 and str(missing) in err and "no folder" in err


def test_analyze_takes_its_sampling_seed_as_sample_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    puzzle = "tests/data/puzzles/classic-12.json"
    args = ("analyze", puzzle, "--json", "--samples", "4", "--no-hindsight", "--view", "hidden")
    runs = [json.loads(run_main(capsys, *args, "--sample-seed", s)[1]) for s in ("1", "1")]
    for run in runs:
        run.pop("stats")  # seconds differ from run to run
    assert runs[0] == runs[1] and runs[0]["samples"] == 4
    code, _, err = run_main(capsys, *args, "--seed", "1")
    assert code == 2 and "--seed" in err  # --seed is a deal's seed, never a sampling seed


# -- pictures: marks, the win-chance curve, colour ---------------------------------------


def test_solve_marks_fire_cards_in_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "solve", "--seed", "2", "--variant", "on-fire",
                            "--time-limit", "20")  # fmt: skip
    assert code == 0
    rows = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert any("22* A1" in row or "33* A1" in row for row in rows)
    assert "* fire card (rule F1)" in out


def test_analyze_draws_the_fair_win_chance_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console

    from thegame.analysis.the_game.annotate import annotate_record
    from thegame.cli.the_game.analyze import BLOCKS, win_chart
    from thegame.cli.the_game.options import load_record

    puzzle = "tests/data/puzzles/classic-12.json"
    # Not a terminal: the figures as plain text, each turn start named. A
    # puzzle is played in full view: ``--view hidden`` asks for the fair review.
    code, out, _ = run_main(
        capsys, "analyze", puzzle, "--samples", "4", "--no-hindsight", "--view", "hidden"
    )
    assert code == 0
    text = " ".join(out.split())
    assert "fair win chance at each turn start" in text
    # One figure for the start of each of the 32 turns the file holds.
    assert len(re.findall(r"turn \d+ \d+%", text)) == 32
    review = annotate_record(load_record(puzzle), 4, 0, Limit(1), full_view=False)
    console = Console(record=True, width=160, force_terminal=True)
    chart = win_chart(review, terminal=True)
    assert chart is not None
    console.print(chart)
    drawn = console.export_text()
    assert "fair win chance (estimate)" in drawn and "100% |" in drawn
    assert any(block in drawn for block in BLOCKS[1:])
    assert "hindsight" in drawn  # the hindsight curve beside it


def test_play_colours_the_piles_the_room_and_marked_cards() -> None:
    from rich.text import Text

    from thegame.cli.the_game.play_real import card_style, piles_view, room_style

    state = GameState(Deal.from_seed(0, get_rules("on-fire")))
    assert (room_style(0), room_style(3), room_style(40)) == ("bold red", "yellow", "green")
    assert "red" in card_style(state, 44) and card_style(state, 23) == ""
    rows = [r for r in piles_view(state).renderables if isinstance(r, Text)]
    styles = {str(span.style) for row in rows for span in row.spans}
    assert {"cyan", "magenta", "green"} <= styles


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("1", "error: --deck: card 1 at position 1 is out of range 2..99"),
        ("2 3 2", "error: --deck: card 2 appears twice (positions 1 and 3)"),
    ],
)
def test_a_bad_deck_names_the_option_and_counts_positions_from_1(
    capsys: pytest.CaptureFixture[str], deck: str, message: str
) -> None:
    code, out, err = run_main(capsys, "solve", "--deck", deck)
    assert (code, out, err) == (2, "", message + "\n")


def test_solve_with_deal_goes_on_from_a_game_in_progress_as_its_help_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    played = tmp_path / "played.json"
    assert run_main(capsys, "solve", "--seed", "2", "--save", str(played))[0] == 0
    record = json.loads(played.read_text())
    record["turns"] = record["turns"][:3]
    played.write_text(json.dumps(record))
    code, out, _ = run_main(capsys, "solve", "--deal", str(played))
    assert code == 0 and "from the position after 3 turns of the record" in out
    code, out, err = run_main(capsys, "explain", "--deal", str(played))
    assert code == 2 and out == "" and "holds a game in progress" in err
    code, out, _ = run_main(capsys, "solve", "--help")
    assert "solve goes on from a game in progress" in " ".join(out.split())


@pytest.mark.parametrize("command", [["solve"], ["solve", "--deal"], ["analyze"], ["hint"]])
def test_an_illegal_record_is_named_by_its_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "ill.json"
    assert run_main(capsys, "solve", "--seed", "2", "--save", str(path))[0] == 0
    record = json.loads(path.read_text())
    record["turns"] = record["turns"][:2]
    record["turns"][1]["plays"].append({"card": 95, "pile": "D1"})  # not yet drawn
    path.write_text(json.dumps(record))
    code, out, err = run_main(capsys, *command, str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"error: {path}: illegal record: turn 2, play 3: rule C4: "
        "card 95 is not in player 1's hand\n"
    )
