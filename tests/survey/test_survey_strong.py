"""``thegame survey blind --strength strong``: the strong blind player's games are
stored apart from the policy's, by budget, skipped on a rerun, reported in a
column of their own and carried through the export."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from thegame.cli.main import cli
from thegame.models import Limit
from thegame.survey import report
from thegame.survey.store import Store, open_for_reading
from thegame.survey.work import StrongSpec, decide, play_strong


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_strong_games_are_stored_by_budget_and_reported(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    store = Store(db)
    store.put_deal(decide("classic", 4, 1, Limit(10.0)))
    store.close()
    args = ["survey", "blind", "--db", str(db), "--jobs", "1", "--strength", "strong"]
    for _ in range(2):
        res = invoke(*args, "--playouts", "8")
        assert res.exit_code == 0, (res.output, res.exception)
    assert "classic 4p: 0 strong blind games to do, 1 already stored" in res.stderr
    res = invoke(*args, "--playouts", "8", "--sample-seed", "3")  # another player
    assert "classic 4p: 1 strong blind games to do, 0 already stored" in res.stderr
    store = Store(db)
    rows = store.strongs("classic", 4)
    assert [(r["playouts"], r["sample_seed"]) for r in rows] == [(8, 0), (8, 3)]
    assert store.blinds("classic", 4) == []  # the policy's table is untouched
    again = play_strong("classic", 4, 1, StrongSpec(8, 0.0, 0))
    assert {k: again[k] for k in ("won", "cards_left", "turns", "playouts_spent")} == {
        k: rows[0][k] for k in ("won", "cards_left", "turns", "playouts_spent")
    }
    assert 0 < rows[0]["playouts_spent"] <= 8 * rows[0]["turns"]
    text = report.markdown(report.collect(store), "s.sqlite", None)
    store.close()
    assert "| strong blind player |" in text
    assert "of 1, 8 playouts a turn" in text
    # Through the export and back: the same report.
    out = tmp_path / "s.jsonl"
    assert invoke("survey", "export", "--db", str(db), str(out)).exit_code == 0
    assert '"strong":[' in out.read_text()
    back = open_for_reading(out)
    assert report.markdown(report.collect(back), "s.sqlite", None) == text
    back.close()


def test_a_budget_needs_the_strong_level(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    Store(db).close()
    res = invoke("survey", "blind", "--db", str(db), "--playouts", "8")
    assert res.exit_code == 2
    assert "--turn-time and --playouts go with --strength strong" in res.output
