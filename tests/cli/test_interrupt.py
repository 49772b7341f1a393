"""Ctrl-C at a random moment of every long-running command of every game.

Each case starts a command as a terminal would (its own process group,
stdin open) and sends SIGINT to the group at a moment drawn from a seeded
generator (``THEGAME_INTERRUPT_SEED`` picks another draw). Whatever the
moment, the command either finished before it (exit 0, a whole answer) or
stops: exit 130, ``interrupted`` on stderr, no traceback, no answer on
stdout (the commands that print as they go print whole lines only), no
half-written file, and a survey database that holds whole rows only, each
of a search that finished.

The default run starts one moment of a few commands per game; ``-m slow``
starts every command at several moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.nimmt import random_record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
SEED = int(os.environ.get("THEGAME_INTERRUPT_SEED", "46"))
LATEST = 3.0  # seconds: the latest moment drawn (most commands run longer)


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]  # {dir} is the case's own folder
    live: bool = False  # prints whole lines as it goes (no held answer)
    json_lines: bool = False  # each stdout line is one JSON document


HARD = ("--seed", "108", "--variant", "profi-hard")  # undecided for minutes
SURVEY = ("survey", "run", "--seeds", "1-500", "--variant", "profi-hard",
          "--db", "{dir}/r.sqlite", "--time-limit", "2")  # fmt: skip
BATCH = ("solve-batch", "--seeds", "100-140", "--variant", "profi-hard")
CASES = [
    Case("solve-dfs", ("solve", *HARD, "--engine", "dfs", "--time-limit", "60", "--json")),
    Case("solve-cpsat", ("solve", *HARD, "--engine", "cpsat", "--time-limit", "60", "--json")),
    Case("solve-auto", ("solve", *HARD, "--time-limit", "60", "--save", "{dir}/line.json")),
    Case("explain", ("explain", *HARD, "--time-limit", "60")),
    Case("analyze", ("analyze", str(GOLDEN / "seed_2.record.json"), "--json")),
    Case("hint", ("hint", "{dir}/part.json", "--time-limit", "60")),
    Case("generate", ("generate", "--count", "50", "--difficulty", "hard", "--out", "{dir}/p",
                      "--json"), live=True, json_lines=True),
    Case("daily", ("daily", "--variant", "extreme", "--date", "2026-12-02", "--json")),
    Case("survey-run", (*SURVEY, "--jobs", "1"), live=True),
    Case("survey-run-jobs", (*SURVEY, "--jobs", "2"), live=True),
    Case("solve-batch", (*BATCH, "--jobs", "2", "--time-limit", "60"), live=True, json_lines=True),
    Case("play", ("play", "--seed", "1", "--save", "{dir}/game.json"), live=True),
    # seed 48: undecided for minutes even by the compiled table search
    Case("cento-solve", ("cento", "solve", "--seed", "48", "--players", "2", "--time-limit", "60",
                         "--json")),
    Case("cento-explain", ("cento", "explain", "--seed", "5", "--players", "2",
                           "--time-limit", "60")),
    Case("cento-hint", ("cento", "hint", "{dir}/cento.json", "--time-limit", "60", "--json")),
    Case("cento-analyze", ("cento", "analyze", "{dir}/cento.json", "--time-limit", "60")),
    Case("cento-generate", ("cento", "generate", "--count", "500", "--min-turns", "25",
                            "--json"), live=True, json_lines=True),
    Case("cento-daily", ("cento", "daily", "--date", "2026-12-01", "--json")),
    Case("cento-play", ("cento", "play", "--seed", "3"), live=True),
    Case("nimmt-solve", ("nimmt", "solve", "{dir}/nimmt.json", "--player", "2",
                         "--time-limit", "60", "--json")),
    Case("nimmt-hint", ("nimmt", "hint", "{dir}/nimmt-part.json", "--player", "2")),
    Case("nimmt-analyze", ("nimmt", "analyze", "{dir}/nimmt.json", "--player", "2")),
    Case("nimmt-play", ("nimmt", "play", "--seed", "3"), live=True),
    Case("mind-odds", ("mind", "odds", "--players", "4", "-d", "5", "--simulate", "100000",
                       "--json")),
    Case("mind-play", ("mind", "play", "--players", "2", "--seed", "1"), live=True),
    Case("daily-site", ("daily", "site", "--from", "2026-12-01", "--days", "3",
                        "--out", "{dir}/site", "--json")),
]
# The default run: one moment each of a few commands of every game.
QUICK = {"solve-cpsat", "solve-auto", "generate", "survey-run-jobs", "solve-batch", "play",
         "cento-solve", "nimmt-solve", "mind-play"}


def _params() -> list[object]:
    rng = random.Random(SEED)
    params: list[object] = []
    for case in CASES:
        moments = [round(rng.uniform(0.0, LATEST), 2) for _ in range(3)]
        for i, moment in enumerate(moments):
            marks = [] if case.name in QUICK and i == 0 else [pytest.mark.slow]
            params.append(pytest.param(case, moment, id=f"{case.name}-{moment}s", marks=marks))
    return params


def _inputs(folder: Path) -> None:
    """The records the commands read, written into ``folder``."""
    from thegame.models.cento import Deal as CentoDeal

    deal = CentoDeal.from_seed(3, players=2)
    (folder / "cento.json").write_text(json.dumps({"deal": deal.to_dict(), "turns": []}))
    game = json.loads((GOLDEN / "seed_2.record.json").read_text())
    game["turns"] = game["turns"][:5]  # a game in progress, for 'hint'
    (folder / "part.json").write_text(json.dumps(game))
    (folder / "nimmt.json").write_text(json.dumps(random_record(21, 4).to_json()))
    nimmt = random_record(21, 4).to_json()
    nimmt["turns"] = nimmt["turns"][:3]  # a round in progress, for 'nimmt hint'
    (folder / "nimmt-part.json").write_text(json.dumps(nimmt))


def _command(args: tuple[str, ...]) -> list[str]:
    # ``-S`` (no site module, the library folder given by hand): Python's
    # own start-up then runs no code of the installation, so the moments
    # test this program's handling from its first line on.
    return [sys.executable, "-S", "-c", "from thegame.cli.main import main; main()", *args]


def _environment() -> dict[str, str]:
    paths = [str(ROOT), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "COLUMNS": "100"}


def _rows(db: Path) -> list[tuple[object, ...]]:
    if not db.exists():
        return []
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return con.execute(
            "SELECT seed, verdict, seconds, time_limit, line FROM deals ORDER BY seed"
        ).fetchall()
    finally:
        con.close()


@pytest.mark.parametrize(("case", "moment"), _params())
def test_ctrl_c_at_any_moment_leaves_no_answer_and_nothing_half_written(
    case: Case, moment: float, tmp_path: Path
) -> None:
    _inputs(tmp_path)
    args = tuple(a.replace("{dir}", str(tmp_path)) for a in case.args)
    before = set(tmp_path.iterdir())
    proc = subprocess.Popen(
        _command(args),
        stdin=subprocess.PIPE,  # open and silent: play waits at its prompt
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=_environment(),
        cwd=tmp_path,
    )
    time.sleep(moment)
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal does
    try:
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    where = f"{case.name} at {moment} s: exit {proc.returncode}\n{err}"
    if _before_the_program(proc.returncode, out, err):
        return  # Python's own start-up: not one line of the program had run
    assert "Traceback" not in err and "Traceback" not in out, where
    assert proc.returncode in (0, 130), where
    if proc.returncode == 130:
        assert err.strip().splitlines()[-1].startswith("interrupted"), where
        if not case.live:
            assert out == "", where  # no answer, not even part of one
    if case.json_lines or (proc.returncode == 0 and "--json" in args and not case.live):
        for line in out.splitlines():
            json.loads(line)  # whole lines only
    _check_files(tmp_path, before, where)
    _check_survey(tmp_path / "r.sqlite", args, where)


def _before_the_program(code: int | None, out: str, err: str) -> bool:
    """Whether the Ctrl-C came while Python itself was starting, before the
    first line of ``thegame`` (on a loaded machine that can take a tenth of
    a second): killed by the signal, or a traceback with no frame of the
    package in it. From the package's first lines on, a Ctrl-C is quiet."""
    if out:
        return False
    quiet = err == "" or err.rstrip().endswith("KeyboardInterrupt")
    return code in (1, -signal.SIGINT) and quiet and "/thegame/" not in err


