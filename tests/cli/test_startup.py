"""Start-up and the end of the console script: what loads before a command
runs, the version line, a closed pipe, a budget kept from process start."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thegame import __version__
from thegame.analysis.the_game.rollout import backend as rollout_backend
from thegame.cli.main import version_line
from thegame.solver.cento.ctable import backend as cento_backend
from thegame.solver.the_game.ckernel import kernel_name
from thegame.solver.the_game.duel.ccore import backend as duel_backend

ROOT = Path(__file__).resolve().parents[2]
# Prints the modules loaded when the command ended (after its answer).
_MODULES = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
    "from thegame.cli.main import main\n"
    "main()\n"
)


def loaded(*args: str) -> set[str]:
    r = subprocess.run(
        [sys.executable, "-c", _MODULES, *args], capture_output=True, text=True, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    return set(r.stderr.rsplit("MODULES ", 1)[1].split())


def test_the_version_line_names_the_kernels_as_the_solvers_do() -> None:
    assert version_line() == (
        f"thegame {__version__}, search kernel: {kernel_name()}, "
        f"blind playouts: {rollout_backend()}, duel expansion: {duel_backend()}, "
        f"cento table search: {cento_backend()}"
    )


def test_version_loads_click_and_no_solver() -> None:
    mods = loaded("--version")
    assert "click" in mods
    ours = {m for m in mods if m.startswith("thegame.")}
    # The compiled extensions alone (the version line names them), with
    # their packages, and the models' front (the Ctrl-C flags live there).
    compiled = {m for m in ours if m.rsplit(".", 1)[1].startswith("_c")}
    packages = {p.rsplit(".", 1)[0] for p in compiled} | {"thegame.solver", "thegame.analysis"}
    models = {m for m in ours if m.startswith("thegame.models")}
    rest = ours - compiled - packages - models - {"thegame.cli", "thegame.cli.main",
                                                   "thegame.cli.lazy"}  # fmt: skip
    assert not rest, rest
    assert models <= {"thegame.models", "thegame.models.errors", "thegame.models.outcome",
                      "thegame.models.seeds", "thegame.models.interrupt"}, models  # fmt: skip
    assert not {"rich", "ortools", "networkx", "numpy"} & {m.split(".")[0] for m in mods}


@pytest.mark.parametrize(
    ("args", "own"),
    [
        (("deal", "--seed", "1"), "thegame.cli.the_game.deal"),
        (("cento", "deal", "--seed", "1"), "thegame.cli.cento.deal"),
        (("nimmt", "deal", "--seed", "1"), "thegame.cli.nimmt.deal"),
    ],
)
def test_a_command_loads_its_own_module_and_no_other_command(
    args: tuple[str, ...], own: str
) -> None:
    mods = loaded(*args)
    assert own in mods
    commands = {m for m in mods if m.startswith("thegame.cli.") and m.count(".") >= 3}
    others = {m for m in commands if not m.startswith(own.rsplit(".", 1)[0])}
    assert not others, others  # no other game's or room's commands
    assert not {"ortools", "networkx", "numpy"} & {m.split(".")[0] for m in mods}


def test_a_closed_pipe_ends_quietly_by_sigpipe() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from thegame.cli.main import main; main()",
         "deal", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader went away, as 'head' does
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert err == b""  # no traceback, no word
    assert proc.returncode == -signal.SIGPIPE  # as a Unix tool ends


def test_under_auto_a_tiny_budget_is_kept_with_cpsat_start_included() -> None:
    """``--time-limit 0.001`` under ``auto``: beyond loading the solver's
    modules (start-up), the solve stays within a tenth of a second: CP-SAT
    is not started (OR-Tools not even loaded) with too little time left."""
    code = (
        "import sys, time\n"
        "from thegame.models import Limit\n"
        "from thegame.models.the_game import Deal, get_rules\n"
        "from thegame.solver.the_game.portfolio import solve_with\n"
        "deal = Deal.from_seed(108, get_rules('profi-hard'), 1)\n"
        "t = time.monotonic()\n"
        "sol = solve_with(deal, 'auto', Limit(0.001))\n"
        "print(time.monotonic() - t, sol.verdict, 'ortools' in sys.modules)\n"
    )
    spent = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        seconds, verdict, cpsat = r.stdout.split()
        assert verdict == "unknown" and cpsat == "False"
        spent.append(float(seconds))
    assert min(spent) < 0.1 + 0.001, spent  # the best of three: the machine may be shared


def test_ctrl_c_while_the_modules_load_prints_no_traceback() -> None:
    for after in (0.05, 0.15, 0.3):
        proc = subprocess.Popen(
            [sys.executable, "-c", "from thegame.cli.main import main; main()",
             "solve", "--seed", "1", "--engine", "cpsat", "--time-limit", "30"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        time.sleep(after)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if proc.returncode in (1, -signal.SIGINT) and out == "" and "/thegame/" not in err:
            # Still inside Python's own start-up (site, or finding the first
            # module): no line of the package had run to quiet it.
            continue
        assert "Traceback" not in err, (after, err)
        assert out == "" and proc.returncode in (130, -signal.SIGINT), (after, err)
