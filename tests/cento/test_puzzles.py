"""``thegame cento generate`` and ``daily``: solo puzzles whose fewest-turns
answer is proven and whose solution replays through the referee."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from thegame.cli.main import cli
from thegame.models.cento import CentoStatus, Deal, Record, Turn, check
from thegame.solver.cento.brute import brute_solo_turns

SMALL = ["--cards", "1-16", "--hand-size", "3", "--free", "0"]


def test_generate_small_puzzles_are_proven_and_replay(tmp_path: Path) -> None:
    args = ["cento", "generate", "--count", "3", "--min-turns", "2", *SMALL, "--json"]
    result = CliRunner().invoke(cli, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3 and len(list(tmp_path.glob("cento-seed-*.json"))) == 3
    for p in lines:
        deal = Deal.from_dict(p["deal"])
        assert p["optimal"] is True and p["turn_count"] >= 2
        assert p["turn_count"] == brute_solo_turns(deal)
        turns = tuple(Turn.from_dict(t, "turns") for t in p["turns"])
        replay = check(Record(deal, turns))
        assert replay.legal and replay.status == CentoStatus.WON
        assert replay.steps_ok == p["turn_count"]


def test_daily_is_fixed_by_the_date() -> None:
    run = CliRunner().invoke(cli, ["cento", "daily", "--date", "2026-01-02", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["date"] == "2026-01-02" and data["seed"] // 100 == 20260102
    again = CliRunner().invoke(cli, ["cento", "daily", "--date", "2026-01-02", "--json"])
    assert json.loads(again.stdout) == data
    deal = Deal.from_dict(data["deal"])
    turns = tuple(Turn.from_dict(t, "turns") for t in data["turns"])
    assert check(Record(deal, turns)).status == CentoStatus.WON


def test_daily_bad_date_is_one_line() -> None:
    run = CliRunner().invoke(cli, ["cento", "daily", "--date", "2026-13-40"])
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "--date" in run.stderr
