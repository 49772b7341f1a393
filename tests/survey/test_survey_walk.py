"""``survey run --retry-unknown`` walks a stored best line back from its end:
a clear found from one of its turns is stored as the deal's win (the line's
earlier turns kept, the whole line replaying from the deal's start); a deal
still open says how far back the line is proven lost; ``--retry-time`` and
``--checkpoint DIR`` say how long this sitting is and where it is saved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_main
from tests.survey.test_survey_retry import stored, unknown_row
from thegame.models import Verdict
from thegame.models.the_game import Deal, GameState, get_rules, replay
from thegame.models.the_game.record import Record
from thegame.models.the_game.state import pile_name
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.api import solve
from thegame.solver.the_game.backend import kernel_of, walker
from thegame.solver.the_game.kernel import END, Action
from thegame.solver.the_game.optimum import finish_greedily
from thegame.survey.retry import checkpoint_of
from thegame.survey.store import Store
from thegame.survey.work import line_turns

pytestmark = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")


def text_of(deal: Deal, first: int, actions: list[Action]) -> str:
    """A line of actions as the survey stores it (``player:card pile,...;``)."""
    state = GameState(deal, first=first)
    turns: list[str] = []
    plays: list[str] = []
    for a in actions:
        if a == END:
            turns.append(f"{state.current + 1}:" + ",".join(plays))
            plays = []
            if not state.over:
                state.end_turn()
        else:
            plays.append(f"{a[0]} {pile_name(deal.rules, a[1])}")
            state.play(*a)
    return ";".join(turns)


def losing_line(deal: Deal, first: int, keep: list[Action]) -> tuple[list[Action], int]:
    """``keep`` (whole turns), then the greedy finish: the line and its cards left."""
    bk = walker(kernel_of(GameState(deal, first=first)))
    for a in keep:
        bk.end_turn() if a == END else bk.play(*a)
    line = keep + finish_greedily(bk)
    return line, bk.unplayed.bit_count()


def store_unknown(db: Path, variant: str, seed: int, first: int, line: str, left: int) -> None:
    row: dict[str, Any] = unknown_row(variant, 1, seed)
    row.update(first=first, line=line, cards_left=left)
    store = Store(db)
    store.put_deal(row)
    store.close()


def test_a_clear_from_a_turn_of_the_stored_line_is_stored_and_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(3, get_rules("classic"), 1)
    won = solve(deal)
    assert won.verdict is Verdict.WIN
    actions = [a for t in won.turns for a in [*((p.card, p.pile) for p in t.plays), END]]
    ends = [i for i, a in enumerate(actions) if a == END]
    keep = actions[: ends[len(ends) // 2] + 1]  # the first half of a clear
    line, left = losing_line(deal, won.first, keep)
    assert left > 0  # the greedy finish goes wrong after it
    db = tmp_path / "w.sqlite"
    store_unknown(db, "classic", 3, won.first, text_of(deal, won.first, line), left)
    code, _, err = run_main(
        capsys, "survey", "run", "--seeds", "3-3", "--time-limit", "60", "--retry-unknown",
        "--db", str(db), "--jobs", "1",
    )  # fmt: skip
    assert code == 0, err
    assert "seed 3: win" in err and "stored" in err
    (row,) = stored(db)
    assert row["verdict"] == "win" and row["cards_left"] == 0
    turns = line_turns(deal.rules, row["line"])
    assert replay(Record(deal.with_first(row["first"]), turns)).status == "won"
    kept = line_turns(deal.rules, text_of(deal, won.first, keep))
    assert turns[: len(kept)] == kept  # the walk left the line after the kept half


def test_an_open_deal_says_how_far_its_line_is_proven_lost(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(108, get_rules("profi-hard"), 1)
    line, left = losing_line(deal, 1, [])
    db = tmp_path / "o.sqlite"
    store_unknown(db, "profi-hard", 108, 1, text_of(deal, 1, line), left)
    folder = tmp_path / "saved"
    argv = ["survey", "run", "--variant", "profi-hard", "--seeds", "108-108",
            "--time-limit", "3600", "--retry-time", "3", "--retry-unknown", "--db", str(db),
            "--jobs", "1", "--checkpoint", str(folder)]  # fmt: skip
    code, _, err = run_main(capsys, *argv)
    assert code == 0, err
    assert "seed 108: still unknown" in err
    turns = line.count(END)
    assert f"stored line ({turns} turns) proven lost from turn " in err
    reach = int(err.split("proven lost from turn ")[1].split(")")[0])
    assert 1 < reach <= turns + 1
    assert checkpoint_of(folder, "profi-hard", 1, 108).exists()
    assert not Path(f"{db}.split").exists()
    (row,) = stored(db)
    assert row["verdict"] == "unknown" and row["time_limit"] == 1.0  # untouched
    path = checkpoint_of(folder, "profi-hard", 1, 108)
    first = json.loads(path.read_text())
    code, _, err = run_main(capsys, *argv)  # the next sitting goes on: it reaches no less
    again = int(err.split("proven lost from turn ")[1].split(")")[0])
    assert code == 0 and again <= reach
    second = json.loads(path.read_text())
    assert second["runs"] == 2 and second["nodes"] > first["nodes"]
    # what the first sitting proved is kept, not searched again
    assert {tuple(k) for k in first["dead"]} <= {tuple(k) for k in second["dead"]}
    assert second["line"] == first["line"]


def test_the_sitting_options_go_with_a_retry(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:  # fmt: skip
    code, out, err = run_main(
        capsys, "survey", "run", "--seeds", "1-2", "--retry-time", "5",
        "--db", str(tmp_path / "x.sqlite"),
    )  # fmt: skip
    assert code == 2 and out == ""
    assert "--retry-time and --checkpoint go with --retry-unknown" in err
    assert not (tmp_path / "x.sqlite").exists()
