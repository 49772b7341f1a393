"""One budget for every duel question: a node limit counts every position
examined (the search's, its bounds' own searches', the estimate's playout
turns) and is kept; Ctrl-C ends a command with exit 130 and no answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game.duel.api import engine_answer, solve_duel

ROOT = Path(__file__).resolve().parents[3]
PRINTED = get_rules("face-to-face")


def counted(stats: dict[str, int]) -> int:
    return stats["search_nodes"] + stats["bound_nodes"] + stats.get("playout_turns", 0)


@pytest.mark.parametrize("nodes", [10_000, 40_000])
def test_a_node_limited_solve_keeps_its_budget_and_says_it_stopped(nodes: int) -> None:
    deal = Deal.from_seed(7, PRINTED)  # printed duel: far from decided at this budget
    cpu = time.process_time()
    sol = solve_duel(deal, Limit(nodes=nodes))
    cpu = time.process_time() - cpu
    # Some 3 s of CPU for 100,000 nodes on this machine (it took minutes
    # when the bounds' positions and the estimate were not counted).
    assert cpu < 2 + nodes / 2_000
    assert all(r.verdict == Verdict.UNKNOWN for r in sol.results)
    assert sol.stopped_early
    # Kept to within one look of the search (8 positions and their bounds).
    assert sol.nodes <= nodes * 1.05
    out = sol.to_dict()
    assert out["stopped_early"] is True and out["stats"]["nodes"] == sol.nodes
    for res, start in zip(sol.results, out["starts"], strict=True):
        # Every position the budget counted is named; the estimate says its sample.
        assert res.nodes == counted(start["stats"]) > 0
        assert res.estimate is not None and res.estimate.playouts > 0
        assert start["estimate"]["playouts"] == res.estimate.playouts
    assert sum(r.nodes for r in sol.races) <= nodes


def test_the_engine_keeps_a_node_budget() -> None:
    state = GameState(Deal.from_seed(3, PRINTED, first=2))
    res = engine_answer(state, Limit(nodes=5_000))
    assert res.verdict == Verdict.UNKNOWN and res.estimate is not None
    assert 0 < res.nodes <= 5_000
    assert res.nodes == counted(res.details)
    assert res.details["playout_turns"] > 0


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--variant", "face-to-face", "--seed", "7", "--time-limit", "60", "--json"),
        ("solve", "--variant", "face-to-face", "--seed", "7", "--node-limit", "10000000"),
    ],
)
def test_ctrl_c_exits_130_with_no_answer(args: tuple[str, ...]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", "from thegame.cli.main import main; main()", *args]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
        start_new_session=True,
    )  # fmt: skip
    time.sleep(4)  # past the imports and into the search
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert out.decode().strip() == ""
    assert "Traceback" not in err.decode()
    with pytest.raises(json.JSONDecodeError):
        json.loads(out.decode() or "")
