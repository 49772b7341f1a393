"""``benchmarks/line_retry.py``: a clear found from a turn of a stored best
line is stored as the deal's win, its whole line replaying from the deal's
start; an unknown row is replaced, nothing else is."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from thegame.models import Verdict
from thegame.models.the_game import Deal, get_rules, replay
from thegame.models.the_game.record import Record
from thegame.solver.the_game.api import solve
from thegame.survey.store import Store, write_export
from thegame.survey.work import deal_row

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from line_retry import main, stored_turns


def _unknown_row_with_a_winning_line(db: Path, seed: int) -> tuple[str, int]:
    """A classic solo deal's row stored as if its search had been cut: the
    verdict ``unknown`` with the line of a real clear."""
    deal = Deal.from_seed(seed, get_rules("classic"), 1)
    sol = solve(deal)
    assert sol.verdict is Verdict.WIN
    row = deal_row("classic", 1, seed, sol, 10.0)
    row.update(verdict=str(Verdict.UNKNOWN), cards_left=3, cards_left_proven=0, proof_kind=None)
    store = Store(db)
    store.put_deal(row)
    store.close()
    return str(row["line"]), len(sol.turns)


def test_a_clear_from_a_later_turn_is_stored_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, export = tmp_path / "r.sqlite", tmp_path / "r.jsonl"
    _, turns = _unknown_row_with_a_winning_line(db, 3)
    store = Store(db, create=False)
    write_export(store, export)
    store.close()
    main(["--seed", "3", "--variant", "classic", "--from-turn", str(turns // 2),
          "--export", str(export), "--nodes", "2000000", "--db", str(db)])  # fmt: skip
    assert "win" in capsys.readouterr().out
    store = Store(db, create=False)
    (row,) = store.deals("classic", 1)
    write_export(store, export)
    store.close()
    assert row["verdict"] == "win"
    assert row["cards_left"] == 0
    deal, line = stored_turns(str(export), "classic", 1, 3)
    result = replay(Record(deal, line))
    assert result.legal and result.state.cards_left() == 0


def test_nothing_but_a_win_is_stored(tmp_path: Path) -> None:
    db, export = tmp_path / "r.sqlite", tmp_path / "r.jsonl"
    line, _ = _unknown_row_with_a_winning_line(db, 5)
    store = Store(db, create=False)
    write_export(store, export)
    store.close()
    # A budget of one node decides nothing from the deal's start.
    main(["--seed", "5", "--variant", "classic", "--from-turn", "1",
          "--export", str(export), "--nodes", "1", "--db", str(db)])  # fmt: skip
    store = Store(db, create=False)
    (row,) = store.deals("classic", 1)
    store.close()
    assert row["verdict"] == "unknown"
    assert row["line"] == line
