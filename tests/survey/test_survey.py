"""The survey (thegame.survey, ``thegame survey``): rows as the solver found them,
one row per seed whatever happens to the run, another schema refused, the
report on a fixed database."""

from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from thegame import __version__
from thegame.cli.main import cli
from thegame.models import Backend, Limit
from thegame.models.the_game import Deal, get_rules, replay
from thegame.models.the_game.record import Record
from thegame.survey import report
from thegame.survey.runner import Plan, plan, run
from thegame.survey.store import DEAL_COLUMNS, SCHEMA_VERSION, Store, open_for_reading
from thegame.survey.work import Kind, decide, line_turns

ROOT = Path(__file__).resolve().parents[2]
# Volatile columns: how long a deal took is not part of what was found.
TIMING = {"seconds"}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def rows(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    order = "ORDER BY variant, players, seed"
    cur = con.execute(f"SELECT {', '.join(DEAL_COLUMNS)} FROM deals {order}")
    out = [dict(zip(DEAL_COLUMNS, r, strict=True)) for r in cur]
    con.close()
    return out


def stable(rs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in rs]


def test_a_row_holds_a_line_that_replays_through_the_engine() -> None:
    row = decide("classic", 5, 3, Limit(10.0))
    assert row["verdict"] == "win" and row["cards_left"] == 0 and row["proof_kind"] == "line"
    assert row["version"] == __version__ and row["time_limit"] == 10.0
    deal = Deal.from_seed(3, get_rules("classic"), 5)
    result = replay(Record(deal.with_first(row["first"]), line_turns(deal.rules, row["line"])))
    assert result.status == "won", result


def test_a_rerun_does_only_the_missing_seeds(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    res = invoke("survey", "run", "--players", "5", "--seeds", "1-3", "--db", str(db),
                 "--jobs", "1")
    assert res.exit_code == 0, res.output
    first = rows(db)
    res = invoke("survey", "run", "--players", "5", "--seeds", "1-5", "--db", str(db),
                 "--jobs", "1")
    assert res.exit_code == 0, res.output
    assert "2 deals to do, 3 already stored" in res.stderr
    after = rows(db)
    assert [r["seed"] for r in after] == [1, 2, 3, 4, 5]
    assert after[:3] == first  # untouched, timings too
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_retry_unknown_replaces_only_unknown_rows_with_a_smaller_budget(tmp_path: Path) -> None:
    store = Store(tmp_path / "u.sqlite")
    unknown = decide("classic", 5, 2, Limit(10.0)) | {
        "verdict": "unknown", "cards_left": 7, "cards_left_proven": 0, "lower_bound": 0,
        "proof_kind": None, "proof": None, "time_limit": 0.5,
    }
    store.put_deal(unknown)
    store.put_deal(decide("classic", 5, 3, Limit(10.0)))
    assert plan(store, Kind.DEAL, "classic", 5, range(1, 4), Limit(10.0)).seeds == (1,)
    assert plan(store, Kind.DEAL, "classic", 5, range(1, 4), Limit(0.5), True).seeds == (1,)
    p = plan(store, Kind.DEAL, "classic", 5, range(2, 4), Limit(10.0), retry_unknown=True)
    assert p.seeds == (2,)
    run(p, lambda rs: [store.put_deal(r) for r in rs], jobs=1)
    row = store.deals("classic", 5)[0]
    assert row["seed"] == 2 and row["verdict"] == "win" and row["time_limit"] == 10.0
    # A decided row is never replaced, whatever is written over it.
    store.put_deal(unknown)
    assert store.deals("classic", 5)[0]["verdict"] == "win"


def test_retry_unknown_retries_every_unknown_below_the_new_budget(tmp_path: Path) -> None:
    store = Store(tmp_path / "b.sqlite")
    for seed, budget in ((1, 0.5), (2, 2.0), (3, 5.0), (4, None)):
        store.put_deal(_row(seed, "unknown", 6) | {"time_limit": budget})
    store.put_deal(_row(5, "win", 0) | {"time_limit": 0.5})
    # The same budget retries none; a larger one every unknown stored below
    # it (and one stored without a budget, which a refused nan once wrote).
    assert plan(store, Kind.DEAL, "classic", 1, range(1, 6), Limit(0.5), True).seeds == (4,)
    assert plan(store, Kind.DEAL, "classic", 1, range(1, 6), Limit(5.0), True).seeds == (1, 2, 4)
    assert plan(store, Kind.DEAL, "classic", 1, range(1, 6), Limit(5.0)).seeds == ()


def test_ctrl_c_during_a_run_stores_no_deal_it_cut_short(tmp_path: Path) -> None:
    """In process (--jobs 1), Ctrl-C lands inside a deal's search: the deals
    finished before it are stored, the one it cut is not, and the run stops."""
    from thegame.models import interrupt

    store = Store(tmp_path / "c.sqlite")
    # profi-hard solo: seeds 1-3 decide in a fraction of a second, and most
    # later seeds take the whole budget.
    p = plan(store, Kind.DEAL, "profi-hard", 1, range(1, 40), Limit(5.0))
    stored: list[dict[str, Any]] = []
    start = time.monotonic()

    def put(rs: list[dict[str, Any]]) -> None:
        for r in rs:
            store.put_deal(r)
            stored.append(r)

    before = signal.signal(signal.SIGINT, interrupt.handler)
    interrupt.reset()
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run(p, put, jobs=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
        interrupt.reset()
    assert time.monotonic() - start < 30  # it stopped; it did not do 39 deals
    kept = store.deals("profi-hard", 1)
    # The deals in order, each stored whole (the last one may have been
    # committed just before the Ctrl-C landed in ``put`` itself).
    assert [r["seed"] for r in kept] == list(range(1, len(kept) + 1))
    assert len(kept) - len(stored) in (0, 1)
    for r in kept:  # each finished: an answer, or its whole budget spent
        assert r["verdict"] != "unknown" or r["seconds"] >= 0.9 * 5.0, r


def test_local_and_ray_backends_write_identical_rows(tmp_path: Path) -> None:
    seeds = "1-6"
    local, ray_db = tmp_path / "local.sqlite", tmp_path / "ray.sqlite"
    res = invoke("survey", "run", "--players", "5", "--seeds", seeds, "--db", str(local),
                 "--jobs", "2")
    assert res.exit_code == 0, res.output
    assert len(rows(local)) == 6
    ray = pytest.importorskip("ray")
    # One local Ray with 2 CPUs for both runs below (the runner leaves an
    # instance it did not start running).
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        res = invoke("survey", "run", "--players", "5", "--seeds", seeds, "--db", str(ray_db),
                     "--backend", "ray", "--jobs", "2", "--chunk", "2")
        assert res.exit_code == 0, (res.output, res.exception)
        assert stable(rows(ray_db)) == stable(rows(local))
        # A chunk that fails for good is reported, not stored, not fatal:
        # here a variant ``api.solve`` does not cover (a duel has its own
        # search) fails in the worker.
        bad = Plan(Kind.DEAL, "face-to-face", 2, (1, 2, 3), 0, 1.0)
        stored: list[dict[str, Any]] = []
        assert run(bad, stored.extend, Backend.RAY, chunk=2) == [1, 2, 3]
        assert stored == []
    finally:
        ray.shutdown()


def test_ray_backend_without_ray_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    db = tmp_path / "n.sqlite"
    res = invoke("survey", "run", "--seeds", "1-2", "--db", str(db), "--backend", "ray")
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [
        "error: --backend ray: Ray is not installed: pip install 'thegame[ray]' "
        "(or use --backend local)"
    ]
    assert not db.exists()


def _count(db: Path) -> int:
    try:
        con = sqlite3.connect(db, timeout=5)
        n: int = con.execute("SELECT count(*) FROM deals").fetchone()[0]
        con.close()
        return n
    except sqlite3.OperationalError:
        return 0  # not created yet


def test_a_run_killed_with_sigkill_and_rerun_has_one_row_per_seed(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    args = [sys.executable, "-m", "thegame.cli.main", "survey", "run", "--players", "5",
            "--seeds", "1-80", "--db", str(db), "--jobs", "2", "--time-limit", "10"]
    proc = subprocess.Popen(args, cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while _count(db) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the main process and its workers
        proc.wait()
    kept = _count(db)
    assert 3 <= kept < 80, kept  # killed mid-way
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{80 - kept} deals to do, {kept} already stored" in done.stderr
    assert [r["seed"] for r in rows(db)] == list(range(1, 81))


def test_a_database_of_another_schema_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    Store(db).put_deal(decide("classic", 5, 1, Limit(10.0)))
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    before = db.read_bytes()
    for cmd in (["run", "--players", "5", "--seeds", "1-3"], ["report"], ["blind"]):
        res = invoke("survey", *cmd, "--db", str(db))
        assert res.exit_code == 2, res.output
        assert res.stderr.splitlines() == [
            f"error: {db}: written with survey schema 99, this thegame reads schema "
            f"{SCHEMA_VERSION}: use another --db file (nothing was changed)"
        ]
    assert db.read_bytes() == before
    assert len(rows(db)) == 1
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    res = invoke("survey", "report", "--db", str(other))
    assert res.exit_code == 2 and "not a survey database" in res.stderr
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not sqlite at all, just text " * 100)
    res = invoke("survey", "run", "--seeds", "1", "--db", str(junk))
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert "not a survey database" in res.stderr


def test_wilson_interval() -> None:
    lo, hi = report.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = report.wilson(0, 10)
    assert lo == 0 and round(hi, 4) == 0.2775
    lo, hi = report.wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == 1


def _row(seed: int, verdict: str, left: int = 0, variant: str = "classic",
         players: int = 1, seconds: float = 1.0) -> dict[str, Any]:
    return {
        "variant": variant, "players": players, "seed": seed, "verdict": verdict,
        "first": 1, "cards_left": left, "cards_left_proven": int(verdict != "unknown"),
        "lower_bound": left if verdict != "unknown" else 1,
        "proof_kind": {"win": "line", "loss": "exhaustive"}.get(verdict),
        "proof": None, "line": "", "nodes": 10, "seconds": seconds, "time_limit": 10.0,
        "version": "0.1.0",
    }


def _blind(seed: int, won: bool, left: int, variant: str = "classic",
           players: int = 1) -> dict[str, Any]:
    return {"variant": variant, "players": players, "seed": seed, "won": int(won),
            "cards_left": left, "turns": 40, "seconds": 0.2, "version": "0.1.0"}


def test_report_on_a_fixed_database(tmp_path: Path) -> None:
    db = tmp_path / "fixed.sqlite"
    store = Store(db)
    # classic solo seeds 1-10: 7 clears, losses 4 and 5, seed 7 unknown.
    for s in range(1, 11):
        verdict = {4: "loss", 5: "loss", 7: "unknown"}.get(s, "win")
        store.put_deal(_row(s, verdict, {4: 3, 5: 1, 7: 6}.get(s, 0), seconds=float(s)))
        store.put_blind(_blind(s, s in (1, 2), 0 if s in (1, 2) else s + 20))
    # profi solo seeds 1-4: all clears: exact.
    for s in range(1, 5):
        store.put_deal(_row(s, "win", variant="profi", seconds=0.5))
    store.close()
    out = tmp_path / "FINDINGS.md"
    notes = tmp_path / "notes.md"
    notes.write_text("## How this was made\n\nBy hand.\n")
    res = invoke("survey", "report", "--db", str(db), "--out", str(out), "--notes", str(notes))
    assert res.exit_code == 0, res.output
    text = out.read_text()
    lo, hi = report.wilson(7, 10)[0], report.wilson(8, 10)[1]
    assert (
        f"| classic | 1 | 1-10 | 10 | 7 | 70.00%-80.00% | {100 * lo:.2f}%-{100 * hi:.2f}% "
        "| 2 | 1 | 5.500 | 10.00 | 10 s | not exact |"
    ) in text
    assert "| profi | 1 | 1-4 | 4 | 4 | 100.00% | 51.01%-100.00% | 0 | 0 | 0.500 | 0.50 " in text
    assert "| exact |" in text
    assert "2 proven loss(es): seed 4 (3 left); seed 5 (1 left)" in text
    assert "unknown (1): seeds 7" in text
    assert "cut by a budget: 1 at 10 s" in text
    # The blind rate on the 9 decided seeds (the unknown seed 7 is left out).
    blo, bhi = report.wilson(2, 9)
    assert (
        f"| classic | 1 | 9 | 2 | 22.22% | {100 * blo:.2f}%-{100 * bhi:.2f}% | 77.78% "
        "| 11.77% (best public heuristic the README cites) |"
    ) in text
    assert "| profi | 1 | 0 | - | - | - | - | - |" in text
    assert "| classic | 1 | 0: 7, 1: 1, 3: 1 | 0: 2, 23: 1, 24: 1, 25: 1, 26: 1, 28: 1" in text
    assert "![fewest cards left per deal](FINDINGS.svg)" in text
    assert text.endswith("\n## How this was made\n\nBy hand.\n")
    svg = ET.parse(tmp_path / "FINDINGS.svg").getroot()
    bars = [r for r in svg.iter("{http://www.w3.org/2000/svg}rect") if r.find(
        "{http://www.w3.org/2000/svg}title") is not None]
    # classic: exact 0 (7), 1, 3; blind 0 (2), "20+" (7); profi: exact 0 (4).
    counts = sorted(int(r.find("{http://www.w3.org/2000/svg}title").text or 0) for r in bars)
    assert counts == [1, 1, 2, 4, 7, 7]


def test_report_or_blind_of_a_missing_database_is_one_line(tmp_path: Path) -> None:
    for cmd in ("report", "blind"):
        res = invoke("survey", cmd, "--db", str(tmp_path / "none.sqlite"))
        assert res.exit_code == 2
        assert res.stderr == f"error: {tmp_path / 'none.sqlite'}: no such database\n"
        assert not (tmp_path / "none.sqlite").exists()


def test_bad_seed_range_is_one_line(tmp_path: Path) -> None:
    res = invoke("survey", "run", "--seeds", "9-1", "--db", str(tmp_path / "b.sqlite"))
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1


def test_blind_plays_every_stored_group_once(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite"
    store = Store(db)
    for players, seed in ((5, 1), (5, 2), (4, 1)):
        store.put_deal(decide("classic", players, seed, Limit(10.0)))
    store.close()
    for _ in range(2):
        res = invoke("survey", "blind", "--db", str(db), "--jobs", "1")
        assert res.exit_code == 0, (res.output, res.exception)
    assert "classic 4p: 0 blind games to do, 1 already stored" in res.stderr
    assert "classic 5p: 0 blind games to do, 2 already stored" in res.stderr
    store = Store(db)
    assert [b["seed"] for b in store.blinds("classic", 5)] == [1, 2]
    assert [b["seed"] for b in store.blinds("classic", 4)] == [1]
    assert all(b["version"] == __version__ for b in store.blinds("classic", 5))


def _small_store(db: Path) -> None:
    store = Store(db)
    for s in (3, 1, 2):  # written out of order: the export sorts
        store.put_deal(_row(s, "win" if s != 2 else "unknown", seconds=s / 7))
        store.put_blind(_blind(s, s == 1, 0 if s == 1 else 30 + s))
    store.put_deal(_row(1, "loss", 2, variant="profi", players=2) | {"proof": "no \"way\" — é"})
    store.put_blind(_blind(5, False, 9, variant="profi", players=2))  # a blind row alone
    store.close()


def _all_rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db)
    out = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
           for t in ("deals", "blind")}
    out["meta"] = con.execute("SELECT * FROM meta ORDER BY key").fetchall()
    con.close()
    return out


@pytest.mark.parametrize("name", ["r.jsonl.gz", "r.jsonl"])
def test_export_import_round_trip_gives_the_same_rows_and_bytes(
    tmp_path: Path, name: str
) -> None:
    db, export, again = tmp_path / "a.sqlite", tmp_path / name, tmp_path / f"again.{name}"
    _small_store(db)
    res = invoke("survey", "export", "--db", str(db), str(export))
    assert res.exit_code == 0, res.output
    assert res.stderr == f"5 deals exported to {export}\n"
    rebuilt = tmp_path / "b.sqlite"
    res = invoke("survey", "import", str(export), "--db", str(rebuilt))
    assert res.exit_code == 0, res.output
    assert _all_rows(rebuilt) == _all_rows(db)
    assert invoke("survey", "export", "--db", str(rebuilt), str(again)).exit_code == 0
    assert again.read_bytes() == export.read_bytes()
    text = export.read_bytes()
    if name.endswith(".gz"):
        text = gzip.decompress(text)
    lines = text.decode("utf-8").splitlines()
    assert lines[0] == '{"format":"thegame survey export","schema_version":1}'
    keys = [(d["variant"], d["players"], d["seed"]) for d in map(json.loads, lines[1:])]
    assert keys == [("classic", 1, 1), ("classic", 1, 2), ("classic", 1, 3),
                    ("profi", 2, 1), ("profi", 2, 5)]
    assert "deal" not in json.loads(lines[-1]) and json.loads(lines[-1])["blind"]["cards_left"] == 9
    assert json.loads(lines[2])["deal"]["seconds"] == 2 / 7  # floats exactly


def test_report_reads_an_export_as_it_reads_the_database(tmp_path: Path) -> None:
    db, export = tmp_path / "a.sqlite", tmp_path / "a.jsonl.gz"
    _small_store(db)
    assert invoke("survey", "export", "--db", str(db), str(export)).exit_code == 0
    from_db = invoke("survey", "report", "--db", str(db))
    from_export = invoke("survey", "report", "--db", str(export))
    assert from_db.exit_code == 0 and from_export.exit_code == 0, from_export.output
    assert "| classic | 1 | 1-3 | 3 | 2 |" in from_db.stdout
    assert from_export.stdout == from_db.stdout.replace("--db a.sqlite", "--db a.jsonl.gz")


def test_import_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    _small_store(db)
    export = tmp_path / "a.jsonl"
    assert invoke("survey", "export", "--db", str(db), str(export)).exit_code == 0
    good = export.read_text().splitlines()
    cases = {
        "exists: import builds a new database": None,
        "not a survey export (no header line)": good[1:],
        "line 3: not a JSON object": [good[0], good[1], "{oops"],
        "line 2: the deal row has other columns": [good[0], good[1].replace('"first"', '"1st"')],
        "line 3: UNIQUE constraint failed": [good[0], good[1], good[1]],
        "exported with survey schema 9": [good[0].replace(":1}", ":9}"), good[1]],
    }
    for message, lines in cases.items():
        source, target = export, db
        if lines is not None:
            source, target = tmp_path / "bad.jsonl", tmp_path / "new.sqlite"
            source.write_text("\n".join(lines) + "\n")
        res = invoke("survey", "import", str(source), "--db", str(target))
        assert res.exit_code == 2, (message, res.output)
        assert len(res.stderr.splitlines()) == 1 and message in res.stderr, res.stderr
        assert not (tmp_path / "new.sqlite").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "a.sqlite", "bad.jsonl"]
    res = invoke("survey", "import", str(tmp_path / "none.jsonl.gz"), "--db", str(tmp_path / "n"))
    assert res.exit_code == 2 and "no such file" in res.stderr


def test_the_committed_export_backs_the_committed_findings() -> None:
    """FINDINGS.md's tables come from the export kept in the repository."""
    store = open_for_reading(ROOT / "findings" / "results.jsonl.gz")
    groups = report.collect(store)
    store.close()
    text = report.markdown(groups, "results.jsonl.gz", "FINDINGS.svg")
    findings = (ROOT / "FINDINGS.md").read_text(encoding="utf-8")
    tables = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(tables) > 30
    # The report's own part ends where the notes (findings/notes.md) begin.
    generated = findings[: findings.index("\n## How this was made")]
    assert tables == [line for line in generated.splitlines() if line.startswith("| ")]
