"""``survey run --retry-unknown``: each stored unknown deal searched on with
the split search from a checkpoint beside the database; a retry cut by its
budget stays unknown (only a better line replaces the stored one), Ctrl-C
stores nothing, and the next run goes on from its checkpoint."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_main
from thegame.models.the_game import Deal, get_rules, replay
from thegame.models.the_game.record import Record
from thegame.solver.the_game import ckernel
from thegame.survey.retry import checkpoint_folder, checkpoint_of
from thegame.survey.store import DEAL_COLUMNS, Store
from thegame.survey.work import line_turns

pytestmark = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")


def unknown_row(variant: str, players: int, seed: int) -> dict[str, Any]:
    """A row as a run with a budget of 1 s would have left it."""
    return {
        "variant": variant, "players": players, "seed": seed, "verdict": "unknown",
        "first": 1, "cards_left": 9, "cards_left_proven": 0, "lower_bound": 0,
        "proof_kind": None, "proof": None, "line": "", "nodes": 1234, "seconds": 1.0,
        "time_limit": 1.0, "version": "0",
    }  # fmt: skip


def stored(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    cur = con.execute(f"SELECT {', '.join(DEAL_COLUMNS)} FROM deals ORDER BY seed")
    out = [dict(zip(DEAL_COLUMNS, r, strict=True)) for r in cur]
    con.close()
    return out


def retry(capsys: pytest.CaptureFixture[str], db: Path, variant: str, players: int,
          seed: int, seconds: float) -> tuple[int, str]:  # fmt: skip
    code, _, err = run_main(
        capsys, "survey", "run", "--variant", variant, "--players", str(players),
        "--seeds", f"{seed}-{seed}", "--time-limit", str(seconds), "--retry-unknown",
        "--db", str(db), "--jobs", "1",
    )  # fmt: skip
    return code, err


def test_a_retry_cut_by_its_budget_stays_unknown_and_the_next_run_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "r.sqlite"
    store = Store(db)
    store.put_deal(unknown_row("profi-hard", 1, 108))  # undecided in minutes
    store.close()
    code, err = retry(capsys, db, "profi-hard", 1, 108, 2)
    assert code == 0, err
    assert "seed 108: still unknown" in err and "its better line stored" in err
    (row,) = stored(db)
    # still unknown with the old budget (the next run retries it), and the
    # stored best is now the retry's line, which replays to what it says
    assert row["verdict"] == "unknown" and row["time_limit"] == 1.0
    assert row["cards_left"] < 9 and row["proof_kind"] is None
    deal = Deal.from_seed(108, get_rules("profi-hard"), 1)
    final = replay(Record(deal.with_first(row["first"]), line_turns(deal.rules, row["line"])))
    assert final.cards_left == row["cards_left"]
    path = checkpoint_of(checkpoint_folder(str(db)), "profi-hard", 1, 108)
    first = json.loads(path.read_text())
    assert first["runs"] == 1 and first["nodes"] > 0
    code, err = retry(capsys, db, "profi-hard", 1, 108, 2)
    assert code == 0, err
    again = json.loads(path.read_text())
    assert again["runs"] == 2 and again["nodes"] > first["nodes"]  # it went on
    (later,) = stored(db)
    assert later["verdict"] == "unknown" and later["cards_left"] <= row["cards_left"]


def test_ctrl_c_in_a_retry_stores_nothing_and_keeps_the_checkpoint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "c.sqlite"
    store = Store(db)
    store.put_deal(unknown_row("profi-hard", 1, 108))
    store.close()
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        code, err = retry(capsys, db, "profi-hard", 1, 108, 60)
    finally:
        timer.cancel()
    assert code == 130, err
    assert "interrupted: 0 deals stored" in err
    assert stored(db) == [unknown_row("profi-hard", 1, 108)]
    path = checkpoint_of(checkpoint_folder(str(db)), "profi-hard", 1, 108)
    saved = json.loads(path.read_text())
    assert saved["runs"] == 1 and saved["stack"] and saved["won"] is None


def test_a_decided_retry_stores_the_verdict_and_drops_its_checkpoint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "d.sqlite"
    store = Store(db)
    store.put_deal(unknown_row("profi-hard", 3, 5))  # won by the split search in a second
    store.close()
    code, err = retry(capsys, db, "profi-hard", 3, 5, 60)
    assert code == 0, err
    (row,) = stored(db)
    assert row["verdict"] == "win" and row["cards_left"] == 0 and row["time_limit"] == 60
    assert row["proof_kind"] == "line" and row["nodes"] > 0
    deal = Deal.from_seed(5, get_rules("profi-hard"), 3)
    line = line_turns(deal.rules, row["line"])
    assert replay(Record(deal.with_first(row["first"]), line)).status == "won"
    assert not checkpoint_of(checkpoint_folder(str(db)), "profi-hard", 3, 5).exists()
    # decided: a later retry has nothing to do
    code, err = retry(capsys, db, "profi-hard", 3, 5, 120)
    assert code == 0 and "0 deals to do, 1 already stored" in err


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="no ray")
def test_a_retry_on_ray_stores_the_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "ray.sqlite"
    store = Store(db)
    store.put_deal(unknown_row("profi-hard", 3, 5))
    store.put_deal(unknown_row("profi-hard", 3, 7))
    store.close()
    code, _, err = run_main(
        capsys, "survey", "run", "--variant", "profi-hard", "--players", "3",
        "--seeds", "5-7", "--time-limit", "60", "--retry-unknown", "--db", str(db),
        "--jobs", "2", "--backend", "ray",
    )  # fmt: skip
    assert code == 0, err
    got = {r["seed"]: r for r in stored(db)}
    # seed 6 was not stored: decided by the usual run; 5 and 7 retried on Ray
    assert set(got) == {5, 6, 7}
    assert got[5]["verdict"] == "win" and got[5]["time_limit"] == 60
    assert "2 unknown deals to search on, 2 workers each" in err
