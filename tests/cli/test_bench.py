"""``thegame bench``: a fixed set of positions per engine; the nodes are
the same on every run (the budget is nodes, not seconds)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from thegame.cli.main import cli
from thegame.solver.bench import ENGINES, NODES, SEEDS, bench


def test_bench_counts_the_same_nodes_on_every_run() -> None:
    result = CliRunner().invoke(cli, ["bench", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [e["engine"] for e in data["engines"]] == list(ENGINES)
    assert data["positions"] == len(ENGINES) * len(SEEDS) and data["node_budget"] == NODES
    for e in data["engines"]:
        assert 0 < e["stats"]["nodes"] <= NODES * len(SEEDS) + len(SEEDS), e
    again = bench()
    assert [r.nodes for r in again] == [e["stats"]["nodes"] for e in data["engines"]]
    assert data["stats"]["nodes"] == sum(r.nodes for r in again)
    assert data["stats"]["seconds"] < 60


def test_bench_prints_a_table_with_the_total() -> None:
    result = CliRunner().invoke(cli, ["bench"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["engine", "positions", "nodes"]
    assert lines[-2].startswith("total") and "nodes (each position at most 200,000)" in lines[-1]
