"""``thegame solve --jobs N --checkpoint FILE``: the split search from the
command line; Ctrl-C (SIGINT to the process) prints no answer, says
``interrupted``, exits 130 and leaves a checkpoint the same command goes
on from."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import run_main
from thegame.solver.the_game import ckernel

pytestmark = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")

CLI = "from thegame.cli.main import main; main()"


def test_jobs_and_checkpoint_solve_a_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(tmp_path / "run.json")
    code, out, _ = run_main(
        capsys, "solve", "--seed", "5", "--variant", "profi-hard", "--players", "3",
        "--jobs", "2", "--checkpoint", path, "--time-limit", "60", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["verdict"] == "win" and data["cards_left"] == 0
    saved = json.loads(Path(path).read_text())
    assert saved["won"] is not None  # the same command again answers from the file
    code, again, _ = run_main(
        capsys, "solve", "--seed", "5", "--variant", "profi-hard", "--players", "3",
        "--checkpoint", path, "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(again)["turns"] == data["turns"]


def test_a_record_or_cpsat_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_main(
        capsys, "solve", "--seed", "5", "--jobs", "2", "--engine", "cpsat"
    )  # fmt: skip
    assert code == 2 and "drop --engine cpsat" in err
    # a folder is taken (the deal's own file in it); a file in no folder is not
    missing = tmp_path / "no" / "run.json"
    code, _, err = run_main(capsys, "solve", "--seed", "5", "--checkpoint", str(missing))
    assert code == 2 and "no folder" in err and not missing.parent.exists()


def test_ctrl_c_stops_the_workers_and_the_command_goes_on(tmp_path: Path) -> None:
    path = str(tmp_path / "run.json")
    # profi-hard 108 (solo): undecided in minutes, so still running at the signal
    argv = [sys.executable, "-c", CLI, "solve", "--seed", "108", "--variant", "profi-hard",
            "--jobs", "2", "--checkpoint", path, "--json"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert out == b"" and b"interrupted" in err
    saved = json.loads(Path(path).read_text())
    assert saved["runs"] == 1 and saved["stack"]