def _check_files(folder: Path, before: set[Path], where: str) -> None:
    """No temporary file left, and every file written is whole JSON."""
    for path in folder.rglob("*"):
        assert not path.name.startswith("."), f"{where}: left {path}"
        if path.suffix == ".json" and path not in before:
            json.loads(path.read_text(encoding="utf-8"))


def _check_survey(db: Path, args: tuple[str, ...], where: str) -> None:
    """Whole rows only, each of a search that finished: an answer, or an
    unknown whose budget was spent."""
    budget = float(args[args.index("--time-limit") + 1]) if "--time-limit" in args else 0.0
    for seed, verdict, seconds, time_limit, line in _rows(db):
        assert verdict in ("win", "loss", "unknown"), where
        assert time_limit == budget and line, where
        if verdict == "unknown":
            assert isinstance(seconds, float) and seconds >= 0.9 * budget, (where, seed)


def test_ctrl_c_during_a_large_sampling_is_answered_at_once(tmp_path: Path) -> None:
    """``analyze --samples 100000`` (the most it takes) answers Ctrl-C
    within a second or so, wherever the sampling is: exit 130, no answer."""
    args = ("analyze", str(GOLDEN / "seed_2.record.json"), "--samples", "100000", "--json")
    proc = subprocess.Popen(
        _command(args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=_environment(),
        cwd=tmp_path,
    )
    time.sleep(4.0)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    waited = time.monotonic() - sent
    assert proc.returncode == 130 and out == "", err
    assert err.strip().splitlines()[-1].startswith("interrupted")
    assert waited < 2.0, f"Ctrl-C answered after {waited:.2f} s"  # a loaded machine's slack
