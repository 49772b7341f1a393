"""``thegame solve --jobs N --backend ray``: the split search's workers as Ray
actors (a local Ray of N CPUs here); refused in one line without Ray."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import run_main
from tests.the_game.solver.test_parallel import lost_deal
from thegame.models import Backend, Limit, Verdict
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.parallel import solve_split

pytestmark = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="no ray")

CLI = "from thegame.cli.main import main; main()"


def test_without_ray_the_backend_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    path = tmp_path / "run.json"
    code, out, err = run_main(
        capsys, "solve", "--seed", "5", "--variant", "profi-hard", "--players", "3",
        "--jobs", "2", "--backend", "ray", "--checkpoint", str(path),
    )  # fmt: skip
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "error: --backend ray: Ray is not installed: pip install 'thegame[ray]' "
        "(or use --backend local)"
    ]
    assert not path.exists()


def test_an_address_without_ray_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "solve", "--seed", "5", "--address", "10.0.0.1:6379")
    assert code == 2 and "--address goes with --backend ray" in err


@needs_ray
@pytest.mark.slow
def test_ray_workers_decide_as_one_worker_within_the_budget() -> None:
    deal = lost_deal(1)
    one = solve_split(deal, Limit(), jobs=1, unit_nodes=20_000)
    two = solve_split(deal, Limit(), jobs=2, unit_nodes=20_000, backend=Backend.RAY)
    assert two.verdict == one.verdict == Verdict.LOSS
    split = two.details["split"]
    assert len(split["workers"]) == 2 and split["shared_bytes"] > 0
    assert two.nodes < 1.3 * one.nodes
    cut = solve_split(deal, Limit(nodes=30_000), jobs=2, unit_nodes=2000, backend=Backend.RAY)
    assert cut.verdict == Verdict.UNKNOWN and cut.nodes <= 30_000  # all workers together


@needs_ray
@pytest.mark.slow
def test_ctrl_c_stops_the_ray_workers_and_writes_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    argv = [sys.executable, "-c", CLI, "solve", "--seed", "108", "--variant", "profi-hard",
            "--jobs", "2", "--backend", "ray", "--checkpoint", str(path), "--json"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 180
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert out == b"" and b"interrupted" in err
    saved = json.loads(path.read_text())
    assert saved["runs"] == 1 and saved["stack"] and saved["nodes"] > 0
    assert len(saved["workers"]) == 2


@needs_ray
def test_an_address_nothing_answers_at_is_one_line_before_anything_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, db = tmp_path / "run.json", tmp_path / "r.sqlite"
    code, out, err = run_main(capsys, "solve", "--seed", "5", "--backend", "ray", "--address",
                              "127.0.0.1:1", "--checkpoint", str(path))  # fmt: skip
    assert code == 2 and out == ""
    assert err.splitlines() == ["error: --address: no Ray cluster answers at 127.0.0.1:1"]
    code, _, err = run_main(capsys, "survey", "run", "--seeds", "1-2", "--backend", "ray",
                            "--address", "127.0.0.1:1", "--db", str(db))  # fmt: skip
    assert code == 2 and err.splitlines() == [
        "error: --address: no Ray cluster answers at 127.0.0.1:1"
    ]
    assert not path.exists() and not db.exists()
